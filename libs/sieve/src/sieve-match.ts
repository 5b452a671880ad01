import type { SieveBudget } from './sieve-budget';
import type { Match } from './sieve-program';

/** Whether any of `values` matches any of `keys` as `match` says (RFC 5228 §2.7, RFC 5231). */
export function matchesAny(values: string[], keys: string[], match: Match, budget: SieveBudget): boolean {
  if (match.type === 'count') {
    const count = String(values.length);
    return keys.some((key) => relate(compareNumeric(count, key), match.relation ?? 'eq'));
  }
  for (const value of values) {
    for (const key of keys) {
      budget.spend(1 + value.length + key.length);
      if (matchOne(value, key, match, budget)) return true;
    }
  }
  return false;
}

function matchOne(value: string, key: string, match: Match, budget: SieveBudget): boolean {
  if (match.comparator === 'i;ascii-numeric') {
    const order = compareNumeric(value, key);
    if (match.type === 'value') return relate(order, match.relation ?? 'eq');
    if (match.type === 'is') return order === 0;
    return false;
  }
  const [left, right] = match.comparator === 'i;ascii-casemap' ? [asciiLower(value), asciiLower(key)] : [value, key];
  switch (match.type) {
    case 'is':
      return left === right;
    case 'contains':
      return left.includes(right);
    case 'matches':
      return wildcardMatch(left, right, budget);
    case 'value':
      return relate(left < right ? -1 : left > right ? 1 : 0, match.relation ?? 'eq');
    case 'count':
      return false;
  }
}

function relate(order: number, relation: NonNullable<Match['relation']>): boolean {
  switch (relation) {
    case 'gt':
      return order > 0;
    case 'ge':
      return order >= 0;
    case 'lt':
      return order < 0;
    case 'le':
      return order <= 0;
    case 'eq':
      return order === 0;
    case 'ne':
      return order !== 0;
  }
}

/** i;ascii-numeric (RFC 4790 §9.1): the leading digits as a number; a string without any is greater than every number. */
function compareNumeric(left: string, right: string): number {
  const [a, b] = [leadingNumber(left), leadingNumber(right)];
  return a === b ? 0 : a < b ? -1 : 1;
}

function leadingNumber(text: string): number {
  const digits = /^[0-9]+/.exec(text);
  return digits ? Number(digits[0]) : Number.POSITIVE_INFINITY;
}

function asciiLower(text: string): string {
  return text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());
}

/**
 * `*` (any run) and `?` (one character), `\` making the next one literal: the greedy matcher
 * that backs up only to the last `*`, never a regular expression, each step charged to the budget.
 */
export function wildcardMatch(text: string, pattern: string, budget: SieveBudget): boolean {
  const tokens = patternTokens(pattern);
  let t = 0;
  let p = 0;
  let starAt = -1;
  let starText = 0;
  let steps = 0;
  while (t < text.length) {
    if (++steps % 1024 === 0) budget.spend(1024);
    const token = tokens[p];
    if (token !== undefined && token !== STAR && (token === ANY || token === text[t])) {
      t++;
      p++;
    } else if (token === STAR) {
      starAt = p++;
      starText = t;
    } else if (starAt >= 0) {
      p = starAt + 1;
      t = ++starText;
    } else {
      return false;
    }
  }
  while (tokens[p] === STAR) p++;
  return p === tokens.length;
}

const STAR = Symbol('*');
const ANY = Symbol('?');

function patternTokens(pattern: string): Array<string | typeof STAR | typeof ANY> {
  const tokens: Array<string | typeof STAR | typeof ANY> = [];
  for (let index = 0; index < pattern.length; index++) {
    const character = pattern[index];
    if (character === '\\' && index + 1 < pattern.length) tokens.push(pattern[++index]);
    else if (character === '*') tokens.push(STAR);
    else if (character === '?') tokens.push(ANY);
    else tokens.push(character);
  }
  return tokens;
}
