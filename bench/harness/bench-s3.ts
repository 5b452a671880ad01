import path from 'node:path';
import { loadConfig, storageConfig } from '@letterbox/config';
import { createBlobStore, type BlobStore, type Compression } from '@letterbox/storage';
import { REPO_ROOT } from '@letterbox/testing';
import { portTaken } from './bench-apps';
import { startService, type ChildService } from './child-service';

/** Beside the other ports the harness takes for itself (mock providers 3925, ingest 3932). */
export const BENCH_S3_PORT = 3940;
/** Kept between runs: the reference mails' blobs are copied in once. */
export const BENCH_S3_DIR = path.join(REPO_ROOT, 'var/bench-s3');
const BUCKET = 'letterbox-bench';
const SERVER_FILE = path.join(__dirname, 's3rver-main.ts');

export interface BenchS3 extends ChildService {
  /** The settings that make an app store its blobs in this S3. */
  env: Record<string, string>;
  /** A store on it that writes blobs compressed or not. */
  store(compression: Compression): BlobStore;
}

/** Starts s3rver in a process of its own on 127.0.0.1:3940, its objects in var/bench-s3, and waits until its bucket answers. */
export async function startBenchS3(): Promise<BenchS3> {
  if (await portTaken(BENCH_S3_PORT)) throw new Error(`port ${BENCH_S3_PORT} is taken; stop what listens there (the bench's S3 server left over?)`);
  const env = {
    STORAGE_BACKEND: 's3',
    S3_ENDPOINT: `http://127.0.0.1:${BENCH_S3_PORT}`,
    S3_BUCKET: BUCKET,
    S3_REGION: 'us-east-1',
    // s3rver's own fixed credentials.
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    S3_FORCE_PATH_STYLE: 'true',
  };
  const storeOf = (compression: Compression) => createBlobStore(loadConfig(storageConfig, { ...env, STORAGE_COMPRESS: compression }));
  const stores: Record<Compression, BlobStore> = { none: storeOf('none'), gzip: storeOf('gzip') };
  const service = await startService({
    name: "the bench's S3 server (s3rver)",
    args: ['--require', '@swc-node/register', SERVER_FILE],
    env: { BENCH_S3_PORT: String(BENCH_S3_PORT), BENCH_S3_DIR, BENCH_S3_BUCKET: BUCKET },
    ready: () =>
      stores.none.check().then(
        () => true,
        () => false,
      ),
  });
  return { ...service, env, store: (compression) => stores[compression] };
}
