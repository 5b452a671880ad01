import type { Pool } from 'pg';
import { mapSummaryRow, SUMMARY_COLUMNS, type SummaryRow } from '@letterbox/mail';

/** Live mail outside locked mailboxes, found by joining every mail to its mailbox. */
const VISIBLE_MAIL = `FROM mails m LEFT JOIN mailboxes mb ON mb.id = m.mailbox_id
  WHERE m.user_id = $1 AND m.deleted_at IS NULL AND (mb.locked = false OR mb.id IS NULL)`;

/**
 * The list as first written: COUNT(*) over the LEFT JOIN for the total and the page
 * through the same join, both run at once as the read API runs its two queries.
 */
export async function naiveMailPage(sql: Pool, userId: number, limit: number) {
  const [page, count] = await Promise.all([
    sql.query<SummaryRow>(`SELECT ${SUMMARY_COLUMNS} ${VISIBLE_MAIL} ORDER BY m.received_at DESC, m.id DESC LIMIT $2`, [userId, limit]),
    sql.query<{ total: string }>(`SELECT count(*) AS total ${VISIBLE_MAIL}`, [userId]),
  ]);
  return { items: page.rows.map(mapSummaryRow), total: Number(count.rows[0].total), nextCursor: null };
}
