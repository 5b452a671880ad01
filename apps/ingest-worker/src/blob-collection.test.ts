import type { RunningWorker } from '@letterbox/queue';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm, utimes } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { ConfigError } from '@letterbox/config';
import { BlobNotFoundError, DiskBlobStore } from '@letterbox/storage';
import { sleep, testQueuePrefix, waitFor } from '@letterbox/testing';
import { loadIngestWorkerConfig } from './ingest-worker.config';
import { startIngestWorker } from './start-ingest-worker';

const DAY_MS = 24 * 3600 * 1000;

describe('the ingest worker collects the blobs nothing refers to', () => {
  let root: string;
  let store: DiskBlobStore;
  let worker: RunningWorker;

  before(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'letterbox-worker-blobs-'));
    store = new DiskBlobStore(root);
    worker = await startIngestWorker(loadIngestWorkerConfig({ ...process.env, QUEUE_PREFIX: testQueuePrefix(), STORAGE_DIR: root, BLOB_SWEEP_MS: '100' }));
  });

  after(async () => {
    await worker?.close();
    if (root) await rm(root, { recursive: true, force: true });
  });

  const isStored = (key: string) =>
    store.readRanges(key, [{ start: 0, end: 1 }]).then(
      () => true,
      (error: unknown) => (error instanceof BlobNotFoundError ? false : Promise.reject(error)),
    );

  test('an unreferenced blob older than the grace period goes; a younger one stays', async () => {
    const old = await store.put(Buffer.from(`old ${randomUUID()}`));
    const twoDaysAgo = new Date(Date.now() - 2 * DAY_MS);
    await utimes(path.join(root, old.key.slice(0, 2), old.key.slice(2, 4), old.key), twoDaysAgo, twoDaysAgo);
    const young = await store.put(Buffer.from(`young ${randomUUID()}`));
    await waitFor(async () => !(await isStored(old.key)), { what: 'the old blob removed' });
    await sleep(300);
    assert.equal(await isStored(young.key), true);
  });

  test('a grace period shorter than an hour is refused at start', () => {
    assert.throws(
      () => loadIngestWorkerConfig({ ...process.env, BLOB_GRACE_MS: '60000' }),
      (error: Error) => {
        assert.ok(error instanceof ConfigError);
        assert.match(error.message, /BLOB_GRACE_MS/);
        return true;
      },
    );
  });
});
