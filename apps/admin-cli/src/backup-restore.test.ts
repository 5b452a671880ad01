import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { applyMigrations, createDatabase, type Database } from '@letterbox/db';
import { DiskBlobStore } from '@letterbox/storage';
import {
  type AppProcess,
  createTestUser,
  REPO_ROOT,
  type RunningIngestServer,
  startIngestProcess,
  startIngestWorkerProcess,
  testDatabase,
  testQueuePrefix,
  type TestUser,
  waitFor,
} from '@letterbox/testing';
import { adminInProcess } from './testing/admin-in-process';

/** A database of its own beside the test database, named after it: made here, dropped after. */
function siblingDatabaseUrl(role: string): string {
  const url = new URL(process.env.DATABASE_URL ?? '');
  url.pathname = `${url.pathname}_${role}_${randomUUID().slice(0, 8)}`;
  return url.toString();
}

const databaseName = (url: string) => new URL(url).pathname.slice(1);

/** A message of about `kilobytes`, its body lines numbered, ending with a line break as mail does. */
function message(user: TestUser, index: number, kilobytes: number): string {
  const lines = Array.from({ length: kilobytes * 16 }, (_, line) => `line ${line} of message ${index}: ${'x'.repeat(48)}`);
  return `From: news@example.org\r\nTo: ${user.email}\r\nSubject: backup ${index}\r\nMessage-ID: <backup-${index}@${user.domain}>\r\n\r\n${lines.join('\r\n')}\r\n`;
}

describe('backup <dir> and restore <dir>: a running platform backed up while mail arrives, restored onto an empty one', () => {
  const queuePrefix = testQueuePrefix();
  const source = { url: siblingDatabaseUrl('backup_source'), storage: '' };
  const target = { url: siblingDatabaseUrl('backup_target'), storage: '' };
  let backupDir = '';
  let testDb: Database;
  let db: Database;
  let ingest: RunningIngestServer;
  let worker: AppProcess;
  let user: TestUser;

  async function admin(env: { url: string; storage: string }, ...args: string[]) {
    return adminInProcess(args, { QUEUE_PREFIX: queuePrefix, DATABASE_URL: env.url, STORAGE_DIR: env.storage });
  }

  before(async () => {
    testDb = testDatabase(1);
    [source.storage, target.storage, backupDir] = await Promise.all(
      ['source', 'target', 'backup'].map((name) => mkdtemp(path.join(tmpdir(), `letterbox-${name}-`))),
    );
    for (const { url } of [source, target]) await testDb.sql.query(`CREATE DATABASE "${databaseName(url)}"`);
    await applyMigrations(source.url, path.join(REPO_ROOT, 'prisma/migrations'));
    db = createDatabase({ url: source.url, poolSize: 4, applicationName: 'letterbox-tests' });
    user = await createTestUser(db, 'backup');
    const env = { QUEUE_PREFIX: queuePrefix, DATABASE_URL: source.url, STORAGE_DIR: source.storage };
    [ingest, worker] = await Promise.all([startIngestProcess(env), startIngestWorkerProcess(env)]);
  });

  after(async () => {
    await Promise.all([ingest?.close(), worker?.stop()]);
    await db?.close();
    for (const { url } of [source, target]) await testDb?.sql.query(`DROP DATABASE IF EXISTS "${databaseName(url)}" WITH (FORCE)`);
    await testDb?.close();
    await Promise.all([source.storage, target.storage, backupDir].map((dir) => dir && rm(dir, { recursive: true, force: true })));
  });

  test('every mail of the backup reads back byte for byte from the restored installation; a non-empty one is refused', async () => {
    const stored = () =>
      db.sql.query<{ count: number }>('SELECT count(*)::int AS count FROM mails WHERE user_id = $1', [user.id]).then((result) => result.rows[0].count);
    let sent = 0;
    const post = async () => {
      const index = sent++;
      const answer = await ingest.post(message(user, index, index % 10 === 0 ? 300 : 4), { to: [user.email] });
      assert.equal(answer.status, 202, answer.body.detail);
    };
    await Promise.all(Array.from({ length: 20 }, post));
    await waitFor(async () => (await stored()) >= 20, { what: 'the first mails to be stored' });

    // Mail keeps arriving, small ones spooled and large ones streamed into storage, all through the backup.
    let backingUp = true;
    const arriving = (async () => {
      while (backingUp) await Promise.all([post(), post()]);
    })();
    const backup = await admin(source, 'backup', backupDir);
    backingUp = false;
    await arriving;
    const arrivedDuring = sent - 20;
    assert.ok(arrivedDuring > 0, 'mail arrived while the backup ran');
    assert.equal(backup.code, 0, backup.stderr);
    assert.match(backup.stdout, /^backup written to .*: the database, \d+ blobs and \d+ spool files/);

    const restored = await admin(target, 'restore', backupDir);
    assert.equal(restored.code, 0, restored.stderr);
    const restoredDb = createDatabase({ url: target.url, poolSize: 2, applicationName: 'letterbox-tests' });
    try {
      const { rows } = await restoredDb.sql.query<{ storage_key: string; message_id: string }>('SELECT storage_key, message_id FROM mails WHERE user_id = $1', [
        user.id,
      ]);
      assert.ok(rows.length >= 20, `the mails stored before the backup are in it (${rows.length})`);
      const from = new DiskBlobStore(source.storage);
      const to = new DiskBlobStore(target.storage);
      for (const { storage_key: key, message_id: messageId } of rows) {
        const [original, copy] = await Promise.all([from, to].map(async (store) => Buffer.concat(await store.createReadStream(key).toArray())));
        assert.ok(copy.equals(original), `${messageId} reads back as it was stored`);
      }
    } finally {
      await restoredDb.close();
    }

    const again = await admin(target, 'restore', backupDir);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /^admin: the database is not empty: it has \d+ tables/);
    const notEmpty = await admin(source, 'backup', backupDir);
    assert.equal(notEmpty.code, 1);
    assert.match(notEmpty.stderr, /is not empty .*a backup goes into an empty folder/);
  });
});
