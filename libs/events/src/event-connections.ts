import { redisConnection, type RedisConnection, type RedisTarget } from '@letterbox/redis';

/**
 * The one connection a process listens for live events on. It does not resubscribe by
 * itself after a reconnect: events published while it was away are lost to it, so the
 * feed ends every stream instead (clients resume from the history) and subscribes
 * again for the next one. `name` shows in CLIENT LIST.
 */
export function eventSubscriberConnection(target: RedisTarget, name: string): RedisConnection {
  return redisConnection(target, 'subscriber', 'redis events subscriber', name);
}
