import type { RedisConnection } from '@letterbox/redis';

/**
 * How many messages of each kind rspamd's Bayes classifier has counted: rspamd 3.4 keeps the counts in the Redis
 * REDIS_URL names (scripts/rspamd.sh), in the hash RS; its controller's /stat is refreshed only now and then.
 */
export async function bayesLearns(redis: RedisConnection): Promise<{ spam: number; ham: number }> {
  const [spam, ham] = await redis.hmget('RS', 'learns_spam', 'learns_ham');
  return { spam: Number(spam ?? 0), ham: Number(ham ?? 0) };
}

/**
 * What the spam stage's figures depend on most beside rspamd's rules: Bayes classifies only once it has learned
 * min_learns (200 by default) of each kind, a new install none, and then costs about as much again.
 */
export async function bayesNote(redis: RedisConnection): Promise<string> {
  const { spam, ham } = await bayesLearns(redis);
  return `rspamd's Bayes has learned ${spam} spam and ${ham} ham messages (it classifies from 200 of each by default; bench/measure/teach-bayes.ts)`;
}
