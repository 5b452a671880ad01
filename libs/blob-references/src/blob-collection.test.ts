import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, rm, stat, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { Database } from '@letterbox/db';
import { storeMail } from '@letterbox/mail';
import { SendRecords } from '@letterbox/sending';
import { BlobCollector, BlobNotFoundError, DiskBlobStore, type BlobReferences } from '@letterbox/storage';
import { createTestUser, testDatabase, testQueuePrefix, type TestUser } from '@letterbox/testing';
import { DatabaseBlobReferences } from './database-blob-references';

const HOUR_MS = 3600 * 1000;
const GRACE_MS = HOUR_MS;

describe('the blob collector, against the references in PostgreSQL', () => {
  let db: Database;
  let root: string;
  let store: DiskBlobStore;
  let references: DatabaseBlobReferences;
  let user: TestUser;

  before(async () => {
    db = testDatabase();
    references = new DatabaseBlobReferences(db.sql);
    user = await createTestUser(db, 'collected');
  });
  after(async () => {
    if (root) await rm(root, { recursive: true, force: true });
    await db?.close();
  });

  /** Each test has a store of its own, so a sweep sees only that test's blobs. */
  async function freshStore(): Promise<void> {
    if (root) await rm(root, { recursive: true, force: true });
    root = await mkdtemp(path.join(tmpdir(), 'letterbox-collected-'));
    store = new DiskBlobStore(root);
  }

  const collector = (options: { batchSize?: number; references?: BlobReferences } = {}) =>
    new BlobCollector(store, options.references ?? references, { graceMs: GRACE_MS, batchSize: options.batchSize ?? 100 });
  const fileOf = (key: string) => path.join(root, key.slice(0, 2), key.slice(2, 4), key);
  const isStored = (key: string) =>
    store.readRanges(key, [{ start: 0, end: 1 }]).then(
      () => true,
      (error: unknown) => (error instanceof BlobNotFoundError ? false : Promise.reject(error)),
    );
  async function age(key: string, byMs = 2 * GRACE_MS): Promise<void> {
    const then = new Date(Date.now() - byMs);
    await utimes(fileOf(key), then, then);
  }
  const message = () => Buffer.from(`From: a@example.org\r\nTo: ${user.email}\r\nSubject: kept?\r\nMessage-ID: <${randomUUID()}@example.org>\r\n\r\nhello\r\n`);
  const attachment = async () => (await store.put(Buffer.from(`attachment ${randomUUID()}`))).key;

  test('an old blob that nothing refers to is removed', async () => {
    await freshStore();
    const { key } = await store.put(Buffer.from(`orphan ${randomUUID()}`));
    await age(key);
    assert.deepEqual(await collector().sweep(), { examined: 1, removed: 1 });
    assert.equal(await isStored(key), false);
  });

  test('an old blob is kept while a mail, a send, a draft or an accepted message refers to it', async () => {
    await freshStore();
    const mailKey = (await storeMail(db, store, { eml: message(), userId: user.id, mailboxId: user.mailboxes.inbox })).storageKey;
    const sendKey = await attachment();
    const sender = { userId: user.id, officeId: user.officeId, email: user.email, displayName: 'Collected' };
    await new SendRecords(db).record(
      sender,
      {
        to: ['someone@example.org'],
        cc: [],
        bcc: [],
        subject: 'with a file',
        text: 'see attached',
        important: false,
        saveCopy: false,
        sendSeparately: false,
        requestReadReceipt: false,
        attachments: [{ filename: 'a.txt', contentType: 'text/plain', storageKey: sendKey, size: 40 }],
      },
      { queuePrefix: testQueuePrefix() },
    );
    const draftKey = await attachment();
    const draftMail = await storeMail(db, store, { eml: message(), userId: user.id, mailboxId: user.mailboxes.drafts });
    await db.sql.query('INSERT INTO drafts (mail_id, user_id, content) VALUES ($1, $2, $3::jsonb)', [
      draftMail.id,
      user.id,
      JSON.stringify({
        to: [],
        cc: [],
        bcc: [],
        subject: '',
        important: false,
        requestReadReceipt: false,
        attachments: [{ id: 'a1', filename: 'b.txt', contentType: 'text/plain', storageKey: draftKey, size: 40 }],
      }),
    ]);
    const acceptedKey = (await store.put(message())).key;
    const inboundId = randomUUID();
    await db.sql.query('INSERT INTO inbound_acceptances (inbound_id, queue_prefix, payload) VALUES ($1, $2, $3::jsonb)', [
      inboundId,
      testQueuePrefix(),
      JSON.stringify({ inboundId, storageKey: acceptedKey }),
    ]);
    const kept = [mailKey, sendKey, draftKey, acceptedKey];
    for (const key of [...kept, draftMail.storageKey]) await age(key);

    assert.deepEqual(await collector().sweep(), { examined: 5, removed: 0 });
    for (const key of kept) assert.equal(await isStored(key), true, key);

    await db.sql.query('DELETE FROM inbound_acceptances WHERE inbound_id = $1', [inboundId]);
    assert.deepEqual(await collector().sweep(), { examined: 5, removed: 1 }, 'the message stored or given up, its acceptance gone: no longer');
    assert.equal(await isStored(acceptedKey), false);
  });

  test('a young blob is kept, referred to or not', async () => {
    await freshStore();
    const { key } = await store.put(Buffer.from(`young ${randomUUID()}`));
    await age(key, GRACE_MS - 60_000);
    assert.deepEqual(await collector().sweep(), { examined: 1, removed: 0 });
    assert.equal(await isStored(key), true);
  });

  test('a blob written again while the sweep makes sure nothing refers to it is kept', async () => {
    await freshStore();
    const content = Buffer.from(`rewritten ${randomUUID()}`);
    const { key } = await store.put(content);
    await age(key);
    // A writer puts the same bytes after the sweep read the blob's file, before it removes it: its reference comes next.
    const writerMeanwhile: BlobReferences = {
      async referenced(keys) {
        const answer = await references.referenced(keys);
        await store.put(content);
        return answer;
      },
    };
    assert.deepEqual(await collector({ references: writerMeanwhile }).sweep(), { examined: 1, removed: 0 });
    assert.equal(await isStored(key), true);
    assert.ok((await stat(fileOf(key))).mtimeMs > Date.now() - 60_000, 'the file is the one written again');
    assert.deepEqual(await collector().sweep(), { examined: 1, removed: 0 }, 'and it has its own grace period');
  });

  test('each sweep examines about a batch, going on where the last stopped', async () => {
    await freshStore();
    const keys: string[] = [];
    const folders = new Set<string>();
    while (keys.length < 5) {
      const content = Buffer.from(`batched ${randomUUID()}`);
      const { key } = await store.put(content);
      // One blob per folder, so that every sweep ends at its batch.
      if (folders.has(key.slice(0, 4))) continue;
      folders.add(key.slice(0, 4));
      keys.push(key);
      await age(key);
    }
    const batched = collector({ batchSize: 2 });
    assert.deepEqual(await batched.sweep(), { examined: 2, removed: 2 });
    assert.deepEqual(await batched.sweep(), { examined: 2, removed: 2 });
    assert.deepEqual(await batched.sweep(), { examined: 1, removed: 1 });
    for (const key of keys) assert.equal(await isStored(key), false);
  });

  test('a temporary file older than the grace period is removed, a newer one kept', async () => {
    await freshStore();
    await mkdir(path.join(root, 'tmp'), { recursive: true });
    const [stale, fresh] = [path.join(root, 'tmp', randomUUID()), path.join(root, 'tmp', randomUUID())];
    await writeFile(stale, 'a put a crash cut short');
    await writeFile(fresh, 'a put in progress');
    const then = new Date(Date.now() - 2 * GRACE_MS);
    await utimes(stale, then, then);
    await collector().sweep();
    await assert.rejects(stat(stale), { code: 'ENOENT' });
    await stat(fresh);
  });
});
