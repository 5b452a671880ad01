import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { storeMail, type MailboxView, type MailState } from '@letterbox/mail';
import { randomMail, referenceMail } from '@letterbox/mail-generator';
import { createTestUser, testBlobStore, testDatabase, type TestUser } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

const PROBLEM_JSON = 'application/problem+json; charset=utf-8';
type Counts = Record<number, { total: number | null; unread: number | null }>;

describe('changing, moving and deleting mail', () => {
  let db: Database;
  let api: RunningApi;
  let user: TestUser;
  let token: string;
  let projectsId: number;
  let lockedId: number;
  /** Unread inbox mail, one per test that changes mail, so each test starts from a known state. */
  const inbox: number[] = [];
  let seenInboxMail: number;
  let lockedMail: number;
  let lockedPartId: string;

  before(async () => {
    db = testDatabase();
    const blobs = testBlobStore();
    user = await createTestUser(db, 'changer');
    projectsId = (await db.prisma.mailbox.create({ data: { userId: user.id, name: 'Projects', role: 'custom' } })).id;
    lockedId = (await db.prisma.mailbox.create({ data: { userId: user.id, name: 'Vault', role: 'custom' } })).id;
    const to = [{ name: 'Changer', address: user.email }];
    for (let seed = 0; seed < 6; seed++) {
      inbox.push((await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml: await randomMail(7100 + seed, { to }) })).id);
    }
    seenInboxMail = (await storeMail(db, blobs, { userId: user.id, mailboxId: user.mailboxes.inbox, eml: await randomMail(7200, { to }), seen: true })).id;
    lockedMail = (
      await storeMail(db, blobs, {
        userId: user.id,
        mailboxId: lockedId,
        eml: await referenceMail('small', { from: { name: 'Vault', address: 'vault@example.test' }, to, subject: `Vault ${user.domain}` }),
      })
    ).id;
    await db.prisma.mailbox.update({ where: { id: lockedId }, data: { locked: true } });
    lockedPartId = (await db.prisma.attachment.findFirst({ where: { mailId: BigInt(lockedMail) }, select: { partId: true } }))?.partId ?? '2';
    api = await startReadApiServer();
    token = await api.login(user.email, user.password);
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  const call = (method: string, path: string, body?: object) =>
    fetch(`${api.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });

  async function change(mailId: number, body: object): Promise<MailState> {
    const response = await call('PATCH', `/v2/mails/${mailId}`, body);
    assert.equal(response.status, 200, await response.clone().text());
    return (await response.json()) as MailState;
  }

  async function remove(mailId: number): Promise<MailState> {
    const response = await call('DELETE', `/v2/mails/${mailId}`);
    assert.equal(response.status, 200, await response.clone().text());
    return (await response.json()) as MailState;
  }

  async function mailboxes(): Promise<MailboxView[]> {
    const response = await call('GET', '/v2/mailboxes');
    assert.equal(response.status, 200);
    return ((await response.json()) as { items: MailboxView[] }).items;
  }

  async function counts(): Promise<Counts> {
    return Object.fromEntries((await mailboxes()).map((box) => [box.id, { total: box.totalCount, unread: box.unreadCount }]));
  }

  /** The counts a COUNT(*) over live mail gives, which the trigger-kept counters must equal. */
  async function countedInDatabase(): Promise<Record<number, { total: number; unread: number }>> {
    const { rows } = await db.sql.query<{ id: number; total: string; unread: string }>(
      `SELECT mb.id, count(m.id) AS total, count(m.id) FILTER (WHERE NOT m.seen) AS unread
         FROM mailboxes mb LEFT JOIN mails m ON m.mailbox_id = mb.id AND m.deleted_at IS NULL
        WHERE mb.user_id = $1 GROUP BY mb.id`,
      [user.id],
    );
    return Object.fromEntries(rows.map((row) => [row.id, { total: Number(row.total), unread: Number(row.unread) }]));
  }

  /** `expected` applied to `before`: only the mailboxes named change, by the amounts given. */
  function assertCounts(after: Counts, before: Counts, changes: Record<number, { total?: number; unread?: number }>) {
    const expected: Counts = structuredClone(before);
    for (const [id, delta] of Object.entries(changes)) {
      const box = expected[Number(id)];
      box.total = (box.total as number) + (delta.total ?? 0);
      box.unread = (box.unread as number) + (delta.unread ?? 0);
    }
    assert.deepEqual(after, expected);
  }

  const detail = async (mailId: number) => {
    const response = await call('GET', `/v2/mails/${mailId}`);
    assert.equal(response.status, 200);
    return (await response.json()) as { mailboxId: number; seen: boolean; flagged: boolean; important: boolean };
  };

  const listIds = async (query: string) => {
    const response = await call('GET', `/v2/mails?limit=100&${query}`);
    assert.equal(response.status, 200, await response.clone().text());
    const page = (await response.json()) as { items: Array<{ id: number }>; total: number };
    return { ids: page.items.map((item) => item.id), total: page.total };
  };

  test('the mailboxes start with counts that match the mail, and a locked one shows none', async () => {
    const boxes = await mailboxes();
    const byId = new Map(boxes.map((box) => [box.id, box]));
    assert.deepEqual(
      boxes.map((box) => box.role),
      ['inbox', 'sent', 'drafts', 'spam', 'trash', 'custom', 'custom'],
    );
    assert.deepEqual(byId.get(user.mailboxes.inbox), {
      id: user.mailboxes.inbox,
      name: 'Inbox',
      role: 'inbox',
      locked: false,
      totalCount: 7,
      unreadCount: 6,
    });
    assert.deepEqual(byId.get(lockedId), { id: lockedId, name: 'Vault', role: 'custom', locked: true, totalCount: null, unreadCount: null });
    assert.deepEqual(byId.get(projectsId)?.totalCount, 0);
    const truth = await countedInDatabase();
    assert.equal(truth[lockedId].total, 1, 'the locked mailbox does hold mail');
  });

  test('PATCH seen marks read and unread, and the unread count follows', async () => {
    const mailId = inbox[0];
    const before = await counts();
    const state = await change(mailId, { seen: true });
    assert.deepEqual(state, { id: mailId, mailboxId: user.mailboxes.inbox, seen: true, flagged: false, important: false, deleted: false });
    assertCounts(await counts(), before, { [user.mailboxes.inbox]: { unread: -1 } });
    assert.equal((await detail(mailId)).seen, true);
    assert.ok((await listIds('seen=true')).ids.includes(mailId));
    assert.ok(!(await listIds('seen=false')).ids.includes(mailId));

    await change(mailId, { seen: true });
    assertCounts(await counts(), before, { [user.mailboxes.inbox]: { unread: -1 } }); // setting it again changes nothing

    assert.equal((await change(mailId, { seen: false })).seen, false);
    assert.deepEqual(await counts(), before);
    assert.equal((await detail(mailId)).seen, false);
  });

  test('PATCH flagged and important show in the mail and the list, and leave the counts alone', async () => {
    const mailId = inbox[1];
    const before = await counts();
    assert.deepEqual(await change(mailId, { flagged: true }), {
      id: mailId,
      mailboxId: user.mailboxes.inbox,
      seen: false,
      flagged: true,
      important: false,
      deleted: false,
    });
    const state = await change(mailId, { important: true });
    assert.equal(state.flagged, true, 'an earlier flag is kept');
    assert.equal(state.important, true);
    const shown = await detail(mailId);
    assert.equal(shown.flagged, true);
    assert.equal(shown.important, true);
    assert.ok((await listIds('flagged=true')).ids.includes(mailId));
    assert.deepEqual(await counts(), before);
    assert.equal((await change(mailId, { flagged: false, important: false })).flagged, false);
    assert.ok(!(await listIds('flagged=true')).ids.includes(mailId));
  });

  test('PATCH mailboxId moves the mail, and both mailboxes’ counts follow', async () => {
    const unread = inbox[2];
    const before = await counts();
    const state = await change(unread, { mailboxId: projectsId });
    assert.equal(state.mailboxId, projectsId);
    assertCounts(await counts(), before, { [user.mailboxes.inbox]: { total: -1, unread: -1 }, [projectsId]: { total: 1, unread: 1 } });
    assert.equal((await detail(unread)).mailboxId, projectsId);
    assert.deepEqual((await listIds(`mailboxId=${projectsId}`)).ids, [unread]);
    assert.ok(!(await listIds(`mailboxId=${user.mailboxes.inbox}`)).ids.includes(unread));

    // a read mail moves its total but no unread
    await change(seenInboxMail, { mailboxId: projectsId });
    assertCounts(await counts(), before, { [user.mailboxes.inbox]: { total: -2, unread: -1 }, [projectsId]: { total: 2, unread: 1 } });

    // flags and a move in one request
    const moved = await change(unread, { seen: true, flagged: true, mailboxId: user.mailboxes.inbox });
    assert.deepEqual(moved, { id: unread, mailboxId: user.mailboxes.inbox, seen: true, flagged: true, important: false, deleted: false });
    assertCounts(await counts(), before, { [user.mailboxes.inbox]: { total: -1, unread: -1 }, [projectsId]: { total: 1 } });
    await change(seenInboxMail, { mailboxId: user.mailboxes.inbox });
    await change(unread, { seen: false, flagged: false });
    assert.deepEqual(await counts(), before);

    // moving into the mailbox it is in changes nothing
    await change(unread, { mailboxId: user.mailboxes.inbox });
    assert.deepEqual(await counts(), before);
  });

  test('DELETE moves to the trash; DELETE in the trash removes the mail for good', async () => {
    const mailId = inbox[3];
    const trash = user.mailboxes.trash;
    const before = await counts();
    const trashed = await remove(mailId);
    assert.deepEqual(trashed, { id: mailId, mailboxId: trash, seen: false, flagged: false, important: false, deleted: false });
    assertCounts(await counts(), before, { [user.mailboxes.inbox]: { total: -1, unread: -1 }, [trash]: { total: 1, unread: 1 } });
    assert.equal((await detail(mailId)).mailboxId, trash, 'still readable in the trash');
    assert.deepEqual((await listIds(`mailboxId=${trash}`)).ids, [mailId]);

    const gone = await remove(mailId);
    assert.deepEqual(gone, { id: mailId, mailboxId: trash, seen: false, flagged: false, important: false, deleted: true });
    assertCounts(await counts(), before, { [user.mailboxes.inbox]: { total: -1, unread: -1 } });

    for (const path of [`/v2/mails/${mailId}`, `/v2/mails/${mailId}/raw`]) {
      const response = await call('GET', path);
      assert.equal(response.status, 404, path);
      assert.equal(response.headers.get('content-type'), PROBLEM_JSON);
    }
    assert.deepEqual(await listIds(`mailboxId=${trash}`), { ids: [], total: 0 });
    assert.ok(!(await listIds('')).ids.includes(mailId));
    assert.equal((await call('DELETE', `/v2/mails/${mailId}`)).status, 404, 'a second delete finds nothing');
    assert.equal((await call('PATCH', `/v2/mails/${mailId}`, { seen: true })).status, 404, 'nor can it be changed');
    assert.equal((await call('PATCH', `/v2/mails/${mailId}`, { mailboxId: user.mailboxes.inbox })).status, 404, 'nor restored');

    const row = await db.prisma.mail.findUniqueOrThrow({ where: { id: BigInt(mailId) }, select: { deletedAt: true, seen: true } });
    assert.ok(row.deletedAt instanceof Date, 'soft-deleted: the row stays, marked');
    assert.equal(row.seen, false);
  });

  test('a read mail deleted from the trash lowers the total but not the unread count', async () => {
    const mailId = inbox[4];
    await change(mailId, { seen: true });
    const before = await counts();
    await remove(mailId);
    await remove(mailId);
    assertCounts(await counts(), before, { [user.mailboxes.inbox]: { total: -1 } });
  });

  test('moving mail into a locked mailbox is a 423 and changes nothing', async () => {
    const mailId = inbox[5];
    const before = await counts();
    const row = await db.prisma.mail.findUniqueOrThrow({ where: { id: BigInt(mailId) } });
    for (const body of [{ mailboxId: lockedId }, { seen: true, mailboxId: lockedId }]) {
      const response = await call('PATCH', `/v2/mails/${mailId}`, body);
      assert.equal(response.status, 423);
      assert.equal(response.headers.get('content-type'), PROBLEM_JSON);
      const problem = (await response.json()) as { status: number; title: string };
      assert.equal(problem.status, 423);
      assert.equal(problem.title, 'Locked');
    }
    assert.deepEqual(await db.prisma.mail.findUniqueOrThrow({ where: { id: BigInt(mailId) } }), row);
    assert.deepEqual(await counts(), before);
  });

  test('a mail in a locked mailbox cannot be read, downloaded, changed or deleted: 423', async () => {
    const before = await db.prisma.mail.findUniqueOrThrow({ where: { id: BigInt(lockedMail) } });
    const requests: Array<[string, string, object?]> = [
      ['GET', `/v2/mails/${lockedMail}`],
      ['GET', `/v2/mails/${lockedMail}/raw`],
      ['GET', `/v2/mails/${lockedMail}/attachments/${lockedPartId}`],
      ['PATCH', `/v2/mails/${lockedMail}`, { seen: true }],
      ['PATCH', `/v2/mails/${lockedMail}`, { mailboxId: user.mailboxes.inbox }],
      ['DELETE', `/v2/mails/${lockedMail}`],
      ['GET', `/v2/mails?mailboxId=${lockedId}`],
    ];
    for (const [method, path, body] of requests) {
      const response = await call(method, path, body);
      assert.equal(response.status, 423, `${method} ${path}`);
      assert.equal(response.headers.get('content-type'), PROBLEM_JSON);
      assert.equal(((await response.json()) as { status: number }).status, 423);
    }
    assert.deepEqual(await db.prisma.mail.findUniqueOrThrow({ where: { id: BigInt(lockedMail) } }), before);
    assert.ok(!(await listIds('')).ids.includes(lockedMail), 'nor is it listed');
  });

  test('moving into a mailbox that does not exist is a 404', async () => {
    const response = await call('PATCH', `/v2/mails/${inbox[5]}`, { mailboxId: 2_147_483_647 });
    assert.equal(response.status, 404);
    assert.equal(response.headers.get('content-type'), PROBLEM_JSON);
  });

  test('concurrent changes and deletes of one mail in the trash: each answer is 200 or 404, never a 5xx', async () => {
    const mailId = (
      await storeMail(db, testBlobStore(), {
        userId: user.id,
        mailboxId: user.mailboxes.trash,
        eml: await randomMail(7300, { to: [{ name: 'Changer', address: user.email }] }),
      })
    ).id;
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, index) => (index % 2 ? call('DELETE', `/v2/mails/${mailId}`) : call('PATCH', `/v2/mails/${mailId}`, { seen: true }))),
    );
    const statuses = answers.map((response) => response.status);
    await Promise.all(answers.map((response) => response.arrayBuffer()));
    const row = await db.prisma.mail.findUniqueOrThrow({ where: { id: BigInt(mailId) }, select: { deletedAt: true } });
    assert.ok(row.deletedAt instanceof Date, 'one of the deletes went through');
    assert.deepEqual(
      statuses.filter((status) => status !== 200 && status !== 404),
      [],
      `statuses: ${statuses.join(', ')}`,
    );
  });

  test('after all the changes, every counter equals a count of the live mail', async () => {
    const truth = await countedInDatabase();
    const shown = await counts();
    for (const box of await mailboxes()) {
      if (box.locked) {
        assert.deepEqual(shown[box.id], { total: null, unread: null });
      } else {
        assert.deepEqual(shown[box.id], truth[box.id], box.name);
      }
    }
    const { rows } = await db.sql.query<{ id: number; total_count: number; unread_count: number }>(
      'SELECT id, total_count, unread_count FROM mailboxes WHERE id = $1',
      [lockedId],
    );
    assert.deepEqual({ total: rows[0].total_count, unread: rows[0].unread_count }, truth[lockedId], 'the locked one is kept too');
    const all = await listIds('');
    const unlocked = Object.entries(truth).filter(([id]) => Number(id) !== lockedId);
    assert.equal(
      all.total,
      unlocked.reduce((sum, [, box]) => sum + box.total, 0),
      'the list total leaves the locked mailbox out',
    );
  });
});
