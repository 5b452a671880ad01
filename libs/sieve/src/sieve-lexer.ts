import { errorAt, type SourcePosition } from './sieve-error';

export type Token = SourcePosition &
  (
    | { kind: 'identifier'; text: string }
    | { kind: 'tag'; text: string }
    | { kind: 'number'; value: number }
    | { kind: 'string'; value: string }
    | { kind: 'punctuation'; text: '[' | ']' | '(' | ')' | '{' | '}' | ',' | ';' }
  );

const QUANTIFIERS: Record<string, number> = { K: 1024, M: 1024 ** 2, G: 1024 ** 3 };
const PUNCTUATION = new Set(['[', ']', '(', ')', '{', '}', ',', ';']);

/**
 * The tokens of a Sieve script (RFC 5228 §2), in one pass over its characters: comments
 * (`#` to the end of the line, `/* … *\/`) and white space dropped, quoted strings with their
 * escapes read, `text:` multi-line strings with their dot-stuffing undone, numbers with
 * their K, M, G quantifiers applied.
 */
export function tokenize(script: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  let line = 1;
  let lineStart = 0;
  const here = (): SourcePosition => ({ line, column: index - lineStart + 1 });
  const newline = (at: number) => {
    line++;
    lineStart = at + 1;
  };
  while (index < script.length) {
    const character = script[index];
    if (character === '\n') {
      newline(index);
      index++;
    } else if (character === ' ' || character === '\t' || character === '\r') {
      index++;
    } else if (character === '#') {
      while (index < script.length && script[index] !== '\n') index++;
    } else if (character === '/' && script[index + 1] === '*') {
      const start = here();
      const end = script.indexOf('*/', index + 2);
      if (end < 0) throw errorAt(start, 'a comment that is never closed (*/)');
      for (let at = index; at < end; at++) if (script[at] === '\n') newline(at);
      index = end + 2;
    } else if (character === '"') {
      const start = here();
      let value = '';
      index++;
      for (;;) {
        if (index >= script.length) throw errorAt(start, 'a string that is never closed (")');
        const next = script[index];
        if (next === '"') break;
        if (next === '\\' && index + 1 < script.length) {
          index++;
          value += script[index];
        } else {
          value += next;
        }
        if (script[index] === '\n') newline(index);
        index++;
      }
      index++;
      tokens.push({ ...start, kind: 'string', value });
    } else if (/[0-9]/.test(character)) {
      const start = here();
      let digits = '';
      while (index < script.length && /[0-9]/.test(script[index])) digits += script[index++];
      const quantifier = QUANTIFIERS[script[index]?.toUpperCase() ?? ''];
      if (quantifier) index++;
      const value = Number(digits) * (quantifier ?? 1);
      if (!Number.isSafeInteger(value)) throw errorAt(start, `the number ${digits} is too large`);
      tokens.push({ ...start, kind: 'number', value });
    } else if (/[A-Za-z_]/.test(character) || (character === ':' && /[A-Za-z_]/.test(script[index + 1] ?? ''))) {
      const start = here();
      const tag = character === ':';
      if (tag) index++;
      let text = '';
      while (index < script.length && /[A-Za-z0-9_]/.test(script[index])) text += script[index++];
      if (!tag && text.toLowerCase() === 'text' && script[index] === ':') {
        index = multiLine(script, index + 1, start, (value, end, lines) => {
          tokens.push({ ...start, kind: 'string', value });
          for (const at of lines) newline(at);
          return end;
        });
      } else {
        tokens.push({ ...start, kind: tag ? 'tag' : 'identifier', text: text.toLowerCase() });
      }
    } else if (PUNCTUATION.has(character)) {
      tokens.push({ ...here(), kind: 'punctuation', text: character as '[' });
      index++;
    } else {
      throw errorAt(here(), `unexpected character "${character}"`);
    }
  }
  return tokens;
}

/**
 * A `text:` string from just after its colon: the rest of that line is blank or a comment; then
 * lines up to one that is a lone dot, a leading ".." read as ".". Hands over its value, the index
 * after it and the indexes of the newlines it spans.
 */
function multiLine(script: string, from: number, start: SourcePosition, done: (value: string, end: number, newlines: number[]) => number): number {
  const newlines: number[] = [];
  const firstBreak = script.indexOf('\n', from);
  if (firstBreak < 0) throw errorAt(start, 'a text: string that is never ended by a line holding only "."');
  const rest = script.slice(from, firstBreak).trim();
  if (rest !== '' && !rest.startsWith('#')) throw errorAt(start, 'text: must end its line (only a # comment may follow)');
  newlines.push(firstBreak);
  const lines: string[] = [];
  let at = firstBreak + 1;
  for (;;) {
    const lineEnd = script.indexOf('\n', at);
    if (lineEnd < 0) throw errorAt(start, 'a text: string that is never ended by a line holding only "."');
    newlines.push(lineEnd);
    const text = script.slice(at, lineEnd).replace(/\r$/, '');
    at = lineEnd + 1;
    if (text === '.') break;
    lines.push(text.startsWith('..') ? text.slice(1) : text);
  }
  return done(lines.map((text) => `${text}\r\n`).join(''), at, newlines);
}
