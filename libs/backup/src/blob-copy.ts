import { BlobNotFoundError, type BlobStore } from '@letterbox/storage';
import { storeFor, type StoresByCompression } from './backup-layout';

/** Blobs listed per step of the walk. */
const LISTING_SIZE = 500;
/** Blobs copied at once: enough to keep a disk or an S3 connection pool busy, a stream each, none held in memory. */
const COPIES_AT_ONCE = 4;

/**
 * Copies every blob of `from` that `skip` does not pass over into the store of its
 * compression among `to`, streamed, and answers how many it copied. A blob that goes
 * while it is walked (the blob collector removed it) is passed over: see takeBackup for
 * why none the database dump refers to can.
 */
export async function copyBlobs(from: BlobStore, to: StoresByCompression, skip: (key: string) => Promise<boolean> = async () => false): Promise<number> {
  let copied = 0;
  let after = '';
  for (let more = true; more;) {
    const { blobs, next } = await from.listAfter(after, LISTING_SIZE);
    const keys = blobs.map((blob) => blob.version.key);
    for (let start = 0; start < keys.length; start += COPIES_AT_ONCE) {
      const done = await Promise.all(keys.slice(start, start + COPIES_AT_ONCE).map(async (key) => !(await skip(key)) && copyBlob(from, to, key)));
      copied += done.filter(Boolean).length;
    }
    after = next ?? '';
    more = next !== undefined;
  }
  return copied;
}

/** Copies one blob; false when it is no longer there. */
async function copyBlob(from: BlobStore, to: StoresByCompression, key: string): Promise<boolean> {
  try {
    const { key: written } = await storeFor(to, key).put(from.createReadStream(key));
    if (written !== key) throw new Error(`blob ${key} was read back as ${written}: its content does not match its key`);
    return true;
  } catch (error) {
    if (error instanceof BlobNotFoundError) return false;
    throw error;
  }
}
