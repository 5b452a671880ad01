import { QueueEvents } from 'bullmq';
import { queueKeyPrefix, workerConnection, type QueueName } from '@letterbox/queue';
import type { RedisTarget } from '@letterbox/redis';

/**
 * When BullMQ's stalled check put back in the queue the jobs of a worker that died, read
 * from the queue's event stream: each event's id is the Redis time it was written, so
 * the figure does not depend on how promptly the harness reads it.
 */
export class StalledJobs {
  private readonly foundAt = new Map<string, number>();

  private constructor(private readonly events: QueueEvents) {
    events.on('stalled', ({ jobId }, eventId) => this.foundAt.set(jobId, Number(eventId.split('-')[0])));
  }

  /** Watches from now on. */
  static async watch(queueName: QueueName, prefix: string, redis: RedisTarget): Promise<StalledJobs> {
    // Its own connection, for the blocking reads of the event stream; closing it closes that too.
    const connection = workerConnection(redis);
    const events = new QueueEvents(queueName, { connection, prefix: queueKeyPrefix(prefix, queueName, connection) });
    await events.waitUntilReady();
    return new StalledJobs(events);
  }

  /** When the job was found stalled (ms since the epoch), if it was. */
  foundStalledAt(jobId: string): number | undefined {
    return this.foundAt.get(jobId);
  }

  close(): Promise<void> {
    return this.events.close();
  }
}
