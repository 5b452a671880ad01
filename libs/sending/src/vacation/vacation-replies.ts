import type { Pool } from 'pg';
import { namedStatement } from '@letterbox/db';

// The claim and its test in one statement: of two workers answering the same sender at once, one gets the row.
const CLAIM = namedStatement(
  'vacation-replies-claim',
  `INSERT INTO vacation_replies (user_id, sender) VALUES ($1, $2)
   ON CONFLICT (user_id, sender) DO UPDATE SET replied_at = now()
   WHERE vacation_replies.replied_at < now() - make_interval(days => $3)
   RETURNING user_id`,
);

/** Claims the reply to a sender: true when none went to them in the last `days`, and now one is owed. */
export async function claimVacationReply(sql: Pool, userId: number, sender: string, days: number): Promise<boolean> {
  const { rowCount } = await sql.query({ ...CLAIM, values: [userId, sender.toLowerCase(), days] });
  return (rowCount ?? 0) > 0;
}
