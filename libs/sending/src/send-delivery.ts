import type { Readable } from 'node:stream';
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import type { Transporter } from 'nodemailer';
import MailComposer from 'nodemailer/lib/mail-composer';
import type { Database } from '@letterbox/db';
import { loggerFor, sendsTotal } from '@letterbox/observability';
import type { SenderRateLimit } from '@letterbox/queue';
import type { BlobStore } from '@letterbox/storage';
import { messageOptions, type Delivery } from './compose-message';
import type { ProviderReceipts } from './provider-receipts';
import type { RecordedRequest } from './record-send';
import { recipientsOf, type Sender } from './send-request';
import { describeSmtpFailure, isPermanentSmtpFailure } from './smtp-failure';

/** Letterbox's own users among a send's recipients: they get it from Letterbox, never through the provider. */
const logger = loggerFor('delivery');

export interface Colleagues {
  colleaguesAmong(addresses: string[]): Promise<Set<string>>;
  /** Hands a message to Letterbox's incoming mail for them; repeating it stores it once. */
  deliver(message: Readable, recipients: string[]): Promise<void>;
}

export interface SendDeliveryOptions {
  /** Base of the read API's public URL, for read-receipt images. */
  readApiPublicUrl: string;
  /** Where the provider can be asked what it accepted; without it a message whose attempt was cut short is sent again. */
  receipts?: ProviderReceipts;
  /** Without it every recipient goes through the provider. */
  colleagues?: Colleagues;
}

/** The key under which a whole-send message to the recipients outside Letterbox is recorded as delivered. */
const ALL_RECIPIENTS = '*';
/** The key of a whole-send message delivered to Letterbox's own users. */
const ALL_COLLEAGUES = 'colleagues';

/**
 * Delivers one recorded send over SMTP. A send to several recipients separately, or with
 * read receipts (each recipient's image differs), goes out as one message per recipient;
 * each delivered one is recorded, so a retry or a restarted worker sends only the rest.
 * A sender over its rate limit is delayed, not failed. A 5xx reply fails a whole-send
 * message at once; in a per-recipient send it refuses that recipient only, recorded with
 * its reason, and the others are still delivered: the send fails only if all are refused.
 * Letterbox's own users among the recipients get the message from Letterbox itself.
 */
export class SendDelivery {
  constructor(
    private readonly db: Database,
    private readonly blobs: BlobStore,
    private readonly smtp: Transporter,
    private readonly rateLimit: SenderRateLimit,
    private readonly options: SendDeliveryOptions,
  ) {}

  async deliver(sendId: number, job: Job, token: string, finalAttempt: boolean): Promise<void> {
    const send = await this.db.prisma.outboundSend.findUnique({
      where: { id: BigInt(sendId) },
      include: { user: { select: { id: true, officeId: true, email: true, displayName: true } } },
    });
    if (!send || send.status === 'cancelled' || send.status === 'sent' || send.status === 'failed') return;
    const request = send.request as unknown as RecordedRequest;
    const sender: Sender = { userId: send.user.id, officeId: send.user.officeId, email: send.user.email, displayName: send.user.displayName };
    const colleagues = this.options.colleagues ? await this.options.colleagues.colleaguesAmong(recipientsOf(request)) : new Set<string>();
    const deliveries = await this.plan(send.sentMailId, sender, request, colleagues);
    let claimed = false;
    const refused = [...send.refusedTo];
    for (const [key, delivery] of deliveries) {
      if (send.deliveredTo.includes(key) || refused.includes(key)) continue;
      if (delivery.internal && this.options.colleagues) {
        if (!claimed) {
          if (!(await this.claim(sendId))) return;
          claimed = true;
        }
        const identity = { messageId: request.messageId, date: new Date(request.date) };
        const message = new MailComposer(messageOptions(this.blobs, sender, request, identity, delivery)).compile().createReadStream();
        await this.options.colleagues.deliver(message, delivery.recipients);
        await this.db.prisma.outboundSend.update({ where: { id: BigInt(sendId) }, data: { deliveredTo: { push: key } } });
        continue;
      }
      if (send.attemptedTo.includes(key) && (await this.reachedProvider(sendId, request, delivery))) {
        await this.db.prisma.outboundSend.update({ where: { id: BigInt(sendId) }, data: { deliveredTo: { push: key } } });
        continue;
      }
      await this.awaitToken(sender, job, token);
      if (!claimed) {
        if (!(await this.claim(sendId))) return;
        claimed = true;
      }
      // Recorded before the SMTP transaction starts: a crash after the provider's 250 leaves this, not deliveredTo.
      if (!send.attemptedTo.includes(key)) {
        await this.db.prisma.outboundSend.update({ where: { id: BigInt(sendId) }, data: { attemptedTo: { push: key } } });
      }
      if (key !== ALL_RECIPIENTS) {
        const refusal = await this.refusalOf(sendId, sender, request, delivery, finalAttempt);
        if (refusal) {
          refused.push(key);
          await this.db.prisma.outboundSend.update({ where: { id: BigInt(sendId) }, data: { refusedTo: { push: key }, lastError: refusal } });
          continue;
        }
      } else {
        await this.sendOne(sendId, sender, request, delivery, finalAttempt, true);
      }
      await this.db.prisma.outboundSend.update({ where: { id: BigInt(sendId) }, data: { deliveredTo: { push: key } } });
    }
    if (refused.length > 0 && refused.length === deliveries.length) {
      await this.db.prisma.outboundSend.update({ where: { id: BigInt(sendId) }, data: { status: 'failed' } });
      sendsTotal.inc({ status: 'failed' });
      throw new UnrecoverableError(`every recipient was refused: ${refused.join(', ')}`);
    }
    await this.db.prisma.outboundSend.update({
      where: { id: BigInt(sendId) },
      data: {
        status: 'sent',
        sentAt: new Date(),
        lastError: refused.length > 0 ? `refused for good by the provider: ${refused.join(', ')}` : null,
      },
    });
    sendsTotal.inc({ status: 'sent' });
    logger.info({ sendId, refused: refused.length }, `send ${sendId} sent`);
  }

  /** Whether an attempt cut short (a crash, a lost connection after DATA) reached the provider, where it can be asked. */
  private async reachedProvider(sendId: number, request: RecordedRequest, delivery: Delivery): Promise<boolean> {
    if (!this.options.receipts) {
      logger.warn({ sendId, recipients: delivery.recipients }, `send ${sendId}: an earlier attempt was cut short; sending again may repeat it`);
      return false;
    }
    return this.options.receipts.accepted(request.messageId, delivery.recipients);
  }

  /**
   * Takes the sender's rate-limit token for one message. When it is not due yet, the job
   * waits until it is, holding it (tokenDueAt): the next run uses it without taking another.
   */
  private async awaitToken(sender: Sender, job: Job, token: string): Promise<void> {
    if (job.data.tokenDueAt !== undefined) {
      await job.updateData({ ...job.data, tokenDueAt: undefined });
      return;
    }
    const wait = await this.rateLimit.take(sender.email);
    if (wait === 0) return;
    await job.updateData({ ...job.data, tokenDueAt: Date.now() + wait });
    await job.moveToDelayed(Date.now() + wait, token);
    throw new DelayedError(`sender ${sender.email} is over its rate limit`);
  }

  /** Records a send's delivery as given up, unless it went out or was cancelled meanwhile. */
  async giveUp(sendId: number, reason: string): Promise<void> {
    const { count } = await this.db.prisma.outboundSend.updateMany({
      where: { id: BigInt(sendId), status: { in: ['queued', 'sending'] } },
      data: { status: 'failed', lastError: reason.slice(0, 1000) },
    });
    if (count === 0) return;
    sendsTotal.inc({ status: 'failed' });
    logger.warn({ sendId, reason }, `send ${sendId} given up`);
  }

  /** Moves a queued send to sending; false if it was cancelled first. */
  private async claim(sendId: number): Promise<boolean> {
    const { count } = await this.db.prisma.outboundSend.updateMany({
      where: { id: BigInt(sendId), status: { in: ['queued', 'sending'] } },
      data: { status: 'sending', attempts: { increment: 1 } },
    });
    if (count === 0) return false;
    await this.db.prisma.outboundSend.updateMany({ where: { id: BigInt(sendId), startedAt: null }, data: { startedAt: new Date() } });
    return true;
  }

  /** Sends one recipient's message; the provider's reason when it refused that recipient for good, else nothing. */
  private async refusalOf(sendId: number, sender: Sender, request: RecordedRequest, delivery: Delivery, finalAttempt: boolean): Promise<string | undefined> {
    try {
      await this.sendOne(sendId, sender, request, delivery, finalAttempt, false);
      return undefined;
    } catch (error) {
      if (!(error instanceof UnrecoverableError)) throw error;
      return `${delivery.recipients.join(', ')}: ${error.message}`;
    }
  }

  /** `wholeSend`: the message is the whole send, so a refusal fails it; otherwise the caller decides. */
  private async sendOne(
    sendId: number,
    sender: Sender,
    request: RecordedRequest,
    delivery: Delivery,
    finalAttempt: boolean,
    wholeSend: boolean,
  ): Promise<void> {
    const identity = { messageId: request.messageId, date: new Date(request.date) };
    try {
      const accepted = await this.smtp.sendMail(messageOptions(this.blobs, sender, request, identity, delivery));
      logger.info({ sendId, messageId: request.messageId, recipients: delivery.recipients, smtpResponse: accepted.response }, `send ${sendId}: the provider took it`);
    } catch (error) {
      const permanent = isPermanentSmtpFailure(error);
      const lastError = describeSmtpFailure(error);
      const failsSend = (permanent && wholeSend) || (finalAttempt && !permanent);
      await this.db.prisma.outboundSend.update({ where: { id: BigInt(sendId) }, data: failsSend ? { status: 'failed', lastError } : { lastError } });
      if (failsSend) sendsTotal.inc({ status: 'failed' });
      logger.warn({ sendId, recipients: delivery.recipients, permanent }, `send ${sendId}: the provider refused it: ${lastError}`);
      if (permanent) throw new UnrecoverableError(lastError);
      throw error;
    }
  }

  /** The messages a send is made of, each under the key its delivery is recorded by. */
  private async plan(sentMailId: bigint | null, sender: Sender, request: RecordedRequest, colleagues: Set<string>): Promise<Array<[string, Delivery]>> {
    const recipients = recipientsOf(request);
    if (!request.sendSeparately && !request.requestReadReceipt) {
      const outside = recipients.filter((recipient) => !colleagues.has(recipient));
      const plan: Array<[string, Delivery]> = [];
      if (outside.length > 0) plan.push([ALL_RECIPIENTS, { recipients: outside, headerTo: request.to, headerCc: request.cc }]);
      if (colleagues.size > 0) plan.push([ALL_COLLEAGUES, { recipients: [...colleagues], headerTo: request.to, headerCc: request.cc, internal: true }]);
      return plan;
    }
    const certKeys = request.requestReadReceipt && sentMailId !== null ? await this.certKeys(sentMailId) : new Map<string, string>();
    return recipients.map((recipient) => {
      const certKey = certKeys.get(recipient);
      const delivery: Delivery = {
        recipients: [recipient],
        headerTo: request.sendSeparately ? [recipient] : request.to,
        headerCc: request.sendSeparately ? [] : request.cc,
        receiptPixelUrl: certKey ? this.pixelUrl(sender.officeId, certKey, recipient) : undefined,
        internal: colleagues.has(recipient),
      };
      return [recipient, delivery];
    });
  }

  private async certKeys(sentMailId: bigint): Promise<Map<string, string>> {
    const receipts = await this.db.prisma.readReceipt.findMany({ where: { mailId: sentMailId }, select: { recipientEmail: true, certKey: true } });
    return new Map(receipts.map((receipt) => [receipt.recipientEmail, receipt.certKey]));
  }

  private pixelUrl(officeId: number, certKey: string, email: string): string {
    const base = this.options.readApiPublicUrl.replace(/\/$/, '');
    return `${base}/v2/office/${officeId}/receipt-confirm/${certKey}/email/${encodeURIComponent(email)}`;
  }
}
