import type { Logger } from 'pino';
import type { Pool } from 'pg';
import type { InboundMailRow } from '../../inbound-batch-insert';
import { insertInboundInPieces } from '../../inbound-batch-pieces';
import { mailboxOf, type IngestBatch, type IngestItem } from '../ingest-batch';
import type { IngestStage } from '../ingest-stage';

/**
 * Stores the parsed messages in their recipients' inboxes (or Spam, as the intake's checks or the spam stage decided; or the
 * folder their rules chose, with the flags they set, and not at all for a recipient whose rules discarded it) with one statement (one
 * transaction, one round trip): a pair stored before, by any worker, is skipped. A
 * message whose values PostgreSQL refuses is found by halving the batch and stored bare
 * (it was acknowledged; its EML is in storage, whole), all in the same attempt. Each
 * message gets the mails its acceptance has stored, now or in an earlier attempt, so a
 * retry announces them still.
 */
export class StoreStage implements IngestStage {
  readonly name = 'store';

  constructor(
    private readonly sql: Pool,
    private readonly logger: Logger,
  ) {}

  async run(batch: IngestBatch): Promise<void> {
    const rows: InboundMailRow[] = [];
    const itemOf = new Map<string, IngestItem>();
    for (const item of batch.ongoing) {
      const { message, prepared } = item;
      if (!prepared) continue;
      itemOf.set(message.inboundId, item);
      const receivedAt = new Date(message.receivedAt);
      for (const { userId, dedupKey } of item.recipients) {
        const filed = item.rules?.get(userId);
        if (filed?.discarded) continue;
        rows.push({
          inboundId: message.inboundId,
          userId,
          dedupKey,
          messageId: message.messageId,
          receivedAt,
          prepared,
          authentication: message.authentication,
          mailbox: mailboxOf(item, userId),
          spam: item.spam?.verdict,
          filed,
        });
      }
    }
    const stored = await insertInboundInPieces(this.sql, rows, (row, error) =>
      this.logger.error(
        { inboundId: row.inboundId, userId: row.userId, err: error },
        `${row.inboundId} for user ${row.userId} stored bare, its values could not be`,
      ),
    );
    for (const mail of stored) itemOf.get(mail.inboundId)?.stored.push(mail);
  }
}
