/** True when every line break is CRLF: no bare LF, no bare CR. */
export function hasOnlyCrlfLineBreaks(eml: Buffer): boolean {
  for (let at = eml.indexOf(0x0a); at !== -1; at = eml.indexOf(0x0a, at + 1)) {
    if (eml[at - 1] !== 0x0d) return false;
  }
  for (let at = eml.indexOf(0x0d); at !== -1; at = eml.indexOf(0x0d, at + 1)) {
    if (eml[at + 1] !== 0x0a) return false;
  }
  return true;
}

export function headerSection(eml: Buffer): string {
  const end = eml.indexOf('\r\n\r\n');
  return eml.subarray(0, end === -1 ? eml.length : end).toString('latin1');
}

/** The value of a header, unfolded. */
export function headerValue(eml: Buffer, name: string): string | undefined {
  const unfolded = headerSection(eml).replace(/\r\n[ \t]/g, ' ');
  const line = unfolded.split('\r\n').find((candidate) => candidate.toLowerCase().startsWith(`${name.toLowerCase()}:`));
  return line?.slice(name.length + 1).trim();
}
