import type { Logger } from 'pino';
import { looksLikeSrsAddress, type MailRedirector } from '@letterbox/sending';
import type { BlobStore } from '@letterbox/storage';
import type { IntakeSpool } from '../../intake-spool';
import { readSpooled } from '../../prepare-accepted';
import type { IngestBatch, IngestItem } from '../ingest-batch';
import type { IngestStage } from '../ingest-stage';

/**
 * Sends the bounces of redirected mail back where it came from: a message the intake took for an SRS
 * address of ours (its hash and age checked there) goes on unchanged to the original sender the address
 * names (MailRedirector.returnBounce), put into blob storage first when it was spooled. It is stored for
 * no one. One that cannot be queued fails alone, and its retry queues it once (its send's idempotency key).
 */
export class SrsReturnStage implements IngestStage {
  readonly name = 'srs-return';

  constructor(
    private readonly blobs: BlobStore,
    private readonly spool: IntakeSpool | undefined,
    private readonly redirector: MailRedirector,
    private readonly logger: Logger,
  ) {}

  async run(batch: IngestBatch): Promise<void> {
    const items = batch.ongoing.filter((item) => item.message.bounceTo?.some(looksLikeSrsAddress));
    if (items.length === 0) return;
    const spooled = await readSpooled(
      items.map((item) => item.message),
      this.spool,
    );
    await Promise.all(
      items.map((item, position) =>
        this.returnBounce(item, spooled[position]).catch((error: unknown) => batch.fail(item, error instanceof Error ? error : new Error(String(error)))),
      ),
    );
  }

  private async returnBounce(item: IngestItem, spooled: Buffer | Error | undefined): Promise<void> {
    const { message } = item;
    if (spooled instanceof Error) throw spooled;
    if (spooled) await this.blobs.put(spooled);
    const mail = { inboundId: message.inboundId, storageKey: message.storageKey, size: message.size, subject: 'Returned mail' };
    for (const address of (message.bounceTo ?? []).filter(looksLikeSrsAddress)) {
      const outcome = await this.redirector.returnBounce(address, mail);
      const log = { inboundId: message.inboundId };
      if ('returnedTo' in outcome) this.logger.info(log, `${message.inboundId}: a bounce of a redirected mail, sent back to ${outcome.returnedTo}`);
      else this.logger.warn(log, `${message.inboundId}: a bounce to an SRS address dropped: ${outcome.because}`);
    }
  }
}
