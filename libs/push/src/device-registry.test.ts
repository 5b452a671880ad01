import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Database } from '@letterbox/db';
import { createTestUser, testDatabase, type TestUser } from '@letterbox/testing';
import { DeviceRegistry, DeviceTokenTakenError } from './device-registry';

const token = (name: string) => `${name}-${randomUUID()}`;

describe('DeviceRegistry against PostgreSQL', () => {
  let db: Database;
  let devices: DeviceRegistry;
  let alice: TestUser;
  let bob: TestUser;

  before(async () => {
    db = testDatabase();
    devices = new DeviceRegistry(db.sql);
    alice = await createTestUser(db, 'alice');
    bob = await createTestUser(db, 'bob');
  });

  after(() => db?.close());

  test('a new token is new; registering it again refreshes it and keeps its platform unless one is given', async () => {
    const phone = token('phone');
    const first = await devices.register(alice.id, phone, 'android');
    assert.equal(first.isNew, true);
    assert.equal(first.device.platform, 'android');
    const again = await devices.register(alice.id, phone);
    assert.equal(again.isNew, false);
    assert.equal(again.device.platform, 'android');
    assert.equal(again.device.createdAt, first.device.createdAt);
    assert.ok(again.device.lastSeenAt >= first.device.lastSeenAt);
    assert.equal((await devices.register(alice.id, phone, 'ios')).device.platform, 'ios');
    assert.equal((await devices.register(alice.id, token('browser'))).device.platform, 'web', 'web unless said');
  });

  test('a token registered by another user moves to them with its installation secret: new for them, gone for the first', async () => {
    const shared = token('shared');
    const secret = 'the-installation-secret-of-one-phone-0123';
    await devices.register(alice.id, shared, 'ios', secret);
    await assert.rejects(devices.register(bob.id, shared), DeviceTokenTakenError);
    const moved = await devices.register(bob.id, shared, undefined, secret);
    assert.equal(moved.isNew, true);
    assert.equal(moved.device.platform, 'ios');
    assert.ok(!(await devices.tokensOf(alice.id)).includes(shared));
    assert.ok((await devices.tokensOf(bob.id)).includes(shared));
  });

  test('remove takes only the user’s own device', async () => {
    const own = token('own');
    await devices.register(alice.id, own);
    assert.equal(await devices.remove(bob.id, own), false);
    assert.equal(await devices.remove(alice.id, own), true);
    assert.equal(await devices.remove(alice.id, own), false);
  });

  test('list shows the user’s devices, latest first; tokensOf with `among` keeps only those still the user’s', async () => {
    const user = await createTestUser(db, 'lister');
    const [first, second, third] = [token('one'), token('two'), token('three')];
    for (const each of [first, second, third]) await devices.register(user.id, each);
    assert.deepEqual(
      (await devices.list(user.id)).map((device) => device.token),
      [third, second, first],
    );
    await devices.remove(user.id, second);
    assert.deepEqual(await devices.tokensOf(user.id), [first, third]);
    assert.deepEqual(await devices.tokensOf(user.id, [second, third, token('never')]), [third]);
    assert.deepEqual(await devices.tokensOf(user.id, []), []);
  });

  test('prune removes the given tokens in one statement, whoever’s they are', async () => {
    const [a, b, kept] = [token('a'), token('b'), token('kept')];
    await devices.register(alice.id, a);
    await devices.register(bob.id, b);
    await devices.register(bob.id, kept);
    assert.equal(await devices.prune([a, b, token('unknown')]), 2);
    assert.equal(await devices.prune([]), 0);
    const { rows } = await db.sql.query<{ token: string }>('SELECT token FROM devices WHERE token = ANY($1::text[])', [[a, b, kept]]);
    assert.deepEqual(
      rows.map((row) => row.token),
      [kept],
    );
  });
  test('past the most devices a user keeps, registering another forgets the least recently seen', async () => {
    const user = await createTestUser(db, 'many-devices');
    const fewDevices = new DeviceRegistry(db.sql, 3);
    const [oldest, old, kept, newer, newest] = ['oldest', 'old', 'kept', 'newer', 'newest'].map(token);
    // Apart by a few milliseconds: last_seen_at keeps milliseconds, and the order is what is tested.
    for (const device of [oldest, old, kept, oldest, newer, newest]) {
      await fewDevices.register(user.id, device);
      await sleep(5);
    }
    assert.deepEqual((await fewDevices.tokensOf(user.id)).sort(), [oldest, newer, newest].sort());
    assert.equal((await fewDevices.register(user.id, newest)).isNew, false);
    assert.equal((await fewDevices.tokensOf(user.id)).length, 3);
  });
});
