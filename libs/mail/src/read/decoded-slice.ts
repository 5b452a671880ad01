import type { Readable } from 'node:stream';
import type { ByteSpan } from '@letterbox/mime';

/** What a first pass over decoded content finds: how many bytes it is, and whether a NUL is among them. */
export interface DecodedProbe {
  length: number;
  containsNul: boolean;
}

/** Reads the stream to its end, holding no more than a chunk. */
export async function probeDecoded(stream: Readable): Promise<DecodedProbe> {
  const probe = { length: 0, containsNul: false };
  for await (const chunk of stream) {
    const bytes = chunk as Buffer;
    probe.length += bytes.length;
    probe.containsNul ||= bytes.includes(0);
  }
  return probe;
}

/**
 * The bytes [start, end) of a stream, as they come; leaving the loop once past `end` destroys the stream, so a
 * partial from the start of a large part reads no further than it needs.
 */
export async function* sliceOf(stream: Readable, { start, end }: ByteSpan): AsyncGenerator<Buffer> {
  let at = 0;
  for await (const chunk of stream) {
    const bytes = chunk as Buffer;
    const from = Math.max(start - at, 0);
    const to = Math.min(end - at, bytes.length);
    at += bytes.length;
    if (to > from) yield bytes.subarray(from, to);
    if (at >= end) return;
  }
}
