import type { Logger } from 'pino';
import type { Pool } from 'pg';
import { prepareMail } from '@letterbox/mail';
import { BOUNCE_READ_BYTES, looksLikeSrsAddress, type IncomingBounces } from '@letterbox/sending';
import type { BlobStore } from '@letterbox/storage';
import type { InboundMailRow } from '../../inbound-batch-insert';
import { insertInboundInPieces } from '../../inbound-batch-pieces';
import type { IntakeSpool } from '../../intake-spool';
import { readSpooled } from '../../prepare-accepted';
import type { IngestBatch, IngestItem } from '../ingest-batch';
import type { IngestStage } from '../ingest-stage';

/**
 * Reads the bounces among the messages (those the intake took for a send's bounce address):
 * each recipient it reports becomes bounced or delayed, and the sender's notices are stored
 * in their Inbox with the batch's other mail (announced by the announce stage). Only a
 * bounce's first BOUNCE_READ_BYTES are read. The bounce itself is stored for no one. One
 * that fails (its bytes unreadable, the database refusing it) fails alone; all of it repeats
 * safely (see IncomingBounces).
 */
export class BounceStage implements IngestStage {
  readonly name = 'bounce';

  constructor(
    private readonly sql: Pool,
    private readonly blobs: BlobStore,
    private readonly spool: IntakeSpool | undefined,
    private readonly bounces: IncomingBounces,
    private readonly logger: Logger,
  ) {}

  async run(batch: IngestBatch): Promise<void> {
    // A redirect's SRS address is the SRS return stage's.
    const items = batch.ongoing.filter((item) => item.message.bounceTo?.some((address) => !looksLikeSrsAddress(address)));
    if (items.length === 0) return;
    const spooled = await readSpooled(
      items.map((item) => item.message),
      this.spool,
    );
    await Promise.all(
      items.map((item, position) =>
        this.receive(item, spooled[position]).catch((error: unknown) => batch.fail(item, error instanceof Error ? error : new Error(String(error)))),
      ),
    );
  }

  private async receive(item: IngestItem, spooled: Buffer | Error | undefined): Promise<void> {
    const { message } = item;
    if (spooled instanceof Error) throw spooled;
    const bytes = spooled ?? (await this.blobs.readRanges(message.storageKey, [{ start: 0, end: Math.min(message.size, BOUNCE_READ_BYTES) }]))[0];
    const rows: InboundMailRow[] = [];
    for (const bounceAddress of (message.bounceTo ?? []).filter((address) => !looksLikeSrsAddress(address))) {
      for (const notice of await this.bounces.receive(bounceAddress, bytes, message.inboundId)) {
        const prepared = await prepareMail(this.blobs, notice.eml);
        rows.push({
          inboundId: message.inboundId,
          userId: notice.userId,
          dedupKey: notice.dedupKey,
          messageId: prepared.messageId,
          receivedAt: new Date(),
          prepared,
          mailbox: 'inbox',
        });
      }
    }
    const stored = await insertInboundInPieces(this.sql, rows, (row, error) =>
      this.logger.error({ inboundId: row.inboundId, userId: row.userId, err: error }, `the bounce notice of ${row.inboundId} was stored bare`),
    );
    item.stored.push(...stored);
  }
}
