import { failFastConnection, type RedisTarget } from '@letterbox/redis';
import { JobQueues } from './job-queues';

/** Where a process's queues are (redisConfig): its Redis, and the namespace of their keys. */
export interface QueueSettings extends RedisTarget {
  QUEUE_PREFIX: string;
}

/** The queues a process adds jobs to, on a connection of their own that fails fast while Redis is away. */
export function createJobQueues(settings: QueueSettings): JobQueues {
  return new JobQueues(failFastConnection(settings, 'redis producer'), settings.QUEUE_PREFIX);
}
