/** An address of a header, as an IMAP ENVELOPE names it: the display name ('' for none) and the addr-spec. */
export interface HeaderAddress {
  name: string;
  address: string;
}

/** What only a full parser reads right: quoted names, comments, groups, routes, escapes, folded or repeated whitespace. */
const NEEDS_PARSER = /["()\\:;[\]\t\r\n]|\s\s/;
/** `Name <local@host>`, `<local@host>` or `local@host`; the name holds no `<`, `>`, `@` or `,`. */
const PLAIN_ENTRY = /^ *(?:([^<>@,]*?) *<([^<>@\s,]+@[^<>@\s,]+)>|([^<>@\s,]+@[^<>@\s,]+)) *$/;

/**
 * The addresses of a header value written the plain way nearly all mail writes them, without a full parser (an
 * IMAP FETCH of a million envelopes parses millions of them); undefined for anything else, which a full parser
 * reads. Linear: no double spaces means the lazy name meets its `<` after at most one space.
 */
export function plainAddresses(value: string): HeaderAddress[] | undefined {
  if (NEEDS_PARSER.test(value)) return undefined;
  const addresses: HeaderAddress[] = [];
  for (const entry of value.split(',')) {
    const match = PLAIN_ENTRY.exec(entry);
    if (!match) return undefined;
    addresses.push(match[3] === undefined ? { name: match[1], address: match[2] } : { name: '', address: match[3] });
  }
  return addresses;
}
