import type { Database } from '@letterbox/db';
import type { BlobStore } from '@letterbox/storage';
import { filterByHeaders } from './imap-header-search';
import { imapSearchSql, type ImapHeaderCondition, type ImapSearchCriterion } from './imap-search-sql';

export interface ImapSearchResult {
  uids: number[];
  /** 0 when nothing matched. */
  highestModseq: number;
}

/**
 * IMAP SEARCH over a user's mailbox: one statement, read from the mailbox's UIDs (the partial indexes on their
 * flags) joined to their mails (the trigram indexes on their fields, the full-text index). Answers the UIDs that
 * match, ascending, and the highest MODSEQ among them (RFC 7162 3.1.5); none for another user's or a locked mailbox.
 */
export async function imapSearch(db: Database, blobs: BlobStore, userId: number, mailboxId: number, criterion: ImapSearchCriterion): Promise<ImapSearchResult> {
  const { rest, headers } = headerConditionsOf(criterion);
  const { condition, values } = imapSearchSql(rest, 3);
  const found =
    headers.length === 0
      ? (await db.sql.query<[string, string]>({ text: imapSearchStatement(condition), values: [mailboxId, userId, ...values], rowMode: 'array' })).rows
      : await filterByHeaders(db, blobs, { text: headerCandidatesStatement(condition, values.length + 3), values: [mailboxId, userId, ...values] }, headers);
  let highestModseq = 0;
  const uids = found.map(([uid, modseq]) => {
    highestModseq = Math.max(highestModseq, Number(modseq));
    return Number(uid);
  });
  return { uids, highestModseq };
}

/** The HEADER conditions every match must meet (alone, or in an AND at the top), apart from the rest of the criterion. */
function headerConditionsOf(criterion: ImapSearchCriterion): { rest: ImapSearchCriterion; headers: ImapHeaderCondition[] } {
  if (criterion.kind === 'header') return { rest: { kind: 'all' }, headers: [{ field: criterion.field, value: criterion.value }] };
  if (criterion.kind !== 'and') return { rest: criterion, headers: [] };
  const parts = criterion.criteria.map(headerConditionsOf);
  return { rest: { kind: 'and', criteria: parts.map((part) => part.rest) }, headers: parts.flatMap((part) => part.headers) };
}

/** A page of the mails matching `condition` above a UID, with where their header block is: `$next` the UID, `$next + 1` the page's size. */
function headerCandidatesStatement(condition: string, next: number): string {
  return `SELECT u.uid, u.modseq, m.storage_key, (m.layout->>'headerEnd')::int FROM mail_uids u JOIN mails m ON m.id = u.mail_id
           WHERE u.mailbox_id = $1
             AND EXISTS (SELECT 1 FROM mailboxes b WHERE b.id = $1 AND b.user_id = $2 AND NOT b.locked)
             AND ${condition} AND u.uid > $${next}
           ORDER BY u.uid LIMIT $${next + 1}`;
}

/**
 * The statement of a search whose condition is `condition` ($1 the mailbox, $2 the user): driven from the mailbox's
 * UIDs, so a flag's partial index (or the UID order) is where the planner starts, whatever the mailbox's size. The
 * mail rows are joined only for a condition on them (`m.`): a UID is only ever a visible mail's.
 */
export function imapSearchStatement(condition: string): string {
  const readsMail = /\bm\./.test(condition);
  return `SELECT u.uid, u.modseq FROM mail_uids u${readsMail ? ' JOIN mails m ON m.id = u.mail_id' : ''}
           WHERE u.mailbox_id = $1
             AND EXISTS (SELECT 1 FROM mailboxes b WHERE b.id = $1 AND b.user_id = $2 AND NOT b.locked)
             AND ${condition}
           ORDER BY u.uid`;
}
