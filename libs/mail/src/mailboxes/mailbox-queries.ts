import type { Pool, PoolClient } from 'pg';
import { namedStatement, type UserReads } from '@letterbox/db';
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
const LIST = namedStatement('mailboxes-list', `SELECT ${MAILBOX_COLUMNS} FROM mailboxes WHERE user_id = $1 ORDER BY ${ROLE_ORDER}, name`);
const COUNTERS = namedStatement('mailboxes-counters', 'SELECT id, name, role, locked, total_count, unread_count FROM mailboxes WHERE user_id = $1');

/** The mailbox list and counters, from the pool the user's reads may use (UserReads). */
export class MailboxQueries {
  constructor(private readonly reads: UserReads) {}

  async list(userId: number): Promise<MailboxView[]> {
    const sql = await this.reads.poolFor(userId);
    const { rows } = await sql.query<MailboxRow>({ ...LIST, values: [userId] });
    return rows.map(mapMailboxRow);
  }

  async counters(userId: number): Promise<MailboxCounters[]> {
    return mailboxCounters(await this.reads.poolFor(userId), userId);
  }
}

/** Every mailbox of the user with its lock state and counters: one small indexed read. */
export async function mailboxCounters(sql: Pool | PoolClient, userId: number): Promise<MailboxCounters[]> {
  const { rows } = await sql.query<{ id: number; name: string; role: string; locked: boolean; total_count: number; unread_count: number }>({
    ...COUNTERS,
    values: [userId],
  });
  return rows.map((row) => ({ id: row.id, name: row.name, role: row.role, locked: row.locked, totalCount: row.total_count, unreadCount: row.unread_count }));
}
