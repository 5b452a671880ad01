import type { BigIntStats } from 'node:fs';
import { opendir, readdir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { blobPath, isBlobFolder, isBlobKey, TMP_FOLDER } from './blob-paths';
import type { BlobListing, ListedBlob } from './blob-version';
import { diskVersionOf } from './disk-blob-version';

/** Blob folders read per listing at most: a store that collection emptied still has every folder. */
const MAX_FOLDERS_PER_LISTING = 256;

/**
 * The blobs after `after` in key order, whole folders at a time until about `limit`
 * blobs. The walk goes on after a folder's prefix followed by `~`, which sorts after
 * every key in the folder (hex digits and `.gz`), so an empty folder is passed too.
 */
export async function listDiskBlobsAfter(root: string, after: string, limit: number): Promise<BlobListing> {
  const blobs: ListedBlob[] = [];
  let folders = 0;
  for (const first of await subfoldersOf(root)) {
    if (first < after.slice(0, 2)) continue;
    for (const second of await subfoldersOf(path.join(root, first))) {
      const prefix = first + second;
      if (`${prefix}~` <= after) continue;
      const keys = (await namesIn(path.join(root, first, second))).filter((name) => isBlobKey(name) && name > after).sort();
      for (const key of keys) {
        const stats = await statIfPresent(blobPath(root, key));
        if (stats) blobs.push({ version: diskVersionOf(key, stats), modifiedMs: Number(stats.mtimeNs / 1_000_000n) });
      }
      if (blobs.length >= limit || ++folders >= MAX_FOLDERS_PER_LISTING) return { blobs, next: `${prefix}~` };
    }
  }
  return { blobs };
}

/** A put's temporary file changes while it is written: one older than the cutoff belongs to no put any more. */
export async function removeOldTmpFiles(root: string, cutoffMs: number, limit: number): Promise<void> {
  const files = await opendir(path.join(root, TMP_FOLDER)).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
  if (!files) return;
  let seen = 0;
  for await (const file of files) {
    const filePath = path.join(files.path, file.name);
    const stats = await statIfPresent(filePath);
    if (stats && stats.mtimeNs < BigInt(cutoffMs) * 1_000_000n) await rm(filePath, { force: true });
    if (++seen >= limit) break;
  }
}

async function subfoldersOf(folder: string): Promise<string[]> {
  return (await namesIn(folder)).filter(isBlobFolder).sort();
}

async function namesIn(folder: string): Promise<string[]> {
  return readdir(folder).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
}

async function statIfPresent(file: string): Promise<BigIntStats | undefined> {
  return stat(file, { bigint: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}
