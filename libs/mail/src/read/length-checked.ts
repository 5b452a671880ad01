import { Transform } from 'node:stream';

/**
 * Passes bytes on and fails the stream if it ends short of, or runs past, the length the
 * response promised in Content-Length: a stored file cut short must break the connection,
 * not leave the client waiting for bytes that never come.
 */
export function lengthChecked(expected: number, what: string): Transform {
  let seen = 0;
  return new Transform({
    transform(chunk: Buffer, _encoding, done) {
      seen += chunk.length;
      if (seen > expected) return done(new Error(`${what} is longer than its recorded ${expected} bytes`));
      done(null, chunk);
    },
    flush(done) {
      done(seen === expected ? null : new Error(`${what} ended after ${seen} of its recorded ${expected} bytes`));
    },
  });
}
