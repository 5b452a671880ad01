import type { RedisConnection } from '@letterbox/redis';
import type { QueueName } from './jobs';

/**
 * The prefix of a queue's keys in Redis (BullMQ's `prefix`; its keys are `<prefix>:<queue>:<part>`).
 *
 * BullMQ's scripts touch many keys of a queue at once, which a Redis Cluster allows only within one slot:
 * there the prefix carries the queue's name as a hash tag, `<prefix>:{<queue>}`, so all of a queue's keys
 * share a slot while each queue has its own, and the queues spread over the nodes.
 *
 * One Redis keeps the untagged layout it always had. Tagging it too would move every queue to new keys on
 * upgrade, stranding what waits under the old ones: sends and ingest acceptances would be queued again from
 * PostgreSQL by their sweepers, but delayed retries and push notifications would be lost. A cluster is a new
 * Redis in any case, so it has no old keys to keep.
 */
export function queueKeyPrefix(prefix: string, queue: QueueName, redis: RedisConnection): string {
  return redis.isCluster ? `${prefix}:{${queue}}` : prefix;
}
