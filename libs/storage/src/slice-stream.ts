import { Transform } from 'node:stream';

/** Passes on only bytes [start, end) of what flows through, then ends early. */
export function sliceStream(start: number, end: number): Transform {
  let offset = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      const chunkStart = offset;
      offset += chunk.length;
      if (offset <= start || chunkStart >= end) return done();
      done(null, chunk.subarray(Math.max(0, start - chunkStart), Math.min(chunk.length, end - chunkStart)));
    },
  });
}
