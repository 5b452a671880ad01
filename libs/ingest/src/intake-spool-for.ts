import type { StorageSettings } from '@letterbox/storage';
import { IntakeSpool, spoolFolderOf } from './intake-spool';

/**
 * The spool the intake writes and the ingest worker reads, in the storage folder they share: on disk
 * storage only. On S3 there is none: a PUT is durable by itself, and the workers may not share the
 * intake's disk.
 */
export function intakeSpoolFor(storage: Pick<StorageSettings, 'STORAGE_BACKEND' | 'STORAGE_DIR'>): IntakeSpool | undefined {
  return storage.STORAGE_BACKEND === 'disk' ? new IntakeSpool(spoolFolderOf(storage.STORAGE_DIR)) : undefined;
}
