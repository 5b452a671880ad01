import type { ImapSearchCriterion, ImapSearchField, ImapSearchFlag } from '@letterbox/mail';
import type { SearchKey } from '../protocol/search-keys';
import type { SequenceSet } from '../protocol/sequence-set';
import { ImapCommandError } from '../protocol/tokens';

/** The positions of a selected mailbox's messages and their UIDs: what sequence sets are read against. */
export interface MessageNumbers {
  indexRanges(set: SequenceSet, byUid: boolean): [number, number][];
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

/** The header fields the mail's row keeps; HEADER on any other would read every message, and is refused. */
const FIELDS: Record<string, ImapSearchField> = { FROM: 'from', TO: 'to', CC: 'cc', SUBJECT: 'subject', 'MESSAGE-ID': 'message-id' };

/**
 * SEARCH's keys as libs/mail's criterion: sequence numbers and UID sets become the UID ranges of the messages the
 * session knows (a range of positions is one range of UIDs: the UIDs between are gone, or were never given). Dates
 * of the Date header (SENT*) are the mail's sent date, its arrival when it has none. \Recent is never set (no session
 * is told of mail first).
 */
export function searchCriterion(key: SearchKey, numbers: MessageNumbers): ImapSearchCriterion {
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
      // Letterbox keeps no Bcc of mail: none has one, and whether one has any other field is not known cheaply.
      if (key.field === 'BCC') return { kind: 'none' };
      throw new ImapCommandError(`searching the ${key.field} header is not supported`, 'NO', 'CANNOT');
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
      return { kind: 'not', criterion: searchCriterion(key.key, numbers) };
    case 'or':
      return { kind: 'or', left: searchCriterion(key.left, numbers), right: searchCriterion(key.right, numbers) };
    case 'and':
      return { kind: 'and', criteria: key.keys.map((inner) => searchCriterion(inner, numbers)) };
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

function uidRanges(numbers: MessageNumbers, set: SequenceSet, byUid: boolean): [number, number][] {
  return numbers.indexRanges(set, byUid).map(([start, end]) => [numbers.uidAt(start + 1)!, numbers.uidAt(end)!]);
}
