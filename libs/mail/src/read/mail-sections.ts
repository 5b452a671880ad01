import { pipeline, Readable } from 'node:stream';
import {
  createTransferDecoder,
  envelopeOf,
  envelopeOfFields,
  filterHeaderFields,
  locateSection,
  MAX_HEADER_BLOCK,
  partialSpan,
  type ImapPartial,
  type ImapSection,
  type EncodedContent,
  type ImapValue,
  type MimePart,
} from '@letterbox/mime';
import type { BlobStore, ByteRange } from '@letterbox/storage';
import { probeDecoded, sliceOf, type DecodedProbe } from './decoded-slice';
import { lengthChecked } from './length-checked';

/** Errors reach the consumer through the returned stream; the callback has nothing to add. */
const noop = () => undefined;

/** What reading a mail's sections needs of its row: where its EML is stored, and its MIME tree (MailMimeTrees). */
export interface SectionedMail {
  id: number;
  storageKey: string;
  tree: MimePart;
}

/** A section's bytes, with their length known before the first of them: what an IMAP literal `{length}` needs. */
export interface SectionStream {
  length: number;
  stream: Readable;
}

/** A part's decoded content, BINARY[part]: whether it holds a NUL tells IMAP to send it as a literal8 `~{n}`. */
export interface DecodedSectionStream extends SectionStream {
  containsNul: boolean;
}

/**
 * Reads the sections of a mail that IMAP FETCH asks for, BODY[section]<partial>, from its
 * EML in storage by the byte ranges its tree records: a mail's header or its text part is
 * read without a byte of its attachments, and a whole EML streams through, never held.
 */
export class MailSectionReader {
  constructor(private readonly blobs: BlobStore) {}

  /** The section's bytes; a part the mail does not have is empty (RFC 3501 6.4.5). */
  async open(mail: SectionedMail, section: ImapSection, partial?: ImapPartial): Promise<SectionStream> {
    const located = locateSection(mail.tree, section);
    if ('span' in located) {
      const within = partialSpan(located.span.end - located.span.start, partial);
      return this.range(mail, { start: located.span.start + within.start, end: located.span.start + within.end });
    }
    // A header block is bounded (MAX_HEADER_BLOCK), so its fields are picked in memory.
    const [block] = await this.blobs.readRanges(mail.storageKey, [located.headerBlock]);
    const fields = filterHeaderFields(block, located.fields, located.exclude);
    const within = partialSpan(fields.length, partial);
    const bytes = fields.subarray(within.start, within.end);
    return { length: bytes.length, stream: Readable.from([bytes]) };
  }

  /**
   * A part's content with its transfer encoding undone, BINARY[part]<partial> (RFC 3516): the literal's length comes
   * before its bytes and no layout records the decoded length, so the content is decoded twice as it streams from
   * storage, once to count and once to send, never held.
   */
  async openDecoded(mail: SectionedMail, content: EncodedContent, partial?: ImapPartial): Promise<DecodedSectionStream> {
    const probe = await this.probe(mail, content);
    const within = partialSpan(probe.length, partial);
    const length = within.end - within.start;
    const { containsNul } = probe;
    if (length === 0) return { length, stream: Readable.from([]), containsNul: false };
    // Content stored as it is (7bit, 8bit, binary) is read by range, not from its start.
    if (content.encoding === '')
      return { ...this.range(mail, { start: content.span.start + within.start, end: content.span.start + within.end }), containsNul };
    return { length, stream: Readable.from(sliceOf(this.decoded(mail, content), within)), containsNul };
  }

  /** The length of a part's decoded content, BINARY.SIZE[part]: the stored length when it is not encoded. */
  async decodedLength(mail: SectionedMail, content: EncodedContent): Promise<number> {
    if (content.encoding === '') return content.span.end - content.span.start;
    return (await this.probe(mail, content)).length;
  }

  /** The length of a part's decoded content and whether it holds a NUL, by decoding it as it streams from storage. */
  private probe(mail: SectionedMail, content: EncodedContent): Promise<DecodedProbe> {
    return probeDecoded(this.decoded(mail, content));
  }

  private decoded(mail: SectionedMail, { span, encoding }: EncodedContent): Readable {
    const { stream } = this.range(mail, span);
    return pipeline(stream, createTransferDecoder(encoding), noop);
  }

  /** The mail's top-level header block, by its start when longer than MAX_HEADER_BLOCK: what its ENVELOPE is made of (envelopeOf). */
  async headerBlock(mail: SectionedMail): Promise<Buffer> {
    const [block] = await this.blobs.readRanges(mail.storageKey, [{ start: 0, end: Math.min(mail.tree.body, MAX_HEADER_BLOCK) }]);
    return block;
  }

  /**
   * The mail's IMAP ENVELOPE: from the envelope fields its tree records, without touching
   * storage; a tree recorded before the top-level envelope was has none, and its header
   * block is read instead.
   */
  async envelope(mail: SectionedMail): Promise<ImapValue> {
    if (mail.tree.envelope) return envelopeOfFields(mail.tree.envelope);
    return envelopeOf(await this.headerBlock(mail));
  }

  private range(mail: SectionedMail, range: ByteRange): SectionStream {
    const length = range.end - range.start;
    if (length === 0) return { length, stream: Readable.from([]) };
    const stream = pipeline(this.blobs.createReadStream(mail.storageKey, range), lengthChecked(length, `a section of mail ${mail.id}`), noop);
    return { length, stream };
  }
}
