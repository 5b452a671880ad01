import { PassThrough, type Transform } from 'node:stream';
import { decode as decodeBase64, Decoder as Base64Decoder } from 'libbase64';
import { decodeQuotedPrintable, QuotedPrintableDecoder } from './quoted-printable';

/** A stream that undoes a Content-Transfer-Encoding; unknown encodings pass bytes through. */
export function createTransferDecoder(encoding: string): Transform {
  switch (encoding.toLowerCase()) {
    case 'base64':
      return new Base64Decoder();
    case 'quoted-printable':
      return new QuotedPrintableDecoder();
    default:
      return new PassThrough();
  }
}

const IDENTITY = new Set(['', '7bit', '8bit', 'binary']);
const KNOWN = new Set([...IDENTITY, 'base64', 'quoted-printable']);

/** Whether the encoding leaves the bytes as they are (RFC 2045 6.2): 7bit, 8bit, binary, or none given. */
export function isIdentityTransferEncoding(encoding: string): boolean {
  return IDENTITY.has(encoding.toLowerCase());
}

/** Whether createTransferDecoder undoes the encoding, rather than passing bytes through as it does an unknown one. */
export function isKnownTransferEncoding(encoding: string): boolean {
  return KNOWN.has(encoding.toLowerCase());
}

/** The same decoding for a small buffer held in memory, such as a text body. */
export function decodeTransfer(encoded: Buffer, encoding: string): Buffer {
  switch (encoding.toLowerCase()) {
    case 'base64':
      // As the stream decoder does: padding may end every line, not only the data.
      return decodeBase64(encoded.toString('latin1').replace(/[^A-Za-z0-9+/=]/g, ''));
    case 'quoted-printable':
      return decodeQuotedPrintable(encoded);
    default:
      return encoded;
  }
}
