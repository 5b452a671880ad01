import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { after, before, describe, test } from 'node:test';
import { BlobNotFoundError, BlobStore } from './blob-store';

const content = Buffer.from(Array.from({ length: 300_000 }, (_, index) => (index * 7919) % 251));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const collect = async (stream: Readable) => Buffer.concat(await stream.toArray());

for (const compression of ['none', 'gzip'] as const) {
  describe(`BlobStore with compression ${compression}`, () => {
    let root: string;
    let store: BlobStore;

    before(async () => {
      root = await mkdtemp(path.join(tmpdir(), 'letterbox-blobs-'));
      store = new BlobStore(root, compression);
    });
    after(() => rm(root, { recursive: true, force: true }));

    test('the key is the content hash, and the same content is stored once', async () => {
      const first = await store.put(content);
      const second = await store.put(Readable.from([content.subarray(0, 1000), content.subarray(1000)]));
      assert.equal(first.key, sha256(content) + (compression === 'gzip' ? '.gz' : ''));
      assert.deepEqual(second, first);
      assert.equal(first.size, content.length);
      assert.deepEqual(await readdir(path.join(root, 'tmp')), [], 'no temporary file is left behind');
    });

    test('reads back whole, by range, and several ranges at once', async () => {
      const { key } = await store.put(content);
      assert.ok((await collect(store.createReadStream(key))).equals(content));
      assert.ok((await collect(store.createReadStream(key, { start: 1234, end: 200_001 }))).equals(content.subarray(1234, 200_001)));
      assert.equal((await collect(store.createReadStream(key, { start: 10, end: 10 }))).length, 0);
      const ranges = [{ start: 0, end: 10 }, { start: 299_990, end: 300_000 }, { start: 5, end: 70_000 }];
      const parts = await store.readRanges(key, ranges);
      ranges.forEach((range, index) => assert.ok(parts[index].equals(content.subarray(range.start, range.end))));
    });

    test('a missing blob is a BlobNotFoundError, for streams and ranges', async () => {
      const missing = 'a'.repeat(64) + (compression === 'gzip' ? '.gz' : '');
      await assert.rejects(collect(store.createReadStream(missing)), BlobNotFoundError);
      await assert.rejects(store.readRanges(missing, [{ start: 0, end: 1 }]), BlobNotFoundError);
      assert.throws(() => store.createReadStream('../../etc/passwd'), BlobNotFoundError, 'a key is never a path');
    });

    test('a failing source leaves nothing stored', async () => {
      const failing = new Readable({
        read() {
          this.destroy(new Error('connection reset'));
        },
      });
      await assert.rejects(store.put(failing), /connection reset/);
      assert.deepEqual(await readdir(path.join(root, 'tmp')), []);
    });
  });
}
