import type { Logger } from 'pino';
import type { Pool } from 'pg';
import { activeVacationsOf, repliersOf, vacationTexts, type ActiveVacation, type Replier, type VacationResponder } from '@letterbox/sending';
import type { BlobStore } from '@letterbox/storage';
import { mailboxOf, type IngestBatch, type IngestItem } from '../ingest-batch';
import type { IngestStage } from '../ingest-stage';
import { readMessageHeaders } from '../message-headers';

/**
 * Answers the mail just stored for recipients whose out-of-office reply is on, or whose Sieve script
 * asked for one (`vacation`, which comes first) (VacationResponder: the rules of RFC 3834, once
 * a sender within the reply's days), after it is announced, so a reply never delays
 * a mail. Mail put in Spam gets no reply. The replies of a batch are read in one statement; one
 * that cannot be queued is logged and not retried (the mail itself is stored and announced).
 */
export class VacationStage implements IngestStage {
  readonly name = 'vacation';

  constructor(
    private readonly sql: Pool,
    private readonly blobs: BlobStore,
    private readonly responder: VacationResponder,
    private readonly logger: Logger,
  ) {}

  async run(batch: IngestBatch): Promise<void> {
    const items = batch.ongoing.filter((item) => item.prepared && item.message.peer && answerable(item).length > 0);
    const userIds = items.flatMap((item) => answerable(item).map((mail) => mail.userId));
    const scripted = items.flatMap((item) => answerable(item).filter((mail) => item.rules?.get(mail.userId)?.vacation));
    const [settings, repliers] = await Promise.all([
      activeVacationsOf(this.sql, userIds),
      repliersOf(
        this.sql,
        scripted.map((mail) => mail.userId),
      ),
    ]);
    if (settings.size === 0 && repliers.size === 0) return;
    await Promise.all(items.map((item) => this.answer(item, (userId) => this.vacationOf(item, userId, settings, repliers))));
  }

  /** The reply a recipient's script asked for (`vacation`), else the one of their settings that is on, if any. */
  private vacationOf(item: IngestItem, userId: number, settings: Map<number, ActiveVacation>, repliers: Map<number, Replier>): ActiveVacation | undefined {
    const asked = item.rules?.get(userId)?.vacation;
    const replier = repliers.get(userId);
    if (!asked || !replier) return settings.get(userId);
    return {
      userId,
      officeId: replier.officeId,
      subject: asked.subject ?? vacationTexts(replier.language).autoSubject(item.prepared?.summary.subject ?? ''),
      text: asked.reason,
      html: null,
      days: asked.days,
      ...(asked.from ? { from: asked.from } : {}),
      moreAddresses: asked.addresses,
    };
  }

  private async answer(item: IngestItem, vacationOf: (userId: number) => ActiveVacation | undefined): Promise<void> {
    const mails = answerable(item).filter((mail) => vacationOf(mail.userId));
    if (mails.length === 0 || !item.prepared) return;
    const headers = await readMessageHeaders(item, this.blobs, this.logger, 'without out-of-office replies');
    if (!headers) return;
    const { message, prepared } = item;
    const facts = {
      header: headers.header,
      toAndCc: [...headers.addresses('to'), ...headers.addresses('cc')],
      envelopeFrom: (message.peer?.mailFrom ?? '').trim().toLowerCase(),
      inboundId: message.inboundId,
      messageId: message.messageId,
      references: prepared.summary.references,
      subject: prepared.summary.subject,
    };
    for (const mail of mails) {
      const vacation = vacationOf(mail.userId);
      if (!vacation) continue;
      try {
        const outcome = await this.responder.reply(vacation, { ...facts, mailId: mail.mailId });
        if (outcome.replied)
          this.logger.info({ inboundId: message.inboundId, userId: mail.userId }, `${message.inboundId}: out-of-office reply queued for user ${mail.userId}`);
      } catch (error) {
        this.logger.warn(
          { inboundId: message.inboundId, userId: mail.userId, err: error },
          `${message.inboundId}: the out-of-office reply of user ${mail.userId} could not be queued`,
        );
      }
    }
  }
}

/** The mails stored now for a recipient, not in Spam: those a reply may answer. */
function answerable(item: IngestItem) {
  return item.stored.filter((mail) => mail.storedNow && mailboxOf(item, mail.userId) === 'inbox');
}
