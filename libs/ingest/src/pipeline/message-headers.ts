import { parseAddresses, parseHeaderBlock } from '@letterbox/mime';
import type { BlobStore } from '@letterbox/storage';
import type { Logger } from 'pino';
import type { IngestItem } from './ingest-batch';

/** A header block longer than this is read by its start only. */
const MAX_HEADER_BLOCK = 256 * 1024;
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

/**
 * The headers of a parsed message: from the spooled bytes the parse stage kept, else read from
 * storage; undefined (and a warning) when they cannot be read, for the caller to go on without.
 */
export async function readMessageHeaders(item: IngestItem, blobs: BlobStore, logger: Logger, without: string): Promise<MessageHeaders | undefined> {
  const end = Math.min(item.prepared?.layout.headerEnd ?? 0, MAX_HEADER_BLOCK);
  if (item.spooled) return messageHeadersOf(item.spooled.subarray(0, end));
  try {
    const [block] = await blobs.readRanges(item.message.storageKey, [{ start: 0, end }]);
    return messageHeadersOf(block);
  } catch (error) {
    logger.warn({ inboundId: item.message.inboundId, err: error }, `${item.message.inboundId}: its header could not be read; stored ${without}`);
    return undefined;
  }
}
