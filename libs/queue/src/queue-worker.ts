import type { WorkerOptions } from 'bullmq';
import type { Logger } from 'pino';
import { redisCheck, type DependencyCheck } from '@letterbox/observability';
import { failFastConnection } from '@letterbox/redis';
import type { QueueSettings } from './create-job-queues';
import { startJobWorker, type JobsOf, type QueueHandlers } from './job-worker';
import type { JobPayloads, QueueName } from './jobs';
import type { RunningWorker } from './worker-process';

/** How a worker runs its jobs: concurrency, locks, stalled checks (BullMQ's worker options, less where it connects). */
export type JobRunOptions = Omit<WorkerOptions, 'connection' | 'prefix'>;

/** Work a worker does every so often beside its jobs (a sweep); a run that fails is logged, and the next tries again. */
export interface Chore {
  /** As its failure is logged: `outbox sweep` failed. */
  what: string;
  everyMs: number;
  run(): Promise<unknown>;
}

/** A run of a job that failed, as the worker's `onFailure` is told of it. */
export interface JobFailure<Payload> {
  jobId: string | undefined;
  payload: Payload;
  /** Runs of the job so far, this one included. */
  attemptsMade: number;
  error: Error;
  /** Whether the job failed for good: no attempt follows (none left, a final outcome, too many crashes). */
  isFinal(): Promise<boolean>;
}

/** What one worker app is, beside what every worker does alike. */
export interface QueueWorkerDefinition<Queue extends QueueName> {
  queue: Queue;
  handlers: QueueHandlers<Queue>;
  options: JobRunOptions;
  /** Where its connection failures and chores' failures are logged. */
  logger: Logger;
  /** What /health/ready asks beside Redis: its database, storage. */
  checks: Record<string, DependencyCheck>;
  chores?: Chore[];
  onFailure?(failure: JobFailure<JobPayloads[JobsOf<Queue>]>): void;
  /** Closes what the handlers and chores use, once they have all stopped. */
  close(): Promise<void>;
}

/**
 * Starts a queue worker: its handlers on the queue (under QUEUE_PREFIX), its chores on their intervals,
 * readiness with Redis asked on a connection of its own. Closing lets the chores and jobs in flight finish
 * (or go back to the queue), then closes what the definition holds.
 */
export async function startQueueWorker<Queue extends QueueName>(config: QueueSettings, definition: QueueWorkerDefinition<Queue>): Promise<RunningWorker> {
  const { logger } = definition;
  const health = failFastConnection(config, 'redis producer');
  const worker = startJobWorker(definition.queue, definition.handlers, config, { ...definition.options, prefix: config.QUEUE_PREFIX });
  worker.on('error', (error) => logger.warn({ err: error }, 'worker connection failed'));
  const { onFailure } = definition;
  if (onFailure) {
    worker.on('failed', (job, error) => {
      if (!job) return;
      onFailure({ jobId: job.id, payload: job.data, attemptsMade: job.attemptsMade, error, isFinal: () => job.isFailed() });
    });
  }
  await worker.waitUntilReady();
  const running = new Set<Promise<unknown>>();
  const timers = (definition.chores ?? []).map((chore) =>
    setInterval(() => {
      const run = chore.run().catch((error: unknown) => logger.warn({ err: error }, `${chore.what} failed`));
      running.add(run);
      void run.finally(() => running.delete(run));
    }, chore.everyMs),
  );
  return {
    readiness: { ...definition.checks, redis: redisCheck(health) },
    async close() {
      for (const timer of timers) clearInterval(timer);
      // A chore cut short would be safe (the next run finishes it); its queries on closed pools would only fail.
      await Promise.all(running);
      await worker.close();
      await definition.close();
      health.disconnect();
    },
  };
}
