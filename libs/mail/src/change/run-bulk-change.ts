import { bulkChangeEvents, type MailAnnouncer } from '@letterbox/events';
import type { JobAttempt, JobOutcome } from '@letterbox/queue';
import { MailboxDeletedError, MailboxLockedError, MailboxNotFoundError } from '../mail-errors';
import type { BulkChangeSlices } from './bulk-change-slices';
import type { BulkChanges } from './bulk-changes';

/**
 * Runs a change over a filter to its end, slice after slice (BulkChangeSlices), each
 * announced once committed, so the user's lists follow as it goes. A change the user's
 * folders no longer allow (the folder it moves mail to deleted, its folder locked) fails
 * for good with the reason; any other error is retried by the job, from the last committed
 * slice, and fails the change once no attempt is left.
 */
export class RunBulkChange {
  constructor(
    private readonly slices: BulkChangeSlices,
    private readonly changes: BulkChanges,
    private readonly announcer: MailAnnouncer,
  ) {}

  /** The `bulk-change` job's handler. */
  async job({ changeId, userId }: { changeId: number; userId: number }, attempt: Pick<JobAttempt<unknown>, 'final'>): Promise<JobOutcome<never>> {
    try {
      await this.run(changeId, userId);
      return { outcome: 'done' };
    } catch (error) {
      if (error instanceof MailboxDeletedError || error instanceof MailboxNotFoundError || error instanceof MailboxLockedError) {
        await this.changes.fail(changeId, error.message);
        return { outcome: 'failed', reason: error.message };
      }
      if (attempt.final) await this.changes.fail(changeId, error instanceof Error ? error.message : String(error));
      throw error;
    }
  }

  /** Slices until the change is finished. */
  async run(changeId: number, userId: number): Promise<void> {
    for (;;) {
      const slice = await this.slices.next(changeId);
      await this.announcer.announce(bulkChangeEvents(slice.updated, slice.deleted, slice.changes).map((event) => ({ userId, event })));
      if (slice.finished) return;
    }
  }
}
