import type { IngestedMessages } from '../../ingested-messages';
import type { IngestBatch } from '../ingest-batch';
import type { IngestStage } from '../ingest-stage';

/** Remembers in Redis the pairs just stored, for the dedup stage of the batches to come. */
export class RememberStage implements IngestStage {
  readonly name = 'remember';

  constructor(private readonly ingested: IngestedMessages) {}

  async run(batch: IngestBatch): Promise<void> {
    await this.ingested.remember(
      batch.ongoing.flatMap(({ message, recipients }) => recipients.map((recipient) => ({ ...recipient, inboundId: message.inboundId }))),
    );
  }
}
