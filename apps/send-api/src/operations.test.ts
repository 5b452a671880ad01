import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Queue } from 'bullmq';
import { loadConfig, redisConfig } from '@letterbox/config';
import type { Database } from '@letterbox/db';
import { accessTokenFor, createTestUser, testDatabase, testQueuePrefix, type TestUser, withFaultsExpected } from '@letterbox/testing';
import { startSendApiServer, type RunningSendApi } from './testing/send-api-server';

const { REDIS_URL } = loadConfig(redisConfig);

describe('what an operator reads from an API: request ids, health, metrics', () => {
  const prefix = testQueuePrefix();
  let db: Database;
  let api: RunningSendApi;
  let user: TestUser;

  before(async () => {
    db = testDatabase();
    api = await startSendApiServer({ QUEUE_PREFIX: prefix });
    user = await createTestUser(db, 'operated');
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  test('a request id is taken from X-Request-Id when sane, made otherwise, answered, and carried into the job it queues', async () => {
    const given = `checkout-${randomUUID()}`;
    const response = await fetch(`${api.url}/v2/mails/send`, {
      method: 'POST',
      headers: { authorization: `Bearer ${accessTokenFor(user)}`, 'content-type': 'application/json', 'x-request-id': given },
      body: JSON.stringify({ to: ['someone@recipients.test'], subject: 'traced', text: 'follow me' }),
    });
    assert.equal(response.status, 202);
    assert.equal(response.headers.get('x-request-id'), given);
    const { id } = (await response.json()) as { id: number };
    const queue = new Queue('mail-delivery', { connection: { url: REDIS_URL }, prefix });
    try {
      const job = await queue.getJob(`send-${id}`);
      assert.equal((job?.data as { requestId?: string }).requestId, given);
    } finally {
      await queue.close();
    }
    for (const insane of ['x'.repeat(200), 'a b', '']) {
      const answer = await fetch(`${api.url}/health/live`, { headers: { 'x-request-id': insane } });
      const made = answer.headers.get('x-request-id') ?? '';
      assert.notEqual(made, insane);
      assert.match(made, /^[0-9a-f-]{36}$/);
    }
  });

  test('/health/live answers; /health/ready names PostgreSQL, Redis and storage', async () => {
    const live = await fetch(`${api.url}/health/live`);
    assert.equal(live.status, 200);
    const ready = await fetch(`${api.url}/health/ready`);
    assert.equal(ready.status, 200);
    const report = (await ready.json()) as { status: string; info: Record<string, { status: string }> };
    assert.equal(report.status, 'ok');
    assert.deepEqual(Object.keys(report.info).sort(), ['database', 'redis', 'storage']);
  });

  test('/health/ready is 503 naming what is down, without its address, while /health/live still answers', async () =>
    withFaultsExpected(async () => {
      const down = await startSendApiServer({
        QUEUE_PREFIX: prefix,
        REDIS_URL: 'redis://127.0.0.1:6392',
        DATABASE_URL: 'postgresql://secret-user:secret@127.0.0.1:1/secret-db',
      });
      try {
        assert.equal((await fetch(`${down.url}/health/live`)).status, 200);
        const ready = await fetch(`${down.url}/health/ready`);
        assert.equal(ready.status, 503);
        const text = await ready.text();
        const report = JSON.parse(text) as { status: string; error: Record<string, { status: string }>; info: Record<string, unknown> };
        assert.equal(report.status, 'error');
        assert.deepEqual(Object.keys(report.error).sort(), ['database', 'redis']);
        assert.deepEqual(Object.keys(report.info), ['storage']);
        assert.doesNotMatch(text, /secret|127\.0\.0\.1|ECONNREFUSED|6392/);
      } finally {
        await down.close();
      }
    }));

  test('/metrics, on the ops port only, has request durations by route template, queue depths and the database pool', async () => {
    await fetch(`${api.url}/v2/mails/send/123456`, { headers: { authorization: `Bearer ${accessTokenFor(user)}` } });
    const publicPort = await fetch(`${api.url}/metrics`);
    assert.equal(publicPort.status, 404, 'the public port answers no metrics');
    await publicPort.arrayBuffer();
    assert.equal((await fetch(`${api.opsUrl}/health/ready`)).status, 200);
    const metrics = await (await fetch(`${api.opsUrl}/metrics`)).text();
    assert.match(metrics, /http_request_duration_seconds_count\{[^}]*route="\/v2\/mails\/send\/:id"[^}]*status_code="404"/);
    assert.match(metrics, /letterbox_queue_jobs\{[^}]*queue="mail-delivery"[^}]*state="waiting"/);
    assert.match(metrics, /letterbox_db_pool_connections\{[^}]*state="total"/);
    assert.match(metrics, /process_cpu_seconds_total/);
  });
});
