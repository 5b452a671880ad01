import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, afterEach, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { jobIdOf, JobQueues } from '@letterbox/queue';
import { startMockSmtp, type MockSmtp } from '@letterbox/mock-providers';
import {
  accessTokenFor,
  type AppProcess,
  createTestUser,
  deliveryWorkerEnv,
  type SendApiProcess,
  SendClient,
  startDeliveryWorkerProcess,
  startSendApiProcess,
  testDatabase,
  testQueuePrefix,
  testQueues,
  waitFor,
} from '@letterbox/testing';

const SENDS = 10;
/** Long enough to kill a worker while every delivery is waiting for the provider's answer. */
const PROVIDER_LATENCY_MS = 1500;

interface Batch {
  client: SendClient;
  ids: number[];
  recipients: string[];
}

interface SendRow {
  id: string;
  status: string;
  attempts: number;
}

describe('delivery worker processes that die or stop with deliveries in flight', () => {
  let db: Database;
  let mock: MockSmtp;
  const started: AppProcess[] = [];
  const queuePrefix = testQueuePrefix();
  let api: SendApiProcess;
  let queues: JobQueues;

  before(async () => {
    queues = testQueues(queuePrefix);
    db = testDatabase();
    mock = await startMockSmtp({ port: 0, latencyMs: PROVIDER_LATENCY_MS, ratePerSecond: 100_000, burst: 100_000 });
    api = await startSendApiProcess({ QUEUE_PREFIX: queuePrefix });
  });

  // Each test's workers stop with it, so the next test's sends meet only its own workers.
  afterEach(async () => {
    for (const worker of started.splice(0)) await worker.stop('SIGTERM');
  });

  after(async () => {
    await queues?.close();
    await api?.close();
    await mock?.close();
    await db?.close();
  });

  async function worker(): Promise<AppProcess> {
    const process = await startDeliveryWorkerProcess(deliveryWorkerEnv(queuePrefix, mock.port, { DELIVERY_LOCK_MS: '1500' }));
    started.push(process);
    return process;
  }

  async function sendBatch(name: string): Promise<Batch> {
    const user = await createTestUser(db, name);
    const client = new SendClient(api.url, accessTokenFor(user));
    const run = randomUUID().slice(0, 8);
    const recipients = Array.from({ length: SENDS }, (_, index) => `${name}${index}.${run}@crash.test`);
    const answers = await Promise.all(recipients.map((to, index) => client.send({ to: [to], subject: `${name} ${index}`, text: 'in flight' })));
    for (const answer of answers) assert.equal(answer.status, 202, JSON.stringify(answer.body));
    return { client, ids: answers.map((answer) => answer.body.id), recipients };
  }

  async function rows(ids: number[]): Promise<SendRow[]> {
    const { rows: found } = await db.sql.query<SendRow>('SELECT id, status, attempts FROM outbound_sends WHERE id = ANY($1::bigint[]) ORDER BY id', [ids]);
    return found;
  }

  /** Waits until every send of the batch has been claimed `attempts` times and is being delivered. */
  async function inFlight(batch: Batch, attempts: number): Promise<void> {
    await waitFor(
      async () => {
        const all = await rows(batch.ids);
        return all.every((row) => row.status === 'sending' && row.attempts >= attempts);
      },
      { timeoutMs: 15_000, what: `all ${SENDS} sends in flight (attempt ${attempts})` },
    );
    // The messages' DATA is in by now; the provider answers only after its latency.
    await new Promise((resolve) => setTimeout(resolve, 300));
  }

  async function allSent(batch: Batch, timeoutMs = 20_000): Promise<void> {
    await waitFor(async () => (await rows(batch.ids)).every((row) => row.status === 'sent'), {
      timeoutMs,
      what: `all sends sent: ${JSON.stringify(await rows(batch.ids))}`,
    });
  }

  const messagesPer = (batch: Batch) => batch.recipients.map((to) => mock.messages({ to }).length);

  test('SIGKILL mid-delivery: a new worker takes the sends over; none is lost, at most one duplicate each', async () => {
    const batch = await sendBatch('killed');
    const first = await worker();
    await inFlight(batch, 1);
    assert.deepEqual(
      messagesPer(batch),
      batch.recipients.map(() => 0),
      'nothing was accepted before the kill',
    );
    assert.equal(await first.stop('SIGKILL'), 'SIGKILL');
    await worker();
    await allSent(batch);
    // The provider answers the killed worker's messages too, and the takeover sends them again.
    await new Promise((resolve) => setTimeout(resolve, PROVIDER_LATENCY_MS + 500));
    const counts = messagesPer(batch);
    const duplicates = counts.reduce((sum, count) => sum + count - 1, 0);
    console.log(`after SIGKILL: messages per send [${counts.join(', ')}]: ${duplicates} duplicate(s) for ${SENDS} sends in flight`);
    assert.ok(
      counts.every((count) => count >= 1),
      'no send lost',
    );
    assert.ok(
      counts.every((count) => count <= 2),
      'at most one extra message for a send in flight at the kill',
    );
    for (const row of await rows(batch.ids)) assert.equal(row.attempts, 2, `send ${row.id}: claimed by each worker once`);
  });

  test('SIGTERM mid-delivery: the worker finishes what it has in flight, then exits 0', async () => {
    const batch = await sendBatch('stopped');
    const running = await worker();
    await inFlight(batch, 1);
    assert.deepEqual(
      messagesPer(batch),
      batch.recipients.map(() => 0),
    );
    const exit = await running.stop('SIGTERM');
    assert.equal(exit, 0, running.output());
    // Done before it exited: no other worker runs for this queue now.
    assert.deepEqual(
      (await rows(batch.ids)).map((row) => row.status),
      batch.ids.map(() => 'sent'),
    );
    assert.deepEqual(
      messagesPer(batch),
      batch.recipients.map(() => 1),
      'each delivered exactly once',
    );
  });

  test('two crashes in a row still lose no send', async () => {
    const batch = await sendBatch('twice');
    const first = await worker();
    await inFlight(batch, 1);
    await first.stop('SIGKILL');
    const second = await worker();
    await inFlight(batch, 2);
    await second.stop('SIGKILL');
    await worker();
    try {
      await allSent(batch, 8000);
    } finally {
      const [queue] = queues.all();
      const jobs = await Promise.all(batch.ids.map((sendId) => queue.getJob(jobIdOf('deliver-send', { sendId }))));
      const states = await Promise.all(jobs.map(async (job) => `${await job?.getState()}${job?.failedReason ? `: ${job.failedReason}` : ''}`));
      console.log(`after two crashes: sends ${JSON.stringify((await rows(batch.ids)).map((row) => row.status))}; jobs ${JSON.stringify([...new Set(states)])}`);
      // Stuck sends would be re-queued by any worker's sweep a minute from now (the sweep ignores QUEUE_PREFIX): end them.
      await db.sql.query(
        `UPDATE outbound_sends SET status = 'failed', last_error = 'stuck after two crashes (test cleanup)' WHERE id = ANY($1::bigint[]) AND status IN ('queued', 'sending')`,
        [batch.ids],
      );
    }
    assert.ok(messagesPer(batch).every((count) => count >= 1));
  });
});
