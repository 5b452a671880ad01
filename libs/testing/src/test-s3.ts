// eslint-disable-next-line @typescript-eslint/triple-slash-reference -- s3rver ships no types, and every project that compiles this file (through the testing lib) must see ours
/// <reference path="./s3rver.d.ts" />
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, describe } from 'node:test';

export interface TestS3 {
  /** The settings that make an app, or testSettings(), store blobs in this S3. */
  env: {
    STORAGE_BACKEND: 's3';
    S3_ENDPOINT: string;
    S3_BUCKET: string;
    S3_REGION: string;
    S3_ACCESS_KEY_ID: string;
    S3_SECRET_ACCESS_KEY: string;
    S3_FORCE_PATH_STYLE: 'true';
  };
  /** Where s3rver keeps the objects, as files. */
  directory: string;
  close(): Promise<void>;
}

const BUCKET = 'letterbox-test';

/**
 * An S3-compatible server in this process, on a free port of 127.0.0.1 and with a folder
 * of its own, its bucket made: s3rver, pure Node, which speaks multipart upload, ranged
 * GET and ListObjects. App processes the test starts reach it by its `env`.
 */
export async function startTestS3(): Promise<TestS3> {
  // Loaded here, not with the testing lib: s3rver and its Koa stack cost every test file's start-up, and few tests use S3.
  const { default: S3rver } = await import('s3rver');
  const directory = await mkdtemp(path.join(tmpdir(), 'letterbox-s3-'));
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory, configureBuckets: [{ name: BUCKET }] });
  const { port } = await server.run();
  return {
    env: {
      STORAGE_BACKEND: 's3',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_BUCKET: BUCKET,
      S3_REGION: 'us-east-1',
      // s3rver's own fixed credentials.
      S3_ACCESS_KEY_ID: 'S3RVER',
      S3_SECRET_ACCESS_KEY: 'S3RVER',
      S3_FORCE_PATH_STYLE: 'true',
    },
    directory,
    async close() {
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}

/**
 * Runs the tests of other test files again with blobs in a test S3: each file is loaded
 * once the S3 is up and this process's settings (testBlobStore, apps in this process or
 * started from it) point at it.
 */
export function describeOnTestS3(name: string, load: () => Promise<unknown>): void {
  describe(name, async () => {
    const s3 = await startTestS3();
    Object.assign(process.env, s3.env);
    after(() => s3.close());
    await load();
  });
}
