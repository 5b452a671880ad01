/** RFC 1035 §2.3.4: 63 octets a label, 253 characters a name written without its final dot. */
const MAX_LABEL = 63;
const MAX_NAME = 253;
/** Printable ASCII but for the dot: names come from mail (a DKIM signature's d= and s=), and non-ASCII ones are sent as punycode. */
const LABEL = /^[\x21-\x2d\x2f-\x7e]+$/;

/** Whether `name` (lower-cased, no final dot) can be asked: a malformed one is refused (EBADNAME) rather than sent. */
export function isQueryableName(name: string): boolean {
  return name.length <= MAX_NAME && name.split('.').every((label) => label.length <= MAX_LABEL && LABEL.test(label));
}
