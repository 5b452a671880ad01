import type { BigIntStats } from 'node:fs';

/**
 * One file that held a blob. Every put makes a file of its own (one that finds the blob
 * already there replaces it), so a blob whose version changed has been written again.
 * The inode number alone would not tell: a file system gives a freed number to the next
 * file it makes, whose modification time then differs.
 */
export interface BlobVersion {
  key: string;
  ino: bigint;
  mtimeNs: bigint;
}

export function versionOf(key: string, stats: BigIntStats): BlobVersion {
  return { key, ino: stats.ino, mtimeNs: stats.mtimeNs };
}

export function isVersion(stats: BigIntStats, version: BlobVersion): boolean {
  return stats.ino === version.ino && stats.mtimeNs === version.mtimeNs;
}
