import type { IngestedMessages } from '../../ingested-messages';
import type { IngestBatch } from '../ingest-batch';
import type { IngestStage } from '../ingest-stage';

/**
 * Leaves each message only the recipients it is still to be stored for: Redis remembers
 * which (recipient, message) pairs an acceptance stored, so a redelivered burst is skipped
 * before its files are read or PostgreSQL is asked; a pair twice in the batch goes with
 * its first. A pair stored by this same acceptance stays: its retry announces it again.
 * PostgreSQL's unique key still decides what Redis has forgotten.
 */
export class DedupStage implements IngestStage {
  readonly name = 'dedup';

  constructor(private readonly ingested: IngestedMessages) {}

  async run(batch: IngestBatch): Promise<void> {
    const items = batch.ongoing;
    const pairs = items.flatMap((item) => item.recipients.map((recipient) => ({ item, recipient })));
    const storedBy = await this.ingested.storedBy(pairs.map(({ recipient }) => recipient));
    const claimed = new Set<string>();
    for (const item of items) item.recipients = [];
    pairs.forEach(({ item, recipient }, position) => {
      const key = `${recipient.userId} ${recipient.dedupKey}`;
      const elsewhere = storedBy[position] !== null && storedBy[position] !== item.message.inboundId;
      if (elsewhere || claimed.has(key)) return;
      claimed.add(key);
      item.recipients.push(recipient);
    });
  }
}
