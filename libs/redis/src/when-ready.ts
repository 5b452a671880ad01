import type { RedisConnection } from './redis-target';

/** How long a call waits for Redis to (re)connect before giving up. */
const CONNECT_WAIT_MS = 1000;

/** One 'ready' listener per connection, however many calls wait on it: each call adds only its own timer. */
const readiness = new WeakMap<RedisConnection, Promise<void>>();

/**
 * Resolves once the connection is ready, waiting at most a second; then rejects with the caller's
 * error class for it (`Unavailable`). The connections that wait here keep no offline queue (or
 * wait in a library that would wait for ever): a command sent while Redis is away would fail at
 * once, or hang a request until Redis returns.
 */
export function whenReady(redis: RedisConnection, Unavailable: new (message: string) => Error): Promise<void> {
  if (redis.status === 'ready') return Promise.resolve();
  let ready = readiness.get(redis);
  if (!ready) {
    ready = new Promise<void>((resolve) =>
      redis.once('ready', () => {
        readiness.delete(redis);
        resolve();
      }),
    );
    readiness.set(redis, ready);
  }
  const connected = ready;
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Unavailable(`Redis is not connected (${redis.status})`)), CONNECT_WAIT_MS);
    void connected.then(() => {
      clearTimeout(timer);
      resolve();
    });
  });
}
