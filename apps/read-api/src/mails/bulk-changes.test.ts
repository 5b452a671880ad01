import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { storeMail, type MailboxView } from '@letterbox/mail';
import { randomMail } from '@letterbox/mail-generator';
import {
  type AppProcess,
  createTestUser,
  openEventStream,
  type SseConnection,
  startIngestWorkerProcess,
  testBlobStore,
  testDatabase,
  testQueuePrefix,
  type TestUser,
  waitFor,
} from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

const PROBLEM_JSON = 'application/problem+json; charset=utf-8';

describe('bulk changes: listed mails in one statement, a filter in slices by the ingest worker', () => {
  const blobs = testBlobStore();
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let api: RunningApi;
  let worker: AppProcess;
  let user: TestUser;
  let other: TestUser;
  let token: string;
  let events: SseConnection;

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'bulk');
    other = await createTestUser(db, 'bulk-other');
    api = await startReadApiServer({ QUEUE_PREFIX: queuePrefix });
    worker = await startIngestWorkerProcess({ QUEUE_PREFIX: queuePrefix });
    token = await api.login(user.email, user.password);
    events = await openEventStream(`${api.url}/v2/events`, { authorization: `Bearer ${token}` });
    assert.equal(events.status, 200);
  });

  after(async () => {
    events?.close();
    await worker?.stop();
    await api?.close();
    await db?.close();
  });

  const call = async (method: string, path: string, body?: object, bearer = token) => {
    const response = await fetch(`${api.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${bearer}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return {
      status: response.status,
      type: response.headers.get('content-type'),
      location: response.headers.get('location'),
      body: (await response.json()) as Record<string, unknown>,
    };
  };
  const finished = (location: string) =>
    waitFor(
      async () => {
        const answer = await call('GET', location);
        return answer.body.status === 'done' || answer.body.status === 'failed' ? answer.body : undefined;
      },
      { what: `${location} to finish`, intervalMs: 20 },
    );
  const bulk = (body: object) => call('POST', '/v2/mails/bulk', body);
  const counts = async (mailboxId: number) => {
    const items = (await call('GET', '/v2/mailboxes')).body.items as MailboxView[];
    const mailbox = items.find((item) => item.id === mailboxId);
    return { total: mailbox?.totalCount, unread: mailbox?.unreadCount };
  };
  const nextEvent = async (): Promise<Record<string, unknown>> => {
    const event = await events.next();
    return { type: event.event, ...(JSON.parse(event.data) as Record<string, unknown>) };
  };

  /** `count` unread copies of one stored mail in `mailboxId`, each its own conversation. */
  async function mails(count: number, mailboxId: number, owner = user): Promise<number[]> {
    const template = await storeMail(db, blobs, { userId: owner.id, mailboxId, eml: await randomMail(8800 + count, {}) });
    const { rows } = await db.sql.query<{ id: string }>(
      `WITH ids AS (SELECT nextval(pg_get_serial_sequence('mails', 'id')) AS id FROM generate_series(2, $2::int))
       INSERT INTO mails (id, thread_id, user_id, mailbox_id, message_id, from_address, subject, received_at, size, storage_key, layout)
       SELECT ids.id, ids.id, t.user_id, t.mailbox_id, '<bulk-' || ids.id || '@x>', t.from_address, t.subject, t.received_at, t.size, t.storage_key, t.layout
         FROM ids, mails t WHERE t.id = $1 RETURNING id`,
      [template.id, count],
    );
    return [template.id, ...rows.map((row) => Number(row.id))];
  }

  test('listed mails are marked read at once; the counters follow; one event names them', async () => {
    const ids = await mails(20, user.mailboxes.inbox);
    const before = await counts(user.mailboxes.inbox);
    const answer = await bulk({ ids: ids.slice(0, 15), seen: true, flagged: true });
    assert.equal(answer.status, 200, JSON.stringify(answer.body));
    assert.deepEqual(answer.body, { updated: 15, deleted: 0 });
    assert.deepEqual(await counts(user.mailboxes.inbox), { total: before.total, unread: (before.unread ?? 0) - 15 });
    const event = await nextEvent();
    assert.equal(event.type, 'mail.updated');
    assert.deepEqual(
      [...(event.mailIds as number[])].sort((a, b) => a - b),
      ids.slice(0, 15),
    );
    assert.deepEqual(event.changes, { seen: true, flagged: true });
    assert.deepEqual((await bulk({ ids: ids.slice(0, 15), seen: true })).body, { updated: 0, deleted: 0 }, 'mail already read is not counted');
  });

  test('"mark every mail in this folder read" takes a filter and any number of mails: 202, a change to follow, one coarse event per slice', async () => {
    const folder = (await call('POST', '/v2/mailboxes', { name: 'Newsletters' })).body.id as number;
    assert.equal((await nextEvent()).type, 'mailbox.changed');
    await mails(1500, folder);
    assert.deepEqual(await counts(folder), { total: 1500, unread: 1500 });
    const answer = await bulk({ filter: { mailboxId: folder, seen: false }, seen: true });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    const id = answer.body.id as number;
    assert.equal(answer.location, `/v2/mails/bulk/${id}`);
    assert.equal(answer.body.status, 'queued');
    assert.equal(answer.body.total, 1500);
    const done = await finished(answer.location ?? '');
    assert.deepEqual(
      { ...done, startedAt: typeof done.startedAt, finishedAt: typeof done.finishedAt },
      { id, status: 'done', done: 1500, total: 1500, startedAt: 'string', finishedAt: 'string' },
    );
    assert.deepEqual(await counts(folder), { total: 1500, unread: 0 });
    assert.deepEqual(await nextEvent(), { type: 'mails.changed', count: 1500, changes: { seen: true }, deleted: false });
  });

  test("another user's change is not found; an id that is not one is a 400", async () => {
    const answer = await bulk({ filter: { subject: 'no mail has this subject' }, important: true });
    assert.equal(answer.status, 202);
    const theirs = await api.login(other.email, other.password);
    const refused = await call('GET', answer.location ?? '', undefined, theirs);
    assert.equal(refused.status, 404);
    assert.equal(refused.type, PROBLEM_JSON);
    assert.match(String(refused.body.detail), /bulk change \d+ does not exist/);
    assert.equal((await call('GET', '/v2/mails/bulk/nine')).status, 400);
    await finished(answer.location ?? '');
  });

  test('a filter with a lone surrogate is kept as the replacement character it matched with before', async () => {
    const answer = await bulk({ filter: { from: 'a\ud800b', subject: '\udc00' }, flagged: true });
    assert.equal(answer.status, 202, JSON.stringify(answer.body));
    assert.equal((await finished(answer.location ?? '')).status, 'done');
    const { rows } = await db.sql.query<{ filter: object }>('SELECT filter FROM bulk_changes WHERE id = $1', [answer.body.id]);
    assert.deepEqual(rows[0].filter, { from: 'a\ufffdb', subject: '\ufffd' });
  });

  test('mails move to a folder; delete sends them to the trash and, from the trash, away for good', async () => {
    const ids = await mails(6, user.mailboxes.inbox);
    const folder = (await call('POST', '/v2/mailboxes', { name: 'Archive' })).body.id as number;
    await nextEvent();
    assert.deepEqual((await bulk({ ids: ids.slice(0, 4), mailboxId: folder })).body, { updated: 4, deleted: 0 });
    assert.deepEqual(await counts(folder), { total: 4, unread: 4 });
    assert.deepEqual((await nextEvent()).changes, { mailboxId: folder });

    await db.sql.query('UPDATE mails SET mailbox_id = $1 WHERE id = $2', [user.mailboxes.trash, ids[5]]);
    const trashBefore = await counts(user.mailboxes.trash);
    assert.deepEqual((await bulk({ ids: [ids[0], ids[4], ids[5]], delete: true })).body, { updated: 2, deleted: 1 });
    assert.deepEqual(await counts(user.mailboxes.trash), { total: (trashBefore.total ?? 0) + 1, unread: (trashBefore.unread ?? 0) + 1 });
    assert.deepEqual(await counts(folder), { total: 3, unread: 3 });
    assert.deepEqual(await nextEvent(), {
      type: 'mail.updated',
      mailIds: [ids[0], ids[4]].sort((a, b) => a - b),
      changes: { mailboxId: user.mailboxes.trash },
    });
    assert.deepEqual(await nextEvent(), { type: 'mail.deleted', mailIds: [ids[5]] });
  });

  test('a whole conversation is flagged by its thread id', async () => {
    const original = await storeMail(db, blobs, {
      userId: user.id,
      mailboxId: user.mailboxes.inbox,
      eml: Buffer.from('From: a@x.test\r\nSubject: Plan\r\nMessage-ID: <bulk-plan@x.test>\r\n\r\nhi\r\n'),
    });
    await storeMail(db, blobs, {
      userId: user.id,
      mailboxId: user.mailboxes.sent,
      eml: Buffer.from('From: me@x.test\r\nSubject: Re: Plan\r\nMessage-ID: <bulk-plan-2@x.test>\r\nIn-Reply-To: <bulk-plan@x.test>\r\n\r\nok\r\n'),
    });
    assert.deepEqual((await bulk({ threadIds: [original.threadId], flagged: true })).body, { updated: 2, deleted: 0 });
    await nextEvent();
  });

  test("another user's mail, a locked folder's mail and deleted mail are not touched", async () => {
    const theirs = await mails(3, other.mailboxes.inbox, other);
    assert.deepEqual((await bulk({ ids: theirs, seen: true })).body, { updated: 0, deleted: 0 });
    const vault = (await call('POST', '/v2/mailboxes', { name: 'Vault' })).body.id as number;
    await nextEvent();
    const locked = await mails(2, vault);
    await call('POST', `/v2/mailboxes/${vault}/lock`);
    await nextEvent();
    assert.deepEqual((await bulk({ ids: locked, seen: true })).body, { updated: 0, deleted: 0 });
    const refused = await bulk({ ids: [locked[0]], mailboxId: vault });
    assert.equal(refused.status, 423);
    assert.equal((await bulk({ filter: { mailboxId: vault }, seen: true })).status, 423);
    assert.equal((await bulk({ ids: [locked[0]], mailboxId: 2_000_000_000 })).status, 404);
    const { rows } = await db.sql.query<{ seen: number }>('SELECT count(*) FILTER (WHERE seen)::int AS seen FROM mails WHERE id = ANY($1::int8[])', [
      [...theirs, ...locked],
    ]);
    assert.equal(rows[0].seen, 0);
  });

  test('a request that does not say exactly which mails and what change is a 400 naming the problem', async () => {
    const cases: Array<[object, RegExp]> = [
      [{ seen: true }, /exactly one of ids, threadIds, filter/],
      [{ ids: [1], filter: {}, seen: true }, /exactly one of ids, threadIds, filter/],
      [{ ids: [1] }, /give delete, or at least one of/],
      [{ ids: [1], seen: true, delete: true }, /give delete, or at least one of/],
      [{ ids: Array.from({ length: 1001 }, (_, index) => index + 1), seen: true }, /at most 1000; use filter for more/],
      [{ ids: [], seen: true }, /ids/],
      [{ filter: { mailboxId: 'x' }, seen: true }, /filter\.mailboxId/],
      [{ ids: [1], seen: true, color: 'red' }, /color/],
    ];
    for (const [body, detail] of cases) {
      const answer = await bulk(body);
      assert.equal(answer.status, 400, JSON.stringify(body));
      assert.equal(answer.type, PROBLEM_JSON);
      assert.match(JSON.stringify(answer.body), detail, JSON.stringify(body));
    }
  });

  test('"mark all as read" is undone: exactly the mails it marked become unread again, and the undo can be undone', async () => {
    const folder = (await call('POST', '/v2/mailboxes', { name: 'Digest' })).body.id as number;
    const elsewhere = (await call('POST', '/v2/mailboxes', { name: 'Digest kept' })).body.id as number;
    const ids = await mails(30, folder);
    await bulk({ ids: ids.slice(0, 10), seen: true });
    const markAll = await bulk({ filter: { mailboxId: folder, seen: false }, seen: true });
    assert.equal((await finished(markAll.location ?? '')).done, 20);
    // Five of the mails it marked are moved away, then flagged by another change over a filter: that change's now.
    await bulk({ ids: ids.slice(25), mailboxId: elsewhere });
    const flagAll = await bulk({ filter: { mailboxId: elsewhere }, flagged: true });
    assert.equal((await finished(flagAll.location ?? '')).done, 5);

    const undo = await call('POST', `/v2/mails/bulk/${markAll.body.id as number}/undo`);
    assert.equal(undo.status, 202, JSON.stringify(undo.body));
    assert.equal(undo.location, `/v2/mails/bulk/${undo.body.id as number}`);
    assert.equal((await finished(undo.location ?? '')).done, 15);
    const unread = async () =>
      (await db.sql.query<{ id: string }>('SELECT id FROM mails WHERE id = ANY($1::int8[]) AND NOT seen ORDER BY id', [ids])).rows.map((row) => Number(row.id));
    assert.deepEqual(await unread(), ids.slice(10, 25), 'the ten read before, and the five changed since, stay read');
    assert.deepEqual(await counts(folder), { total: 25, unread: 15 });

    const redo = await call('POST', `/v2/mails/bulk/${undo.body.id as number}/undo`);
    assert.equal((await finished(redo.location ?? '')).done, 15);
    assert.deepEqual(await unread(), []);
    const unflag = await call('POST', `/v2/mails/bulk/${flagAll.body.id as number}/undo`);
    assert.equal((await finished(unflag.location ?? '')).done, 5);

    const move = await bulk({ filter: { mailboxId: folder }, mailboxId: user.mailboxes.inbox });
    await finished(move.location ?? '');
    const refused = await call('POST', `/v2/mails/bulk/${move.body.id as number}/undo`);
    assert.equal(refused.status, 409);
    assert.equal(refused.type, PROBLEM_JSON);
    assert.match(String(refused.body.detail), /only a change of one flag/);
    assert.equal((await call('POST', '/v2/mails/bulk/2000000000/undo')).status, 404);
  });
});
