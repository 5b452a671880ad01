import type { Readable } from 'node:stream';
import type { AttachmentLayout, BodyPartLayout, ScannedLayout } from './layout';
import { readPartInfo, type PartInfo } from './part-headers';

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

interface OpenPart {
  partId: string;
  headerLines: string[];
  inHeaders: boolean;
  bodyStart: number;
  info?: PartInfo;
  /** Set while a multipart's boundary is live; cleared by its closing delimiter. */
  boundary?: string;
  children: number;
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
  private readonly stack: OpenPart[] = [{ partId: '', headerLines: [], inHeaders: true, bodyStart: 0, children: 0 }];
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
    const delimiter = line[0] === DASH && line[1] === DASH && this.onDashLine(line, contentLength);
    if (!delimiter && current.inHeaders) this.onHeaderLine(current, line, contentLength, end);
    this.previousBreak = lineBreak;
  }

  private onHeaderLine(part: OpenPart, line: Buffer, contentLength: number, end: number): void {
    if (contentLength === 0 || part.headerLines.length >= MAX_HEADER_LINES) {
      this.endHeaders(part, end);
      return;
    }
    part.headerLines.push(line.toString('latin1', 0, contentLength));
  }

  private endHeaders(part: OpenPart, end: number): void {
    part.inHeaders = false;
    part.bodyStart = end;
    part.info = readPartInfo(part.headerLines);
    part.headerLines = [];
    if (part.partId === '' && this.headerEnd < 0) this.headerEnd = end;
    if (part.info.boundary && this.stack.length < MAX_DEPTH) part.boundary = part.info.boundary;
  }

  /** Handles a boundary delimiter of an open multipart; false if the line is none. */
  private onDashLine(line: Buffer, contentLength: number): boolean {
    const text = line.toString('latin1', 2, contentLength).trimEnd();
    for (let index = this.stack.length - 1; index >= 0; index--) {
      const boundary = this.stack[index].boundary;
      if (boundary === undefined) continue;
      if (text === boundary) this.openChild(index);
      else if (text === boundary + '--') this.closeMultipart(index);
      else continue;
      return true;
    }
    return false;
  }

  private openChild(multipartIndex: number): void {
    this.closeDeeperThan(multipartIndex, this.lineStart - this.previousBreak);
    const multipart = this.stack[multipartIndex];
    multipart.children += 1;
    const prefix = multipart.partId === '' ? '' : multipart.partId + '.';
    this.stack.push({
      partId: prefix + multipart.children,
      headerLines: [],
      inHeaders: true,
      bodyStart: 0,
      children: 0,
    });
  }

  private closeMultipart(multipartIndex: number): void {
    this.closeDeeperThan(multipartIndex, this.lineStart - this.previousBreak);
    this.stack[multipartIndex].boundary = undefined;
  }

  /** Ends every open part below stack[index], their bodies ending at `bodyEnd`. */
  private closeDeeperThan(index: number, bodyEnd: number): void {
    while (this.stack.length - 1 > index) {
      const part = this.stack.pop() as OpenPart;
      if (part.inHeaders) this.endHeaders(part, bodyEnd);
      this.recordLeaf(part, Math.max(part.bodyStart, bodyEnd));
    }
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
