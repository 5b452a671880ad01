import type { Pool, PoolClient } from 'pg';
import { BatchedPointReads, namedStatement, type UserReads } from '@letterbox/db';
import { MAILBOX_COLUMNS, mapMailboxRow, type MailboxRow, type MailboxView } from '../mail-views';

export interface MailboxCounters {
  id: number;
  name: string;
  role: string;
  locked: boolean;
  totalCount: number;
  unreadCount: number;
}

const ROLE_ORDER = `CASE role WHEN 'inbox' THEN 0 WHEN 'sent' THEN 1 WHEN 'drafts' THEN 2 WHEN 'spam' THEN 3 WHEN 'trash' THEN 4 ELSE 5 END`;
// The version is read in the statement that reads the mailboxes: one snapshot, so the list is the version's.
const LIST = namedStatement(
  'mailboxes-list',
  `SELECT ${MAILBOX_COLUMNS}, (SELECT mailbox_version FROM users WHERE id = $1) AS version FROM mailboxes WHERE user_id = $1 ORDER BY ${ROLE_ORDER}, name`,
);
const VERSIONS = namedStatement('mailboxes-versions', 'SELECT id, mailbox_version AS version FROM users WHERE id = ANY($1::int[])');
const COUNTERS = namedStatement('mailboxes-counters', `SELECT ${MAILBOX_COLUMNS} FROM mailboxes WHERE user_id = $1`);
const COUNTERS_OF_USERS = namedStatement('mailboxes-counters-of-users', `SELECT user_id, ${MAILBOX_COLUMNS} FROM mailboxes WHERE user_id = ANY($1::int[])`);

/**
 * The user's mailboxes as of one version of them (users.mailbox_version, moved on by every change to
 * them or their counts in the change's own transaction); `items` left out when the caller holds them.
 */
export type VersionedMailboxes = { version: string; items: MailboxView[] } | { version: string; unchanged: true };

/** Lists remembered, by user: a version's list never changes, so one read of the version tells whether it is still the list. */
const REMEMBERED_LISTS = 10_000;

/** The mailbox list and counters, from the pool the user's reads may use (UserReads). */
export class MailboxQueries {
  /** Every request reads the version, the webmail's many revalidations together (BatchedPointReads). */
  private readonly versions = new BatchedPointReads<number, { id: number; version: string }>(VERSIONS, (row) => row.id);
  /** The last list read of each user, with its version; the one set first is forgotten first. */
  private readonly lists = new Map<number, { version: string; items: MailboxView[] }>();

  constructor(private readonly reads: UserReads) {}

  /**
   * The list and its version, the version read from the database on every call. When `held(version)` says the
   * caller has the list of the current version, or this process read that version's list before, the version
   * is all that is read (one row, not the counters).
   */
  async list(userId: number, held?: (version: string) => boolean): Promise<VersionedMailboxes> {
    const sql = await this.reads.poolFor(userId);
    const remembered = this.lists.get(userId);
    if (held || remembered) {
      const [row] = await this.versions.read(sql, userId);
      if (row && held?.(row.version)) return { version: row.version, unchanged: true };
      if (row && remembered?.version === row.version) return { version: row.version, items: remembered.items };
    }
    const { rows } = await sql.query<MailboxRow & { version: string }>({ ...LIST, values: [userId] });
    // No mailboxes (the account removed meanwhile) leaves no version to read: the empty list is its own.
    if (rows.length === 0) return { version: 'none', items: [] };
    const answer = { version: rows[0].version, items: rows.map(mapMailboxRow) };
    this.remember(userId, answer);
    return answer;
  }

  async counters(userId: number): Promise<MailboxCounters[]> {
    return mailboxCounters(await this.reads.poolFor(userId), userId);
  }

  private remember(userId: number, list: { version: string; items: MailboxView[] }): void {
    this.lists.delete(userId);
    if (this.lists.size >= REMEMBERED_LISTS) this.lists.delete(this.lists.keys().next().value as number);
    this.lists.set(userId, list);
  }
}

/** Every mailbox of the user with its lock state and counters: one small indexed read. */
export async function mailboxCounters(sql: Pool | PoolClient, userId: number): Promise<MailboxCounters[]> {
  const { rows } = await sql.query<MailboxRow>({ ...COUNTERS, values: [userId] });
  return rows.map(countersOf);
}

const countersOfUsers = new BatchedPointReads<number, MailboxRow & { user_id: number }>(COUNTERS_OF_USERS, (row) => row.user_id);

/**
 * The same, read together with the other requests' of this turn of the event loop (BatchedPointReads): for the
 * lists and searches that read the counters before their one statement, many at once, never inside a transaction.
 */
export async function sharedMailboxCounters(sql: Pool, userId: number): Promise<MailboxCounters[]> {
  return (await countersOfUsers.read(sql, userId)).map(countersOf);
}

function countersOf(row: MailboxRow): MailboxCounters {
  return { id: row.id, name: row.name, role: row.role, locked: row.locked, totalCount: row.total_count, unreadCount: row.unread_count };
}
