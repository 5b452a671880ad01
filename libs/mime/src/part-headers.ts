import libmime from 'libmime';
import { decodeEncodedWords, decodeRawBytes } from './header-text';

export interface PartInfo {
  contentType: string;
  charset: string;
  encoding: string;
  boundary?: string;
  disposition?: 'attachment' | 'inline';
  filename?: string;
  contentId?: string;
}

/** Unfolds raw header lines (latin1 strings, one per physical line) into name/value pairs. */
export function unfoldHeaderLines(lines: string[]): Array<{ name: string; value: string }> {
  const headers: Array<{ name: string; value: string }> = [];
  for (const line of lines) {
    if ((line.startsWith(' ') || line.startsWith('\t')) && headers.length > 0) {
      headers[headers.length - 1].value += ' ' + trimAsciiSpace(line);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    headers.push({ name: trimAsciiSpace(line.slice(0, colon)), value: trimAsciiSpace(line.slice(colon + 1)) });
  }
  return headers;
}

/**
 * Lines are read as latin1, where String#trim would also take 0xA0 (no-break space) off
 * the ends: that byte ends many raw UTF-8 characters ("토" is ED 86 A0), which then no
 * longer decode.
 */
function trimAsciiSpace(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isAsciiSpace(text.charCodeAt(start))) start++;
  while (end > start && isAsciiSpace(text.charCodeAt(end - 1))) end--;
  return text.slice(start, end);
}

const isAsciiSpace = (code: number) => code === 0x20 || code === 0x09 || code === 0x0d || code === 0x0a;

/** The first value of each header name (lower-case), of unfolded headers. */
export function firstValues(headers: Array<{ name: string; value: string }>): Map<string, string> {
  const byName = new Map<string, string>();
  for (const { name, value } of headers) {
    const key = name.toLowerCase();
    if (!byName.has(key)) byName.set(key, value);
  }
  return byName;
}

/** What a MIME part's headers (firstValues) say about its content; defaults per RFC 2045. */
export function readPartInfo(byName: Map<string, string>): PartInfo {
  // Raw 8-bit bytes are made text before parsing: a filename parseHeaderValue decoded from
  // RFC 2231 form is text already, and taking it for raw UTF-8 again would garble it.
  const type = libmime.parseHeaderValue(decodeRawBytes(byName.get('content-type') ?? 'text/plain'));
  const contentType = normaliseType(type.value);
  const disposition = byName.has('content-disposition') ? libmime.parseHeaderValue(decodeRawBytes(byName.get('content-disposition') ?? '')) : undefined;
  const rawFilename = disposition?.params.filename ?? type.params.name;
  const contentId = byName.get('content-id')?.replace(/^<|>$/g, '').trim();
  return {
    contentType,
    charset: (type.params.charset ?? 'us-ascii').toLowerCase(),
    encoding: (byName.get('content-transfer-encoding') ?? '7bit').trim().toLowerCase(),
    boundary: contentType.startsWith('multipart/') ? type.params.boundary : undefined,
    disposition: normaliseDisposition(disposition?.value),
    filename: rawFilename ? decodeEncodedWords(rawFilename).trim() || undefined : undefined,
    contentId: contentId || undefined,
  };
}

/** RFC 2045 5.2: a syntactically invalid Content-Type is taken as the default, text/plain. */
function normaliseType(value: string): string {
  const type = value.trim().toLowerCase();
  return /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(type) ? type : 'text/plain';
}

function normaliseDisposition(value: string | undefined): PartInfo['disposition'] {
  const disposition = value?.trim().toLowerCase();
  if (disposition === 'attachment' || disposition === 'inline') return disposition;
  return disposition ? 'attachment' : undefined;
}
