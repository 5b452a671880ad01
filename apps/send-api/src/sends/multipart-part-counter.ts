/** The boundary parameter of a multipart Content-Type, when it has a valid one (RFC 2046: 1 to 70 characters). */
export function boundaryOf(contentType: string): string | undefined {
  const match = /;\s*boundary=(?:"([^"]{1,70})"|([^\s;"]{1,70}))\s*(?:;|$)/i.exec(contentType);
  return match?.[1] ?? match?.[2];
}

/**
 * Counts the parts of a multipart body as it streams past, by its delimiters (CRLF "--" boundary; the first may
 * open the body without the CRLF) and its close delimiter (one more "--"), in one pass with a carry shorter
 * than a delimiter. What the multipart reader skips or misses without a word shows as parts it never gave.
 */
export class PartCounter {
  private readonly delimiter: Buffer;
  private readonly closeDelimiter: Buffer;
  private carry = Buffer.from('\r\n');
  private delimiters = 0;
  private closeDelimiters = 0;

  constructor(boundary: string) {
    this.delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
    this.closeDelimiter = Buffer.from(`\r\n--${boundary}--`, 'latin1');
  }

  /** Parts opened so far. */
  get parts(): number {
    return this.delimiters - this.closeDelimiters;
  }

  /** Whether the body reached its close delimiter: one that stops short of it lost its last part. */
  get closed(): boolean {
    return this.closeDelimiters > 0;
  }

  readonly feed = (chunk: Buffer): void => {
    const window = Buffer.concat([this.carry, chunk]);
    this.delimiters += newOccurrences(window, this.delimiter, this.carry.length);
    this.closeDelimiters += newOccurrences(window, this.closeDelimiter, this.carry.length);
    this.carry = Buffer.from(window.subarray(Math.max(0, window.length - this.closeDelimiter.length + 1)));
  };
}

/** Matches that end past `seen`: those inside the carry were counted with the chunk before. */
function newOccurrences(window: Buffer, needle: Buffer, seen: number): number {
  let count = 0;
  for (let at = window.indexOf(needle); at !== -1; at = window.indexOf(needle, at + needle.length)) {
    if (at + needle.length > seen) count++;
  }
  return count;
}
