import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { describe, test } from 'node:test';
import { redisTargets, unlinkKeys } from '@letterbox/testing';
import { redisConnection } from './redis-connections';

for (const { name, target } of redisTargets()) {
  describe(`connections to ${name}`, () => {
    test('a worker connection reaches keys of every slot, and waits for its connection', async () => {
      const redis = redisConnection(target, 'worker', 'test worker');
      const prefix = `test-${randomUUID().slice(0, 8)}`;
      try {
        const keys = Array.from({ length: 30 }, (_, index) => `${prefix}:${index}`);
        await Promise.all(keys.map((key, index) => redis.set(key, String(index))));
        assert.deepEqual(
          await Promise.all(keys.map((key) => redis.get(key))),
          keys.map((_, index) => String(index)),
        );
        assert.equal(await unlinkKeys(redis, `${prefix}:*`), keys.length);
      } finally {
        redis.disconnect();
      }
    });

    test('a fail-fast connection refuses a command at once while it is not connected', async () => {
      const redis = redisConnection(target, 'fail-fast', 'test fail-fast');
      try {
        await assert.rejects(redis.get('test-anything'), /enableOfflineQueue/);
      } finally {
        redis.disconnect();
      }
    });
  });
}
