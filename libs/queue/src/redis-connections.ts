import IORedis, { type Redis } from 'ioredis';
import { loggerFor, oncePerInterval } from '@letterbox/observability';

const logger = loggerFor('redis');

/**
 * For adding jobs: a command fails at once while Redis is unreachable instead of waiting
 * in ioredis's offline queue, so a request can answer (and leave the job to the sweeper).
 */
export function producerConnection(url: string): Redis {
  const redis = new IORedis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
  const mayReport = oncePerInterval(30_000);
  redis.on('error', (error) => {
    if (mayReport()) logger.warn({ err: error, connection: 'producer' }, 'redis connection failed (repeats are not logged for 30 s)');
  });
  return redis;
}

/** For workers: BullMQ's blocking commands need retries without limit. */
export function workerConnection(url: string): Redis {
  const redis = new IORedis(url, { maxRetriesPerRequest: null });
  const mayReport = oncePerInterval(30_000);
  redis.on('error', (error) => {
    if (mayReport()) logger.warn({ err: error, connection: 'worker' }, 'redis connection failed (repeats are not logged for 30 s)');
  });
  return redis;
}
