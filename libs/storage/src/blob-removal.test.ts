import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdir, mkdtemp, readdir, rename, rm, stat, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { blobPath, TRASH_FOLDER } from './blob-paths';
import { BlobNotFoundError } from './blob-store';
import { DiskBlobStore } from './disk-blob-store';
import { diskVersionOf } from './disk-blob-version';

const unique = () => Buffer.from(`blob ${randomUUID()}`);
const versionNow = async (store: DiskBlobStore, key: string) => diskVersionOf(key, await stat(blobPath(store.root, key), { bigint: true }));
const isStored = (store: DiskBlobStore, key: string) =>
  store.readRanges(key, [{ start: 0, end: 1 }]).then(
    () => true,
    (error: unknown) => (error instanceof BlobNotFoundError ? false : Promise.reject(error)),
  );

describe('blob versions and their removal on disk', () => {
  let root: string;
  let store: DiskBlobStore;

  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'letterbox-blob-removal-'));
    store = new DiskBlobStore(root);
  });
  after(() => rm(root, { recursive: true, force: true }));

  test('a tracked put tells whether it created the blob, and the version it made', async () => {
    const content = unique();
    const first = await store.putTracked(content);
    assert.ok(first.created, 'the first put created it');
    assert.deepEqual(first.created, await versionNow(store, first.blob.key));
    const second = await store.putTracked(content);
    assert.deepEqual(second.blob, first.blob);
    assert.equal(second.created, undefined, 'the second found it');
    assert.notDeepEqual(await versionNow(store, first.blob.key), first.created, 'and wrote a version of its own');
    assert.deepEqual(await readdir(path.join(root, 'tmp')), [], 'no temporary name is left behind');
  });

  test('every put of stored content makes a new version', async () => {
    const content = unique();
    const { key } = await store.put(content);
    const before = await versionNow(store, key);
    await store.put(content);
    assert.notDeepEqual(await versionNow(store, key), before);
  });

  test('a removal goes through the trash and leaves nothing in it', async () => {
    const { created } = await store.putTracked(unique());
    assert.ok(created);
    assert.equal(await store.remove(created), true);
    assert.deepEqual(await readdir(path.join(root, TRASH_FOLDER)), []);
  });

  test('a blob written again since its version was seen is kept, and readable', async () => {
    const content = unique();
    const { created, blob } = await store.putTracked(content);
    assert.ok(created);
    await store.put(content);
    const rewritten = await versionNow(store, blob.key);
    assert.equal(await store.remove(created), false);
    assert.equal(await isStored(store, blob.key), true);
    assert.equal((await versionNow(store, blob.key)).stamp.split('.')[0], rewritten.stamp.split('.')[0], 'the file put back is the one written again');
  });

  describe('a removal that a crash cut short, after the rename into the trash', () => {
    async function trashAsACrashWould(key: string, meant: { stamp: string }): Promise<void> {
      await mkdir(path.join(root, TRASH_FOLDER), { recursive: true });
      await rename(blobPath(root, key), path.join(root, TRASH_FOLDER, `${key}.${meant.stamp}.${randomUUID()}`));
    }

    test('is finished when the file in the trash is the version meant', async () => {
      const { created, blob } = await store.putTracked(unique());
      assert.ok(created);
      await trashAsACrashWould(blob.key, created);
      await store.clearLeftovers(Date.now() - 3600_000, 100);
      assert.equal(await isStored(store, blob.key), false);
      assert.deepEqual(await readdir(path.join(root, TRASH_FOLDER)), []);
    });

    test('puts the file back, as young as a new put, when it is not the version meant', async () => {
      const content = unique();
      const { created, blob } = await store.putTracked(content);
      assert.ok(created);
      await store.put(content);
      const dayAgo = new Date(Date.now() - 24 * 3600 * 1000);
      await utimes(blobPath(root, blob.key), dayAgo, dayAgo);
      await trashAsACrashWould(blob.key, created);
      await store.clearLeftovers(Date.now() - 3600_000, 100);
      assert.equal(await isStored(store, blob.key), true);
      const { mtimeMs } = await stat(blobPath(root, blob.key));
      assert.ok(mtimeMs > Date.now() - 60_000, 'touched as it went back');
      assert.deepEqual(await readdir(path.join(root, TRASH_FOLDER)), []);
    });
  });
});
