import { Readable } from 'node:stream';
import { headerEnd, rejoined } from '@letterbox/ingest';
import { MAX_HEADER_BLOCK } from '@letterbox/mime';

/** A message split at the end of its header block: the block (without the blank line), and the rest from the blank line on. */
export interface SplitMessage {
  head: Buffer;
  rest: Readable;
}

/** The message has no blank line ending its header block within MAX_HEADER_BLOCK bytes: no message a client writes. */
export class HeaderBlockTooLongError extends Error {
  constructor() {
    super(`the header block does not end within ${MAX_HEADER_BLOCK} bytes`);
  }
}

/**
 * Reads a message up to the end of its header block, the rest left to stream. Each chunk is searched once, with
 * the few bytes before it that a blank line may straddle: linear work however the client splits its writes. A
 * message that ends without a blank line is all header.
 */
export async function splitAtHeaderEnd(message: Readable): Promise<SplitMessage> {
  const iterator: AsyncIterator<Buffer> = message[Symbol.asyncIterator]();
  const chunks: Buffer[] = [];
  let read = 0;
  /** The last bytes read, which with the next chunk may make the blank line. */
  let tail = Buffer.alloc(0);
  for (;;) {
    const next = await iterator.next();
    if (next.done) return { head: Buffer.concat(chunks), rest: Readable.from([]) };
    const window = Buffer.concat([tail, next.value]);
    const end = headerEnd(window);
    const endInMessage = end === undefined ? undefined : read - tail.length + end;
    chunks.push(next.value);
    read += next.value.length;
    tail = window.subarray(Math.max(0, window.length - 3));
    if (endInMessage !== undefined) {
      const whole = Buffer.concat(chunks);
      return { head: whole.subarray(0, endInMessage), rest: rejoined([whole.subarray(endInMessage)], iterator) };
    }
    if (read > MAX_HEADER_BLOCK) {
      await iterator.return?.();
      throw new HeaderBlockTooLongError();
    }
  }
}
