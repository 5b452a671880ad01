import type { Pool } from 'pg';
import { namedStatement, primaryOnly, type Database } from '@letterbox/db';
import { MailQueries } from '@letterbox/mail';
import type { JobQueues } from '@letterbox/queue';
import type { BlobStore } from '@letterbox/storage';
import { SenderDirectory, type SenderIdentities, type SignedInSender } from '../sender-directory';
import { SendOutbox } from '../submit/send-outbox';
import type { SendRequest } from '../submit/send-request';
import { SendSubmission } from '../submit/send-submission';
import { repliersOf } from '../vacation/vacation-settings';
import type { SrsAddresses } from './srs-addresses';

/** A message goes through at most this many redirects: each adds a trace header, and one that has this many is not sent on. */
export const MAX_REDIRECT_HOPS = 5;

/** The header each redirect adds on top of the message: counting them stops a loop of redirects between mailboxes. */
export const REDIRECT_TRACE_HEADER = 'X-Letterbox-Redirected';

/** A mail stored (or discarded) for a user whose rules redirect it: what goes out. */
export interface RedirectedMail {
  /** The acceptance it came with: a retried batch sends no second redirect (the send's idempotency key). */
  inboundId: string;
  storageKey: string;
  size: number;
  subject: string;
  /** Its envelope sender, empty for the null sender. */
  envelopeFrom: string;
  /** The redirect trace headers it came with. */
  hops: number;
  /** It says it is automatic (Auto-Submitted): a redirect of it that fails tells no one, lest bounces loop. */
  autoSubmitted: boolean;
}

/** What became of one address a mail was to be redirected to: queued, or why not. */
export type RedirectOutcome = { to: string; redirected: true } | { to: string; redirected: false; because: string };

const REDIRECT_OF_SRS_ADDRESS = namedStatement(
  'redirect-of-srs-address',
  `SELECT user_id FROM outbound_sends WHERE request ? 'redirect' AND lower(request->'redirect'->>'envelopeFrom') = lower($1) ORDER BY id DESC LIMIT 1`,
);

/**
 * Sends mail on as users' rules redirect it (RFC 5228 §4.2), through the send pipeline like any send of
 * theirs (recorded, DKIM-signed, within their rate limit, no Sent copy): the stored message unchanged
 * behind one trace header, from an SRS address of the user's domain, so SPF passes at the receiver.
 * Never to the user's own addresses, and never past MAX_REDIRECT_HOPS. A bounce coming back to the SRS
 * address goes on to the original sender, from the null sender (returnBounce); so does the delivery worker's
 * own bounce when the redirect is refused for good (RedirectFailureNotices), unless the mail was automatic.
 */
export class MailRedirector {
  constructor(
    private readonly sql: Pool,
    private readonly senders: SenderDirectory,
    private readonly submission: SendSubmission,
    private readonly srs: SrsAddresses,
  ) {}

  async redirect(userId: number, mail: RedirectedMail, addresses: string[]): Promise<RedirectOutcome[]> {
    if (mail.hops >= MAX_REDIRECT_HOPS) return addresses.map((to) => ({ to, redirected: false, because: `redirected ${mail.hops} times already` }));
    const sender = await this.senderOf(userId);
    const outcomes: RedirectOutcome[] = [];
    for (const to of addresses) {
      if (sender.addresses.includes(to.toLowerCase())) {
        outcomes.push({ to, redirected: false, because: 'it is an address of the user' });
        continue;
      }
      const ourDomain = sender.email.slice(sender.email.lastIndexOf('@') + 1);
      const trace = `${REDIRECT_TRACE_HEADER}: for <${to}> by <${sender.email}>; ${new Date().toUTCString().replace('GMT', '+0000')}\r\n`;
      // The null sender stays null (no bounce of a bounce), as does a sender with no domain to name.
      const named = mail.envelopeFrom.includes('@');
      const envelopeFrom = named ? this.srs.forward(mail.envelopeFrom, ourDomain) : '';
      // Told when the redirect is refused for good: a sender there is, of a mail that is no automatic one.
      const bounceTo = named && !mail.autoSubmitted ? mail.envelopeFrom : undefined;
      await this.submit(sender, to, mail, { trace, envelopeFrom, bounceTo }, `redirect:${mail.inboundId}:${userId}:${to}`);
      outcomes.push({ to, redirected: true });
    }
    return outcomes;
  }

  /**
   * A message to an SRS address of ours (a bounce of a redirected mail): sent on unchanged, from the null
   * sender, to the original sender the address names, as the send of the user whose redirect went out from
   * it; or why not: the address is not one of ours (altered, too old), or no redirect went out from it.
   */
  async returnBounce(
    srsAddress: string,
    mail: Omit<RedirectedMail, 'envelopeFrom' | 'hops' | 'autoSubmitted'>,
  ): Promise<{ returnedTo: string } | { because: string }> {
    const original = this.srs.reverse(srsAddress);
    if ('refused' in original) return { because: `${srsAddress} is refused: ${original.refused}` };
    const { rows } = await this.sql.query<{ user_id: number }>({ ...REDIRECT_OF_SRS_ADDRESS, values: [srsAddress] });
    if (rows.length === 0) return { because: `no redirect went out from ${srsAddress}` };
    const sender = await this.senderOf(rows[0].user_id);
    await this.submit(
      sender,
      original.sender,
      { ...mail, envelopeFrom: '', hops: 0, autoSubmitted: true },
      { trace: '', envelopeFrom: '' },
      `srs-return:${mail.inboundId}:${srsAddress}`,
    );
    return { returnedTo: original.sender };
  }

  private async senderOf(userId: number): Promise<SignedInSender> {
    const officeId = (await repliersOf(this.sql, [userId])).get(userId)?.officeId;
    if (officeId === undefined) throw new Error(`user ${userId} no longer exists`);
    return this.senders.of({ userId, officeId });
  }

  private async submit(
    sender: SignedInSender,
    to: string,
    mail: RedirectedMail,
    { trace, envelopeFrom, bounceTo }: { trace: string; envelopeFrom: string; bounceTo?: string },
    idempotencyKey: string,
  ): Promise<void> {
    const request: SendRequest = {
      to: [to],
      cc: [],
      bcc: [],
      subject: mail.subject,
      important: false,
      saveCopy: false,
      sendSeparately: false,
      requestReadReceipt: false,
      attachments: [],
      redirect: { storageKey: mail.storageKey, size: mail.size, trace, envelopeFrom, ...(bounceTo ? { bounceTo } : {}) },
    };
    await this.submission.submitRequest(sender, request, idempotencyKey);
  }
}

/** What redirects need to go out as their users' sends. */
export interface RedirectSendingOptions {
  db: Database;
  blobs: BlobStore;
  queues: JobQueues;
  queuePrefix: string;
  /** The quota of users without one of their own (USER_QUOTA_BYTES). */
  defaultQuotaBytes: number;
  identitiesOf: SenderIdentities;
  srs: SrsAddresses;
}

/** The redirector as a worker runs it: each redirect recorded and queued as the send API's sends are, with no Sent copy. */
export function mailRedirector({ db, blobs, queues, queuePrefix, defaultQuotaBytes, identitiesOf, srs }: RedirectSendingOptions): MailRedirector {
  return new MailRedirector(
    db.sql,
    new SenderDirectory(identitiesOf, { maxSize: 100, maxWaitMs: 0 }),
    new SendSubmission({ db, blobs, mails: new MailQueries(primaryOnly(db.sql)), outbox: new SendOutbox(db, queues), queuePrefix, defaultQuotaBytes }),
    srs,
  );
}
