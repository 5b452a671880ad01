import type { Database } from '@letterbox/db';
import type { BlobStore } from '@letterbox/storage';
import { withHeadersRead } from './imap-header-search';
import { imapMatchesSql, imapSearchSql, type ImapSearchCriterion } from './imap-search-sql';
import { imapSortSql, type ImapSortKey } from './imap-sort-sql';

export interface ImapSearchResult {
  uids: number[];
  /** 0 when nothing matched. */
  highestModseq: number;
}

/**
 * IMAP SEARCH, and SORT when `sort` has keys, over a user's mailbox: one statement, read from the mailbox's UIDs (the
 * partial indexes on their flags) joined to their mails (the trigram indexes on their fields, the full-text index).
 * Answers the UIDs that match, ascending or in the keys' order, and the highest MODSEQ among them (RFC 7162 3.1.5);
 * none for another user's or a locked mailbox.
 */
export async function imapSearch(
  db: Database,
  blobs: BlobStore,
  userId: number,
  mailboxId: number,
  criterion: ImapSearchCriterion,
  sort: readonly ImapSortKey[] = [],
): Promise<ImapSearchResult> {
  const { condition, values } = imapSearchSql(await withHeadersRead(db, blobs, mailboxId, userId, criterion), 3);
  const { rows } = await db.sql.query<[string, string]>({
    text: imapSearchStatement(condition, sort),
    values: [mailboxId, userId, ...values],
    rowMode: 'array',
  });
  let highestModseq = 0;
  const uids = rows.map(([uid, modseq]) => {
    highestModseq = Math.max(highestModseq, Number(modseq));
    return Number(uid);
  });
  return { uids, highestModseq };
}

/** The statement of a search whose condition is `condition` ($1 the mailbox, $2 the user), in UID order or sorted by `sort`. */
export function imapSearchStatement(condition: string, sort: readonly ImapSortKey[] = []): string {
  return `SELECT u.uid, u.modseq ${imapMatchesSql(condition, sort.length > 0)}
           ORDER BY ${imapSortSql(sort)}`;
}
