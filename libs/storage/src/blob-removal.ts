import { randomUUID } from 'node:crypto';
import type { BigIntStats } from 'node:fs';
import { mkdir, opendir, rename, rm, stat, utimes } from 'node:fs/promises';
import path from 'node:path';
import { blobPath, TRASH_FOLDER } from './blob-paths';
import type { BlobVersion } from './blob-version';
import { isDiskVersion } from './disk-blob-version';
import type { FolderSync } from './folder-sync';

/** `<key>.<inode>.<mtime in ns>.<uuid>` (the key, its version's stamp, a uuid): the version its remover meant to remove, so anyone can finish the removal. */
const TRASH_ENTRY = /^([0-9a-f]{64}(?:\.gz)?)\.(\d+\.\d+)\.[0-9a-f-]{36}$/;

/**
 * Removes the blob if its file is still `version`, the one its remover saw before it made
 * sure that nothing refers to the blob; resolves whether it did.
 *
 * Checking the version and then unlinking would race a put landing in between, whose
 * writer would be told the blob is stored and then lose it. So the file is first renamed
 * into the trash, which takes whatever file has the name at that instant, atomically, and
 * the check is made on the file taken:
 * - still `version`: no put has published the blob since its remover saw it (each put
 *   makes a new file, see DiskBlobStore), so it goes; a put publishing after the rename
 *   makes a file the trash never had;
 * - another file: a put came in between and its writer may be about to refer to the
 *   blob, so the file goes back, touched: see settle.
 * The entry's name holds the version, so an entry a crash left is settled the same way by
 * whoever finds it (recoverTrash); two settling one entry make the same decision.
 */
export async function removeBlobVersion(root: string, version: BlobVersion, folders: FolderSync): Promise<boolean> {
  const trash = path.join(root, TRASH_FOLDER);
  await mkdir(trash, { recursive: true });
  const entry = path.join(trash, `${version.key}.${version.stamp}.${randomUUID()}`);
  try {
    await rename(blobPath(root, version.key), entry);
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
  return settle(root, entry, version, folders);
}

/** Settles up to `limit` trash entries left by removals a crash cut short. */
export async function recoverTrash(root: string, limit: number, folders: FolderSync): Promise<void> {
  const entries = await opendir(path.join(root, TRASH_FOLDER)).catch((error: unknown) => {
    if (isMissing(error)) return undefined;
    throw error;
  });
  if (!entries) return;
  let seen = 0;
  for await (const entry of entries) {
    const meant = TRASH_ENTRY.exec(entry.name);
    if (meant) await settle(root, path.join(entries.path, entry.name), { key: meant[1], stamp: meant[2] }, folders);
    if (++seen >= limit) break;
  }
}

/**
 * Deletes the trash entry if it is the version meant, else puts it back under its key,
 * over whatever a put made while the name was free (the same bytes; that put's own
 * remover, if it has one, then finds a file not its own in turn). It goes back with a
 * fresh modification time, as a put would make it: it replaces a file that a writer may
 * have just put, and a collector must give that writer the grace period (an entry a crash
 * left may be put back long after it was written).
 */
async function settle(root: string, entry: string, meant: BlobVersion, folders: FolderSync): Promise<boolean> {
  let found: BigIntStats;
  try {
    found = await stat(entry, { bigint: true });
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
  if (isDiskVersion(found, meant)) {
    await rm(entry, { force: true });
    return true;
  }
  const file = blobPath(root, meant.key);
  try {
    const now = new Date();
    await utimes(entry, now, now);
    await rename(entry, file);
  } catch (error) {
    if (isMissing(error)) return false;
    throw error;
  }
  // Its writer was told the blob is stored: its name must survive a power loss again.
  await folders.sync(path.dirname(file));
  return false;
}

function isMissing(error: unknown): boolean {
  return (error as NodeJS.ErrnoException).code === 'ENOENT';
}
