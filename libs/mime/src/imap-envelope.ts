import addressparser from 'nodemailer/lib/addressparser';
import { envelopeFieldsOf } from './envelope-fields';
import { imapRun, type ImapValue } from './imap-value';
import type { EnvelopeFields } from './layout';
import { MAX_HEADER_BLOCK } from './message-headers';
import { firstValues, unfoldHeaderLines } from './part-headers';
import { plainAddresses } from './plain-addresses';

/** What RFC 822 named a missing domain, as IMAP servers still report it: NIL would mean a group. */
const MISSING_HOST = '.MISSING-HOST-NAME.';

/** A message's IMAP ENVELOPE (RFC 3501 7.4.2) from its raw header block; one past MAX_HEADER_BLOCK is read by its start. */
export function envelopeOf(headerBlock: Buffer): ImapValue {
  return envelopeOfFields(envelopeFieldsOfHeaderBlock(headerBlock));
}

/** The envelope's fields of a raw header block, as a tree records them; one past MAX_HEADER_BLOCK is read by its start. */
export function envelopeFieldsOfHeaderBlock(headerBlock: Buffer): EnvelopeFields {
  const lines = headerBlock.toString('latin1', 0, Math.min(headerBlock.length, MAX_HEADER_BLOCK)).split(/\r?\n/);
  const blank = lines.indexOf('');
  return envelopeFieldsOf(firstValues(unfoldHeaderLines(blank === -1 ? lines : lines.slice(0, blank))));
}

/**
 * The ENVELOPE of the header fields an encapsulated message's tree keeps. Values are raw
 * (encoded words stay encoded, as IMAP clients expect); Sender and Reply-To are From's
 * when absent or empty.
 */
export function envelopeOfFields(fields: EnvelopeFields): ImapValue {
  const from = addressList(fields.from);
  return [
    text(fields.date),
    text(fields.subject),
    from,
    addressList(fields.sender) ?? from,
    addressList(fields.replyTo) ?? from,
    addressList(fields.to),
    addressList(fields.cc),
    addressList(fields.bcc),
    text(fields.inReplyTo),
    text(fields.messageId),
  ];
}

function text(value: string | undefined): string | null {
  const trimmed = value?.trim();
  return trimmed ? trimmed : null;
}

/** `(address...)` with groups as RFC 3501 writes them: a start `(NIL NIL name NIL)`, the members, an end `(NIL NIL NIL NIL)`. */
function addressList(value: string | undefined): ImapValue {
  if (value === undefined) return null;
  const plain = plainAddresses(value);
  if (plain) return plain.length > 0 ? [imapRun(plain.map(({ name, address }) => imapAddress(name, address)))] : null;
  const addresses: ImapValue[][] = [];
  const visit = (entries: ReturnType<typeof addressparser>) => {
    for (const entry of entries) {
      if ('group' in entry && entry.group) {
        addresses.push([null, null, entry.name || '', null]);
        visit(entry.group);
        addresses.push([null, null, null, null]);
      } else if (entry.address) {
        addresses.push(imapAddress(entry.name ?? '', entry.address));
      }
    }
  };
  visit(addressparser(value));
  return addresses.length > 0 ? [imapRun(addresses)] : null;
}

function imapAddress(name: string, address: string): ImapValue[] {
  const at = address.lastIndexOf('@');
  const mailbox = at === -1 ? address : address.slice(0, at);
  const host = at === -1 ? MISSING_HOST : address.slice(at + 1);
  return [name || null, null, mailbox, host];
}
