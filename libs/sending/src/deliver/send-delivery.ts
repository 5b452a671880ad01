import type { Readable } from 'node:stream';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Transporter } from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import type Mail from 'nodemailer/lib/mailer';
import type { Database } from '@letterbox/db';
import { DkimKeyDecryptionError, type DkimSigningKeys } from '@letterbox/dkim';
import { readReceiptKeys } from '@letterbox/mail';
import { loggerFor, sendsTotal } from '@letterbox/observability';
import { JOB_DONE, type JobAttempt, type JobOutcome, type JobPayloads } from '@letterbox/queue';
import type { BlobStore } from '@letterbox/storage';
import { messageOptions, type Delivery } from '../compose/compose-message';
import type { BounceAddresses } from './bounce-addresses';
import { claimDelivery } from './delivery-claim';
import { DeliveryRecords } from './delivery-records';
import type { ProviderReceipts } from './provider-receipts';
import type { RedirectFailureNotices } from '../redirect/redirect-failure-notices';
import type { RecordedRequest } from '../submit/record-send';
import type { SenderRateLimit } from './sender-rate-limit';
import { fromAddressOf, recipientsOf, type RedirectedMessage, type Sender } from '../submit/send-request';
import { redirectedMessage } from './redirected-message';
import { signedMessage, signedStream } from './signed-message';
import { describeSmtpFailure, isPermanentSmtpFailure } from './smtp-failure';
import { enhancedStatusIn, isHardBounce } from '../bounces/bounce-status';
import { RecipientStatuses } from '../bounces/recipient-statuses';
import { Suppressions } from '../bounces/suppressions';

/** Letterbox's own users among a send's recipients: they get it from Letterbox, never through the provider. */
const logger = loggerFor('delivery');

export interface Colleagues {
  colleaguesAmong(addresses: string[]): Promise<Set<string>>;
  /** Hands a message to Letterbox's incoming mail for them; repeating it stores it once. Full mailboxes refuse it for good. */
  deliver(message: Readable, recipients: string[]): Promise<{ refusedForGood?: string }>;
}

export interface SendDeliveryOptions {
  /** Base of the read API's public URL, for read-receipt images. */
  readApiPublicUrl: string;
  /** Where the provider can be asked what it accepted; without it a message whose attempt was cut short is sent again. */
  receipts?: ProviderReceipts;
  /** Without it every recipient goes through the provider. */
  colleagues?: Colleagues;
  /** The envelope sender of each message to the provider: a bounce address naming its send. */
  bounceAddresses: BounceAddresses;
  /** The keys each message to the provider is DKIM-signed with: its sender's domain's, or its office's. */
  dkimKeys: DkimSigningKeys;
  /** Tells a redirected mail's original sender that the redirect was refused for good; without it no one is told. */
  redirectFailures?: RedirectFailureNotices;
}

type DeliverSend = JobPayloads['deliver-send'];

/** The key under which a whole-send message to the recipients outside Letterbox is recorded as delivered. */
const ALL_RECIPIENTS = '*';
/** The key of a whole-send message delivered to Letterbox's own users. */
const ALL_COLLEAGUES = 'colleagues';

/** How long a send with read receipts is put off while the ingest worker stores its Sent copy (a few groups' time). */
const SENT_COPY_WAIT_MS = 250;

/**
 * A rate-limit slot further off than this is waited for out of the worker (the job
 * delayed), so that waiting jobs do not fill the worker's concurrency.
 */
const WAIT_IN_WORKER_MAX_MS = 1000;
/** A job delayed for its slot comes back this long before it: time to be picked up and to prepare its message. */
const BACK_BEFORE_SLOT_MS = 500;
/**
 * A message ready this long after its slot gives it up for the sender's next free one. Half
 * the tolerance a burst of 1 leaves at the provider's usual burst of 5 (4 intervals at 5/s):
 * the other half is for the way from here to the provider's decision.
 */
const LATE_FOR_SLOT_MS = 400;

/**
 * Delivers one recorded send over SMTP. A send to several recipients separately, or with
 * read receipts (each recipient's image differs), goes out as one message per recipient;
 * each delivered one is recorded, so a retry or a restarted worker sends only the rest.
 * Each message to the provider leaves at its sender's rate-limit slot, taken before its
 * preparation and waited for after it, so that the provider sees the sender's pace and not
 * the jitter of the work in between; a sender over its limit is put off, not failed. A 5xx reply fails a whole-send
 * message at once; in a per-recipient send it refuses that recipient only, recorded with
 * its reason, and the others are still delivered: the send fails only if all are refused.
 * Letterbox's own users among the recipients get the message from Letterbox itself. A send
 * with read receipts waits for its Sent copy, whose keys its images name; the others go
 * whether the copy is stored yet or not. A message a mail client submitted goes as written, DKIM-signed.
 */
export class SendDelivery {
  private readonly records: DeliveryRecords;
  private readonly statuses: RecipientStatuses;
  private readonly suppressions: Suppressions;

  constructor(
    private readonly db: Database,
    private readonly blobs: BlobStore,
    private readonly smtp: Transporter,
    private readonly rateLimit: SenderRateLimit,
    private readonly options: SendDeliveryOptions,
  ) {
    this.records = new DeliveryRecords(db.sql);
    this.statuses = new RecipientStatuses(db.sql);
    this.suppressions = new Suppressions(db.sql);
  }

  /** The `deliver-send` job: what became of this run, for the queue to act on. */
  async deliver(payload: DeliverSend, attempt: JobAttempt<DeliverSend>): Promise<JobOutcome<DeliverSend>> {
    const { sendId } = payload;
    const send = await this.records.send(sendId);
    if (!send || send.status === 'cancelled' || send.status === 'sent' || send.status === 'failed') return JOB_DONE;
    const { request, sender } = send;
    // The copy holds the read-receipt keys: no image goes out before they exist. Put off, not failed: it takes no attempt.
    if (send.sentCopyPending && request.requestReadReceipt) {
      return {
        outcome: 'later',
        at: Date.now() + SENT_COPY_WAIT_MS,
        reason: `send ${sendId}'s Sent copy, which holds its read-receipt keys, is not stored yet`,
      };
    }
    const colleagues = this.options.colleagues ? await this.options.colleagues.colleaguesAmong(recipientsOf(request)) : new Set<string>();
    const suppressed = await this.suppressed(sendId, sender, request, colleagues);
    const deliveries = await this.plan(send.sentMailId, sender, request, colleagues, suppressed);
    if (deliveries.length === 0) {
      await this.records.failed(sendId, `every recipient is suppressed: ${[...suppressed].join(', ')}`);
      sendsTotal.inc({ status: 'failed' });
      return JOB_DONE;
    }
    let claimed = false;
    let tokenHeld = payload.tokenDueAt !== undefined;
    const refused = [...send.refusedTo];
    for (const [key, delivery] of deliveries) {
      if (send.deliveredTo.includes(key) || refused.includes(key)) continue;
      if (delivery.internal && this.options.colleagues) {
        if (!claimed) {
          if (!(await claimDelivery(this.db.sql, sendId, null, true))) return JOB_DONE;
          claimed = true;
        }
        const identity = { messageId: request.messageId, date: new Date(request.date) };
        const message = request.redirect
          ? redirectedMessage(this.blobs, request.redirect)
          : request.submitted
            ? this.blobs.createReadStream(request.submitted.storageKey)
            : new MailComposer(messageOptions(this.blobs, sender, request, identity, delivery)).compile().createReadStream();
        const { refusedForGood } = await this.options.colleagues.deliver(message, delivery.recipients);
        if (refusedForGood !== undefined) {
          refused.push(key);
          await this.redirectRefused(sendId, sender, request, delivery.recipients, refusedForGood);
          await this.statuses.record(sendId, delivery.recipients, 'bounced', refusedForGood);
          await this.records.refused(sendId, key, `${delivery.recipients.join(', ')}: ${refusedForGood}`);
        } else await this.records.delivered(sendId, key);
        continue;
      }
      if (send.attemptedTo.includes(key) && (await this.reachedProvider(sendId, request, delivery))) {
        await this.records.delivered(sendId, key);
        continue;
      }
      let slot: number;
      if (tokenHeld) {
        slot = payload.tokenDueAt as number;
        // Used now: a later run (a retry) must take a token of its own.
        await attempt.updatePayload({ ...payload, tokenDueAt: undefined });
        tokenHeld = false;
      } else {
        slot = Date.now() + (await this.rateLimit.take(sender.email));
        // The token is the job's once taken: a job that waits for it out of the worker holds it (tokenDueAt), and its next run takes no other.
        if (slot - Date.now() > WAIT_IN_WORKER_MAX_MS) {
          return {
            outcome: 'later',
            at: slot - BACK_BEFORE_SLOT_MS,
            reason: `sender ${sender.email} is over its rate limit`,
            payload: { ...payload, tokenDueAt: slot },
          };
        }
      }
      // Recorded before the SMTP transaction starts: a crash after the provider's 250 leaves this, not deliveredTo.
      if (!(await claimDelivery(this.db.sql, sendId, key, !claimed))) return JOB_DONE;
      claimed = true;
      const wholeSend = key === ALL_RECIPIENTS;
      const refusal = await this.sendOne(sendId, sender, request, delivery, { slot, finalAttempt: attempt.final, wholeSend });
      if (refusal !== undefined && wholeSend) return { outcome: 'failed', reason: refusal };
      if (refusal !== undefined) {
        refused.push(key);
        await this.records.refused(sendId, key, `${delivery.recipients.join(', ')}: ${refusal}`);
        continue;
      }
      await this.records.delivered(sendId, key);
    }
    if (refused.length > 0 && refused.length === deliveries.length) {
      await this.records.failed(sendId);
      sendsTotal.inc({ status: 'failed' });
      return { outcome: 'failed', reason: `every recipient was refused: ${refused.join(', ')}` };
    }
    await this.records.sent(sendId, refused.length > 0 ? `refused for good: ${refused.join(', ')}` : null);
    sendsTotal.inc({ status: 'sent' });
    logger.info({ sendId, refused: refused.length }, `send ${sendId} sent`);
    return JOB_DONE;
  }

  /**
   * Waits for a message's slot: it leaves then, not whenever the work before it happened to
   * end, so the provider sees the sender's pace. Work that overran the slot (a database
   * queueing under load) would send it close behind the next ones: it takes a new slot, and
   * waits for it here however far off, its attempt being recorded already.
   */
  private async leaveAt(slot: number, sender: string): Promise<void> {
    const due = Date.now() - slot > LATE_FOR_SLOT_MS ? Date.now() + (await this.rateLimit.take(sender)) : slot;
    if (due > Date.now()) await sleep(due - Date.now());
  }

  /**
   * The recipients outside Letterbox on the office's suppression list: they are not tried, and
   * are recorded `suppressed` at once (again on a retry, which changes nothing).
   */
  private async suppressed(sendId: number, sender: Sender, request: RecordedRequest, colleagues: Set<string>): Promise<Set<string>> {
    const outside = recipientsOf(request).filter((recipient) => !colleagues.has(recipient));
    const suppressed = await this.suppressions.among(sender.officeId, outside);
    if (suppressed.size > 0) {
      await this.statuses.record(sendId, [...suppressed], 'suppressed', 'on the suppression list: an earlier message to it bounced for good');
      logger.info({ sendId, suppressed: [...suppressed] }, `send ${sendId}: suppressed recipients are not tried`);
    }
    return suppressed;
  }

  /** Recipients the provider refused for good: bounced, and on the office's suppression list when the address itself is wrong. */
  private async bounced(sendId: number, sender: Sender, recipients: string[], reply: string): Promise<void> {
    await this.statuses.record(sendId, recipients, 'bounced', reply);
    if (!isHardBounce(enhancedStatusIn(reply))) return;
    for (const recipient of recipients) await this.suppressions.add(sender.officeId, recipient, reply, sendId);
  }

  /** A redirect refused for good: its original sender is told, where the redirect names one. */
  private async redirectRefused(sendId: number, sender: Sender, request: RecordedRequest, recipients: string[], reply: string): Promise<void> {
    if (!request.redirect || !this.options.redirectFailures) return;
    await this.options.redirectFailures.tell({ sendId, sender, request, redirect: request.redirect, recipients, reply });
  }

  /** Whether an attempt cut short (a crash, a lost connection after DATA) reached the provider, where it can be asked. */
  private async reachedProvider(sendId: number, request: RecordedRequest, delivery: Delivery): Promise<boolean> {
    if (!this.options.receipts) {
      logger.warn({ sendId, recipients: delivery.recipients }, `send ${sendId}: an earlier attempt was cut short; sending again may repeat it`);
      return false;
    }
    return this.options.receipts.accepted(request.messageId, delivery.recipients);
  }

  /** Records a send's delivery as given up, unless it went out or was cancelled meanwhile. */
  async giveUp(sendId: number, reason: string): Promise<void> {
    if (!(await this.records.givenUp(sendId, reason.slice(0, 1000)))) return;
    sendsTotal.inc({ status: 'failed' });
    logger.warn({ sendId, reason }, `send ${sendId} given up`);
  }

  /**
   * Sends one message, prepared (signed) before its slot and sent at it: nothing once the provider
   * took it, or the provider's reason when it refused it for good; a failure for now (a key that
   * does not decrypt included) is thrown, and the job tried again. `wholeSend`: the message is the
   * whole send, so a refusal fails it; otherwise the caller decides.
   */
  private async sendOne(
    sendId: number,
    sender: Sender,
    request: RecordedRequest,
    delivery: Delivery,
    { slot, finalAttempt, wholeSend }: { slot: number; finalAttempt: boolean; wholeSend: boolean },
  ): Promise<string | undefined> {
    try {
      const message = await this.prepare(sendId, sender, request, delivery);
      await this.leaveAt(slot, sender.email);
      const accepted = await this.smtp.sendMail(message);
      // Some recipients of a whole-send message refused at RCPT, the others took it.
      for (const refusal of (accepted.rejectedErrors ?? []) as Array<Error & { recipient?: string }>) {
        if (refusal.recipient) await this.bounced(sendId, sender, [refusal.recipient.toLowerCase()], describeSmtpFailure(refusal));
      }
      logger.info(
        { sendId, messageId: request.messageId, recipients: delivery.recipients, smtpResponse: accepted.response },
        `send ${sendId}: the provider took it`,
      );
      return undefined;
    } catch (error) {
      const permanent = isPermanentSmtpFailure(error);
      const lastError = describeSmtpFailure(error);
      const failsSend = (permanent && wholeSend) || (finalAttempt && !permanent);
      // The recipients' bounce first: whoever sees the send failed sees why, for whom. A redirect's sender is told
      // before the send is recorded refused: a run cut short in between tells them on its retry, once (its key).
      if (permanent) await this.redirectRefused(sendId, sender, request, delivery.recipients, lastError);
      if (permanent) await this.bounced(sendId, sender, delivery.recipients, lastError);
      await (failsSend ? this.records.failed(sendId, lastError) : this.records.lastError(sendId, lastError));
      if (failsSend) sendsTotal.inc({ status: 'failed' });
      const what = error instanceof DkimKeyDecryptionError ? 'could not be signed' : 'the provider refused it';
      logger.warn({ sendId, recipients: delivery.recipients, permanent }, `send ${sendId}: ${what}: ${lastError}`);
      if (permanent) return lastError;
      throw error;
    }
  }

  /**
   * One message to the provider: from its bounce address (the From header stays the sender's),
   * DKIM-signed when its domain or office has keys.
   */
  private async prepare(sendId: number, sender: Sender, request: RecordedRequest, delivery: Delivery): Promise<Mail.Options> {
    if (request.redirect) return this.prepareRedirected(sender, request, request.redirect, delivery);
    const identity = { messageId: request.messageId, date: new Date(request.date) };
    const compose = () => messageOptions(this.blobs, sender, request, identity, delivery);
    const from = fromAddressOf(sender, request);
    const bounceTo = { sendId, recipientIndex: delivery.recipientIndex };
    const envelope = { from: this.options.bounceAddresses.address(bounceTo, from.slice(from.lastIndexOf('@') + 1)), to: delivery.recipients };
    const keys = await this.options.dkimKeys.forSender(sender.officeId, from);
    if (request.submitted) {
      // A mail client's message goes as it wrote it: only signed, never composed again.
      const { storageKey } = request.submitted;
      const open = () => this.blobs.createReadStream(storageKey);
      return { envelope, messageId: request.messageId, raw: keys.length === 0 ? open() : await signedStream(open, keys) };
    }
    if (keys.length === 0) return { ...compose(), envelope };
    return { envelope, messageId: request.messageId, raw: await signedMessage(compose, keys) };
  }

  /**
   * A redirected message: its bytes unchanged behind its trace header, from its own envelope sender (an SRS
   * address, so the receiver's SPF check is of the domain sending it), DKIM-signed as the redirecting user's.
   */
  private async prepareRedirected(sender: Sender, request: RecordedRequest, redirect: RedirectedMessage, delivery: Delivery): Promise<Mail.Options> {
    const envelope = { from: redirect.envelopeFrom, to: delivery.recipients };
    const keys = await this.options.dkimKeys.forSender(sender.officeId, fromAddressOf(sender, request));
    const open = () => redirectedMessage(this.blobs, redirect);
    return { envelope, messageId: request.messageId, raw: keys.length === 0 ? open() : await signedStream(open, keys) };
  }

  /** The messages a send is made of, each under the key its delivery is recorded by. */
  private async plan(
    sentMailId: number | null,
    sender: Sender,
    request: RecordedRequest,
    colleagues: Set<string>,
    suppressed: Set<string>,
  ): Promise<Array<[string, Delivery]>> {
    const recipients = recipientsOf(request);
    if (!request.sendSeparately && !request.requestReadReceipt) {
      const outside = recipients.filter((recipient) => !colleagues.has(recipient) && !suppressed.has(recipient));
      const plan: Array<[string, Delivery]> = [];
      if (outside.length > 0) plan.push([ALL_RECIPIENTS, { recipients: outside, headerTo: request.to, headerCc: request.cc }]);
      if (colleagues.size > 0) plan.push([ALL_COLLEAGUES, { recipients: [...colleagues], headerTo: request.to, headerCc: request.cc, internal: true }]);
      return plan;
    }
    const certKeys = request.requestReadReceipt && sentMailId !== null ? await readReceiptKeys(this.db.sql, sentMailId) : new Map<string, string>();
    // Each keeps its index among all the recipients: its bounce address names it by that.
    const planned = recipients.map((recipient, recipientIndex) => {
      const certKey = certKeys.get(recipient);
      const delivery: Delivery = {
        recipients: [recipient],
        recipientIndex,
        headerTo: request.sendSeparately ? [recipient] : request.to,
        headerCc: request.sendSeparately ? [] : request.cc,
        receiptPixelUrl: certKey ? this.pixelUrl(sender.officeId, certKey, recipient) : undefined,
        internal: colleagues.has(recipient),
      };
      return [recipient, delivery] as [string, Delivery];
    });
    return planned.filter(([recipient]) => !suppressed.has(recipient));
  }

  private pixelUrl(officeId: number, certKey: string, email: string): string {
    const base = this.options.readApiPublicUrl.replace(/\/$/, '');
    return `${base}/v2/office/${officeId}/receipt-confirm/${certKey}/email/${encodeURIComponent(email)}`;
  }
}
