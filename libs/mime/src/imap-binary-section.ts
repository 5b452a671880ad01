import type { MimePart } from './layout';
import type { ByteSpan } from './imap-section';
import { partAt } from './imap-section';
import { isIdentityTransferEncoding, isKnownTransferEncoding } from './transfer-encoding';

/** A part's content as stored, and the Content-Transfer-Encoding that undoes it. */
export interface EncodedContent {
  span: ByteSpan;
  /** Lower-case; empty for 7bit. */
  encoding: string;
}

/**
 * What a FETCH `BINARY[part]` (RFC 3516) reads: the content of a part to decode, none for a part the tree does not
 * hold (empty, as BODY[] answers), or a refusal: a multipart has no content of its own to decode, and an encoding
 * the server cannot undo is UNKNOWN-CTE. `BINARY[]` is the whole message, whose own encoding is never more than 8bit
 * or binary.
 */
export type BinarySection =
  { kind: 'content'; content: EncodedContent } | { kind: 'missing' } | { kind: 'multipart' } | { kind: 'unknown-encoding'; encoding: string };

export function locateBinarySection(tree: MimePart, path: number[]): BinarySection {
  if (path.length === 0) return { kind: 'content', content: { span: { start: 0, end: tree.end }, encoding: '' } };
  const part = partAt(tree, path);
  if (!part) return { kind: 'missing' };
  if (part.parts) return { kind: 'multipart' };
  const encoding = part.encoding ?? '';
  if (!isKnownTransferEncoding(encoding)) return { kind: 'unknown-encoding', encoding };
  return { kind: 'content', content: { span: { start: part.body, end: part.end }, encoding: isIdentityTransferEncoding(encoding) ? '' : encoding } };
}
