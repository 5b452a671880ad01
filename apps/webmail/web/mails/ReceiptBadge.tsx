import { useTranslation } from 'react-i18next';
import type { Receipt } from '../api/types';

/** "Read by 1 of 2" on a sent mail that asked for read receipts. */
export function ReceiptBadge({ receipts }: { receipts: Receipt[] }) {
  const { t } = useTranslation();
  const read = receipts.filter((receipt) => receipt.firstReadAt !== null).length;
  return (
    <span
      className={`receipt-badge${read ? ' read' : ''}`}
      title={receipts.map((receipt) => `${receipt.email}: ${receipt.firstReadAt ? t('receipts.read') : t('receipts.notReadYet')}`).join('\n')}
    >
      {read === 0 ? t('receipts.badgeNone') : t('receipts.badgeSome', { read, total: receipts.length })}
    </span>
  );
}
