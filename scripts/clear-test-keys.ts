import { loadConfig, redisConfig } from '@letterbox/config';
import { redisConnection, type RedisConnection, type RedisTarget } from '@letterbox/redis';
import { runningRedisCluster, unlinkKeys } from '@letterbox/testing';

/**
 * Removes what earlier test runs left in Redis, and in the tests' Redis Cluster: every test file works in a
 * namespace of its own (`test-…`), whose finished jobs and event histories nothing else would remove.
 * Run before the tests, so a failed run's keys stay to be looked at until the next one.
 */
async function main(): Promise<void> {
  const { REDIS_URL } = loadConfig(redisConfig);
  const targets: RedisTarget[] = [{ REDIS_URL }];
  const cluster = runningRedisCluster();
  if (cluster) targets.push({ REDIS_URL, REDIS_CLUSTER_NODES: loadConfig(redisConfig, { REDIS_CLUSTER_NODES: cluster }).REDIS_CLUSTER_NODES });
  let removed = 0;
  for (const target of targets) removed += await clear(target);
  if (removed > 0) console.log(`removed ${removed} Redis keys left by earlier test runs`);
}

async function clear(target: RedisTarget): Promise<number> {
  const redis = redisConnection(target, 'fail-fast', 'redis test keys');
  try {
    await ready(redis);
    return await unlinkKeys(redis, 'test-*');
  } finally {
    redis.disconnect();
  }
}

function ready(redis: RedisConnection): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`Redis is not connected (${redis.status})`)), 5000);
    redis.once('ready', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

main().catch((error: unknown) => {
  console.error(`cannot clear earlier test runs' Redis keys: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
