import type { RedisConnection } from '@letterbox/redis';
import type { Database } from '../database';
import { ReplicaRouting } from './replica-routing';
import { primaryOnly, type UserReads, type UserWrites } from './user-routing';

/**
 * Where reads go and what writes must tell: with the database's replica, read-your-writes
 * through Redis (ReplicaRouting); without one, the primary for everything at no cost.
 * `prefix` namespaces the Redis keys (QUEUE_PREFIX).
 * A heavy read goes to the server the routing picks, on that server's heavy pool: searches
 * are the reads a replica relieves the primary of most, and each server's heavy pool keeps
 * them off the connections of its light reads.
 */
export function readRouting(database: Database, redis: RedisConnection, prefix: string): UserReads & UserWrites {
  const { sql, replica, heavyReads } = database;
  if (!replica) return primaryOnly(sql, heavyReads.primary);
  return new ReplicaRouting({ light: sql, heavy: heavyReads.primary }, { light: replica, heavy: heavyReads.replica ?? replica }, redis, prefix);
}
