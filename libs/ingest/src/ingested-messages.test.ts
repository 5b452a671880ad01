import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, test } from 'node:test';
import { workerConnection } from '@letterbox/queue';
import { redisTargets, unlinkKeys } from '@letterbox/testing';
import { dedupKeyOf } from './dedup-key';
import { IngestedMessages } from './ingested-messages';

for (const { name, target } of redisTargets()) {
  describe(`the messages ingested, remembered in ${name}`, () => {
    const prefix = `test-${randomUUID().slice(0, 8)}`;
    const redis = workerConnection(target);
    const ingested = new IngestedMessages(redis, prefix);

    after(async () => {
      await unlinkKeys(redis, `${prefix}:*`);
      redis.disconnect();
    });

    test('a batch over many users and messages is answered pair by pair, in the order asked', async () => {
      // Enough keys to fall in every slot range of a three-node cluster.
      const pairs = Array.from({ length: 60 }, (_, index) => ({ userId: 1 + (index % 7), dedupKey: dedupKeyOf('a@example.org', `<${index}@example.org>`) }));
      const stored = pairs.filter((_, index) => index % 3 !== 0).map((pair) => ({ ...pair, inboundId: randomUUID() }));
      await ingested.remember(stored);
      const expected = pairs.map((pair) => stored.find((entry) => entry.userId === pair.userId && entry.dedupKey === pair.dedupKey)?.inboundId ?? null);
      assert.deepEqual(await ingested.storedBy(pairs), expected);
      assert.deepEqual(await ingested.storedBy([]), []);
      await ingested.remember([]);
    });

    test('the same message is remembered per recipient', async () => {
      const dedupKey = dedupKeyOf('b@example.org', `<${randomUUID()}@example.org>`);
      await ingested.remember([{ userId: 1, dedupKey, inboundId: 'first' }]);
      assert.deepEqual(
        await ingested.storedBy([
          { userId: 1, dedupKey },
          { userId: 2, dedupKey },
        ]),
        ['first', null],
      );
    });
  });
}
