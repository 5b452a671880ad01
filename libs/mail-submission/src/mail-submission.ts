import { Readable } from 'node:stream';
import type { MailClientUser } from '@letterbox/accounts';
import { limitSize } from '@letterbox/ingest';
import { NotSendersAddressError, submittedSendKey, type SenderDirectory, type SendRequest, type SendStatusView, type SendSubmission } from '@letterbox/sending';
import type { BlobStore } from '@letterbox/storage';
import { splitAtHeaderEnd } from './header-block-split';
import { MissingFromError } from './submission-errors';
import { submittedHead } from './submitted-head';

/** The SMTP envelope of a submitted message: the user's address it comes from, and every recipient, Bcc included. */
export interface SubmissionEnvelope {
  mailFrom: string;
  recipients: string[];
}

/**
 * A message a signed-in mail client submits (RFC 6409), made a send of the user's as POST /v2/mails/send makes
 * one: recorded (in the same group commits), queued, DKIM-signed and delivered by the delivery worker within the
 * sender's rate limit, Letterbox's own users among the recipients served by Letterbox, bounces tracked, a copy kept
 * in Sent. It goes as the client wrote it (request.submitted), but without its Bcc header: the recipients are the
 * envelope's. The envelope sender and every From address must be the user's own (primary or alias). The message is
 * streamed to storage, refused past `maxMessageBytes`, and the send within the user's quota. The same message sent
 * again (a client retrying after a lost connection) is the same send: its Message-ID and bytes are its idempotency.
 */
export class MailSubmission {
  constructor(
    private readonly blobs: BlobStore,
    private readonly senders: SenderDirectory,
    private readonly submission: SendSubmission,
    readonly maxMessageBytes: number,
  ) {}

  /** The addresses the user may submit from, lower-case: their primary, then their aliases. */
  async ownAddresses(user: MailClientUser): Promise<string[]> {
    return (await this.senders.of({ userId: user.id, officeId: user.officeId })).addresses;
  }

  async submit(user: MailClientUser, envelope: SubmissionEnvelope, content: Readable): Promise<SendStatusView> {
    const sender = await this.senders.of({ userId: user.id, officeId: user.officeId });
    const ownAddress = (address: string) => sender.addresses.includes(address.toLowerCase());
    if (!ownAddress(envelope.mailFrom)) throw new NotSendersAddressError(envelope.mailFrom);
    const { head, rest } = await splitAtHeaderEnd(limitSize(content, this.maxMessageBytes));
    const submitted = submittedHead(head, envelope.mailFrom.slice(envelope.mailFrom.lastIndexOf('@') + 1));
    const foreign = submitted.from.find((address) => !ownAddress(address));
    if (submitted.from.length === 0 || foreign !== undefined) {
      rest.destroy();
      throw foreign === undefined ? new MissingFromError() : new NotSendersAddressError(foreign);
    }
    const blob = await this.blobs.put(Readable.from(prepended(submitted.block, rest)));
    const recipients = [...new Set(envelope.recipients.map((address) => address.toLowerCase()))];
    const to = recipients.filter((address) => submitted.to.includes(address));
    const cc = recipients.filter((address) => !to.includes(address) && submitted.cc.includes(address));
    const request: SendRequest = {
      from: submitted.from[0],
      to,
      cc,
      bcc: recipients.filter((address) => !to.includes(address) && !cc.includes(address)),
      subject: submitted.subject,
      important: submitted.important,
      saveCopy: true,
      sendSeparately: false,
      requestReadReceipt: false,
      attachments: [],
      submitted: { storageKey: blob.key, size: blob.size, messageId: submitted.messageId },
    };
    return (await this.submission.submitRequest(sender, request, submittedSendKey(submitted.messageId))).send;
  }
}

async function* prepended(block: Buffer, rest: Readable): AsyncGenerator<Buffer> {
  yield block;
  yield* rest;
}
