import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import type { JobPayloads, JobQueues } from '@letterbox/queue';
import { type AppProcess, createTestUser, inboxOf, type RunningIngestServer, startIngestWorkerProcess, testDatabase, testQueuePrefix, testQueues, type TestUser, waitFor } from '@letterbox/testing';
import { startIngestServer } from '../testing/ingest-server';

describe('acceptances recorded in PostgreSQL', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let ingest: RunningIngestServer;
  let queues: JobQueues;
  let worker: AppProcess | undefined;
  let alice: TestUser;

  before(async () => {
    db = testDatabase();
    ingest = await startIngestServer({ QUEUE_PREFIX: queuePrefix });
    queues = testQueues(queuePrefix);
    alice = await createTestUser(db, 'alice');
  });

  after(async () => {
    await worker?.stop();
    await queues?.close();
    await ingest?.close();
    await db?.close();
  });

  const raw = (messageId: string) => `From: a@example.org\r\nTo: ${alice.email}\r\nSubject: kept\r\nMessage-ID: ${messageId}\r\n\r\nhello\r\n`;

  async function acceptance(inboundId: string): Promise<{ payload: JobPayloads['ingest-mail'] } | undefined> {
    const { rows } = await db.sql.query<{ payload: JobPayloads['ingest-mail'] }>('SELECT payload FROM inbound_acceptances WHERE inbound_id = $1', [inboundId]);
    return rows[0];
  }

  test('acceptances arriving together are committed together, each before its 202', async () => {
    const answers = await Promise.all(Array.from({ length: 30 }, () => ingest.post(raw(`<burst-${randomUUID()}@example.org>`))));
    assert.ok(answers.every((answer) => answer.status === 202));
    const ids = answers.map((answer) => answer.body.inboundId as string);
    const { rows } = await db.sql.query<{ rows: number; commits: number }>(
      'SELECT count(*)::int AS rows, count(DISTINCT accepted_at)::int AS commits FROM inbound_acceptances WHERE inbound_id = ANY($1::uuid[])',
      [ids],
    );
    assert.equal(rows[0].rows, 30);
    // Rows of one statement share its transaction's now().
    assert.ok(rows[0].commits < 30, `${rows[0].commits} commits for 30 acceptances`);
  });

  test('a message whose job Redis lost is queued again by the sweep and stored once; its acceptance is then forgotten', async () => {
    const messageId = `<lost-${randomUUID()}@example.org>`;
    const { status, body } = await ingest.post(raw(messageId));
    assert.equal(status, 202);
    const inboundId = body.inboundId as string;
    const recorded = await acceptance(inboundId);
    assert.ok(recorded, 'recorded before the 202');
    await queues.remove('ingest-mail', recorded.payload);
    assert.equal(await queues.has('ingest-mail', recorded.payload), false, 'Redis lost the job');
    await db.sql.query("UPDATE inbound_acceptances SET accepted_at = accepted_at - interval '2 minutes' WHERE inbound_id = $1", [inboundId]);
    worker = await startIngestWorkerProcess({ QUEUE_PREFIX: queuePrefix, INGEST_SWEEP_MS: '100' });
    await waitFor(async () => (await inboxOf(db, alice.id)).messageIds.get(messageId) === 1, { what: 'the lost message in the inbox' });
    await waitFor(async () => (await acceptance(inboundId)) === undefined, { what: 'the acceptance forgotten' });
    assert.equal((await inboxOf(db, alice.id)).messageIds.get(messageId), 1);
  });
});
