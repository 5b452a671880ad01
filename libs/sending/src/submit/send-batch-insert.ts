import { namedStatement, type Database } from '@letterbox/db';
import { markAnsweredSql, storableJson } from '@letterbox/mail';
import { QuotaExceededError } from '../send-errors';
import type { SendQuota } from '../storage-quota';
import type { RecordedRequest } from './record-send';
import type { Sender } from './send-request';
import { SEND_RECORD_COLUMNS, sendViewOfRecord, type SendRecordRow, type SendView } from './send-view';

/** One send as recorded: the request, with the identity its messages and Sent copy share. */
export interface SendRecordInput {
  sender: Sender;
  idempotencyKey?: string;
  /** The queue namespace whose outbox sweep looks after this send. */
  queuePrefix: string;
  request: RecordedRequest;
  /** Checked in the statement that records it; absent: recorded whatever the sender's usage. */
  quota?: SendQuota;
}

/**
 * Records many sends in one statement (one transaction, one round trip, one WAL flush):
 * each send's row and the flag on the mail it answers. A send keeping a Sent copy is given
 * the copy's mail id now, and the copy is marked pending: the delivery worker stores it
 * under that id (SentCopies). A send whose idempotency key another send took is left out
 * and answered `undefined`; the caller looks that send up. A send that would take its
 * sender past their quota is left out too, and answered its QuotaExceededError: the
 * check is the same statement's read of the sender's row, no round trip of its own.
 */
export async function insertSendBatch(db: Database, items: SendRecordInput[]): Promise<Array<SendView | QuotaExceededError | undefined>> {
  const input = items.map(({ sender, idempotencyKey, queuePrefix, request, quota }, position) => ({
    position,
    user_id: sender.userId,
    idempotency_key: idempotencyKey ?? null,
    queue_prefix: queuePrefix,
    request,
    // As epoch milliseconds: any time JavaScript can parse, year 0 included, is one PostgreSQL can hold.
    scheduled_at_ms: request.sendAt ? Date.parse(request.sendAt) : null,
    has_copy: request.saveCopy,
    answered_mail_id: request.answering?.mailId ?? null,
    answered_mode: request.answering?.mode ?? null,
    message_bytes: quota?.messageBytes ?? null,
    default_quota_bytes: quota?.defaultBytes ?? null,
  }));
  const { rows } = await db.sql.query<RecordedOrRefused>({ ...INSERT_SEND_BATCH, values: [JSON.stringify(input, storableJson)] });
  const answers = new Map(rows.map((row) => [row.position, answerOf(items[row.position], row)]));
  return items.map((_, position) => answers.get(position));
}

/** A recorded send's row, or a refused one's: its sender's usage and quota, and nothing of a send. */
type RecordedOrRefused = SendRecordRow & { position: number; used_bytes: string | null; quota_bytes: string | null };

function answerOf(item: SendRecordInput, row: RecordedOrRefused): SendView | QuotaExceededError {
  if (row.used_bytes === null) return sendViewOfRecord(row);
  return new QuotaExceededError(item.sender.email, Number(row.quota_bytes), Number(row.used_bytes), item.quota?.messageBytes ?? 0);
}

const INSERT_SEND_BATCH = namedStatement(
  'insert-send-batch',
  `WITH checked AS (
  SELECT i.*, u.used_bytes, coalesce(u.quota_bytes, i.default_quota_bytes) AS quota_bytes,
         coalesce(u.used_bytes + i.message_bytes > coalesce(u.quota_bytes, i.default_quota_bytes), false) AS over_quota
    FROM jsonb_to_recordset($1::jsonb) AS i(
      position int, user_id int, idempotency_key text, queue_prefix text, request jsonb, scheduled_at_ms float8,
      has_copy boolean, answered_mail_id int8, answered_mode text, message_bytes int8, default_quota_bytes int8)
    LEFT JOIN users u ON u.id = i.user_id AND i.message_bytes > 0
), numbered AS (
  SELECT c.*, nextval(pg_get_serial_sequence('outbound_sends', 'id')) AS send_id,
         CASE WHEN c.has_copy THEN nextval(pg_get_serial_sequence('mails', 'id')) END AS mail_id
    FROM checked c WHERE NOT c.over_quota
), new_sends AS (
  INSERT INTO outbound_sends (id, user_id, idempotency_key, queue_prefix, request, scheduled_at, sent_mail_id, sent_copy_pending)
  SELECT send_id, user_id, idempotency_key, queue_prefix, request, to_timestamp(scheduled_at_ms / 1000), mail_id, has_copy FROM numbered ORDER BY position
  ON CONFLICT (user_id, idempotency_key) DO NOTHING
  RETURNING ${SEND_RECORD_COLUMNS}
), kept AS (
  SELECT n.* FROM numbered n JOIN new_sends s ON s.id = n.send_id
), answered AS (
  ${markAnsweredSql({ from: 'kept', mailId: 'answered_mail_id', userId: 'user_id', replied: "answered_mode <> 'forward'", forwarded: "answered_mode = 'forward'" })}
)
SELECT k.position, NULL::int8 AS used_bytes, NULL::int8 AS quota_bytes, s.* FROM new_sends s JOIN kept k ON k.send_id = s.id
UNION ALL
SELECT c.position, c.used_bytes, c.quota_bytes, ${SEND_RECORD_COLUMNS.split(', ')
    .map((column) => `NULL AS ${column}`)
    .join(', ')} FROM checked c WHERE c.over_quota`,
);
