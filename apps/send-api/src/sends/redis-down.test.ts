import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { startMockSmtp, type MockSmtp } from '@letterbox/mock-providers';
import {
  accessTokenFor,
  type AppProcess,
  createTestUser,
  deliveryWorkerEnv,
  SendClient,
  sleep,
  startDeliveryWorkerProcess,
  testDatabase,
  testQueuePrefix,
  type TestUser,
  waitFor,
  logFaultsAsExpected,
} from '@letterbox/testing';
import { startSendApiServer, type RunningSendApi } from '../testing/send-api-server';

// Redis is stopped on purpose here: the connection warnings are expected.
logFaultsAsExpected();

/** Nothing listens here: the send API's Redis is down. */
const CLOSED_REDIS_URL = 'redis://127.0.0.1:6390';
/** Far more than recording a send takes; a request still open by then is hanging. */
const ANSWER_WITHIN_MS = 5000;

interface OutboundRow {
  id: string;
  status: string;
  enqueued_at: Date | null;
  attempts: number;
}

describe('sends recorded while the send API’s Redis is down', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let mock: MockSmtp;
  let api: RunningSendApi;
  let worker: AppProcess | undefined;
  let sender: TestUser;
  let token: string;
  let client: SendClient;
  const recipient = (name: string) => `${name}.${randomUUID().slice(0, 8)}@redis-down.test`;
  const recorded = { to: recipient('down'), key: `down-${randomUUID()}`, id: 0 };
  const undone = { to: recipient('down-undo'), id: 0 };

  before(async () => {
    db = testDatabase();
    mock = await startMockSmtp({ port: 0, latencyMs: 20, ratePerSecond: 100_000, burst: 100_000 });
    api = await startSendApiServer({ QUEUE_PREFIX: queuePrefix, REDIS_URL: CLOSED_REDIS_URL });
    sender = await createTestUser(db, 'sender');
    token = accessTokenFor(sender);
    client = new SendClient(api.url, token);
  });

  after(async () => {
    await worker?.stop();
    await api?.close();
    await mock?.close();
    await db?.close();
  });

  /** POST /v2/mails/send, giving up after ANSWER_WITHIN_MS: the status, or 'no answer'. */
  async function postWithin(body: object, headers: Record<string, string> = {}, withinMs = ANSWER_WITHIN_MS): Promise<number | 'no answer'> {
    try {
      const response = await fetch(`${api.url}/v2/mails/send`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, ...headers },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(withinMs),
      });
      await response.arrayBuffer();
      return response.status;
    } catch (error) {
      if ((error as Error).name === 'TimeoutError') return 'no answer';
      throw error;
    }
  }

  async function rowsTo(address: string): Promise<OutboundRow[]> {
    const { rows } = await db.sql.query<OutboundRow>(`SELECT id, status, enqueued_at, attempts FROM outbound_sends WHERE user_id = $1 AND request->'to' ? $2`, [
      sender.id,
      address,
    ]);
    return rows;
  }

  test('POST answers (202, or a 5xx problem) while Redis is down', async () => {
    const status = await postWithin({ to: [recorded.to], subject: 'Redis is down', text: 'still recorded' }, { 'idempotency-key': recorded.key });
    console.log(`POST with Redis down: ${status === 'no answer' ? `no answer within ${ANSWER_WITHIN_MS} ms` : status}`);
    assert.ok(status !== 'no answer', `no answer within ${ANSWER_WITHIN_MS} ms`);
    assert.ok(status === 202 || status >= 500, `answered ${status}`);
  });

  test('the send was recorded in PostgreSQL all the same: queued, not marked enqueued', async () => {
    const rows = await waitFor(
      async () => {
        const found = await rowsTo(recorded.to);
        return found.length > 0 && found;
      },
      { timeoutMs: 5000, what: 'the send to be recorded' },
    );
    assert.equal(rows.length, 1);
    assert.equal(rows[0].status, 'queued');
    assert.equal(rows[0].enqueued_at, null);
    recorded.id = Number(rows[0].id);
    assert.equal((await client.current(recorded.id)).status, 'queued', 'its status reads from PostgreSQL alone');
  });

  test('a retry with the same Idempotency-Key answers 202 at once with the recorded send', async () => {
    const retry = await client.send({ to: [recorded.to], subject: 'Redis is down', text: 'still recorded' }, { 'idempotency-key': recorded.key });
    assert.equal(retry.status, 202);
    assert.equal(retry.body.id, recorded.id);
    assert.equal(retry.body.status, 'queued');
    assert.equal((await rowsTo(recorded.to)).length, 1);
  });

  test('health needs only PostgreSQL, and stays up', async () => {
    const health = await fetch(`${api.url}/health`, { signal: AbortSignal.timeout(ANSWER_WITHIN_MS) });
    assert.equal(health.status, 200);
    await health.arrayBuffer();
  });

  test('cancel answers while Redis is down', async () => {
    // Known to hang (above): only the recording matters here.
    await postWithin({ to: [undone.to], text: 'undo me' }, {}, 1000);
    const [row] = await waitFor(
      async () => {
        const found = await rowsTo(undone.to);
        return found.length > 0 && found;
      },
      { timeoutMs: 5000, what: 'the send to be recorded' },
    );
    undone.id = Number(row.id);
    let status: number | 'no answer';
    try {
      const response = await fetch(`${api.url}/v2/mails/send/${undone.id}/cancel`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(ANSWER_WITHIN_MS),
      });
      await response.arrayBuffer();
      status = response.status;
    } catch (error) {
      if ((error as Error).name !== 'TimeoutError') throw error;
      status = 'no answer';
    }
    assert.equal(status, 200, `cancel: ${status}`);
  });

  test('the send cancelled while Redis was down is cancelled in PostgreSQL', async () => {
    assert.ok(undone.id > 0, 'the cancel test recorded a send');
    assert.equal((await client.current(undone.id)).status, 'cancelled');
  });

  test('a worker on the real Redis queues the recorded send from the outbox sweep and delivers it exactly once', async () => {
    assert.ok(recorded.id > 0);
    worker = await startDeliveryWorkerProcess(deliveryWorkerEnv(queuePrefix, mock.port));
    const sent = await client.until(recorded.id, ['sent', 'failed']);
    assert.equal(sent.status, 'sent', JSON.stringify(sent));
    const [row] = await rowsTo(recorded.to);
    assert.ok(row.enqueued_at, 'the sweep marked it enqueued');
    // Several more sweeps (every 500 ms): none may queue it again.
    await sleep(2500);
    assert.equal(mock.messages({ to: recorded.to }).length, 1);
    assert.equal(mock.counts()[sender.email]?.accepted, 1, 'one message accepted for this sender in all');
    assert.equal((await client.current(recorded.id)).attempts, 1);
  });

  test('the cancelled send is never delivered', async () => {
    assert.equal((await client.current(undone.id)).status, 'cancelled');
    assert.deepEqual(mock.messages({ to: undone.to }), []);
  });
});
