import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import type { Database } from '@letterbox/db';
import {
  createTransferDecoder,
  makeSnippet,
  parseHeaderBlock,
  renderBodies,
  scanLayout,
  summarizeHeaders,
  type AttachmentLayout,
  type HeaderSummary,
  type MailLayout,
} from '@letterbox/mime';
import type { BlobStore, ByteRange, StoredBlob } from '@letterbox/storage';
import { insertMail } from './mail-insert';
import { mapConcurrently } from './map-concurrently';
import { SEARCH_BODY_CHARS } from '../search/search-text';
import { storableText } from './storable-text';

export interface MailPlacement {
  userId: number;
  mailboxId: number;
  /** Defaults to the message's Date header, else now. */
  receivedAt?: Date;
  seen?: boolean;
  flagged?: boolean;
  important?: boolean;
}

export interface MailToStore extends MailPlacement {
  eml: Buffer | Readable;
}

export interface StoredMail {
  id: number;
  threadId: number;
  storageKey: string;
  messageId: string;
}

/** A message in storage with everything its rows need: what a transaction can insert without I/O. */
export interface PreparedMail {
  blob: StoredBlob;
  layout: MailLayout;
  attachments: Array<AttachmentLayout & { size: number }>;
  summary: HeaderSummary;
  messageId: string;
  snippet: string;
  /** The start of the body as text (HTML made text, charsets decoded), for search. */
  bodyText: string;
}

/** How much of each body part is decoded to make the list's snippet and the search text. */
const BODY_SOURCE_BYTES = 64 * 1024;
/** The body parts these may come from: the text is in the first of them. */
const BODY_SOURCE_PARTS = 4;
/** Attachments whose decoded size is measured at once, each through a stream (a descriptor) of its own. */
const DECODING_CONCURRENCY = 8;

/**
 * Puts a message in blob storage and finds its layout by streaming it back (or, for a
 * message already in memory, by reading the buffer). This is all the storage I/O a stored
 * mail needs, done before any transaction opens, so a slow disk never holds a database
 * connection.
 */
export async function prepareMail(blobs: BlobStore, eml: Buffer | Readable): Promise<PreparedMail> {
  if (!Buffer.isBuffer(eml)) return prepareStoredMail(blobs, await blobs.put(eml));
  // In memory, it is read while storage writes it.
  const [blob, description] = await Promise.all([blobs.put(eml), describeMail(inMemory(eml))]);
  return { blob, ...description, messageId: messageIdOf(description.summary, blob) };
}

/** The same for a message already in storage, such as incoming mail written there before it was acknowledged. */
export async function prepareStoredMail(blobs: BlobStore, blob: StoredBlob): Promise<PreparedMail> {
  const description = await describeMail(inStorage(blobs, blob.key));
  return { blob, ...description, messageId: messageIdOf(description.summary, blob) };
}

async function describeMail(stored: StoredBytes): Promise<Omit<PreparedMail, 'blob' | 'messageId'>> {
  const layout = await scanLayout(stored.stream());
  const attachments = await mapConcurrently(layout.attachments, DECODING_CONCURRENCY, async (part) => ({
    ...part,
    size: await decodedSize(stored.stream(part), part),
  }));
  const bodySources = layout.bodies.slice(0, BODY_SOURCE_PARTS);
  const [headerBlock, ...bodyParts] = await stored.readRanges([
    { start: 0, end: layout.headerEnd },
    ...bodySources.map((part) => ({ start: part.start, end: Math.min(part.end, part.start + BODY_SOURCE_BYTES) })),
  ]);
  const summary = summarizeHeaders(parseHeaderBlock(headerBlock, layout.bodies[0]?.charset));
  const { text } = renderBodies(bodySources, bodyParts);
  return {
    layout: {
      headerEnd: layout.headerEnd,
      bodies: layout.bodies,
      ...(layout.omittedParts ? { omittedParts: layout.omittedParts } : {}),
      tree: layout.tree,
    },
    attachments,
    summary,
    snippet: makeSnippet(text),
    bodyText: text.slice(0, SEARCH_BODY_CHARS),
  };
}

/** Stores a message: storage first, then its rows in one short transaction. */
export async function storeMail(db: Database, blobs: BlobStore, mail: MailToStore): Promise<StoredMail> {
  const prepared = await prepareMail(blobs, mail.eml);
  const { id, threadId } = await insertMail(db.sql, prepared, mail);
  return { id, threadId, storageKey: prepared.blob.key, messageId: prepared.messageId };
}

/**
 * Message-IDs longer than this are kept as a hash of themselves: a real one is under a
 * hundred characters, and an index entry must fit in a btree page (about 2.7 KB).
 */
export const MAX_MESSAGE_ID_LENGTH = 512;

/**
 * The message's Message-ID, or one made from its content hash: the same bytes always get
 * the same id. An over-long one becomes a hash of it, so the same id still matches itself.
 */
export function messageIdOf(summary: HeaderSummary, blob: StoredBlob): string {
  const messageId = summary.messageId === undefined ? undefined : storableText(summary.messageId);
  if (!messageId) return `<${blob.key}@letterbox.invalid>`;
  if (messageId.length <= MAX_MESSAGE_ID_LENGTH) return messageId;
  return `<sha256-${createHash('sha256').update(messageId).digest('hex')}@letterbox.invalid>`;
}

interface StoredBytes {
  stream(range?: ByteRange): Readable;
  readRanges(ranges: ByteRange[]): Promise<Buffer[]>;
}

function inStorage(blobs: BlobStore, key: string): StoredBytes {
  return { stream: (range) => blobs.createReadStream(key, range), readRanges: (ranges) => blobs.readRanges(key, ranges) };
}

function inMemory(eml: Buffer): StoredBytes {
  const slice = (range: ByteRange) => eml.subarray(range.start, Math.max(range.start, range.end));
  return {
    stream: (range) => Readable.from([range ? slice(range) : eml]),
    readRanges: async (ranges) => ranges.map(slice),
  };
}

/** Decoded size, found by running the download's own decoder over the part. */
async function decodedSize(encoded: Readable, part: AttachmentLayout): Promise<number> {
  let size = 0;
  for await (const chunk of encoded.pipe(createTransferDecoder(part.encoding))) size += (chunk as Buffer).length;
  return size;
}
