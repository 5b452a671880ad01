/** A parameterised header value (Content-Type, Content-Disposition): its value and parameters as written. */
export interface ParameterisedValue {
  value: string;
  /** Names lower-case, values unquoted; RFC 2231 sections (`name*0*`) are kept as they are, for the reader to join. */
  params: Array<[string, string]>;
}

/** Parameters kept of one header: real ones have a handful. */
const MAX_PARAMS = 32;

/**
 * Reads `value; name=token; name="quoted \"string\""` in one pass over the text. Malformed
 * pieces (no `=`, an unclosed quote) end the list rather than fail it: mail is read as
 * it came.
 */
export function parseHeaderParams(text: string): ParameterisedValue {
  const firstSemicolon = text.indexOf(';');
  const value = (firstSemicolon === -1 ? text : text.slice(0, firstSemicolon)).trim();
  const params: Array<[string, string]> = [];
  let position = firstSemicolon === -1 ? text.length : firstSemicolon + 1;
  while (position < text.length && params.length < MAX_PARAMS) {
    const semicolon = text.indexOf(';', position);
    const segmentEnd = semicolon === -1 ? text.length : semicolon;
    const equals = text.slice(position, segmentEnd).indexOf('=');
    if (equals === -1) {
      position = segmentEnd + 1;
      continue;
    }
    const name = text
      .slice(position, position + equals)
      .trim()
      .toLowerCase();
    const read = readParamValue(text, position + equals + 1);
    if (name) params.push([name, read.value]);
    position = read.next;
  }
  return { value, params };
}

/** The value starting at `start` (after the `=`), and where the next parameter starts. */
function readParamValue(text: string, start: number): { value: string; next: number } {
  let position = start;
  while (text[position] === ' ' || text[position] === '\t') position++;
  if (text[position] !== '"') {
    const semicolon = text.indexOf(';', position);
    const end = semicolon === -1 ? text.length : semicolon;
    return { value: text.slice(position, end).trim(), next: end + 1 };
  }
  let value = '';
  for (position++; position < text.length; position++) {
    const char = text[position];
    if (char === '"') break;
    if (char === '\\' && position + 1 < text.length) position++;
    value += text[position];
  }
  const semicolon = text.indexOf(';', position);
  return { value, next: semicolon === -1 ? text.length : semicolon + 1 };
}
