import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import { Queue } from 'bullmq';
import { loadConfig, redisConfig } from '@letterbox/config';
import type { Database } from '@letterbox/db';
import {
  type AppProcess,
  createTestUser,
  type RunningIngestServer,
  startIngestWorkerProcess,
  TEST_INGEST_TOKEN,
  testDatabase,
  testQueuePrefix,
  type TestUser,
  waitFor,
} from '@letterbox/testing';
import { startIngestServer } from '../testing/ingest-server';

describe('an incoming mail followed by its request id', () => {
  const prefix = testQueuePrefix();
  let db: Database;
  let ingest: RunningIngestServer;
  let worker: AppProcess;
  let notifications: Queue;
  let alice: TestUser;

  before(async () => {
    db = testDatabase();
    ingest = await startIngestServer({ QUEUE_PREFIX: prefix });
    worker = await startIngestWorkerProcess({ QUEUE_PREFIX: prefix });
    notifications = new Queue('push-notify', { connection: { url: loadConfig(redisConfig).REDIS_URL }, prefix });
    alice = await createTestUser(db, 'alice');
  });

  after(async () => {
    await worker?.stop();
    await ingest?.close();
    await notifications?.close();
    await db?.close();
  });

  test('from POST /v2/inbound through the ingest job, batched with others, to the push it queues', async () => {
    const requestIds = [`gateway-${randomUUID()}`, `gateway-${randomUUID()}`];
    const answers = await Promise.all(
      requestIds.map((requestId, index) =>
        fetch(`${ingest.url}/v2/inbound?to=${encodeURIComponent(alice.email)}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${TEST_INGEST_TOKEN}`, 'content-type': 'message/rfc822', 'x-request-id': requestId },
          body: `From: someone@example.org\r\nTo: ${alice.email}\r\nSubject: traced ${index}\r\nMessage-ID: <${requestId}@example.org>\r\n\r\nhello\r\n`,
        }),
      ),
    );
    assert.deepEqual(
      answers.map((answer) => [answer.status, answer.headers.get('x-request-id')]),
      requestIds.map((requestId) => [202, requestId]),
    );
    for (const [index, requestId] of requestIds.entries()) {
      const job = await waitFor(
        async () =>
          (await notifications.getJobs(['waiting', 'delayed', 'active', 'completed', 'failed'])).find(
            (candidate) => candidate.data.subject === `traced ${index}`,
          ),
        { what: `the push of mail ${index}` },
      );
      assert.equal(job.data.requestId, requestId);
      assert.equal(job.data.userId, alice.id);
    }
  });
});
