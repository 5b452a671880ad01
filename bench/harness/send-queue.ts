import { Queue } from 'bullmq';
import type { Pool } from 'pg';
import { loadConfig, redisConfig } from '@letterbox/config';
import { jobIdOf, QUEUE_OF, queueKeyPrefix, workerConnection } from '@letterbox/queue';
import type { RedisConnection, RedisTarget } from '@letterbox/redis';
import { processEnvironment } from './process-tree';
import { StalledJobs } from './stalled-jobs';

/** The settings the delivery and ingest workers must share with the send API to deliver and copy what it queued. */
const SHARED_SETTINGS = ['DATABASE_URL', 'REDIS_URL', 'REDIS_CLUSTER_NODES', 'QUEUE_PREFIX', 'STORAGE_DIR', 'STORAGE_COMPRESS'] as const;

const REMOVE_CHUNK = 1000;

export interface QueueState {
  waiting: number;
  active: number;
  delayed: number;
  /** Consumers connected to the queue: running delivery workers. */
  workers: number;
}

/**
 * The delivery queue the running send API adds to, found from the environment it was
 * started with (/proc/<pid>/environ: the harness only measures servers on this machine),
 * so the harness watches and empties the same queue whatever QUEUE_PREFIX it was given.
 */
export class SendQueue {
  private readonly queue: Queue;
  /** Where the send API queues its groups' Sent-copy jobs: the ingest worker's queue. */
  private readonly copies: Queue;
  private readonly redis: RedisConnection;

  private constructor(
    readonly prefix: string,
    /** The send API's values of the settings a worker must share with it; unset ones take the same defaults. */
    readonly sharedEnv: Record<string, string | undefined>,
    private readonly redisTarget: RedisTarget,
  ) {
    this.redis = workerConnection(redisTarget);
    this.queue = new Queue(QUEUE_OF['deliver-send'], { connection: this.redis, prefix: queueKeyPrefix(prefix, QUEUE_OF['deliver-send'], this.redis) });
    this.copies = new Queue(QUEUE_OF['store-sent-copies'], {
      connection: this.redis,
      prefix: queueKeyPrefix(prefix, QUEUE_OF['store-sent-copies'], this.redis),
    });
  }

  static ofProcess(sendApiPid: number): SendQueue {
    const environment = processEnvironment(sendApiPid);
    const sharedEnv = Object.fromEntries(SHARED_SETTINGS.map((name) => [name, environment[name]]));
    const { QUEUE_PREFIX, ...redisTarget } = loadConfig(redisConfig, sharedEnv);
    return new SendQueue(QUEUE_PREFIX, sharedEnv, redisTarget);
  }

  get name(): string {
    return `${this.prefix}:${this.queue.name}`;
  }

  async state(): Promise<QueueState> {
    const counts = await this.queue.getJobCounts('waiting', 'prioritized', 'active', 'delayed');
    return {
      waiting: (counts.waiting ?? 0) + (counts.prioritized ?? 0),
      active: counts.active ?? 0,
      delayed: counts.delayed ?? 0,
      workers: await this.queue.getWorkersCount(),
    };
  }

  /** Consumers of the Sent-copy jobs: running ingest workers. */
  copyWorkers(): Promise<number> {
    return this.copies.getWorkersCount();
  }

  /** Stops every worker from taking jobs (those already taken go on) until resumed; jobs can still be added. */
  async pause(): Promise<void> {
    await this.queue.pause();
  }

  async resume(): Promise<void> {
    await this.queue.resume();
  }

  isPaused(): Promise<boolean> {
    return this.queue.isPaused();
  }

  /** Notes, from now on, when the stalled check puts back a job of a worker that died. */
  watchStalled(): Promise<StalledJobs> {
    return StalledJobs.watch(QUEUE_OF['deliver-send'], this.prefix, this.redisTarget);
  }

  /**
   * Removes these sends' delivery jobs that no worker holds, and the Sent-copy jobs of the groups
   * they begin (a copy job is named after its group's first send); returns how many delivery jobs it removed.
   */
  async removeJobs(sendIds: number[]): Promise<number> {
    let removed = 0;
    for (let start = 0; start < sendIds.length; start += REMOVE_CHUNK) {
      const chunk = sendIds.slice(start, start + REMOVE_CHUNK);
      const [deliveries] = await Promise.all([
        Promise.all(chunk.map((sendId) => this.queue.remove(jobIdOf('deliver-send', { sendId })))),
        Promise.all(chunk.map((sendId) => this.copies.remove(jobIdOf('store-sent-copies', { sendIds: [sendId] })))),
      ]);
      removed += deliveries.filter((result) => result === 1).length;
    }
    return removed;
  }

  async close(): Promise<void> {
    await Promise.all([this.queue.close(), this.copies.close()]);
    this.redis.disconnect();
  }
}

export function describeQueueState(state: QueueState): string {
  return `${state.waiting} waiting, ${state.delayed} delayed, ${state.active} active`;
}

/**
 * Makes sure a delivery scenario meets only its own sends and workers in the queue: it
 * refuses while another worker consumes it (that worker would take the sends, to another
 * SMTP server) or while it holds jobs, and resumes it if a killed run left it paused.
 * Returns what it did, as notes.
 */
export async function takeIdleQueue(queue: SendQueue): Promise<string[]> {
  const notes: string[] = [];
  if (await queue.isPaused()) {
    // Only a delivery scenario killed while it queued a backlog leaves it so.
    await queue.resume();
    notes.push(`${queue.name} was paused (a run stopped half-way?); resumed`);
  }
  const state = await queue.state();
  if (state.workers > 0) {
    throw new Error(
      `${state.workers} delivery worker(s) already consume ${queue.name}; stop them: this scenario starts its own, ` +
        'with the settings of each case, sending to its own mock provider',
    );
  }
  if (state.waiting + state.delayed + state.active > 0) {
    throw new Error(
      `${queue.name} holds ${describeQueueState(state)} jobs; let a worker deliver them or remove them first, so that only this run's sends are measured`,
    );
  }
  return notes;
}

/** Queued sends of other runs in this queue's namespace: the worker's outbox sweep requeues them, and they would share the provider. */
export async function leftoverSendsNote(sql: Pool, queuePrefix: string): Promise<string | undefined> {
  const { rows } = await sql.query<{ count: string }>(`SELECT count(*) FROM outbound_sends WHERE queue_prefix = $1 AND status IN ('queued', 'sending')`, [
    queuePrefix,
  ]);
  const leftovers = Number(rows[0].count);
  if (leftovers === 0) return undefined;
  return `WARNING: ${leftovers} sends of earlier runs are still queued or sending in the database; the worker's outbox sweep may deliver them during this run`;
}

/**
 * Takes sends out of delivery: those still queued become cancelled (the worker skips a
 * cancelled send, and the outbox sweep only requeues queued ones) and their jobs leave
 * the queue. Sends a worker has started are left to finish.
 */
export async function discardSends(sql: Pool, queue: SendQueue, where: SendFilter, reason: string): Promise<{ cancelled: number; removedJobs: number }> {
  // Their Sent copies are never stored either: a worker started later finds their copy jobs with nothing to do.
  const { rows } = await sql.query<{ id: string }>(
    `UPDATE outbound_sends SET status = 'cancelled', last_error = $3, sent_copy_pending = false
      WHERE ${where.ids ? 'id = ANY($1::bigint[])' : 'id > $1'} AND user_id = ANY($2) AND status = 'queued' RETURNING id`,
    [where.ids ?? where.afterId ?? 0, where.userIds, reason],
  );
  const ids = rows.map((row) => Number(row.id));
  return { cancelled: ids.length, removedJobs: await queue.removeJobs(ids) };
}

/** Sends of these users: listed by id, or every one after an id. */
export interface SendFilter {
  userIds: number[];
  ids?: number[];
  afterId?: number;
}

/** How many of these sends are in each status. */
export async function sendStatusCounts(sql: Pool, where: SendFilter): Promise<Record<string, number>> {
  const { rows } = await sql.query<{ status: string; count: string }>(
    `SELECT status, count(*) FROM outbound_sends
      WHERE ${where.ids ? 'id = ANY($1::bigint[])' : 'id > $1'} AND user_id = ANY($2) GROUP BY status`,
    [where.ids ?? where.afterId ?? 0, where.userIds],
  );
  return Object.fromEntries(rows.map((row) => [row.status, Number(row.count)]));
}

/** How many of these sends' Sent copies the ingest worker has still to store. */
export async function pendingSentCopies(sql: Pool, where: SendFilter): Promise<number> {
  const { rows } = await sql.query<{ count: string }>(
    `SELECT count(*) FROM outbound_sends
      WHERE ${where.ids ? 'id = ANY($1::bigint[])' : 'id > $1'} AND user_id = ANY($2) AND sent_copy_pending`,
    [where.ids ?? where.afterId ?? 0, where.userIds],
  );
  return Number(rows[0].count);
}

/** Sends that are still to be delivered (queued or being delivered). */
export const undelivered = (counts: Record<string, number>) => (counts.queued ?? 0) + (counts.sending ?? 0);

export async function lastSendId(sql: Pool): Promise<number> {
  const { rows } = await sql.query<{ id: string | null }>('SELECT max(id) AS id FROM outbound_sends');
  return Number(rows[0].id ?? 0);
}
