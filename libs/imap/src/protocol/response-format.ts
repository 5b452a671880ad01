/**
 * A piece of a response: text written as it is, a literal (`{n}` CRLF and its bytes), or bytes written as they are
 * (an IMAP value serialized with its own literals: ENVELOPE, BODYSTRUCTURE).
 */
export type ResponsePart = string | { literal: Buffer } | { raw: Buffer };

/** Strings longer than this go as literals: a quoted string is one line, and lines should stay short. */
const QUOTED_MAX = 1024;
const UNQUOTABLE = new Set(['\0', '\r', '\n']);

/**
 * A string as a response carries it: quoted when it can be (RFC 3501's quoted takes no CR, LF or NUL, nor 8-bit
 * bytes unless UTF8=ACCEPT is on), a literal otherwise.
 */
export function imapString(value: string, utf8 = false): ResponsePart {
  const quotable = value.length <= QUOTED_MAX && [...value].every((char) => !UNQUOTABLE.has(char) && (utf8 || char <= '\x7f'));
  return quotable ? `"${value.replace(/[\\"]/g, '\\$&')}"` : { literal: Buffer.from(value, 'utf8') };
}

/** An nstring: NIL for no value. */
export function imapNString(value: string | null | undefined, utf8 = false): ResponsePart {
  return value === null || value === undefined ? 'NIL' : imapString(value, utf8);
}

/** The bytes of a response line, its literals written as `{n}` CRLF then their bytes, ending with CRLF. */
export function encodeResponse(parts: ResponsePart[]): Buffer {
  const pieces: Buffer[] = [];
  let text = '';
  for (const part of parts) {
    if (typeof part === 'string') {
      text += part;
      continue;
    }
    if ('raw' in part) pieces.push(Buffer.from(text, 'utf8'), part.raw);
    else pieces.push(Buffer.from(`${text}{${part.literal.length}}\r\n`, 'utf8'), part.literal);
    text = '';
  }
  pieces.push(Buffer.from(`${text}\r\n`, 'utf8'));
  return Buffer.concat(pieces);
}

/** `* <text>`: untagged. */
export const untagged = (...parts: ResponsePart[]): ResponsePart[] => ['* ', ...parts];

/** `<tag> OK|NO|BAD [code] text`: a command's completion. */
export function tagged(tag: string, status: 'OK' | 'NO' | 'BAD', text: string, code?: string): ResponsePart[] {
  return [`${tag} ${status} ${code ? `[${code}] ` : ''}${responseText(text)}`];
}

/** `+ text`: the server waits for more of the command. */
export const continuation = (text: string): ResponsePart[] => [`+ ${responseText(text)}`];

/** Free text of a response: one line, never empty (RFC 3501's text is 1*TEXT-CHAR). */
export function responseText(text: string): string {
  const line = text.replace(/[\r\n\0]+/g, ' ').trim();
  return line === '' ? 'done' : line;
}
