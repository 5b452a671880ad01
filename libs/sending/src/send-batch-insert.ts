import type { Database } from '@letterbox/db';
import { MAIL_ROW_INPUT_COLUMNS, mailRowInput, mailRowsInsertCtes, markAnsweredSql, readReceiptsInsertSql, storableJson, type PreparedMail } from '@letterbox/mail';
import type { RecordedRequest } from './record-send';
import type { Sender } from './send-request';
import { sendViewOfRecord, type SendRecordRow, type SendView } from './send-view';

/** One send as recorded: the request, and its Sent copy already in storage. */
export interface SendRecordInput {
  sender: Sender;
  idempotencyKey?: string;
  /** The queue namespace whose outbox sweep looks after this send. */
  queuePrefix: string;
  request: RecordedRequest;
  sentCopy?: PreparedMail;
  receipts: Array<{ email: string; cert_key: string }>;
}

/**
 * Records many sends in one statement (one transaction, one round trip, one WAL flush):
 * each send's row, its Sent copy with search row and attachments, its receipt keys and
 * the flag on the mail it answers. A send whose idempotency key another send took is
 * left out and answered `undefined`; the caller looks that send up. Send and mail ids are
 * drawn first, so every row knows its siblings; the foreign keys are checked when the
 * whole statement ends.
 */
export async function insertSendBatch(db: Database, items: SendRecordInput[]): Promise<Array<SendView | undefined>> {
  const input = items.map(({ sender, idempotencyKey, queuePrefix, request, sentCopy, receipts }, position) => ({
    position,
    user_id: sender.userId,
    office_id: sender.officeId,
    idempotency_key: idempotencyKey ?? null,
    queue_prefix: queuePrefix,
    request,
    // As epoch milliseconds: any time JavaScript can parse, year 0 included, is one PostgreSQL can hold.
    scheduled_at_ms: request.sendAt ? Date.parse(request.sendAt) : null,
    has_copy: sentCopy !== undefined,
    received_at: request.date,
    important: request.important,
    receipts,
    answered_mail_id: request.answering?.mailId ?? null,
    answered_mode: request.answering?.mode ?? null,
    ...(sentCopy ? mailRowInput(sentCopy) : {}),
  }));
  const { rows } = await db.sql.query<SendRecordRow & { position: number }>({
    name: 'insert-send-batch',
    text: INSERT_SEND_BATCH,
    values: [JSON.stringify(input, storableJson)],
  });
  const recorded = new Map(rows.map((row) => [row.position, sendViewOfRecord(row)]));
  return items.map((_, position) => recorded.get(position));
}

const INSERT_SEND_BATCH = `
WITH input AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS i(
    position int, user_id int, office_id int, idempotency_key text, queue_prefix text, request jsonb, scheduled_at_ms float8,
    has_copy boolean, received_at timestamptz, important boolean, receipts jsonb, answered_mail_id int8, answered_mode text,
    ${MAIL_ROW_INPUT_COLUMNS})
), numbered AS (
  SELECT i.*, nextval(pg_get_serial_sequence('outbound_sends', 'id')) AS send_id,
         CASE WHEN i.has_copy THEN nextval(pg_get_serial_sequence('mails', 'id')) END AS mail_id
    FROM input i
), new_sends AS (
  INSERT INTO outbound_sends (id, user_id, idempotency_key, queue_prefix, request, scheduled_at, sent_mail_id)
  SELECT send_id, user_id, idempotency_key, queue_prefix, request, to_timestamp(scheduled_at_ms / 1000), mail_id FROM numbered ORDER BY position
  ON CONFLICT (user_id, idempotency_key) DO NOTHING
  RETURNING id, status, attempts, last_error, requested_at, scheduled_at, started_at, sent_at, sent_mail_id
), kept AS (
  SELECT n.* FROM numbered n JOIN new_sends s ON s.id = n.send_id
), copies AS (
  -- A sender without a Sent mailbox gets a NULL one, refused by its NOT NULL: the copy is never silently dropped.
  SELECT k.*, b.id AS mailbox_id, true AS seen, false AS flagged FROM kept k LEFT JOIN mailboxes b ON b.user_id = k.user_id AND b.role = 'sent' WHERE k.has_copy
), ${mailRowsInsertCtes('copies')}, new_receipts AS (
  ${readReceiptsInsertSql('copies')}
), answered AS (
  ${markAnsweredSql(`(SELECT answered_mail_id AS mail_id, user_id, bool_or(answered_mode <> 'forward') AS replied, bool_or(answered_mode = 'forward') AS forwarded
                        FROM kept WHERE answered_mail_id IS NOT NULL GROUP BY answered_mail_id, user_id)`)}
)
SELECT k.position, s.* FROM new_sends s JOIN kept k ON k.send_id = s.id`;
