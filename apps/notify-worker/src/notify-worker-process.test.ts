import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { DeviceRegistry } from '@letterbox/push';
import { createTestUser, testDatabase, testQueuePrefix, TYPESCRIPT_ON_LOAD, waitFor } from '@letterbox/testing';
import { startMockFcmServer, type MockFcmServer } from '@letterbox/push/testing';
import { NotifyQueue, notifyWorkerEnv, startWorkerProcess } from './testing/notify-workers';

/** Long enough to stop the worker while FCM has not answered yet. */
const FCM_LATENCY_MS = 1500;

describe('the notify worker as a process', () => {
  const prefix = testQueuePrefix();
  let db: Database;
  let mock: MockFcmServer;
  let notify: NotifyQueue;

  before(async () => {
    db = testDatabase();
    mock = await startMockFcmServer({ latencyMs: FCM_LATENCY_MS });
    notify = new NotifyQueue(prefix);
  });

  after(async () => {
    await notify?.close();
    await mock?.close();
    await db?.close();
  });

  test('SIGTERM with notifications in flight: they finish, then the worker exits 0', async () => {
    const user = await createTestUser(db, 'sigterm');
    const tokens = [1, 2, 3].map((index) => `term-${index}-${randomUUID().slice(0, 8)}`);
    const devices = new DeviceRegistry(db.sql);
    for (const token of tokens) await devices.register(user.id, token);
    const worker = await startWorkerProcess(notifyWorkerEnv(prefix, mock.url));
    await notify.queues.enqueueAll('notify-new-mail', [{ userId: user.id, mailId: 1, from: 'Alice', subject: 'In flight' }]);
    await waitFor(async () => (await notify.state(1)) === 'active', { what: 'the job to start' });
    // FCM has the messages by now and answers after its latency.
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(
      tokens.map((token) => mock.fcm.counts(token)[token]?.accepted ?? 0),
      [0, 0, 0],
      'nothing answered before the signal',
    );
    assert.equal(await worker.stop('SIGTERM'), 0, worker.output());
    assert.equal(await notify.state(1), 'completed');
    assert.deepEqual(
      tokens.map((token) => mock.fcm.counts(token)[token]?.accepted),
      [1, 1, 1],
    );
    assert.match(worker.output(), /SIGTERM, finishing notifications in flight/);
  });

  test('a bad setting stops it at start, naming the variable', () => {
    const result = spawnSync(process.execPath, [...TYPESCRIPT_ON_LOAD, 'apps/notify-worker/src/main.ts'], {
      cwd: path.resolve(__dirname, '../../..'),
      env: { ...process.env, FCM_MOCK_URL: 'not a url', NOTIFY_CONCURRENCY: '0' },
      encoding: 'utf8',
      timeout: 30_000,
    });
    assert.equal(result.status, 1);
    assert.match(result.stderr, /notify worker cannot start/);
    assert.match(result.stderr, /FCM_MOCK_URL: .*\(got "not a url"\)/);
    assert.match(result.stderr, /NOTIFY_CONCURRENCY: .*\(got "0"\)/);
  });
});
