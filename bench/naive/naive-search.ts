import type { Pool } from 'pg';
import { mapSummaryRow, SUMMARY_COLUMNS, type SummaryRow } from '@letterbox/mail';

/**
 * Search as first written: the words as one ILIKE pattern over the stored body text
 * (a phrase matches as written), newest first, with no index that can help.
 */
export async function naiveSearch(sql: Pool, userId: number, text: string, limit: number) {
  const pattern = `%${text.replace(/[\\%_]/g, (character) => `\\${character}`)}%`;
  const { rows } = await sql.query<SummaryRow>(
    `SELECT ${SUMMARY_COLUMNS} FROM mails m JOIN mail_search s ON s.mail_id = m.id
      WHERE m.user_id = $1 AND m.deleted_at IS NULL AND s.body ILIKE $2
      ORDER BY m.received_at DESC, m.id DESC LIMIT $3`,
    [userId, pattern, limit],
  );
  return { items: rows.map(mapSummaryRow) };
}
