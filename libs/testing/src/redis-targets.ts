import { Cluster } from 'ioredis';
import { loadConfig, redisConfig } from '@letterbox/config';
import type { RedisConnection, RedisTarget } from '@letterbox/redis';
import { ensureRedisCluster } from './redis-cluster';

/**
 * The Redis setups that code using Redis is tested on, each to run the same suite against: the one Redis of
 * REDIS_URL, and the local Redis Cluster (started if need be).
 */
export function redisTargets(): Array<{ name: string; target: RedisTarget }> {
  const { REDIS_URL } = loadConfig(redisConfig);
  const { REDIS_CLUSTER_NODES } = loadConfig(redisConfig, { REDIS_CLUSTER_NODES: ensureRedisCluster() });
  return [
    { name: 'one Redis', target: { REDIS_URL } },
    { name: 'a Redis Cluster', target: { REDIS_URL, REDIS_CLUSTER_NODES } },
  ];
}

/**
 * Removes the keys matching `pattern` (a SCAN pattern), on every master of a cluster, one key per command:
 * a cluster refuses a command over keys of different slots. Returns how many were removed.
 */
export async function unlinkKeys(redis: RedisConnection, pattern: string): Promise<number> {
  const nodes = redis instanceof Cluster ? redis.nodes('master') : [redis];
  let removed = 0;
  for (const node of nodes) {
    for await (const keys of node.scanStream({ match: pattern, count: 1000 }) as AsyncIterable<string[]>) {
      const counts = await Promise.all(keys.map((key) => node.unlink(key)));
      removed += counts.reduce((sum, count) => sum + count, 0);
    }
  }
  return removed;
}
