/**
 * The types a browser may show inline from a sender's attachment, as none of them runs
 * script on the origin that serves it. HTML, SVG (which can carry script), XML and every
 * other type are downloaded instead, whatever the request asked for.
 */
const SHOWN_INLINE = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'image/avif', 'image/bmp', 'application/pdf', 'text/plain']);

export function showableInline(contentType: string): boolean {
  return SHOWN_INLINE.has(contentType.split(';')[0].trim().toLowerCase());
}
