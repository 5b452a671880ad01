import type { Database } from '@letterbox/db';
import { imapSearchSql, type ImapSearchCriterion } from './imap-search-sql';

export interface ImapSearchResult {
  uids: number[];
  /** 0 when nothing matched. */
  highestModseq: number;
}

/**
 * IMAP SEARCH over a user's mailbox: one statement, read from the mailbox's mails (the partial indexes on their
 * flags, the trigram indexes on their fields, the full-text index) joined to their UIDs. Answers the UIDs that
 * match, ascending, and the highest MODSEQ among them (RFC 7162 3.1.5); none for another user's or a locked mailbox.
 */
export async function imapSearch(db: Database, userId: number, mailboxId: number, criterion: ImapSearchCriterion): Promise<ImapSearchResult> {
  const { condition, values } = imapSearchSql(criterion, 3);
  const { rows } = await db.sql.query<[string, string]>({
    text: `SELECT u.uid, u.modseq FROM mails m JOIN mail_uids u ON u.mail_id = m.id
            WHERE m.mailbox_id = $1 AND m.user_id = $2 AND m.deleted_at IS NULL AND u.mailbox_id = $1
              AND NOT EXISTS (SELECT 1 FROM mailboxes b WHERE b.id = $1 AND b.locked)
              AND ${condition}
            ORDER BY u.uid`,
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
