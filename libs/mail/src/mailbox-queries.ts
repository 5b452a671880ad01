import type { Pool } from 'pg';
import { MAILBOX_COLUMNS, mapMailboxRow, type MailboxRow, type MailboxView } from './mail-views';

export interface MailboxCounters {
  id: number;
  name: string;
  role: string;
  locked: boolean;
  totalCount: number;
  unreadCount: number;
}

const ROLE_ORDER = `CASE role WHEN 'inbox' THEN 0 WHEN 'sent' THEN 1 WHEN 'drafts' THEN 2 WHEN 'spam' THEN 3 WHEN 'trash' THEN 4 ELSE 5 END`;

export class MailboxQueries {
  constructor(private readonly sql: Pool) {}

  async list(userId: number): Promise<MailboxView[]> {
    const { rows } = await this.sql.query<MailboxRow>({
      name: 'mailboxes-list',
      text: `SELECT ${MAILBOX_COLUMNS} FROM mailboxes WHERE user_id = $1 ORDER BY ${ROLE_ORDER}, name`,
      values: [userId],
    });
    return rows.map(mapMailboxRow);
  }

  /** Every mailbox of the user with its lock state and counters: one small indexed read. */
  async counters(userId: number): Promise<MailboxCounters[]> {
    const { rows } = await this.sql.query<{ id: number; name: string; role: string; locked: boolean; total_count: number; unread_count: number }>({
      name: 'mailboxes-counters',
      text: 'SELECT id, name, role, locked, total_count, unread_count FROM mailboxes WHERE user_id = $1',
      values: [userId],
    });
    return rows.map((row) => ({ id: row.id, name: row.name, role: row.role, locked: row.locked, totalCount: row.total_count, unreadCount: row.unread_count }));
  }
}
