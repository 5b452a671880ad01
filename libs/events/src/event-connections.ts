import IORedis, { type Redis } from 'ioredis';
import { loggerFor, oncePerInterval } from '@letterbox/observability';

const logger = loggerFor('redis');

/**
 * For publishing and reading history: a command fails at once while Redis is unreachable
 * instead of waiting in ioredis's offline queue, so a request is never held up by it.
 */
export function eventCommandConnection(url: string): Redis {
  const redis = new IORedis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
  const mayReport = oncePerInterval(30_000);
  redis.on('error', (error) => {
    if (mayReport()) logger.warn({ err: error, connection: 'events' }, 'redis connection failed (repeats are not logged for 30 s)');
  });
  return redis;
}

/**
 * The one connection a process listens for live events on. It does not resubscribe by
 * itself after a reconnect: events published while it was away are lost to it, so the
 * feed ends every stream instead (clients resume from the history) and subscribes
 * again for the next one. `name` shows in CLIENT LIST.
 */
export function eventSubscriberConnection(url: string, name: string): Redis {
  const redis = new IORedis(url, { enableOfflineQueue: false, autoResubscribe: false, maxRetriesPerRequest: 1, connectTimeout: 2000, connectionName: name });
  const mayReport = oncePerInterval(30_000);
  redis.on('error', (error) => {
    if (mayReport()) logger.warn({ err: error, connection: 'events subscriber' }, 'redis connection failed (repeats are not logged for 30 s)');
  });
  return redis;
}
