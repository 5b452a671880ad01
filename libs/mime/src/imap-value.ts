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

/** The value as it goes on the wire: built as one latin1 string, each character a byte, and encoded once. */
export function serializeImapValue(value: ImapValue): Buffer {
  return Buffer.from(imapText(value), 'latin1');
}

function imapText(value: ImapValue): string {
  if (value === null) return 'NIL';
  if (typeof value === 'number') return String(Math.max(0, Math.trunc(value)));
  if (typeof value === 'string') return imapString(value);
  if (Array.isArray(value)) return `(${value.map(imapText).join(' ')})`;
  return value.run.map(imapText).join('');
}

/**
 * A quoted string, or a literal for text a quoted string cannot hold. A literal may hold
 * any byte but NUL (RFC 3501 `CHAR8`): a NUL in a header is dropped.
 */
function imapString(text: string): string {
  if (!NEEDS_LITERAL.test(text)) return `"${text.replace(/["\\]/g, '\\$&')}"`;
  const bytes = text.replace(NUL, '');
  return `{${bytes.length}}\r\n${bytes}`;
}
