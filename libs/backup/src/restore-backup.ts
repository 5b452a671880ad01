import type { Pool } from 'pg';
import type { BlobStore } from '@letterbox/storage';
import { BackupLayout, type BackupManifest, type StoresByCompression } from './backup-layout';
import { copyBlobs } from './blob-copy';
import { runPostgresTool } from './postgres-tools';
import { copySpoolFiles, filesIn } from './spool-copy';

export interface RestoreTarget {
  /** The database to restore into: it must hold no tables. */
  databaseUrl: string;
  sql: Pool;
  /** The installation's blob store, one per compression over the same place (the backup's keys say which each blob takes). */
  blobs: StoresByCompression;
  /** The intake spool's folder (disk storage); none on S3. */
  spoolFolder?: string;
}

/** A restore that would overwrite or mix with what an installation holds, or from a folder with no finished backup. */
export class RestoreRefusedError extends Error {}

/** Tables outside PostgreSQL's own schemas, a few of them by name. */
const TABLES = `SELECT count(*)::int AS count, (array_agg(table_schema || '.' || table_name ORDER BY table_name))[1:3] AS some
                  FROM information_schema.tables WHERE table_schema NOT IN ('pg_catalog', 'information_schema')`;

/**
 * Restores a backup (takeBackup) onto an empty installation: a database without tables and
 * a storage without blobs or spool files; anything else is refused, naming what is there.
 * The blobs and spool files go first and the database last, so a restore cut short leaves
 * a database that is still empty or whole. Restored, the apps start as they would after a
 * stop: the ingest worker queues again the acceptances whose messages were not yet stored.
 */
export async function restoreBackup(dir: string, target: RestoreTarget): Promise<BackupManifest> {
  const layout = new BackupLayout(dir);
  const manifest = await layout.readManifest();
  if (!manifest) throw new RestoreRefusedError(`${dir} holds no finished backup: it has no backup.json`);
  await refuseUnlessEmpty(target, manifest);
  await copyBlobs(layout.blobs.none, target.blobs);
  if (target.spoolFolder) await copySpoolFiles(layout.spool, target.spoolFolder);
  const database = decodeURIComponent(new URL(target.databaseUrl).pathname.slice(1));
  await runPostgresTool(
    'pg_restore',
    ['--no-owner', '--no-privileges', '--exit-on-error', '--single-transaction', `--dbname=${database}`, layout.dump],
    target.databaseUrl,
  );
  return manifest;
}

async function refuseUnlessEmpty(target: RestoreTarget, manifest: BackupManifest): Promise<void> {
  const { rows } = await target.sql.query<{ count: number; some: string[] | null }>(TABLES);
  if (rows[0].count > 0) {
    throw new RestoreRefusedError(
      `the database is not empty: it has ${rows[0].count} tables (${rows[0].some?.join(', ')}); restore into a new, empty database`,
    );
  }
  if (await holdsBlobs(target.blobs.none)) throw new RestoreRefusedError('the blob storage is not empty: restore into an empty storage folder or bucket');
  if (target.spoolFolder && (await filesIn(target.spoolFolder)).length > 0) {
    throw new RestoreRefusedError(`the intake spool ${target.spoolFolder} is not empty: restore into an empty storage folder`);
  }
  if (!target.spoolFolder && manifest.spoolFiles > 0) {
    throw new RestoreRefusedError(
      `the backup holds ${manifest.spoolFiles} intake spool files (mail accepted, not yet stored), which only disk storage keeps: restore onto disk storage`,
    );
  }
}

/** Walked until a blob is found: a listing step may pass empty folders only (what collection leaves). */
async function holdsBlobs(store: BlobStore): Promise<boolean> {
  for (let after: string | undefined = ''; after !== undefined;) {
    const { blobs, next } = await store.listAfter(after, 1);
    if (blobs.length > 0) return true;
    after = next;
  }
  return false;
}
