/*
 * Names a sender chose, made fit to be saved from an archive on any system: the sender may
 * name a part "../../.bashrc", "C:\Windows\evil.exe", "invoice\u202Efdp.exe" or the same as
 * another part. Every step is one pass over the name.
 */

/** Control characters, bidirectional marks and overrides (a name that reads backwards), and what Windows refuses in a name. */
const UNSAFE_CHARACTERS = /[\p{Cc}\p{Bidi_Control}<>:"|?*]/gu;
/** Device names Windows will not open as files, with or without an extension. */
const WINDOWS_DEVICE = /^(con|prn|aux|nul|com\d|lpt\d)(\.|$)/i;
/** Below the 255 bytes most file systems allow, leaving room for a " (n)" that tells duplicates apart. */
const MAX_NAME_BYTES = 200;
/** What is kept as the extension when a long name is cut. */
const MAX_EXTENSION_LENGTH = 16;

/** The last segment of the name, without path, unsafe characters or edges of dots and spaces; `fallback` when nothing is left. */
export function safeFileName(name: string, fallback: string): string {
  const segments = name.normalize('NFC').split(/[/\\]/);
  let base = '';
  for (let index = segments.length - 1; index >= 0 && base === ''; index--) base = trimDotsAndSpaces(segments[index].replace(UNSAFE_CHARACTERS, '_'));
  if (base === '') return fallback;
  return cutToBytes(WINDOWS_DEVICE.test(base) ? `_${base}` : base);
}

/** The names in order, a later duplicate (whatever its case: many file systems ignore it) numbered "a (2).pdf", "a (3).pdf". */
export function uniqueFileNames(names: string[]): string[] {
  const taken = new Set<string>();
  const nextCopy = new Map<string, number>();
  return names.map((name) => {
    const key = name.toLowerCase();
    let unique = name;
    let copy = nextCopy.get(key) ?? 2;
    while (taken.has(unique.toLowerCase())) unique = numbered(name, copy++);
    nextCopy.set(key, copy);
    taken.add(unique.toLowerCase());
    return unique;
  });
}

function numbered(name: string, copy: number): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? `${name.slice(0, dot)} (${copy})${name.slice(dot)}` : `${name} (${copy})`;
}

const isTrimmed = (character: string) => character === '.' || character.trim() === '';

function trimDotsAndSpaces(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && isTrimmed(text[start])) start++;
  while (end > start && isTrimmed(text[end - 1])) end--;
  return text.slice(start, end);
}

/** At most MAX_NAME_BYTES of UTF-8, cut between characters, keeping a short extension. */
function cutToBytes(name: string): string {
  if (Buffer.byteLength(name) <= MAX_NAME_BYTES) return name;
  const dot = name.lastIndexOf('.');
  const extension = dot > 0 && name.length - dot <= MAX_EXTENSION_LENGTH ? name.slice(dot) : '';
  const budget = MAX_NAME_BYTES - Buffer.byteLength(extension);
  let bytes = 0;
  let end = 0;
  for (const character of name.slice(0, name.length - extension.length)) {
    bytes += Buffer.byteLength(character);
    if (bytes > budget) break;
    end += character.length;
  }
  return name.slice(0, end) + extension;
}
