import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { JOB_OPTIONS, jobIdOf, QUEUE_NAMES, QUEUE_OF, type JobName, type JobPayloads, type QueueName } from './jobs';

/** Adds jobs to the queue each belongs to, with that job's options. */
export class JobQueues {
  private readonly queues: Map<QueueName, Queue>;

  /** `prefix` namespaces the queues' Redis keys, so separate deployments (or tests) share one Redis. */
  constructor(
    private readonly connection: Redis,
    prefix = 'bull',
  ) {
    this.queues = new Map(QUEUE_NAMES.map((name) => [name, new Queue(name, { connection, prefix })]));
  }

  async enqueue<Name extends JobName>(name: Name, payload: JobPayloads[Name], options: { delayMs?: number } = {}): Promise<void> {
    await this.queue(QUEUE_OF[name]).add(name, payload, {
      ...JOB_OPTIONS[name],
      jobId: jobIdOf(name, payload),
      delay: options.delayMs && options.delayMs > 0 ? options.delayMs : undefined,
    });
  }

  /** Whether the job is in its queue in any state (waiting, delayed, active, done). */
  async has<Name extends JobName>(name: Name, payload: JobPayloads[Name]): Promise<boolean> {
    return (await this.queue(QUEUE_OF[name]).getJob(jobIdOf(name, payload))) !== undefined;
  }

  /** Removes a job that has not started; an active or finished job stays. */
  async remove<Name extends JobName>(name: Name, payload: JobPayloads[Name]): Promise<void> {
    const job = await this.queue(QUEUE_OF[name]).getJob(jobIdOf(name, payload));
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

  private queue(name: QueueName): Queue {
    return this.queues.get(name) as Queue;
  }
}
