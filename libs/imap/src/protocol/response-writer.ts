import type { Readable, Writable } from 'node:stream';
import { encodeResponse, type ResponsePart } from './response-format';

/** A literal's bytes as a stream of a length known before the first of them: a section MailSectionReader.open reads. */
export interface LiteralStream {
  length: number;
  stream: Readable;
  /** Written as a literal8, `~{length}` (RFC 3516): bytes that may hold a NUL, which a literal may not. */
  literal8?: boolean;
}

/**
 * A piece of a response that may be streamed: a literal stream is written as `{length}` CRLF and its bytes as they are
 * read; text pieces (ASCII, no CRLF) one by one as they are made, so a line of megabytes (SORT of a million messages)
 * is never one string.
 */
export type StreamedResponsePart = ResponsePart | { literalStream: LiteralStream } | { textPieces: Iterable<string> };

/** The output closed, or a literal stream was not the length it said: the response cannot be completed. */
export class ResponseWriteError extends Error {}

/**
 * Writes one response, waiting for `out` to drain whenever its buffer is full: a literal stream's chunks go out one by
 * one as they are read, never joined, so a 10 MB body holds no more than the stream's and the socket's buffers.
 */
export async function writeResponse(out: Writable, parts: StreamedResponsePart[]): Promise<void> {
  let pending: ResponsePart[] = [];
  for (const part of parts) {
    if (typeof part === 'string' || 'literal' in part || 'raw' in part) {
      pending.push(part);
      continue;
    }
    if ('textPieces' in part) {
      await writeDrained(out, encodeLine(pending));
      pending = [];
      for (const piece of part.textPieces) await writeDrained(out, Buffer.from(piece, 'latin1'));
      continue;
    }
    const { length, stream, literal8 } = part.literalStream;
    await writeDrained(out, Buffer.concat([encodeLine(pending), Buffer.from(`${literal8 ? '~' : ''}{${length}}\r\n`)]));
    pending = [];
    await writeStream(out, stream, length);
  }
  await writeDrained(out, encodeResponse(pending));
}

/** The bytes of response parts without the line's ending CRLF: what comes before a streamed literal. */
function encodeLine(parts: ResponsePart[]): Buffer {
  const bytes = encodeResponse(parts);
  return bytes.subarray(0, bytes.length - 2);
}

async function writeStream(out: Writable, stream: Readable, length: number): Promise<void> {
  let written = 0;
  for await (const chunk of stream) {
    const bytes = chunk as Buffer;
    written += bytes.length;
    if (written > length) throw new ResponseWriteError(`a literal stream gave more than its ${length} bytes`);
    await writeDrained(out, bytes);
  }
  if (written !== length) throw new ResponseWriteError(`a literal stream gave ${written} of its ${length} bytes`);
}

/** Writes `bytes`, then waits for 'drain' when the output's buffer is full; fails when the output is closed. */
export async function writeDrained(out: Writable, bytes: Buffer): Promise<void> {
  if (out.destroyed || !out.writable) throw new ResponseWriteError('the connection closed');
  if (out.write(bytes)) return;
  await new Promise<void>((resolve, reject) => {
    const settle = (error?: Error) => {
      out.off('drain', onDrain);
      out.off('close', onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => settle();
    const onClose = () => settle(new ResponseWriteError('the connection closed'));
    out.on('drain', onDrain);
    out.on('close', onClose);
  });
}
