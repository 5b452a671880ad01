import type { SendStatus } from '@letterbox/db';
import { recipientsOf, type SendRequest } from '../submit/send-request';
import type { SendRecipientView, SendView } from '../submit/send-view';
import type { RecipientStatusRow } from './recipient-statuses';

export interface SendRecipientsFacts {
  send: SendView;
  request: Pick<SendRequest, 'to' | 'cc' | 'bcc'>;
  /** The keys of the messages taken (a recipient's address, or `*` for a whole-send message). */
  deliveredTo: string[];
  rows: RecipientStatusRow[];
  /** Recipients on the office's suppression list, asked while the send is still to go. */
  suppressed: Set<string>;
}

/**
 * Each recipient's status: its row when a bounce, a delay or the suppression list said
 * something of it; otherwise what its send's status says. A suppressed address of a send
 * still to go is `suppressed` at once, before the worker records it.
 */
export function recipientViews({ send, request, deliveredTo, rows, suppressed }: SendRecipientsFacts): SendRecipientView[] {
  const rowOf = new Map(rows.map((row) => [row.address, row]));
  const settledAt = send.sentAt ?? send.startedAt ?? send.requestedAt;
  return recipientsOf(request).map((address) => {
    const row = rowOf.get(address);
    if (row) return { address, status: row.status, ...(row.diagnostic !== null && { diagnostic: row.diagnostic }), at: row.at.toISOString() };
    if (suppressed.has(address)) return { address, status: 'suppressed', diagnostic: 'on the suppression list', at: send.requestedAt };
    if (deliveredTo.includes(address) || deliveredTo.includes('*')) return { address, status: 'sent', at: settledAt };
    return fromSend(address, send.status, send, settledAt);
  });
}

function fromSend(address: string, status: SendStatus, send: SendView, at: string): SendRecipientView {
  switch (status) {
    case 'sent':
      return { address, status: 'sent', at };
    case 'failed':
      return { address, status: 'failed', ...(send.lastError !== null && { diagnostic: send.lastError }), at };
    case 'cancelled':
      return { address, status: 'failed', diagnostic: 'the send was cancelled', at };
    default:
      return { address, status: 'queued', at: send.requestedAt };
  }
}
