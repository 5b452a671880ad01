import type { Logger } from 'pino';
import { isAutoSubmitted, REDIRECT_TRACE_HEADER, type MailRedirector } from '@letterbox/sending';
import type { BlobStore } from '@letterbox/storage';
import type { IngestBatch, IngestItem } from '../ingest-batch';
import type { IngestStage } from '../ingest-stage';
import { readMessageHeaders } from '../message-headers';

/**
 * Sends each message on to the addresses its recipients' rules redirect it to (MailRedirector: their
 * sends, with an SRS envelope sender), once it is stored for those who keep it and before its storing is
 * remembered: a redirect that cannot be queued fails the message's job, whose retry stores nothing twice
 * and queues each redirect once (its send's idempotency key), so a mail redirected and not kept is never lost.
 */
export class RedirectStage implements IngestStage {
  readonly name = 'redirect';

  constructor(
    private readonly blobs: BlobStore,
    private readonly redirector: MailRedirector,
    private readonly logger: Logger,
  ) {}

  async run(batch: IngestBatch): Promise<void> {
    const items = batch.ongoing.filter((item) => item.prepared && [...(item.rules?.values() ?? [])].some((outcome) => outcome.redirects?.length));
    await Promise.all(
      items.map((item) => this.redirect(item).catch((error: unknown) => batch.fail(item, error instanceof Error ? error : new Error(String(error))))),
    );
  }

  private async redirect(item: IngestItem): Promise<void> {
    const { message, prepared } = item;
    if (!prepared) return;
    const headers = await readMessageHeaders(item, this.blobs, this.logger, 'and not redirected');
    const mail = {
      inboundId: message.inboundId,
      storageKey: message.storageKey,
      size: message.size,
      subject: prepared.summary.subject,
      envelopeFrom: (message.peer?.mailFrom ?? '').trim(),
      hops: headers?.header(REDIRECT_TRACE_HEADER).length ?? 0,
      // Headers that cannot be read might have said so: such a mail is taken as automatic.
      autoSubmitted: headers ? isAutoSubmitted(headers.header('auto-submitted')) : true,
    };
    for (const [userId, outcome] of item.rules ?? []) {
      if (!outcome.redirects?.length) continue;
      for (const result of await this.redirector.redirect(userId, mail, outcome.redirects)) {
        const log = { inboundId: message.inboundId, userId };
        if (result.redirected) this.logger.info(log, `${message.inboundId}: redirected to ${result.to} by the rules of user ${userId}`);
        else this.logger.warn(log, `${message.inboundId}: not redirected to ${result.to} by the rules of user ${userId}: ${result.because}`);
      }
    }
  }
}
