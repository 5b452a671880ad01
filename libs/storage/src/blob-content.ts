import { createHash } from 'node:crypto';
import { Transform } from 'node:stream';
import type { Compression } from './blob-store';

/** A pass-through that hashes and counts what flows through it: the key and size of a blob being put. */
export interface ContentHasher extends Transform {
  readonly size: number;
  /** The sha256 of everything that went through, in hex; once it has all gone through. */
  digest(): string;
}

export function contentHasher(): ContentHasher {
  const hash = createHash('sha256');
  let size = 0;
  const measure = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      hash.update(chunk);
      size += chunk.length;
      done(null, chunk);
    },
  });
  return Object.defineProperties(measure, {
    size: { get: () => size },
    digest: { value: () => hash.digest('hex') },
  }) as ContentHasher;
}

export function isCompressed(key: string): boolean {
  return key.endsWith('.gz');
}

/** The key of content whose sha256 is `digest`, in a store that compresses as `compression`. */
export function blobKeyOf(digest: string, compression: Compression): string {
  return digest + (compression === 'gzip' ? '.gz' : '');
}

/** The key a put of these bytes stores them under. */
export function contentKeyOf(content: Buffer, compression: Compression): string {
  return blobKeyOf(createHash('sha256').update(content).digest('hex'), compression);
}
