import iconv from 'iconv-lite';

const ALIASES: Record<string, string> = {
  'us-ascii': 'utf-8',
  ascii: 'utf-8',
  'ks_c_5601-1987': 'cp949',
  'euc-kr': 'cp949',
  'x-unknown': 'utf-8',
};

/**
 * Decodes text in its declared charset. US-ASCII is read as UTF-8 because mislabelled
 * UTF-8 is far more common than real 7-bit text; UTF-8 and unknown charsets are read as
 * `utf8Like` (a caller that already knows the bytes are not UTF-8 passes latin1).
 */
export function decodeCharset(bytes: Buffer, charset: string, utf8Like: 'utf8' | 'latin1' = 'utf8'): string {
  const name = ALIASES[charset.toLowerCase()] ?? charset.toLowerCase();
  if (name === 'utf-8' || name === 'utf8' || !iconv.encodingExists(name)) return bytes.toString(utf8Like);
  return iconv.decode(bytes, name);
}
