import { createHash, randomUUID } from 'node:crypto';
import MailComposer from 'nodemailer/lib/mail-composer';
import { Prisma, type Database } from '@letterbox/db';
import { mailRow, newCertKey, prepareMail, type PreparedMail } from '@letterbox/mail';
import type { BlobStore } from '@letterbox/storage';
import { sentCopyOptions, type MessageIdentity } from './compose-message';
import { IdempotencyKeyReusedError } from './send-errors';
import { recipientsOf, type Sender, type SendRequest } from './send-request';
import { sendView, type SendView } from './send-view';

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
  const sentMailbox = sentCopy
    ? await db.prisma.mailbox.findFirstOrThrow({ where: { userId: sender.userId, role: 'sent' }, select: { id: true } })
    : undefined;
  const recorded: RecordedRequest = { ...request, messageId: identity.messageId, date: identity.date.toISOString(), fingerprint };
  try {
    const send = await db.prisma.$transaction(async (tx) => {
      const mail =
        sentCopy && sentMailbox
          ? await tx.mail.create({
              data: mailRow(sentCopy, { userId: sender.userId, mailboxId: sentMailbox.id, receivedAt: identity.date, seen: true, important: request.important }),
              select: { id: true },
            })
          : undefined;
      if (mail && request.requestReadReceipt) {
        await tx.readReceipt.createMany({
          data: recipientsOf(request).map((email) => ({ officeId: sender.officeId, mailId: mail.id, recipientEmail: email, certKey: newCertKey() })),
        });
      }
      return tx.outboundSend.create({
        data: {
          userId: sender.userId,
          idempotencyKey: idempotencyKey ?? null,
          queuePrefix,
          request: recorded as object,
          scheduledAt: request.sendAt ? new Date(request.sendAt) : null,
          sentMailId: mail?.id ?? null,
        },
      });
    });
    return { send: sendView(send), created: true };
  } catch (error) {
    const duplicate = error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2002' && idempotencyKey;
    if (!duplicate) throw error;
    // The same key raced in from a concurrent request; its send is the answer.
    return { send: (await findByIdempotencyKey(db, sender.userId, idempotencyKey, fingerprint)) as SendView, created: false };
  }
}

/** Small messages are composed in memory and stored in one write; with attachments, streamed. */
async function composeSentCopy(blobs: BlobStore, sender: Sender, request: SendRequest, identity: MessageIdentity): Promise<PreparedMail> {
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
