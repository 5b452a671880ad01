import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { utimes } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { HeadObjectCommand, PutObjectCommand } from '@aws-sdk/client-s3';
import type { Database } from '@letterbox/db';
import { storeMail } from '@letterbox/mail';
import { BlobCollector, BlobNotFoundError, createS3Client, S3BlobStore, type BlobReferences } from '@letterbox/storage';
import { createTestUser, startTestS3, testDatabase, type TestS3, type TestUser } from '@letterbox/testing';
import { DatabaseBlobReferences } from './database-blob-references';

const GRACE_MS = 3600 * 1000;

describe('the blob collector on S3, against the references in PostgreSQL', () => {
  let db: Database;
  let s3: TestS3;
  let client: ReturnType<typeof createS3Client>;
  let store: S3BlobStore;
  let references: DatabaseBlobReferences;
  let user: TestUser;

  before(async () => {
    db = testDatabase();
    references = new DatabaseBlobReferences(db.sql);
    user = await createTestUser(db, 'collected-s3');
    s3 = await startTestS3();
    const { env } = s3;
    client = createS3Client({
      endpoint: env.S3_ENDPOINT,
      bucket: env.S3_BUCKET,
      region: env.S3_REGION,
      accessKeyId: env.S3_ACCESS_KEY_ID,
      secretAccessKey: env.S3_SECRET_ACCESS_KEY,
      forcePathStyle: true,
    });
    store = new S3BlobStore(client, env.S3_BUCKET);
  });
  after(async () => {
    await s3?.close();
    await db?.close();
  });

  const collector = (options: { references?: BlobReferences } = {}) =>
    new BlobCollector(store, options.references ?? references, { graceMs: GRACE_MS, batchSize: 100 });
  const isStored = (key: string) =>
    store.readRanges(key, [{ start: 0, end: 1 }]).then(
      () => true,
      (error: unknown) => (error instanceof BlobNotFoundError ? false : Promise.reject(error)),
    );
  /** s3rver tells an object's modification time from its file's. */
  async function age(key: string): Promise<void> {
    const then = new Date(Date.now() - 2 * GRACE_MS);
    await utimes(path.join(s3.directory, s3.env.S3_BUCKET, `${key}._S3rver_object`), then, then);
  }

  test('an old blob nothing refers to goes; an old one a mail refers to and a young one stay; a rewritten one stays', async () => {
    const orphan = (await store.put(Buffer.from(`orphan ${randomUUID()}`))).key;
    const eml = Buffer.from(`From: a@example.org\r\nTo: ${user.email}\r\nSubject: kept?\r\nMessage-ID: <${randomUUID()}@example.org>\r\n\r\nhello\r\n`);
    const mailKey = (await storeMail(db, store, { eml, userId: user.id, mailboxId: user.mailboxes.inbox })).storageKey;
    const young = (await store.put(Buffer.from(`young ${randomUUID()}`))).key;
    const rewrittenContent = Buffer.from(`rewritten ${randomUUID()}`);
    const rewritten = (await store.put(rewrittenContent)).key;
    for (const key of [orphan, mailKey, rewritten]) await age(key);
    // A writer puts the same bytes after the sweep listed the blob, before it removes it: its reference comes next.
    const writerMeanwhile: BlobReferences = {
      async referenced(keys) {
        const answer = await references.referenced(keys);
        await store.put(rewrittenContent);
        return answer;
      },
    };
    assert.deepEqual(await collector({ references: writerMeanwhile }).sweep(), { examined: 4, removed: 1 });
    assert.equal(await isStored(orphan), false);
    for (const key of [mailKey, young, rewritten]) assert.equal(await isStored(key), true, key);
  });

  test('a temporary object a crash left is removed once older than the grace period', async () => {
    const [stale, fresh] = [`tmp/${randomUUID()}`, `tmp/${randomUUID()}`];
    for (const key of [stale, fresh]) await client.send(new PutObjectCommand({ Bucket: s3.env.S3_BUCKET, Key: key, Body: Buffer.from('part') }));
    const then = new Date(Date.now() - 2 * GRACE_MS);
    await utimes(path.join(s3.directory, s3.env.S3_BUCKET, 'tmp', `${stale.slice(4)}._S3rver_object`), then, then);
    await collector().sweep();
    const exists = (key: string) =>
      client.send(new HeadObjectCommand({ Bucket: s3.env.S3_BUCKET, Key: key })).then(
        () => true,
        () => false,
      );
    assert.equal(await exists(stale), false);
    assert.equal(await exists(fresh), true);
  });
});
