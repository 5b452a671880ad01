import type { Database } from '@letterbox/db';
import type { BlobStore } from '@letterbox/storage';
import { withHeadersRead } from './imap-header-search';
import { imapMatchesSql, imapSearchSql, SENT_AT_SQL, type ImapSearchCriterion } from './imap-search-sql';

/** THREAD's algorithms (RFC 5256 3). */
export type ImapThreadAlgorithm = 'orderedsubject' | 'references';

/**
 * What makes two messages one thread: ORDEREDSUBJECT their base subject (RFC 5256 2.1); REFERENCES Letterbox's
 * conversation, which mail_thread_of placed each mail in from its References, In-Reply-To and subject when it was
 * stored, rather than a reference graph rebuilt for each command.
 */
const GROUP_SQL: Record<ImapThreadAlgorithm, string> = {
  orderedsubject: 'imap_base_subject(m.subject)',
  references: 'm.thread_id',
};

/** A mailbox's threads: their messages' UIDs one thread after another, and how many each thread has. */
export interface ImapThreads {
  uids: number[];
  sizes: number[];
}

/**
 * IMAP THREAD over a user's mailbox: SEARCH's statement (imapMatchesSql) with each matching message's thread and
 * place in it from window functions, one statement. A thread's messages go by sent date (SENT_AT_SQL), then UID;
 * threads go by the sent date of their first message. The shape either algorithm gives a thread is ORDEREDSUBJECT's
 * (RFC 5256 3): its first message the parent, every other one its child.
 */
export async function imapThreads(
  db: Database,
  blobs: BlobStore,
  userId: number,
  mailboxId: number,
  criterion: ImapSearchCriterion,
  algorithm: ImapThreadAlgorithm,
): Promise<ImapThreads> {
  const { condition, values } = imapSearchSql(await withHeadersRead(db, blobs, mailboxId, userId, criterion), 3);
  const { rows } = await db.sql.query<[string, string]>({
    text: `SELECT t.uid, t.size FROM (
             SELECT g.uid, g.sent,
                    first_value(g.sent) OVER thread AS thread_sent,
                    first_value(g.uid) OVER thread AS thread_uid,
                    count(*) OVER (PARTITION BY g.grp) AS size
               FROM (SELECT u.uid, ${SENT_AT_SQL} AS sent, ${GROUP_SQL[algorithm]} AS grp ${imapMatchesSql(condition, true)}) g
             WINDOW thread AS (PARTITION BY g.grp ORDER BY g.sent, g.uid)
           ) t
           ORDER BY t.thread_sent, t.thread_uid, t.sent, t.uid`,
    values: [mailboxId, userId, ...values],
    rowMode: 'array',
  });
  const uids: number[] = [];
  const sizes: number[] = [];
  let left = 0;
  for (const [uid, size] of rows) {
    uids.push(Number(uid));
    if (left === 0) {
      left = Number(size);
      sizes.push(left);
    }
    left--;
  }
  return { uids, sizes };
}
