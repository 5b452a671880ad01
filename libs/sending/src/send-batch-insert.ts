import type { Database } from '@letterbox/db';
import { ATTACHMENT_ROW_INPUT_COLUMNS, MAIL_ROW_INPUT_COLUMNS, mailRowInput, searchDocumentSql, storableJson, type PreparedMail } from '@letterbox/mail';
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
  SELECT k.*, b.id AS mailbox_id FROM kept k LEFT JOIN mailboxes b ON b.user_id = k.user_id AND b.role = 'sent' WHERE k.has_copy
), new_mails AS (
  INSERT INTO mails (id, thread_id, user_id, mailbox_id, message_id, from_address, from_name, to_addresses, cc_addresses, subject, snippet,
                     received_at, size, seen, important, has_attachments, storage_key, layout)
  SELECT c.mail_id, COALESCE(mail_thread_of(c.user_id, c.thread_references, c.subject, c.received_at), c.mail_id), c.user_id, c.mailbox_id,
         c.message_id, c.from_address, c.from_name, c.to_addresses, c.cc_addresses, c.subject, c.snippet,
         c.received_at, c.size, true, c.important, c.has_attachments, c.storage_key, c.layout
    FROM copies c
), new_search AS (
  INSERT INTO mail_search (mail_id, user_id, body, document)
  SELECT c.mail_id, c.user_id, c.body_text, ${searchDocumentSql('c.subject_tokens', 'c.people_tokens', 'c.body_tokens')}
    FROM copies c
), new_attachments AS (
  INSERT INTO attachments (mail_id, part_id, filename, content_type, disposition, content_id, size, encoding, body_start, body_end)
  SELECT c.mail_id, a.part_id, a.filename, a.content_type, a.disposition, a.content_id, a.size, a.encoding, a.body_start, a.body_end
    FROM copies c, jsonb_to_recordset(c.attachments) AS a(${ATTACHMENT_ROW_INPUT_COLUMNS})
), new_receipts AS (
  INSERT INTO read_receipts (office_id, mail_id, recipient_email, cert_key)
  SELECT c.office_id, c.mail_id, r.email, r.cert_key
    FROM copies c, jsonb_to_recordset(c.receipts) AS r(email text, cert_key text)
), answered AS (
  UPDATE mails m SET answered = m.answered OR a.replied, forwarded = m.forwarded OR a.forwarded
    FROM (SELECT answered_mail_id, user_id, bool_or(answered_mode <> 'forward') AS replied, bool_or(answered_mode = 'forward') AS forwarded
            FROM kept WHERE answered_mail_id IS NOT NULL GROUP BY answered_mail_id, user_id) a
   WHERE m.id = a.answered_mail_id AND m.user_id = a.user_id
)
SELECT k.position, s.* FROM new_sends s JOIN kept k ON k.send_id = s.id`;
