/** A value of a command's arguments: an atom (NIL and numbers too), a string (quoted or a literal), or a parenthesized list. */
export type Token = { type: 'atom'; value: string } | { type: 'quoted'; value: string } | { type: 'literal'; bytes: Buffer } | { type: 'list'; items: Token[] };

/** A command the server cannot parse or will not take: answered BAD, or NO when `status` says so, with the response code. */
export class ImapCommandError extends Error {
  constructor(
    message: string,
    readonly status: 'BAD' | 'NO' = 'BAD',
    readonly code?: string,
  ) {
    super(message);
  }
}

/** An astring or nstring's text: an atom, a quoted string, or a literal read as UTF-8. */
export function textOf(token: Token | undefined, what: string): string {
  if (token?.type === 'atom' || token?.type === 'quoted') return token.value;
  if (token?.type === 'literal') return token.bytes.toString('utf8');
  throw new ImapCommandError(`expected ${what}`);
}

export function atomOf(token: Token | undefined, what: string): string {
  if (token?.type !== 'atom') throw new ImapCommandError(`expected ${what}`);
  return token.value;
}

export function listOf(token: Token | undefined, what: string): Token[] {
  if (token?.type !== 'list') throw new ImapCommandError(`expected ${what} (a parenthesized list)`);
  return token.items;
}

/** A number of RFC 3501's `number` (or RFC 9051's number64 when `max` says so). */
export function numberOf(token: Token | undefined, what: string, max = 0xffffffff): number {
  const text = token?.type === 'atom' ? token.value : '';
  if (!/^\d{1,20}$/.test(text) || Number(text) > max) throw new ImapCommandError(`expected ${what} (a number)`);
  return Number(text);
}

/** Every argument of the command read: anything past them is an error. */
export function noMore(args: Token[], count: number): void {
  if (args.length > count) throw new ImapCommandError('unexpected arguments at the end of the command');
}
