export type ParsedRange = { start: number; end: number } | 'unsatisfiable';

/**
 * Reads a single-range `Range: bytes=...` header (RFC 9110 14.1) for a body of `size`
 * bytes, as a [start, end) range. No header, a foreign unit or several ranges mean the
 * whole body (undefined), which the RFC allows a server to answer.
 */
export function parseByteRange(header: string | undefined, size: number): ParsedRange | undefined {
  if (!header) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  if (match[1] === '') {
    const suffix = Number(match[2]);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size };
  }
  const start = Number(match[1]);
  const last = match[2] === '' ? size - 1 : Math.min(Number(match[2]), size - 1);
  if (start >= size || last < start) return 'unsatisfiable';
  return { start, end: last + 1 };
}
