import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { storageConfig } from '@letterbox/config';
import type { Database } from '@letterbox/db';
import { spoolFolderOf } from '@letterbox/ingest';
import type { InboundMessageJob, JobQueues } from '@letterbox/queue';
import {
  createTestUser,
  inboxOf,
  type RunningIngestServer,
  startIngestWorkerProcess,
  testDatabase,
  testQueuePrefix,
  testQueues,
  type TestUser,
  waitFor,
} from '@letterbox/testing';
import { startIngestServer } from '../testing/ingest-server';

describe('acceptances recorded in PostgreSQL and queued in groups', () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let ingest: RunningIngestServer;
  let queues: JobQueues;
  let alice: TestUser;

  before(async () => {
    db = testDatabase();
    ingest = await startIngestServer({ QUEUE_PREFIX: queuePrefix });
    queues = testQueues(queuePrefix);
    alice = await createTestUser(db, 'alice');
  });

  after(async () => {
    await queues?.close();
    await ingest?.close();
    await db?.close();
  });

  const raw = (messageId: string) => `From: a@example.org\r\nTo: ${alice.email}\r\nSubject: kept\r\nMessage-ID: ${messageId}\r\n\r\nhello\r\n`;

  async function acceptance(inboundId: string): Promise<{ payload: InboundMessageJob; groupId: string | null } | undefined> {
    const { rows } = await db.sql.query<{ payload: InboundMessageJob; groupId: string | null }>(
      'SELECT payload, group_id AS "groupId" FROM inbound_acceptances WHERE inbound_id = $1',
      [inboundId],
    );
    return rows[0];
  }

  /** Flips one byte of a spooled message, so its bytes no longer match its storage key; again to put it back. */
  async function flipSpooledByte(payload: InboundMessageJob): Promise<void> {
    const spooled = payload.spooled!;
    const file = await open(path.join(spoolFolderOf(storageConfig.STORAGE_DIR.parse(process.env.STORAGE_DIR)), spooled.file), 'r+');
    try {
      const position = spooled.offset + payload.size - 3;
      const byte = Buffer.alloc(1);
      await file.read(byte, 0, 1, position);
      byte[0] ^= 0x01;
      await file.write(byte, 0, 1, position);
    } finally {
      await file.close();
    }
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

  test('a message whose group job Redis lost is queued again by the sweep, in a job of its own, and stored once; its acceptance is then forgotten', async () => {
    const messageId = `<lost-${randomUUID()}@example.org>`;
    const { status, body } = await ingest.post(raw(messageId));
    assert.equal(status, 202);
    const inboundId = body.inboundId as string;
    const recorded = await acceptance(inboundId);
    assert.ok(recorded?.groupId, 'recorded before the 202, with its group');
    const group = { groupId: recorded.groupId, messages: [] };
    assert.equal(await queues.has('ingest-mails', group), true, "queued as its group's job");
    await queues.remove('ingest-mails', group);
    assert.equal(await queues.has('ingest-mails', group), false, 'Redis lost the job');
    await db.sql.query("UPDATE inbound_acceptances SET accepted_at = accepted_at - interval '2 minutes' WHERE inbound_id = $1", [inboundId]);
    const worker = await startIngestWorkerProcess({ QUEUE_PREFIX: queuePrefix, INGEST_SWEEP_MS: '100' });
    try {
      await waitFor(async () => (await inboxOf(db, alice.id)).messageIds.get(messageId) === 1, { what: 'the lost message in the inbox' });
      await waitFor(async () => (await acceptance(inboundId)) === undefined, { what: 'the acceptance forgotten' });
      assert.equal((await inboxOf(db, alice.id)).messageIds.get(messageId), 1);
      assert.equal(await queues.has('ingest-mail', recorded.payload), true, 'queued again on its own');
    } finally {
      await worker.stop();
    }
  });

  test('a message that fails in its group is split out into a job of its own: the rest of the group is stored, and it is once it can be read', async () => {
    const messageIds = Array.from({ length: 12 }, () => `<grouped-${randomUUID()}@example.org>`);
    const answers = await Promise.all(messageIds.map((messageId) => ingest.post(raw(messageId))));
    assert.ok(answers.every((answer) => answer.status === 202));
    const recorded = await Promise.all(answers.map(async (answer) => (await acceptance(answer.body.inboundId as string))!));
    const byGroup = new Map<string | null, typeof recorded>();
    for (const row of recorded) byGroup.set(row.groupId, [...(byGroup.get(row.groupId) ?? []), row]);
    const largest = [...byGroup.values()].sort((a, b) => b.length - a.length)[0];
    assert.ok(largest.length > 1, `${messageIds.length} messages accepted together share a group`);
    const [bad, ...rest] = largest;
    await flipSpooledByte(bad.payload);

    const worker = await startIngestWorkerProcess({ QUEUE_PREFIX: queuePrefix });
    try {
      const stored = (inbox: Awaited<ReturnType<typeof inboxOf>>, row: { payload: InboundMessageJob }) => inbox.messageIds.get(row.payload.messageId) === 1;
      await waitFor(async () => rest.every(stored.bind(null, await inboxOf(db, alice.id))), { what: 'the rest of its group stored' });
      // Split out by two writes, the acceptance's group cleared and then its own job queued: both are awaited.
      await waitFor(async () => (await acceptance(bad.payload.inboundId))?.groupId === null && (await queues.has('ingest-mail', bad.payload)), {
        what: 'the bad message split out of its group',
      });
      assert.equal(await queues.has('ingest-mail', bad.payload), true, 'in a job of its own');
      assert.equal((await inboxOf(db, alice.id)).messageIds.get(bad.payload.messageId), undefined, 'not stored while unreadable');

      await flipSpooledByte(bad.payload);
      await waitFor(async () => (await inboxOf(db, alice.id)).messageIds.get(bad.payload.messageId) === 1, {
        what: 'the split-out message stored',
        timeoutMs: 30_000,
      });
      await waitFor(async () => (await acceptance(bad.payload.inboundId)) === undefined, { what: 'its acceptance forgotten' });
      const inbox = await inboxOf(db, alice.id);
      assert.deepEqual(
        messageIds.filter((messageId) => inbox.messageIds.get(messageId) !== 1),
        [],
        'every message of the burst stored once',
      );
    } finally {
      await worker.stop();
    }
  });
});
