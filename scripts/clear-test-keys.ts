import IORedis from 'ioredis';
import { loadConfig, redisConfig } from '@letterbox/config';

/**
 * Removes what earlier test runs left in Redis: every test file works in a namespace of
 * its own (`test-…`), whose finished jobs and event histories nothing else would remove.
 * Run before the tests, so a failed run's keys stay to be looked at until the next one.
 */
async function main(): Promise<void> {
  const redis = new IORedis(loadConfig(redisConfig).REDIS_URL, { maxRetriesPerRequest: 1 });
  let removed = 0;
  try {
    for await (const keys of redis.scanStream({ match: 'test-*', count: 1000 }) as AsyncIterable<string[]>) {
      if (keys.length > 0) removed += await redis.unlink(...keys);
    }
  } finally {
    redis.disconnect();
  }
  if (removed > 0) console.log(`removed ${removed} Redis keys left by earlier test runs`);
}

main().catch((error: unknown) => {
  console.error(`cannot clear earlier test runs' Redis keys: ${error instanceof Error ? error.message : error}`);
  process.exit(1);
});
