import type { Database } from '@letterbox/db';
import type { JobPayloads, JobQueues } from '@letterbox/queue';
import { MailNotFoundError } from '../mail-errors';
import type { MailSelection } from './bulk-mail-changes';
import type { ChangeMail } from './change-mail';
import type { ChangeMailsInBulk } from './change-mails-in-bulk';
import type { MailState } from './mail-updates';

/** Spam, or not spam ("ham", in rspamd's words). */
type SpamReport = JobPayloads['learn-spam']['as'];

/**
 * "Report spam" and "Not spam", for one mail or many: the mail moves to the user's Spam, or
 * back to their inbox (one short transaction, announced as any move), and then a job per mail
 * teaches rspamd's Bayes classifier from it, so that no transaction waits on rspamd.
 */
export class ReportSpam {
  constructor(
    private readonly db: Database,
    private readonly changeMail: ChangeMail,
    private readonly changeInBulk: ChangeMailsInBulk,
    private readonly queues: JobQueues,
  ) {}

  async report(userId: number, mailId: number, as: SpamReport): Promise<MailState> {
    const state = await this.changeMail.change(userId, mailId, { mailboxId: await this.targetOf(userId, as) });
    if ((await this.learn(userId, [mailId], as)) === 0) throw new MailNotFoundError(mailId);
    return state;
  }

  /** Listed mails or whole conversations at once; only those that moved are learned, so a second report teaches nothing twice. */
  async reportMany(userId: number, selection: MailSelection, as: SpamReport): Promise<{ updated: number }> {
    const outcome = await this.changeInBulk.apply(userId, selection, { changes: { mailboxId: await this.targetOf(userId, as) } });
    await this.learn(userId, outcome.updated, as);
    return { updated: outcome.updated.length };
  }

  private async targetOf(userId: number, as: SpamReport): Promise<number> {
    const role = as === 'spam' ? 'spam' : 'inbox';
    const target = await this.db.prisma.mailbox.findFirst({ where: { userId, role }, select: { id: true } });
    if (!target) throw new Error(`user ${userId} has no ${role} mailbox`);
    return target.id;
  }

  /** Queues a learn-spam job per mail found; answers how many. */
  private async learn(userId: number, mailIds: number[], as: SpamReport): Promise<number> {
    if (mailIds.length === 0) return 0;
    const mails = await this.db.prisma.mail.findMany({
      where: { id: { in: mailIds.map(BigInt) }, userId },
      select: { id: true, storageKey: true, size: true },
    });
    await this.queues.enqueueAll(
      'learn-spam',
      mails.map((mail) => ({ mailId: Number(mail.id), storageKey: mail.storageKey, size: mail.size, as })),
    );
    return mails.length;
  }
}
