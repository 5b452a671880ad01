import { parseImapDate } from './imap-date';
import { parseMessageSet, SAVED_RESULT, type MessageSet } from './sequence-set';
import { atomOf, ImapCommandError, numberOf, textOf, type Token } from './tokens';

/** A system flag or keyword SEARCH asks about; `set: false` for UNSEEN, UNFLAGGED and the like. */
export type SearchKey =
  | { kind: 'all' }
  | { kind: 'flag'; flag: string; set: boolean }
  /** NEW, OLD and RECENT: IMAP4rev1's \Recent. */
  | { kind: 'recent'; set: boolean }
  | { kind: 'new' }
  /** FROM, TO, CC, BCC, SUBJECT and HEADER: a header field containing the text (any value when it is empty). */
  | { kind: 'header'; field: string; value: string }
  | { kind: 'body' | 'text'; value: string }
  /** Internal date (BEFORE, ON, SINCE) or the Date header (SENTBEFORE, SENTON, SENTSINCE), a day as YYYY-MM-DD. */
  | { kind: 'date'; of: 'internal' | 'sent'; comparison: 'before' | 'on' | 'since'; day: string }
  | { kind: 'size'; comparison: 'larger' | 'smaller'; bytes: number }
  | { kind: 'uid'; set: MessageSet }
  | { kind: 'sequence'; set: MessageSet }
  | { kind: 'modseq'; modseq: number }
  | { kind: 'not'; key: SearchKey }
  | { kind: 'or'; left: SearchKey; right: SearchKey }
  | { kind: 'and'; keys: SearchKey[] };

/** ESEARCH's RETURN options (RFC 4731); none asked: the classic `* SEARCH` answer. */
export type SearchReturn = 'MIN' | 'MAX' | 'ALL' | 'COUNT' | 'SAVE';

export interface SearchCommand {
  /** Undefined without RETURN: answer `* SEARCH`. An empty RETURN () means ALL. */
  returns?: SearchReturn[];
  /** All the keys, which a message must all match. */
  key: SearchKey;
}

const FLAG_KEYS: Record<string, [string, boolean]> = {
  ANSWERED: ['\\Answered', true],
  DELETED: ['\\Deleted', true],
  DRAFT: ['\\Draft', true],
  FLAGGED: ['\\Flagged', true],
  SEEN: ['\\Seen', true],
  UNANSWERED: ['\\Answered', false],
  UNDELETED: ['\\Deleted', false],
  UNDRAFT: ['\\Draft', false],
  UNFLAGGED: ['\\Flagged', false],
  UNSEEN: ['\\Seen', false],
};
const HEADER_KEYS = new Set(['FROM', 'TO', 'CC', 'BCC', 'SUBJECT']);
const DATE_KEYS: Record<string, ['internal' | 'sent', 'before' | 'on' | 'since']> = {
  BEFORE: ['internal', 'before'],
  ON: ['internal', 'on'],
  SINCE: ['internal', 'since'],
  SENTBEFORE: ['sent', 'before'],
  SENTON: ['sent', 'on'],
  SENTSINCE: ['sent', 'since'],
};
const RETURNS = new Set<string>(['MIN', 'MAX', 'ALL', 'COUNT', 'SAVE']);
const CHARSETS = new Set(['UTF-8', 'US-ASCII']);
/** NOT and OR nest at most this deep: the keys are walked recursively, here and when they are run. */
const MAX_DEPTH = 32;

/** `SEARCH [RETURN (...)] [CHARSET x] keys`' arguments. */
export function parseSearchCommand(args: Token[]): SearchCommand {
  let at = 0;
  let returns: SearchReturn[] | undefined;
  if (args[at]?.type === 'atom' && (args[at] as { value: string }).value.toUpperCase() === 'RETURN') {
    const list = args[at + 1];
    if (list?.type !== 'list') throw new ImapCommandError('expected RETURN options in parentheses');
    returns = list.items.map((item) => {
      const option = atomOf(item, 'a RETURN option').toUpperCase();
      if (!RETURNS.has(option)) throw new ImapCommandError(`unknown RETURN option ${option}`);
      return option as SearchReturn;
    });
    at += 2;
  }
  if (args[at]?.type === 'atom' && (args[at] as { value: string }).value.toUpperCase() === 'CHARSET') {
    checkCharset(args[at + 1]);
    at += 2;
  }
  return { ...(returns ? { returns } : {}), key: parseSearchKeys(args.slice(at)) };
}

/** A search's charset: the text of its keys is read as UTF-8, which US-ASCII is part of; another is NO [BADCHARSET]. */
export function checkCharset(token: Token | undefined): void {
  const charset = textOf(token, 'a charset').toUpperCase();
  if (!CHARSETS.has(charset)) throw new ImapCommandError(`charset ${charset} is not supported`, 'NO', 'BADCHARSET (UTF-8 US-ASCII)');
}

/** Search keys, at least one, which a message must all match: what follows the charset in SEARCH, SORT and THREAD. */
export function parseSearchKeys(tokens: Token[]): SearchKey {
  const keys = new SearchKeyReader(tokens).readAll();
  if (keys.length === 0) throw new ImapCommandError('expected search keys');
  return keys.length === 1 ? keys[0] : { kind: 'and', keys };
}

/** Reads search keys from a list of tokens, one after another. */
class SearchKeyReader {
  private at = 0;

  constructor(private readonly tokens: Token[]) {}

  readAll(depth = 0): SearchKey[] {
    const keys: SearchKey[] = [];
    while (this.at < this.tokens.length) keys.push(this.read(depth));
    return keys;
  }

  private read(depth: number): SearchKey {
    if (depth > MAX_DEPTH) throw new ImapCommandError(`search keys nested deeper than ${MAX_DEPTH}`);
    const token = this.tokens[this.at++];
    if (token?.type === 'list') {
      const keys = new SearchKeyReader(token.items).readAll(depth + 1);
      if (keys.length === 0) throw new ImapCommandError('an empty parenthesized search key');
      return keys.length === 1 ? keys[0] : { kind: 'and', keys };
    }
    const word = atomOf(token, 'a search key');
    const name = word.toUpperCase();
    if (name === 'ALL') return { kind: 'all' };
    if (name in FLAG_KEYS) return { kind: 'flag', flag: FLAG_KEYS[name][0], set: FLAG_KEYS[name][1] };
    if (name === 'KEYWORD' || name === 'UNKEYWORD') return { kind: 'flag', flag: atomOf(this.next(), 'a keyword'), set: name === 'KEYWORD' };
    if (name === 'NEW') return { kind: 'new' };
    if (name === 'RECENT' || name === 'OLD') return { kind: 'recent', set: name === 'RECENT' };
    if (HEADER_KEYS.has(name)) return { kind: 'header', field: name, value: textOf(this.next(), `the text of ${name}`) };
    if (name === 'HEADER')
      return { kind: 'header', field: textOf(this.next(), 'a header field name').toUpperCase(), value: textOf(this.next(), 'the text of HEADER') };
    if (name === 'BODY' || name === 'TEXT') return { kind: name === 'BODY' ? 'body' : 'text', value: textOf(this.next(), `the text of ${name}`) };
    if (name in DATE_KEYS) return { kind: 'date', of: DATE_KEYS[name][0], comparison: DATE_KEYS[name][1], day: parseImapDate(textOf(this.next(), 'a date')) };
    if (name === 'LARGER' || name === 'SMALLER')
      return { kind: 'size', comparison: name === 'LARGER' ? 'larger' : 'smaller', bytes: numberOf(this.next(), 'a size') };
    if (name === 'UID') return { kind: 'uid', set: parseMessageSet(atomOf(this.next(), 'a UID set')) };
    if (name === 'MODSEQ') return this.modseq();
    if (name === 'NOT') return { kind: 'not', key: this.read(depth + 1) };
    if (name === 'OR') return { kind: 'or', left: this.read(depth + 1), right: this.read(depth + 1) };
    if (/^[\d*]/.test(word) || word === SAVED_RESULT) return { kind: 'sequence', set: parseMessageSet(word) };
    throw new ImapCommandError(`unknown search key ${word}`);
  }

  /** MODSEQ [entry-name entry-type] mod-sequence (RFC 7162): the entry is named, not used. */
  private modseq(): SearchKey {
    if (this.tokens[this.at]?.type === 'quoted') {
      textOf(this.next(), 'a MODSEQ entry name');
      const type = atomOf(this.next(), 'a MODSEQ entry type').toLowerCase();
      if (!['priv', 'shared', 'all'].includes(type)) throw new ImapCommandError(`MODSEQ entry type must be priv, shared or all, not ${type}`);
    }
    return { kind: 'modseq', modseq: numberOf(this.next(), 'a mod-sequence', Number.MAX_SAFE_INTEGER) };
  }

  private next(): Token | undefined {
    return this.tokens[this.at++];
  }
}
