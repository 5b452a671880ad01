import { redisConnection, type RedisConnection, type RedisTarget } from '@letterbox/redis';

/** For workers: BullMQ's blocking commands need retries without limit. */
export function workerConnection(target: RedisTarget): RedisConnection {
  return redisConnection(target, 'worker', 'redis worker');
}
