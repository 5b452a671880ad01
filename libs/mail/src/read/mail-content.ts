import { pipeline, type Readable } from 'node:stream';
import { createTransferDecoder, parseHeaderBlock, renderBodies, sanitizeMailHtml } from '@letterbox/mime';
import type { BlobStore, ByteRange } from '@letterbox/storage';
import { lengthChecked } from './length-checked';
import { AttachmentNotFoundError, NoAttachmentsError } from '../mail-errors';
import { safeFileName, uniqueFileNames } from './archive-file-names';
import { zipStream } from './zip-stream';
import type { RenderedContent, RenderedContentCache } from './rendered-content-cache';
import type { MailRecord } from '../mail-views';

/** Errors reach the consumer through the returned stream; the callback has nothing to add. */
const noop = () => undefined;

/** A body part larger than this is shown cut; the whole message stays available raw. */
const MAX_BODY_PART_BYTES = 2 * 1024 * 1024;
/** What a read decodes of all body parts together, and of how many: a message of a thousand parts costs what a few do. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
const MAX_BODY_PARTS = 16;

/** Sanitized HTML; `cid:` images point at the mail's attachment routes. */
export type MailContent = RenderedContent;

/** Where a cached rendering's inline images go, until the mail being read is known. */
const INLINE_PART = '/__letterbox_inline_part__/';
const INLINE_PART_PATTERN = /\/__letterbox_inline_part__\/([\d.]+)/g;

/**
 * Reads what a mail shows from its EML: the header block and the text and HTML parts,
 * by the byte ranges recorded when it was stored. Attachments are never read here, so
 * a mail with a 16 MB attachment costs what a 4 KB mail does.
 */
export class MailContentReader {
  constructor(
    private readonly blobs: BlobStore,
    private readonly cache?: RenderedContentCache,
  ) {}

  async read(mail: MailRecord, attachmentUrl: (partId: string) => string): Promise<MailContent> {
    const content = this.cache?.get(mail.storageKey) ?? (await this.render(mail));
    this.cache?.set(mail.storageKey, content);
    if (!content.html?.includes(INLINE_PART)) return content;
    return { ...content, html: content.html.replace(INLINE_PART_PATTERN, (_marker, partId: string) => attachmentUrl(partId)) };
  }

  private async render(mail: MailRecord): Promise<RenderedContent> {
    const { parts, ranges, cut } = shownBodies(mail.layout.bodies);
    const [headerBlock, ...bodies] = await this.blobs.readRanges(mail.storageKey, [{ start: 0, end: mail.layout.headerEnd }, ...ranges]);
    const rendered = renderBodies(parts, bodies);
    const inline = new Map(mail.attachments.filter((part) => part.contentId).map((part) => [part.contentId as string, INLINE_PART + part.partId]));
    return {
      headers: parseHeaderBlock(headerBlock, mail.layout.bodies[0]?.charset),
      text: rendered.text,
      html: rendered.html === undefined ? null : sanitizeMailHtml(rendered.html, (contentId) => inline.get(contentId)),
      truncated: cut || (mail.layout.omittedParts ?? 0) > 0,
    };
  }

  /** One attachment's bytes, decoded as they stream from storage. */
  openAttachment(mail: MailRecord, partId: string): { stream: Readable; attachment: MailRecord['attachments'][number] } {
    const attachment = mail.attachments.find((part) => part.partId === partId);
    if (!attachment) throw new AttachmentNotFoundError(mail.id, partId);
    const encoded = this.blobs.createReadStream(mail.storageKey, { start: attachment.bodyStart, end: attachment.bodyEnd });
    const decoded = pipeline(
      encoded,
      createTransferDecoder(attachment.encoding),
      lengthChecked(attachment.size, `attachment ${partId} of mail ${mail.id}`),
      noop,
    );
    return { stream: decoded, attachment };
  }

  /**
   * The mail's files in one zip, each decoded as the archive reaches it: the parts a reader
   * lists as attachments (an inline part with a Content-ID is a picture of the HTML body).
   */
  openAttachmentsZip(mail: MailRecord): { stream: Readable; size: number; filename: string } {
    const files = mail.attachments.filter((part) => part.disposition === 'attachment' || !part.contentId);
    if (files.length === 0) throw new NoAttachmentsError(mail.id);
    const names = uniqueFileNames(files.map((part) => safeFileName(part.filename, `attachment ${part.partId}`)));
    const modifiedAt = new Date(mail.receivedAt);
    const archive = zipStream(
      files.map((part, index) => ({ name: names[index], size: part.size, modifiedAt, open: () => this.openAttachment(mail, part.partId).stream })),
    );
    return { ...archive, filename: `${safeFileName(mail.subject, `mail ${mail.id}`)}.zip` };
  }

  /** The stored EML, whole or one byte range of it. */
  openRaw(mail: MailRecord, range?: ByteRange): Readable {
    const length = range ? range.end - range.start : mail.size;
    return pipeline(this.blobs.createReadStream(mail.storageKey, range), lengthChecked(length, `EML of mail ${mail.id}`), noop);
  }
}

/** The body parts a read shows and the bytes it reads of each, within the bounds above; `cut` when any is left out or shortened. */
function shownBodies(all: MailRecord['layout']['bodies']): { parts: MailRecord['layout']['bodies']; ranges: ByteRange[]; cut: boolean } {
  const parts = all.slice(0, MAX_BODY_PARTS);
  const ranges: ByteRange[] = [];
  let budget = MAX_BODY_BYTES;
  let cut = parts.length < all.length;
  for (const part of parts) {
    const length = Math.min(part.end - part.start, MAX_BODY_PART_BYTES, budget);
    if (length < part.end - part.start) cut = true;
    ranges.push({ start: part.start, end: part.start + length });
    budget -= length;
  }
  return { parts, ranges, cut };
}
