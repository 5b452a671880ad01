import type { Receipt } from '../api/types';
import { formatFullDate } from '../shared/format';

/** Who has opened a sent mail that asked for read receipts. */
export function ReceiptList({ receipts }: { receipts: Receipt[] }) {
  if (receipts.length === 0) return null;
  return (
    <section className="receipts" aria-label="Read receipts">
      <h3>Read receipts</h3>
      <ul>
        {receipts.map((receipt) => (
          <li key={receipt.email} className={receipt.firstReadAt ? 'read' : 'unread'}>
            <span className="receipt-email">{receipt.email}</span>{' '}
            <span className="receipt-state">
              {receipt.firstReadAt
                ? `read ${formatFullDate(receipt.firstReadAt)}${receipt.readCount > 1 ? ` (${receipt.readCount} times)` : ''}`
                : 'not read yet'}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
