import { createHash, randomUUID } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { Database } from '@letterbox/db';
import { mailInsertCtes, newCertKey, prepareMail, type PreparedMail } from '@letterbox/mail';
import type { BlobStore } from '@letterbox/storage';
import { sentCopyOptions, type MessageIdentity } from './compose-message';
import { IdempotencyKeyReusedError } from './send-errors';
import { recipientsOf, type Sender, type SendRequest } from './send-request';
import { SEND_RECORD_COLUMNS, sendView, sendViewOfRecord, type SendRecordRow, type SendView } from './send-view';

/** What the worker reads back: the request and the identity every copy of it shares. */
export interface RecordedRequest extends SendRequest {
  messageId: string;
  date: string;
  /** Tells a retried request (same key, same content) from a reused key. */
  fingerprint: string;
}

/**
 * Records a send: its request, its Sent copy and one receipt key per recipient, in one
 * short transaction. The Sent copy's EML is composed and stored first, outside it, and
 * nothing in it needs a second connection, so a pool of one cannot deadlock. The same
 * idempotency key gives back the first send instead of a second.
 */
export interface RecordOptions {
  idempotencyKey?: string;
  /** The queue namespace whose outbox sweep looks after this send. */
  queuePrefix: string;
}

export async function recordSend(
  db: Database,
  blobs: BlobStore,
  sender: Sender,
  request: SendRequest,
  { idempotencyKey, queuePrefix }: RecordOptions,
): Promise<{ send: SendView; created: boolean }> {
  const fingerprint = createHash('sha256').update(JSON.stringify(request)).digest('base64url');
  if (idempotencyKey) {
    const existing = await findByIdempotencyKey(db, sender.userId, idempotencyKey, fingerprint);
    if (existing) return { send: existing, created: false };
  }
  const identity: MessageIdentity = { messageId: `<${randomUUID()}@${sender.email.split('@')[1]}>`, date: new Date() };
  const sentCopy = request.saveCopy ? await composeSentCopy(blobs, sender, request, identity) : undefined;
  const recorded: RecordedRequest = { ...request, messageId: identity.messageId, date: identity.date.toISOString(), fingerprint };
  const receipts = request.requestReadReceipt ? recipientsOf(request).map((email) => ({ email, cert_key: newCertKey() })) : [];
  const values: unknown[] = [];
  const value = (item: unknown) => {
    values.push(item);
    return `$${values.length}`;
  };
  const sentCopyCtes = sentCopy
    ? `${mailInsertCtes(sentCopy, { userId: sender.userId, mailboxId: await sentMailboxOf(db, sender.userId), receivedAt: identity.date, seen: true, important: request.important }, values)},
       receipts AS (
         INSERT INTO read_receipts (office_id, mail_id, recipient_email, cert_key)
         SELECT ${value(sender.officeId)}::int, new_mail.id, r.email, r.cert_key
           FROM new_mail, jsonb_to_recordset(${value(JSON.stringify(receipts))}::jsonb) AS r(email text, cert_key text)
       ),`
    : '';
  const answeredCte = request.answering
    ? `answered AS (
         UPDATE mails SET ${request.answering.mode === 'forward' ? 'forwarded' : 'answered'} = true
          WHERE id = ${value(request.answering.mailId)}::int8 AND user_id = ${value(sender.userId)}::int
       ),`
    : '';
  try {
    // One statement: the Sent copy, its attachments, the receipt keys, the original's flag and the send commit together.
    const { rows } = await db.sql.query<SendRecordRow>(
      `WITH ${sentCopyCtes} ${answeredCte} sent_mail AS (SELECT ${sentCopy ? '(SELECT id FROM new_mail)' : 'NULL::int8'} AS id)
       INSERT INTO outbound_sends (user_id, idempotency_key, queue_prefix, request, scheduled_at, sent_mail_id)
       SELECT ${value(sender.userId)}::int, ${value(idempotencyKey ?? null)}, ${value(queuePrefix)}, ${value(JSON.stringify(recorded))}::jsonb,
              ${value(request.sendAt ? new Date(request.sendAt) : null)}::timestamptz, sent_mail.id
         FROM sent_mail
       RETURNING ${SEND_RECORD_COLUMNS}`,
      values,
    );
    return { send: sendViewOfRecord(rows[0]), created: true };
  } catch (error) {
    const duplicate = (error as { code?: string }).code === UNIQUE_VIOLATION && idempotencyKey;
    if (!duplicate) throw error;
    // The same key raced in from a concurrent request; its send is the answer.
    return { send: (await findByIdempotencyKey(db, sender.userId, idempotencyKey, fingerprint)) as SendView, created: false };
  }
}

const UNIQUE_VIOLATION = '23505';

async function sentMailboxOf(db: Database, userId: number): Promise<number> {
  const { rows } = await db.sql.query<{ id: number }>({
    name: 'sent-mailbox-of',
    text: `SELECT id FROM mailboxes WHERE user_id = $1 AND role = 'sent'`,
    values: [userId],
  });
  if (!rows[0]) throw new Error(`user ${userId} has no Sent mailbox`);
  return rows[0].id;
}

/**
 * The sender's own copy of a message (a Sent copy, a draft), composed and put in storage:
 * small messages in memory with one write; with attachments, streamed.
 */
export async function composeSentCopy(blobs: BlobStore, sender: Sender, request: SendRequest, identity: MessageIdentity): Promise<PreparedMail> {
  const message = new MailComposer(sentCopyOptions(blobs, sender, request, identity)).compile();
  // The sender's own copy shows whom they Bcc'd; delivered messages never do.
  message.keepBcc = true;
  return prepareMail(blobs, request.attachments.length === 0 ? await message.build() : message.createReadStream());
}

async function findByIdempotencyKey(db: Database, userId: number, idempotencyKey: string, fingerprint: string): Promise<SendView | undefined> {
  const send = await db.prisma.outboundSend.findUnique({ where: { userId_idempotencyKey: { userId, idempotencyKey } } });
  if (!send) return undefined;
  if ((send.request as unknown as RecordedRequest).fingerprint !== fingerprint) throw new IdempotencyKeyReusedError(idempotencyKey);
  return sendView(send);
}
