import type { RedisConnection } from '@letterbox/redis';
import type { Database } from '../database';
import { ReplicaRouting } from './replica-routing';
import { primaryOnly, type UserReads, type UserWrites } from './user-routing';

/**
 * Where reads go and what writes must tell: with the database's replica, read-your-writes
 * through Redis (ReplicaRouting); without one, the primary for everything at no cost.
 * `prefix` namespaces the Redis keys (QUEUE_PREFIX).
 */
export function readRouting(database: Database, redis: RedisConnection, prefix: string): UserReads & UserWrites {
  return database.replica ? new ReplicaRouting(database.sql, database.replica, redis, prefix) : primaryOnly(database.sql);
}
