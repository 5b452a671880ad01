import type { BigIntStats } from 'node:fs';
import { opendir, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { blobFoldersAfter } from './blob-listing';
import { blobPath, TMP_FOLDER } from './blob-paths';
import type { BlobStore } from './blob-store';
import { versionOf, type BlobVersion } from './blob-version';

/** What refers to blobs, outside the store. */
export interface BlobReferences {
  /** The keys among these that something refers to, all read in one snapshot. */
  referenced(keys: string[]): Promise<Set<string>>;
}

export interface BlobCollectorOptions {
  /**
   * A blob whose file is younger than this is kept, referred to or not. Every writer
   * refers to what it put within this time, so it must exceed the longest upload.
   */
  graceMs: number;
  /** Blobs examined per sweep, and keys per query of the references. */
  batchSize: number;
}

export interface SweepOutcome {
  examined: number;
  removed: number;
}

/** Blob folders read per sweep at most: a store that collection emptied still has every folder. */
const MAX_FOLDERS_PER_SWEEP = 256;

/**
 * Removes the blobs that nothing refers to, a bounded step per sweep: the store is walked
 * in key order, each sweep going on where the last stopped and starting over at the end.
 * Old temporary files (puts that a crash cut short) go too.
 *
 * Why a writer about to refer to a blob never ends with a reference to a missing file:
 * each sweep reads a blob's version (its file) and age first, then asks what refers to
 * it, then removes it only if its file is still that version (BlobStore.remove).
 * - Puts before the version was read: the version is the file of the last of them. Only
 *   one older than the grace period is a candidate, and by then each of those writers has
 *   referred to the blob (or given it up): before the query, which sees it.
 * - A put after the version was read made a new version, which the removal puts back.
 * - A put after the removal writes a file of its own.
 * A writer that refers to a blob without putting it copies a reference that exists
 * (forwarding a mail's part; a draft sent), and keeps that one until its own is
 * committed; the query reads every table in one statement, so in one snapshot, and sees
 * one or the other. No transaction is held across the file system work.
 */
export class BlobCollector {
  /** The last folder swept: the next sweep starts after it. */
  private after = '';
  private sweeping?: Promise<SweepOutcome>;

  constructor(
    private readonly store: BlobStore,
    private readonly references: BlobReferences,
    private readonly options: BlobCollectorOptions,
  ) {}

  /** One step of the walk; a sweep asked for while one runs is that one. */
  sweep(): Promise<SweepOutcome> {
    this.sweeping ??= this.sweepStep().finally(() => {
      this.sweeping = undefined;
    });
    return this.sweeping;
  }

  private async sweepStep(): Promise<SweepOutcome> {
    const { batchSize } = this.options;
    await this.store.recoverTrash(batchSize);
    const cutoffNs = BigInt(Date.now() - this.options.graceMs) * 1_000_000n;
    const { examined, old } = await this.nextOldBlobs(cutoffNs);
    let removed = 0;
    for (let start = 0; start < old.length; start += batchSize) {
      const batch = old.slice(start, start + batchSize);
      const referenced = await this.references.referenced(batch.map((version) => version.key));
      for (const version of batch) {
        if (!referenced.has(version.key) && (await this.store.remove(version))) removed++;
      }
    }
    await this.removeOldTmpFiles(cutoffNs);
    return { examined, removed };
  }

  /** The versions of the blobs older than the cutoff in the next folders, about a batch of blobs in all. */
  private async nextOldBlobs(cutoffNs: bigint): Promise<{ examined: number; old: BlobVersion[] }> {
    const old: BlobVersion[] = [];
    let examined = 0;
    let folders = 0;
    for await (const folder of blobFoldersAfter(this.store.root, this.after)) {
      for (const key of folder.keys) {
        const stats = await statIfPresent(blobPath(this.store.root, key));
        examined++;
        if (stats && stats.mtimeNs < cutoffNs) old.push(versionOf(key, stats));
      }
      this.after = folder.prefix;
      if (examined >= this.options.batchSize || ++folders >= MAX_FOLDERS_PER_SWEEP) return { examined, old };
    }
    this.after = '';
    return { examined, old };
  }

  /** A put's temporary file changes while it is written: one older than the grace period belongs to no put any more. */
  private async removeOldTmpFiles(cutoffNs: bigint): Promise<void> {
    const files = await opendir(path.join(this.store.root, TMP_FOLDER)).catch((error: NodeJS.ErrnoException) => {
      if (error.code === 'ENOENT') return undefined;
      throw error;
    });
    if (!files) return;
    let seen = 0;
    for await (const file of files) {
      const filePath = path.join(files.path, file.name);
      const stats = await statIfPresent(filePath);
      if (stats && stats.mtimeNs < cutoffNs) await rm(filePath, { force: true });
      if (++seen >= this.options.batchSize) break;
    }
  }
}

async function statIfPresent(file: string): Promise<BigIntStats | undefined> {
  return stat(file, { bigint: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return undefined;
    throw error;
  });
}
