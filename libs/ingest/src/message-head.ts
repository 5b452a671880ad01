import { parseHeaderBlock, summarizeHeaders, type HeaderSummary } from '@letterbox/mime';
import type { BlobStore, StoredBlob } from '@letterbox/storage';
import { EmptyMessageError, NotAMessageError } from './inbound-errors';

/** Header blocks larger than this are refused: real ones are a few kilobytes. */
const MAX_HEADER_BYTES = 256 * 1024;
const HEADER_FIELD = /^[!-9;-~]+[ \t]*:/;

/**
 * Reads and checks the header block of a stored message: only its first bytes, never the
 * body. A message must start with header fields and name its sender (RFC 5322 §3.6).
 */
export async function readMessageHead(blobs: BlobStore, blob: StoredBlob): Promise<HeaderSummary> {
  if (blob.size === 0) throw new EmptyMessageError();
  const [head] = await blobs.readRanges(blob.key, [{ start: 0, end: Math.min(blob.size, MAX_HEADER_BYTES) }]);
  const end = headerEnd(head);
  if (end === undefined) {
    if (blob.size > MAX_HEADER_BYTES) throw new NotAMessageError(`no end of the header block in its first ${MAX_HEADER_BYTES} bytes`);
    if (head.toString('latin1').trim() === '') throw new EmptyMessageError();
  }
  const block = head.subarray(0, end ?? head.length);
  if (!HEADER_FIELD.test(block.toString('latin1', 0, Math.min(block.length, 1000)))) {
    throw new NotAMessageError('it does not begin with a header field');
  }
  const summary = summarizeHeaders(parseHeaderBlock(block));
  if (!summary.from) throw new NotAMessageError('it has no From header with an address');
  return summary;
}

/** Where the blank line ending the header block is, if it is in `head`. */
function headerEnd(head: Buffer): number | undefined {
  const crlf = head.indexOf('\r\n\r\n');
  const lf = head.indexOf('\n\n');
  const ends = [crlf === -1 ? -1 : crlf + 2, lf === -1 ? -1 : lf + 1].filter((index) => index > 0);
  return ends.length > 0 ? Math.min(...ends) : undefined;
}
