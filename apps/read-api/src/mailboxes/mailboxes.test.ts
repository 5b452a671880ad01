import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { storeMail, type MailboxView } from '@letterbox/mail';
import { randomMail } from '@letterbox/mail-generator';
import { createTestUser, testBlobStore, testDatabase, type TestUser } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

const PROBLEM_JSON = 'application/problem+json; charset=utf-8';

describe('folders: made, renamed, deleted; mailboxes locked and unlocked', () => {
  let db: Database;
  let api: RunningApi;
  let user: TestUser;
  let other: TestUser;
  let token: string;

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'folders');
    other = await createTestUser(db, 'folders-other');
    api = await startReadApiServer();
    token = await api.login(user.email, user.password);
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  const call = async (method: string, path: string, body?: object) => {
    const response = await fetch(`${api.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: response.status, type: response.headers.get('content-type'), body: (await response.json()) as Record<string, unknown> };
  };
  const mailboxes = async () => (await call('GET', '/v2/mailboxes')).body.items as MailboxView[];
  const problem = (answer: Awaited<ReturnType<typeof call>>, status: number, detail: RegExp) => {
    assert.equal(answer.status, status, JSON.stringify(answer.body));
    assert.equal(answer.type, PROBLEM_JSON);
    assert.match(String(answer.body.detail), detail);
  };

  test('a folder is made, listed, renamed; names are unique per user and checked', async () => {
    const made = await call('POST', '/v2/mailboxes', { name: '  Projects ' });
    assert.equal(made.status, 201);
    assert.deepEqual({ ...made.body, id: 0 }, { id: 0, name: 'Projects', role: 'custom', locked: false, totalCount: 0, unreadCount: 0 });
    assert.ok((await mailboxes()).some((mailbox) => mailbox.id === made.body.id));
    problem(await call('POST', '/v2/mailboxes', { name: 'Projects' }), 409, /already have a mailbox named "Projects"/);
    problem(await call('POST', '/v2/mailboxes', { name: 'Inbox' }), 409, /already have a mailbox named "Inbox"/);
    problem(await call('POST', '/v2/mailboxes', { name: 'PROJECTS' }), 409, /already have a mailbox named "PROJECTS"/);
    problem(await call('POST', '/v2/mailboxes', { name: 'inbox' }), 409, /already have a mailbox named "inbox"/);
    problem(await call('POST', '/v2/mailboxes', { name: '\u200b\u200d' }), 400, /must contain a visible character/);
    problem(await call('POST', '/v2/mailboxes', { name: 'Invoices\u202egpj.exe' }), 400, /bidirectional control characters/);
    problem(await call('POST', '/v2/mailboxes', { name: ' ' }), 400, /name/);
    problem(await call('POST', '/v2/mailboxes', { name: 'a\u0000b' }), 400, /control characters/);
    problem(await call('POST', '/v2/mailboxes', { name: 'x'.repeat(101) }), 400, /at most 100/);
    const renamed = await call('PATCH', `/v2/mailboxes/${made.body.id}`, { name: 'Projects 2026' });
    assert.equal(renamed.status, 200);
    assert.equal(renamed.body.name, 'Projects 2026');
    // Another user may use the same name.
    const otherToken = await api.login(other.email, other.password);
    const theirs = await fetch(`${api.url}/v2/mailboxes`, {
      method: 'POST',
      headers: { authorization: `Bearer ${otherToken}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Projects 2026' }),
    });
    assert.equal(theirs.status, 201);
    problem(await call('PATCH', `/v2/mailboxes/${((await theirs.json()) as { id: number }).id}`, { name: 'Mine now' }), 404, /does not exist/);
  });

  test('system mailboxes keep their names and stay', async () => {
    problem(await call('PATCH', `/v2/mailboxes/${user.mailboxes.inbox}`, { name: 'In' }), 409, /inbox mailbox: system mailboxes cannot be renamed/);
    problem(await call('DELETE', `/v2/mailboxes/${user.mailboxes.trash}`), 409, /trash mailbox: system mailboxes cannot be deleted/);
  });

  test('deleting a folder moves its mail to the trash in the same transaction, counters following', async () => {
    const folder = (await call('POST', '/v2/mailboxes', { name: 'Old receipts' })).body as unknown as MailboxView;
    const blobs = testBlobStore();
    const to = [{ name: 'Folders', address: user.email }];
    for (let seed = 0; seed < 3; seed++) {
      await storeMail(db, blobs, { userId: user.id, mailboxId: folder.id, eml: await randomMail(8100 + seed, { to }), seen: seed === 0 });
    }
    const trashBefore = (await mailboxes()).find((mailbox) => mailbox.role === 'trash')!;
    const removed = await call('DELETE', `/v2/mailboxes/${folder.id}`);
    assert.deepEqual(removed.body, { id: folder.id, movedToTrash: 3 });
    const after = await mailboxes();
    assert.ok(!after.some((mailbox) => mailbox.id === folder.id));
    const trash = after.find((mailbox) => mailbox.role === 'trash')!;
    assert.equal(trash.totalCount, (trashBefore.totalCount ?? 0) + 3);
    assert.equal(trash.unreadCount, (trashBefore.unreadCount ?? 0) + 2);
    problem(await call('DELETE', `/v2/mailboxes/${folder.id}`), 404, /does not exist/);
  });

  test('a locked mailbox hides its mail until unlocked with the password typed again', async () => {
    const vault = (await call('POST', '/v2/mailboxes', { name: 'Vault' })).body as unknown as MailboxView;
    const mail = await storeMail(db, testBlobStore(), {
      userId: user.id,
      mailboxId: vault.id,
      eml: await randomMail(8200, { to: [{ name: 'Folders', address: user.email }] }),
    });
    const locked = await call('POST', `/v2/mailboxes/${vault.id}/lock`);
    assert.deepEqual([locked.status, locked.body.locked, locked.body.totalCount], [200, true, null]);
    problem(await call('GET', `/v2/mails/${mail.id}`), 423, /locked/);
    problem(await call('DELETE', `/v2/mailboxes/${vault.id}`), 423, /locked/);
    problem(await call('POST', `/v2/mailboxes/${vault.id}/unlock`, { password: 'not the password' }), 403, /password: does not match/);
    problem(await call('POST', `/v2/mailboxes/${vault.id}/unlock`, {}), 400, /password/);
    const unlocked = await call('POST', `/v2/mailboxes/${vault.id}/unlock`, { password: user.password });
    assert.deepEqual([unlocked.status, unlocked.body.locked, unlocked.body.totalCount], [200, false, 1]);
    assert.equal((await call('GET', `/v2/mails/${mail.id}`)).status, 200);
  });
});

describe('the mailbox list: an ETag that moves with every change, and 304 when nothing changed', () => {
  let db: Database;
  let api: RunningApi;
  let user: TestUser;
  let other: TestUser;
  let token: string;
  let otherToken: string;

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'mailbox-etag');
    other = await createTestUser(db, 'mailbox-etag-other');
    api = await startReadApiServer();
    token = await api.login(user.email, user.password);
    otherToken = await api.login(other.email, other.password);
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  const send = (method: string, path: string, options: { body?: object; ifNoneMatch?: string; as?: string } = {}) =>
    fetch(`${api.url}${path}`, {
      method,
      headers: {
        authorization: `Bearer ${options.as ?? token}`,
        ...(options.body ? { 'content-type': 'application/json' } : {}),
        ...(options.ifNoneMatch ? { 'if-none-match': options.ifNoneMatch } : {}),
      },
      body: options.body ? JSON.stringify(options.body) : undefined,
    });
  const change = async (method: string, path: string, body?: object) => {
    const response = await send(method, path, { body });
    const text = await response.text();
    assert.ok(response.ok, `${method} ${path}: ${response.status} ${text}`);
    return JSON.parse(text) as { id: number };
  };
  const listed = async () => {
    const response = await send('GET', '/v2/mailboxes');
    assert.equal(response.status, 200);
    const etag = response.headers.get('etag');
    assert.ok(etag, 'an ETag');
    return { etag, items: ((await response.json()) as { items: MailboxView[] }).items };
  };
  const revalidated = async (etag: string, as?: string) => {
    const response = await send('GET', '/v2/mailboxes', { ifNoneMatch: etag, as });
    return { status: response.status, etag: response.headers.get('etag'), body: await response.text() };
  };
  /** Asserts that `what` changed the list's ETag and that the ETag held before is answered with the new list. */
  const changesTheEtag = async (what: () => Promise<unknown>) => {
    const before = await listed();
    await what();
    const answer = await revalidated(before.etag);
    assert.equal(answer.status, 200, 'the ETag held before is no longer current');
    assert.notEqual(answer.etag, before.etag);
    const now = await listed();
    assert.equal(now.etag, answer.etag);
    assert.deepEqual(JSON.parse(answer.body), { items: now.items });
    return now;
  };
  const storeNew = async (mailboxId: number, seed: number) =>
    storeMail(db, testBlobStore(), { userId: user.id, mailboxId, eml: await randomMail(seed, { to: [{ name: 'ETag', address: user.email }] }) });

  test('nothing changed: If-None-Match with the current ETag is answered 304 with no body and the same ETag', async () => {
    const { etag } = await listed();
    const answer = await revalidated(etag);
    assert.deepEqual(answer, { status: 304, etag, body: '' });
  });

  test('the RFC 9110 forms: a weak tag, a list holding it, and * revalidate; another tag does not', async () => {
    const { etag } = await listed();
    assert.equal((await revalidated(`W/${etag}`)).status, 304);
    assert.equal((await revalidated(`"0.0", ${etag}`)).status, 304);
    assert.equal((await revalidated('*')).status, 304);
    assert.equal((await revalidated('"0.0"')).status, 200);
    assert.equal((await revalidated('not a tag')).status, 200);
  });

  test('a new mail, a read flag, a move each change the ETag', async () => {
    let mailId: unknown;
    const afterMail = await changesTheEtag(async () => {
      mailId = (await storeNew(user.mailboxes.inbox, 8300)).id;
    });
    assert.equal(afterMail.items.find((mailbox) => mailbox.role === 'inbox')?.totalCount, 1);
    await changesTheEtag(() => change('PATCH', `/v2/mails/${mailId}`, { seen: true }));
    const afterMove = await changesTheEtag(() => change('PATCH', `/v2/mails/${mailId}`, { mailboxId: user.mailboxes.trash }));
    assert.equal(afterMove.items.find((mailbox) => mailbox.role === 'trash')?.totalCount, 1);
  });

  test('a folder made, renamed, locked, unlocked and deleted each change the ETag', async () => {
    let folder = 0;
    await changesTheEtag(async () => {
      folder = (await change('POST', '/v2/mailboxes', { name: 'Tagged' })).id;
    });
    await changesTheEtag(() => change('PATCH', `/v2/mailboxes/${folder}`, { name: 'Tagged again' }));
    await changesTheEtag(() => change('POST', `/v2/mailboxes/${folder}/lock`));
    await changesTheEtag(() => change('POST', `/v2/mailboxes/${folder}/unlock`, { password: user.password }));
    await changesTheEtag(() => change('DELETE', `/v2/mailboxes/${folder}`));
  });

  test("another user's changes leave the ETag as it was, and their ETag is not this user's", async () => {
    const { etag } = await listed();
    const theirs = (await (await send('POST', '/v2/mailboxes', { body: { name: 'Theirs' }, as: otherToken })).json()) as { id: number };
    assert.ok(theirs.id);
    await storeMail(db, testBlobStore(), {
      userId: other.id,
      mailboxId: other.mailboxes.inbox,
      eml: await randomMail(8310, { to: [{ name: 'Other', address: other.email }] }),
    });
    assert.equal((await revalidated(etag)).status, 304);
    assert.equal((await revalidated(etag, otherToken)).status, 200, "this user's ETag does not revalidate the other user's list");
  });
});
