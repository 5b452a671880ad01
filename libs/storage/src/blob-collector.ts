import type { BlobStore } from './blob-store';
import type { BlobVersion } from './blob-version';

/** What refers to blobs, outside the store. */
export interface BlobReferences {
  /** The keys among these that something refers to, all read in one snapshot. */
  referenced(keys: string[]): Promise<Set<string>>;
}

export interface BlobCollectorOptions {
  /**
   * A blob whose version is younger than this is kept, referred to or not. Every writer
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

/**
 * Removes the blobs that nothing refers to, a bounded step per sweep: the store is walked
 * in key order, each sweep going on where the last stopped and starting over at the end.
 * What puts and removals that a crash cut short left goes too (BlobStore.clearLeftovers).
 * It works on any backend: it sees the store only through BlobStore.
 *
 * Why a writer about to refer to a blob never ends with a reference to a missing blob:
 * each sweep reads a blob's version and age first, then asks what refers to it, then
 * removes it only if it is still that version (BlobStore.remove; on S3 that check and
 * the removal are two requests, see S3BlobStore.remove).
 * - Puts before the version was read: the version is the file of the last of them. Only
 *   one older than the grace period is a candidate, and by then each of those writers has
 *   referred to the blob (or given it up): before the query, which sees it.
 * - A put after the version was read made a new version, which the removal puts back.
 * - A put after the removal writes a version of its own.
 * A writer that refers to a blob without putting it copies a reference that exists
 * (forwarding a mail's part; a draft sent), and keeps that one until its own is
 * committed; the query reads every table in one statement, so in one snapshot, and sees
 * one or the other. No transaction is held across the storage work.
 */
export class BlobCollector {
  /** Where the walk stopped: the next sweep starts after it. */
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
    const cutoffMs = Date.now() - this.options.graceMs;
    await this.store.clearLeftovers(cutoffMs, batchSize);
    const { blobs, next } = await this.store.listAfter(this.after, batchSize);
    this.after = next ?? '';
    const old: BlobVersion[] = blobs.filter((blob) => blob.modifiedMs < cutoffMs).map((blob) => blob.version);
    let removed = 0;
    for (let start = 0; start < old.length; start += batchSize) {
      const batch = old.slice(start, start + batchSize);
      const referenced = await this.references.referenced(batch.map((version) => version.key));
      for (const version of batch) {
        if (!referenced.has(version.key) && (await this.store.remove(version))) removed++;
      }
    }
    return { examined: blobs.length, removed };
  }
}
