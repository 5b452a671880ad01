/** A word or quoted phrase to find in the indexed text; `excluded` when written with a leading minus. */
export interface SearchTerm {
  text: string;
  excluded: boolean;
}

/** What a `q=` says, operators taken out: the rest is text to find. */
export interface SearchQuery {
  terms: SearchTerm[];
  from?: string;
  to?: string;
  subject?: string;
  hasAttachments?: boolean;
  seen?: boolean;
  flagged?: boolean;
  answered?: boolean;
  /** A mailbox name or role (inbox, sent, drafts, trash, spam), as in:. */
  mailbox?: string;
  since?: Date;
  until?: Date;
  minSize?: number;
  maxSize?: number;
}

export class SearchQueryError extends Error {
  constructor(detail: string) {
    super(`q: ${detail}`);
  }
}

/** More is not a search a person types; it also bounds the statement the query becomes. */
const MAX_TERMS = 20;

const OPERATORS = new Set(['from', 'to', 'subject', 'in', 'has', 'is', 'before', 'after', 'larger', 'smaller']);

const IS_VALUES: Record<string, Partial<SearchQuery>> = {
  unread: { seen: false },
  read: { seen: true },
  flagged: { flagged: true },
  starred: { flagged: true },
  unflagged: { flagged: false },
  answered: { answered: true },
};

const SIZE_UNITS: Record<string, number> = { '': 1, b: 1, k: 1024, kb: 1024, m: 1024 ** 2, mb: 1024 ** 2, g: 1024 ** 3, gb: 1024 ** 3 };
/** A mail's size is a PostgreSQL integer: a bound past it is no size a mail can have, and fails the statement. */
const MAX_SIZE = 2 ** 31 - 1;

/**
 * Parses a search as Gmail-style operators and text: `from:`, `to:`, `subject:`,
 * `has:attachment`, `is:unread|read|flagged|starred|unflagged|answered`, `in:<mailbox>`,
 * `before:`/`after:` (dates), `larger:`/`smaller:` (10K, 5M), "quoted phrases" and
 * -excluded words. An operator's value may be quoted. A word with a colon that is no
 * operator (a time, a URL) is text. One pass over the input.
 */
export function parseSearchQuery(q: string): SearchQuery {
  const query: SearchQuery = { terms: [] };
  for (const token of tokenize(q)) {
    const operator = token.quoted ? undefined : /^([a-z]+):(.+)$/i.exec(token.text);
    if (operator && token.excluded && OPERATORS.has(operator[1].toLowerCase())) {
      throw new SearchQueryError(`-${operator[1]}: operators cannot be excluded; exclude words instead`);
    }
    if (!operator || !applyOperator(query, operator[1].toLowerCase(), token.value ?? operator[2])) {
      const text = token.value ?? token.text;
      if (/[\p{L}\p{N}]/u.test(text)) query.terms.push({ text, excluded: token.excluded });
    }
  }
  if (query.terms.length > MAX_TERMS) throw new SearchQueryError(`at most ${MAX_TERMS} words and phrases`);
  return query;
}

function applyOperator(query: SearchQuery, name: string, value: string): boolean {
  switch (name) {
    case 'from':
    case 'to':
    case 'subject':
      query[name] = value;
      return true;
    case 'in':
      query.mailbox = value;
      return true;
    case 'has':
      if (!/^attachments?$/i.test(value)) throw new SearchQueryError(`has: knows only has:attachment, not "${value}"`);
      query.hasAttachments = true;
      return true;
    case 'is': {
      const flags = IS_VALUES[value.toLowerCase()];
      if (!flags) throw new SearchQueryError(`is: must be one of ${Object.keys(IS_VALUES).join(', ')}, not "${value}"`);
      Object.assign(query, flags);
      return true;
    }
    case 'before':
    case 'after': {
      const day = /^(\d{4})[-/](\d{1,2})[-/](\d{1,2})$/.exec(value);
      const date = day ? new Date(Date.UTC(Number(day[1]), Number(day[2]) - 1, Number(day[3]))) : undefined;
      if (!date || date.getUTCDate() !== Number(day?.[3])) throw new SearchQueryError(`${name}: must be a date like 2026-01-31, not "${value}"`);
      if (name === 'before') query.until = date;
      else query.since = date;
      return true;
    }
    case 'larger':
    case 'smaller': {
      const size = /^(\d{1,10})\s*([a-z]*)$/i.exec(value);
      const unit = size ? SIZE_UNITS[size[2].toLowerCase()] : undefined;
      if (!size || unit === undefined) throw new SearchQueryError(`${name}: must be a size like 500K or 10M, not "${value}"`);
      const bytes = Number(size[1]) * unit;
      if (bytes > MAX_SIZE) throw new SearchQueryError(`${name}: must be a size below 2G, not "${value}"`);
      if (name === 'larger') query.minSize = bytes;
      else query.maxSize = bytes;
      return true;
    }
    default:
      return false;
  }
}

interface Token {
  /** As written, quotes and minus taken off. */
  text: string;
  /** The quoted part: the whole phrase, or an operator's quoted value. */
  value?: string;
  quoted: boolean;
  excluded: boolean;
}

function tokenize(q: string): Token[] {
  const tokens: Token[] = [];
  let index = 0;
  while (index < q.length) {
    while (index < q.length && /\s/.test(q[index])) index++;
    if (index >= q.length) break;
    const excluded = q[index] === '-' && index + 1 < q.length && !/\s/.test(q[index + 1]);
    if (excluded) index++;
    if (q[index] === '"') {
      const end = q.indexOf('"', index + 1);
      const stop = end === -1 ? q.length : end;
      tokens.push({ text: q.slice(index + 1, stop), value: q.slice(index + 1, stop), quoted: true, excluded });
      index = stop + 1;
      continue;
    }
    const start = index;
    while (index < q.length && !/\s/.test(q[index]) && q[index] !== '"') index++;
    let text = q.slice(start, index);
    let value: string | undefined;
    // An operator's quoted value: subject:"budget review".
    if (text.endsWith(':') && q[index] === '"') {
      const end = q.indexOf('"', index + 1);
      const stop = end === -1 ? q.length : end;
      value = q.slice(index + 1, stop);
      text += value;
      index = stop + 1;
    }
    tokens.push({ text, value, quoted: false, excluded });
  }
  return tokens;
}
