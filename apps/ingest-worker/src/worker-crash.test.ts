import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import type { JobQueues } from '@letterbox/queue';
import {
  type AppProcess,
  createTestUser,
  inboxOf,
  type RunningIngestServer,
  startIngestProcess,
  startIngestWorkerProcess,
  testDatabase,
  testQueuePrefix,
  testQueues,
  waitFor,
} from '@letterbox/testing';

const MESSAGES = 1000;

describe('an ingest worker killed in the middle of a batch', () => {
  const queuePrefix = testQueuePrefix();
  const workerEnv = { QUEUE_PREFIX: queuePrefix, INGEST_LOCK_MS: '1500', INGEST_BATCH_SIZE: '100' };
  let db: Database;
  let ingest: RunningIngestServer;
  let queues: JobQueues;
  const workers: AppProcess[] = [];

  before(async () => {
    db = testDatabase();
    ingest = await startIngestProcess({ QUEUE_PREFIX: queuePrefix });
    queues = testQueues(queuePrefix);
  });

  after(async () => {
    for (const worker of workers) await worker.stop('SIGKILL');
    await queues?.close();
    await ingest?.close();
    await db?.close();
  });

  test(`loses nothing and duplicates nothing: after restarts, each of ${MESSAGES} messages is stored and announced exactly once`, async () => {
    const user = await createTestUser(db, 'crash');
    const messageIds = Array.from({ length: MESSAGES }, (_, index) => `<crash-${index}@${user.domain}>`);
    const answers = await Promise.all(
      messageIds.map((messageId, index) =>
        ingest.post(`From: news@example.org\r\nTo: ${user.email}\r\nSubject: crash ${index}\r\nMessage-ID: ${messageId}\r\n\r\nbody ${index}\r\n`, {
          to: [user.email],
        }),
      ),
    );
    assert.deepEqual(
      answers.filter((answer) => answer.status !== 202),
      [],
    );

    // Two crashes while batches are being stored, each as soon as the previous worker has made progress.
    let storedAtLastKill = 0;
    for (let crash = 0; crash < 2; crash += 1) {
      const worker = await startIngestWorkerProcess(workerEnv);
      workers.push(worker);
      const progress = await waitFor(
        async () => {
          const { total } = await inboxOf(db, user.id);
          return total > storedAtLastKill ? total : undefined;
        },
        { what: 'the worker to store something', intervalMs: 10 },
      );
      await worker.stop('SIGKILL');
      storedAtLastKill = (await inboxOf(db, user.id)).total;
      assert.ok(progress < MESSAGES, `the kill came after every message was stored (${progress})`);
    }
    assert.ok(storedAtLastKill < MESSAGES, 'some messages were left for the last worker');

    workers.push(await startIngestWorkerProcess(workerEnv));
    const inbox = await waitFor(async () => ((await inboxOf(db, user.id)).total >= MESSAGES ? inboxOf(db, user.id) : undefined), {
      what: 'every message to be stored',
      timeoutMs: 60_000,
    });
    const queue = queues.all().find((candidate) => candidate.name === 'mail-ingest')!;
    await waitFor(async () => (await queue.getJobCountByTypes('active', 'waiting', 'delayed', 'prioritized')) === 0, { what: 'the ingest queue to drain' });
    assert.equal((await queue.getJobCounts('failed')).failed, 0);
    const recovered = (await queue.getCompleted(0, MESSAGES)).filter((job) => job.stalledCounter > 0);
    assert.ok(recovered.length > 0, 'some jobs were in a batch a kill interrupted, and were taken over');

    const final = await inboxOf(db, user.id);
    assert.equal(final.total, MESSAGES);
    assert.equal(final.unread, MESSAGES);
    assert.deepEqual(
      messageIds.filter((messageId) => final.messageIds.get(messageId) !== 1),
      [],
    );
    assert.equal(inbox.messageIds.size, MESSAGES);

    const { rows } = await db.sql.query<{ id: string }>('SELECT id FROM mails WHERE user_id = $1', [user.id]);
    const unannounced: string[] = [];
    for (const { id } of rows) {
      if (!(await queues.has('notify-new-mail', { userId: user.id, mailId: Number(id), from: '', subject: '' }))) unannounced.push(id);
    }
    assert.deepEqual(unannounced, []);
  });
});
