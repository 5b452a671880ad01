import type { Pool } from 'pg';
import { primaryOnly, type Database } from '@letterbox/db';
import { MailQueries } from '@letterbox/mail';
import type { JobQueues } from '@letterbox/queue';
import type { BlobStore } from '@letterbox/storage';
import { SenderDirectory, type SenderIdentities } from '../sender-directory';
import { SendOutbox } from '../submit/send-outbox';
import { SendSubmission } from '../submit/send-submission';
import { noAutoReplyBecause, type AutoReplyCandidate } from './auto-reply-rules';
import { claimVacationReply } from './vacation-replies';
import type { ActiveVacation } from './vacation-settings';

/** A mail stored for a user whose reply is on: what the reply answers. */
export interface VacationMail extends Omit<AutoReplyCandidate, 'ownAddresses'> {
  /** The acceptance it came with: a retried batch sends no second reply (the send's idempotency key). */
  inboundId: string;
  mailId: number;
  messageId: string;
  references: string[];
  subject: string;
}

/** What became of a mail's reply: sent (queued), or why not. */
export type VacationOutcome = { replied: true } | { replied: false; because: string };

/**
 * The out-of-office reply to one mail, through the send pipeline like any send (recorded,
 * DKIM-signed, rate-limited, no Sent copy) with Auto-Submitted: auto-replied, In-Reply-To and
 * References; sent when the rules of RFC 3834 allow one and the sender was not answered within the reply's days.
 */
export class VacationResponder {
  constructor(
    private readonly sql: Pool,
    private readonly senders: SenderDirectory,
    private readonly submission: SendSubmission,
  ) {}

  async reply(vacation: ActiveVacation, mail: VacationMail): Promise<VacationOutcome> {
    const sender = await this.senders.of({ userId: vacation.userId, officeId: vacation.officeId });
    const ownAddresses = [...sender.addresses, ...(vacation.moreAddresses ?? []).map((address) => address.toLowerCase())];
    const because = noAutoReplyBecause({ ...mail, ownAddresses });
    if (because) return { replied: false, because };
    if (!(await claimVacationReply(this.sql, vacation.userId, mail.envelopeFrom, vacation.days))) {
      return { replied: false, because: `answered in the last ${vacation.days} days already` };
    }
    const from = vacation.from?.toLowerCase();
    await this.submission.submitRequest(
      sender,
      {
        ...(from && sender.addresses.includes(from) ? { from } : {}),
        to: [mail.envelopeFrom],
        cc: [],
        bcc: [],
        subject: vacation.subject,
        text: vacation.text,
        ...(vacation.html ? { html: vacation.html } : {}),
        important: false,
        saveCopy: false,
        sendSeparately: false,
        requestReadReceipt: false,
        attachments: [],
        answering: { mailId: mail.mailId, mode: 'reply', messageId: mail.messageId, references: [...mail.references, mail.messageId] },
        autoSubmitted: 'auto-replied',
      },
      `vacation:${mail.inboundId}:${vacation.userId}`,
    );
    return { replied: true };
  }
}

/** What replies need to go out as their users' sends. */
export interface VacationSendingOptions {
  db: Database;
  blobs: BlobStore;
  queues: JobQueues;
  queuePrefix: string;
  /** The quota of users without one of their own (USER_QUOTA_BYTES). */
  defaultQuotaBytes: number;
  identitiesOf: SenderIdentities;
}

/** The responder as a worker runs it: each reply recorded and queued as the send API's sends are, with no Sent copy. */
export function vacationResponder({ db, blobs, queues, queuePrefix, defaultQuotaBytes, identitiesOf }: VacationSendingOptions): VacationResponder {
  return new VacationResponder(
    db.sql,
    new SenderDirectory(identitiesOf, { maxSize: 100, maxWaitMs: 0 }),
    new SendSubmission({ db, blobs, mails: new MailQueries(primaryOnly(db.sql)), outbox: new SendOutbox(db, queues), queuePrefix, defaultQuotaBytes }),
  );
}
