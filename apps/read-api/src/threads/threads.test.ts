import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { storeMail, type MailSummary, type ThreadListPage } from '@letterbox/mail';
import { createTestUser, testBlobStore, testDatabase, type TestUser } from '@letterbox/testing';
import { startReadApiServer, type RunningApi } from '../testing/read-api-server';

interface Headers {
  id: string;
  subject: string;
  from?: string;
  inReplyTo?: string;
  references?: string;
  date: string;
  attachment?: boolean;
}

function eml(headers: Headers): Buffer {
  const lines = [
    `From: ${headers.from ?? 'Ann <ann@example.com>'}`,
    'To: me@example.com',
    `Subject: ${headers.subject}`,
    `Date: ${new Date(headers.date).toUTCString()}`,
    `Message-ID: ${headers.id}`,
    ...(headers.inReplyTo ? [`In-Reply-To: ${headers.inReplyTo}`] : []),
    ...(headers.references ? [`References: ${headers.references}`] : []),
  ];
  if (!headers.attachment) return Buffer.from([...lines, 'Content-Type: text/plain', '', 'hello', ''].join('\r\n'));
  return Buffer.from(
    [
      ...lines,
      'MIME-Version: 1.0',
      'Content-Type: multipart/mixed; boundary="b"',
      '',
      '--b',
      'Content-Type: text/plain',
      '',
      'see attached',
      '--b',
      'Content-Type: application/octet-stream',
      'Content-Disposition: attachment; filename="a.bin"',
      '',
      'bytes',
      '--b--',
      '',
    ].join('\r\n'),
  );
}

describe('conversations: threads assigned on store, listed collapsed, read whole', () => {
  let db: Database;
  let api: RunningApi;
  let user: TestUser;
  let other: TestUser;
  let token: string;
  const blobs = testBlobStore();

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'threads');
    other = await createTestUser(db, 'threads-other');
    api = await startReadApiServer();
    token = await api.login(user.email, user.password);
  });

  after(async () => {
    await api?.close();
    await db?.close();
  });

  const store = (headers: Headers, mailboxId = user.mailboxes.inbox, owner = user) => storeMail(db, blobs, { userId: owner.id, mailboxId, eml: eml(headers) });
  const get = async <T>(path: string) => {
    const response = await fetch(`${api.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: response.status, body: (await response.json()) as T };
  };

  test('a reply joins its original by In-Reply-To or References; a new mail with a known subject does not', async () => {
    const original = await store({ id: '<plan-1@example.com>', subject: 'Launch plan', date: '2026-11-01T09:00:00Z' });
    const reply = await store({ id: '<plan-2@example.com>', subject: 'Re: Launch plan', inReplyTo: '<plan-1@example.com>', date: '2026-11-01T10:00:00Z' });
    const later = await store({
      id: '<plan-3@example.com>',
      subject: 'changed subject',
      references: '<unknown@example.com> <plan-1@example.com> <missing@example.com>',
      date: '2026-11-01T11:00:00Z',
    });
    const unrelated = await store({ id: '<other-1@example.com>', subject: 'Launch plan', date: '2026-11-02T09:00:00Z' });
    assert.equal(original.threadId, original.id);
    assert.equal(reply.threadId, original.id);
    assert.equal(later.threadId, original.id);
    assert.equal(unrelated.threadId, unrelated.id, 'a mail that answers nothing starts a conversation of its own');
  });

  test('without references, a reply prefix joins the newest recent thread with that subject, in several languages', async () => {
    const original = await store({ id: '<budget-1@example.com>', subject: '예산 검토', date: '2026-11-03T09:00:00Z' });
    const korean = await store({ id: '<budget-2@example.com>', subject: '답장: RE: 예산  검토', date: '2026-11-03T10:00:00Z' });
    const english = await store({ id: '<budget-3@example.com>', subject: 'Fwd: 예산 검토', date: '2026-11-04T10:00:00Z' });
    const monthsLater = await store({ id: '<budget-4@example.com>', subject: 'Re: 예산 검토', date: '2027-02-01T10:00:00Z' });
    assert.equal(korean.threadId, original.id);
    assert.equal(english.threadId, original.id);
    assert.equal(monthsLater.threadId, monthsLater.id, 'past 30 days a subject alone starts a new conversation');
  });

  test("an outsider reusing a conversation's root Message-ID, or naming it, does not take the conversation over", async () => {
    const root = await store({ id: '<deal-1@example.com>', subject: 'Deal terms', date: '2026-11-07T09:00:00Z' });
    const impostor = await store({
      id: '<deal-1@example.com>',
      from: 'Mallory <mallory@evil.example>',
      subject: 'Re: Deal terms',
      references: '<deal-1@example.com>',
      date: '2026-11-07T09:30:00Z',
    });
    const outsiderReply = await store({
      id: '<mallory-2@evil.example>',
      from: 'Mallory <mallory@evil.example>',
      subject: 'Re: Deal terms',
      inReplyTo: '<deal-1@example.com>',
      date: '2026-11-07T09:45:00Z',
    });
    const reply = await store({ id: '<deal-2@example.com>', subject: 'Re: Deal terms', inReplyTo: '<deal-1@example.com>', date: '2026-11-07T10:00:00Z' });
    assert.equal(impostor.threadId, impostor.id, 'a duplicate Message-ID from another sender starts a conversation of its own');
    assert.equal(outsiderReply.threadId, root.id, "naming the root's id answers the first mail holding it");
    assert.equal(reply.threadId, root.id);
  });

  test('a copy of a mail already held, from the same sender, joins its conversation', async () => {
    const sent = await store({ id: '<self-1@example.com>', subject: 'Note to self', date: '2026-11-08T09:00:00Z' }, user.mailboxes.sent);
    const received = await store({ id: '<self-1@example.com>', subject: 'Note to self', date: '2026-11-08T09:00:01Z' });
    assert.equal(received.threadId, sent.threadId);
  });

  test("threads are per user: the same Message-IDs in another user's mail stay apart", async () => {
    await store({ id: '<shared-1@example.com>', subject: 'Shared', date: '2026-11-05T09:00:00Z' });
    const theirs = await store(
      { id: '<shared-2@example.com>', subject: 'Re: Shared', inReplyTo: '<shared-1@example.com>', date: '2026-11-05T10:00:00Z' },
      other.mailboxes.inbox,
      other,
    );
    assert.equal(theirs.threadId, theirs.id);
  });

  test('a conversation takes at most 100 messages; the next reply starts another', async () => {
    const first = await store({ id: '<long-0@example.com>', subject: 'Long one', date: '2026-11-06T00:00:00Z' });
    for (let index = 1; index < 100; index++) {
      const reply = await store({
        id: `<long-${index}@example.com>`,
        subject: 'Re: Long one',
        inReplyTo: '<long-0@example.com>',
        date: '2026-11-06T01:00:00Z',
      });
      assert.equal(reply.threadId, first.id);
    }
    const overflow = await store({ id: '<long-100@example.com>', subject: 'Re: Long one', inReplyTo: '<long-0@example.com>', date: '2026-11-06T02:00:00Z' });
    assert.equal(overflow.threadId, overflow.id);
  });

  test('GET /v2/threads collapses the list newest first with counts, participants and cursor paging', async () => {
    const person = await createTestUser(db, 'threads-list');
    const personToken = await api.login(person.email, person.password);
    const at = (day: number) => `2026-10-${String(day).padStart(2, '0')}T12:00:00Z`;
    const put = (headers: Headers, mailboxId = person.mailboxes.inbox) => store(headers, mailboxId, person);
    const a1 = await put({ id: '<a1@x>', subject: 'Alpha', date: at(1), from: 'Ann <ann@x.com>' });
    await put({ id: '<a2@x>', subject: 'Re: Alpha', inReplyTo: '<a1@x>', date: at(5), from: 'Bob <bob@x.com>', attachment: true });
    const b1 = await put({ id: '<b1@x>', subject: 'Beta', date: at(3) });
    const c1 = await put({ id: '<c1@x>', subject: 'Gamma', date: at(2) });
    const a3 = await put({ id: '<a3@x>', subject: 'Re: Alpha', inReplyTo: '<a2@x>', date: at(6), from: 'Ann <ann@x.com>' }, person.mailboxes.sent);
    await db.sql.query('UPDATE mails SET seen = true WHERE id = $1', [a1.id]);

    const list = async (query: string) => {
      const response = await fetch(`${api.url}/v2/threads?${query}`, { headers: { authorization: `Bearer ${personToken}` } });
      assert.equal(response.status, 200);
      return (await response.json()) as ThreadListPage;
    };
    const all = await list('limit=10');
    assert.deepEqual(
      all.items.map((item) => item.threadId),
      [a1.id, b1.id, c1.id],
    );
    const alpha = all.items[0];
    assert.equal(alpha.latest.id, a3.id);
    assert.equal(alpha.messageCount, 3);
    assert.equal(alpha.unreadCount, 2);
    assert.equal(alpha.hasAttachments, true);
    assert.deepEqual(
      alpha.participants.map((p) => p.address),
      ['ann@x.com', 'bob@x.com'],
    );
    assert.equal(all.nextCursor, null);

    const first = await list('limit=2');
    assert.deepEqual(
      first.items.map((item) => item.threadId),
      [a1.id, b1.id],
    );
    const second = await list(`limit=2&cursor=${encodeURIComponent(first.nextCursor ?? '')}`);
    assert.deepEqual(
      second.items.map((item) => item.threadId),
      [c1.id],
      'a thread appears once across pages',
    );

    const inbox = await list(`mailboxId=${person.mailboxes.inbox}`);
    assert.equal(inbox.items[0].latest.receivedAt, new Date(at(5)).toISOString(), 'ordered by the newest message the filter keeps');
    assert.equal(inbox.items[0].messageCount, 3, 'the count is the whole conversation');
    const unread = await list('seen=false');
    assert.deepEqual(
      unread.items.map((item) => item.threadId),
      [a1.id, b1.id, c1.id],
    );
  });

  test('locked mailboxes are left out of conversations; a thread is read whole, in order, and only by its owner', async () => {
    const person = await createTestUser(db, 'threads-locked');
    const personToken = await api.login(person.email, person.password);
    const [locked] = await db.sql
      .query<{ id: number }>(`INSERT INTO mailboxes (user_id, name, role, locked) VALUES ($1, 'Vault', 'custom', true) RETURNING id`, [person.id])
      .then((result) => result.rows);
    const first = await store({ id: '<l1@x>', subject: 'Secret', date: '2026-10-01T00:00:00Z' }, person.mailboxes.inbox, person);
    await store({ id: '<l2@x>', subject: 'Re: Secret', inReplyTo: '<l1@x>', date: '2026-10-02T00:00:00Z' }, locked.id, person);
    await store({ id: '<l3@x>', subject: 'Hidden', date: '2026-10-03T00:00:00Z' }, locked.id, person);
    const third = await store({ id: '<l4@x>', subject: 'Re: Secret', inReplyTo: '<l2@x>', date: '2026-10-04T00:00:00Z' }, person.mailboxes.inbox, person);

    const headers = { authorization: `Bearer ${personToken}` };
    const page = (await (await fetch(`${api.url}/v2/threads`, { headers })).json()) as ThreadListPage;
    assert.deepEqual(
      page.items.map((item) => [item.threadId, item.messageCount]),
      [[first.id, 2]],
    );

    const thread = await fetch(`${api.url}/v2/threads/${first.id}`, { headers });
    const body = (await thread.json()) as { threadId: number; messages: MailSummary[] };
    assert.deepEqual(
      body.messages.map((mail) => mail.id),
      [first.id, third.id],
    );
    assert.ok(body.messages.every((mail) => mail.threadId === first.id));

    const someoneElse = await get<{ detail: string }>(`/v2/threads/${first.id}`);
    assert.equal(someoneElse.status, 404);
    assert.match(someoneElse.body.detail, /thread \d+ does not exist/);
    assert.equal((await get(`/v2/threads/abc`)).status, 400);
  });

  test('the thread summaries stay what a recount gives after reads, moves, deletes, locks and concurrent stores', async () => {
    const person = await createTestUser(db, 'threads-summary');
    const folder = (await db.sql.query<{ id: number }>(`INSERT INTO mailboxes (user_id, name, role) VALUES ($1, 'Side', 'custom') RETURNING id`, [person.id]))
      .rows[0].id;
    const put = (index: number, inReplyTo?: string) =>
      store(
        {
          id: `<s${index}@x>`,
          subject: inReplyTo ? 'Re: Summary' : `Summary ${index}`,
          inReplyTo,
          date: `2026-09-${String(1 + (index % 28)).padStart(2, '0')}T10:00:00Z`,
        },
        person.mailboxes.inbox,
        person,
      );
    const roots = await Promise.all(Array.from({ length: 8 }, (_, index) => put(index)));
    await Promise.all(Array.from({ length: 24 }, (_, index) => put(100 + index, `<s${index % 8}@x>`)));
    const recount = async () => {
      const { rows } = await db.sql.query<{ thread_id: string; total: number; unread: number; latest: string }>(
        `SELECT m.thread_id, count(*)::int AS total, (count(*) FILTER (WHERE NOT m.seen))::int AS unread,
                (array_agg(m.id ORDER BY m.received_at DESC, m.id DESC))[1] AS latest
           FROM mails m JOIN mailboxes b ON b.id = m.mailbox_id
          WHERE m.user_id = $1 AND m.deleted_at IS NULL AND NOT b.locked GROUP BY m.thread_id ORDER BY m.thread_id`,
        [person.id],
      );
      return rows.map((row) => [Number(row.thread_id), row.total, row.unread, Number(row.latest)]);
    };
    const summaries = async () => {
      const { rows } = await db.sql.query<{ thread_id: string; message_count: number; unread_count: number; latest_mail_id: string }>(
        'SELECT thread_id, message_count, unread_count, latest_mail_id FROM threads WHERE user_id = $1 ORDER BY thread_id',
        [person.id],
      );
      return rows.map((row) => [Number(row.thread_id), row.message_count, row.unread_count, Number(row.latest_mail_id)]);
    };
    assert.deepEqual(await summaries(), await recount());
    assert.equal((await recount()).length, 8);

    await Promise.all([
      db.sql.query('UPDATE mails SET seen = true WHERE user_id = $1 AND id % 2 = 0', [person.id]),
      db.sql.query('UPDATE mails SET mailbox_id = $2 WHERE user_id = $1 AND id % 3 = 0', [person.id, folder]),
      Promise.all(Array.from({ length: 8 }, (_, index) => put(200 + index, `<s${index}@x>`))),
    ]);
    await db.sql.query('UPDATE mails SET deleted_at = now() WHERE user_id = $1 AND thread_id = $2', [person.id, roots[0].threadId]);
    assert.deepEqual(await summaries(), await recount(), 'after concurrent reads, moves, stores and a deleted thread');

    await db.sql.query('UPDATE mailboxes SET locked = true WHERE id = $1', [folder]);
    assert.deepEqual(await summaries(), await recount(), "a locked folder's mail leaves the counts");
    await db.sql.query('UPDATE mailboxes SET locked = false WHERE id = $1', [folder]);
    assert.deepEqual(await summaries(), await recount(), 'and comes back when it is unlocked');
  });
});
