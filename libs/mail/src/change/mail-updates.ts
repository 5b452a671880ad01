import { Prisma, type Database } from '@letterbox/db';
import { MailboxDeletedError, MailboxLockedError, MailboxNotFoundError, MailNotFoundError } from '../mail-errors';

export interface MailChanges {
  seen?: boolean;
  flagged?: boolean;
  important?: boolean;
  /** Move to this mailbox. */
  mailboxId?: number;
}

export interface MailState {
  id: number;
  mailboxId: number;
  seen: boolean;
  flagged: boolean;
  important: boolean;
  deleted: boolean;
}

/** Flag changes, moves and deletes of one user's mail; mailbox counters follow by trigger. */
export class MailUpdates {
  constructor(private readonly db: Database) {}

  async change(userId: number, mailId: number, changes: MailChanges): Promise<MailState> {
    if (changes.mailboxId !== undefined) await this.usableMailbox(userId, changes.mailboxId);
    await this.unlockedMail(userId, mailId);
    return this.update(userId, mailId, changes);
  }

  /** Moves the mail to the trash, or, when it is already there, deletes it for good (softly). */
  async delete(userId: number, mailId: number): Promise<MailState> {
    const mailbox = await this.unlockedMail(userId, mailId);
    if (mailbox.role === 'trash') return this.update(userId, mailId, { deletedAt: new Date() });
    const trash = await this.db.prisma.mailbox.findFirst({ where: { userId, role: 'trash' }, select: { id: true } });
    if (!trash) throw new Error(`user ${userId} has no trash mailbox`);
    return this.change(userId, mailId, { mailboxId: trash.id });
  }

  /**
   * A mail deleted by a concurrent request since it was checked is not found, not a fault;
   * a folder deleted since it was checked (the foreign key on mailbox_id) is a conflict.
   */
  private async update(userId: number, mailId: number, data: MailChanges & { deletedAt?: Date }): Promise<MailState> {
    try {
      const mail = await this.db.prisma.mail.update({
        where: { id: BigInt(mailId), userId, deletedAt: null },
        data,
        select: STATE_COLUMNS,
      });
      return toState(mail);
    } catch (error) {
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2025') throw new MailNotFoundError(mailId);
      if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === 'P2003' && data.mailboxId !== undefined)
        throw new MailboxDeletedError(data.mailboxId);
      throw error;
    }
  }

  private async unlockedMail(userId: number, mailId: number) {
    const mail = await this.db.prisma.mail.findFirst({
      where: { id: BigInt(mailId), userId, deletedAt: null },
      select: { mailbox: { select: { id: true, locked: true, role: true } } },
    });
    if (!mail) throw new MailNotFoundError(mailId);
    if (mail.mailbox.locked) throw new MailboxLockedError(mail.mailbox.id);
    return mail.mailbox;
  }

  private async usableMailbox(userId: number, mailboxId: number): Promise<void> {
    const mailbox = await this.db.prisma.mailbox.findFirst({ where: { id: mailboxId, userId }, select: { locked: true } });
    if (!mailbox) throw new MailboxNotFoundError(mailboxId);
    if (mailbox.locked) throw new MailboxLockedError(mailboxId);
  }
}

const STATE_COLUMNS = { id: true, mailboxId: true, seen: true, flagged: true, important: true, deletedAt: true } as const;

function toState(mail: { id: bigint; mailboxId: number; seen: boolean; flagged: boolean; important: boolean; deletedAt: Date | null }): MailState {
  return {
    id: Number(mail.id),
    mailboxId: mail.mailboxId,
    seen: mail.seen,
    flagged: mail.flagged,
    important: mail.important,
    deleted: mail.deletedAt !== null,
  };
}
