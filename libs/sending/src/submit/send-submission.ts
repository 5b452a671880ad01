import type { Database } from '@letterbox/db';
import type { MailQueries } from '@letterbox/mail';
import type { BatchLimits } from '@letterbox/queue';
import type { BlobStore } from '@letterbox/storage';
import { recipientViews } from '../bounces/recipient-views';
import { Suppressions } from '../bounces/suppressions';
import { answerOf } from './answer-original';
import { NoRecipientsError } from '../send-errors';
import { ownFromAddress, ownFromName, type SignedInSender } from '../sender-directory';
import { estimatedMessageBytes } from '../storage-quota';
import { SEND_GROUP_COMMIT } from './send-group-commit';
import { SendRecords } from './send-records';
import type { SendOutbox } from './send-outbox';
import { recipientsOf, type AnsweredMail, type AnswerMode, type SendRequest } from './send-request';
import type { SendStatusView } from './send-view';

/** What the user asked to send; `original` names a mail it answers or forwards. */
export interface SendDraft extends Omit<SendRequest, 'answering'> {
  original?: { mailId: number; mode: AnswerMode };
}

export interface SendSubmissionOptions {
  db: Database;
  blobs: BlobStore;
  /** Where a reply or forward reads its original. */
  mails: MailQueries;
  outbox: SendOutbox;
  queuePrefix: string;
  /** Told once a send answering or forwarding a mail is recorded (and its flag set). */
  onAnswered?: (userId: number, answering: AnsweredMail) => Promise<void>;
  /** How many requests' sends are recorded together (group commit); SEND_GROUP_COMMIT by default. */
  groupLimits?: BatchLimits;
  /** The quota of users without one of their own (USER_QUOTA_BYTES): a send that would take its sender past theirs is refused. */
  defaultQuotaBytes: number;
}

/**
 * A send from the request to the queue: a reply or forward is completed from its
 * original (recipients and subject where the user gave none, a forward's attachments by
 * reference), recorded (with other requests' sends: group commit), then queued for the
 * delivery worker (likewise). It goes out from the sender's primary address or the one of
 * their own they chose, and is refused if its message would take them past their quota.
 */
export class SendSubmission {
  private readonly records: SendRecords;
  private readonly suppressions: Suppressions;
  private readonly blobs: BlobStore;
  private readonly mails: MailQueries;
  private readonly outbox: SendOutbox;
  private readonly queuePrefix: string;
  private readonly onAnswered: (userId: number, answering: AnsweredMail) => Promise<void>;
  private readonly defaultQuotaBytes: number;

  constructor({
    db,
    blobs,
    mails,
    outbox,
    queuePrefix,
    onAnswered = async () => undefined,
    groupLimits = SEND_GROUP_COMMIT,
    defaultQuotaBytes,
  }: SendSubmissionOptions) {
    this.records = new SendRecords(db, groupLimits);
    this.suppressions = new Suppressions(db.sql);
    this.blobs = blobs;
    this.mails = mails;
    this.outbox = outbox;
    this.queuePrefix = queuePrefix;
    this.onAnswered = onAnswered;
    this.defaultQuotaBytes = defaultQuotaBytes;
  }

  async submit(sender: SignedInSender, draft: SendDraft, idempotencyKey?: string): Promise<{ send: SendStatusView; created: boolean }> {
    return this.submitRequest(sender, await this.completed(sender, draft), idempotencyKey);
  }

  /**
   * A request already complete, such as a saved draft's. `freedBytes`: what the send frees
   * of the sender's mail as it is recorded (the draft it is sent from), which its message
   * may take without counting against the quota. Its recipients are `queued`, or `suppressed`
   * when on the office's suppression list: the sender is told at once that those are not tried.
   */
  async submitRequest(
    sender: SignedInSender,
    asked: SendRequest,
    idempotencyKey?: string,
    freedBytes = 0,
  ): Promise<{ send: SendStatusView; created: boolean }> {
    if (recipientsOf(asked).length === 0) throw new NoRecipientsError();
    const from = ownFromAddress(sender, asked.from);
    const fromName = ownFromName(sender, from);
    const request = { ...asked, ...(from === undefined ? {} : { from }), ...(fromName === undefined ? {} : { fromName }) };
    const quota = { defaultBytes: this.defaultQuotaBytes, messageBytes: estimatedMessageBytes(request) - freedBytes };
    const recorded = await this.records.record(sender, request, { idempotencyKey, queuePrefix: this.queuePrefix, quota });
    if (recorded.created) {
      await this.outbox.enqueue({ ...recorded.send, sentCopyPending: recorded.send.sentMailId !== null });
      if (request.answering) await this.onAnswered(sender.userId, request.answering);
    }
    const suppressed = await this.suppressions.among(sender.officeId, recipientsOf(request));
    const recipients = recipientViews({ send: recorded.send, request, deliveredTo: [], rows: [], suppressed });
    return { send: { ...recorded.send, recipients }, created: recorded.created };
  }

  private async completed(sender: SignedInSender, { original, ...draft }: SendDraft): Promise<SendRequest> {
    if (!original) return draft;
    const answer = await answerOf(this.mails, this.blobs, sender, original.mailId, original.mode);
    const recipientsGiven = draft.to.length + draft.cc.length + draft.bcc.length > 0;
    return {
      ...draft,
      to: recipientsGiven ? draft.to : answer.to,
      cc: recipientsGiven ? draft.cc : answer.cc,
      subject: draft.subject || answer.subject,
      attachments: [...answer.attachments, ...draft.attachments],
      answering: answer.answering,
    };
  }
}
