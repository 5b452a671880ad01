import assert from 'node:assert/strict';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { ListObjectsV2Command } from '@aws-sdk/client-s3';
import { startTestS3, type TestS3 } from '@letterbox/testing';
import { BlobNotFoundError, type BlobStore, type Compression } from './blob-store';
import { createBlobStore } from './create-blob-store';
import { DiskBlobStore } from './disk-blob-store';
import { createS3Client } from './s3-client';

const content = Buffer.from(Array.from({ length: 300_000 }, (_, index) => (index * 7919) % 251));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const collect = async (stream: Readable) => Buffer.concat(await stream.toArray());
const unique = () => Buffer.from(`blob ${randomUUID()}`);
const isStored = (store: BlobStore, key: string) =>
  store.readRanges(key, [{ start: 0, end: 1 }]).then(
    () => true,
    (error: unknown) => (error instanceof BlobNotFoundError ? false : Promise.reject(error)),
  );

/** A backend under test: its store, and what puts leave behind before they are done (temporary files or objects). */
interface Backend {
  store: BlobStore;
  temporaries(): Promise<string[]>;
  close(): Promise<void>;
}

async function diskBackend(compression: Compression): Promise<Backend> {
  const root = await mkdtemp(path.join(tmpdir(), 'letterbox-blobs-'));
  return {
    store: createBlobStore({ STORAGE_BACKEND: 'disk', STORAGE_DIR: root, STORAGE_COMPRESS: compression, S3_REGION: 'us-east-1', S3_FORCE_PATH_STYLE: false }),
    temporaries: () => readdir(path.join(root, 'tmp')).catch(() => []),
    close: () => rm(root, { recursive: true, force: true }),
  };
}

async function s3Backend(compression: Compression): Promise<Backend> {
  const s3: TestS3 = await startTestS3();
  const settings = { ...s3.env, STORAGE_DIR: '', STORAGE_COMPRESS: compression, S3_FORCE_PATH_STYLE: true };
  const client = createS3Client({
    ...settings,
    endpoint: s3.env.S3_ENDPOINT,
    bucket: s3.env.S3_BUCKET,
    region: s3.env.S3_REGION,
    accessKeyId: s3.env.S3_ACCESS_KEY_ID,
    secretAccessKey: s3.env.S3_SECRET_ACCESS_KEY,
    forcePathStyle: true,
  });
  return {
    store: createBlobStore(settings),
    temporaries: async () =>
      ((await client.send(new ListObjectsV2Command({ Bucket: s3.env.S3_BUCKET, Prefix: 'tmp/' }))).Contents ?? []).map((object) => object.Key ?? ''),
    close: () => s3.close(),
  };
}

for (const [name, makeBackend] of [
  ['disk', diskBackend],
  ['S3', s3Backend],
] as const) {
  for (const compression of ['none', 'gzip'] as const) {
    describe(`the ${name} blob store with compression ${compression}`, () => {
      let backend: Backend;
      let store: BlobStore;

      before(async () => {
        backend = await makeBackend(compression);
        store = backend.store;
      });
      after(() => backend?.close());

      test('the key is the content hash, and the same content is stored once', async () => {
        const first = await store.put(content);
        const second = await store.put(Readable.from([content.subarray(0, 1000), content.subarray(1000)]));
        assert.equal(first.key, sha256(content) + (compression === 'gzip' ? '.gz' : ''));
        assert.deepEqual(second, first);
        assert.equal(first.size, content.length);
        assert.deepEqual(await backend.temporaries(), [], 'nothing temporary is left behind');
      });

      test('reads back whole, by range, and several ranges at once', async () => {
        const { key } = await store.put(content);
        assert.ok((await collect(store.createReadStream(key))).equals(content));
        assert.ok((await collect(store.createReadStream(key, { start: 1234, end: 200_001 }))).equals(content.subarray(1234, 200_001)));
        assert.equal((await collect(store.createReadStream(key, { start: 10, end: 10 }))).length, 0);
        const ranges = [
          { start: 0, end: 10 },
          { start: 299_990, end: 300_000 },
          { start: 5, end: 70_000 },
          { start: 7, end: 7 },
          { start: 299_999, end: 310_000 },
        ];
        const parts = await store.readRanges(key, ranges);
        ranges.forEach((range, index) => assert.ok(parts[index].equals(content.subarray(range.start, range.end)), `range ${index}`));
      });

      test('content larger than a part is streamed up in parts and read back by ranges', async () => {
        const large = Buffer.alloc(9 * 1024 * 1024 + 17);
        for (let offset = 0; offset + 4 <= large.length; offset += 4) large.writeUInt32LE(offset ^ 0x5bd1e995, offset);
        const chunks = Array.from({ length: Math.ceil(large.length / 65_536) }, (_, index) => large.subarray(index * 65_536, (index + 1) * 65_536));
        const { key, size } = await store.put(Readable.from(chunks));
        assert.equal(key, sha256(large) + (compression === 'gzip' ? '.gz' : ''));
        assert.equal(size, large.length);
        const far = { start: 9 * 1024 * 1024 - 5, end: large.length };
        const [head, tail] = await store.readRanges(key, [{ start: 0, end: 100 }, far]);
        assert.ok(head.equals(large.subarray(0, 100)));
        assert.ok(tail.equals(large.subarray(far.start, far.end)));
        assert.ok((await collect(store.createReadStream(key, far))).equals(large.subarray(far.start, far.end)));
        assert.ok((await collect(store.createReadStream(key))).equals(large));
        assert.deepEqual(await backend.temporaries(), [], 'the temporary upload is gone');
      });

      test('a missing blob is a BlobNotFoundError, for streams and ranges', async () => {
        const missing = 'a'.repeat(64) + (compression === 'gzip' ? '.gz' : '');
        await assert.rejects(collect(store.createReadStream(missing)), BlobNotFoundError);
        await assert.rejects(collect(store.createReadStream(missing, { start: 0, end: 5 })), BlobNotFoundError);
        await assert.rejects(store.readRanges(missing, [{ start: 0, end: 1 }]), BlobNotFoundError);
        assert.throws(() => store.createReadStream('../../etc/passwd'), BlobNotFoundError, 'a key is never a path');
      });

      test('a failing source leaves nothing stored', async () => {
        for (const before of [Buffer.alloc(0), Buffer.alloc(9 * 1024 * 1024)]) {
          let sent = false;
          const failing = new Readable({
            read() {
              if (sent) return this.destroy(new Error('connection reset'));
              sent = true;
              this.push(before);
            },
          });
          await assert.rejects(store.put(failing), /connection reset/);
        }
        assert.deepEqual(await backend.temporaries(), []);
      });

      test('a tracked put tells whether it created the blob; every put makes a new version', async () => {
        const bytes = unique();
        const first = await store.putTracked(bytes);
        assert.ok(first.created, 'the first put created it');
        const second = await store.putTracked(bytes);
        assert.deepEqual(second.blob, first.blob);
        assert.equal(second.created, undefined, 'the second found it');
        assert.equal(await store.remove(first.created), false, 'the version written again is kept');
        assert.equal(await isStored(store, first.blob.key), true);
      });

      test('a version still there is removed; a missing blob is nothing to remove', async () => {
        const { created, blob } = await store.putTracked(unique());
        assert.ok(created);
        assert.equal(await store.remove(created), true);
        assert.equal(await isStored(store, blob.key), false);
        assert.equal(await store.remove(created), false);
      });

      test('blobs are listed in key order, a step at a time, with their versions and ages', async () => {
        const keys = new Set<string>();
        for (let index = 0; index < 5; index++) keys.add((await store.put(unique())).key);
        const seen: string[] = [];
        let after = '';
        do {
          const { blobs, next } = await store.listAfter(after, 2);
          for (const blob of blobs) {
            seen.push(blob.version.key);
            assert.ok(Math.abs(blob.modifiedMs - Date.now()) < 120_000, 'its age');
          }
          after = next ?? '';
        } while (after);
        assert.deepEqual(seen, [...seen].sort(), 'in key order');
        assert.equal(new Set(seen).size, seen.length, 'each once');
        for (const key of keys) assert.ok(seen.includes(key));
        const listed = (await store.listAfter('', 1000)).blobs.find((blob) => keys.has(blob.version.key));
        assert.ok(listed);
        assert.equal(await store.remove(listed.version), true, 'a listed version is one remove takes');
      });

      test('answers its readiness check', async () => {
        await store.check();
      });
    });
  }
}

test('the disk store of a fresh install, not written to yet, is ready: its folder is made', async () => {
  const parent = await mkdtemp(path.join(tmpdir(), 'letterbox-storage-'));
  const dir = path.join(parent, 'var', 'storage');
  await new DiskBlobStore(dir).check();
  assert.deepEqual(await readdir(dir), []);
  await rm(parent, { recursive: true, force: true });
});
