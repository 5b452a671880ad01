import type { Receipt } from '../api/types';

/** "Read by 1 of 2" on a sent mail that asked for read receipts. */
export function ReceiptBadge({ receipts }: { receipts: Receipt[] }) {
  const read = receipts.filter((receipt) => receipt.firstReadAt !== null).length;
  return (
    <span
      className={`receipt-badge${read ? ' read' : ''}`}
      title={receipts.map((receipt) => `${receipt.email}: ${receipt.firstReadAt ? 'read' : 'not read yet'}`).join('\n')}
    >
      {read === 0 ? 'Not read yet' : `Read by ${read} of ${receipts.length}`}
    </span>
  );
}
