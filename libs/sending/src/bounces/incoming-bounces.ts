import { createHash } from 'node:crypto';
import type { Pool } from 'pg';
import { namedStatement } from '@letterbox/db';
import { storableText } from '@letterbox/mail';
import { loggerFor } from '@letterbox/observability';
import type { BounceAddresses } from '../deliver/bounce-addresses';
import { parseRecordedRequest, type RecordedRequest } from '../submit/record-send';
import { recipientsOf } from '../submit/send-request';
import { composeBounceNotice } from './bounce-notice';
import { noticeLanguageFor } from '../notice-language';
import { enhancedStatusIn, isHardBounce } from './bounce-status';
import { readBounceReport, type BounceReport } from './delivery-status-report';
import { RecipientStatuses } from './recipient-statuses';
import { Suppressions } from './suppressions';

const logger = loggerFor('bounces');

/** A notice for a send's sender, to be stored in their Inbox; storing it twice under its dedup key stores it once. */
export interface NoticeToStore {
  userId: number;
  dedupKey: string;
  eml: Buffer;
}

/** What a bounce says of one recipient. */
interface RecipientFate {
  address: string;
  status: string;
  diagnostic: string;
  delayed: boolean;
}

interface BouncedSend {
  userId: number;
  officeId: number;
  email: string;
  /** The sender's language: their notice is written in it. */
  locale: string | null;
  request: RecordedRequest;
  sentAt: Date;
}

const BOUNCED_SEND = namedStatement(
  'bounced-send',
  `SELECT s.request, COALESCE(s.sent_at, s.requested_at) AS sent_at, u.id AS user_id, u.office_id, u.email, u.locale
     FROM outbound_sends s JOIN users u ON u.id = s.user_id WHERE s.id = $1`,
);

/**
 * Bounces coming back to a send's bounce address (VERP, see BounceAddresses): each failed
 * recipient becomes `bounced` with the remote diagnostic, a hard failure (see isHardBounce)
 * puts its address on the office's suppression list, and the sender gets a notice; a 4.x.x
 * report only marks the recipient `delayed`, its delivery goes on. A bounce whose address
 * was forged or names no send, or that names no recipient of its send, is dropped with a
 * log line. Repeating one is harmless: statuses and suppressions are upserts, and a notice
 * has a dedup key of its (send, address).
 */
export class IncomingBounces {
  private readonly statuses: RecipientStatuses;
  private readonly suppressions: Suppressions;

  constructor(
    private readonly sql: Pool,
    private readonly addresses: BounceAddresses,
  ) {
    this.statuses = new RecipientStatuses(sql);
    this.suppressions = new Suppressions(sql);
  }

  /** Reads the bounce that came to `bounceAddress` (its first bytes: see BOUNCE_READ_BYTES) and records what it says; the notices to store. */
  async receive(bounceAddress: string, bytes: Buffer, inboundId: string): Promise<NoticeToStore[]> {
    const target = this.addresses.parse(bounceAddress);
    if (!target) {
      logger.warn({ inboundId, bounceAddress }, `bounce ${inboundId} dropped: ${bounceAddress} is no bounce address of ours (forged or altered)`);
      return [];
    }
    const send = await this.send(target.sendId);
    if (!send) {
      logger.warn({ inboundId, sendId: target.sendId }, `bounce ${inboundId} dropped: send ${target.sendId} does not exist`);
      return [];
    }
    const recipients = recipientsOf(send.request);
    const candidates = target.recipientIndex === undefined ? recipients : recipients.slice(target.recipientIndex, target.recipientIndex + 1);
    const fates = fatesOf(readBounceReport(bytes), candidates);
    if (fates.length === 0) {
      logger.warn(
        { inboundId, sendId: target.sendId },
        `bounce ${inboundId} dropped: it names no recipient of send ${target.sendId} that failed or was delayed`,
      );
      return [];
    }
    const notices: NoticeToStore[] = [];
    for (const fate of fates) {
      if (fate.delayed) {
        await this.statuses.record(target.sendId, [fate.address], 'delayed', fate.diagnostic);
        continue;
      }
      const suppressed = isHardBounce(fate.status);
      await this.statuses.record(target.sendId, [fate.address], 'bounced', fate.diagnostic);
      if (suppressed) await this.suppressions.add(send.officeId, fate.address, fate.diagnostic, target.sendId);
      notices.push(await this.notice(target.sendId, send, fate, suppressed));
    }
    logger.info({ inboundId, sendId: target.sendId, fates }, `bounce ${inboundId} for send ${target.sendId} recorded`);
    return notices;
  }

  private async send(sendId: number): Promise<BouncedSend | undefined> {
    const { rows } = await this.sql.query<{ request: unknown; sent_at: Date; user_id: number; office_id: number; email: string; locale: string | null }>({
      ...BOUNCED_SEND,
      values: [sendId],
    });
    const row = rows[0];
    if (!row) return undefined;
    return {
      userId: row.user_id,
      officeId: row.office_id,
      email: row.email,
      locale: row.locale,
      request: parseRecordedRequest(sendId, row.request),
      sentAt: row.sent_at,
    };
  }

  private async notice(sendId: number, send: BouncedSend, fate: RecipientFate, suppressed: boolean): Promise<NoticeToStore> {
    const key = `${sendId.toString(36)}.${createHash('sha256').update(fate.address).digest('hex').slice(0, 16)}`;
    const eml = await composeBounceNotice({
      key,
      to: send.email,
      domain: send.email.slice(send.email.lastIndexOf('@') + 1),
      inReplyTo: send.request.messageId,
      language: noticeLanguageFor(send.locale),
      address: fate.address,
      diagnostic: fate.diagnostic,
      subject: send.request.subject,
      sentAt: send.sentAt.toUTCString(),
      suppressed,
    });
    return { userId: send.userId, dedupKey: `bounce:${key}`, eml };
  }
}

/**
 * The recipients among `candidates` a report says failed (5.x.x) or were delayed (4.x.x). A
 * DSN names them; a bounce to one recipient's address (one message per recipient) is about
 * that recipient even when its DSN names another address (a forward) or none (a plain bounce).
 */
function fatesOf(report: BounceReport, candidates: string[]): RecipientFate[] {
  if (report.kind === 'dsn') {
    const failures = report.recipients.filter((recipient) => recipient.action === 'failed' || recipient.action === 'delayed');
    const named = failures.filter((recipient) => candidates.includes(recipient.recipient));
    const reports = named.length > 0 || candidates.length !== 1 ? named : failures.slice(0, 1).map((failure) => ({ ...failure, recipient: candidates[0] }));
    return reports.map(({ recipient, action, status, diagnostic }) => fate(recipient, status, diagnostic, action === 'delayed' || status.startsWith('4.')));
  }
  const status = enhancedStatusIn(report.text) ?? '5.0.0';
  if (status.startsWith('2.')) return [];
  const line = report.text.split('\n').find((text) => text.includes(status)) ?? report.text.split('\n').find((text) => text.trim().length > 0) ?? status;
  const lowerText = report.text.toLowerCase();
  const named = candidates.length === 1 ? candidates : candidates.filter((candidate) => lowerText.includes(candidate));
  return named.map((address) => fate(address, status, line.trim(), status.startsWith('4.')));
}

function fate(address: string, status: string, diagnostic: string, delayed: boolean): RecipientFate {
  return { address, status, diagnostic: storableText(diagnostic).slice(0, 1000), delayed };
}
