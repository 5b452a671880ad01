import { BlobNotFoundError, type BlobStore, type Compression } from '@letterbox/storage';

export interface BlobCopy {
  copied: number;
  /** Already in the target: a run after the first copies nothing. */
  present: number;
  copiedBytes: number;
}

/**
 * Copies the blobs the target lacks from the source, under the same keys. A key is the
 * hash of the content (with `.gz` when stored compressed), so putting the same content
 * into a store that compresses alike lands on the same key; that is checked.
 */
export async function copyMissingBlobs(source: BlobStore, target: (compression: Compression) => BlobStore, keys: string[]): Promise<BlobCopy> {
  const copy: BlobCopy = { copied: 0, present: 0, copiedBytes: 0 };
  for (const key of new Set(keys)) {
    const store = target(key.endsWith('.gz') ? 'gzip' : 'none');
    if (await holds(store, key)) {
      copy.present += 1;
      continue;
    }
    const stored = await store.put(source.createReadStream(key));
    if (stored.key !== key) throw new Error(`blob ${key} was stored as ${stored.key}`);
    copy.copied += 1;
    copy.copiedBytes += stored.size;
  }
  return copy;
}

async function holds(store: BlobStore, key: string): Promise<boolean> {
  try {
    await store.readRanges(key, [{ start: 0, end: 1 }]);
    return true;
  } catch (error) {
    if (error instanceof BlobNotFoundError) return false;
    throw error;
  }
}
