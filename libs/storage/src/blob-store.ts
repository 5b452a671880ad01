import type { Readable } from 'node:stream';
import type { BlobListing, BlobVersion } from './blob-version';

export type Compression = 'none' | 'gzip';

/** `end` is exclusive, as in Buffer#subarray. */
export interface ByteRange {
  start: number;
  end: number;
}

export interface StoredBlob {
  /** sha256 of the content, with `.gz` when stored compressed. */
  key: string;
  /** Uncompressed size in bytes. */
  size: number;
}

/** A put, and the version of the blob it created: none when the blob was there already. */
export interface TrackedPut {
  blob: StoredBlob;
  created?: BlobVersion;
}

export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`blob ${key} is not in storage`);
  }
}

/**
 * Content-addressed blobs: a key names complete content, stored durably before a put
 * resolves. Every put writes the content again, as a new version, even when it was
 * stored already: a remover tells by it that a writer came while it made sure nothing
 * refers to the blob (remove, BlobCollector). The class is also the token consumers
 * are given it by (Nest), whichever backend is configured (createBlobStore).
 */
export abstract class BlobStore {
  /** Stores the content: a new version of the blob, whether or not it was stored already. */
  abstract put(content: Buffer | Readable): Promise<StoredBlob>;

  /** As put, and tells whether this put created the blob: only its creator may discard it. */
  abstract putTracked(content: Buffer | Readable): Promise<TrackedPut>;

  /**
   * The key a put of this content would store it under, without storing it: for content
   * held elsewhere durably (the intake's spool) until it is put.
   */
  abstract keyOf(content: Buffer): string;

  /** Removes the blob if it is still this version; resolves whether it did. */
  abstract remove(version: BlobVersion): Promise<boolean>;

  /** Streams the blob, or the part of it in `range`, uncompressed; a missing blob fails the stream with BlobNotFoundError. */
  abstract createReadStream(key: string, range?: ByteRange): Readable;

  /** Reads a few small ranges (headers, body parts), close ones with one read. */
  abstract readRanges(key: string, ranges: ByteRange[]): Promise<Buffer[]>;

  /** About `limit` blobs whose keys sort after `after` ('' from the start), in key order. */
  abstract listAfter(after: string, limit: number): Promise<BlobListing>;

  /** Clears up to `limit` of what puts and removals that a crash cut short left behind, older than `cutoffMs` (epoch). */
  abstract clearLeftovers(cutoffMs: number, limit: number): Promise<void>;

  /** Resolves when the store can be written to: the readiness check. */
  abstract check(): Promise<void>;

  /** Releases what the store holds open, at shutdown: the S3 client's keep-alive sockets; files are closed after each use. */
  close(): void {}
}
