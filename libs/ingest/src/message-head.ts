import { Transform, type TransformCallback } from 'node:stream';
import { parseHeaderBlock, summarizeHeaders, type HeaderSummary } from '@letterbox/mime';
import { EmptyMessageError, NotAMessageError } from './inbound-errors';

/** Header blocks larger than this are refused: real ones are a few kilobytes. */
const MAX_HEADER_BYTES = 256 * 1024;
/**
 * A header field as mail names them: letters and digits joined by hyphens (underscores and
 * dots seen too). RFC 5322 allows any printable name, which would make JSON's `{"subject":`
 * a header field and a JSON body a message: with no sender required, the first field's
 * name is what tells a message from what is not one.
 */
const HEADER_FIELD = /^[A-Za-z0-9][A-Za-z0-9_.-]*[ \t]*:/;

/**
 * Passes a message through while keeping its first bytes (up to the end of its header
 * block), so the headers can be checked without reading the stored file back. Each chunk
 * is searched once, with the few bytes before it that a blank line may straddle: a sender
 * writing a byte per TCP segment costs linear work, not a search of all so far per byte.
 */
export class HeadCapture extends Transform {
  private readonly chunks: Buffer[] = [];
  private captured = 0;
  private complete = false;
  /** The last bytes captured, which with the next chunk may make "\r\n\r\n". */
  private tail = Buffer.alloc(0);

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    if (!this.complete) {
      this.chunks.push(chunk);
      this.captured += chunk.length;
      const window = Buffer.concat([this.tail, chunk]);
      this.complete = this.captured >= MAX_HEADER_BYTES || headerEnd(window) !== undefined;
      this.tail = window.subarray(Math.max(0, window.length - 3));
    }
    done(null, chunk);
  }

  head(): Buffer {
    return Buffer.concat(this.chunks).subarray(0, MAX_HEADER_BYTES);
  }
}

/**
 * Checks that a message has a header block: it must start with header fields. A From
 * without an address, or none at all, breaks RFC 5322 §3.6 but is common in real mail,
 * and other mail servers store it: so does Letterbox, its sender unknown.
 */
export function parseMessageHead(head: Buffer, size: number): HeaderSummary {
  if (size === 0 || head.toString('latin1').trim() === '') throw new EmptyMessageError();
  const end = headerEnd(head);
  if (end === undefined && size > MAX_HEADER_BYTES) throw new NotAMessageError(`no end of the header block in its first ${MAX_HEADER_BYTES} bytes`);
  const block = head.subarray(0, end ?? head.length);
  if (!HEADER_FIELD.test(block.toString('latin1', 0, Math.min(block.length, 1000)))) {
    throw new NotAMessageError('it does not begin with a header field');
  }
  return summarizeHeaders(parseHeaderBlock(block));
}

/** Where the blank line ending the header block is, if it is in `head`. */
export function headerEnd(head: Buffer): number | undefined {
  const crlf = head.indexOf('\r\n\r\n');
  const lf = head.indexOf('\n\n');
  const ends = [crlf === -1 ? -1 : crlf + 2, lf === -1 ? -1 : lf + 1].filter((index) => index > 0);
  return ends.length > 0 ? Math.min(...ends) : undefined;
}
