import { parseAddresses, parseHeaderBlock } from './header-block';

/** A header block longer than this is read by its start only. */
export const MAX_HEADER_BLOCK = 256 * 1024;
/** A header value longer than this is kept by its start only: what reads it does bounded work on mail from anyone. */
const MAX_HEADER_VALUE = 8 * 1024;

/** A message's top-level headers, decoded: the values of a name (any case), in order, and the addresses of an address header. */
export interface MessageHeaders {
  header(name: string): string[];
  addresses(name: string): string[];
}

export function messageHeadersOf(block: Buffer): MessageHeaders {
  const byName = new Map<string, string[]>();
  for (const { name, value } of parseHeaderBlock(block)) {
    const key = name.toLowerCase();
    byName.set(key, [...(byName.get(key) ?? []), value.slice(0, MAX_HEADER_VALUE)]);
  }
  const header = (name: string) => byName.get(name.toLowerCase()) ?? [];
  return { header, addresses: (name) => parseAddresses(header(name)).map((address) => address.address) };
}
