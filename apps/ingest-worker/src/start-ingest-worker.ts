import { createDatabase } from '@letterbox/db';
import { UserEvents } from '@letterbox/events';
import {
  DatabaseBlobReferences,
  InboundAcceptances,
  InboundBatchStore,
  IngestedMessages,
  type AnnounceStoredMail,
  type IngestOutcome,
  type IngestPayload,
} from '@letterbox/ingest';
import { BatchCollector, JobQueues, producerConnection, startJobWorker, workerConnection } from '@letterbox/queue';
import { BlobCollector, BlobStore } from '@letterbox/storage';
import type { IngestWorkerConfig } from './ingest-worker.config';

export interface RunningIngestWorker {
  /** Finishes the batches in flight (their jobs complete or go back to the queue), then closes every connection. */
  close(): Promise<void>;
}

/** Consumes accepted incoming mail in batches, and removes the blobs nothing refers to, until closed. */
export async function startIngestWorker(config: IngestWorkerConfig): Promise<RunningIngestWorker> {
  const db = createDatabase({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, applicationName: 'letterbox-ingest-worker' });
  const blobs = new BlobStore(config.STORAGE_DIR, config.STORAGE_COMPRESS);
  const commands = workerConnection(config.REDIS_URL);
  const queues = new JobQueues(producerConnection(config.REDIS_URL), config.QUEUE_PREFIX);
  const events = new UserEvents(commands, config.QUEUE_PREFIX);
  // Both repeat safely: notification jobs are keyed by mail, and a repeated live event only makes the webmail refetch.
  const announce: AnnounceStoredMail = async (mails) => {
    await Promise.all([
      queues.enqueueAll(
        'notify-new-mail',
        mails.map(({ userId, mailId, from, subject }) => ({ userId, mailId, from, subject })),
      ),
      events.publishAll(mails.map(({ userId, mailId, mailboxId }) => ({ userId, event: { type: 'mail.created', mailId, mailboxId } }))),
    ]);
  };
  const store = new InboundBatchStore(db.sql, blobs, new IngestedMessages(commands, config.QUEUE_PREFIX), announce, (row, error) =>
    console.error(`[ingest] ${row.inboundId} for user ${row.userId} stored bare, its values could not be: ${error.message}`),
  );
  const acceptances = new InboundAcceptances(db.sql, queues);
  const batches = new BatchCollector<IngestPayload, IngestOutcome>(async (payloads) => {
    const outcomes = await store.store(payloads);
    await acceptances.forget(payloads.filter((_, index) => !(outcomes[index] instanceof Error)).map((payload) => payload.inboundId));
    return outcomes;
  }, {
    maxSize: config.INGEST_BATCH_SIZE,
    maxWaitMs: config.INGEST_BATCH_WAIT_MS,
  });
  const worker = startJobWorker(
    'mail-ingest',
    {
      'ingest-mail': async (payload) => {
        await batches.add(payload);
      },
    },
    config.REDIS_URL,
    {
      prefix: config.QUEUE_PREFIX,
      concurrency: config.INGEST_CONCURRENCY ?? 2 * config.INGEST_BATCH_SIZE,
      lockDuration: config.INGEST_LOCK_MS,
      stalledInterval: config.INGEST_LOCK_MS,
      // A crash returns its batch to the queue; accepted mail must survive several in a row.
      maxStalledCount: 10,
    },
  );
  worker.on('error', (error) => console.error(`[ingest] worker: ${error.message}`));
  worker.on('failed', (job, error) => console.error(`[ingest] ${job?.id ?? 'job'} attempt ${job?.attemptsMade ?? '?'}: ${error.message}`));
  await worker.waitUntilReady();
  const sweeping = setInterval(() => {
    acceptances.sweep().catch((error: unknown) => console.error(`[ingest] acceptance sweep failed: ${(error as Error).message}`));
  }, config.INGEST_SWEEP_MS);
  const collector = new BlobCollector(blobs, new DatabaseBlobReferences(db.sql), { graceMs: config.BLOB_GRACE_MS, batchSize: config.BLOB_SWEEP_BATCH });
  let collection: Promise<unknown> = Promise.resolve();
  const collecting = setInterval(() => {
    collection = collector.sweep().catch((error: unknown) => console.error(`[blobs] collection failed: ${(error as Error).message}`));
  }, config.BLOB_SWEEP_MS);
  return {
    async close() {
      clearInterval(sweeping);
      clearInterval(collecting);
      // A removal cut short would be safe (the next sweep finishes it); its queries on the closed pool would only fail.
      await collection;
      await worker.close();
      await queues.close();
      commands.disconnect();
      await db.close();
    },
  };
}
