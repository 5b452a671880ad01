import { createHash, randomUUID } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { Database } from '@letterbox/db';
import { prepareMail, type PreparedMail } from '@letterbox/mail';
import type { BlobStore } from '@letterbox/storage';
import { sentCopyOptions, type MessageIdentity } from './compose-message';
import { IdempotencyKeyReusedError } from './send-errors';
import type { Sender, SendRequest } from './send-request';
import type { SendRecordInput } from './send-batch-insert';
import { sendView, type SendView } from './send-view';

/** What the worker reads back: the request and the identity every copy of it shares. */
export interface RecordedRequest extends SendRequest {
  messageId: string;
  date: string;
  /** Tells a retried request (same key, same content) from a reused key. */
  fingerprint: string;
}

/** How a send is recorded: under an idempotency key, for a queue namespace's outbox sweep. */
export interface RecordOptions {
  idempotencyKey?: string;
  /** The queue namespace whose outbox sweep looks after this send. */
  queuePrefix: string;
}

/**
 * A send made ready to record: its identity drawn, so that recording it is one INSERT
 * among others (insertSendBatch). Its Sent copy is composed later, by the ingest worker,
 * from the recorded request (SentCopies): the request waits for neither composing nor storage.
 */
export function prepareSendRecord(sender: Sender, request: SendRequest, options: RecordOptions): SendRecordInput {
  const fingerprint = fingerprintOf(request);
  const messageId = `<${randomUUID()}@${sender.email.split('@')[1]}>`;
  const recorded: RecordedRequest = { ...request, messageId, date: new Date().toISOString(), fingerprint };
  return { sender, idempotencyKey: options.idempotencyKey, queuePrefix: options.queuePrefix, request: recorded };
}

/** Tells a retried request (same key, same content) from a reused key. */
export function fingerprintOf(request: SendRequest): string {
  return createHash('sha256').update(JSON.stringify(request)).digest('base64url');
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

/** The send recorded under the key, if any; the key's reuse for another request is refused. */
export async function findByIdempotencyKey(db: Database, userId: number, idempotencyKey: string, fingerprint: string): Promise<SendView | undefined> {
  const send = await db.prisma.outboundSend.findUnique({ where: { userId_idempotencyKey: { userId, idempotencyKey } } });
  if (!send) return undefined;
  if ((send.request as unknown as RecordedRequest).fingerprint !== fingerprint) throw new IdempotencyKeyReusedError(idempotencyKey);
  return sendView(send);
}
