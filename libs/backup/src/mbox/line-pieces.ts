/** Longest piece of a line held at once: a longer line comes in pieces, only the first of which starts it. */
export const PIECE_BYTES = 64 * 1024;

/** A line, or a piece of a long one. */
export interface LinePiece {
  bytes: Buffer;
  startsLine: boolean;
  /** It ends with the line's `\n`. */
  endsLine: boolean;
}

/**
 * The content in lines, each ending with its `\n` (the last one perhaps without), a line
 * longer than PIECE_BYTES in pieces: mbox's rules look only at the start of a line, so
 * no more than a piece is ever held, however long the line. Linear in the content.
 */
export async function* linePieces(source: AsyncIterable<Buffer>): AsyncGenerator<LinePiece> {
  let carry: Buffer[] = [];
  let carried = 0;
  let startsLine = true;
  for await (const chunk of source) {
    let from = 0;
    while (from < chunk.length) {
      const newline = chunk.indexOf(10, from);
      const end = newline === -1 ? chunk.length : newline + 1;
      const room = PIECE_BYTES - carried;
      if (end - from > room) {
        yield { bytes: Buffer.concat([...carry, chunk.subarray(from, from + room)]), startsLine, endsLine: false };
        [carry, carried, startsLine, from] = [[], 0, false, from + room];
        continue;
      }
      if (newline === -1) {
        carry.push(chunk.subarray(from));
        carried += chunk.length - from;
        break;
      }
      yield { bytes: Buffer.concat([...carry, chunk.subarray(from, end)]), startsLine, endsLine: true };
      [carry, carried, startsLine, from] = [[], 0, true, end];
    }
  }
  if (carried > 0) yield { bytes: Buffer.concat(carry), startsLine, endsLine: false };
}

const FROM = Buffer.from('From ');

/** How many `>` a line of the form `>*From ` starts with (mboxrd's quoted lines), or -1 for any other line. */
export function fromLineQuotes(bytes: Buffer): number {
  let quotes = 0;
  while (quotes < bytes.length && bytes[quotes] === 0x3e) quotes++;
  return bytes.subarray(quotes, quotes + FROM.length).equals(FROM) ? quotes : -1;
}
