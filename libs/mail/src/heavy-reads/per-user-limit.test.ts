import assert from 'node:assert/strict';
import { describe, test } from 'node:test';
import { TooManyHeavyReadsError } from '../mail-errors';
import { PerUserLimit } from './per-user-limit';

/** A read that runs until the test ends it. */
function heldRead() {
  let end!: () => void;
  const ended = new Promise<void>((resolve) => (end = resolve));
  return { read: () => ended, end };
}

describe('PerUserLimit', () => {
  test('a read past the limit waits for one to end, and runs in its slot', async () => {
    const limit = new PerUserLimit({ perUser: 2, waitMs: 10_000 });
    const [first, second] = [heldRead(), heldRead()];
    const running = [limit.run(1, first.read), limit.run(1, second.read)];
    let thirdRan = false;
    const third = limit.run(1, async () => {
      thirdRan = true;
      return 'third';
    });
    assert.equal(await limit.run(2, async () => 'another user'), 'another user', 'another user is not held back');
    assert.equal(thirdRan, false, 'the third waits while two run');
    first.end();
    assert.equal(await third, 'third');
    second.end();
    await Promise.all(running);
  });

  test('a read still waiting after waitMs is refused with a Retry-After; a full queue refuses at once', async () => {
    const limit = new PerUserLimit({ perUser: 1, waitMs: 50 });
    const held = heldRead();
    const running = limit.run(1, held.read);
    const waiting = limit.run(1, async () => 'never');
    const pastTheQueue = limit.run(1, async () => 'never');
    await assert.rejects(pastTheQueue, (error: unknown) => error instanceof TooManyHeavyReadsError && error.retryAfterSeconds === 1);
    await assert.rejects(waiting, TooManyHeavyReadsError);
    held.end();
    await running;
    assert.equal(await limit.run(1, async () => 'after'), 'after', 'the refused reads took no slot');
  });

  test('a read that fails gives its slot back', async () => {
    const limit = new PerUserLimit({ perUser: 1, waitMs: 0 });
    await assert.rejects(
      limit.run(1, async () => {
        throw new Error('the database went away');
      }),
      /the database went away/,
    );
    assert.equal(await limit.run(1, async () => 'next'), 'next');
  });
});
