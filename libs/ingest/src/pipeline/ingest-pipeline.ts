import { IngestBatch, type IngestMessage, type IngestOutcome } from './ingest-batch';
import type { IngestStage } from './ingest-stage';

/**
 * Stores accepted messages as mail, each once per recipient, by running a batch of them
 * through its stages in order (listed in ingest-pipeline-stages.ts). A message a stage
 * fails goes no further, and its outcome is its error; the rest of its batch goes on. A
 * stage that throws fails the whole batch. Either way the jobs complete only after the
 * last stage, so a crash anywhere before leaves them to be retried, and the retry stores
 * nothing twice.
 */
export class IngestPipeline {
  constructor(private readonly stages: readonly IngestStage[]) {}

  async run(messages: IngestMessage[]): Promise<Array<IngestOutcome | Error>> {
    const batch = new IngestBatch(messages);
    for (const stage of this.stages) await stage.run(batch);
    return batch.outcomes();
  }
}
