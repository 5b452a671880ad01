export interface HtmlVisitor {
  text(text: string): void;
  /** A tag, its name in lower case ('' for a doctype or processing instruction). */
  tag(name: string, closing: boolean, selfClosing: boolean): void;
}

const LT = 0x3c;
const GT = 0x3e;
const SLASH = 0x2f;
const BANG = 0x21;
const DASH = 0x2d;

/**
 * Walks HTML's text and tags in one pass that is linear in its input: every search starts
 * where the last ended, and nothing is kept per open element (a parser's stack of open
 * elements is what makes deep nesting quadratic). Comments, and the content of hidden
 * elements, are skipped, an unclosed one to the end as a browser would; a '<' that starts
 * no tag (before a space or a digit, or with no '>' after it) is text.
 *
 * It reads UTF-16 code units from a typed array, not the string: a string built by
 * concatenation may stay a tree of pieces in V8, and character access on it from optimized
 * code was seen to cost time growing with the string (40,000 tags took 8 s on some runs).
 */
export function scanHtml(html: string, visitor: HtmlVisitor): void {
  const bytes = Buffer.from(html, 'utf16le');
  const units = new Uint16Array(bytes.buffer, bytes.byteOffset, html.length);
  const text = (from: number, to: number) => visitor.text(bytes.toString('utf16le', from * 2, to * 2));
  let position = 0;
  while (position < units.length) {
    const open = units.indexOf(LT, position);
    if (open === -1) return text(position, units.length);
    if (open > position) text(position, open);
    if (!startsTag(units[open + 1])) {
      visitor.text('<');
      position = open + 1;
      continue;
    }
    if (units[open + 1] === BANG && units[open + 2] === DASH && units[open + 3] === DASH) {
      const end = indexOfCommentEnd(units, open + 4);
      if (end === -1) return;
      position = end + 3;
      continue;
    }
    const close = units.indexOf(GT, open + 1);
    // No '>' anywhere after: no tag either, and none further on; the rest is text.
    if (close === -1) return text(open, units.length);
    const closing = units[open + 1] === SLASH;
    const name = tagName(units, closing ? open + 2 : open + 1, close);
    const selfClosing = units[close - 1] === SLASH;
    visitor.tag(name, closing, selfClosing);
    position = close + 1;
    if (!closing && !selfClosing && isHidden(name)) {
      const end = indexOfEndTag(units, name, position);
      if (end === -1) return;
      const endClose = units.indexOf(GT, end);
      visitor.tag(name, true, false);
      position = endClose === -1 ? units.length : endClose + 1;
    }
  }
}

/** Elements whose content is never markup or text a reader sees; the scan skips it. */
function isHidden(name: string): boolean {
  switch (name) {
    case 'style':
    case 'script':
    case 'head':
    case 'title':
    case 'template':
    case 'noscript':
    case 'textarea':
    case 'xmp':
      return true;
    default:
      return false;
  }
}

function indexOfCommentEnd(units: Uint16Array, from: number): number {
  for (let index = units.indexOf(GT, from); index !== -1; index = units.indexOf(GT, index + 1)) {
    if (index - 2 >= from && units[index - 1] === DASH && units[index - 2] === DASH) return index - 2;
  }
  return -1;
}

/** Where `</name` starts, in any case, from `from` on. */
function indexOfEndTag(units: Uint16Array, name: string, from: number): number {
  for (let index = units.indexOf(LT, from); index !== -1; index = units.indexOf(LT, index + 1)) {
    if (units[index + 1] !== SLASH) continue;
    let matched = 0;
    while (matched < name.length && lowerCase(units[index + 2 + matched]) === name.charCodeAt(matched)) matched++;
    if (matched === name.length) return index;
  }
  return -1;
}

function tagName(units: Uint16Array, from: number, end: number): string {
  let name = '';
  for (let index = from; index < end; index++) {
    const code = lowerCase(units[index]);
    if (!isNameChar(code)) break;
    name += String.fromCharCode(code);
  }
  return name;
}

function lowerCase(code: number): number {
  return code >= 0x41 && code <= 0x5a ? code + 0x20 : code;
}

function startsTag(code: number): boolean {
  const lower = lowerCase(code);
  return (lower >= 0x61 && lower <= 0x7a) || code === SLASH || code === BANG || code === 0x3f; // a-z / ! ?
}

function isNameChar(code: number): boolean {
  return (code >= 0x61 && code <= 0x7a) || (code >= 0x30 && code <= 0x39) || code === DASH; // a-z, 0-9, -
}
