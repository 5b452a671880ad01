import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { workerConnection } from '@letterbox/queue';
import { redisTargets, unlinkKeys } from '@letterbox/testing';
import { SenderRateLimit } from './sender-rate-limit';

for (const { name, target } of redisTargets()) {
  describe(`the sender rate limit against ${name}`, () => {
    const prefix = `test-${randomUUID().slice(0, 8)}`;
    const redis = workerConnection(target);

    after(async () => {
      await unlinkKeys(redis, `${prefix}:*`);
      redis.disconnect();
    });

    test('a sender gets its burst at once, then waits; other senders are not affected', async () => {
      const limit = new SenderRateLimit(redis, 5, 3, prefix);
      const waits = [];
      for (let index = 0; index < 4; index++) waits.push(await limit.take('busy@example.test'));
      assert.deepEqual(waits.slice(0, 3), [0, 0, 0]);
      assert.ok(waits[3] > 0 && waits[3] <= 200, `the fourth waits about a fifth of a second, got ${waits[3]} ms`);
      assert.equal(await limit.take('quiet@example.test'), 0);
    });

    test('senders over the limit are given slots of their own, one interval apart, not one wake-up for all', async () => {
      const limit = new SenderRateLimit(redis, 5, 5, prefix);
      const waits = [];
      for (let index = 0; index < 20; index++) waits.push(await limit.take('crowded@example.test'));
      assert.deepEqual(waits.slice(0, 5), [0, 0, 0, 0, 0]);
      const later = waits.slice(5);
      for (let index = 1; index < later.length; index++) {
        // 200 ms apart at 5/s, less the milliseconds between two calls, plus rounding up.
        const gap = later[index] - later[index - 1];
        assert.ok(gap >= 150 && gap <= 202, `slot ${index + 5} is ${gap} ms after the one before: ${later.join(', ')}`);
      }
      assert.ok(later[later.length - 1] >= 2700, `the fifteenth over the limit waits about 3 s, got ${later[later.length - 1]} ms`);
    });
  });
}
