import { mailChangeEvent, type MailAnnouncer } from '@letterbox/events';
import type { MailChanges, MailState, MailUpdates } from './mail-updates';

/**
 * A user's change to one mail (flags, a move, a delete), announced once committed to the
 * user's other clients with the mail's stored value of each field it touched.
 */
export class ChangeMail {
  constructor(
    private readonly updates: MailUpdates,
    private readonly announcer: MailAnnouncer,
  ) {}

  async change(userId: number, mailId: number, changes: MailChanges): Promise<MailState> {
    const state = await this.updates.change(userId, mailId, changes);
    await this.announcer.announce([{ userId, event: mailChangeEvent(state, Object.keys(changes) as Array<keyof MailChanges>) }]);
    return state;
  }

  /** Moves the mail to the trash; a mail already in the trash is deleted. */
  async delete(userId: number, mailId: number): Promise<MailState> {
    const state = await this.updates.delete(userId, mailId);
    await this.announcer.announce([{ userId, event: mailChangeEvent(state, ['mailboxId']) }]);
    return state;
  }
}
