import type { BlobStore } from '@letterbox/storage';
import type { IntakeSpool } from '../../intake-spool';
import { prepareAccepted, readSpooled } from '../../prepare-accepted';
import type { IngestBatch } from '../ingest-batch';
import type { IngestStage } from '../ingest-stage';

/**
 * Reads and parses each message with recipients left, once however many it has, outside
 * any transaction: the spooled ones from the intake's spool files (each file read once for
 * the batch), put into blob storage first, durably, so no mail refers to a blob not on
 * disk, and kept for the later stages; the others from blob storage. A message that cannot
 * be read fails alone.
 */
export class ParseStage implements IngestStage {
  readonly name = 'parse';

  constructor(
    private readonly blobs: BlobStore,
    /** The intake's spool, on disk storage only. */
    private readonly spool: IntakeSpool | undefined,
  ) {}

  async run(batch: IngestBatch): Promise<void> {
    const items = batch.ongoing.filter((item) => item.recipients.length > 0);
    const spooled = await readSpooled(
      items.map((item) => item.message),
      this.spool,
    );
    await Promise.all(
      items.map((item, position) =>
        prepareAccepted(item.message, spooled[position], this.blobs).then(
          (prepared) => {
            item.prepared = prepared;
            const bytes = spooled[position];
            if (bytes instanceof Buffer) item.spooled = bytes;
          },
          (error: unknown) => batch.fail(item, error instanceof Error ? error : new Error(String(error))),
        ),
      ),
    );
  }
}
