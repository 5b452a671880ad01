import IORedis, { type Redis } from 'ioredis';
import { reportConnectionErrors } from '@letterbox/observability';

/**
 * For publishing and reading history: a command fails at once while Redis is unreachable
 * instead of waiting in ioredis's offline queue, so a request is never held up by it.
 */
export function eventCommandConnection(url: string): Redis {
  const redis = new IORedis(url, { enableOfflineQueue: false, maxRetriesPerRequest: 1, connectTimeout: 2000 });
  reportConnectionErrors(redis, 'redis events');
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
  reportConnectionErrors(redis, 'redis events subscriber');
  return redis;
}
