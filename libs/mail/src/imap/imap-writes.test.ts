import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { loadConfig, redisConfig } from '@letterbox/config';
import { primaryOnly, type Database } from '@letterbox/db';
import { createMailAnnouncer, type MailAnnouncer } from '@letterbox/events';
import { workerConnection } from '@letterbox/queue';
import type { RedisConnection } from '@letterbox/redis';
import { createTestUser, testBlobStore, testDatabase, testQueuePrefix, unlinkKeys, type TestUser } from '@letterbox/testing';
import { storeMail } from '../store/store-mail';
import { ImapExpunge } from './imap-expunge';
import { ImapFlagChanges } from './imap-flag-store';
import { ImapMailTransfers, ImapOverQuotaError } from './imap-mail-transfers';
import { imapMailboxState } from './imap-mailbox-state';
import { ImapMessages } from './imap-messages';
import { imapSearch, imapSearchStatement } from './imap-search';
import { imapSearchSql, type ImapSearchCriterion } from './imap-search-sql';
import { uidsOf } from './uids-of-runs.testing';

const NONE = { seen: false, flagged: false, answered: false, forwarded: false, deleted: false, keywords: [] };

function eml(subject: string, body: string, from = 'alice@example.com'): Buffer {
  return Buffer.from(
    `From: Alice <${from}>\r\nTo: bob@example.com\r\nSubject: ${subject}\r\nDate: Tue, 03 Nov 2026 10:00:00 +0000\r\n` +
      `Message-ID: <${subject.replace(/\W/g, '')}-${Math.random()}@example.com>\r\nContent-Type: text/plain; charset=utf-8\r\n\r\n${body}\r\n`,
  );
}

describe('IMAP writes and SEARCH on a mailbox, through the statements the webmail changes mail with', () => {
  const blobs = testBlobStore();
  const prefix = testQueuePrefix();
  let db: Database;
  let redis: RedisConnection;
  let user: TestUser;
  let announcer: MailAnnouncer;
  let flags: ImapFlagChanges;
  let messages: ImapMessages;
  let archive: number;

  before(async () => {
    db = testDatabase();
    redis = workerConnection(loadConfig(redisConfig));
    user = await createTestUser(db, 'imap-writes');
    announcer = createMailAnnouncer({ redis, queuePrefix: prefix, writes: primaryOnly(db.sql) });
    flags = new ImapFlagChanges(db, announcer);
    messages = new ImapMessages(db);
    archive = (await db.prisma.mailbox.create({ data: { userId: user.id, name: 'IMAP archive', role: 'custom' } })).id;
  });

  after(async () => {
    if (redis) await unlinkKeys(redis, `${prefix}:*`);
    redis?.disconnect();
    await db?.close();
  });

  const store = async (mailboxId: number, subject: string, body: string, from?: string) =>
    storeMail(db, blobs, { userId: user.id, mailboxId, eml: eml(subject, body, from), receivedAt: new Date('2026-11-03T10:00:00Z') });
  const search = async (mailboxId: number, criterion: ImapSearchCriterion) => (await imapSearch(db, blobs, user.id, mailboxId, criterion)).uids;

  test('STORE adds, removes and replaces flags and keywords, leaving mails already as asked; UNCHANGEDSINCE reports the others', async () => {
    const box = archive;
    await store(box, 'Flags one', 'first');
    await store(box, 'Flags two', 'second');
    const [one, two] = uidsOf(await messages.uidRuns(user.id, box));
    const added = await flags.store(user.id, box, [one, two], { mode: 'add', flags: { ...NONE, seen: true, keywords: ['Work'] } });
    assert.deepEqual(added, { changed: [one, two], modified: [] });
    assert.equal((await imapMailboxState(db, user.id, box))!.unseen, 0);
    const again = await flags.store(user.id, box, [one], { mode: 'add', flags: { ...NONE, seen: true } });
    assert.deepEqual(again.changed, []);
    await flags.store(user.id, box, [one], { mode: 'remove', flags: { ...NONE, seen: true, keywords: ['Work'] } });
    const [first] = await messages.byUids(user.id, box, [one]);
    assert.deepEqual([first.flags.seen, first.flags.keywords], [false, []]);
    const modseq = first.modseq;
    await flags.store(user.id, box, [two], { mode: 'replace', flags: { ...NONE, flagged: true, deleted: true } });
    const [second] = await messages.byUids(user.id, box, [two]);
    assert.deepEqual([second.flags.seen, second.flags.flagged, second.flags.deleted, second.flags.keywords], [false, true, true, []]);
    const conditional = await flags.store(user.id, box, [one, two], { mode: 'add', flags: { ...NONE, answered: true }, unchangedSince: modseq });
    assert.deepEqual(conditional, { changed: [one], modified: [two] });
  });

  test('MOVE and COPY answer the UIDs in the destination; counters follow; a copy past the quota is refused', async () => {
    const transfers = new ImapMailTransfers(db, announcer, 10 * 1024 ** 3);
    const from = user.mailboxes.inbox;
    await store(from, 'Move me', 'moving');
    await store(from, 'Copy me', 'copying');
    const [moved, copied] = uidsOf(await messages.uidRuns(user.id, from));
    const target = archive;
    const before = (await imapMailboxState(db, user.id, target))!;
    const move = await transfers.move(user.id, from, [moved], target);
    assert.deepEqual(move.sourceUids, [moved]);
    assert.equal(move.destinationUids[0], before.uidNext);
    assert.equal(move.destinationUidValidity, before.uidValidity);
    assert.deepEqual(uidsOf(await messages.uidRuns(user.id, from)), [copied]);
    const copy = await transfers.copy(user.id, from, [copied], target);
    assert.deepEqual(copy.destinationUids, [before.uidNext + 1]);
    assert.deepEqual(uidsOf(await messages.uidRuns(user.id, from)), [copied]);
    assert.equal((await imapMailboxState(db, user.id, target))!.messages, before.messages + 2);
    assert.deepEqual(await search(target, { kind: 'text', value: 'copying' }), copy.destinationUids);
    const tight = new ImapMailTransfers(db, announcer, 1);
    await assert.rejects(tight.copy(user.id, from, [copied], target), ImapOverQuotaError);
    assert.equal((await imapMailboxState(db, user.id, target))!.messages, before.messages + 2);
  });

  test('EXPUNGE deletes the \\Deleted mails for good (those of the given UIDs only for UID EXPUNGE)', async () => {
    const box = user.mailboxes.spam;
    for (const name of ['a', 'b', 'c']) await store(box, `Expunge ${name}`, name);
    const [a, b, c] = uidsOf(await messages.uidRuns(user.id, box));
    await flags.store(user.id, box, [a, b, c], { mode: 'add', flags: { ...NONE, deleted: true } });
    const expunge = new ImapExpunge(db, announcer);
    assert.deepEqual(await expunge.expunge(user.id, box, [b]), [b]);
    assert.deepEqual(await expunge.expunge(user.id, box), [a, c]);
    assert.deepEqual(uidsOf(await messages.uidRuns(user.id, box)), []);
    assert.deepEqual(await messages.vanishedSince(user.id, box, 0), [[a, c]]);
  });

  test('SEARCH finds body words, Korean words, fields, flags, dates, sizes and UIDs, with NOT and OR', async () => {
    const box = user.mailboxes.sent;
    await store(box, 'Quarterly budget', 'The zeppelin leaves at noon.', 'carol@example.com');
    await store(box, '회의 안내', '내일 회의록을 공유합니다.');
    await store(box, 'Lunch', 'Sandwiches for everyone.');
    const [budget, korean, lunch] = uidsOf(await messages.uidRuns(user.id, box));
    assert.deepEqual(await search(box, { kind: 'text', value: 'zeppelin' }), [budget]);
    assert.deepEqual(await search(box, { kind: 'text', value: '회의록' }), [korean]);
    assert.deepEqual(await search(box, { kind: 'field', field: 'from', value: 'CAROL' }), [budget]);
    assert.deepEqual(await search(box, { kind: 'field', field: 'subject', value: 'lunch' }), [lunch]);
    await flags.store(user.id, box, [lunch], { mode: 'add', flags: { ...NONE, seen: true } });
    assert.deepEqual(await search(box, { kind: 'flag', flag: 'seen', set: false }), [budget, korean]);
    assert.deepEqual(await search(box, { kind: 'not', criterion: { kind: 'flag', flag: 'seen', set: false } }), [lunch]);
    assert.deepEqual(await search(box, { kind: 'or', left: { kind: 'uids', ranges: [[budget, budget]] }, right: { kind: 'text', value: 'sandwiches' } }), [
      budget,
      lunch,
    ]);
    assert.deepEqual(await search(box, { kind: 'date', of: 'internal', comparison: 'on', day: '2026-11-03' }), [budget, korean, lunch]);
    assert.deepEqual(await search(box, { kind: 'date', of: 'internal', comparison: 'before', day: '2026-11-03' }), []);
    assert.deepEqual(await search(box, { kind: 'size', comparison: 'larger', bytes: 100_000 }), []);
    assert.deepEqual(await search(box, { kind: 'and', criteria: [{ kind: 'all' }, { kind: 'uids', ranges: [[korean, lunch]] }] }), [korean, lunch]);
  });

  test('SEARCH HEADER on a field the row does not keep reads the header blocks of the mails the rest matched', async () => {
    const box = (await db.prisma.mailbox.create({ data: { userId: user.id, name: 'IMAP headers', role: 'custom' } })).id;
    const withHeaders = (extra: string, subject: string) =>
      storeMail(db, blobs, {
        userId: user.id,
        mailboxId: box,
        eml: Buffer.from(`From: a@example.com\r\nTo: b@example.com\r\nSubject: ${subject}\r\n${extra}Message-ID: <${subject}@example.com>\r\n\r\nHi\r\n`),
        receivedAt: new Date('2026-11-03T10:00:00Z'),
      });
    await withHeaders('X-Mailer: Thunderbird 140\r\n', 'one');
    await withHeaders('X-Mailer: Outlook\r\nX-Label: =?UTF-8?B?7ZqM7J2Y?=\r\n', 'two');
    await withHeaders('', 'three');
    const [one, two, three] = uidsOf(await messages.uidRuns(user.id, box));
    assert.deepEqual(await search(box, { kind: 'header', field: 'x-mailer', value: 'THUNDERBIRD' }), [one]);
    assert.deepEqual(await search(box, { kind: 'header', field: 'X-Mailer', value: '' }), [one, two]);
    assert.deepEqual(await search(box, { kind: 'header', field: 'X-Label', value: '회의' }), [two]);
    assert.deepEqual(
      await search(box, {
        kind: 'and',
        criteria: [
          { kind: 'uids', ranges: [[two, three]] },
          { kind: 'header', field: 'x-mailer', value: 'o' },
        ],
      }),
      [two],
    );
    assert.deepEqual(
      await search(box, {
        kind: 'and',
        criteria: [
          { kind: 'field', field: 'subject', value: 'three' },
          { kind: 'header', field: 'x-mailer', value: '' },
        ],
      }),
      [],
    );
  });

  test('SEARCH UNSEEN reads the unseen mail from its partial index, not every mail of the mailbox', async () => {
    const { condition, values } = imapSearchSql({ kind: 'flag', flag: 'seen', set: false }, 3);
    const { rows } = await db.sql.query<{ 'QUERY PLAN': string }>(`EXPLAIN ${imapSearchStatement(condition)}`, [1, 1, ...values]);
    const plan = rows.map((row) => row['QUERY PLAN']).join('\n');
    assert.match(plan, /mail_uids_unseen_idx/, plan);
  });
});
