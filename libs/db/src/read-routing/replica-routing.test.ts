import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import IORedis, { type Redis } from 'ioredis';
import { Pool } from 'pg';
import { ensureReadReplica, testQueuePrefix, testSettings, waitFor, withFaultsExpected } from '@letterbox/testing';
import { createDatabase, type Database } from '../database';
import { readRouting } from './read-routing';

describe('read routing with a replica', () => {
  const userId = 900_000_001;
  let db: Database;
  let redis: Redis;
  let replicaSuperuser: Pool;

  before(async () => {
    const replicaUrl = await ensureReadReplica();
    db = createDatabase({
      url: testSettings().DATABASE_URL,
      readUrl: replicaUrl,
      poolSize: 2,
      applicationName: 'letterbox-tests',
      heavyReads: { poolSize: 1, statementTimeoutMs: 1000 },
    });
    redis = new IORedis(testSettings().REDIS_URL, { maxRetriesPerRequest: 1 });
    const superuser = new URL(replicaUrl);
    [superuser.username, superuser.password] = ['postgres', ''];
    replicaSuperuser = new Pool({ connectionString: superuser.href, max: 1 });
  });

  after(async () => {
    await replicaSuperuser?.query('SELECT pg_wal_replay_resume()');
    await replicaSuperuser?.end();
    redis?.disconnect();
    await db?.close();
  });

  test('a user reads from the replica, from the primary after a write until the replica has replayed it', async () => {
    const routing = readRouting(db, redis, testQueuePrefix());
    assert.equal(await routing.poolFor(userId), db.replica);
    assert.equal(await routing.poolFor(userId, 'heavy'), db.heavyReads.replica, "a heavy read, on the replica's heavy pool");
    await replicaSuperuser.query('SELECT pg_wal_replay_pause()');
    try {
      await db.sql.query(`SELECT pg_logical_emit_message(false, 'letterbox-test', 'a write')`);
      await routing.record([userId]);
      assert.equal(await routing.poolFor(userId), db.sql);
      assert.equal(await routing.poolFor(userId, 'heavy'), db.heavyReads.primary, "a heavy read, on the primary's heavy pool");
      assert.equal(await routing.poolFor(userId + 1), db.replica, 'another user is not held back');
    } finally {
      await replicaSuperuser.query('SELECT pg_wal_replay_resume()');
    }
    await waitFor(async () => (await routing.poolFor(userId)) === db.replica, { what: 'the replica to replay the write' });
  });

  test('while Redis does not answer, every read goes to the primary', async () =>
    withFaultsExpected(async () => {
      const away = new IORedis('redis://127.0.0.1:1', { enableOfflineQueue: false, maxRetriesPerRequest: 0 });
      away.on('error', () => undefined); // refused connections are the point here
      try {
        const routing = readRouting(db, away, testQueuePrefix());
        await routing.record([userId]);
        assert.equal(await routing.poolFor(userId), db.sql);
      } finally {
        away.disconnect();
      }
    }));

  test('without a replica, everything is the primary', async () => {
    const primaryOnly = createDatabase({ url: testSettings().DATABASE_URL, poolSize: 1, applicationName: 'letterbox-tests' });
    try {
      assert.equal(await readRouting(primaryOnly, redis, testQueuePrefix()).poolFor(userId), primaryOnly.sql);
      assert.equal(await readRouting(primaryOnly, redis, testQueuePrefix()).poolFor(userId, 'heavy'), primaryOnly.sql, 'no heavy pool of its own: the same');
    } finally {
      await primaryOnly.close();
    }
  });
});
