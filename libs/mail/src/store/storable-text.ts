/** NUL, and a high surrogate not followed by a low one or a low one not after a high one. */
// eslint-disable-next-line no-control-regex -- NUL is one of the characters to find
const UNSTORABLE = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Text that PostgreSQL can store: no NUL (text and jsonb refuse it) and no lone UTF-16
 * surrogate (not Unicode, refused in jsonb). Mail headers decode to anything a sender
 * likes (`=?utf-8?Q?a=00b?=` is a NUL), and one such value must not fail a statement that
 * stores other people's mail too.
 */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE, (found) => (found === '\u0000' ? '' : '\ufffd'));
}

/** JSON.stringify's replacer that makes every string in a value storable. */
export function storableJson(_key: string, value: unknown): unknown {
  return typeof value === 'string' ? storableText(value) : value;
}
