import { randomUUID } from 'node:crypto';
import { constants, createReadStream, createWriteStream } from 'node:fs';
import { access, link, mkdir, open, rename, rm, stat, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { PassThrough, Readable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import { blobKeyOf, contentHasher, contentKeyOf, isCompressed } from './blob-content';
import { blobPath, isBlobKey, TMP_FOLDER } from './blob-paths';
import { recoverTrash, removeBlobVersion } from './blob-removal';
import { BlobNotFoundError, BlobStore, type ByteRange, type Compression, type StoredBlob, type TrackedPut } from './blob-store';
import type { BlobListing, BlobVersion } from './blob-version';
import { diskVersionOf } from './disk-blob-version';
import { listDiskBlobsAfter, removeOldTmpFiles } from './disk-blob-listing';
import { FolderSync } from './folder-sync';
import { pipeAll } from './pipe-all';
import { sliceStream } from './slice-stream';

interface Folder {
  exists: Promise<void>;
  /** Settles once the names of the folder and of the parents made with it survive a power loss. */
  durable: Promise<void>;
}

/** One for the process: the more folders a round holds, the less each costs. */
const folderSync = new FolderSync();

/**
 * Blobs on local disk, under two levels of folders named by the key. A blob is written to a temporary file, flushed
 * to disk and renamed into place, so a key that exists always names complete content;
 * the folder is flushed after the rename too, so the name survives a power loss as the
 * content does (what a caller acknowledges once put returns). Content already stored is
 * written again all the same, as a new file: a remover tells by it that a writer came
 * while it made sure nothing refers to the blob (removeBlobVersion, BlobCollector).
 * Compressed blobs save disk but cost a decompression from the start on every range
 * read, so compression suits archives rather than mail that is read often.
 */
export class DiskBlobStore extends BlobStore {
  /** Folders made or found by this store: a burst of puts would otherwise make two mkdir calls each. */
  private readonly folders = new Map<string, Folder>();

  constructor(
    readonly root: string,
    private readonly compression: Compression = 'none',
  ) {
    super();
  }

  async put(content: Buffer | Readable): Promise<StoredBlob> {
    return (await this.store(content, replace)).blob;
  }

  putTracked(content: Buffer | Readable): Promise<TrackedPut> {
    return this.store(content, createOrReplace);
  }

  keyOf(content: Buffer): string {
    return contentKeyOf(content, this.compression);
  }

  /** Whether the blob is stored: a copy into this store (a backup) skips what it holds already. */
  async has(key: string): Promise<boolean> {
    return access(this.pathOf(key)).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'ENOENT') return false;
        throw error;
      },
    );
  }

  /** Removes the blob if its file is still this version; resolves whether it did (see removeBlobVersion). */
  remove(version: BlobVersion): Promise<boolean> {
    return removeBlobVersion(this.root, version, folderSync);
  }

  listAfter(after: string, limit: number): Promise<BlobListing> {
    return listDiskBlobsAfter(this.root, after, limit);
  }

  /** Removals a crash interrupted are settled whatever their age; a put's temporary file changes while it is written. */
  async clearLeftovers(cutoffMs: number, limit: number): Promise<void> {
    await recoverTrash(this.root, limit, folderSync);
    await removeOldTmpFiles(this.root, cutoffMs, limit);
  }

  /** Its folder is writable by this process (made if missing: a fresh install has written nothing yet). */
  async check(): Promise<void> {
    await mkdir(this.root, { recursive: true });
    await access(this.root, constants.W_OK);
  }

  private async store(content: Buffer | Readable, publish: Publish): Promise<TrackedPut> {
    const tmpDir = path.join(this.root, TMP_FOLDER);
    await this.folder(tmpDir).exists;
    const tmpPath = path.join(tmpDir, randomUUID());
    const measure = contentHasher();
    const source = Buffer.isBuffer(content) ? Readable.from([content]) : content;
    const sink = createWriteStream(tmpPath);
    try {
      await pipeAll(source, this.compression === 'gzip' ? [measure, createGzip()] : [measure], sink);
      // Its content on disk before its name says it is there: fsync'd in a round with other puts' files (group commit).
      await folderSync.sync(tmpPath);
      const key = blobKeyOf(measure.digest(), this.compression);
      const finalPath = this.pathOf(key);
      const folder = this.folder(path.dirname(finalPath));
      await folder.exists;
      const created = await publish(key, tmpPath, finalPath);
      // The blob's name and, in a new folder, the folder's own name: flushed in the same round.
      await Promise.all([folderSync.sync(path.dirname(finalPath)), folder.durable]);
      return { blob: { key, size: measure.size }, created };
    } catch (error) {
      await rm(tmpPath, { force: true });
      throw error;
    }
  }

  createReadStream(key: string, range?: ByteRange): Readable {
    const file = this.pathOf(key);
    if (range && range.end <= range.start) return Readable.from([]);
    const out = new PassThrough();
    const forwardError = (error: NodeJS.ErrnoException) => out.destroy(error.code === 'ENOENT' ? new BlobNotFoundError(key) : error);
    const raw = isCompressed(key) ? createReadStream(file) : createReadStream(file, range ? { start: range.start, end: range.end - 1 } : {});
    raw.on('error', forwardError);
    // pipe() only unpipes a destination that goes away: a reader that stops early (a client
    // hanging up on a download) would leave the file paused and open until the process ends.
    out.once('close', () => raw.destroy());
    if (!isCompressed(key)) return raw.pipe(out);
    const plain = raw.pipe(createGunzip().on('error', forwardError));
    return (range ? plain.pipe(sliceStream(range.start, range.end)) : plain).pipe(out);
  }

  /**
   * Reads a few small ranges (headers, body parts) with one open of the file. Ranges that
   * lie close together are read with a single read: each read is a round trip through
   * the thread pool, which costs more than the few extra bytes.
   */
  async readRanges(key: string, ranges: ByteRange[]): Promise<Buffer[]> {
    if (isCompressed(key)) {
      return Promise.all(ranges.map(async (range) => Buffer.concat(await this.createReadStream(key, range).toArray())));
    }
    const handle = await open(this.pathOf(key), 'r').catch((error: NodeJS.ErrnoException) => {
      throw error.code === 'ENOENT' ? new BlobNotFoundError(key) : error;
    });
    try {
      const span = spanOf(ranges);
      if (span && span.end - span.start <= SINGLE_READ_SPAN) {
        const whole = await readAt(handle, span);
        return ranges.map((range) => whole.subarray(range.start - span.start, Math.max(range.start, range.end) - span.start));
      }
      const buffers: Buffer[] = [];
      for (const range of ranges) buffers.push(await readAt(handle, range));
      return buffers;
    } finally {
      await handle.close();
    }
  }

  /** Makes the folder if missing; each concurrent put into a new folder waits for the same flush of its parents. */
  private folder(folder: string): Folder {
    const known = this.folders.get(folder);
    if (known) return known;
    const made = mkdir(folder, { recursive: true });
    const durable = made.then(async (firstCreated) => {
      if (firstCreated === undefined) return;
      const parents: string[] = [];
      for (let parent = path.dirname(folder); ; parent = path.dirname(parent)) {
        parents.push(parent);
        if (parent === path.dirname(firstCreated) || parent === path.dirname(parent)) break;
      }
      await Promise.all(parents.map((parent) => folderSync.sync(parent)));
    });
    const entry = { exists: made.then(() => undefined), durable };
    // A folder that could not be made or flushed is tried again by the next put.
    durable.catch(() => this.folders.delete(folder));
    this.folders.set(folder, entry);
    return entry;
  }

  private pathOf(key: string): string {
    if (!isBlobKey(key)) throw new BlobNotFoundError(key);
    return blobPath(this.root, key);
  }
}

/** Puts a written file under its key; resolves the version it created, if it created the blob. */
type Publish = (key: string, tmpPath: string, finalPath: string) => Promise<BlobVersion | undefined>;

/** A file of the same content already there is replaced all the same: see put. */
async function replace(_key: string, tmpPath: string, finalPath: string): Promise<undefined> {
  await rename(tmpPath, finalPath);
}

/**
 * link, unlike rename, fails when the name is taken: that tells a put that created the
 * blob from one that found it, which replaces it as put does. The version is read from
 * the temporary name, which no one else knows: read from the key's name it could be a
 * concurrent put's file.
 */
async function createOrReplace(key: string, tmpPath: string, finalPath: string): Promise<BlobVersion | undefined> {
  try {
    await link(tmpPath, finalPath);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    await rename(tmpPath, finalPath);
    return undefined;
  }
  const created = diskVersionOf(key, await stat(tmpPath, { bigint: true }));
  await rm(tmpPath);
  return created;
}

/** Ranges within this many bytes of each other are fetched with one read. */
const SINGLE_READ_SPAN = 256 * 1024;

function spanOf(ranges: ByteRange[]): ByteRange | undefined {
  if (ranges.length === 0) return undefined;
  return {
    start: Math.min(...ranges.map((range) => range.start)),
    end: Math.max(...ranges.map((range) => Math.max(range.start, range.end))),
  };
}

async function readAt(handle: FileHandle, range: ByteRange): Promise<Buffer> {
  const length = Math.max(0, range.end - range.start);
  const buffer = Buffer.allocUnsafe(length);
  const { bytesRead } = await handle.read(buffer, 0, length, range.start);
  return buffer.subarray(0, bytesRead);
}
