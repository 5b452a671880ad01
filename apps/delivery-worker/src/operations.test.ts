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
  freePort,
  type SendApiProcess,
  SendClient,
  startDeliveryWorkerProcess,
  startSendApiProcess,
  testDatabase,
  testQueuePrefix,
  type TestUser,
  waitFor,
} from '@letterbox/testing';

/** The value of the series `name` whose labels include every one of `labels` (in whatever order they come). */
function sampleOf(exposition: string, name: string, labels: string[]): number {
  const line = exposition.split('\n').find((candidate) => candidate.startsWith(`${name}{`) && labels.every((label) => candidate.includes(label)));
  return line === undefined ? Number.NaN : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('a delivery worker process, as an operator sees it', () => {
  const prefix = testQueuePrefix();
  let db: Database;
  let mock: MockSmtp;
  let api: SendApiProcess;
  let worker: AppProcess;
  let opsUrl: string;
  let sender: TestUser;

  before(async () => {
    db = testDatabase();
    mock = await startMockSmtp({ port: 0, latencyMs: 10, ratePerSecond: 100_000, burst: 100_000 });
    api = await startSendApiProcess({ QUEUE_PREFIX: prefix });
    const port = await freePort();
    opsUrl = `http://127.0.0.1:${port}`;
    worker = await startDeliveryWorkerProcess(deliveryWorkerEnv(prefix, mock.port, { OPS_PORT: String(port), OPS_HOST: '127.0.0.1' }));
    sender = await createTestUser(db, 'traced');
  });

  after(async () => {
    await worker?.stop();
    await api?.close();
    await mock?.close();
    await db?.close();
  });

  test('its ops port answers /health/live, /health/ready (database, Redis, storage) and /metrics', async () => {
    assert.equal((await fetch(`${opsUrl}/health/live`)).status, 200);
    const ready = await fetch(`${opsUrl}/health/ready`);
    assert.equal(ready.status, 200);
    assert.deepEqual(Object.keys(((await ready.json()) as { info: object }).info).sort(), ['database', 'redis', 'storage']);
    const metrics = await (await fetch(`${opsUrl}/metrics`)).text();
    assert.match(metrics, /process_cpu_seconds_total\{app="delivery-worker"\}/);
    assert.equal((await fetch(`${opsUrl}/anything-else`)).status, 404);
  });

  test('one send can be followed by its request id from the request to the SMTP reply, and is counted', async () => {
    const requestId = `follow-${randomUUID()}`;
    const client = new SendClient(api.url, accessTokenFor(sender));
    const answer = await client.send({ to: [`${randomUUID().slice(0, 8)}@recipients.test`], subject: 'followed', text: 'hi' }, { 'x-request-id': requestId });
    assert.equal(answer.status, 202);
    await client.until(answer.body.id, ['sent']);
    const line = await waitFor(
      () =>
        worker
          .output()
          .split('\n')
          .find((candidate) => candidate.includes(requestId) && candidate.includes('the provider took it')),
      { what: () => `a log line with ${requestId} and the SMTP reply` },
    );
    const logged = JSON.parse(line) as { requestId: string; smtpResponse: string; sendId: number; level: number };
    assert.equal(logged.requestId, requestId);
    assert.equal(logged.sendId, answer.body.id);
    assert.match(logged.smtpResponse, /^250 /);
    const metrics = await (await fetch(`${opsUrl}/metrics`)).text();
    assert.ok(sampleOf(metrics, 'letterbox_sends_total', ['status="sent"']) >= 1);
    assert.ok(sampleOf(metrics, 'letterbox_job_duration_seconds_count', ['queue="mail-delivery"', 'job="deliver-send"', 'outcome="completed"']) >= 1);
  });
});
