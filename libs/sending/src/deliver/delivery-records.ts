import type { Pool } from 'pg';
import { namedStatement, type SendStatus } from '@letterbox/db';
import { parseRecordedRequest, type RecordedRequest } from '../submit/record-send';
import type { Sender } from '../submit/send-request';

/** A send as its delivery reads it: what it asks, by whom, and which of its messages are done. */
export interface SendToDeliver {
  status: SendStatus;
  request: RecordedRequest;
  sender: Sender;
  sentCopyPending: boolean;
  sentMailId: number | null;
  /** The keys of its messages the provider (or Letterbox) took, refused for good, or was handed. */
  deliveredTo: string[];
  refusedTo: string[];
  attemptedTo: string[];
}

const SEND_TO_DELIVER = namedStatement(
  'send-to-deliver',
  `SELECT s.status, s.request, s.sent_copy_pending, s.sent_mail_id, s.delivered_to, s.refused_to, s.attempted_to,
          u.id AS user_id, u.office_id, u.email, u.display_name
     FROM outbound_sends s JOIN users u ON u.id = s.user_id
    WHERE s.id = $1`,
);

const DELIVERED = namedStatement('send-delivered-to', 'UPDATE outbound_sends SET delivered_to = array_append(delivered_to, $2) WHERE id = $1');
const REFUSED = namedStatement('send-refused-to', 'UPDATE outbound_sends SET refused_to = array_append(refused_to, $2), last_error = $3 WHERE id = $1');
const LAST_ERROR = namedStatement('send-last-error', 'UPDATE outbound_sends SET last_error = $2 WHERE id = $1');
const FAILED = namedStatement('send-failed', `UPDATE outbound_sends SET status = 'failed', last_error = COALESCE($2, last_error) WHERE id = $1`);
const SENT = namedStatement('send-sent', `UPDATE outbound_sends SET status = 'sent', sent_at = now(), last_error = $2 WHERE id = $1`);
const GIVEN_UP = namedStatement(
  'send-given-up',
  `UPDATE outbound_sends SET status = 'failed', last_error = $2 WHERE id = $1 AND status IN ('queued', 'sending')`,
);

/**
 * The rows of sends being delivered, in raw SQL: these run for every message a worker
 * sends. What a send records of its delivery, beside claimDelivery's record of attempts.
 */
export class DeliveryRecords {
  constructor(private readonly sql: Pool) {}

  async send(sendId: number): Promise<SendToDeliver | undefined> {
    const { rows } = await this.sql.query<{
      status: SendStatus;
      request: unknown;
      sent_copy_pending: boolean;
      sent_mail_id: string | null;
      delivered_to: string[];
      refused_to: string[];
      attempted_to: string[];
      user_id: number;
      office_id: number;
      email: string;
      display_name: string;
    }>({ ...SEND_TO_DELIVER, values: [sendId] });
    const row = rows[0];
    if (!row) return undefined;
    return {
      status: row.status,
      request: parseRecordedRequest(sendId, row.request),
      sender: { userId: row.user_id, officeId: row.office_id, email: row.email, displayName: row.display_name },
      sentCopyPending: row.sent_copy_pending,
      sentMailId: row.sent_mail_id === null ? null : Number(row.sent_mail_id),
      deliveredTo: row.delivered_to,
      refusedTo: row.refused_to,
      attemptedTo: row.attempted_to,
    };
  }

  /** The message under `key` was taken. */
  async delivered(sendId: number, key: string): Promise<void> {
    await this.sql.query({ ...DELIVERED, values: [sendId, key] });
  }

  /** The message under `key` was refused for good, for `lastError`; the send's other messages still go. */
  async refused(sendId: number, key: string, lastError: string): Promise<void> {
    await this.sql.query({ ...REFUSED, values: [sendId, key, lastError] });
  }

  /** A message's attempt failed for now, for `lastError`. */
  async lastError(sendId: number, lastError: string): Promise<void> {
    await this.sql.query({ ...LAST_ERROR, values: [sendId, lastError] });
  }

  /** The send failed: for `lastError`, else for the error it last recorded. */
  async failed(sendId: number, lastError?: string): Promise<void> {
    await this.sql.query({ ...FAILED, values: [sendId, lastError ?? null] });
  }

  /** The send went out; `lastError` tells of the recipients refused for good, if any. */
  async sent(sendId: number, lastError: string | null): Promise<void> {
    await this.sql.query({ ...SENT, values: [sendId, lastError] });
  }

  /** The send failed, unless it went out or was cancelled meanwhile; true if it was still going. */
  async givenUp(sendId: number, reason: string): Promise<boolean> {
    const { rowCount } = await this.sql.query({ ...GIVEN_UP, values: [sendId, reason] });
    return rowCount === 1;
  }
}
