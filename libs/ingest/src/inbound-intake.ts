import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { messageIdOf } from '@letterbox/mail';
import type { InboundOrigin, MailVerifier, Verification } from '@letterbox/mail-auth';
import type { HeaderSummary } from '@letterbox/mime';
import { currentRequestId } from '@letterbox/observability';
import type { InboundMessageJob } from '@letterbox/queue';
import { looksLikeBounceAddress, looksLikeSrsAddress, type SrsAddresses } from '@letterbox/sending';
import { discardCreatedBlob, type BlobReferences, type BlobStore, type StoredBlob, type TrackedPut } from '@letterbox/storage';
import { dedupKeyOf } from './dedup-key';
import type { InboundAcceptances } from './inbound-acceptances';
import { DmarcRejectedError, ForeignRecipientsError, NoRecipientsError, QuotaExceededError, SpamRejectedError, UnknownRecipientsError } from './inbound-errors';
import type { IntakeSpool } from './intake-spool';
import { HeadCapture, parseMessageHead } from './message-head';
import { readUpTo } from './read-up-to';
import { quotaVerdict } from './quota-verdict';
import type { RecipientAddress, RecipientDirectory, ResolvedRecipients } from './recipient-directory';
import type { RecipientQuotas } from './recipient-quotas';
import { limitSize } from './size-limit';
import type { RspamdScanner } from './spam/rspamd-scanner';

export interface InboundMessage {
  content: Readable;
  /**
   * The envelope's recipients. Each must be an address Letterbox receives mail for (a
   * user's, an alias, a group's). Without them, such addresses among the message's To, Cc
   * and Bcc are its recipients.
   */
  envelopeRecipients?: string[];
  /**
   * What a recipient whose mailbox cannot take the message does to it (see quotaVerdict).
   * `refuse` (the default; HTTP): the message is refused, naming them, and the gateway may
   * send it again without them. `refuse-if-all` (SMTP, whose recipients were each checked
   * at RCPT and cannot be refused one by one after DATA): refused only when no recipient
   * can take it; otherwise a full user addressed directly gets it all the same, past their
   * quota by what was in flight, since a message acknowledged for them must reach them.
   */
  quota?: 'refuse' | 'refuse-if-all';
  /** How it came (SMTP, HTTP, local delivery): what its checks and its Received header are made from. */
  origin: InboundOrigin;
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
 * Accepts incoming mail from any intake (HTTP, SMTP): checks the recipients and, with a
 * verifier, the sender (SPF, DKIM, DMARC, ARC: a DMARC p=reject failure is refused, a
 * forged colleague or a quarantine goes to Spam) and stores the message with its trace
 * headers (Received, Authentication-Results) prepended; makes the message durable, records the acceptance in PostgreSQL and queues it, so it is durable
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
    private readonly quotas: RecipientQuotas,
    private readonly acceptances: InboundAcceptances,
    private readonly references: BlobReferences,
    readonly maxMessageBytes: number,
    private readonly spool?: IntakeSpool,
    /** Without one (INGEST_VERIFY_SENDERS off) messages are stored as they came, unchecked. */
    private readonly verifier?: MailVerifier,
    /** With one (SPAM_REJECT), a message held in memory that rspamd gives its `reject` action is refused. */
    private readonly spamRefusal?: RspamdScanner,
    /** What checks the SRS addresses redirected mail goes out from; without it, mail to one is refused as to no one. */
    private readonly srs?: SrsAddresses,
  ) {}

  /**
   * Refuses an envelope recipient who may not be accepted: SMTP asks at RCPT, before the
   * data. `declaredBytes` is the size its sender announced (MAIL FROM's SIZE), or 0.
   */
  async checkRecipient(address: string, declaredBytes: number): Promise<void> {
    if ((await this.bounceAddressesAmong([address])).length > 0) return;
    const recipients = await this.directory.resolve([address]);
    refuseUnresolved(recipients);
    const { full } = quotaVerdict(recipients.known, await this.quotas.usageOf(userIdsOf(recipients.known)), declaredBytes);
    if (full.length > 0) throw new QuotaExceededError(full, declaredBytes);
  }

  async accept(message: InboundMessage): Promise<AcceptedInbound> {
    const envelopeRecipients = message.envelopeRecipients ?? [];
    let bounceTo: string[];
    let envelope: ResolvedRecipients | undefined;
    try {
      bounceTo = await this.bounceAddressesAmong(envelopeRecipients);
      const others = envelopeRecipients.filter((address) => !bounceTo.includes(address.trim().toLowerCase()));
      envelope = others.length > 0 ? await this.directory.resolve(others) : bounceTo.length > 0 ? NO_RECIPIENTS : undefined;
      if (envelope) refuseUnresolved(envelope);
    } catch (error) {
      message.content.resume();
      throw error;
    }
    const capture = new HeadCapture();
    const content = limitSize(message.content, this.maxMessageBytes, capture);
    const arrival: Arrival = { inboundId: randomUUID(), receivedAt: new Date(), origin: message.origin, envelope, bounceTo, quota: message.quota ?? 'refuse' };
    // Without a spool or a verifier nothing needs the bytes in memory: they stream into storage.
    if (!this.spool && !this.verifier && !this.spamRefusal) return this.acceptStreamed(content, capture, arrival);
    const read = await readUpTo(content, SPOOLED_MESSAGE_BYTES);
    if (read.rest) return this.acceptStreamed(read.rest, capture, arrival);
    return this.acceptWhole(read.whole, arrival);
  }

  /** Checked before it is written: a message refused never reaches the spool or storage. */
  private async acceptWhole(received: Buffer, arrival: Arrival): Promise<AcceptedInbound> {
    const summary = parseMessageHead(received, received.length);
    const verification = await this.verify(received, summary, arrival);
    const checked =
      this.verifier && verification
        ? { bytes: this.verifier.traced(received, verification), arrival: { ...arrival, received: { key: this.blobs.keyOf(received), size: received.length } } }
        : { bytes: received, arrival };
    const { bytes } = checked;
    await this.refuseSpam(bytes, arrival);
    if (!this.spool) return this.putAndRecord(bytes, summary, checked.arrival, verification);
    const described = await this.describe({ key: this.blobs.keyOf(bytes), size: bytes.length }, summary, checked.arrival, verification);
    const spooled = await this.spool.append(bytes);
    // Refused from here on (no acceptance recorded or kept), its bytes stay in the spool file until the sweep takes the file.
    return this.record({ ...described.payload, spooled }, described.recipients);
  }

  /**
   * A large message streams into storage; checked, it is read back from there for the
   * checks and written once more with its trace headers, and the first file goes: it is
   * never held in memory whole.
   */
  private async acceptStreamed(content: Readable, capture: HeadCapture, arrival: Arrival): Promise<AcceptedInbound> {
    const put = await this.blobs.putTracked(content);
    let summary: HeaderSummary;
    let verification: Verification | undefined;
    try {
      summary = parseMessageHead(capture.head(), put.blob.size);
      verification = await this.verify(() => this.blobs.createReadStream(put.blob.key), summary, arrival);
    } catch (error) {
      await this.discard(put);
      throw error;
    }
    if (!this.verifier || !verification) return this.describeAndRecord(put, summary, arrival, undefined);
    const stored = this.verifier.tracedStream(this.blobs.createReadStream(put.blob.key), verification);
    const rewritten = await this.blobs.putTracked(stored).finally(() => this.discard(put));
    return this.describeAndRecord(rewritten, summary, { ...arrival, received: put.blob }, verification);
  }

  /** A message held in memory and not spooled (S3 storage): put into storage before it is recorded. */
  private async putAndRecord(bytes: Buffer, summary: HeaderSummary, arrival: Arrival, verification: Verification | undefined): Promise<AcceptedInbound> {
    return this.describeAndRecord(await this.blobs.putTracked(bytes), summary, arrival, verification);
  }

  private async describeAndRecord(put: TrackedPut, summary: HeaderSummary, arrival: Arrival, verification: Verification | undefined): Promise<AcceptedInbound> {
    try {
      const described = await this.describe(put.blob, summary, arrival, verification);
      return await this.record(described.payload, described.recipients);
    } catch (error) {
      await this.discard(put);
      throw error;
    }
  }

  /**
   * The checks of a message, or none without a verifier; refuses a DMARC p=reject failure.
   * Each message is checked as it arrives, concurrently with the others.
   */
  private async verify(content: Buffer | (() => Readable), summary: HeaderSummary, arrival: Arrival): Promise<Verification | undefined> {
    if (!this.verifier) return undefined;
    const verification = await this.verifier.verify({
      content,
      origin: arrival.origin,
      from: summary.from?.address,
      inboundId: arrival.inboundId,
      receivedAt: arrival.receivedAt,
    });
    if (verification.action.action === 'reject') throw new DmarcRejectedError(verification.authentication.fromDomain);
    return verification;
  }

  /**
   * Refuses a message from outside that rspamd gives its `reject` action, as it would be stored
   * (its trace headers on). rspamd slow or down means no verdict: the message is accepted, and
   * the ingest worker's spam stage scores it again (a larger message streams, and only that scores it).
   */
  private async refuseSpam(bytes: Buffer, { origin, inboundId, envelope }: Arrival): Promise<void> {
    if (!this.spamRefusal || origin.channel === 'local') return;
    const rcptTo = [...(envelope?.known.keys() ?? [])];
    const verdict = await this.spamRefusal.check(bytes, { queueId: inboundId, ip: origin.ip, helo: origin.helo, mailFrom: origin.sender, rcptTo });
    if (verdict?.action === 'reject') throw new SpamRejectedError(verdict.score);
  }

  /**
   * The bounce addresses (lower-case) among a message's envelope recipients: a send's, taken in any
   * domain of Letterbox's whoever has an address there, forged or not (the bounce stage drops what it
   * cannot match to a send, with a log line); and a redirect's SRS address, taken when its hash is ours
   * and it is at most SRS_MAX_AGE_DAYS old (the SRS return stage sends it on to the original sender),
   * refused otherwise: no one makes an address we would relay to.
   */
  private async bounceAddressesAmong(addresses: string[]): Promise<string[]> {
    const shaped = [
      ...new Set(addresses.filter((address) => looksLikeBounceAddress(address) || looksLikeSrsAddress(address)).map((address) => address.trim().toLowerCase())),
    ];
    if (shaped.length === 0) return [];
    const { foreign } = await this.directory.resolve(shaped);
    const ours = shaped.filter((address) => !foreign.includes(address));
    const refusedSrs = ours.filter((address) => looksLikeSrsAddress(address) && !(this.srs && 'sender' in this.srs.reverse(address)));
    if (refusedSrs.length > 0) throw new UnknownRecipientsError(refusedSrs);
    return ours;
  }

  /**
   * Refused, so the file goes, unless its bytes are another message's too. Any file
   * not removed now is the collector's once its grace period is over.
   */
  private async discard(put: TrackedPut): Promise<void> {
    await discardCreatedBlob(this.blobs, this.references, put).catch(() => false);
  }

  /**
   * The job of an acceptable message, and its recipients; refuses one that is not a message,
   * has no recipient, or is for mailboxes that cannot take it (see InboundMessage.quota).
   * Usage is read now, with the message's size known, so mail acknowledged meanwhile may
   * take a mailbox past its quota by what was in flight: the ingest worker stores whatever
   * was acknowledged.
   */
  private async describe(
    blob: StoredBlob,
    summary: HeaderSummary,
    { inboundId, receivedAt, origin, envelope, bounceTo, quota, received = blob }: Arrival,
    verification: Verification | undefined,
  ): Promise<{ payload: InboundMessageJob; recipients: Map<string, RecipientAddress> }> {
    const recipients = envelope?.known ?? (await this.directory.resolve([...summary.to, ...summary.cc, ...summary.bcc].map(({ address }) => address))).known;
    if (recipients.size === 0 && bounceTo.length === 0) throw new NoRecipientsError();
    const verdict = quotaVerdict(recipients, await this.quotas.usageOf(userIdsOf(recipients)), blob.size);
    if (verdict.full.length > 0 && (quota === 'refuse' || verdict.full.length === recipients.size)) throw new QuotaExceededError(verdict.full, blob.size);
    const messageId = messageIdOf(summary, received);
    const payload: InboundMessageJob = {
      inboundId,
      storageKey: blob.key,
      size: blob.size,
      messageId,
      dedupKey: dedupKeyOf(summary.from?.address, messageId),
      recipientIds: verdict.userIds,
      ...(bounceTo.length > 0 && { bounceTo }),
      receivedAt: receivedAt.toISOString(),
      ...(verification && { authentication: verification.authentication, mailbox: verification.action.action === 'spam' ? 'spam' : 'inbox' }),
      ...(origin.channel !== 'local' && { peer: { ip: origin.ip, helo: origin.helo, mailFrom: origin.sender, rcptTo: [...recipients.keys()] } }),
    };
    return { payload, recipients };
  }

  private async record(payload: InboundMessageJob, recipients: Map<string, RecipientAddress>): Promise<AcceptedInbound> {
    // Grouped with other requests' messages: each keeps the id of the request that brought it.
    await this.acceptances.accept({ ...payload, requestId: currentRequestId() });
    return { inboundId: payload.inboundId, messageId: payload.messageId, recipients: [...recipients.keys()] };
  }
}

/** What the intake knows of a message from the moment it arrives. */
interface Arrival {
  inboundId: string;
  /**
   * The message as it came, before its trace headers (which differ on every acceptance):
   * what the Message-ID of a message without one is made from, so a retried delivery of it is stored once.
   */
  received?: StoredBlob;
  receivedAt: Date;
  origin: InboundOrigin;
  envelope: ResolvedRecipients | undefined;
  /** The bounce addresses among its envelope recipients. */
  bounceTo: string[];
  quota: NonNullable<InboundMessage['quota']>;
}

/** The envelope of a message to bounce addresses only. */
const NO_RECIPIENTS: ResolvedRecipients = { known: new Map(), unknown: [], foreign: [] };

/** Refuses recipients Letterbox takes no mail for: outside its domains first, as a relay is refused before any lookup of users. */
function refuseUnresolved(recipients: ResolvedRecipients): void {
  if (recipients.foreign.length > 0) throw new ForeignRecipientsError(recipients.foreign);
  if (recipients.unknown.length > 0) throw new UnknownRecipientsError(recipients.unknown);
}

function userIdsOf(recipients: Map<string, RecipientAddress>): number[] {
  return [...new Set([...recipients.values()].flatMap((address) => address.userIds))];
}
