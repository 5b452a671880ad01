import { redisConnection, type RedisConnection, type RedisTarget } from '@letterbox/redis';

/** For adding jobs: fails at once while Redis is unreachable, so a request can answer (and leave the job to the sweeper). */
export function producerConnection(target: RedisTarget): RedisConnection {
  return redisConnection(target, 'fail-fast', 'redis producer');
}

/** For workers: BullMQ's blocking commands need retries without limit. */
export function workerConnection(target: RedisTarget): RedisConnection {
  return redisConnection(target, 'worker', 'redis worker');
}
