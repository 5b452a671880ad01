import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { messageIdOf } from '@letterbox/mail';
import { currentRequestId } from '@letterbox/observability';
import { BatchCollector, QueueUnavailableError, type JobPayloads, type JobQueues, type JobTrace } from '@letterbox/queue';
import { discardCreatedBlob, type BlobReferences, type BlobStore, type StoredBlob } from '@letterbox/storage';
import { dedupKeyOf } from './dedup-key';
import type { InboundAcceptances } from './inbound-acceptances';
import { NoRecipientsError, UnknownRecipientsError } from './inbound-errors';
import { HeadCapture, parseMessageHead } from './message-head';
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
 * Accepts incoming mail from any intake (HTTP, SMTP): checks the recipients, writes the
 * message to storage, records the acceptance in PostgreSQL and queues it, so it is durable
 * before the sender hears "accepted", whatever Redis keeps. A message refused once
 * written (not a message, no recipient, the queue unreachable) leaves no file behind.
 * Storing it as mail is the ingest worker's part, in batches.
 */
export class InboundIntake {
  /** Acceptances that arrive together are queued with one Redis round trip. */
  private readonly enqueues: BatchCollector<JobPayloads['ingest-mail'] & JobTrace, undefined>;

  constructor(
    private readonly blobs: BlobStore,
    private readonly directory: RecipientDirectory,
    private readonly acceptances: InboundAcceptances,
    private readonly references: BlobReferences,
    queues: JobQueues,
    readonly maxMessageBytes: number,
  ) {
    this.enqueues = new BatchCollector(
      async (payloads) => {
        await queues.enqueueAll('ingest-mail', payloads);
        return payloads.map(() => undefined);
      },
      { maxSize: 500, maxWaitMs: 2, maxInFlight: 1 },
    );
  }

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
    const put = await this.blobs.putTracked(limitSize(message.content, this.maxMessageBytes, capture));
    try {
      return await this.acceptStored(put.blob, capture.head(), envelope);
    } catch (error) {
      // Refused, so the file goes, unless its bytes are another message's too. Any file
      // not removed now is the collector's once its grace period is over.
      await discardCreatedBlob(this.blobs, this.references, put).catch(() => false);
      throw error;
    }
  }

  private async acceptStored(blob: StoredBlob, head: Buffer, envelope: ResolvedRecipients | undefined): Promise<AcceptedInbound> {
    const summary = parseMessageHead(head, blob.size);
    const recipients = envelope?.known ?? (await this.directory.resolve([...summary.to, ...summary.cc, ...summary.bcc].map(({ address }) => address))).known;
    if (recipients.size === 0) throw new NoRecipientsError();
    const inboundId = randomUUID();
    const messageId = messageIdOf(summary, blob);
    const payload: JobPayloads['ingest-mail'] = {
      inboundId,
      storageKey: blob.key,
      size: blob.size,
      messageId,
      dedupKey: dedupKeyOf(summary.from?.address, messageId),
      recipientIds: [...new Set(recipients.values())],
      receivedAt: new Date().toISOString(),
    };
    await this.acceptances.record(payload);
    try {
      // Batched with other requests' messages: each keeps the id of the request that brought it.
      await this.enqueues.add({ ...payload, requestId: currentRequestId() });
    } catch (error) {
      // An acceptance not withdrawn keeps its file and is queued by the sweep once Redis is back.
      if (error instanceof QueueUnavailableError) await this.acceptances.withdraw(inboundId).catch(() => undefined);
      throw error;
    }
    return { inboundId, messageId, recipients: [...recipients.keys()] };
  }
}
