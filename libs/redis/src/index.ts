export { failFastConnection, redisConnection } from './redis-connections';
export type { RedisConnection, RedisTarget } from './redis-target';
export { whenReady } from './when-ready';
