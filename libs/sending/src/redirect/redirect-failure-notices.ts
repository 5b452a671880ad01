import type { Database } from '@letterbox/db';
import type { BlobStore } from '@letterbox/storage';
import { BOUNCE_READ_BYTES } from '../bounces/delivery-status-report';
import { enhancedStatusIn } from '../bounces/bounce-status';
import { idempotencyKeyTaken, type RecordedRequest } from '../submit/record-send';
import type { SendOutbox } from '../submit/send-outbox';
import { SendRecords } from '../submit/send-records';
import type { RedirectedMessage, Sender, SendRequest } from '../submit/send-request';
import { composeRedirectFailureNotice } from './redirect-failure-notice';

/** A redirect's send, refused for good by the server it went to. */
export interface RefusedRedirect {
  sendId: number;
  sender: Sender;
  request: RecordedRequest;
  redirect: RedirectedMessage;
  recipients: string[];
  reply: string;
}

/**
 * Tells the original sender of a redirected mail that the redirect was refused for good: a bounce
 * (RFC 3464), sent from the null sender as the redirecting user's send, once per refused send (its
 * idempotency key). Only where the redirect names someone to tell (`bounceTo`): never for mail from
 * the null sender, automatic mail, or a bounce going back, so that no bounce answers a bounce.
 */
export class RedirectFailureNotices {
  private readonly records: SendRecords;

  constructor(
    private readonly db: Database,
    private readonly blobs: BlobStore,
    private readonly outbox: SendOutbox,
    private readonly queuePrefix: string,
  ) {
    this.records = new SendRecords(db);
  }

  async tell({ sendId, sender, request, redirect, recipients, reply }: RefusedRedirect): Promise<void> {
    if (!redirect.bounceTo) return;
    const idempotencyKey = `redirect-refused:${sendId}`;
    if (await idempotencyKeyTaken(this.db.sql, sender.userId, idempotencyKey)) return;
    const notice = composeRedirectFailureNotice({
      to: redirect.bounceTo,
      recipient: recipients.join(', '),
      reply,
      status: enhancedStatusIn(reply) ?? '5.0.0',
      domain: sender.email.slice(sender.email.lastIndexOf('@') + 1),
      sentAt: new Date(request.date),
      returnedHead: await this.headOf(redirect),
    });
    const stored = await this.blobs.put(notice);
    const bounce: SendRequest = {
      to: [redirect.bounceTo],
      cc: [],
      bcc: [],
      subject: 'Undelivered Mail Returned to Sender',
      important: false,
      saveCopy: false,
      sendSeparately: false,
      requestReadReceipt: false,
      attachments: [],
      redirect: { storageKey: stored.key, size: stored.size, trace: '', envelopeFrom: '' },
    };
    const recorded = await this.records.record(sender, bounce, { idempotencyKey, queuePrefix: this.queuePrefix });
    // Not queued now (the queue out of reach): the outbox sweep queues it.
    if (recorded.created) await this.outbox.enqueue({ ...recorded.send, sentCopyPending: false });
  }

  /** The redirected message's header block, read bounded: at most its first BOUNCE_READ_BYTES, up to the blank line. */
  private async headOf(redirect: RedirectedMessage): Promise<Buffer> {
    const [start] = await this.blobs.readRanges(redirect.storageKey, [{ start: 0, end: Math.min(redirect.size, BOUNCE_READ_BYTES) }]);
    const blank = start.indexOf('\r\n\r\n');
    if (blank !== -1) return start.subarray(0, blank + 2);
    const lastLine = start.lastIndexOf('\n');
    return lastLine === -1 ? start : start.subarray(0, lastLine + 1);
  }
}
