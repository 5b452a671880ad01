import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { startMockSmtp, type MockSmtp } from '@letterbox/mock-providers';
import { jobIdOf, JobQueues } from '@letterbox/queue';
import {
  type AppProcess,
  deliveryWorkerEnv,
  type SendApiProcess,
  startDeliveryWorkerProcess,
  startSendApiProcess,
  testDatabase,
  testQueuePrefix,
  testQueues,
  waitFor,
} from '@letterbox/testing';
import { sendBatch, sendRows } from './testing/send-batches';

const LOCK_MS = 1500;
/** Three locks long: a lock that were not renewed would run out, and the stalled check would hand the job out again. */
const PROVIDER_LATENCY_MS = 3 * LOCK_MS;
const SENDS = 5;

describe('an SMTP conversation longer than the delivery lock', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let mock: MockSmtp;
  let api: SendApiProcess;
  let queues: JobQueues;
  let worker: AppProcess | undefined;

  before(async () => {
    db = testDatabase();
    mock = await startMockSmtp({ port: 0, latencyMs: PROVIDER_LATENCY_MS, ratePerSecond: 100_000, burst: 100_000 });
    api = await startSendApiProcess({ QUEUE_PREFIX: queuePrefix });
    queues = testQueues(queuePrefix);
  });

  after(async () => {
    await worker?.stop('SIGTERM');
    await queues?.close();
    await api?.close();
    await mock?.close();
    await db?.close();
  });

  test('is delivered exactly once: the lock is renewed while the provider takes its time, and the job never stalls', async () => {
    const batch = await sendBatch(db, api.url, 'slow', SENDS);
    // Its own process, as in production: the test's own work cannot hold up the lock's renewal.
    worker = await startDeliveryWorkerProcess(deliveryWorkerEnv(queuePrefix, mock.port, { DELIVERY_LOCK_MS: String(LOCK_MS) }));
    await waitFor(async () => (await sendRows(db, batch.ids)).every((row) => row.status === 'sent'), {
      timeoutMs: PROVIDER_LATENCY_MS + 15_000,
      what: 'all sends sent',
    });
    // A stalled job's second run would still be waiting for the provider: give it time to land.
    await new Promise((resolve) => setTimeout(resolve, PROVIDER_LATENCY_MS + 500));
    assert.deepEqual(
      batch.recipients.map((to) => mock.messages({ to }).length),
      batch.recipients.map(() => 1),
      'each message accepted once',
    );
    const [queue] = queues.all();
    for (const sendId of batch.ids) {
      const job = await queue.getJob(jobIdOf('deliver-send', { sendId }));
      assert.equal(await job?.getState(), 'completed');
      assert.equal(job?.stalledCounter, 0, `send ${sendId}: never taken for stalled`);
    }
    for (const row of await sendRows(db, batch.ids)) assert.equal(row.attempts, 1, `send ${row.id}: claimed once`);
  });
});
