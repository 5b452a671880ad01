import { bulkChangeEvents, type MailAnnouncer } from '@letterbox/events';
import type { BulkAction, BulkMailChanges, BulkOutcome, MailSelection } from './bulk-mail-changes';

/** A user's change to many mails at once, announced once committed: an event per change set. */
export class ChangeMailsInBulk {
  constructor(
    private readonly changes: BulkMailChanges,
    private readonly announcer: MailAnnouncer,
  ) {}

  async apply(userId: number, selection: MailSelection, action: BulkAction): Promise<BulkOutcome> {
    const outcome = await this.changes.apply(userId, selection, action);
    await this.announcer.announce(bulkChangeEvents(outcome.updated, outcome.deleted, outcome.changes).map((event) => ({ userId, event })));
    return outcome;
  }
}
