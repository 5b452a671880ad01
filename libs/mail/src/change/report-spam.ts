import type { Database } from '@letterbox/db';
import type { JobQueues } from '@letterbox/queue';
import { MailNotFoundError } from '../mail-errors';
import type { ChangeMail } from './change-mail';
import type { MailState } from './mail-updates';

/**
 * "Report spam" and "Not spam": the mail moves to the user's Spam, or back to their inbox
 * (one short transaction, announced as any move), and then a job teaches rspamd's Bayes
 * classifier from it, so that no transaction waits on rspamd.
 */
export class ReportSpam {
  constructor(
    private readonly db: Database,
    private readonly changeMail: ChangeMail,
    private readonly queues: JobQueues,
  ) {}

  async report(userId: number, mailId: number, as: 'spam' | 'ham'): Promise<MailState> {
    const target = await this.db.prisma.mailbox.findFirst({ where: { userId, role: as === 'spam' ? 'spam' : 'inbox' }, select: { id: true } });
    if (!target) throw new Error(`user ${userId} has no ${as === 'spam' ? 'spam' : 'inbox'} mailbox`);
    const state = await this.changeMail.change(userId, mailId, { mailboxId: target.id });
    const mail = await this.db.prisma.mail.findFirst({ where: { id: BigInt(mailId), userId }, select: { storageKey: true, size: true } });
    if (!mail) throw new MailNotFoundError(mailId);
    await this.queues.enqueue('learn-spam', { mailId, storageKey: mail.storageKey, size: mail.size, as });
    return state;
  }
}
