const LF = 0x0a;
const COLON = 0x3a;

/**
 * The fields of a raw header block whose names are (`exclude`: are not) among `names`
 * (lower-case), with their folded lines and line breaks as stored, then the blank line that
 * ends a header: BODY[HEADER.FIELDS (...)] (RFC 3501 6.4.5). One pass over the block.
 */
export function filterHeaderFields(block: Buffer, names: string[], exclude: boolean): Buffer {
  const wanted = new Set(names.map((name) => name.toLowerCase()));
  const kept: Buffer[] = [];
  let keeping = false;
  let position = 0;
  while (position < block.length) {
    const newline = block.indexOf(LF, position);
    const end = newline === -1 ? block.length : newline + 1;
    const line = block.subarray(position, end);
    if (isBlank(line)) break;
    const continued = line[0] === 0x20 || line[0] === 0x09;
    if (!continued) {
      const name = fieldNameOf(line);
      keeping = name !== undefined && wanted.has(name) !== exclude;
    }
    if (keeping) kept.push(newline === -1 ? Buffer.concat([line, CRLF]) : line);
    position = end;
  }
  kept.push(CRLF);
  return Buffer.concat(kept);
}

const CRLF = Buffer.from('\r\n');

function isBlank(line: Buffer): boolean {
  return line.length === 0 || line[0] === LF || (line[0] === 0x0d && line[1] === LF);
}

function fieldNameOf(line: Buffer): string | undefined {
  const colon = line.indexOf(COLON);
  if (colon <= 0) return undefined;
  return line.toString('latin1', 0, colon).trim().toLowerCase();
}
