import type { Prisma } from '@letterbox/db';

/**
 * The statement that flags the mails a send answers: `answers` is a relation (a subquery)
 * with `mail_id`, `user_id`, and booleans `replied` and `forwarded`. A flag once set stays.
 */
export function markAnsweredSql(answers: string): string {
  return `UPDATE mails m SET answered = m.answered OR a.replied, forwarded = m.forwarded OR a.forwarded
    FROM ${answers} a
   WHERE m.id = a.mail_id AND m.user_id = a.user_id`;
}

/** Puts a send's Sent copy back in the user's Drafts, as an undone send does, in the caller's transaction. */
export async function returnSentCopyToDrafts(tx: Prisma.TransactionClient, userId: number, mailId: bigint): Promise<void> {
  const drafts = await tx.mailbox.findFirstOrThrow({ where: { userId, role: 'drafts' }, select: { id: true } });
  await tx.mail.update({ where: { id: mailId }, data: { mailboxId: drafts.id } });
}
