import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { MailboxChanges, storeMail } from '@letterbox/mail';
import type { BlobStore } from '@letterbox/storage';
import { createTestUser, testBlobStore, testDatabase, testQueuePrefix, type TestUser } from '@letterbox/testing';
import { adminInProcess } from './testing/admin-in-process';

const MAILS = 1000;
const FOLDER = 'Projekte/Überblick';

/** Mail of the shapes mbox must carry unchanged: lines that look like `From ` lines, quoted or not, LF or CRLF, a line longer than a piece. */
function mailOf(user: TestUser, index: number): Buffer {
  const eol = index % 3 === 0 ? '\n' : '\r\n';
  const body = [
    `Hello ${index},`,
    'From the start of a line, as mbox separates mail.',
    '>From a quoted line, >>From twice; and',
    '>>>From three times.',
    'From ',
    ...(index % 250 === 7 ? ['y'.repeat(100_000), `>${'>'.repeat(70_000)}From the far end of a long line`] : []),
    '',
    'Bye',
  ];
  const headers = [
    `From: Sender ${index} <sender${index}@example.org>`,
    `To: ${user.email}`,
    `Subject: mbox ${index}`,
    `Message-ID: <mbox-${index}@${user.domain}>`,
  ];
  return Buffer.from([...headers, '', ...body, ''].join(eol));
}

describe("export <email> <file.mbox> and import <email> <file.mbox>: a user's mail as mboxrd, folders and flags kept", () => {
  const queuePrefix = testQueuePrefix();
  let db: Database;
  let blobs: BlobStore;
  let dir = '';

  async function admin(...args: string[]) {
    return adminInProcess(args, { QUEUE_PREFIX: queuePrefix });
  }

  /** Each folder's mails by content (the storage key is its hash), flags and counters. */
  async function mailboxesOf(userId: number) {
    const { rows } = await db.sql.query<{ name: string; total_count: number; unread_count: number; mails: string[] }>(
      `SELECT b.name, b.total_count, b.unread_count,
              coalesce(array_agg(m.storage_key || ':' || m.seen || ':' || m.flagged ORDER BY m.storage_key) FILTER (WHERE m.id IS NOT NULL), '{}') AS mails
         FROM mailboxes b LEFT JOIN mails m ON m.mailbox_id = b.id WHERE b.user_id = $1 GROUP BY b.id ORDER BY b.name`,
      [userId],
    );
    return rows;
  }

  before(async () => {
    db = testDatabase();
    blobs = testBlobStore();
    dir = await mkdtemp(path.join(tmpdir(), 'letterbox-mbox-'));
  });

  after(async () => {
    blobs?.close();
    await db?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test(`${MAILS} mails round-trip byte for byte: exported, imported for another user, exported again`, async () => {
    const [ada, bob] = [await createTestUser(db, 'ada'), await createTestUser(db, 'bob')];
    const folder = await new MailboxChanges(db.sql, async () => true).create(ada.id, FOLDER);
    const { rows } = await db.sql.query<{ id: number }>(`SELECT id FROM mailboxes WHERE user_id = $1 AND role = 'inbox'`, [ada.id]);
    for (let start = 0; start < MAILS; start += 20) {
      await Promise.all(
        Array.from({ length: Math.min(20, MAILS - start) }, (_, offset) => {
          const index = start + offset;
          return storeMail(db, blobs, {
            userId: ada.id,
            mailboxId: index % 4 === 0 ? folder.id : rows[0].id,
            eml: mailOf(ada, index),
            receivedAt: new Date(Date.UTC(2026, 0, 1, 0, 0, index)),
            seen: index % 2 === 0,
            flagged: index % 5 === 0,
          });
        }),
      );
    }

    const [first, second] = [path.join(dir, 'ada.mbox'), path.join(dir, 'bob.mbox')];
    const exported = await admin('export', ada.email, first);
    assert.equal(exported.code, 0, exported.stderr);
    assert.equal(exported.stdout, `${MAILS} mails of ${ada.email} written to ${first}\n`);
    const imported = await admin('import', bob.email, first);
    assert.equal(imported.code, 0, imported.stderr);
    assert.match(imported.stdout, new RegExp(`^${MAILS} messages read from .*: ${MAILS} stored for ${bob.email}, 0 `));
    assert.equal((await admin('export', bob.email, second)).code, 0);

    assert.ok((await readFile(second)).equals(await readFile(first)), 'the second export is the first, byte for byte');
    assert.deepEqual(await mailboxesOf(bob.id), await mailboxesOf(ada.id), 'the same mails (by content), flags and counters in each folder');
  });

  test('an mbox from elsewhere goes to the inbox, its quoted lines unquoted, once however often it is imported, never by two imports at once; a file that is not an mbox is refused', async () => {
    const eve = await createTestUser(db, 'eve');
    const file = path.join(dir, 'other.mbox');
    await writeFile(
      file,
      'From someone@example.org Thu Jan  1 00:00:00 2026\nSubject: one\n\n>From here\n\nFrom other@example.org Fri Jan  2 00:00:00 2026\nSubject: two\n\nbody\n\n',
    );
    assert.equal((await admin('import', eve.email, file)).code, 0);
    const again = await admin('import', eve.email, file);
    assert.equal(again.stdout, `2 messages read from ${file}: 0 stored for ${eve.email}, 2 that their folder held already left out\n`);
    const { rows } = await db.sql.query<{ storage_key: string; role: string }>(
      'SELECT m.storage_key, b.role FROM mails m JOIN mailboxes b ON b.id = m.mailbox_id WHERE m.user_id = $1 ORDER BY m.id',
      [eve.id],
    );
    const stored = await Promise.all(rows.map(async (row) => [row.role, Buffer.concat(await blobs.createReadStream(row.storage_key).toArray()).toString()]));
    assert.deepEqual(stored, [
      ['inbox', 'Subject: one\n\nFrom here\n'],
      ['inbox', 'Subject: two\n\nbody\n'],
    ]);
    // While another import of hers runs (its session lock held here), a second is refused at once: both would store the same message.
    const other = await db.sql.connect();
    try {
      await other.query('SELECT pg_advisory_lock($1, $2)', [0x6d626f78, eve.id]);
      const concurrent = await admin('import', eve.email, file);
      assert.deepEqual([concurrent.code, concurrent.stderr], [1, 'admin: another import for this user is running; run this one once it has ended\n']);
    } finally {
      other.release(true);
    }
    assert.equal((await admin('import', eve.email, file)).code, 0, 'the lock goes with the session that held it');
    await writeFile(file, 'Subject: not an mbox\n\nbody\n');
    const refused = await admin('import', eve.email, file);
    assert.equal(refused.code, 1);
    assert.equal(refused.stderr, 'admin: the file is not an mbox: it does not start with a "From " line\n');
  });
});
