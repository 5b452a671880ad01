import { Readable } from 'node:stream';
import type { Database, Prisma } from '@letterbox/db';
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
}

/** How much of the text body is decoded to make the list's snippet. */
const SNIPPET_SOURCE_BYTES = 16 * 1024;

/**
 * Puts a message in blob storage and finds its layout by streaming it back (or, for a
 * message already in memory, by reading the buffer). This is all the storage I/O a stored
 * mail needs, done before any transaction opens, so a slow disk never holds a database
 * connection.
 */
export async function prepareMail(blobs: BlobStore, eml: Buffer | Readable): Promise<PreparedMail> {
  const blob = await blobs.put(eml);
  const stored = Buffer.isBuffer(eml) ? inMemory(eml) : inStorage(blobs, blob.key);
  const layout = await scanLayout(stored.stream());
  const attachments = await Promise.all(layout.attachments.map(async (part) => ({ ...part, size: await decodedSize(stored.stream(part), part) })));
  const [headerBlock, ...bodyParts] = await stored.readRanges([
    { start: 0, end: layout.headerEnd },
    ...layout.bodies.map((part) => ({ start: part.start, end: Math.min(part.end, part.start + SNIPPET_SOURCE_BYTES) })),
  ]);
  const summary = summarizeHeaders(parseHeaderBlock(headerBlock, layout.bodies[0]?.charset));
  return {
    blob,
    layout: { headerEnd: layout.headerEnd, bodies: layout.bodies },
    attachments,
    summary,
    messageId: summary.messageId ?? `<${blob.key}@letterbox.invalid>`,
    snippet: makeSnippet(renderBodies(layout.bodies, bodyParts).text),
  };
}

/** The mail row, with its attachment rows, of a prepared message placed in a mailbox. */
export function mailRow(prepared: PreparedMail, placement: MailPlacement): Prisma.MailUncheckedCreateInput {
  const { summary } = prepared;
  return {
    userId: placement.userId,
    mailboxId: placement.mailboxId,
    messageId: prepared.messageId,
    fromAddress: summary.from?.address ?? '',
    fromName: summary.from?.name ?? '',
    toAddresses: summary.to.map(({ name, address }) => ({ name, address })),
    ccAddresses: summary.cc.map(({ name, address }) => ({ name, address })),
    subject: summary.subject,
    snippet: prepared.snippet,
    receivedAt: placement.receivedAt ?? summary.date ?? new Date(),
    size: prepared.blob.size,
    seen: placement.seen ?? false,
    flagged: placement.flagged ?? false,
    important: placement.important ?? false,
    hasAttachments: prepared.attachments.some((part) => part.disposition === 'attachment'),
    storageKey: prepared.blob.key,
    layout: prepared.layout as object,
    attachments: {
      create: prepared.attachments.map((part) => ({
        partId: part.partId,
        filename: part.filename,
        contentType: part.contentType,
        disposition: part.disposition,
        contentId: part.contentId ?? null,
        size: part.size,
        encoding: part.encoding,
        bodyStart: part.start,
        bodyEnd: part.end,
      })),
    },
  };
}

/** Stores a message: storage first, then its rows in one short transaction. */
export async function storeMail(db: Database, blobs: BlobStore, mail: MailToStore): Promise<StoredMail> {
  const prepared = await prepareMail(blobs, mail.eml);
  const row = await db.prisma.mail.create({ data: mailRow(prepared, mail), select: { id: true } });
  return { id: Number(row.id), storageKey: prepared.blob.key, messageId: prepared.messageId };
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
