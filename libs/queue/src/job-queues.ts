import { Queue, type JobsOptions } from 'bullmq';
import { whenReady, type RedisConnection } from '@letterbox/redis';
import { currentRequestId, reportConnectionErrors, unwatchQueueDepth, watchQueueDepth } from '@letterbox/observability';
import { queueKeyPrefix } from './queue-key-prefix';
import { JOB_OPTIONS, jobIdOf, QUEUE_NAMES, QUEUE_OF, type JobName, type JobPayloads, type JobTrace, type QueueName } from './jobs';

export class QueueUnavailableError extends Error {
  override readonly name = 'QueueUnavailableError';
}

/** ioredis's ways of saying a command was lost with its connection (in flight, or refused while offline). */
const CONNECTION_LOST = /Connection is closed|Stream isn't writeable|enableOfflineQueue|Reached the max retries per request/;

/**
 * Adds jobs to the queue each belongs to, with that job's options. A call waits at most
 * a second for Redis to be connected, then fails with QueueUnavailableError: BullMQ
 * would wait for the connection for ever, and a request must not hang on it.
 */
export class JobQueues {
  private readonly queues: Map<QueueName, Queue>;

  /** `prefix` namespaces the queues' Redis keys (see queueKeyPrefix), so separate deployments (or tests) share one Redis. */
  constructor(
    private readonly connection: RedisConnection,
    readonly prefix = 'bull',
  ) {
    this.queues = new Map(
      QUEUE_NAMES.map((name) => {
        const queue = new Queue(name, { connection, prefix: queueKeyPrefix(prefix, name, connection) });
        reportConnectionErrors(queue, `queue ${name}`);
        watchQueueDepth(queue);
        return [name, queue];
      }),
    );
  }

  async enqueue<Name extends JobName>(name: Name, payload: JobPayloads[Name] & JobTrace, options: { delayMs?: number } = {}): Promise<void> {
    const queue = await this.queue(QUEUE_OF[name]);
    await this.unlessLost(
      queue.add(name, traced(payload), {
        ...JOB_OPTIONS[name],
        jobId: jobIdOf(name, payload),
        delay: options.delayMs && options.delayMs > 0 ? options.delayMs : undefined,
      }),
    );
  }

  /** Adds many jobs of one kind in one round trip; `delayMsOf` holds back those due later. */
  async enqueueAll<Name extends JobName>(
    name: Name,
    payloads: Array<JobPayloads[Name] & JobTrace>,
    delayMsOf: (payload: JobPayloads[Name]) => number = () => 0,
  ): Promise<void> {
    if (payloads.length === 0) return;
    const options: JobsOptions = JOB_OPTIONS[name];
    const queue = await this.queue(QUEUE_OF[name]);
    const jobs = payloads.map((payload) => {
      const delayMs = delayMsOf(payload);
      return { name, data: traced(payload), opts: { ...options, jobId: jobIdOf(name, payload), delay: delayMs > 0 ? delayMs : undefined } };
    });
    await this.unlessLost(queue.addBulk(jobs));
  }

  /** Whether the job is in its queue in any state (waiting, delayed, active, done). */
  async has<Name extends JobName>(name: Name, payload: JobPayloads[Name]): Promise<boolean> {
    const queue = await this.queue(QUEUE_OF[name]);
    return (await this.unlessLost(queue.getJob(jobIdOf(name, payload)))) !== undefined;
  }

  /** Removes a job that has not started; an active or finished job stays. */
  async remove<Name extends JobName>(name: Name, payload: JobPayloads[Name]): Promise<void> {
    const queue = await this.queue(QUEUE_OF[name]);
    const job = await this.unlessLost(queue.getJob(jobIdOf(name, payload)));
    if (job && ((await job.isWaiting()) || (await job.isDelayed()))) await this.unlessLost(job.remove());
  }

  /** For dashboards. */
  all(): Queue[] {
    return [...this.queues.values()];
  }

  async close(): Promise<void> {
    for (const queue of this.all()) unwatchQueueDepth(queue);
    await Promise.all(this.all().map((queue) => queue.close()));
    this.connection.disconnect();
  }

  private async queue(name: QueueName): Promise<Queue> {
    await whenReady(this.connection, QueueUnavailableError);
    return this.queues.get(name) as Queue;
  }

  /** A command lost with its connection (Redis went away while it was in flight) is the queue being unavailable. */
  private async unlessLost<T>(command: Promise<T>): Promise<T> {
    try {
      return await command;
    } catch (error) {
      if (error instanceof Error && (error.name === 'MaxRetriesPerRequestError' || CONNECTION_LOST.test(error.message))) {
        throw new QueueUnavailableError(`Redis dropped the command: ${error.message}`, { cause: error });
      }
      throw error;
    }
  }
}

/** The payload with the request it was queued for, unless it names its own. */
function traced<Payload extends JobTrace>(payload: Payload): Payload {
  const requestId = payload.requestId ?? currentRequestId();
  return requestId === undefined ? payload : { ...payload, requestId };
}
