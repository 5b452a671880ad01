import { containsPattern } from '../list/mail-filter-sql';
import { searchableText } from '../search/search-text';

/** A flag of a mail as IMAP SEARCH names it (\Draft is where the mail is: Drafts). */
export type ImapSearchFlag = 'seen' | 'flagged' | 'answered' | 'forwarded' | 'deleted' | 'draft';

/** A header field the mail's row keeps: what SEARCH FROM, TO, CC, SUBJECT and HEADER Message-ID read. */
export type ImapSearchField = 'from' | 'to' | 'cc' | 'subject' | 'message-id';

/** A header field (any case) and the text it must hold, decoded, in any case; an empty text asks only that the field be there. */
export interface ImapHeaderCondition {
  field: string;
  value: string;
}

/** What IMAP SEARCH asks of a mailbox's mails, its sequence numbers already made UIDs (libs/imap does). */
export type ImapSearchCriterion =
  | { kind: 'all' }
  | { kind: 'none' }
  | { kind: 'flag'; flag: ImapSearchFlag; set: boolean }
  | { kind: 'keyword'; keyword: string; set: boolean }
  /** The field contains the text, in any case (every mail has each of them, if empty). */
  | { kind: 'field'; field: ImapSearchField; value: string }
  /** A header field the row does not keep, read from storage (imap-header-search): only as a condition every match meets, alone or in an AND. */
  | ({ kind: 'header' } & ImapHeaderCondition)
  /** Words of the text, found in the full-text index: the body, subject and people (TEXT), as the webmail's search finds them. */
  | { kind: 'text'; value: string }
  /**
   * By UTC day: when the mail was received (INTERNALDATE), or when it was sent (its Date header, else when it was
   * received). RFC 3501 would compare the Date header's day in its own zone; the header's offset is not kept.
   */
  | { kind: 'date'; of: 'internal' | 'sent'; comparison: 'before' | 'on' | 'since'; day: string }
  | { kind: 'size'; comparison: 'larger' | 'smaller'; bytes: number }
  /** Inclusive, ascending UID ranges. */
  | { kind: 'uids'; ranges: [number, number][] }
  | { kind: 'modseq'; modseq: number }
  | { kind: 'not'; criterion: ImapSearchCriterion }
  | { kind: 'or'; left: ImapSearchCriterion; right: ImapSearchCriterion }
  | { kind: 'and'; criteria: ImapSearchCriterion[] };

/** A condition as SQL over `mails m` joined with `mail_uids u` (the user's id bound as $2), with the values it binds. */
export interface SearchSql {
  condition: string;
  values: unknown[];
}

const FLAG_SQL: Record<ImapSearchFlag, string> = {
  seen: 'u.seen',
  flagged: 'u.flagged',
  answered: 'm.answered',
  forwarded: 'm.forwarded',
  deleted: 'u.marked_deleted',
  draft: "(SELECT role FROM mailboxes WHERE id = u.mailbox_id) = 'drafts'",
};

/** The fields trigram-indexed for the webmail's from:, to: and subject: (mails_*_trgm_idx), searched the same way. */
const FIELD_SQL: Record<ImapSearchField, (parameter: string) => string> = {
  from: (p) => `(m.from_address ILIKE ${p} OR m.from_name ILIKE ${p})`,
  to: (p) => `m.to_addresses::text ILIKE ${p}`,
  cc: (p) => `m.cc_addresses::text ILIKE ${p}`,
  subject: (p) => `m.subject ILIKE ${p}`,
  'message-id': (p) => `m.message_id ILIKE ${p}`,
};

const DAY_MS = 24 * 3600 * 1000;

/** When a mail was sent: its Date header, or when it was received if it has none (RFC 5256 2.2). */
export const SENT_AT_SQL = 'COALESCE(m.sent_at, m.received_at)';

/**
 * The criterion as one SQL condition, its values bound from `$first`: one walk of the criterion tree (which the
 * parser bounds in depth). The conditions on flags are those the partial indexes on mail_uids carry
 * (mail_uids_unseen_idx...): SEARCH UNSEEN reads the unseen mail of the mailbox, not every mail.
 */
export function imapSearchSql(criterion: ImapSearchCriterion, first: number): SearchSql {
  const values: unknown[] = [];
  const bind = (value: unknown): string => {
    values.push(value);
    return `$${first + values.length - 1}`;
  };
  const walk = (node: ImapSearchCriterion): string => {
    switch (node.kind) {
      case 'all':
        return 'true';
      case 'none':
        return 'false';
      case 'flag':
        return node.set ? FLAG_SQL[node.flag] : `NOT ${FLAG_SQL[node.flag]}`;
      case 'keyword':
        return `${node.set ? '' : 'NOT '}(${bind(node.keyword)}::text = ANY(m.keywords))`;
      case 'field':
        return FIELD_SQL[node.field](bind(containsPattern(node.value)));
      case 'text':
        return textCondition(node.value, bind);
      case 'header':
        throw new Error('a HEADER condition is met by reading headers (imapSearch), not in SQL');
      case 'date': {
        const start = Date.parse(`${node.day}T00:00:00Z`);
        const date = node.of === 'sent' ? SENT_AT_SQL : 'm.received_at';
        if (node.comparison === 'before') return `${date} < ${bind(new Date(start))}`;
        if (node.comparison === 'since') return `${date} >= ${bind(new Date(start))}`;
        return `(${date} >= ${bind(new Date(start))} AND ${date} < ${bind(new Date(start + DAY_MS))})`;
      }
      case 'size':
        return `m.size ${node.comparison === 'larger' ? '>' : '<'} ${bind(node.bytes)}`;
      case 'uids':
        return uidsCondition(node.ranges, bind);
      case 'modseq':
        return `u.modseq >= ${bind(node.modseq)}`;
      case 'not':
        return `NOT (${walk(node.criterion)})`;
      case 'or':
        return `((${walk(node.left)}) OR (${walk(node.right)}))`;
      case 'and':
        return node.criteria.length === 0 ? 'true' : node.criteria.map((criterion) => `(${walk(criterion)})`).join(' AND ');
    }
  };
  return { condition: walk(criterion), values };
}

/**
 * The UIDs within the ranges: one range as bounds the UID index can start from; more (a saved result, what HEADER
 * matched) as a multirange, which each UID is found in by a binary search, however many the ranges.
 */
function uidsCondition(ranges: readonly [number, number][], bind: (value: unknown) => string): string {
  if (ranges.length === 0) return 'false';
  if (ranges.length === 1) return `u.uid BETWEEN ${bind(ranges[0][0])} AND ${bind(ranges[0][1])}`;
  return `u.uid <@ ${bind(`{${ranges.map(([first, last]) => `[${first},${last}]`).join(',')}}`)}::int8multirange`;
}

/**
 * Words found in the mail's search row, as the webmail's search finds them (Korean and other CJK text as pairs
 * of characters): through the index's postings, the user's rows that have the phrase.
 */
function textCondition(value: string, bind: (value: unknown) => string): string {
  const text = searchableText(value);
  if (!/[\p{L}\p{N}]/u.test(text)) return 'true';
  return `m.id IN (SELECT s.mail_id FROM mail_search s WHERE s.user_id = $2 AND s.document @@ phraseto_tsquery('simple', ${bind(text)}))`;
}

/**
 * `FROM ... WHERE ...` of the mailbox's messages that match `condition` ($1 the mailbox, $2 the user), which SEARCH,
 * SORT and THREAD select from: driven from the mailbox's UIDs, so a flag's partial index (or the UID order) is where
 * the planner starts, whatever the mailbox's size. The mail rows (`m`) are joined when the condition reads them, or
 * when the caller selects or orders by them (`readsMail`): a UID is only ever a visible mail's.
 */
export function imapMatchesSql(condition: string, readsMail: boolean): string {
  const joined = readsMail || /\bm\./.test(condition);
  return `FROM mail_uids u${joined ? ' JOIN mails m ON m.id = u.mail_id' : ''}
           WHERE u.mailbox_id = $1
             AND EXISTS (SELECT 1 FROM mailboxes b WHERE b.id = $1 AND b.user_id = $2 AND NOT b.locked)
             AND ${condition}`;
}
