import type { Readable } from 'node:stream';
import { envelopeFieldsOf } from './envelope-fields';
import type { AttachmentLayout, BodyPartLayout, MimePart, ScannedLayout } from './layout';
import { mimePartFieldsOf, type MimePartFields } from './mime-part-fields';
import { firstValues, readPartInfo, unfoldHeaderLines, type PartInfo } from './part-headers';

/** Beyond this a line is cut: enough for any real header, bounded for hostile input. */
const MAX_LINE = 16 * 1024;
const MAX_HEADER_LINES = 2000;
/** Deeper nesting is read as opaque body, so a crafted message cannot exhaust the stack. */
const MAX_DEPTH = 40;
/**
 * Parts recorded per message (bodies and attachments): a few hundred is already extreme,
 * and 30 MB of tiny parts would be 600,000 rows, streams and jsonb entries. The rest stay
 * in the EML, which downloads whole; the layout counts them.
 */
export const MAX_PARTS = 1000;
const DASH = 0x2d;
const LF = 0x0a;
const CR = 0x0d;

/** Encodings a message/rfc822 part can be read through as it is stored (RFC 2046 5.2.1 allows no other). */
const READABLE_MESSAGE_ENCODINGS = new Set(['7bit', '8bit', 'binary']);

interface OpenPart {
  partId: string;
  headerLines: string[];
  inHeaders: boolean;
  headerStart: number;
  bodyStart: number;
  /** Lines before the body: with the count at its end, the body's line count. */
  linesBeforeBody: number;
  info?: PartInfo;
  fields?: MimePartFields;
  /** Set while a multipart's boundary is live; cleared by its closing delimiter. */
  boundary?: string;
  children: number;
  /** In the tree: false past MAX_PARTS entities, and for all below one that is not. */
  inTree: boolean;
  parts: MimePart[];
  /** The message a message/rfc822 part holds, once it is read. */
  message?: MimePart;
  /** The entity is the message of the message/rfc822 part below it on the stack. */
  encapsulated: boolean;
  /** Within an encapsulated message: part of the tree only, neither shown nor listed as an attachment. */
  withinMessage: boolean;
}

/**
 * Reads an EML once, as a stream, and records where its header block, body parts and
 * attachments lie. Holds one line at a time (attachment bytes pass through untouched),
 * and never fails on malformed input: unclosed parts end where the data ends.
 */
export async function scanLayout(source: Readable | Buffer): Promise<ScannedLayout> {
  const scanner = new LayoutScanner();
  if (Buffer.isBuffer(source)) scanner.write(source);
  else for await (const chunk of source) scanner.write(toBuffer(chunk));
  return scanner.finish();
}

class LayoutScanner {
  private readonly stack: OpenPart[] = [newPart('', 0, { inTree: true, encapsulated: false, withinMessage: false })];
  private tree?: MimePart;
  private treeParts = 1;
  private lines = 0;
  private readonly bodies: BodyPartLayout[] = [];
  private readonly attachments: AttachmentLayout[] = [];
  private omittedParts = 0;
  private headerEnd = -1;
  private consumed = 0;
  private lineStart = 0;
  private lineHead: Buffer[] = [];
  private lineHeadLength = 0;
  /** The last byte of the line head, kept or not: whether a CR precedes the LF. */
  private lineHeadLastByte = -1;
  /** Length of the previous line's break: the break before a boundary belongs to it. */
  private previousBreak = 0;
  /** The previous line held nothing: before a boundary, not a line of the body (whose last break went to the boundary). */
  private previousLineEmpty = false;

  write(chunk: Buffer): void {
    let position = 0;
    while (position < chunk.length) {
      const newline = chunk.indexOf(LF, position);
      if (newline === -1) {
        this.keepLineHead(chunk.subarray(position));
        break;
      }
      const end = this.consumed + newline + 1;
      const lastByte = newline > position ? chunk[newline - 1] : this.lineHeadLastByte;
      const lineBreak = lastByte === CR ? 2 : 1;
      if (this.lineHeadLength === 0) {
        this.onLine(chunk.subarray(position, newline), end, lineBreak);
      } else {
        this.keepLineHead(chunk.subarray(position, newline));
        this.onLine(Buffer.concat(this.lineHead), end, lineBreak);
        this.lineHead = [];
        this.lineHeadLength = 0;
      }
      this.lineHeadLastByte = -1;
      position = newline + 1;
      this.lineStart = end;
    }
    this.consumed += chunk.length;
  }

  finish(): ScannedLayout {
    if (this.lineHeadLength > 0 || this.lineStart < this.consumed) {
      this.onLine(Buffer.concat(this.lineHead), this.consumed, 0);
    }
    this.previousBreak = 0;
    this.closeDeeperThan(-1, this.consumed);
    return {
      headerEnd: this.headerEnd < 0 ? this.consumed : this.headerEnd,
      bodies: this.bodies,
      tree: this.tree as MimePart,
      attachments: this.attachments,
      size: this.consumed,
      ...(this.omittedParts > 0 ? { omittedParts: this.omittedParts } : {}),
    };
  }

  private keepLineHead(bytes: Buffer): void {
    if (bytes.length > 0) this.lineHeadLastByte = bytes[bytes.length - 1];
    const room = MAX_LINE - this.lineHeadLength;
    if (room <= 0) return;
    const kept = bytes.length > room ? bytes.subarray(0, room) : bytes;
    this.lineHead.push(Buffer.from(kept));
    this.lineHeadLength += kept.length;
  }

  /**
   * `lineBreak` is the length of the line's CRLF or LF, 0 at the end of data. A line is
   * cut here as when it spans chunks, so that how the EML is chunked never matters.
   */
  private onLine(whole: Buffer, end: number, lineBreak: number): void {
    const line = whole.length > MAX_LINE ? whole.subarray(0, MAX_LINE) : whole;
    const contentLength = line.length > 0 && line[line.length - 1] === CR ? line.length - 1 : line.length;
    const current = this.stack[this.stack.length - 1];
    // A delimiter ends a part even within its header block: a body part may have no
    // blank line and no body at all (RFC 2046 5.1.1).
    const delimiter = line[0] === DASH && line[1] === DASH && this.onDashLine(line, contentLength, end);
    if (!delimiter && current.inHeaders) this.onHeaderLine(current, line, contentLength, end);
    this.previousBreak = lineBreak;
    this.previousLineEmpty = contentLength === 0;
    this.lines++;
  }

  private onHeaderLine(part: OpenPart, line: Buffer, contentLength: number, end: number): void {
    if (contentLength === 0 || part.headerLines.length >= MAX_HEADER_LINES) {
      this.endHeaders(part, end, this.lines + 1);
      return;
    }
    part.headerLines.push(line.toString('latin1', 0, contentLength));
  }

  /** `linesBefore`: the lines of the EML before `end`, where the body starts. */
  private endHeaders(part: OpenPart, end: number, linesBefore: number): void {
    part.inHeaders = false;
    part.bodyStart = end;
    part.linesBeforeBody = linesBefore;
    const byName = firstValues(unfoldHeaderLines(part.headerLines));
    part.info = readPartInfo(byName);
    // Every message keeps its envelope, the top-level one (part '') too: FETCH ENVELOPE is then answered from the row, not from storage.
    const message = part.encapsulated || part.partId === '';
    if (part.inTree) part.fields = { ...mimePartFieldsOf(byName), ...(message ? { envelope: envelopeFieldsOf(byName) } : {}) };
    part.headerLines = [];
    if (part.partId === '' && this.headerEnd < 0) this.headerEnd = end;
    if (this.stack.length >= MAX_DEPTH) return;
    if (part.info.boundary) part.boundary = part.info.boundary;
    else if (part.info.contentType === 'message/rfc822' && READABLE_MESSAGE_ENCODINGS.has(part.info.encoding) && part === this.stack.at(-1)) {
      this.stack.push(newPart(part.partId, end, { inTree: this.claimTreePart(part), encapsulated: true, withinMessage: true }));
    }
  }

  /** Whether a child of `parent` is in the tree: while MAX_PARTS allows, keeping the tree's size bounded. */
  private claimTreePart(parent: OpenPart): boolean {
    if (!parent.inTree || this.treeParts >= MAX_PARTS) return false;
    this.treeParts++;
    return true;
  }

  /** Handles a boundary delimiter of an open multipart; false if the line is none. `end`: where the line ends. */
  private onDashLine(line: Buffer, contentLength: number, end: number): boolean {
    const text = line.toString('latin1', 2, contentLength).trimEnd();
    for (let index = this.stack.length - 1; index >= 0; index--) {
      const boundary = this.stack[index].boundary;
      if (boundary === undefined) continue;
      if (text === boundary) this.openChild(index, end);
      else if (text === boundary + '--') this.closeMultipart(index);
      else continue;
      return true;
    }
    return false;
  }

  private openChild(multipartIndex: number, headerStart: number): void {
    this.closeDeeperThan(multipartIndex, this.lineStart - this.previousBreak);
    const multipart = this.stack[multipartIndex];
    multipart.children += 1;
    const prefix = multipart.partId === '' ? '' : multipart.partId + '.';
    this.stack.push(
      newPart(prefix + multipart.children, headerStart, {
        inTree: this.claimTreePart(multipart),
        encapsulated: false,
        withinMessage: multipart.withinMessage,
      }),
    );
  }

  private closeMultipart(multipartIndex: number): void {
    this.closeDeeperThan(multipartIndex, this.lineStart - this.previousBreak);
    this.stack[multipartIndex].boundary = undefined;
  }

  /** Ends every open part below stack[index], their bodies ending at `bodyEnd`. */
  private closeDeeperThan(index: number, bodyEnd: number): void {
    const linesAtEnd = this.lines - (this.previousBreak > 0 && this.previousLineEmpty ? 1 : 0);
    while (this.stack.length - 1 > index) {
      const part = this.stack.pop() as OpenPart;
      if (part.inHeaders) this.endHeaders(part, bodyEnd, this.lines);
      const end = Math.max(part.bodyStart, bodyEnd);
      if (part.inTree) this.addToTree(part, end, linesAtEnd);
      if (!part.withinMessage) this.recordLeaf(part, end);
    }
  }

  /** `linesAtEnd`: the lines of the EML up to the end of the part's body. */
  private addToTree(part: OpenPart, end: number, linesAtEnd: number): void {
    const info = part.info as PartInfo;
    const type = info.contentType.startsWith('multipart/') && part.parts.length === 0 ? 'text/plain' : info.contentType;
    const counted = type.startsWith('text/') || type === 'message/rfc822';
    const node: MimePart = {
      type,
      header: part.headerStart,
      body: part.bodyStart,
      end,
      ...(counted ? { lines: end > part.bodyStart ? linesAtEnd - part.linesBeforeBody : 0 } : {}),
      ...part.fields,
      ...(part.parts.length > 0 ? { parts: part.parts } : {}),
      ...(part.message ? { message: part.message } : {}),
    };
    const parent = this.stack.at(-1);
    if (!parent) this.tree = node;
    else if (part.encapsulated) parent.message = node;
    else parent.parts.push(node);
  }

  private recordLeaf(part: OpenPart, bodyEnd: number): void {
    const info = part.info as PartInfo;
    const multipart = info.contentType.startsWith('multipart/');
    if (multipart && part.children > 0) return;
    if (this.bodies.length + this.attachments.length >= MAX_PARTS) {
      this.omittedParts++;
      return;
    }
    const partId = part.partId === '' ? '1' : part.partId;
    const range = { start: part.bodyStart, end: bodyEnd };
    // A multipart whose boundary never came (or nested too deep to follow) is shown as the text it is.
    const contentType = multipart ? 'text/plain' : info.contentType;
    if ((contentType === 'text/plain' || contentType === 'text/html') && info.disposition !== 'attachment' && info.filename === undefined) {
      this.bodies.push({ partId, contentType, charset: info.charset, encoding: info.encoding, ...range });
      return;
    }
    this.attachments.push({
      partId,
      filename: info.filename ?? defaultFilename(partId, info.contentType),
      contentType: info.contentType,
      disposition: info.disposition === 'inline' || (info.disposition === undefined && info.contentId) ? 'inline' : 'attachment',
      ...(info.contentId ? { contentId: info.contentId } : {}),
      encoding: info.encoding,
      ...range,
    });
  }
}

function newPart(partId: string, headerStart: number, place: Pick<OpenPart, 'inTree' | 'encapsulated' | 'withinMessage'>): OpenPart {
  return { partId, headerLines: [], inHeaders: true, headerStart, bodyStart: headerStart, linesBeforeBody: 0, children: 0, parts: [], ...place };
}

const EXTENSIONS: Record<string, string> = {
  'message/rfc822': 'eml',
  'text/plain': 'txt',
  'text/html': 'html',
  'text/calendar': 'ics',
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'application/pdf': 'pdf',
};

function defaultFilename(partId: string, contentType: string): string {
  return `part-${partId}.${EXTENSIONS[contentType] ?? 'bin'}`;
}

/** Streams give Buffers, but a web stream's Uint8Array or a string chunk must work too. */
function toBuffer(chunk: unknown): Buffer {
  if (Buffer.isBuffer(chunk)) return chunk;
  if (chunk instanceof Uint8Array) return Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
  return Buffer.from(String(chunk));
}
