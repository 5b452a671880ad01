import { DelayedError, UnrecoverableError, Worker, type Job, type WorkerOptions } from 'bullmq';
import { jobDuration, withRequestId } from '@letterbox/observability';
import type { RedisTarget } from '@letterbox/redis';
import type { JobAttempt, JobOutcome } from './job-outcome';
import { JOB_OPTIONS, QUEUE_OF, type JobName, type JobPayloads, type JobTrace, type QueueName } from './jobs';
import { queueKeyPrefix } from './queue-key-prefix';
import { workerConnection } from './redis-connections';

type Payload<Name extends JobName> = JobPayloads[Name] & JobTrace;

/** Runs one job: says how the run ended, and never moves the job itself. */
export type JobHandler<Name extends JobName> = (payload: Payload<Name>, attempt: JobAttempt<Payload<Name>>) => Promise<JobOutcome<Payload<Name>>>;

/** The jobs one queue carries. */
export type JobsOf<Queue extends QueueName> = { [Name in JobName]: (typeof QUEUE_OF)[Name] extends Queue ? Name : never }[JobName];

/** The handlers of one queue: exactly one for each job that queue carries. */
export type QueueHandlers<Queue extends QueueName> = { [Name in JobsOf<Queue>]: JobHandler<Name> };

type AnyHandler = (payload: unknown, attempt: JobAttempt<unknown>) => Promise<JobOutcome<unknown>>;

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
  const byName = handlers as unknown as Record<string, AnyHandler>;
  const connection = workerConnection(redis);
  // Each job runs as part of the request it was queued for (its log lines carry that id), and is timed.
  const run = (job: Job<JobTrace>, token: string | undefined) =>
    withRequestId(job.data.requestId ?? `${queue}:${job.id}`, async () => {
      const stop = jobDuration.startTimer({ queue, job: job.name });
      try {
        await settle(await byName[job.name](job.data, attemptOf(job)), job, token ?? '');
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

function attemptOf(job: Job): JobAttempt<unknown> {
  return {
    number: job.attemptsMade + 1,
    final: isFinalAttempt(job),
    updatePayload: (payload) => job.updateData(payload),
  };
}

/** Whether the attempt now running is the job's last, so failing it is final. */
function isFinalAttempt(job: Job): boolean {
  const attempts = job.opts.attempts ?? JOB_OPTIONS[job.name as JobName]?.attempts ?? 1;
  return job.attemptsMade + 1 >= attempts;
}

/** Ends a run as its handler said, in BullMQ's terms: a return completes the job, and each error makes its move. */
async function settle(outcome: JobOutcome<unknown>, job: Job, token: string): Promise<void> {
  switch (outcome.outcome) {
    case 'done':
      return;
    case 'retry':
      if (outcome.payload !== undefined) await job.updateData(outcome.payload);
      throw new Error(outcome.reason);
    case 'later':
      if (outcome.payload !== undefined) await job.updateData(outcome.payload);
      await job.moveToDelayed(outcome.at, token);
      throw new DelayedError(outcome.reason);
    case 'failed':
      throw new UnrecoverableError(outcome.reason);
  }
}
