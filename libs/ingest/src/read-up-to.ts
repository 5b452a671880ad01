import { Readable } from 'node:stream';

/** A stream read into memory if it fits; else what was read and the rest, as one stream again. */
export type ReadUpTo = { whole: Buffer; rest?: undefined } | { whole?: undefined; rest: Readable };

/** Reads `source` whole when it holds at most `limitBytes`; past that, hands it back unread from the start. */
export async function readUpTo(source: Readable, limitBytes: number): Promise<ReadUpTo> {
  const chunks: Buffer[] = [];
  let size = 0;
  const iterator: AsyncIterator<Buffer> = source[Symbol.asyncIterator]();
  for (;;) {
    const next = await iterator.next();
    if (next.done) return { whole: Buffer.concat(chunks, size) };
    chunks.push(next.value);
    size += next.value.length;
    if (size > limitBytes) break;
  }
  return { rest: rejoined(chunks, iterator) };
}

/** A stream read partly through its iterator, whole again: the chunks read, then the rest. */
export function rejoined(read: Buffer[], iterator: AsyncIterator<Buffer>): Readable {
  async function* again(): AsyncGenerator<Buffer> {
    try {
      yield* read;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    } finally {
      // A reader that gives up (a storage failure) ends the source too, as a pipe would.
      await iterator.return?.();
    }
  }
  return Readable.from(again(), { objectMode: false });
}
