import { mkdir, readdir } from 'node:fs/promises';
import { BlobStore } from '@letterbox/storage';
import { BackupLayout, type BackupManifest } from './backup-layout';
import { copyBlobs } from './blob-copy';
import { runPostgresTool } from './postgres-tools';
import { copySpoolFiles, filesIn } from './spool-copy';

export interface BackupSources {
  /** The primary, not a replica: the dump is the snapshot everything else is measured against. */
  databaseUrl: string;
  blobs: BlobStore;
  /** The intake spool's folder (disk storage); none on S3. */
  spoolFolder?: string;
  /** The blob collector's grace period (BLOB_GRACE_MS): the backup must end within it. */
  graceMs: number;
}

/** A backup that could not be taken as asked (a folder not empty, one that took longer than the grace period). */
export class BackupRefusedError extends Error {}

/**
 * Backs up a running platform into an empty folder: its database and the blobs and spool
 * files the database refers to, consistent with each other while mail arrives and the blob
 * collector runs. Nothing is held in memory: pg_dump writes its file, blobs stream one by one.
 *
 * Why the order is blobs, then the dump, then blobs again, within the grace period G:
 * the dump is one snapshot, taken at T. Every blob it refers to existed at T (a writer puts
 * a blob before it refers to it; see BlobCollector). The collector removes a blob only when
 * nothing refers to it and its version is older than G. Say the first walk of the store
 * starts at S and ends before T.
 * - A version written before S that still exists at T existed throughout the first walk,
 *   which copied it. (One removed before the walk reached it and written again later is a
 *   new version, written after S.)
 * - A version written at or after S cannot be removed before S + G, referred to or not.
 *   The second walk, after T, copies every blob the first did not; it ends before S + G,
 *   so it finds each of these.
 * Dumping first and copying after would not do: a mail deleted after T frees its blob,
 * which the collector may remove at once if it is old, before the copy reaches it. Copying
 * only, then dumping, would miss what arrived during the copy. The intake spool obeys the
 * same rule (its sweep spares files younger than G): its files are copied with the blobs.
 * A backup that took longer than G is refused: the second walk may have missed a blob.
 * Redis is not backed up: an acceptance whose job is lost is queued again by the ingest
 * worker's sweep, and a send's by the outbox sweep.
 */
export async function takeBackup(sources: BackupSources, dir: string): Promise<BackupManifest> {
  await mkdir(dir, { recursive: true });
  const present = await readdir(dir);
  if (present.length > 0) throw new BackupRefusedError(`${dir} is not empty (it holds ${present.slice(0, 3).join(', ')}): a backup goes into an empty folder`);
  const layout = new BackupLayout(dir);
  const started = Date.now();
  const copySpool = async () => {
    if (sources.spoolFolder) await copySpoolFiles(sources.spoolFolder, layout.spool);
  };

  let blobs = await copyBlobs(sources.blobs, layout.blobs);
  await copySpool();
  await runPostgresTool('pg_dump', ['--format=custom', `--file=${layout.dump}`], sources.databaseUrl);
  blobs += await copyBlobs(sources.blobs, layout.blobs, (key) => layout.blobs.none.has(key));
  await copySpool();
  const spoolFiles = (await filesIn(layout.spool)).length;

  const finished = Date.now();
  if (finished - started >= sources.graceMs) {
    throw new BackupRefusedError(
      `the backup took ${Math.round((finished - started) / 60_000)} min, longer than the blob collector's grace period (BLOB_GRACE_MS): ` +
        'a blob it refers to may have been collected before it was copied; take it again into an empty folder, or raise BLOB_GRACE_MS',
    );
  }
  const manifest: BackupManifest = { format: 1, startedAt: new Date(started).toISOString(), finishedAt: new Date(finished).toISOString(), blobs, spoolFiles };
  await layout.writeManifest(manifest);
  return manifest;
}
