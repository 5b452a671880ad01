/**
 * One write of a blob, as the store that made it tells it apart from every other write
 * of the same key: every put makes a new one, so a blob whose version changed has been
 * written again. `stamp` means something only to that store (a file's inode and
 * modification time on disk; an object's ETag, modification time and put id on S3).
 */
export interface BlobVersion {
  key: string;
  stamp: string;
}

/** A blob found in the store, with its version and when that was written. */
export interface ListedBlob {
  version: BlobVersion;
  modifiedMs: number;
}

/** A step of a walk through the store in key order. */
export interface BlobListing {
  blobs: ListedBlob[];
  /** Where the next step starts (after this): none when the walk reached the end. */
  next?: string;
}
