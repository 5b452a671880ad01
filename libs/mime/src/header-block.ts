import addressparser from 'nodemailer/lib/addressparser';
import { decodeAddressHeaderText, decodeHeaderText } from './header-text';
import { unfoldHeaderLines } from './part-headers';

export interface MailHeader {
  name: string;
  value: string;
}

export interface MailAddress {
  name: string;
  address: string;
}

/** What the list and the database keep of a message's top-level headers. */
export interface HeaderSummary {
  messageId?: string;
  subject: string;
  from?: MailAddress;
  to: MailAddress[];
  cc: MailAddress[];
  bcc: MailAddress[];
  date?: Date;
  /** The Message-ID this one answers, if any. */
  inReplyTo?: string;
  /** The conversation's Message-IDs, oldest first, at most MAX_REFERENCES of the newest. */
  references: string[];
}

/** A reply needs only the newest references to find its conversation; more is unbounded work. */
export const MAX_REFERENCES = 20;

/** Headers holding address lists, whose encoded words may only be display names. */
const ADDRESS_HEADERS = new Set(['from', 'sender', 'reply-to', 'to', 'cc', 'bcc', 'resent-from', 'resent-sender', 'resent-to', 'resent-cc', 'resent-bcc']);

/**
 * Parses a raw header block into decoded headers, in order. `fallbackCharset` (the body's)
 * reads raw 8-bit header bytes that are not UTF-8.
 */
export function parseHeaderBlock(block: Buffer, fallbackCharset?: string): MailHeader[] {
  const lines = block.toString('latin1').split(/\r?\n/);
  return unfoldHeaderLines(lines).map(({ name, value }) => ({
    name,
    value: ADDRESS_HEADERS.has(name.toLowerCase()) ? decodeAddressHeaderText(value, fallbackCharset) : decodeHeaderText(value, fallbackCharset),
  }));
}

export function summarizeHeaders(headers: MailHeader[]): HeaderSummary {
  const first = (name: string) => headers.find((header) => header.name.toLowerCase() === name)?.value;
  const all = (name: string) => headers.filter((header) => header.name.toLowerCase() === name).map((header) => header.value);
  const messageId = first('message-id')?.trim();
  // RFC 5322 dates carry a time of day; without one V8 reads any number as a year ("1" is 2001).
  const dateText = first('date');
  const date = dateText && /\d:\d\d/.test(dateText) ? new Date(dateText) : undefined;
  return {
    messageId: messageId || undefined,
    subject: first('subject') ?? '',
    from: parseAddresses(all('from'))[0],
    to: parseAddresses(all('to')),
    cc: parseAddresses(all('cc')),
    bcc: parseAddresses(all('bcc')),
    date: date && !Number.isNaN(date.getTime()) ? date : undefined,
    inReplyTo: messageIdsIn(first('in-reply-to') ?? '').at(-1),
    references: messageIdsIn(all('references').join(' ')).slice(-MAX_REFERENCES),
  };
}

/** The `<id>` tokens of a header, in order; anything between them (comments, junk) is ignored. */
function messageIdsIn(value: string): string[] {
  return value.match(/<[^<>\s]{1,500}>/g) ?? [];
}

/** Parses address headers, flattening groups; entries without an address are dropped. */
export function parseAddresses(values: string[]): MailAddress[] {
  const addresses: MailAddress[] = [];
  const visit = (entries: ReturnType<typeof addressparser>) => {
    for (const entry of entries) {
      if ('group' in entry && entry.group) visit(entry.group);
      else if (entry.address) addresses.push({ name: entry.name ?? '', address: entry.address.toLowerCase() });
    }
  };
  for (const value of values) visit(addressparser(value));
  return addresses;
}
