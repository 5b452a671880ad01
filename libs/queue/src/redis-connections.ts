import { redisConnection, type RedisConnection, type RedisTarget } from '@letterbox/redis';

/** For workers: BullMQ's blocking commands need retries without limit. */
export function workerConnection(target: RedisTarget): RedisConnection {
  return redisConnection(target, 'worker', 'redis worker');
}

/** For a worker's own commands, beside BullMQ's: those issued together are sent in one write. */
export function workerCommandConnection(target: RedisTarget): RedisConnection {
  return redisConnection(target, 'worker-commands', 'redis worker commands');
}
