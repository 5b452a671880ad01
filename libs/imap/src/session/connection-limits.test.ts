import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, describe, test } from 'node:test';
import { loadConfig, redisConfig } from '@letterbox/config';
import { redisConnection, whenReady, type RedisConnection } from '@letterbox/redis';
import { testQueuePrefix, unlinkKeys } from '@letterbox/testing';
import { ConnectionLimits } from './connection-limits';

describe('ConnectionLimits, shared by every IMAP process through Redis', () => {
  const namespace = testQueuePrefix();
  let redis: RedisConnection;

  before(async () => {
    redis = redisConnection(loadConfig(redisConfig), 'fail-fast', 'connection limits test');
    await whenReady(redis, Error);
  });

  after(async () => {
    await unlinkKeys(redis, `${namespace}:*`);
    redis.disconnect();
  });

  test('refuses past the limit per address and per user across processes, and gives a place back once, however often released', async () => {
    const [one, two] = [0, 1].map(() => new ConnectionLimits({ perAddress: 2, perUser: 1, redis, namespace }));
    const first = await one.connect('192.0.2.1');
    assert.ok(first && (await two.connect('192.0.2.1')));
    assert.equal(await one.connect('192.0.2.1'), undefined);
    assert.equal(await two.connect('192.0.2.1'), undefined, 'the other process counts the same places');
    assert.ok(await two.connect('192.0.2.2'), 'another address has places of its own');
    first();
    first();
    await sleep(50);
    assert.ok(await two.connect('192.0.2.1'));
    assert.equal(await one.connect('192.0.2.1'), undefined);
    const session = await one.signIn(7);
    assert.ok(session);
    assert.equal(await two.signIn(7), undefined);
    session();
    await sleep(50);
    assert.ok(await two.signIn(7));
    [one, two].forEach((limits) => limits.close());
  });

  test("a process that dies holding places loses them when their lease ends; a living one's leases are renewed", async () => {
    const dying = new ConnectionLimits({ perAddress: 1, perUser: 1, redis, namespace, leaseMs: 300 });
    const living = new ConnectionLimits({ perAddress: 1, perUser: 1, redis, namespace, leaseMs: 300 });
    assert.ok(await living.signIn(8));
    assert.ok(await dying.signIn(9));
    dying.close();
    await sleep(600);
    assert.ok(await living.signIn(9), "the dead process's place came back");
    assert.equal(await dying.signIn(8), undefined, 'the living session still holds its place, renewed');
    living.close();
  });
});
