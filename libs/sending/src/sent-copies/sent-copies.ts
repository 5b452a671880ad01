import { namedStatement, type Database } from '@letterbox/db';
import { BatchCollector, type BatchLimits } from '@letterbox/queue';
import type { BlobStore } from '@letterbox/storage';
import { composeSentCopy } from '../compose/compose-sent-copy';
import { parseRecordedRequest } from '../submit/record-send';
import { asError, writeGroup } from '../row-errors';
import { insertSentCopies, type ComposedCopy } from './sent-copy-insert';
import type { Sender } from '../submit/send-request';

/**
 * Copies are stored in groups gathered across the jobs in flight: at most two groups at
 * once, each composed together and written by one statement, so a backlog of jobs never
 * composes more than 2 × 64 copies at a time.
 */
const COPY_GROUPS: BatchLimits = { maxSize: 64, maxWaitMs: 5, maxInFlight: 2 };
/** How long a copy is left to its job (and its retries) before the sweep stores it. */
const PENDING_GRACE = '1 minute';
const SWEEP_PAGE = 100;

const SWEEP = namedStatement(
  'sweep-sent-copies',
  `SELECT id FROM outbound_sends
    WHERE queue_prefix = $1 AND sent_copy_pending AND id > $2 AND requested_at < now() - interval '${PENDING_GRACE}'
    ORDER BY id LIMIT ${SWEEP_PAGE}`,
);

const PENDING = namedStatement(
  'pending-sent-copies',
  `SELECT s.id, s.request, u.id AS user_id, u.office_id, u.email, u.display_name
     FROM outbound_sends s JOIN users u ON u.id = s.user_id
    WHERE s.id = ANY($1::int8[]) AND s.sent_copy_pending`,
);

/** A Sent copy as stored: its owner sees it at `mailId` in `mailboxId` (Sent, or Drafts for a cancelled send). */
export interface StoredSentCopy {
  userId: number;
  mailId: number;
  mailboxId: number;
}

interface PendingCopy {
  sendId: number;
  sender: Sender;
  /** As `outbound_sends.request` holds it: parsed with the copy's composing, so a malformed one fails that copy alone. */
  request: unknown;
}

/**
 * The Sent copies of recorded sends. A send is answered before its copy exists: the copy is
 * composed here from the recorded request, under the identity its delivered messages carry,
 * and stored under the mail id the send was given, so a repeated store changes nothing.
 * The copy of a send cancelled meanwhile goes to Drafts, as an undone send's does. A copy
 * that cannot be composed or written fails alone; the others of its group are stored.
 */
export class SentCopies {
  private readonly groups: BatchCollector<number, void>;

  constructor(
    private readonly db: Database,
    private readonly blobs: BlobStore,
    /** The queue namespace whose sends this deployment's sweep looks after. */
    private readonly queuePrefix: string,
    /** Told of the copies just stored, after they committed. */
    private readonly announce: (copies: StoredSentCopy[]) => Promise<void> = async () => undefined,
  ) {
    this.groups = new BatchCollector((sendIds) => this.storeGroup(sendIds), COPY_GROUPS);
  }

  /** Stores the copies still pending among these sends; fails, after storing the rest, if any could not be. */
  async store(sendIds: number[]): Promise<void> {
    const outcomes = await Promise.allSettled(sendIds.map((sendId) => this.groups.add(sendId)));
    const failures = outcomes.flatMap((outcome, index) => (outcome.status === 'rejected' ? [`send ${sendIds[index]}: ${describe(outcome.reason)}`] : []));
    if (failures.length > 0) throw new Error(`Sent copies not stored: ${failures.join('; ')}`);
  }

  /**
   * Stores this deployment's copies whose job did not (Redis lost it, or it gave up), all of
   * them, a page at a time, so that copies failing for good cannot hide the others; fails,
   * after trying every page, if any could not be stored. Returns how many it found.
   */
  async sweep(): Promise<number> {
    const failures: string[] = [];
    let found = 0;
    for (let after = 0; ;) {
      const { rows } = await this.db.sql.query<{ id: string }>({ ...SWEEP, values: [this.queuePrefix, after] });
      if (rows.length === 0) break;
      found += rows.length;
      after = Number(rows[rows.length - 1].id);
      await this.store(rows.map((row) => Number(row.id))).catch((error: unknown) => failures.push(describe(error)));
    }
    if (failures.length > 0) throw new Error(failures.join('; '));
    return found;
  }

  /** One group: its pending copies composed, then written by one statement; each send's failure its own. */
  private async storeGroup(sendIds: number[]): Promise<Array<void | Error>> {
    const pending = await this.pendingOf(sendIds);
    const failed = new Map<number, Error>();
    const ready: ComposedCopy[] = [];
    await Promise.all(
      pending.map((copy) =>
        this.compose(copy).then(
          (composed) => void ready.push(composed),
          (error: unknown) => void failed.set(copy.sendId, asError(error)),
        ),
      ),
    );
    const written = ready.length === 0 ? [] : await writeGroup(ready, (group) => insertSentCopies(this.db.sql, group));
    for (const [index, result] of written.entries()) if (result instanceof Error) failed.set(ready[index].sendId, result);
    const stored = written.filter((copy): copy is StoredSentCopy => copy !== undefined && !(copy instanceof Error));
    if (stored.length > 0) await this.announce(stored);
    return sendIds.map((sendId) => failed.get(sendId));
  }

  private async pendingOf(sendIds: number[]): Promise<PendingCopy[]> {
    const { rows } = await this.db.sql.query<{ id: string; request: unknown; user_id: number; office_id: number; email: string; display_name: string }>({
      ...PENDING,
      values: [sendIds],
    });
    return rows.map((row) => ({
      sendId: Number(row.id),
      sender: { userId: row.user_id, officeId: row.office_id, email: row.email, displayName: row.display_name },
      request: row.request,
    }));
  }

  private async compose({ sendId, sender, request: stored }: PendingCopy): Promise<ComposedCopy> {
    const request = parseRecordedRequest(sendId, stored);
    const prepared = await composeSentCopy(this.blobs, sender, request, { messageId: request.messageId, date: new Date(request.date) });
    return { sendId, request, prepared };
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
