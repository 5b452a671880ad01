import libmime from 'libmime';
import { decodeCharset } from './charset';

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Turns a header value read as latin1 into text: raw 8-bit bytes are taken as UTF-8 when
 * they are valid UTF-8 (as RFC 6532 allows), else left as latin1; then RFC 2047 encoded
 * words are decoded. Never throws: a header that cannot be decoded is shown as it is.
 */
export function decodeHeaderText(latin1: string, fallbackCharset?: string): string {
  return decodeEncodedWords(decodeRawBytes(latin1, fallbackCharset));
}

/**
 * The raw 8-bit step of decodeHeaderText alone, for values whose parser decodes the rest.
 * Bytes that are not UTF-8 are read in `fallbackCharset` when one is known: mailers that
 * put raw EUC-KR or Shift_JIS in headers use the body's charset there too.
 */
export function decodeRawBytes(latin1: string, fallbackCharset?: string): string {
  if (!/[\x80-\xff]/.test(latin1)) return latin1;
  const bytes = Buffer.from(latin1, 'latin1');
  try {
    return utf8.decode(bytes);
  } catch {
    return fallbackCharset ? decodeCharset(bytes, fallbackCharset, 'latin1') : latin1;
  }
}

export function decodeEncodedWords(text: string): string {
  try {
    return libmime.decodeWords(text);
  } catch {
    return text;
  }
}

/** A run of encoded words; the white space between them is not part of the text. */
const ENCODED_WORDS = /=\?[^?\s"]+\?[bq]\?[^?\s"]*\?=(?:\s+=\?[^?\s"]+\?[bq]\?[^?\s"]*\?=)*/gi;
const SPECIALS = /[()<>@,;:\\".[\]]/;

/**
 * decodeHeaderText for an address list. Encoded words stand only in display names
 * (RFC 2047 5), so decoded text holding specials is quoted to stay one name: decoded
 * blindly, "=?utf-8?Q?=3Cceo=40bank=3E?= <x@evil>" would read as the address ceo@bank.
 */
export function decodeAddressHeaderText(latin1: string, fallbackCharset?: string): string {
  const text = decodeRawBytes(latin1, fallbackCharset);
  let decoded = '';
  let last = 0;
  let inQuotes = false;
  for (const match of text.matchAll(ENCODED_WORDS)) {
    const before = text.slice(last, match.index);
    inQuotes = quoteStateAfter(before, inQuotes);
    // Some mailers encode a quoted phrase quotes and all.
    const words = decodeEncodedWords(match[0]).replace(/^"([^"\\]*)"$/, '$1');
    const escaped = words.replace(/["\\]/g, '\\$&');
    decoded += before + (inQuotes ? escaped : SPECIALS.test(words) ? `"${escaped}"` : words);
    last = match.index + match[0].length;
  }
  return decoded + text.slice(last);
}

function quoteStateAfter(text: string, inQuotes: boolean): boolean {
  let quoted = inQuotes;
  for (let index = 0; index < text.length; index++) {
    if (text[index] === '\\') index++;
    else if (text[index] === '"') quoted = !quoted;
  }
  return quoted;
}
