import type { JobPayloads } from '@letterbox/queue';
import type { BlobStore, StoredBlob } from '@letterbox/storage';
import type { IntakeSpool } from './intake-spool';

/**
 * The blob an accepted message is stored under, put there from the intake's spool first
 * when the intake spooled it: durably, before any mail refers to it. Put again on every
 * attempt (a put of stored bytes is harmless). A spool file gone was swept once none of
 * its acceptances was pending, so its messages are in blob storage already.
 */
export async function unspool(payload: JobPayloads['ingest-mail'], spool: IntakeSpool | undefined, blobs: BlobStore): Promise<StoredBlob> {
  const blob = { key: payload.storageKey, size: payload.size };
  if (!payload.spooled) return blob;
  if (!spool) throw new Error(`${payload.inboundId} was spooled on disk, and this worker has no spool (STORAGE_BACKEND is not disk)`);
  const bytes = await spool.read(payload.spooled, payload.size).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!bytes) return blob;
  const stored = await blobs.put(bytes);
  if (stored.key !== blob.key) throw new Error(`${payload.inboundId}: its spooled bytes are ${stored.key}, not ${blob.key}`);
  return blob;
}
