import { useTranslation } from 'react-i18next';
import type { Receipt } from '../api/types';
import { formatFullDate } from '../shared/format';

/** Who has opened a sent mail that asked for read receipts. */
export function ReceiptList({ receipts }: { receipts: Receipt[] }) {
  const { t } = useTranslation();
  if (receipts.length === 0) return null;
  return (
    <section className="receipts" aria-label={t('receipts.title')}>
      <h3>{t('receipts.title')}</h3>
      <ul>
        {receipts.map((receipt) => (
          <li key={receipt.email} className={receipt.firstReadAt ? 'read' : 'unread'}>
            <span className="receipt-email">{receipt.email}</span>{' '}
            <span className="receipt-state">
              {receipt.firstReadAt
                ? receipt.readCount > 1
                  ? t('receipts.readAtTimes', { date: formatFullDate(receipt.firstReadAt), count: receipt.readCount })
                  : t('receipts.readAt', { date: formatFullDate(receipt.firstReadAt) })
                : t('receipts.notReadYet')}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
