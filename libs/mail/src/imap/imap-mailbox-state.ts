import { namedStatement, type Database } from '@letterbox/db';

/** What SELECT, EXAMINE and STATUS report of a mailbox (RFC 3501 6.3.1, RFC 7162 3.1.2). */
export interface ImapMailboxState {
  mailboxId: number;
  uidValidity: number;
  uidNext: number;
  highestModseq: number;
  messages: number;
  unseen: number;
}

const STATE = namedStatement(
  'imap-mailbox-state',
  `SELECT id, uid_validity, uid_next, highest_modseq, total_count, unread_count
     FROM mailboxes WHERE id = $1 AND user_id = $2 AND NOT locked`,
);

interface StateRow {
  id: number;
  uid_validity: string;
  uid_next: string;
  highest_modseq: string;
  total_count: number;
  unread_count: number;
}

/** The numbers of a user's visible mailbox; undefined when it is gone or locked. */
export async function imapMailboxState(db: Database, userId: number, mailboxId: number): Promise<ImapMailboxState | undefined> {
  const { rows } = await db.sql.query<StateRow>({ ...STATE, values: [mailboxId, userId] });
  const row = rows[0];
  if (!row) return undefined;
  return {
    mailboxId: row.id,
    uidValidity: Number(row.uid_validity),
    uidNext: Number(row.uid_next),
    highestModseq: Number(row.highest_modseq),
    messages: row.total_count,
    unseen: row.unread_count,
  };
}
