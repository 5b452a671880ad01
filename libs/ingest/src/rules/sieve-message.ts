import { parseAddresses, parseHeaderBlock } from '@letterbox/mime';
import type { PreparedMail } from '@letterbox/mail';
import type { SieveMessage } from '@letterbox/sieve';

/** A header value longer than this is compared by its start only: rules on mail from anyone do bounded work. */
const MAX_HEADER_VALUE = 8 * 1024;

/**
 * A stored message as the rules of one of its recipients see it: its top-level headers
 * (decoded, from the header block's bytes), the envelope's sender and that recipient, the body
 * text the parse stage decoded, and its size.
 */
export function sieveMessageOf(headerBlock: Buffer, prepared: PreparedMail, envelope: { from: string; to: string }): SieveMessage {
  const byName = new Map<string, string[]>();
  for (const { name, value } of parseHeaderBlock(headerBlock)) {
    const key = name.toLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), value.slice(0, MAX_HEADER_VALUE)]);
  }
  const header = (name: string) => byName.get(name.toLowerCase()) ?? [];
  return {
    header,
    addresses: (name) => parseAddresses(header(name)).map((address) => address.address),
    envelope,
    bodyText: prepared.bodyText,
    size: prepared.blob.size,
  };
}
