import { Queue, type JobsOptions } from 'bullmq';
import type { Redis } from 'ioredis';
import { JOB_OPTIONS, jobIdOf, QUEUE_NAMES, QUEUE_OF, type JobName, type JobPayloads, type QueueName } from './jobs';

export class QueueUnavailableError extends Error {}

/** How often a queue's connection error is logged while Redis stays unreachable. */
const ERROR_LOG_INTERVAL_MS = 30_000;
/** How long a call waits for Redis to (re)connect before giving up. */
const CONNECT_WAIT_MS = 1000;

/**
 * Adds jobs to the queue each belongs to, with that job's options. A call waits at most
 * a second for Redis to be connected, then fails with QueueUnavailableError: BullMQ
 * would wait for the connection for ever, and a request must not hang on it.
 */
export class JobQueues {
  private readonly queues: Map<QueueName, Queue>;
  private lastErrorLogAt = 0;

  /** `prefix` namespaces the queues' Redis keys, so separate deployments (or tests) share one Redis. */
  constructor(
    private readonly connection: Redis,
    readonly prefix = 'bull',
  ) {
    this.queues = new Map(
      QUEUE_NAMES.map((name) => {
        const queue = new Queue(name, { connection, prefix });
        queue.on('error', (error) => this.logError(name, error));
        return [name, queue];
      }),
    );
  }

  async enqueue<Name extends JobName>(name: Name, payload: JobPayloads[Name], options: { delayMs?: number } = {}): Promise<void> {
    await (await this.queue(QUEUE_OF[name])).add(name, payload, {
      ...JOB_OPTIONS[name],
      jobId: jobIdOf(name, payload),
      delay: options.delayMs && options.delayMs > 0 ? options.delayMs : undefined,
    });
  }

  /** Adds many jobs of one kind in one round trip. */
  async enqueueAll<Name extends JobName>(name: Name, payloads: Array<JobPayloads[Name]>): Promise<void> {
    if (payloads.length === 0) return;
    const options: JobsOptions = JOB_OPTIONS[name];
    await (await this.queue(QUEUE_OF[name])).addBulk(
      payloads.map((payload) => ({ name, data: payload, opts: { ...options, jobId: jobIdOf(name, payload) } })),
    );
  }

  /** Whether the job is in its queue in any state (waiting, delayed, active, done). */
  async has<Name extends JobName>(name: Name, payload: JobPayloads[Name]): Promise<boolean> {
    return (await (await this.queue(QUEUE_OF[name])).getJob(jobIdOf(name, payload))) !== undefined;
  }

  /** Removes a job that has not started; an active or finished job stays. */
  async remove<Name extends JobName>(name: Name, payload: JobPayloads[Name]): Promise<void> {
    const job = await (await this.queue(QUEUE_OF[name])).getJob(jobIdOf(name, payload));
    if (job && ((await job.isWaiting()) || (await job.isDelayed()))) await job.remove();
  }

  /** For dashboards. */
  all(): Queue[] {
    return [...this.queues.values()];
  }

  async close(): Promise<void> {
    await Promise.all(this.all().map((queue) => queue.close()));
    this.connection.disconnect();
  }

  private async queue(name: QueueName): Promise<Queue> {
    if (this.connection.status !== 'ready') await this.connected();
    return this.queues.get(name) as Queue;
  }

  private connected(): Promise<void> {
    return new Promise((resolve, reject) => {
      const onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        this.connection.off('ready', onReady);
        reject(new QueueUnavailableError(`Redis is not connected (${this.connection.status})`));
      }, CONNECT_WAIT_MS);
      this.connection.once('ready', onReady);
    });
  }

  private logError(queue: QueueName, error: Error): void {
    if (Date.now() - this.lastErrorLogAt < ERROR_LOG_INTERVAL_MS) return;
    this.lastErrorLogAt = Date.now();
    console.error(`[queue] ${queue}: ${error.message}`);
  }
}
