import { ImapCommandError } from './tokens';

/**
 * A mailbox name as IMAP4rev1 sends it: modified UTF-7 (RFC 3501 §5.1.3). Printable US-ASCII stands for itself,
 * `&` is `&-`, anything else is UTF-16 in base64 (`,` for `/`, no padding) between `&` and `-`.
 */
export function encodeMailboxName(name: string): string {
  let encoded = '';
  let pending: string[] = [];
  const flush = () => {
    if (pending.length === 0) return;
    const utf16 = Buffer.from(pending.join(''), 'utf16le').swap16();
    encoded += `&${utf16.toString('base64').replace(/=+$/, '').replace(/\//g, ',')}-`;
    pending = [];
  };
  for (const char of name) {
    const code = char.codePointAt(0) ?? 0;
    if (code >= 0x20 && code <= 0x7e) {
      flush();
      encoded += char === '&' ? '&-' : char;
    } else {
      pending.push(char);
    }
  }
  flush();
  return encoded;
}

const SHIFTED = /&([A-Za-z0-9+,]*)-/g;

/** The name a client sent in modified UTF-7; a name that is not valid modified UTF-7 is refused (BAD). */
export function decodeMailboxName(encoded: string): string {
  if (/[^\x20-\x7e]/.test(encoded)) throw new ImapCommandError('a mailbox name must be modified UTF-7 (RFC 3501 5.1.3) unless UTF8=ACCEPT is enabled');
  if (/&(?![A-Za-z0-9+,]*-)/.test(encoded)) throw new ImapCommandError('malformed modified UTF-7 in the mailbox name: an & not closed by -');
  return encoded.replace(SHIFTED, (_match, base64: string) => {
    if (base64 === '') return '&';
    const bytes = Buffer.from(base64.replace(/,/g, '/'), 'base64');
    if (bytes.length % 2 !== 0 || bytes.length === 0) throw new ImapCommandError(`malformed modified UTF-7 in the mailbox name: &${base64}-`);
    const text = Buffer.from(bytes).swap16().toString('utf16le');
    // A shifted run must not hold what could have been written directly (RFC 3501: the shortest encoding).
    if ([...text].some((char) => (char.codePointAt(0) ?? 0) >= 0x20 && (char.codePointAt(0) ?? 0) <= 0x7e)) {
      throw new ImapCommandError(`malformed modified UTF-7 in the mailbox name: &${base64}-`);
    }
    return text;
  });
}
