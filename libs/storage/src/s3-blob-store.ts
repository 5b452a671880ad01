import { randomUUID } from 'node:crypto';
import { PassThrough, Readable, type Transform } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';
import {
  AbortMultipartUploadCommand,
  CopyObjectCommand,
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListMultipartUploadsCommand,
  ListObjectsCommand,
  PutObjectCommand,
  S3ServiceException,
  type S3Client,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { loggerFor } from '@letterbox/observability';
import { blobKeyOf, contentHasher, contentKeyOf, isCompressed } from './blob-content';
import { isBlobKey } from './blob-paths';
import { BlobNotFoundError, BlobStore, type ByteRange, type Compression, type StoredBlob, type TrackedPut } from './blob-store';
import type { BlobListing, BlobVersion } from './blob-version';
import { pipeAll } from './pipe-all';
import { groupRanges } from './range-groups';
import { readHead } from './read-head';
import { isS3Version, PUT_ID_METADATA, s3VersionOf, stateOf, type S3ObjectState } from './s3-version';
import { sliceStream } from './slice-stream';

/** Content up to this size goes up in one PUT; larger content in parts of this size, two at a time, so a put holds 16 MB at most. */
const PART_SIZE = 8 * 1024 * 1024;
/** Where content larger than a part is uploaded before its key (its hash) is known. */
const TMP_PREFIX = 'tmp/';

const logger = loggerFor('storage');

/**
 * Blobs in an S3-compatible bucket, one object per key. Content that fits in a part is
 * hashed first and PUT under its key; larger content is streamed to a temporary object
 * by multipart upload while it is hashed, then copied under its key by the store itself
 * and the temporary object deleted. A successful PUT, CompleteMultipartUpload or copy is
 * durable, so a put resolves only after one. Each put writes a new version (a new
 * modification time and put id). Reads are ranged GETs: a mail read fetches its header
 * and body parts only. Compressed blobs are read from their start, as on disk.
 */
export class S3BlobStore extends BlobStore {
  private warnedUploadsUnlisted = false;

  constructor(
    private readonly s3: S3Client,
    private readonly bucket: string,
    private readonly compression: Compression = 'none',
  ) {
    super();
  }

  async put(content: Buffer | Readable): Promise<StoredBlob> {
    return (await this.store(content, false)).blob;
  }

  putTracked(content: Buffer | Readable): Promise<TrackedPut> {
    return this.store(content, true);
  }

  keyOf(content: Buffer): string {
    return contentKeyOf(content, this.compression);
  }

  /**
   * Removes the blob if the object is still `version`, checked right before the DELETE.
   * S3 has no conditional DELETE on general buckets, so a put of the same bytes landing
   * between the HEAD and the DELETE (one round trip, after the remover's reference query)
   * is lost to its writer, who was told the blob is stored. On disk the rename into the
   * trash closes that window; here it is the one left. A writer that refers to a blob
   * within the grace period (the collector) or never (a discarded put) makes it rarer still.
   */
  async remove(version: BlobVersion): Promise<boolean> {
    const state = await this.head(version.key);
    if (!state || !isS3Version(state, version)) return false;
    await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: version.key }));
    return true;
  }

  createReadStream(key: string, range?: ByteRange): Readable {
    if (!isBlobKey(key)) throw new BlobNotFoundError(key);
    if (range && range.end <= range.start) return Readable.from([]);
    const out = new PassThrough();
    const aborted = new AbortController();
    out.once('close', () => aborted.abort());
    const compressed = isCompressed(key);
    this.get(key, compressed ? undefined : range, aborted.signal).then(
      (body) => {
        const stages: (Readable | Transform)[] = [body, ...(compressed ? [createGunzip(), ...(range ? [sliceStream(range.start, range.end)] : [])] : [])];
        for (const stage of stages) stage.on('error', (error) => out.destroy(error));
        out.once('close', () => body.destroy());
        stages.reduce((tail, next) => tail.pipe(next as Transform)).pipe(out);
      },
      (error: unknown) => out.destroy(error as Error),
    );
    return out;
  }

  /** Close ranges are fetched with one ranged GET; the spans apart, with GETs at once. */
  async readRanges(key: string, ranges: ByteRange[]): Promise<Buffer[]> {
    if (!isBlobKey(key)) throw new BlobNotFoundError(key);
    if (isCompressed(key)) {
      return Promise.all(ranges.map(async (range) => Buffer.concat(await this.createReadStream(key, range).toArray())));
    }
    const buffers: Buffer[] = ranges.map(() => Buffer.alloc(0));
    await Promise.all(
      groupRanges(ranges).map(async ({ span, members }) => {
        const bytes = Buffer.concat(await (await this.get(key, span)).toArray());
        for (const index of members) buffers[index] = bytes.subarray(ranges[index].start - span.start, ranges[index].end - span.start);
      }),
    );
    return buffers;
  }

  async listAfter(after: string, limit: number): Promise<BlobListing> {
    const listed = await this.list({ Marker: after || undefined, MaxKeys: Math.min(limit, 1000) });
    const objects = listed.Contents ?? [];
    const blobs = objects
      .filter((object) => object.Key && isBlobKey(object.Key))
      .map((object) => ({ version: s3VersionOf(object.Key as string, stateOf(object)), modifiedMs: object.LastModified?.getTime() ?? 0 }));
    // Temporary objects sort after every key (hex): reaching them is reaching the end.
    const last = objects.at(-1)?.Key;
    return { blobs, next: listed.IsTruncated && last && isBlobKey(last) ? last : undefined };
  }

  /** A put that a crash cut short left an incomplete multipart upload, or a temporary object not yet copied. */
  async clearLeftovers(cutoffMs: number, limit: number): Promise<void> {
    await this.abortOldUploads(cutoffMs, limit);
    const listed = await this.list({ Prefix: TMP_PREFIX, MaxKeys: Math.min(limit, 1000) });
    for (const object of listed.Contents ?? []) {
      if ((object.LastModified?.getTime() ?? 0) < cutoffMs) await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: object.Key }));
    }
  }

  async check(): Promise<void> {
    await this.s3.send(new HeadBucketCommand({ Bucket: this.bucket }));
  }

  override close(): void {
    this.s3.destroy();
  }

  private async store(content: Buffer | Readable, tracked: boolean): Promise<TrackedPut> {
    const measure = contentHasher();
    const source = Buffer.isBuffer(content) ? Readable.from([content]) : content;
    const body = new PassThrough({ highWaterMark: 1024 * 1024 });
    const piped = pipeAll(source, this.compression === 'gzip' ? [measure, createGzip()] : [measure], body);
    piped.catch(() => undefined);
    const putId = randomUUID();
    // A source that fails destroys the body: the source's error, not the body's, says why.
    const { head, ended } = await readHead(body, PART_SIZE).catch(async (error: unknown) => {
      await piped;
      throw error;
    });
    let key: string;
    let existed = false;
    if (ended) {
      await piped;
      key = blobKeyOf(measure.digest(), this.compression);
      if (tracked) existed = (await this.head(key)) !== undefined;
      await this.s3.send(
        new PutObjectCommand({ Bucket: this.bucket, Key: key, Body: head, ContentLength: head.length, Metadata: { [PUT_ID_METADATA]: putId } }),
      );
    } else {
      body.unshift(head);
      const tmpKey = `${TMP_PREFIX}${putId}`;
      const upload = new Upload({ client: this.s3, params: { Bucket: this.bucket, Key: tmpKey, Body: body }, partSize: PART_SIZE, queueSize: 2 });
      // A failed upload (which aborts its parts) stops reading the source: it must not hang half read.
      await Promise.all([upload.done(), piped]).catch((error: unknown) => {
        body.destroy();
        throw error;
      });
      try {
        key = blobKeyOf(measure.digest(), this.compression);
        if (tracked) existed = (await this.head(key)) !== undefined;
        await this.s3.send(
          new CopyObjectCommand({
            Bucket: this.bucket,
            Key: key,
            CopySource: `${this.bucket}/${tmpKey}`,
            MetadataDirective: 'REPLACE',
            Metadata: { [PUT_ID_METADATA]: putId },
          }),
        );
      } finally {
        await this.s3.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: tmpKey })).catch((error: unknown) => {
          logger.warn({ err: error, key: tmpKey }, 'a temporary object stays until the blob collector removes it');
        });
      }
    }
    const blob = { key, size: measure.size };
    if (!tracked || existed) return { blob };
    return { blob, created: await this.createdVersion(key, putId) };
  }

  /**
   * The version this put made, if the object is still its own: a put of the same bytes
   * since made a version of its own, which this put's creator must not remove. A put of
   * the same bytes racing this one between its HEAD and its write is the window left:
   * both may count as creators, and the one whose write came last may discard the other's.
   */
  private async createdVersion(key: string, putId: string): Promise<BlobVersion | undefined> {
    const state = await this.head(key);
    return state?.putId === putId ? s3VersionOf(key, state) : undefined;
  }

  /**
   * ListObjects (v1), which every S3-compatible store speaks: s3rver fails a truncated
   * ListObjectsV2 (its continuation token needs DES, which OpenSSL 3 no longer has), and
   * a walk that goes on after a key needs nothing more than Marker.
   */
  private list(options: { Marker?: string; Prefix?: string; MaxKeys: number }) {
    return this.s3.send(new ListObjectsCommand({ Bucket: this.bucket, ...options }));
  }

  private async head(key: string): Promise<S3ObjectState | undefined> {
    try {
      return stateOf(await this.s3.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key })));
    } catch (error) {
      if (isNotFound(error)) return undefined;
      throw error;
    }
  }

  /** The object, or the bytes of it in `range`; a range past its end is empty, as a read past a file's end. */
  private async get(key: string, range: ByteRange | undefined, abortSignal?: AbortSignal): Promise<Readable> {
    try {
      const answer = await this.s3.send(
        new GetObjectCommand({ Bucket: this.bucket, Key: key, Range: range ? `bytes=${range.start}-${range.end - 1}` : undefined }),
        { abortSignal },
      );
      return answer.Body as Readable;
    } catch (error) {
      if (isNotFound(error)) throw new BlobNotFoundError(key);
      if (error instanceof S3ServiceException && error.$metadata.httpStatusCode === 416) return Readable.from([]);
      throw error;
    }
  }

  /** Some S3-compatible stores (s3rver) cannot list uploads; there a bucket lifecycle rule must abort them. */
  private async abortOldUploads(cutoffMs: number, limit: number): Promise<void> {
    let uploads;
    try {
      uploads = await this.s3.send(new ListMultipartUploadsCommand({ Bucket: this.bucket, Prefix: TMP_PREFIX, MaxUploads: Math.min(limit, 1000) }));
    } catch (error) {
      if (!(error instanceof S3ServiceException && error.name === 'NotImplemented')) throw error;
      if (!this.warnedUploadsUnlisted) logger.warn('the object store cannot list multipart uploads: abort incomplete ones with a lifecycle rule');
      this.warnedUploadsUnlisted = true;
      return;
    }
    for (const upload of uploads.Uploads ?? []) {
      if ((upload.Initiated?.getTime() ?? Infinity) >= cutoffMs) continue;
      await this.s3.send(new AbortMultipartUploadCommand({ Bucket: this.bucket, Key: upload.Key, UploadId: upload.UploadId }));
    }
  }
}

function isNotFound(error: unknown): boolean {
  return error instanceof S3ServiceException && (error.name === 'NoSuchKey' || error.name === 'NotFound' || error.$metadata.httpStatusCode === 404);
}
