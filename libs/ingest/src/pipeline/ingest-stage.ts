import type { IngestBatch } from './ingest-batch';

/**
 * One step every accepted message goes through between its acceptance and its announcement.
 * A stage works on the batch's ongoing messages together (one query, one round trip for
 * all of them, not one each), records what it finds on each, and fails a message of its
 * own with `batch.fail` rather than throwing: only a failure that is not one message's (the
 * database or Redis away) is thrown, and fails the whole batch, whose jobs are retried. A
 * batch may be run again after a crash, so a stage must be safe to repeat.
 */
export interface IngestStage {
  /** As logs and tests name it. */
  readonly name: string;
  run(batch: IngestBatch): Promise<void>;
}
