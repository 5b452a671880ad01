import assert from 'node:assert/strict';
import { test } from 'node:test';
import { TokenBuckets, type RateLimit } from './token-buckets';

const limit = { ratePerSecond: 2, burst: 3 };

function takeAll(buckets: TokenBuckets, account: string, now: number, rateLimit: RateLimit = limit): number {
  let taken = 0;
  while (buckets.hasToken(account, rateLimit, now)) {
    buckets.take(account, rateLimit, now);
    taken += 1;
  }
  return taken;
}

test('an account starts with a full burst and earns tokens back at the rate, never more than the burst', () => {
  const buckets = new TokenBuckets();
  assert.equal(takeAll(buckets, 'a', 0), 3);
  assert.equal(takeAll(buckets, 'a', 499), 0);
  assert.equal(takeAll(buckets, 'a', 500), 1);
  assert.equal(takeAll(buckets, 'a', 60_000), 3);
  assert.equal(takeAll(buckets, 'b', 60_000), 3, 'each account has its own bucket');
});

test('looking for a token does not take it', () => {
  const buckets = new TokenBuckets();
  for (let look = 0; look < 10; look++) assert.ok(buckets.hasToken('a', limit, 0));
  assert.equal(takeAll(buckets, 'a', 0), 3);
});

test('a lowered burst applies at once', () => {
  const buckets = new TokenBuckets();
  assert.equal(takeAll(buckets, 'a', 0), 3);
  assert.equal(takeAll(buckets, 'a', 60_000, { ratePerSecond: 2, burst: 1 }), 1);
});
