import type { Pool } from 'pg';
import { loggerFor } from '@letterbox/observability';
import type { JobQueues } from '@letterbox/queue';
import { checkMailboxes } from '../list/mail-filter-sql';
import { totalFromCounters } from '../list/total-from-counters';
import { mailboxCounters } from '../mailboxes/mailbox-queries';
import { usableMailbox, type BulkAction } from './bulk-mail-changes';
import type { BulkChanges, BulkFilter, ListKey } from './bulk-changes';
import type { BulkChangeView } from './bulk-change-views';

const logger = loggerFor('bulk-changes');

/** How long an unfinished change must have made no progress before the sweep asks whether Redis still has its job. */
const IDLE_SECONDS = 60;
const SWEEP_BATCH = 100;

/**
 * Starts a change over a filter: checks it as a listed change is checked (its folders
 * exist and are unlocked), records it with its bound (the user's newest mail now: mail
 * arriving later is not taken) and queues its `bulk-change` job, which the ingest worker
 * runs in slices. A change recorded but not queued (Redis away), or whose job Redis lost,
 * is queued again by the sweep; the job id makes a second add a no-op.
 */
export class StartBulkChange {
  constructor(
    private readonly sql: Pool,
    private readonly changes: BulkChanges,
    private readonly queues: JobQueues,
  ) {}

  async start(userId: number, filter: BulkFilter, action: BulkAction): Promise<BulkChangeView> {
    const mailboxes = await mailboxCounters(this.sql, userId);
    checkMailboxes(mailboxes, filter);
    if ('changes' in action && action.changes.mailboxId !== undefined) usableMailbox(mailboxes, action.changes.mailboxId);
    const change = await this.changes.record({
      userId,
      queuePrefix: this.queues.prefix,
      action,
      filter,
      bound: await this.newestMail(userId),
      // What the counters tell of its size without counting; any other condition (an undo's included) leaves it unknown.
      total: filter.changedBy === undefined ? totalFromCounters(mailboxes, filter) : undefined,
    });
    if (change.status === 'queued') await this.enqueue(change.id, userId);
    return change;
  }

  /** Queues the changes whose job may be lost; returns how many it queued. */
  async sweep(): Promise<number> {
    let queued = 0;
    for (const { changeId, userId } of await this.changes.idle(this.queues.prefix, IDLE_SECONDS, SWEEP_BATCH)) {
      if (await this.queues.has('bulk-change', { changeId, userId })) continue;
      if (await this.enqueue(changeId, userId)) queued += 1;
    }
    return queued;
  }

  private async enqueue(changeId: number, userId: number): Promise<boolean> {
    try {
      await this.queues.enqueue('bulk-change', { changeId, userId });
      return true;
    } catch (error) {
      logger.warn({ changeId, err: error }, `bulk change ${changeId} recorded but not queued; the sweep queues it`);
      return false;
    }
  }

  private async newestMail(userId: number): Promise<ListKey | null> {
    const { rows } = await this.sql.query<{ id: string; received_at: Date }>({
      text: 'SELECT id, received_at FROM mails WHERE user_id = $1 ORDER BY received_at DESC, id DESC LIMIT 1',
      values: [userId],
    });
    return rows.length === 0 ? null : { receivedAt: rows[0].received_at, id: Number(rows[0].id) };
  }
}
