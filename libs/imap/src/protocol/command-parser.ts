import type { RawCommand } from './command-reader';
import { ImapCommandError, type Token } from './tokens';

export interface ParsedCommand {
  tag: string;
  /** Upper-case; `UID FETCH` and the other UID commands as one name. */
  name: string;
  args: Token[];
}

/** Lists nest at most this deep: no client needs more, and it bounds the parser's stack. */
const MAX_DEPTH = 32;
const TAG = /^[!#$&'+,\-./0-9:;<=>?@A-Z^_`a-z|~]+$/;
const ATOM_END = new Set([' ', '(', ')', '{', '"']);
const UID_COMMANDS = new Set(['FETCH', 'SEARCH', 'SORT', 'THREAD', 'STORE', 'COPY', 'MOVE', 'EXPUNGE']);

/** A command's tag, name and argument tokens; malformed input throws ImapCommandError, with the tag when one was read. */
export function parseCommand(raw: RawCommand): ParsedCommand {
  const tokens = tokenize(raw);
  const [tag, name, ...args] = tokens;
  if (tag?.type !== 'atom' || !TAG.test(tag.value)) throw new TaggedCommandError(undefined, 'expected a tag');
  if (name?.type !== 'atom' || !/^[A-Za-z]+$/.test(name.value)) throw new TaggedCommandError(tag.value, 'expected a command name');
  const upper = name.value.toUpperCase();
  if (upper === 'UID' && args[0]?.type === 'atom' && UID_COMMANDS.has(args[0].value.toUpperCase())) {
    return { tag: tag.value, name: `UID ${args[0].value.toUpperCase()}`, args: args.slice(1) };
  }
  return { tag: tag.value, name: upper, args };
}

/** A parse failure, with the tag of the command when it had one. */
export class TaggedCommandError extends ImapCommandError {
  constructor(
    readonly tag: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

/** The tokens of a whole command, its literals in their places; each character is looked at once. */
function tokenize(raw: RawCommand): Token[] {
  const top: Token[] = [];
  const stack: Token[][] = [top];
  let tag: string | undefined;
  const fail = (message: string): never => {
    throw new TaggedCommandError(tag, message);
  };
  for (const [index, line] of raw.lines.entries()) {
    const literalFollows = index < raw.literals.length;
    let at = 0;
    while (at < line.length) {
      const current = stack[stack.length - 1];
      const char = line[at];
      if (char === ' ') {
        at++;
      } else if (char === '(') {
        if (stack.length > MAX_DEPTH) fail(`lists nested deeper than ${MAX_DEPTH}`);
        const list: Token[] = [];
        current.push({ type: 'list', items: list });
        stack.push(list);
        at++;
      } else if (char === ')') {
        if (stack.length === 1) fail('unbalanced parenthesis');
        stack.pop();
        at++;
      } else if (char === '"') {
        const [value, next] = readQuoted(line, at + 1, fail);
        current.push({ type: 'quoted', value });
        at = next;
      } else if (char === '{' || (char === '~' && line[at + 1] === '{')) {
        if (!literalFollows || !/^~?\{\d+\+?\}$/.test(line.slice(at))) fail('malformed literal');
        current.push({ type: 'literal', bytes: raw.literals[index] });
        at = line.length;
      } else {
        const [value, next] = readAtom(line, at, fail);
        current.push({ type: 'atom', value });
        at = next;
      }
      if (top.length === 1 && top[0].type === 'atom') tag ??= top[0].value;
    }
  }
  if (stack.length > 1) fail('unbalanced parenthesis');
  return top;
}

function readQuoted(line: string, from: number, fail: (message: string) => never): [string, number] {
  let value = '';
  let at = from;
  while (at < line.length) {
    const char = line[at];
    if (char === '"') return [value, at + 1];
    if (char === '\\') {
      const escaped = line[at + 1];
      if (escaped !== '\\' && escaped !== '"') fail('a quoted string may escape only \\ and "');
      value += escaped;
      at += 2;
    } else {
      value += char;
      at++;
    }
  }
  return fail('unterminated quoted string');
}

/**
 * An atom, with what RFC 3501's fetch attributes and section specs put in brackets (spaces and parentheses
 * included, as in `BODY[HEADER.FIELDS (From To)]<0.100>`) kept in it, for fetch-attributes to read.
 */
function readAtom(line: string, from: number, fail: (message: string) => never): [string, number] {
  let at = from;
  let depth = 0;
  while (at < line.length) {
    const char = line[at];
    if (char === '[') depth++;
    else if (char === ']') depth = Math.max(0, depth - 1);
    else if (depth === 0 && (ATOM_END.has(char) || char < ' ' || char === '\x7f')) break;
    at++;
  }
  if (depth > 0) fail('unbalanced bracket');
  if (at === from) fail(`unexpected character ${JSON.stringify(line[at])}`);
  return [line.slice(from, at), at];
}
