import type { Readable } from 'node:stream';
import type { Database } from '@letterbox/db';
import {
  createTransferDecoder,
  makeSnippet,
  parseHeaderBlock,
  renderBodies,
  scanLayout,
  summarizeHeaders,
  type AttachmentLayout,
  type MailLayout,
} from '@letterbox/mime';
import type { BlobStore } from '@letterbox/storage';

export interface MailToStore {
  userId: number;
  mailboxId: number;
  eml: Buffer | Readable;
  /** Defaults to the message's Date header, else now. */
  receivedAt?: Date;
  seen?: boolean;
  flagged?: boolean;
  important?: boolean;
}

export interface StoredMail {
  id: number;
  storageKey: string;
  messageId: string;
}

/** How much of the text body is decoded to make the list's snippet. */
const SNIPPET_SOURCE_BYTES = 16 * 1024;

/**
 * Stores a message: EML into blob storage, its layout found by streaming it back, and
 * then its row and attachment rows in one short transaction. All storage I/O is done
 * before the transaction opens, so a slow disk never holds a database connection.
 */
export async function storeMail(db: Database, blobs: BlobStore, mail: MailToStore): Promise<StoredMail> {
  const blob = await blobs.put(mail.eml);
  const layout = await scanLayout(blobs.createReadStream(blob.key));
  const attachments = await Promise.all(
    layout.attachments.map(async (part) => ({ ...part, size: await decodedSize(blobs, blob.key, part) })),
  );
  const [headerBlock, ...bodyParts] = await blobs.readRanges(blob.key, [
    { start: 0, end: layout.headerEnd },
    ...layout.bodies.map((part) => ({ start: part.start, end: Math.min(part.end, part.start + SNIPPET_SOURCE_BYTES) })),
  ]);
  const summary = summarizeHeaders(parseHeaderBlock(headerBlock, layout.bodies[0]?.charset));
  const body = renderBodies(layout.bodies, bodyParts);
  const messageId = summary.messageId ?? `<${blob.key}@letterbox.invalid>`;
  const storedLayout: MailLayout = { headerEnd: layout.headerEnd, bodies: layout.bodies };

  const row = await db.prisma.mail.create({
    data: {
      userId: mail.userId,
      mailboxId: mail.mailboxId,
      messageId,
      fromAddress: summary.from?.address ?? '',
      fromName: summary.from?.name ?? '',
      toAddresses: summary.to.map(({ name, address }) => ({ name, address })),
      ccAddresses: summary.cc.map(({ name, address }) => ({ name, address })),
      subject: summary.subject,
      snippet: makeSnippet(body.text),
      receivedAt: mail.receivedAt ?? summary.date ?? new Date(),
      size: blob.size,
      seen: mail.seen ?? false,
      flagged: mail.flagged ?? false,
      important: mail.important ?? false,
      hasAttachments: attachments.some((part) => part.disposition === 'attachment'),
      storageKey: blob.key,
      layout: storedLayout as object,
      attachments: {
        create: attachments.map((part) => ({
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
    },
    select: { id: true },
  });
  return { id: Number(row.id), storageKey: blob.key, messageId };
}

/** Decoded size, found by running the download's own decoder over the part. */
async function decodedSize(blobs: BlobStore, key: string, part: AttachmentLayout): Promise<number> {
  let size = 0;
  const decoded = blobs.createReadStream(key, part).pipe(createTransferDecoder(part.encoding));
  for await (const chunk of decoded) size += (chunk as Buffer).length;
  return size;
}
