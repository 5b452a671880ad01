/** One entity-tag of a list (RFC 9110 8.8.3): an optional W/ and a quoted opaque tag. */
const ENTITY_TAG = /(W\/)?("[\x21\x23-\x7e\x80-\xff]*")/g;

/**
 * Whether an `If-None-Match` header (RFC 9110 13.1.2) names the current representation,
 * whose entity-tag is `etag`: `*`, or a list holding it. The comparison is the weak one the
 * RFC asks for here: W/"x" matches "x". No header, or one without a well-formed tag, matches
 * nothing, and the full answer is sent.
 */
export function ifNoneMatchHits(header: string | undefined, etag: string): boolean {
  if (header === undefined) return false;
  if (header.trim() === '*') return true;
  const current = opaqueTag(etag);
  for (const match of header.matchAll(ENTITY_TAG)) if (match[2] === current) return true;
  return false;
}

function opaqueTag(etag: string): string {
  return etag.startsWith('W/') ? etag.slice(2) : etag;
}
