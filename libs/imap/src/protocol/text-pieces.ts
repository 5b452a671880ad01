/** How much text a piece of a long response line holds: the writer's unit of backpressure. */
const PIECE_CHARS = 64 * 1024;

/** Text made bit by bit, given out in pieces of about PIECE_CHARS: a long line is written without being one string. */
export function* textPieces(parts: Iterable<string>): Generator<string> {
  let piece = '';
  for (const part of parts) {
    piece += part;
    if (piece.length >= PIECE_CHARS) {
      yield piece;
      piece = '';
    }
  }
  if (piece !== '') yield piece;
}

/** ` 3 1 2`: each number after a space, as SORT and SEARCH list them. */
export function* spacedNumbers(numbers: Iterable<number>): Generator<string> {
  for (const number of numbers) yield ` ${number}`;
}
