import { Transform } from 'node:stream';

const EQUALS = 0x3d;
const LF = 0x0a;
const CR = 0x0d;
const SPACE = 0x20;
const TAB = 0x09;

/**
 * Decodes quoted-printable as it streams, holding only the few bytes whose meaning the
 * next chunk decides: libqp's stream decoder buffers the whole input, which an attachment
 * download must never do.
 */
export class QuotedPrintableDecoder extends Transform {
  private carry: Buffer = Buffer.alloc(0);

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: () => void): void {
    const input = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    const cut = safeCut(input);
    if (cut > 0) this.push(decodeQuotedPrintable(input.subarray(0, cut)));
    this.carry = Buffer.from(input.subarray(cut));
    done();
  }

  override _flush(done: () => void): void {
    if (this.carry.length > 0) this.push(decodeQuotedPrintable(this.carry));
    done();
  }
}

/**
 * Where the input can be cut so that decoding the two sides apart gives the same bytes:
 * after a line break, or within a line where no `=XX`, soft break, CRLF or trailing white
 * space is split. Cutting within lines keeps a line that never ends from being held whole.
 */
function safeCut(input: Buffer): number {
  let cut = input.length;
  while (cut > 0 && input[cut - 1] !== LF && (isHeld(input[cut - 1]) || input[cut - 2] === EQUALS)) cut--;
  return cut;
}

function isHeld(byte: number): boolean {
  return byte === EQUALS || byte === SPACE || byte === TAB || byte === CR;
}

/** RFC 2045 6.7: `=XX` is a byte, `=` at a line's end joins it to the next, anything malformed stays as it is. */
export function decodeQuotedPrintable(input: Buffer): Buffer {
  const output = Buffer.allocUnsafe(input.length);
  let written = 0;
  let lineStart = 0;
  while (lineStart < input.length) {
    let lineEnd = input.indexOf(LF, lineStart);
    const hasBreak = lineEnd !== -1;
    if (!hasBreak) lineEnd = input.length;
    let contentEnd = lineEnd > lineStart && input[lineEnd - 1] === CR ? lineEnd - 1 : lineEnd;
    // Trailing white space was added in transport and is not part of the data.
    while (contentEnd > lineStart && (input[contentEnd - 1] === 0x20 || input[contentEnd - 1] === 0x09)) contentEnd--;
    const softBreak = contentEnd > lineStart && input[contentEnd - 1] === EQUALS;
    const end = softBreak ? contentEnd - 1 : contentEnd;
    for (let index = lineStart; index < end; index++) {
      const byte = input[index];
      if (byte === EQUALS && index + 2 < end && isHex(input[index + 1]) && isHex(input[index + 2])) {
        output[written++] = (hexValue(input[index + 1]) << 4) | hexValue(input[index + 2]);
        index += 2;
      } else {
        output[written++] = byte;
      }
    }
    if (hasBreak && !softBreak) {
      for (let index = contentEnd; index <= lineEnd; index++) {
        if (input[index] === CR || input[index] === LF) output[written++] = input[index];
      }
    }
    lineStart = lineEnd + 1;
  }
  return output.subarray(0, written);
}

function isHex(byte: number): boolean {
  return (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x46) || (byte >= 0x61 && byte <= 0x66);
}

function hexValue(byte: number): number {
  if (byte <= 0x39) return byte - 0x30;
  if (byte <= 0x46) return byte - 0x41 + 10;
  return byte - 0x61 + 10;
}
