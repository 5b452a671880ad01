import { namedStatement, type Database } from '@letterbox/db';
import { BatchCollector, type BatchLimits, type JobQueues } from '@letterbox/queue';
import { SEND_GROUP_COMMIT } from './send-group-commit';
import { loggerFor } from '@letterbox/observability';

const logger = loggerFor('outbox');

/** How long a freshly recorded send is left to its request to enqueue before the sweep does. */
const RECORDED_GRACE = '2 seconds';
/** How long a queued job must have been in Redis before its absence means Redis lost it. */
const LOST_JOB_AGE = '1 minute';
const SWEEP_BATCH = 500;

const MARK_ENQUEUED = namedStatement('mark-sends-enqueued', 'UPDATE outbound_sends SET enqueued_at = now() WHERE id = ANY($1::int8[]) AND enqueued_at IS NULL');

interface QueuedSend {
  id: number;
  scheduledAt: string | null;
  /** Its Sent copy is still to be stored: its job goes with the delivery's. */
  sentCopyPending?: boolean;
}

/**
 * The queue side of recorded sends. A send is recorded in PostgreSQL first; its job (and
 * its group's Sent-copy job) is added afterwards, and `enqueued_at` says that happened.
 * Whatever was recorded but not queued (Redis unreachable at that moment, the process died
 * in between), or queued but lost (Redis restarted without its data), the sweep queues
 * again. Job ids make a second add of the same send a no-op, so sweeping never sends twice.
 */
export class SendOutbox {
  /** Sends recorded together are queued with one Redis round trip and marked with one statement. */
  private readonly enqueues: BatchCollector<QueuedSend, boolean>;

  constructor(
    private readonly db: Database,
    private readonly queues: JobQueues,
    groupLimits: BatchLimits = SEND_GROUP_COMMIT,
  ) {
    this.enqueues = new BatchCollector((sends) => this.enqueueBatch(sends), groupLimits);
  }

  /** True when queued; false when the queue could not be reached, leaving it to the sweep. */
  enqueue(send: QueuedSend): Promise<boolean> {
    return this.enqueues.add(send);
  }

  private async enqueueBatch(sends: QueuedSend[]): Promise<boolean[]> {
    const dueAt = new Map(sends.map((send) => [send.id, send.scheduledAt ? new Date(send.scheduledAt).getTime() : 0]));
    const copies = sends.filter((send) => send.sentCopyPending).map((send) => send.id);
    try {
      await Promise.all([
        this.queues.enqueueAll(
          'deliver-send',
          sends.map((send) => ({ sendId: send.id })),
          ({ sendId }) => (dueAt.get(sendId) ?? 0) - Date.now(),
        ),
        // A scheduled send's copy is stored now: it shows in Sent until the send goes, and a cancel returns it to Drafts.
        this.queues.enqueueAll('store-sent-copies', copies.length > 0 ? [{ sendIds: copies }] : []),
      ]);
    } catch (error) {
      const ids = sends.map((send) => send.id);
      logger.warn({ sendIds: ids, err: error }, `sends ${ids.join(', ')} recorded but not queued; the next sweep queues them`);
      return sends.map(() => false);
    }
    // Off the requests' path: the jobs are in Redis. Unmarked, a send is only queued again by the sweep, a no-op by its job id.
    this.markEnqueued(sends.map((send) => send.id));
    return sends.map(() => true);
  }

  /** Sends not marked before: a mark lands after their requests were answered, and must not undo a later one. */
  private markEnqueued(sendIds: number[]): void {
    this.db.sql
      .query({ ...MARK_ENQUEUED, values: [sendIds] })
      .catch((error: unknown) => logger.warn({ sendIds, err: error }, `sends ${sendIds.join(', ')} queued but not marked; the sweep finds their jobs there`));
  }

  /** Takes a cancelled send's job out of the queue; the worker skips it anyway if it runs. */
  async withdraw(sendId: number): Promise<void> {
    try {
      await this.queues.remove('deliver-send', { sendId });
    } catch (error) {
      logger.warn({ sendId, err: error }, `cancelled send ${sendId} left in the queue; its worker finds it cancelled`);
    }
  }

  /** Queues what needs queueing; returns how many sends it queued. */
  async sweep(): Promise<number> {
    const { rows: unqueued } = await this.db.sql.query<{ id: string; scheduled_at: Date | null }>(
      `SELECT id, scheduled_at FROM outbound_sends
        WHERE queue_prefix = $1 AND status = 'queued' AND enqueued_at IS NULL AND requested_at < now() - interval '${RECORDED_GRACE}'
        ORDER BY id LIMIT ${SWEEP_BATCH}`,
      [this.queues.prefix],
    );
    const { rows: old } = await this.db.sql.query<{ id: string; scheduled_at: Date | null }>(
      `SELECT id, scheduled_at FROM outbound_sends
        WHERE queue_prefix = $1 AND status IN ('queued', 'sending') AND enqueued_at < now() - interval '${LOST_JOB_AGE}'
        ORDER BY id LIMIT ${SWEEP_BATCH}`,
      [this.queues.prefix],
    );
    const lost = [];
    for (const row of old) if (!(await this.queues.has('deliver-send', { sendId: Number(row.id) }))) lost.push(row);
    const outcomes = await Promise.all(
      [...unqueued, ...lost].map((row) => this.enqueue({ id: Number(row.id), scheduledAt: row.scheduled_at?.toISOString() ?? null })),
    );
    return outcomes.filter(Boolean).length;
  }
}
