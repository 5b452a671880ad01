import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { workerConnection } from '@letterbox/queue';
import { redisTargets, unlinkKeys } from '@letterbox/testing';
import { SenderRateLimit } from './sender-rate-limit';

/** One take: its wait, and the span of this process's clock in which Redis read its own (the same host's). */
interface Take {
  wait: number;
  start: number;
  end: number;
}

async function takes(limit: SenderRateLimit, sender: string, count: number): Promise<Take[]> {
  const taken: Take[] = [];
  for (let index = 0; index < count; index++) {
    const start = Date.now();
    const wait = await limit.take(sender);
    taken.push({ wait, start, end: Date.now() });
  }
  return taken;
}

/**
 * Whether the token of `take` is due `offset` ms after the token of `earlier`, within the spans both calls took
 * (and a millisecond of rounding each): the schedule, however long the calls themselves take.
 */
function dueAfter(earlier: Take, take: Take, offset: number): boolean {
  return take.start + take.wait <= earlier.end + earlier.wait + offset + 2 && take.end + take.wait >= earlier.start + earlier.wait + offset - 2;
}

for (const { name, target } of redisTargets()) {
  describe(`the sender rate limit against ${name}`, () => {
    const prefix = `test-${randomUUID().slice(0, 8)}`;
    const redis = workerConnection(target);

    after(async () => {
      await unlinkKeys(redis, `${prefix}:*`);
      redis.disconnect();
    });

    test('a sender gets its burst at once, then waits for the next token; other senders are not affected', async () => {
      // One token a second: the fourth is due a second after the first take, however slow the machine.
      const limit = new SenderRateLimit(redis, 1, 3, prefix);
      const taken = await takes(limit, 'busy@example.test', 4);
      assert.deepEqual(
        taken.slice(0, 3).map((take) => take.wait),
        [0, 0, 0],
      );
      assert.ok(taken[3].wait > 0, 'the fourth waits');
      assert.ok(dueAfter(taken[0], taken[3], 1000), `the fourth is due a second after the first: ${JSON.stringify(taken)}`);
      assert.equal(await limit.take('quiet@example.test'), 0);
    });

    test('senders over the limit are given slots of their own, one interval apart, not one wake-up for all', async () => {
      const limit = new SenderRateLimit(redis, 5, 5, prefix);
      const taken = await takes(limit, 'crowded@example.test', 20);
      assert.deepEqual(
        taken.slice(0, 5).map((take) => take.wait),
        [0, 0, 0, 0, 0],
      );
      // In debt, each take is due one interval (200 ms at 5/s) after the one before, however far apart they were taken.
      for (let index = 6; index < taken.length; index++) {
        if (taken[index - 1].wait === 0) continue;
        assert.ok(dueAfter(taken[index - 1], taken[index], 200), `take ${index + 1} is due 200 ms after the one before: ${JSON.stringify(taken)}`);
      }
      assert.ok(taken[taken.length - 1].wait > 0, 'twenty takes in a row put the sender in debt');
    });
  });
}
