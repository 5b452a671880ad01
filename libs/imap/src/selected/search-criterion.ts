import type { ImapSearchCriterion, ImapSearchField, ImapSearchFlag } from '@letterbox/mail';
import type { SearchKey } from '../protocol/search-keys';
import type { MessageSet } from '../protocol/sequence-set';
import { ImapCommandError } from '../protocol/tokens';

/** The positions of a selected mailbox's messages and their UIDs: what sequence sets are read against. */
export interface MessageNumbers {
  indexRanges(set: MessageSet, byUid: boolean): [number, number][];
  uidAt(seq: number): number | undefined;
}

const SYSTEM_FLAGS: Record<string, ImapSearchFlag> = {
  '\\SEEN': 'seen',
  '\\FLAGGED': 'flagged',
  '\\ANSWERED': 'answered',
  '\\DELETED': 'deleted',
  '\\DRAFT': 'draft',
  $FORWARDED: 'forwarded',
};

/** The header fields the mail's row keeps, searched through its indexes; any other is read from each header block. */
const FIELDS: Record<string, ImapSearchField> = { FROM: 'from', TO: 'to', CC: 'cc', SUBJECT: 'subject', 'MESSAGE-ID': 'message-id' };

/**
 * SEARCH's keys as libs/mail's criterion: sequence numbers and UID sets become the UID ranges of the messages the
 * session knows (a range of positions is one range of UIDs: the UIDs between are gone, or were never given).
 * `everyMatch`: the key is one every match meets (not under NOT or OR), where a header the row lacks may be read. Dates
 * of the Date header (SENT*) are the mail's sent date, its arrival when it has none. \Recent is never set (no session
 * is told of mail first).
 */
export function searchCriterion(key: SearchKey, numbers: MessageNumbers, everyMatch = true): ImapSearchCriterion {
  switch (key.kind) {
    case 'all':
      return { kind: 'all' };
    case 'flag': {
      const flag = SYSTEM_FLAGS[key.flag.toUpperCase()];
      if (flag) return { kind: 'flag', flag, set: key.set };
      if (key.flag.startsWith('\\')) return key.set ? { kind: 'none' } : { kind: 'all' };
      return { kind: 'keyword', keyword: key.flag, set: key.set };
    }
    case 'recent':
      return key.set ? { kind: 'none' } : { kind: 'all' };
    case 'new':
      return { kind: 'none' };
    case 'header': {
      const field = FIELDS[key.field];
      if (field) return { kind: 'field', field, value: key.value };
      // Read from the header blocks of what the rest matched: under NOT or OR that would be every message's.
      if (!everyMatch)
        throw new ImapCommandError(`the ${key.field} header can be searched only as a condition every match meets, not under NOT or OR`, 'NO', 'CANNOT');
      return { kind: 'header', field: key.field, value: key.value };
    }
    case 'body':
    case 'text':
      return { kind: 'text', value: key.value };
    case 'date':
      return { kind: 'date', of: key.of, comparison: key.comparison, day: key.day };
    case 'size':
      return { kind: 'size', comparison: key.comparison, bytes: key.bytes };
    case 'uid':
    case 'sequence':
      return { kind: 'uids', ranges: uidRanges(numbers, key.set, key.kind === 'uid') };
    case 'modseq':
      return { kind: 'modseq', modseq: key.modseq };
    case 'not':
      return { kind: 'not', criterion: searchCriterion(key.key, numbers, false) };
    case 'or':
      return { kind: 'or', left: searchCriterion(key.left, numbers, false), right: searchCriterion(key.right, numbers, false) };
    case 'and':
      return { kind: 'and', criteria: key.keys.map((inner) => searchCriterion(inner, numbers, everyMatch)) };
  }
}

/** Whether the keys name a MODSEQ: the answer then carries the highest MODSEQ of what matched (RFC 7162 3.1.5). */
export function asksModseq(key: SearchKey): boolean {
  if (key.kind === 'modseq') return true;
  if (key.kind === 'not') return asksModseq(key.key);
  if (key.kind === 'or') return asksModseq(key.left) || asksModseq(key.right);
  if (key.kind === 'and') return key.keys.some(asksModseq);
  return false;
}

function uidRanges(numbers: MessageNumbers, set: MessageSet, byUid: boolean): [number, number][] {
  return numbers.indexRanges(set, byUid).map(([start, end]) => [numbers.uidAt(start + 1)!, numbers.uidAt(end)!]);
}
