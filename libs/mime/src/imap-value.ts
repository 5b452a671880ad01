/**
 * A value of an IMAP response (RFC 3501 9): NIL, a number, a string or a parenthesized
 * list. Strings are byte strings: each character one byte (latin1), as mail headers are
 * stored, so 8-bit header bytes go out as they came.
 */
export type ImapValue = null | number | string | ImapValue[] | ImapRun;

/** Lists written back to back, without spaces or parentheses around them: `1*body` and `1*address` in the grammar. */
export interface ImapRun {
  run: ImapValue[][];
}

export function imapRun(lists: ImapValue[][]): ImapRun {
  return { run: lists };
}

/** Bytes a quoted string may not hold: anything not 7-bit text (RFC 3501 `QUOTED-CHAR`); these go as a literal. */
// eslint-disable-next-line no-control-regex -- control characters are what is looked for
const NEEDS_LITERAL = /[^\x01-\x09\x0b\x0c\x0e-\x7f]/;
// eslint-disable-next-line no-control-regex -- NUL is the character removed
const NUL = /\x00/g;

/** The value as it goes on the wire. */
export function serializeImapValue(value: ImapValue): Buffer {
  const pieces: Buffer[] = [];
  write(value, pieces);
  return Buffer.concat(pieces);
}

function write(value: ImapValue, pieces: Buffer[]): void {
  if (value === null) pieces.push(Buffer.from('NIL'));
  else if (typeof value === 'number') pieces.push(Buffer.from(String(Math.max(0, Math.trunc(value)))));
  else if (typeof value === 'string') pieces.push(imapString(value));
  else if (Array.isArray(value)) {
    pieces.push(Buffer.from('('));
    value.forEach((item, index) => {
      if (index > 0) pieces.push(Buffer.from(' '));
      write(item, pieces);
    });
    pieces.push(Buffer.from(')'));
  } else for (const list of value.run) write(list, pieces);
}

/**
 * A quoted string, or a literal for text a quoted string cannot hold. A literal may hold
 * any byte but NUL (RFC 3501 `CHAR8`): a NUL in a header is dropped.
 */
function imapString(text: string): Buffer {
  if (!NEEDS_LITERAL.test(text)) return Buffer.from(`"${text.replace(/["\\]/g, '\\$&')}"`, 'latin1');
  const bytes = Buffer.from(text.replace(NUL, ''), 'latin1');
  return Buffer.concat([Buffer.from(`{${bytes.length}}\r\n`), bytes]);
}
