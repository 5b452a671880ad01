import type { MailAnnouncer } from '@letterbox/events';
import type { MailboxChanges } from './mailbox-changes';
import type { MailboxView } from '../mail-views';

/**
 * A user's changes to their mailboxes (see MailboxChanges), each announced once committed:
 * the user's other clients redraw their mailbox list on it.
 */
export class ChangeMailboxes {
  constructor(
    private readonly changes: MailboxChanges,
    private readonly announcer: MailAnnouncer,
  ) {}

  create(userId: number, name: string): Promise<MailboxView> {
    return this.announced(userId, this.changes.create(userId, name));
  }

  rename(userId: number, mailboxId: number, name: string): Promise<MailboxView> {
    return this.announced(userId, this.changes.rename(userId, mailboxId, name));
  }

  remove(userId: number, mailboxId: number): Promise<{ id: number; movedToTrash: number }> {
    return this.announced(userId, this.changes.remove(userId, mailboxId), true);
  }

  lock(userId: number, mailboxId: number): Promise<MailboxView> {
    return this.announced(userId, this.changes.lock(userId, mailboxId));
  }

  unlock(userId: number, mailboxId: number, password: string): Promise<MailboxView> {
    return this.announced(userId, this.changes.unlock(userId, mailboxId, password));
  }

  private async announced<T extends { id: number }>(userId: number, change: Promise<T>, deleted = false): Promise<T> {
    const mailbox = await change;
    await this.announcer.announce([{ userId, event: { type: 'mailbox.changed', mailboxId: mailbox.id, deleted } }]);
    return mailbox;
  }
}
