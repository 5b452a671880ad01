import { MAX_HEADER_BLOCK, messageHeadersOf, type MessageHeaders } from '@letterbox/mime';
import type { BlobStore } from '@letterbox/storage';
import type { Logger } from 'pino';
import type { IngestItem } from './ingest-batch';

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
