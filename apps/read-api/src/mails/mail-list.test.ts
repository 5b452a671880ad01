import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { addBulkMails } from '@letterbox/demo-data';
import { storeMail } from '@letterbox/mail';
import { randomMail } from '@letterbox/mail-generator';
import { createTestUser, testBlobStore, testDatabase, type TestUser } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

interface Filter {
  mailboxId?: number;
  seen?: boolean;
  flagged?: boolean;
  hasAttachments?: boolean;
  from?: string;
  subject?: string;
  since?: string;
  until?: string;
  sort?: 'receivedAt' | '-receivedAt';
}

/** The form the list replaces: mails LEFT JOINed to mailboxes to leave locked ones out. */
async function leftJoinList(db: Database, userId: number, filter: Filter): Promise<number[]> {
  const values: unknown[] = [userId];
  const where = ['m.user_id = $1', 'm.deleted_at IS NULL', '(mb.locked = false OR mb.id IS NULL)'];
  const add = (sql: (p: string) => string, value: unknown) => {
    values.push(value);
    where.push(sql(`$${values.length}`));
  };
  if (filter.mailboxId !== undefined) add((p) => `m.mailbox_id = ${p}`, filter.mailboxId);
  if (filter.seen !== undefined) add((p) => `m.seen = ${p}`, filter.seen);
  if (filter.flagged !== undefined) add((p) => `m.flagged = ${p}`, filter.flagged);
  if (filter.hasAttachments !== undefined) add((p) => `m.has_attachments = ${p}`, filter.hasAttachments);
  if (filter.from) add((p) => `(m.from_address ILIKE ${p} OR m.from_name ILIKE ${p})`, `%${filter.from}%`);
  if (filter.subject) add((p) => `m.subject ILIKE ${p}`, `%${filter.subject}%`);
  if (filter.since) add((p) => `m.received_at >= ${p}`, filter.since);
  if (filter.until) add((p) => `m.received_at < ${p}`, filter.until);
  const direction = filter.sort === 'receivedAt' ? 'ASC' : 'DESC';
  const { rows } = await db.sql.query<{ id: string }>(
    `SELECT m.id FROM mails m LEFT JOIN mailboxes mb ON mb.id = m.mailbox_id
      WHERE ${where.join(' AND ')} ORDER BY m.received_at ${direction}, m.id ${direction}`,
    values,
  );
  return rows.map((row) => Number(row.id));
}

describe('GET /v2/mails list and count', () => {
  let db: Database;
  let api: RunningApi;
  let user: TestUser;
  let token: string;
  let lockedMailboxId: number;
  let projectsMailboxId: number;

  before(async () => {
    db = testDatabase();
    const blobs = testBlobStore();
    user = await createTestUser(db, 'lister');
    lockedMailboxId = (await addBulkMails(db, blobs, user.id, 1500)).lockedMailboxId;
    projectsMailboxId = (await db.prisma.mailbox.findFirstOrThrow({ where: { userId: user.id, name: 'Bulk projects' } })).id;
    // Mails received at the same instant must still page in a stable order.
    const sameInstant = new Date('2026-03-01T12:00:00Z');
    for (let index = 0; index < 5; index++) {
      await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml: await randomMail(77 + index, {}), receivedAt: sameInstant });
    }
    await db.sql.query(`UPDATE mails SET deleted_at = now() WHERE id IN (SELECT id FROM mails WHERE user_id = $1 ORDER BY id LIMIT 40 OFFSET 100)`, [user.id]);
    api = await startReadApiServer();
    token = await api.login(user.email, user.password);
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  async function listAll(filter: Filter): Promise<{ ids: number[]; totals: number[] }> {
    const ids: number[] = [];
    const totals: number[] = [];
    let cursor: string | null = null;
    for (let pages = 0; pages < 100; pages++) {
      const query = new URLSearchParams({ limit: '100' });
      for (const [key, value] of Object.entries(filter)) query.set(key, String(value));
      if (cursor) query.set('cursor', cursor);
      const response = await fetch(`${api.url}/v2/mails?${query}`, { headers: { authorization: `Bearer ${token}` } });
      assert.equal(response.status, 200, await response.clone().text());
      const page = (await response.json()) as { items: Array<{ id: number }>; total: number; nextCursor: string | null };
      ids.push(...page.items.map((item) => item.id));
      totals.push(page.total);
      cursor = page.nextCursor;
      if (!cursor) break;
    }
    return { ids, totals };
  }

  const cases: Array<[string, () => Filter]> = [
    ['no filter', () => ({})],
    ['oldest first', () => ({ sort: 'receivedAt' })],
    ['inbox', () => ({ mailboxId: user.mailboxes.inbox })],
    ['custom mailbox', () => ({ mailboxId: projectsMailboxId })],
    ['unread', () => ({ seen: false })],
    ['read in the inbox', () => ({ mailboxId: user.mailboxes.inbox, seen: true })],
    ['flagged', () => ({ flagged: true })],
    ['with attachments', () => ({ hasAttachments: true })],
    ['sender text', () => ({ from: 'a' })],
    ['subject text', () => ({ subject: 'e' })],
    ['date range', () => ({ since: new Date(Date.now() - 6 * 3600_000).toISOString(), until: new Date(Date.now() - 3600_000).toISOString() })],
  ];

  /** Totals the mailbox counters keep are exact; others are counted up to 1,000 (totalCapped past it). */
  const expectedTotal = (filter: Filter, count: number) =>
    Object.keys(filter).every((key) => ['mailboxId', 'seen', 'sort'].includes(key)) ? count : Math.min(count, 1000);

  for (const [name, filterOf] of cases) {
    test(`${name}: same rows, order and total as the LEFT JOIN form`, async () => {
      const filter = filterOf();
      const expected = await leftJoinList(db, user.id, filter);
      const { ids, totals } = await listAll(filter);
      assert.deepEqual(ids, expected);
      for (const total of totals) assert.equal(total, expectedTotal(filter, expected.length));
    });
  }

  test('the lists leave out locked and soft-deleted mail that exists', async () => {
    const { rows } = await db.sql.query<{ locked: string; deleted: string }>(
      `SELECT count(*) FILTER (WHERE mailbox_id = $2) AS locked, count(*) FILTER (WHERE deleted_at IS NOT NULL) AS deleted
         FROM mails WHERE user_id = $1`,
      [user.id, lockedMailboxId],
    );
    assert.ok(Number(rows[0].locked) > 0, 'the data has locked mail');
    assert.ok(Number(rows[0].deleted) > 0, 'the data has deleted mail');
    const all = await listAll({});
    const { rows: hidden } = await db.sql.query<{ id: string }>('SELECT id FROM mails WHERE user_id = $1 AND (mailbox_id = $2 OR deleted_at IS NOT NULL)', [
      user.id,
      lockedMailboxId,
    ]);
    const shown = new Set(all.ids);
    for (const row of hidden) assert.ok(!shown.has(Number(row.id)), `mail ${row.id} must not be listed`);
  });

  test('counts still agree after mail is read, moved and deleted through the API', async () => {
    const page = await listAll({ mailboxId: user.mailboxes.inbox, seen: false });
    const [first, second, third] = page.ids;
    const call = (method: string, path: string, body?: object) =>
      fetch(`${api.url}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
    assert.equal((await call('PATCH', `/v2/mails/${first}`, { seen: true })).status, 200);
    assert.equal((await call('PATCH', `/v2/mails/${second}`, { mailboxId: projectsMailboxId })).status, 200);
    assert.equal((await call('DELETE', `/v2/mails/${third}`)).status, 200);
    for (const filter of [
      {},
      { seen: false },
      { mailboxId: user.mailboxes.inbox },
      { mailboxId: projectsMailboxId, seen: false },
      { mailboxId: user.mailboxes.trash },
    ]) {
      const expected = await leftJoinList(db, user.id, filter);
      const { ids, totals } = await listAll(filter);
      assert.deepEqual(ids, expected, JSON.stringify(filter));
      assert.equal(totals[0], expectedTotal(filter, expected.length), JSON.stringify(filter));
    }
  });

  test('a locked mailbox cannot be listed, and a stranger mailbox is not found', async () => {
    const locked = await fetch(`${api.url}/v2/mails?mailboxId=${lockedMailboxId}`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(locked.status, 423);
    assert.equal(locked.headers.get('content-type'), 'application/problem+json; charset=utf-8');
    const stranger = await fetch(`${api.url}/v2/mails?mailboxId=1`, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(stranger.status, 404);
  });

  test('a user without mail gets an empty page, in every mailbox and in none', async () => {
    const newcomer = await createTestUser(db, 'empty-lister');
    const newcomerToken = await api.login(newcomer.email, newcomer.password);
    for (const query of ['', `?mailboxId=${newcomer.mailboxes.inbox}`, '?seen=false']) {
      const response = await fetch(`${api.url}/v2/mails${query}`, { headers: { authorization: `Bearer ${newcomerToken}` } });
      assert.equal(response.status, 200, query);
      assert.deepEqual(await response.json(), { items: [], total: 0, nextCursor: null }, query);
    }
  });
});
