import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { randomMail } from '@letterbox/mail-generator';
import { createTestUser, testBlobStore, testDatabase, type TestUser } from '@letterbox/testing';
import { storeMail } from '../store/store-mail';
import { imapMailboxState } from './imap-mailbox-state';
import { ExpungeRecordSweep } from './expunge-record-sweep';
import { ImapMessages } from './imap-messages';
import { uidsOf } from './uids-of-runs.testing';

describe('IMAP UIDs and MODSEQs, kept by the database as mail is stored, moved, flagged and removed', () => {
  const blobs = testBlobStore();
  let db: Database;
  let user: TestUser;
  let messages: ImapMessages;

  before(async () => {
    db = testDatabase();
    user = await createTestUser(db, 'imap-uids');
    messages = new ImapMessages(db);
  });

  after(() => db?.close());

  const stored = async (mailboxId: number, seed: number) =>
    (await storeMail(db, blobs, { userId: user.id, mailboxId, eml: await randomMail(seed, { to: [{ name: 'Uid', address: user.email }] }) })).id;
  const state = async (mailboxId: number) => (await imapMailboxState(db, user.id, mailboxId))!;
  const change = (sql: string, ids: number[]) => db.sql.query(sql, [ids]);

  test('stored mail takes the next UIDs of its mailbox, and each mailbox has a UIDVALIDITY of its own', async () => {
    const first = await stored(user.mailboxes.inbox, 9101);
    const second = await stored(user.mailboxes.inbox, 9102);
    const inbox = await state(user.mailboxes.inbox);
    assert.deepEqual(uidsOf(await messages.uidRuns(user.id, user.mailboxes.inbox)), [1, 2]);
    assert.equal(inbox.uidNext, 3);
    assert.equal(inbox.messages, 2);
    assert.notEqual(inbox.uidValidity, (await state(user.mailboxes.sent)).uidValidity);
    const [one, two] = await messages.byUids(user.id, user.mailboxes.inbox, [1, 2, 7]);
    assert.deepEqual([one.mailId, two.mailId], [first, second]);
    assert.equal(one.flags.seen, false);
    assert.equal(one.layout, undefined);
    assert.ok((await messages.byUids(user.id, user.mailboxes.inbox, [1], 'layout'))[0].layout);
  });

  test('a flag change moves HIGHESTMODSEQ on once per statement and gives the changed mail that MODSEQ; other columns do not', async () => {
    const before = await state(user.mailboxes.inbox);
    const [one, two] = await messages.byUids(user.id, user.mailboxes.inbox, [1, 2]);
    await change('UPDATE mails SET seen = true, keywords = ARRAY[$$Work$$] WHERE id = ANY($1)', [one.mailId, two.mailId]);
    const after = await state(user.mailboxes.inbox);
    assert.equal(after.highestModseq, before.highestModseq + 1);
    const changed = await messages.changedSince(user.id, user.mailboxes.inbox, before.highestModseq);
    assert.deepEqual(
      changed.map((mail) => [mail.uid, mail.modseq, mail.flags.seen, mail.flags.keywords]),
      [
        [1, after.highestModseq, true, ['Work']],
        [2, after.highestModseq, true, ['Work']],
      ],
    );
    const page = await messages.changedSince(user.id, user.mailboxes.inbox, before.highestModseq, { afterUid: 1, limit: 1 });
    assert.deepEqual(
      page.map((mail) => mail.uid),
      [2],
    );
    await change('UPDATE mails SET snippet = snippet || $$.$$ WHERE id = ANY($1)', [one.mailId]);
    assert.equal((await state(user.mailboxes.inbox)).highestModseq, after.highestModseq);
  });

  test('a move expunges the UID in the old mailbox and gives a new one in the new; UIDs are never reused', async () => {
    const archive = (await db.prisma.mailbox.create({ data: { userId: user.id, name: 'UID archive', role: 'custom' } })).id;
    const before = await state(user.mailboxes.inbox);
    const [one] = await messages.byUids(user.id, user.mailboxes.inbox, [1]);
    await change(`UPDATE mails SET mailbox_id = ${archive} WHERE id = ANY($1)`, [one.mailId]);
    assert.deepEqual(uidsOf(await messages.uidRuns(user.id, user.mailboxes.inbox)), [2]);
    assert.deepEqual(await messages.vanishedSince(user.id, user.mailboxes.inbox, before.highestModseq), [[1, 1]]);
    assert.deepEqual(uidsOf(await messages.uidRuns(user.id, archive)), [1]);
    await change(`UPDATE mails SET mailbox_id = ${user.mailboxes.inbox} WHERE id = ANY($1)`, [one.mailId]);
    assert.deepEqual(uidsOf(await messages.uidRuns(user.id, user.mailboxes.inbox)), [2, 3]);
    assert.deepEqual(await messages.vanishedSince(user.id, archive, 0), [[1, 1]]);
    assert.equal((await state(archive)).uidNext, 2);
  });

  test('a delete, a restore and a new stored message (a draft saved again) are an expunge and a new mail', async () => {
    const [three] = await messages.byUids(user.id, user.mailboxes.inbox, [3]);
    const before = await state(user.mailboxes.inbox);
    await change('UPDATE mails SET deleted_at = now() WHERE id = ANY($1)', [three.mailId]);
    assert.deepEqual(uidsOf(await messages.uidRuns(user.id, user.mailboxes.inbox)), [2]);
    await change('UPDATE mails SET deleted_at = NULL WHERE id = ANY($1)', [three.mailId]);
    await change(`UPDATE mails SET storage_key = storage_key || '' WHERE id = ANY($1)`, [three.mailId]);
    assert.deepEqual(uidsOf(await messages.uidRuns(user.id, user.mailboxes.inbox)), [2, 4]);
    await change(`UPDATE mails SET storage_key = 'x' || storage_key WHERE id = ANY($1)`, [three.mailId]);
    assert.deepEqual(uidsOf(await messages.uidRuns(user.id, user.mailboxes.inbox)), [2, 5]);
    assert.deepEqual(await messages.vanishedSince(user.id, user.mailboxes.inbox, before.highestModseq), [[3, 4]]);
    await change(`DELETE FROM mails WHERE id = ANY($1)`, [three.mailId]);
    assert.deepEqual(uidsOf(await messages.uidRuns(user.id, user.mailboxes.inbox)), [2]);
    assert.deepEqual(await messages.vanishedSince(user.id, user.mailboxes.inbox, before.highestModseq), [[3, 5]]);
  });

  test('one statement storing mail in several mailboxes numbers each apart, and the counters stay right', async () => {
    const [two] = await messages.byUids(user.id, user.mailboxes.inbox, [2]);
    const copies = await db.sql.query<{ id: string }>(
      `INSERT INTO mails (user_id, mailbox_id, message_id, from_address, received_at, size, storage_key, layout, thread_id)
       SELECT user_id, box, message_id, from_address, received_at, size, storage_key, layout, thread_id
         FROM mails, unnest($2::int[]) AS box WHERE id = $1 RETURNING id`,
      [two.mailId, [user.mailboxes.sent, user.mailboxes.sent, user.mailboxes.trash]],
    );
    assert.equal(copies.rows.length, 3);
    assert.deepEqual(uidsOf(await messages.uidRuns(user.id, user.mailboxes.sent)), [1, 2]);
    assert.deepEqual(uidsOf(await messages.uidRuns(user.id, user.mailboxes.trash)), [1]);
    assert.equal((await state(user.mailboxes.sent)).messages, 2);
  });

  test('another user cannot read this user’s mailbox by its id', async () => {
    const other = await createTestUser(db, 'imap-uids-other');
    assert.deepEqual(uidsOf(await messages.uidRuns(other.id, user.mailboxes.inbox)), []);
    assert.deepEqual(await messages.byUids(other.id, user.mailboxes.inbox, [2]), []);
    assert.equal(await imapMailboxState(db, other.id, user.mailboxes.inbox), undefined);
  });

  test('expunges older than the retention are forgotten; VANISHED since before them is every UID not there now', async () => {
    const inbox = await state(user.mailboxes.inbox);
    await db.sql.query(`UPDATE mail_expunges SET expunged_at = now() - interval '40 days' WHERE mailbox_id = $1`, [user.mailboxes.inbox]);
    const sweep = new ExpungeRecordSweep(db.sql, { retentionDays: 30, batchSize: 2 });
    // Other tests' old expunges may be swept too: this mailbox's are what is checked.
    while ((await sweep.sweep()) === 2);
    assert.equal((await db.sql.query('SELECT 1 FROM mail_expunges WHERE mailbox_id = $1', [user.mailboxes.inbox])).rowCount, 0);
    // UIDs 1 to 5 were given; 2 is there.
    assert.deepEqual(await messages.vanishedSince(user.id, user.mailboxes.inbox, 1), [
      [1, 1],
      [3, 5],
    ]);
    assert.deepEqual(await messages.vanishedSince(user.id, user.mailboxes.inbox, inbox.highestModseq), []);
  });
});
