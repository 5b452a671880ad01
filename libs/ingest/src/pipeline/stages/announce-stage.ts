import type { Logger } from 'pino';
import { mailCreatedEvents, type MailAnnouncer } from '@letterbox/events';
import { withRequestId } from '@letterbox/observability';
import type { JobQueues } from '@letterbox/queue';
import { mailboxOf, type IngestBatch } from '../ingest-batch';
import type { IngestStage } from '../ingest-stage';

/**
 * Tells the recipients about their stored mail: a push notification (a job for the notify
 * worker; none for mail put in Spam) and a live event for each, once their writes are recorded, since both make a
 * client fetch the new mail, which it must find even on a replica. Each stored mail is
 * logged under the request that brought it. Both repeat safely: notification jobs are
 * keyed by mail, and a repeated live event only makes the webmail refetch; so a failure
 * fails the batch, whose retry announces its mail again.
 */
export class AnnounceStage implements IngestStage {
  readonly name = 'announce';

  constructor(
    private readonly announcer: MailAnnouncer,
    private readonly queues: JobQueues,
    private readonly logger: Logger,
  ) {}

  async run(batch: IngestBatch): Promise<void> {
    const stored = batch.ongoing.flatMap((item) =>
      item.stored.map((mail) => ({ ...mail, requestId: item.message.requestId, spam: mailboxOf(item, mail.userId) === 'spam' })),
    );
    for (const mail of stored) {
      withRequestId(mail.requestId ?? mail.inboundId, () =>
        this.logger.info(
          { inboundId: mail.inboundId, userId: mail.userId, mailId: mail.mailId, storedNow: mail.storedNow },
          `mail ${mail.mailId} stored for user ${mail.userId}`,
        ),
      );
    }
    await this.announcer.announceOrThrow(mailCreatedEvents(stored), () =>
      this.queues.enqueueAll(
        'notify-new-mail',
        // Mail put in Spam is not pushed: a notification would show a forged colleague's name as theirs, or junk.
        stored.filter(({ spam }) => !spam).map(({ userId, mailId, from, subject, requestId }) => ({ userId, mailId, from, subject, requestId })),
      ),
    );
  }
}
