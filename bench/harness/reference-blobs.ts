import { loadConfig, storageConfig } from '@letterbox/config';
import { createBlobStore } from '@letterbox/storage';
import { ALICE_EMAIL } from '../data/bench-accounts';
import type { BenchS3 } from './bench-s3';
import type { BenchFixtures, ReferenceSize } from './bench-fixtures';
import { copyMissingBlobs, type BlobCopy } from './copy-blobs';
import { processEnvironment } from './process-tree';

const SIZES: ReferenceSize[] = ['small', 'medium', 'large'];

/**
 * Copies the blobs of alice's reference mails, which the read scenarios read, from the
 * disk read API's storage into the bench's S3; the bulk user's million mails stay out.
 */
export async function copyReferenceBlobs(fixtures: BenchFixtures, diskApiPid: number, s3: BenchS3): Promise<BlobCopy & { storageDir: string }> {
  const ids = await Promise.all(SIZES.map((size) => fixtures.referenceMailId(ALICE_EMAIL, size)));
  const { rows } = await fixtures.sql.query<{ storage_key: string }>('SELECT storage_key FROM mails WHERE id = ANY($1)', [ids]);
  const { STORAGE_DIR, STORAGE_COMPRESS, LETTERBOX_DEMO } = processEnvironment(diskApiPid);
  // Unset, the API's default: var/storage of its checkout, taken to be this one (which only the demo may use).
  const settings = loadConfig(storageConfig, { STORAGE_DIR, STORAGE_COMPRESS, LETTERBOX_DEMO });
  const disk = createBlobStore({ ...settings, STORAGE_BACKEND: 'disk' });
  const copy = await copyMissingBlobs(
    disk,
    s3.store,
    rows.map((row) => row.storage_key),
  ).catch((error: Error) => {
    throw new Error(`copying the reference mails' blobs from ${settings.STORAGE_DIR} to S3 failed: ${error.message}`);
  });
  return { ...copy, storageDir: settings.STORAGE_DIR };
}
