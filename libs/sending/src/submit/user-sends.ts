import type { PoolClient } from 'pg';
import { inTransaction, namedStatement, type Database } from '@letterbox/db';
import { returnSentCopyToDrafts } from '@letterbox/mail';
import { RecipientStatuses } from '../bounces/recipient-statuses';
import { undoneSendDraftSql } from '../drafts/undone-send-draft';
import { recipientViews } from '../bounces/recipient-views';
import { Suppressions } from '../bounces/suppressions';
import { NoSendOfMailError, SendAlreadyStartedError, SendNotFoundError } from '../send-errors';
import { parseRecordedRequest } from './record-send';
import { recipientsOf } from './send-request';
import type { SendOutbox } from './send-outbox';
import { SEND_RECORD_COLUMNS, sendViewOfRecord, type ScheduledSendView, type SendRecordRow, type SendStatusView } from './send-view';

/** What a send's recipients' statuses are made from, beside its record. */
const RECIPIENT_COLUMNS = 'request, delivered_to, (SELECT office_id FROM users WHERE users.id = user_id) AS office_id';

type StatusRow = SendRecordRow & { request: unknown; delivered_to: string[]; office_id: number };

const STATUS = namedStatement('send-status', `SELECT ${SEND_RECORD_COLUMNS}, ${RECIPIENT_COLUMNS} FROM outbound_sends WHERE id = $1 AND user_id = $2`);

// A Sent copy belongs to one send; a newer send naming the same copy cannot exist, the order only makes the answer certain.
const STATUS_OF_SENT_MAIL = namedStatement(
  'send-status-of-sent-mail',
  `SELECT ${SEND_RECORD_COLUMNS}, ${RECIPIENT_COLUMNS} FROM outbound_sends WHERE sent_mail_id = $1 AND user_id = $2 ORDER BY id DESC LIMIT 1`,
);

/** At most this many are listed: a user schedules a few mails, never thousands. */
const SCHEDULED_LIMIT = 200;

const SCHEDULED = namedStatement(
  'sends-scheduled',
  `SELECT ${SEND_RECORD_COLUMNS}, request FROM outbound_sends
    WHERE user_id = $1 AND status = 'queued' AND scheduled_at > now()
    ORDER BY scheduled_at, id LIMIT ${SCHEDULED_LIMIT}`,
);

const CANCEL = namedStatement(
  'send-cancel',
  `UPDATE outbound_sends SET status = 'cancelled' WHERE id = $1 AND user_id = $2 AND status = 'queued'
   RETURNING ${SEND_RECORD_COLUMNS}, ${RECIPIENT_COLUMNS}, sent_copy_pending`,
);

/** The draft an undone send's copy becomes, once the copy is back in Drafts. */
const DRAFT_OF_UNDONE = namedStatement(
  'send-undone-draft',
  `INSERT INTO drafts (mail_id, user_id, content)
   SELECT sent_mail_id, user_id, ${undoneSendDraftSql('request')} FROM outbound_sends WHERE id = $1 AND user_id = $2
   ON CONFLICT (mail_id) DO NOTHING`,
);

/** A user's own sends: their status (each recipient's too), and undo while they have not gone out. */
export class UserSends {
  private readonly statuses: RecipientStatuses;
  private readonly suppressions: Suppressions;

  constructor(
    private readonly db: Database,
    private readonly outbox: SendOutbox,
  ) {
    this.statuses = new RecipientStatuses(db.sql);
    this.suppressions = new Suppressions(db.sql);
  }

  async status(userId: number, sendId: number): Promise<SendStatusView> {
    const { rows } = await this.db.sql.query<StatusRow>({ ...STATUS, values: [sendId, userId] });
    if (!rows[0]) throw new SendNotFoundError(sendId);
    return this.withRecipients(rows[0]);
  }

  /** The send whose Sent copy is `mailId`, with each recipient's status: what the webmail shows under a sent mail. */
  async statusOfSentMail(userId: number, mailId: number): Promise<SendStatusView> {
    const { rows } = await this.db.sql.query<StatusRow>({ ...STATUS_OF_SENT_MAIL, values: [mailId, userId] });
    if (!rows[0]) throw new NoSendOfMailError(mailId);
    return this.withRecipients(rows[0]);
  }

  /** The user's sends still waiting for their time, soonest first: what "Send later" has put off, each to be cancelled. */
  async scheduled(userId: number): Promise<ScheduledSendView[]> {
    const { rows } = await this.db.sql.query<SendRecordRow & { request: unknown }>({ ...SCHEDULED, values: [userId] });
    return rows.map((row) => {
      const request = parseRecordedRequest(row.id, row.request);
      return { ...sendViewOfRecord(row), subject: request.subject, to: recipientsOf(request) };
    });
  }

  /**
   * Cancels a send that no worker has started. The status check and the change are one
   * statement, so a worker claiming the send at the same moment either wins or sees it
   * cancelled. The Sent copy goes back to Drafts as the draft it was, and the send's
   * job leaves the queue after the transaction, never inside it.
   */
  async cancel(userId: number, sendId: number): Promise<SendStatusView> {
    const cancelled = await inTransaction(this.db.sql, async (client: PoolClient) => {
      const { rows } = await client.query<StatusRow & { sent_copy_pending: boolean }>({ ...CANCEL, values: [sendId, userId] });
      const send = rows[0];
      // A copy still pending is stored in Drafts by the worker, which finds the send cancelled.
      if (send && send.sent_mail_id !== null && !send.sent_copy_pending) {
        await returnSentCopyToDrafts(client, userId, Number(send.sent_mail_id));
        await client.query({ ...DRAFT_OF_UNDONE, values: [sendId, userId] });
      }
      return send;
    });
    if (cancelled) {
      await this.outbox.withdraw(sendId);
      return this.withRecipients(cancelled);
    }
    const current = await this.status(userId, sendId);
    if (current.status === 'cancelled') return current;
    throw new SendAlreadyStartedError(sendId, current.status);
  }

  private async withRecipients(row: StatusRow): Promise<SendStatusView> {
    const send = sendViewOfRecord(row);
    const request = parseRecordedRequest(row.id, row.request);
    const toGo = send.status === 'queued' || send.status === 'sending';
    const [rows, suppressed] = await Promise.all([
      this.statuses.ofSend(send.id),
      toGo ? this.suppressions.among(row.office_id, recipientsOf(request)) : Promise.resolve(new Set<string>()),
    ]);
    return { ...send, recipients: recipientViews({ send, request, deliveredTo: row.delivered_to, rows, suppressed }) };
  }
}
