import type { RedisConnection } from '@letterbox/redis';

export class EventsUnavailableError extends Error {}

/** How long a call waits for Redis to (re)connect before giving up. */
const CONNECT_WAIT_MS = 1000;

/** One wait per connection, shared by every call made while it is not ready. */
const waits = new WeakMap<RedisConnection, Promise<void>>();

/**
 * Resolves once the connection is ready, waiting at most a second. The connections used
 * here keep no offline queue, so a command sent while Redis is away fails at once
 * instead of hanging a request until Redis returns.
 */
export function whenReady(redis: RedisConnection): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  let wait = waits.get(redis);
  if (!wait) {
    wait = new Promise<void>((resolve, reject) => {
      const onReady = () => {
        clearTimeout(timer);
        resolve();
      };
      const timer = setTimeout(() => {
        redis.off('ready', onReady);
        reject(new EventsUnavailableError(`Redis is not connected (${redis.status})`));
      }, CONNECT_WAIT_MS);
      redis.once('ready', onReady);
    }).finally(() => waits.delete(redis));
    waits.set(redis, wait);
  }
  return wait;
}
