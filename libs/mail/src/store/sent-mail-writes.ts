import type { PoolClient } from 'pg';
import { namedStatement } from '@letterbox/db';

/** Mails that sends answer, as SQL over a relation (`from`): each row one send, `replied` and `forwarded` conditions on it. */
export interface AnsweredMailsSql {
  from: string;
  mailId: string;
  userId: string;
  replied: string;
  forwarded: string;
}

/**
 * The statement that flags the mails these sends answer (a row without a mail answers
 * none): answered for a reply, forwarded for a forward. A flag once set stays.
 */
export function markAnsweredSql({ from, mailId, userId, replied, forwarded }: AnsweredMailsSql): string {
  return `UPDATE mails m SET answered = m.answered OR a.replied, forwarded = m.forwarded OR a.forwarded
    FROM (SELECT ${mailId} AS mail_id, ${userId} AS user_id, bool_or(${replied}) AS replied, bool_or(${forwarded}) AS forwarded
            FROM ${from} WHERE ${mailId} IS NOT NULL GROUP BY 1, 2) a
   WHERE m.id = a.mail_id AND m.user_id = a.user_id`;
}

const RETURN_TO_DRAFTS = namedStatement(
  'mail-return-to-drafts',
  `UPDATE mails m SET mailbox_id = b.id FROM mailboxes b WHERE m.id = $2 AND m.user_id = $1 AND b.user_id = $1 AND b.role = 'drafts'`,
);

/** Puts a send's Sent copy back in the user's Drafts, as an undone send does, in the caller's transaction. */
export async function returnSentCopyToDrafts(client: PoolClient, userId: number, mailId: number): Promise<void> {
  const { rowCount } = await client.query({ ...RETURN_TO_DRAFTS, values: [userId, mailId] });
  if (rowCount !== 1) throw new Error(`the Sent copy ${mailId} of user ${userId} could not go back to Drafts: the mail or the mailbox is gone`);
}
