import type { ImapSortField, ImapSortKey, ImapThreadAlgorithm } from '@letterbox/mail';
import { checkCharset, parseSearchKeys, type SearchKey } from './search-keys';
import { atomOf, ImapCommandError, type Token } from './tokens';

export interface SortCommand {
  keys: ImapSortKey[];
  key: SearchKey;
}

export interface ThreadCommand {
  algorithm: ImapThreadAlgorithm;
  key: SearchKey;
}

const SORT_FIELDS: Record<string, ImapSortField> = {
  ARRIVAL: 'arrival',
  CC: 'cc',
  DATE: 'date',
  FROM: 'from',
  SIZE: 'size',
  SUBJECT: 'subject',
  TO: 'to',
  DISPLAYFROM: 'displayfrom',
  DISPLAYTO: 'displayto',
};

const THREAD_ALGORITHMS: Record<string, ImapThreadAlgorithm> = { ORDEREDSUBJECT: 'orderedsubject', REFERENCES: 'references' };

/** `SORT (keys) charset search-keys`' arguments (RFC 5256 4): REVERSE turns the key after it. */
export function parseSortCommand(args: Token[]): SortCommand {
  const list = args[0];
  if (list?.type !== 'list' || list.items.length === 0) throw new ImapCommandError('expected sort criteria in parentheses');
  const keys: ImapSortKey[] = [];
  let reverse = false;
  for (const item of list.items) {
    const word = atomOf(item, 'a sort criterion').toUpperCase();
    if (word === 'REVERSE' && !reverse) {
      reverse = true;
      continue;
    }
    const field = SORT_FIELDS[word];
    if (!field) throw new ImapCommandError(`unknown sort criterion ${word}`);
    keys.push({ field, reverse });
    reverse = false;
  }
  if (reverse) throw new ImapCommandError('REVERSE must come before a sort criterion');
  checkCharset(args[1]);
  return { keys, key: parseSearchKeys(args.slice(2)) };
}

/** `THREAD algorithm charset search-keys`' arguments (RFC 5256 4). */
export function parseThreadCommand(args: Token[]): ThreadCommand {
  const name = atomOf(args[0], 'a threading algorithm').toUpperCase();
  const algorithm = THREAD_ALGORITHMS[name];
  if (!algorithm) throw new ImapCommandError(`unknown threading algorithm ${name}`);
  checkCharset(args[1]);
  return { algorithm, key: parseSearchKeys(args.slice(2)) };
}
