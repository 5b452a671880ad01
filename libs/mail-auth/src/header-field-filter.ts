import { Transform, type TransformCallback } from 'node:stream';

/** One header field as it arrives: its name in lower case, and its bytes, folded lines and line ends included. */
export interface HeaderField {
  name: string;
  raw: Buffer;
}

/** Whether a header field stays in the message. */
export type KeepField = (field: HeaderField) => boolean;

/**
 * Past this many bytes of header block the rest passes untouched: real header blocks are a
 * few kilobytes, and the intake refuses those longer than this.
 */
const MAX_HEADER_BYTES = 256 * 1024;
const LF = 0x0a;

/**
 * Drops the header fields `keep` refuses from a message's header block, passing the
 * rest of the message (the body) untouched. Each byte is looked at once, and only the
 * field being read is held, so a hostile message (a byte per chunk, a huge header) costs
 * linear time and bounded memory.
 */
class HeaderFieldSplitter {
  private inHeader = true;
  private headerBytes = 0;
  /** The line being read, its pieces not joined until its end. */
  private partial: Buffer[] = [];
  private partialBytes = 0;
  /** The lines of the field being read (its first and its folded continuations). */
  private field: Buffer[] = [];

  constructor(private readonly keep: KeepField) {}

  write(chunk: Buffer, emit: (bytes: Buffer) => void): void {
    let position = 0;
    while (this.inHeader && position < chunk.length) {
      const end = chunk.indexOf(LF, position);
      if (end === -1) {
        this.partial.push(chunk.subarray(position));
        this.partialBytes += chunk.length - position;
        position = chunk.length;
        if (this.headerBytes + this.partialBytes > MAX_HEADER_BYTES) this.giveUp(emit);
        break;
      }
      this.partial.push(chunk.subarray(position, end + 1));
      const line = Buffer.concat(this.partial);
      this.partial = [];
      this.partialBytes = 0;
      position = end + 1;
      this.line(line, emit);
    }
    if (!this.inHeader && position < chunk.length) emit(chunk.subarray(position));
  }

  end(emit: (bytes: Buffer) => void): void {
    if (!this.inHeader) return;
    // A message of header fields only, its last line without a line end.
    if (this.partial.length > 0) this.line(Buffer.concat(this.partial), emit);
    this.partial = [];
    this.endField(emit);
  }

  private line(line: Buffer, emit: (bytes: Buffer) => void): void {
    this.headerBytes += line.length;
    if (isBlank(line)) {
      this.endField(emit);
      emit(line);
      this.inHeader = false;
    } else if ((line[0] === 0x20 || line[0] === 0x09) && this.field.length > 0) {
      this.field.push(line);
    } else {
      this.endField(emit);
      this.field = [line];
    }
    if (this.inHeader && this.headerBytes > MAX_HEADER_BYTES) this.giveUp(emit);
  }

  private endField(emit: (bytes: Buffer) => void): void {
    if (this.field.length === 0) return;
    const raw = Buffer.concat(this.field);
    this.field = [];
    const colon = raw.indexOf(':');
    const name = colon === -1 ? '' : raw.toString('latin1', 0, colon).trim().toLowerCase();
    if (this.keep({ name, raw })) emit(raw);
  }

  /** Too long to be a real header block: what is held passes as it came, and so does the rest. */
  private giveUp(emit: (bytes: Buffer) => void): void {
    for (const line of this.field) emit(line);
    for (const piece of this.partial) emit(piece);
    this.field = [];
    this.partial = [];
    this.inHeader = false;
  }
}

function isBlank(line: Buffer): boolean {
  return (line.length === 1 && line[0] === LF) || (line.length === 2 && line[0] === 0x0d && line[1] === LF);
}

/** A stream filter for messages too large to hold: see HeaderFieldSplitter. */
export class HeaderFieldFilter extends Transform {
  private readonly splitter: HeaderFieldSplitter;

  constructor(keep: KeepField) {
    super();
    this.splitter = new HeaderFieldSplitter(keep);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.splitter.write(chunk, (bytes) => this.push(bytes));
    done();
  }

  override _flush(done: TransformCallback): void {
    this.splitter.end((bytes) => this.push(bytes));
    done();
  }
}

/** The message held in memory, without the header fields `keep` refuses. */
export function filterHeaderFields(message: Buffer, keep: KeepField): Buffer {
  const pieces: Buffer[] = [];
  const splitter = new HeaderFieldSplitter(keep);
  splitter.write(message, (bytes) => pieces.push(bytes));
  splitter.end((bytes) => pieces.push(bytes));
  return Buffer.concat(pieces);
}
