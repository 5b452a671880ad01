import { inTransaction, namedStatement, type Database } from '@letterbox/db';
import { returnSentCopyToDrafts } from '@letterbox/mail';
import { SendAlreadyStartedError, SendNotFoundError } from '../send-errors';
import type { SendOutbox } from './send-outbox';
import { SEND_RECORD_COLUMNS, sendViewOfRecord, type SendRecordRow, type SendView } from './send-view';

const STATUS = namedStatement('send-status', `SELECT ${SEND_RECORD_COLUMNS} FROM outbound_sends WHERE id = $1 AND user_id = $2`);

const CANCEL = namedStatement(
  'send-cancel',
  `UPDATE outbound_sends SET status = 'cancelled' WHERE id = $1 AND user_id = $2 AND status = 'queued'
   RETURNING ${SEND_RECORD_COLUMNS}, sent_copy_pending`,
);

/** A user's own sends: their status, and undo while they have not gone out. */
export class UserSends {
  constructor(
    private readonly db: Database,
    private readonly outbox: SendOutbox,
  ) {}

  async status(userId: number, sendId: number): Promise<SendView> {
    const { rows } = await this.db.sql.query<SendRecordRow>({ ...STATUS, values: [sendId, userId] });
    if (!rows[0]) throw new SendNotFoundError(sendId);
    return sendViewOfRecord(rows[0]);
  }

  /**
   * Cancels a send that no worker has started. The status check and the change are one
   * statement, so a worker claiming the send at the same moment either wins or sees it
   * cancelled. The Sent copy goes back to Drafts, as an undone send does, and the send's
   * job leaves the queue after the transaction, never inside it.
   */
  async cancel(userId: number, sendId: number): Promise<SendView> {
    const cancelled = await inTransaction(this.db.sql, async (client) => {
      const { rows } = await client.query<SendRecordRow & { sent_copy_pending: boolean }>({ ...CANCEL, values: [sendId, userId] });
      const send = rows[0];
      // A copy still pending is stored in Drafts by the worker, which finds the send cancelled.
      if (send && send.sent_mail_id !== null && !send.sent_copy_pending) await returnSentCopyToDrafts(client, userId, Number(send.sent_mail_id));
      return send;
    });
    if (cancelled) {
      await this.outbox.withdraw(sendId);
      return sendViewOfRecord(cancelled);
    }
    const current = await this.status(userId, sendId);
    if (current.status === 'cancelled') return current;
    throw new SendAlreadyStartedError(sendId, current.status);
  }
}
