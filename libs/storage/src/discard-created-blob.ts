import type { BlobReferences } from './blob-collector';
import type { BlobStore, TrackedPut } from './blob-store';

/**
 * Removes a blob whose content was refused right after it was put, when that put created
 * it; resolves whether it did. No grace period is needed: the one writer that will never
 * refer to this version is its own creator. Nothing referred to the key before (a blob
 * referred to has its file, and there was none), which the query checks all the same;
 * a writer putting the same bytes since made a new version, which BlobStore.remove keeps.
 * A put that found the blob leaves it to BlobCollector: its bytes may be another
 * writer's, about to be referred to.
 */
export async function discardCreatedBlob(store: BlobStore, references: BlobReferences, put: TrackedPut): Promise<boolean> {
  if (!put.created) return false;
  if ((await references.referenced([put.blob.key])).has(put.blob.key)) return false;
  return store.remove(put.created);
}
