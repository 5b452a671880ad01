import type { BigIntStats } from 'node:fs';
import type { BlobVersion } from './blob-version';

/**
 * On disk a version is one file that held the blob: every put makes a file of its own
 * (one that finds the blob already there replaces it). The inode number alone would not
 * tell: a file system gives a freed number to the next file it makes, whose
 * modification time then differs. The stamp is `<inode>.<mtime in ns>`.
 */
export function diskVersionOf(key: string, stats: BigIntStats): BlobVersion {
  return { key, stamp: `${stats.ino}.${stats.mtimeNs}` };
}

export function isDiskVersion(stats: BigIntStats, version: BlobVersion): boolean {
  return `${stats.ino}.${stats.mtimeNs}` === version.stamp;
}
