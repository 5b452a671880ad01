import IORedis, { type Redis } from 'ioredis';
import { reportConnectionErrors } from '@letterbox/observability';

/**
 * For adding jobs: a command fails at once while Redis is unreachable instead of waiting
 * in ioredis's offline queue, so a request can answer (and leave the job to the sweeper).
 */
export function producerConnection(url: string): Redis {
  const redis = new IORedis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
  reportConnectionErrors(redis, 'redis producer');
  return redis;
}

/** For workers: BullMQ's blocking commands need retries without limit. */
export function workerConnection(url: string): Redis {
  const redis = new IORedis(url, { maxRetriesPerRequest: null });
  reportConnectionErrors(redis, 'redis worker');
  return redis;
}
