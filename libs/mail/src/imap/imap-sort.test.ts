import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { createTestUser, testBlobStore, testDatabase, type TestUser } from '@letterbox/testing';
import { storeMail } from '../store/store-mail';
import { ImapMessages } from './imap-messages';
import { imapSearch } from './imap-search';
import type { ImapSearchCriterion } from './imap-search-sql';
import type { ImapSortField } from './imap-sort-sql';
import { imapThreads } from './imap-thread';
import { uidsOf } from './uids-of-runs.testing';

interface Message {
  subject: string;
  from: string;
  to: string;
  cc?: string;
  date?: string;
  receivedAt: string;
  body?: string;
  messageId?: string;
  inReplyTo?: string;
}

function eml(message: Message): Buffer {
  const headers = [
    `From: ${message.from}`,
    `To: ${message.to}`,
    ...(message.cc ? [`Cc: ${message.cc}`] : []),
    `Subject: ${message.subject}`,
    ...(message.date ? [`Date: ${message.date}`] : []),
    `Message-ID: ${message.messageId ?? `<${Math.random()}@example.com>`}`,
    ...(message.inReplyTo ? [`In-Reply-To: ${message.inReplyTo}`, `References: ${message.inReplyTo}`] : []),
    'Content-Type: text/plain; charset=utf-8',
  ];
  return Buffer.from(`${headers.join('\r\n')}\r\n\r\n${message.body ?? 'hello'}\r\n`);
}

describe('IMAP SORT and THREAD on a mailbox, and the sent date they read', () => {
  const blobs = testBlobStore();
  let db: Database;
  let user: TestUser;
  let messages: ImapMessages;

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'imap-sort');
    messages = new ImapMessages(db);
  });

  after(async () => {
    await db?.close();
  });

  const newMailbox = async (name: string) => (await db.prisma.mailbox.create({ data: { userId: user.id, name, role: 'custom' } })).id;
  const store = async (mailboxId: number, message: Message) =>
    storeMail(db, blobs, { userId: user.id, mailboxId, eml: eml(message), receivedAt: new Date(message.receivedAt) });

  test('the base subject drops Re:, Fw:, Fwd:, [blobs] and (fwd) trailers, folds whitespace and case, unwraps [fwd: ...]', async () => {
    const cases: [string, string][] = [
      ['Re: Hello', 'hello'],
      ['RE:  Fwd: [list] Re[2]: Hello \t World (fwd) (FWD) ', 'hello world'],
      ['[list] Budget', 'budget'],
      ['[only a blob]', '[only a blob]'],
      ['[Fwd: Re: Meeting]', 'meeting'],
      ['Fw: [a][b] re: x', 'x'],
      ['Re:', ''],
      ['Réunion', 'réunion'],
    ];
    const { rows } = await db.sql.query<{ base: string }>('SELECT imap_base_subject(s) AS base FROM unnest($1::text[]) WITH ORDINALITY AS v(s, n) ORDER BY n', [
      cases.map(([subject]) => subject),
    ]);
    assert.deepEqual(
      rows.map((row) => row.base),
      cases.map(([, base]) => base),
    );
  });

  test('the sent date is the Date header, NULL without one or with one that does not parse; SENT* read it, else the arrival', async () => {
    const box = await newMailbox('Sent dates');
    const dated = await store(box, {
      subject: 'dated',
      from: 'a@x.org',
      to: 'b@x.org',
      date: 'Sun, 01 Mar 2026 23:30:00 -0500',
      receivedAt: '2026-03-05T10:00:00Z',
    });
    const undated = await store(box, { subject: 'undated', from: 'a@x.org', to: 'b@x.org', receivedAt: '2026-03-04T10:00:00Z' });
    const garbled = await store(box, { subject: 'garbled', from: 'a@x.org', to: 'b@x.org', date: 'not a date 12:00', receivedAt: '2026-03-03T10:00:00Z' });
    const { rows } = await db.sql.query<{ id: string; sent_at: Date | null }>('SELECT id, sent_at FROM mails WHERE id = ANY($1::bigint[]) ORDER BY id', [
      [dated.id, undated.id, garbled.id],
    ]);
    assert.deepEqual(
      rows.map((row) => row.sent_at?.toISOString() ?? null),
      ['2026-03-02T04:30:00.000Z', null, null],
    );
    const [first, second, third] = uidsOf(await messages.uidRuns(user.id, box));
    const search = async (criterion: ImapSearchCriterion) => (await imapSearch(db, blobs, user.id, box, criterion)).uids;
    // The header's day in UTC: 2 March (1 March in the header's own zone).
    assert.deepEqual(await search({ kind: 'date', of: 'sent', comparison: 'on', day: '2026-03-02' }), [first]);
    assert.deepEqual(await search({ kind: 'date', of: 'sent', comparison: 'before', day: '2026-03-03' }), [first]);
    assert.deepEqual(await search({ kind: 'date', of: 'sent', comparison: 'since', day: '2026-03-04' }), [second]);
    assert.deepEqual(await search({ kind: 'date', of: 'sent', comparison: 'on', day: '2026-03-03' }), [third]);
    assert.deepEqual(await search({ kind: 'date', of: 'internal', comparison: 'since', day: '2026-03-05' }), [first]);
  });

  test('SORT by each key, REVERSE, ties by UID, within what the search keys find', async () => {
    const box = await newMailbox('Sorting');
    // a: 3 days sent, 1st to arrive, smallest; b: 1st sent, 3rd to arrive; c: 2nd sent, 2nd to arrive, largest.
    await store(box, {
      subject: 'Re: banana',
      from: 'Zed <Carol@x.org>',
      to: 'Yann <yann@x.org>',
      cc: 'b@x.org',
      date: 'Tue, 03 Mar 2026 10:00:00 +0000',
      receivedAt: '2026-03-10T00:00:00Z',
      body: 'a',
    });
    await store(box, {
      subject: '[list] Apple',
      from: 'alice@x.org',
      to: 'xavier@x.org',
      cc: 'c@x.org',
      date: 'Sun, 01 Mar 2026 10:00:00 +0000',
      receivedAt: '2026-03-12T00:00:00Z',
      body: 'b'.repeat(50),
    });
    await store(box, {
      subject: 'cherry',
      from: 'Adam <bob@x.org>',
      to: 'walter@x.org',
      date: 'Mon, 02 Mar 2026 10:00:00 +0000',
      receivedAt: '2026-03-11T00:00:00Z',
      body: 'c'.repeat(500),
    });
    const [a, b, c] = uidsOf(await messages.uidRuns(user.id, box));
    const sorted = async (field: ImapSortField, reverse = false, criterion: ImapSearchCriterion = { kind: 'all' }) =>
      (await imapSearch(db, blobs, user.id, box, criterion, [{ field, reverse }])).uids;
    assert.deepEqual(await sorted('arrival'), [a, c, b]);
    assert.deepEqual(await sorted('date'), [b, c, a]);
    assert.deepEqual(await sorted('size'), [a, b, c]);
    assert.deepEqual(await sorted('subject'), [b, a, c]);
    assert.deepEqual(await sorted('from'), [b, c, a]);
    assert.deepEqual(await sorted('to'), [c, b, a]);
    assert.deepEqual(await sorted('cc'), [c, a, b]);
    assert.deepEqual(await sorted('displayfrom'), [c, b, a]);
    assert.deepEqual(await sorted('displayto'), [c, b, a]);
    assert.deepEqual(await sorted('date', true), [a, c, b]);
    assert.deepEqual(await sorted('size', true, { kind: 'uids', ranges: [[a, b]] }), [b, a]);
    const tied = await imapSearch(db, blobs, user.id, box, { kind: 'all' }, [
      { field: 'cc', reverse: true },
      { field: 'date', reverse: false },
    ]);
    assert.deepEqual(tied.uids, [b, a, c]);
    assert.ok(tied.highestModseq > 0);
    assert.deepEqual((await imapSearch(db, blobs, user.id, box, { kind: 'none' }, [{ field: 'size', reverse: false }])).uids, []);
  });

  test('THREAD by ORDEREDSUBJECT groups by base subject, by REFERENCES by conversation, each by sent date', async () => {
    const box = await newMailbox('Threads');
    const message = (subject: string, date: string, extra: Partial<Message> = {}): Message => ({
      subject,
      from: 'a@x.org',
      to: 'b@x.org',
      date,
      receivedAt: '2026-04-10T00:00:00Z',
      ...extra,
    });
    await store(box, message('Plans', 'Wed, 01 Apr 2026 10:00:00 +0000', { messageId: '<plans@x.org>' }));
    await store(box, message('Other', 'Thu, 02 Apr 2026 10:00:00 +0000'));
    await store(box, message('Re: Plans', 'Sat, 04 Apr 2026 10:00:00 +0000', { inReplyTo: '<plans@x.org>', messageId: '<re1@x.org>' }));
    await store(box, message('Changed subject', 'Fri, 03 Apr 2026 10:00:00 +0000', { inReplyTo: '<plans@x.org>' }));
    await store(box, message('[list] plans', 'Tue, 31 Mar 2026 10:00:00 +0000'));
    const [plans, other, reply, changed, listed] = uidsOf(await messages.uidRuns(user.id, box));
    const bySubject = await imapThreads(db, blobs, user.id, box, { kind: 'all' }, 'orderedsubject');
    assert.deepEqual(bySubject, { uids: [listed, plans, reply, other, changed], sizes: [3, 1, 1] });
    const byReferences = await imapThreads(db, blobs, user.id, box, { kind: 'all' }, 'references');
    assert.deepEqual(byReferences, { uids: [listed, plans, changed, reply, other], sizes: [1, 3, 1] });
    const unseenReplies = await imapThreads(db, blobs, user.id, box, { kind: 'uids', ranges: [[reply, changed]] }, 'references');
    assert.deepEqual(unseenReplies, { uids: [changed, reply], sizes: [2] });
  });
});
