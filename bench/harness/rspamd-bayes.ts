import type { RedisConnection } from '@letterbox/redis';

/**
 * What rspamd's Bayes classifier has learned, which the spam stage's figures depend on most beside rspamd's rules:
 * it classifies only once it has learned min_learns (200 by default) of each kind, a new install none, and then
 * costs about as much again. rspamd 3.4 counts them in the Redis REDIS_URL names (scripts/rspamd.sh), in the hash
 * RS; its controller's /stat is refreshed only now and then.
 */
export async function bayesNote(redis: RedisConnection): Promise<string> {
  const [spam, ham] = await redis.hmget('RS', 'learns_spam', 'learns_ham');
  return `rspamd's Bayes has learned ${spam ?? 0} spam and ${ham ?? 0} ham messages (it classifies from 200 of each by default; bench/measure/teach-bayes.ts)`;
}
