import { bulkChangeEvents, type MailAnnouncer } from '@letterbox/events';
import type { BulkAction, BulkMailChanges, BulkOutcome, MailSelection } from './bulk-mail-changes';
import type { PerUserLimit } from '../heavy-reads/per-user-limit';

/**
 * A user's change to many mails at once, announced once committed: an event per change set.
 * A change of every mail a filter matches may take a hundred thousand: it counts against the
 * user's limit of heavy reads.
 */
export class ChangeMailsInBulk {
  constructor(
    private readonly changes: BulkMailChanges,
    private readonly announcer: MailAnnouncer,
    private readonly heavyReads: PerUserLimit,
  ) {}

  async apply(userId: number, selection: MailSelection, action: BulkAction): Promise<BulkOutcome> {
    const change = () => this.changes.apply(userId, selection, action);
    const outcome = await ('filter' in selection ? this.heavyReads.run(userId, change) : change());
    await this.announcer.announce(bulkChangeEvents(outcome.updated, outcome.deleted, outcome.changes).map((event) => ({ userId, event })));
    return outcome;
  }
}
