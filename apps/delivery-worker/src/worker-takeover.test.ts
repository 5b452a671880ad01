import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';
import type { FastifyInstance } from 'fastify';
import type { Database } from '@letterbox/db';
import { startMockProvidersHttp, startMockSmtp, type MockSmtp } from '@letterbox/mock-providers';
import {
  type AppProcess,
  deliveryWorkerEnv,
  type SendApiProcess,
  startDeliveryWorkerProcess,
  startSendApiProcess,
  testDatabase,
  testQueuePrefix,
  waitFor,
} from '@letterbox/testing';
import { deliveryLockOptions } from './delivery-lock';
import { sendBatch, sendRows, waitUntilInFlight, type SendBatch } from './testing/send-batches';

const SENDS = 10;
/** Long enough to kill a worker while every delivery is waiting for the provider's answer. */
const PROVIDER_LATENCY_MS = 1500;
/** Room for a loaded machine on top of what the lock and the provider take; the old 30 s lock and check took up to a minute. */
const SLACK_MS = 6000;

/**
 * The time a killed worker's sends wait is set by DELIVERY_LOCK_MS (delivery-lock.ts):
 * these tests configure a short one and check that a new worker finishes the sends
 * within what it allows, counting from when that worker is up.
 */
describe('a delivery worker killed mid-delivery: taken over within the bound of its lock', () => {
  const queuePrefix = testQueuePrefix();
  const started: AppProcess[] = [];
  let db: Database;
  let mock: MockSmtp;
  let control: FastifyInstance;
  let receiptsUrl: string;
  let api: SendApiProcess;

  before(async () => {
    db = testDatabase();
    mock = await startMockSmtp({ port: 0, latencyMs: PROVIDER_LATENCY_MS, ratePerSecond: 100_000, burst: 100_000 });
    control = await startMockProvidersHttp(mock, { port: 0 });
    receiptsUrl = `http://127.0.0.1:${(control.server.address() as { port: number }).port}`;
    api = await startSendApiProcess({ QUEUE_PREFIX: queuePrefix });
  });

  afterEach(async () => {
    for (const worker of started.splice(0)) await worker.stop('SIGTERM');
  });

  after(async () => {
    await api?.close();
    await control?.close();
    await mock?.close();
    await db?.close();
  });

  async function worker(env: Record<string, string>): Promise<AppProcess> {
    const process = await startDeliveryWorkerProcess(deliveryWorkerEnv(queuePrefix, mock.port, env));
    started.push(process);
    return process;
  }

  const messagesPer = (batch: SendBatch) => batch.recipients.map((to) => mock.messages({ to }).length);

  /** Kills a worker with the whole batch in flight, starts another, and waits (bounded by the lock) until every send is sent. */
  async function killAndTakeOver(batch: SendBatch, env: Record<string, string>): Promise<void> {
    const first = await worker(env);
    await waitUntilInFlight(db, batch, 1);
    assert.deepEqual(
      messagesPer(batch),
      batch.recipients.map(() => 0),
      'nothing was accepted before the kill',
    );
    assert.equal(await first.stop('SIGKILL'), 'SIGKILL');
    await worker(env);
    const { lockDuration = 0, stalledInterval = 0 } = deliveryLockOptions(Number(env.DELIVERY_LOCK_MS));
    // The lock runs out at most a lock after the kill, the stalled check after next at the latest queues the job, the provider answers.
    const boundMs = lockDuration + 2 * stalledInterval + PROVIDER_LATENCY_MS + SLACK_MS;
    let rows = await sendRows(db, batch.ids);
    await waitFor(
      async () => {
        rows = await sendRows(db, batch.ids);
        return rows.every((row) => row.status === 'sent');
      },
      { timeoutMs: boundMs, intervalMs: 50, what: () => `all sends sent within ${boundMs} ms of the new worker: ${JSON.stringify(rows)}` },
    );
    // The provider answers the killed worker's messages too: let any of them land before counting.
    await new Promise((resolve) => setTimeout(resolve, PROVIDER_LATENCY_MS + 500));
  }

  test('with a 2 s lock, a new worker sends what the killed one had in flight; without receipts each may go out twice', async () => {
    const batch = await sendBatch(db, api.url, 'takeover', SENDS);
    await killAndTakeOver(batch, { DELIVERY_LOCK_MS: '2000' });
    for (const row of await sendRows(db, batch.ids)) assert.equal(row.attempts, 2, `send ${row.id}: claimed by each worker once`);
    const counts = messagesPer(batch);
    assert.ok(
      counts.every((count) => count === 1 || count === 2),
      `none lost, at most one duplicate each: [${counts.join(', ')}]`,
    );
  });

  test('where the provider can be asked and the lock is over twice its latency, each goes out exactly once', async () => {
    const batch = await sendBatch(db, api.url, 'asked', SENDS);
    await killAndTakeOver(batch, { DELIVERY_LOCK_MS: String(2 * PROVIDER_LATENCY_MS + 1000), SMTP_RECEIPTS_URL: receiptsUrl });
    assert.deepEqual(
      messagesPer(batch),
      batch.recipients.map(() => 1),
    );
  });
});
