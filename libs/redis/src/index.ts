export { failFastConnection, redisConnection, type ConnectionProfile } from './redis-connections';
export type { RedisConnection, RedisTarget } from './redis-target';
export { whenReady } from './when-ready';
