import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { BulkChanges, BulkChangeSlices, StartBulkChange, storeMail, type BulkChangeView } from '@letterbox/mail';
import { randomMail } from '@letterbox/mail-generator';
import type { JobQueues, RunningWorker } from '@letterbox/queue';
import {
  type AppProcess,
  createTestUser,
  startIngestWorkerProcess,
  testBlobStore,
  testDatabase,
  testQueuePrefix,
  testQueues,
  type TestUser,
  waitFor,
} from '@letterbox/testing';
import { loadIngestWorkerConfig } from './ingest-worker.config';
import { startIngestWorker } from './start-ingest-worker';

/**
 * A change over a filter (POST /v2/mails/bulk with `filter`) is recorded by the API and
 * worked through by the ingest worker's bulk-change job, slice by slice, each slice its own
 * transaction. Slice sizes here are tiny, so a few hundred mails make many slices.
 */
describe('bulk changes in slices', () => {
  const queuePrefix = testQueuePrefix();
  const blobs = testBlobStore();
  let db: Database;
  let queues: JobQueues;
  let changes: BulkChanges;
  let starts: StartBulkChange;
  let user: TestUser;
  const workers: RunningWorker[] = [];
  const processes: AppProcess[] = [];

  before(async () => {
    db = testDatabase();
    queues = testQueues(queuePrefix);
    changes = new BulkChanges(db.sql);
    starts = new StartBulkChange(db.sql, changes, queues);
    user = await createTestUser(db, 'slices');
  });

  after(async () => {
    for (const worker of workers) await worker.close();
    for (const running of processes) await running.stop('SIGKILL');
    await queues?.close();
    await db?.close();
  });

  // Every worker of the queue, in process or not, has the crash test's short lock: the queue's
  // stalled-job check runs at most once per interval of whichever worker ran it last, so one
  // worker with the default 30 s would keep the crashed worker's job locked out for that long.
  const LOCK_MS = '1500';
  const startWorker = async (sliceSize: number) => {
    const worker = await startIngestWorker(
      loadIngestWorkerConfig({ ...process.env, QUEUE_PREFIX: queuePrefix, BULK_CHANGE_SLICE_SIZE: String(sliceSize), INGEST_LOCK_MS: LOCK_MS }),
    );
    workers.push(worker);
    return worker;
  };

  /** `count` unread mails in a new folder, one second apart, the newest first in list order. */
  async function folderWithMails(name: string, count: number): Promise<{ folder: number; ids: number[] }> {
    const { rows: made } = await db.sql.query<{ id: number }>("INSERT INTO mailboxes (user_id, name, role) VALUES ($1, $2, 'custom') RETURNING id", [
      user.id,
      name,
    ]);
    const folder = made[0].id;
    const template = await storeMail(db, blobs, { userId: user.id, mailboxId: folder, eml: await randomMail(count, {}) });
    const { rows } = await db.sql.query<{ id: string }>(
      `WITH ids AS (SELECT g, nextval(pg_get_serial_sequence('mails', 'id')) AS id FROM generate_series(2, $2::int) g)
       INSERT INTO mails (id, thread_id, user_id, mailbox_id, message_id, from_address, subject, received_at, size, storage_key, layout)
       SELECT ids.id, ids.id, t.user_id, t.mailbox_id, '<slice-' || ids.id || '@x>', t.from_address, t.subject,
              t.received_at - g * interval '1 second', t.size, t.storage_key, t.layout
         FROM ids, mails t WHERE t.id = $1 RETURNING id`,
      [template.id, count],
    );
    return { folder, ids: [template.id, ...rows.map((row) => Number(row.id))] };
  }

  const counters = async (mailboxId: number) => {
    const { rows } = await db.sql.query<{ total_count: number; unread_count: number }>('SELECT total_count, unread_count FROM mailboxes WHERE id = $1', [
      mailboxId,
    ]);
    return { total: rows[0].total_count, unread: rows[0].unread_count };
  };
  const finished = (changeId: number) =>
    waitFor(
      async () => {
        const change = await changes.view(user.id, changeId);
        return change.status === 'done' || change.status === 'failed' ? change : undefined;
      },
      { what: `bulk change ${changeId} to finish`, timeoutMs: 30_000, intervalMs: 20 },
    );

  test('each slice is its own transaction: slices before a mail locked by another change commit while it waits, and the change ends once it is free', async () => {
    const { folder, ids } = await folderWithMails('Slices', 300);
    await startWorker(20);
    // Another request's change of one mail, in the middle of the list, holds its row lock. Not of a
    // flag IMAP shows or the counters count: those hold the mailbox's row too until they commit.
    const blocker = await db.sql.connect();
    try {
      await blocker.query('BEGIN');
      await blocker.query('UPDATE mails SET important = true WHERE id = $1', [ids[150]]);
      const change = await starts.start(user.id, { mailboxId: folder, seen: false }, { changes: { seen: true } });
      assert.equal(change.status, 'queued');
      assert.equal(change.total, 300, 'the folder counters tell about how many');
      const progress = await waitFor(
        async () => {
          const view = await changes.view(user.id, change.id);
          return view.done >= 140 ? view : undefined;
        },
        { what: 'the slices before the locked mail to commit', intervalMs: 20 },
      );
      assert.equal(progress.status, 'running');
      assert.ok(progress.done <= 160, `no slice past the locked mail committed (${progress.done})`);
      assert.equal((await counters(folder)).unread, 300 - progress.done, 'what committed is counted already');
      await blocker.query('COMMIT');
      const done = await finished(change.id);
      assert.equal(done.status, 'done');
      assert.equal(done.done, 300);
      assert.ok(done.startedAt && done.finishedAt);
      assert.deepEqual(await counters(folder), { total: 300, unread: 0 });
    } finally {
      blocker.release();
    }
  });

  test('a change stopped after some slices resumes where it stopped: every mail is changed exactly once', async () => {
    const { folder, ids } = await folderWithMails('Resumed', 95);
    const { rows } = await db.sql.query<{ id: number }>("SELECT id FROM mailboxes WHERE user_id = $1 AND role = 'inbox'", [user.id]);
    const inbox = rows[0].id;
    const inboxBefore = await counters(inbox);
    const change = await changes.record({
      userId: user.id,
      queuePrefix: 'not-queued',
      action: { changes: { mailboxId: inbox } },
      filter: { mailboxId: folder },
      bound: null,
    });
    assert.equal(change.status, 'done', 'with no bound (no mail), there is nothing to do');
    const { rows: bound } = await db.sql.query<{ id: string; received_at: Date }>('SELECT id, received_at FROM mails WHERE id = $1', [ids[0]]);
    const recorded = await changes.record({
      userId: user.id,
      queuePrefix: 'not-queued',
      action: { changes: { mailboxId: inbox } },
      filter: { mailboxId: folder },
      bound: { receivedAt: bound[0].received_at, id: Number(bound[0].id) },
    });
    const moved: number[] = [];
    const first = new BulkChangeSlices(db.sql, changes, 10);
    for (let slice = 0; slice < 4; slice += 1) moved.push(...(await first.next(recorded.id)).updated);
    assert.equal((await changes.view(user.id, recorded.id)).done, 40);
    // Another worker takes the change up from its stored cursor.
    const second = new BulkChangeSlices(db.sql, changes, 10);
    for (;;) {
      const slice = await second.next(recorded.id);
      moved.push(...slice.updated);
      if (slice.finished) break;
    }
    assert.equal(new Set(moved).size, moved.length, 'no mail was changed twice');
    assert.deepEqual(
      [...moved].sort((a, b) => a - b),
      [...ids].sort((a, b) => a - b),
    );
    const view = await changes.view(user.id, recorded.id);
    assert.equal(view.status, 'done');
    assert.equal(view.done, 95);
    assert.deepEqual(await counters(folder), { total: 0, unread: 0 });
    assert.deepEqual(await counters(inbox), { total: inboxBefore.total + 95, unread: inboxBefore.unread + 95 });
    assert.deepEqual((await second.next(recorded.id)).updated, [], 'a finished change does nothing more');
  });

  test('a worker killed in the middle of a change: the next worker finishes it from the last committed slice', async () => {
    for (const worker of workers.splice(0)) await worker.close();
    const { folder } = await folderWithMails('Crash', 400);
    const env = { QUEUE_PREFIX: queuePrefix, BULK_CHANGE_SLICE_SIZE: '5', INGEST_LOCK_MS: LOCK_MS };
    const doomed = await startIngestWorkerProcess(env);
    processes.push(doomed);
    const change = await starts.start(user.id, { mailboxId: folder }, { changes: { flagged: true } });
    await waitFor(async () => (await changes.view(user.id, change.id)).done > 0 || undefined, { what: 'the first slices', intervalMs: 10 });
    await doomed.stop('SIGKILL');
    const atCrash = await changes.view(user.id, change.id);
    assert.ok(atCrash.done < 400, `the kill came before the end (${atCrash.done})`);
    processes.push(await startIngestWorkerProcess(env));
    const done = await finished(change.id);
    assert.equal(done.status, 'done');
    assert.equal(done.done, 400);
    const { rows } = await db.sql.query<{ flagged: number }>('SELECT count(*) FILTER (WHERE flagged)::int AS flagged FROM mails WHERE mailbox_id = $1', [
      folder,
    ]);
    assert.equal(rows[0].flagged, 400);
  });

  test('a change whose job Redis lost is queued again by the sweep and done', async () => {
    const { folder } = await folderWithMails('Swept', 40);
    const worker = await startWorker(10);
    const lost = await changes.record({
      userId: user.id,
      queuePrefix,
      action: { changes: { important: true } },
      filter: { mailboxId: folder },
      bound: await db.sql
        .query<{ id: string; received_at: Date }>('SELECT id, received_at FROM mails WHERE user_id = $1 ORDER BY received_at DESC, id DESC LIMIT 1', [user.id])
        .then(({ rows }) => ({ receivedAt: rows[0].received_at, id: Number(rows[0].id) })),
    });
    assert.equal(await starts.sweep(), 0, 'a change just recorded is left to its request');
    await db.sql.query("UPDATE bulk_changes SET updated_at = now() - interval '2 minutes' WHERE id = $1", [lost.id]);
    assert.equal(await starts.sweep(), 1);
    const done = await finished(lost.id);
    assert.equal(done.status, 'done');
    assert.equal(done.done, 40);
    await worker.close();
    workers.splice(workers.indexOf(worker), 1);
  });

  test('mail that arrives after the change started is left alone', async () => {
    const { folder, ids } = await folderWithMails('Bounded', 30);
    const change = await changes.record({
      userId: user.id,
      queuePrefix: 'not-queued',
      action: { changes: { seen: true } },
      filter: { mailboxId: folder },
      bound: await db.sql
        .query<{ id: string; received_at: Date }>('SELECT id, received_at FROM mails WHERE user_id = $1 ORDER BY received_at DESC, id DESC LIMIT 1', [user.id])
        .then(({ rows }) => ({ receivedAt: rows[0].received_at, id: Number(rows[0].id) })),
    });
    const late = await storeMail(db, blobs, { userId: user.id, mailboxId: folder, eml: await randomMail(7, {}) });
    await db.sql.query("UPDATE mails SET received_at = now() + interval '1 minute' WHERE id = $1", [late.id]);
    const slices = new BulkChangeSlices(db.sql, changes, 1000);
    const slice = await slices.next(change.id);
    assert.equal(slice.finished, true);
    assert.deepEqual(
      [...slice.updated].sort((a, b) => a - b),
      [...ids].sort((a, b) => a - b),
    );
    assert.deepEqual(await counters(folder), { total: 31, unread: 1 });
    assert.ok(!slice.updated.includes(late.id));
  });

  test('a change whose target folder is deleted midway fails with the reason; the slices before it stay', async () => {
    const { folder } = await folderWithMails('Source', 50);
    const { rows } = await db.sql.query<{ id: number }>("INSERT INTO mailboxes (user_id, name, role) VALUES ($1, 'Target', 'custom') RETURNING id", [user.id]);
    const target = rows[0].id;
    const change = await changes.record({
      userId: user.id,
      queuePrefix: 'not-queued',
      action: { changes: { mailboxId: target } },
      filter: { mailboxId: folder },
      bound: await db.sql
        .query<{ id: string; received_at: Date }>('SELECT id, received_at FROM mails WHERE user_id = $1 ORDER BY received_at DESC, id DESC LIMIT 1', [user.id])
        .then(({ rows: newest }) => ({ receivedAt: newest[0].received_at, id: Number(newest[0].id) })),
    });
    const slices = new BulkChangeSlices(db.sql, changes, 10);
    await slices.next(change.id);
    await db.sql.query("UPDATE mails SET mailbox_id = (SELECT id FROM mailboxes WHERE user_id = $1 AND role = 'trash') WHERE mailbox_id = $2", [
      user.id,
      target,
    ]);
    await db.sql.query('DELETE FROM mailboxes WHERE id = $1', [target]);
    await assert.rejects(slices.next(change.id), /mailbox \d+ (was deleted|does not exist)/);
    const worker = await startWorker(10);
    await queues.enqueue('bulk-change', { changeId: change.id, userId: user.id });
    const failed: BulkChangeView = await finished(change.id);
    assert.equal(failed.status, 'failed');
    assert.match(failed.error ?? '', new RegExp(`mailbox ${target}`));
    assert.equal(failed.done, 10);
    assert.equal((await counters(folder)).total, 40);
    await worker.close();
    workers.splice(workers.indexOf(worker), 1);
  });
});
