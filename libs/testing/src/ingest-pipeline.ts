import { loadConfig, redisConfig } from '@letterbox/config';
import type { Database } from '@letterbox/db';
import { createJobQueues, type JobQueues } from '@letterbox/queue';

/** Producer-side queues of the namespace, to add jobs or look at those the pipeline added. */
export function testQueues(queuePrefix: string): JobQueues {
  return createJobQueues({ ...loadConfig(redisConfig), QUEUE_PREFIX: queuePrefix });
}

/** The user's inbox: how many mails, and how many of each Message-ID. */
export async function inboxOf(db: Database, userId: number): Promise<{ total: number; unread: number; messageIds: Map<string, number> }> {
  const { rows } = await db.sql.query<{ message_id: string; copies: number }>(
    `SELECT m.message_id, count(*)::int AS copies FROM mails m JOIN mailboxes b ON b.id = m.mailbox_id
      WHERE m.user_id = $1 AND b.role = 'inbox' GROUP BY m.message_id`,
    [userId],
  );
  const counters = await db.sql.query<{ total_count: number; unread_count: number }>(
    `SELECT total_count, unread_count FROM mailboxes WHERE user_id = $1 AND role = 'inbox'`,
    [userId],
  );
  return {
    total: counters.rows[0].total_count,
    unread: counters.rows[0].unread_count,
    messageIds: new Map(rows.map((row) => [row.message_id, row.copies])),
  };
}
