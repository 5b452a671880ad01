import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { messageIdOf } from '@letterbox/mail';
import { BatchCollector, type JobPayloads, type JobQueues } from '@letterbox/queue';
import type { BlobStore } from '@letterbox/storage';
import { dedupKeyOf } from './dedup-key';
import type { InboundAcceptances } from './inbound-acceptances';
import { NoRecipientsError, UnknownRecipientsError } from './inbound-errors';
import { HeadCapture, parseMessageHead } from './message-head';
import type { RecipientDirectory } from './recipient-directory';
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
 * before the sender hears "accepted", whatever Redis keeps. Storing it as mail is the
 * ingest worker's part, in batches.
 */
export class InboundIntake {
  /** Acceptances that arrive together are queued with one Redis round trip. */
  private readonly enqueues: BatchCollector<JobPayloads['ingest-mail'], undefined>;

  constructor(
    private readonly blobs: BlobStore,
    private readonly directory: RecipientDirectory,
    private readonly acceptances: InboundAcceptances,
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
    const blob = await this.blobs.put(limitSize(message.content, this.maxMessageBytes, capture));
    const summary = parseMessageHead(capture.head(), blob.size);
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
    await this.enqueues.add(payload);
    return { inboundId, messageId, recipients: [...recipients.keys()] };
  }
}
