import { containsPattern } from '../list/mail-filter-sql';
import { searchableText } from '../search/search-text';

/** A flag of a mail as IMAP SEARCH names it (\Draft is where the mail is: Drafts). */
export type ImapSearchFlag = 'seen' | 'flagged' | 'answered' | 'forwarded' | 'deleted' | 'draft';

/** A header field the mail's row keeps: what SEARCH FROM, TO, CC, SUBJECT and HEADER Message-ID read. */
export type ImapSearchField = 'from' | 'to' | 'cc' | 'subject' | 'message-id';

/** What IMAP SEARCH asks of a mailbox's mails, its sequence numbers already made UIDs (libs/imap does). */
export type ImapSearchCriterion =
  | { kind: 'all' }
  | { kind: 'none' }
  | { kind: 'flag'; flag: ImapSearchFlag; set: boolean }
  | { kind: 'keyword'; keyword: string; set: boolean }
  /** The field contains the text, in any case (every mail has each of them, if empty). */
  | { kind: 'field'; field: ImapSearchField; value: string }
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
        if (node.ranges.length === 0) return 'false';
        return `EXISTS (SELECT 1 FROM unnest(${bind(node.ranges.map((range) => range[0]))}::bigint[], ${bind(
          node.ranges.map((range) => range[1]),
        )}::bigint[]) AS r(first, last) WHERE u.uid BETWEEN r.first AND r.last)`;
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
 * Words found in the mail's search row, as the webmail's search finds them (Korean and other CJK text as pairs
 * of characters): through the index's postings, the user's rows that have the phrase.
 */
function textCondition(value: string, bind: (value: unknown) => string): string {
  const text = searchableText(value);
  if (!/[\p{L}\p{N}]/u.test(text)) return 'true';
  return `m.id IN (SELECT s.mail_id FROM mail_search s WHERE s.user_id = $2 AND s.document @@ phraseto_tsquery('simple', ${bind(text)}))`;
}
