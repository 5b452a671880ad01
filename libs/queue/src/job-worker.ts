import { Worker, type Job, type WorkerOptions } from 'bullmq';
import { jobDuration, withRequestId } from '@letterbox/observability';
import { JOB_OPTIONS, QUEUE_OF, type JobName, type JobPayloads, type JobTrace, type QueueName } from './jobs';
import type { RedisTarget } from '@letterbox/redis';
import { queueKeyPrefix } from './queue-key-prefix';
import { workerConnection } from './redis-connections';

/** `token` is the worker's lock on the job, needed to move it to delayed. */
export type JobHandler<Name extends JobName> = (payload: JobPayloads[Name], job: Job<JobPayloads[Name]>, token: string) => Promise<void>;

/** The handlers of one queue: exactly one for each job that queue carries. */
export type QueueHandlers<Queue extends QueueName> = {
  [Name in JobName as (typeof QUEUE_OF)[Name] extends Queue ? Name : never]: JobHandler<Name>;
};

/**
 * Starts a worker for one queue, on a Redis connection of its own that closing the worker
 * closes. It refuses to start unless every job of the queue has a handler and no handler
 * names a job the queue does not carry, so a job can never sit unconsumed and a typo
 * cannot go unnoticed.
 */
export function startJobWorker<Queue extends QueueName>(
  queue: Queue,
  handlers: QueueHandlers<Queue>,
  redis: RedisTarget,
  { prefix = 'bull', ...options }: Omit<WorkerOptions, 'connection'> = {},
): Worker {
  assertOneHandlerPerJob(queue, Object.keys(handlers));
  const byName = handlers as unknown as Record<string, (payload: unknown, job: Job, token: string) => Promise<void>>;
  const connection = workerConnection(redis);
  // Each job runs as part of the request it was queued for (its log lines carry that id), and is timed.
  const run = (job: Job<JobTrace>, token: string | undefined) =>
    withRequestId(job.data.requestId ?? `${queue}:${job.id}`, async () => {
      const stop = jobDuration.startTimer({ queue, job: job.name });
      try {
        await byName[job.name](job.data, job, token ?? '');
        stop({ outcome: 'completed' });
      } catch (error) {
        stop({ outcome: 'failed' });
        throw error;
      }
    });
  const worker = new Worker(queue, run, { ...options, connection, prefix: queueKeyPrefix(prefix, queue, connection) });
  worker.once('closed', () => connection.disconnect());
  return worker;
}

export function assertOneHandlerPerJob(queue: QueueName, handled: string[]): void {
  const expected = (Object.keys(QUEUE_OF) as JobName[]).filter((name) => QUEUE_OF[name] === queue);
  const missing = expected.filter((name) => !handled.includes(name));
  const unknown = handled.filter((name) => !expected.includes(name as JobName));
  if (missing.length > 0 || unknown.length > 0) {
    throw new Error(`queue ${queue}: no handler for [${missing.join(', ')}]; handlers for unknown jobs [${unknown.join(', ')}]`);
  }
}

/** Whether the attempt now running is the job's last, so failing it is final. */
export function isFinalAttempt(job: Job): boolean {
  const attempts = job.opts.attempts ?? JOB_OPTIONS[job.name as JobName]?.attempts ?? 1;
  return job.attemptsMade + 1 >= attempts;
}
