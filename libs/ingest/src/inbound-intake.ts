import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { messageIdOf } from '@letterbox/mail';
import { currentRequestId } from '@letterbox/observability';
import type { InboundMessageJob } from '@letterbox/queue';
import { discardCreatedBlob, type BlobReferences, type BlobStore, type StoredBlob } from '@letterbox/storage';
import { dedupKeyOf } from './dedup-key';
import type { InboundAcceptances } from './inbound-acceptances';
import { NoRecipientsError, UnknownRecipientsError } from './inbound-errors';
import type { IntakeSpool } from './intake-spool';
import { HeadCapture, parseMessageHead } from './message-head';
import { readUpTo } from './read-up-to';
import type { RecipientDirectory, ResolvedRecipients } from './recipient-directory';
import { limitSize } from './size-limit';

export interface InboundMessage {
  content: Readable;
  /**
   * The envelope's recipients. Each must be a Letterbox user. Without them, the Letterbox
   * users among the message's To, Cc and Bcc are its recipients.
   */
  envelopeRecipients?: string[];
}

export interface AcceptedInbound {
  inboundId: string;
  messageId: string;
  recipients: string[];
}

/**
 * Messages up to this size are held in memory and spooled; larger ones stream into blob
 * storage, whose fsync per message is small beside their transfer.
 */
export const SPOOLED_MESSAGE_BYTES = 256 * 1024;

/**
 * Accepts incoming mail from any intake (HTTP, SMTP): checks the recipients, makes the
 * message durable, records the acceptance in PostgreSQL and queues it, so it is durable
 * before the sender hears "accepted", whatever Redis keeps. With a spool (disk storage) a
 * message is read into memory, checked, and written to the spool with the messages that
 * arrive with it (one fsync per group); the ingest worker puts it into blob storage.
 * Without one (S3, where a PUT is durable by itself), or when it is large, it streams
 * into blob storage, and a message refused once written there leaves no file behind.
 * Storing it as mail is the ingest worker's part, in batches.
 */
export class InboundIntake {
  constructor(
    private readonly blobs: BlobStore,
    private readonly directory: RecipientDirectory,
    private readonly acceptances: InboundAcceptances,
    private readonly references: BlobReferences,
    readonly maxMessageBytes: number,
    private readonly spool?: IntakeSpool,
  ) {}

  /** Whether an envelope recipient may be accepted: SMTP asks at RCPT, before the data. */
  async knows(address: string): Promise<boolean> {
    return (await this.directory.resolve([address])).unknown.length === 0;
  }

  async accept(message: InboundMessage): Promise<AcceptedInbound> {
    const envelope = message.envelopeRecipients?.length ? await this.directory.resolve(message.envelopeRecipients) : undefined;
    if (envelope && envelope.unknown.length > 0) {
      message.content.resume();
      throw new UnknownRecipientsError(envelope.unknown);
    }
    const capture = new HeadCapture();
    const content = limitSize(message.content, this.maxMessageBytes, capture);
    if (!this.spool) return this.acceptStreamed(content, capture, envelope);
    const read = await readUpTo(content, SPOOLED_MESSAGE_BYTES);
    if (read.rest) return this.acceptStreamed(read.rest, capture, envelope);
    return this.acceptSpooled(this.spool, read.whole, capture.head(), envelope);
  }

  /** Checked before it is written: a message refused never reaches the spool. */
  private async acceptSpooled(spool: IntakeSpool, bytes: Buffer, head: Buffer, envelope: ResolvedRecipients | undefined): Promise<AcceptedInbound> {
    const described = await this.describe({ key: this.blobs.keyOf(bytes), size: bytes.length }, head, envelope);
    const spooled = await spool.append(bytes);
    // Refused from here on (no acceptance recorded or kept), its bytes stay in the spool file until the sweep takes the file.
    return this.record({ ...described.payload, spooled }, described.recipients);
  }

  private async acceptStreamed(content: Readable, capture: HeadCapture, envelope: ResolvedRecipients | undefined): Promise<AcceptedInbound> {
    const put = await this.blobs.putTracked(content);
    try {
      const described = await this.describe(put.blob, capture.head(), envelope);
      return await this.record(described.payload, described.recipients);
    } catch (error) {
      // Refused, so the file goes, unless its bytes are another message's too. Any file
      // not removed now is the collector's once its grace period is over.
      await discardCreatedBlob(this.blobs, this.references, put).catch(() => false);
      throw error;
    }
  }

  /** The job of an acceptable message, and its recipients; refuses one that is not a message or has none. */
  private async describe(
    blob: StoredBlob,
    head: Buffer,
    envelope: ResolvedRecipients | undefined,
  ): Promise<{ payload: InboundMessageJob; recipients: Map<string, number> }> {
    const summary = parseMessageHead(head, blob.size);
    const recipients = envelope?.known ?? (await this.directory.resolve([...summary.to, ...summary.cc, ...summary.bcc].map(({ address }) => address))).known;
    if (recipients.size === 0) throw new NoRecipientsError();
    const messageId = messageIdOf(summary, blob);
    const payload: InboundMessageJob = {
      inboundId: randomUUID(),
      storageKey: blob.key,
      size: blob.size,
      messageId,
      dedupKey: dedupKeyOf(summary.from?.address, messageId),
      recipientIds: [...new Set(recipients.values())],
      receivedAt: new Date().toISOString(),
    };
    return { payload, recipients };
  }

  private async record(payload: InboundMessageJob, recipients: Map<string, number>): Promise<AcceptedInbound> {
    // Grouped with other requests' messages: each keeps the id of the request that brought it.
    await this.acceptances.accept({ ...payload, requestId: currentRequestId() });
    return { inboundId: payload.inboundId, messageId: payload.messageId, recipients: [...recipients.keys()] };
  }
}
