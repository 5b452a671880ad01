import { createDatabase, readRouting } from '@letterbox/db';
import { UserEvents } from '@letterbox/events';
import {
  DatabaseBlobReferences,
  InboundAcceptances,
  InboundBatchStore,
  IngestedMessages,
  IntakeSpool,
  ingestGroup,
  spoolFolderOf,
  type AnnounceStoredMail,
  type IngestOutcome,
} from '@letterbox/ingest';
import { loggerFor, postgresCheck, storageCheck, withRequestId } from '@letterbox/observability';
import { BatchCollector, JOB_DONE, JobQueues, startQueueWorker, workerCommandConnection, type InboundMessageJob, type JobTrace, type RunningWorker } from '@letterbox/queue';
import { failFastConnection } from '@letterbox/redis';
import { SentCopies } from '@letterbox/sending';
import { BlobCollector, createBlobStore } from '@letterbox/storage';
import type { IngestWorkerConfig } from './ingest-worker.config';

const logger = loggerFor('ingest');

/**
 * Stores mail in mailboxes until closed: accepted incoming mail, in batches, and the Sent
 * copies of recorded sends; sweeps up what Redis lost of either, and removes the blobs
 * nothing refers to.
 */
export async function startIngestWorker(config: IngestWorkerConfig): Promise<RunningWorker> {
  const db = createDatabase({
    url: config.DATABASE_URL,
    ...(config.DATABASE_READ_URL ? { readUrl: config.DATABASE_READ_URL } : {}),
    poolSize: config.DATABASE_POOL_SIZE,
    applicationName: 'letterbox-ingest-worker',
  });
  const blobs = createBlobStore(config);
  const commands = workerCommandConnection(config);
  const queues = new JobQueues(failFastConnection(config, 'redis producer'), config.QUEUE_PREFIX);
  const events = new UserEvents(commands, config.QUEUE_PREFIX);
  const writes = readRouting(db, commands, config.QUEUE_PREFIX);
  const publishCreated = (mails: Array<{ userId: number; mailId: number; mailboxId: number }>) =>
    events.publishAll(mails.map(({ userId, mailId, mailboxId }) => ({ userId, event: { type: 'mail.created', mailId, mailboxId } })));
  // A batch holds many requests' messages: each stored mail is followed under the request that brought it.
  const requestOf = new Map<string, string | undefined>();
  // Both repeat safely: notification jobs are keyed by mail, and a repeated live event only makes the webmail refetch.
  const announce: AnnounceStoredMail = async (mails) => {
    for (const mail of mails) {
      withRequestId(requestOf.get(mail.inboundId) ?? mail.inboundId, () =>
        logger.info({ inboundId: mail.inboundId, userId: mail.userId, mailId: mail.mailId, storedNow: mail.storedNow }, `mail ${mail.mailId} stored for user ${mail.userId}`),
      );
    }
    // Before the push and the live event: both make a client fetch the new mail, which it must find even on the replica.
    await writes.record([...new Set(mails.map((mail) => mail.userId))]);
    await Promise.all([
      queues.enqueueAll(
        'notify-new-mail',
        mails.map(({ inboundId, userId, mailId, from, subject }) => ({ userId, mailId, from, subject, requestId: requestOf.get(inboundId) })),
      ),
      publishCreated(mails),
    ]);
  };
  // A retried job finds its copies stored and announces nothing: a failed event is only logged, and the next refresh of a list shows them.
  const copies = new SentCopies(db, blobs, config.QUEUE_PREFIX, async (stored) => {
    await writes.record([...new Set(stored.map((copy) => copy.userId))]);
    await publishCreated(stored).catch((error: unknown) =>
      logger.warn({ err: error }, `Sent copies ${stored.map((copy) => copy.mailId).join(', ')} were not announced`),
    );
  });
  // The intake spools on disk storage only; this worker reads the same folder.
  const spool = config.STORAGE_BACKEND === 'disk' ? new IntakeSpool(spoolFolderOf(config.STORAGE_DIR)) : undefined;
  const store = new InboundBatchStore(
    db.sql,
    blobs,
    new IngestedMessages(commands, config.QUEUE_PREFIX),
    announce,
    (row, error) => logger.error({ inboundId: row.inboundId, userId: row.userId, err: error }, `${row.inboundId} for user ${row.userId} stored bare, its values could not be`),
    spool,
  );
  const acceptances = new InboundAcceptances(db.sql, queues);
  const batches = new BatchCollector<InboundMessageJob, IngestOutcome>(async (payloads) => {
    const outcomes = await store.store(payloads);
    await acceptances.forget(payloads.filter((_, index) => !(outcomes[index] instanceof Error)).map((payload) => payload.inboundId));
    return outcomes;
  }, {
    maxSize: config.INGEST_BATCH_SIZE,
    maxWaitMs: config.INGEST_BATCH_WAIT_MS,
    // One gathers while the other is written; a group's job brings up to hundreds of messages at once.
    maxInFlight: 2,
  });
  const storeOne = async (message: InboundMessageJob & JobTrace) => {
    requestOf.set(message.inboundId, message.requestId);
    try {
      return await batches.add(message);
    } finally {
      requestOf.delete(message.inboundId);
    }
  };
  const collector = new BlobCollector(blobs, new DatabaseBlobReferences(db.sql), { graceMs: config.BLOB_GRACE_MS, batchSize: config.BLOB_SWEEP_BATCH });
  return startQueueWorker(config, {
    queue: 'mail-ingest',
    handlers: {
      'ingest-mail': async (message) => {
        await storeOne(message);
        return JOB_DONE;
      },
      'ingest-mails': ({ messages }) =>
        ingestGroup(messages, storeOne, acceptances, (message, error) =>
          withRequestId(message.requestId ?? message.inboundId, () =>
            logger.warn({ inboundId: message.inboundId, err: error }, `${message.inboundId} failed in its group; it is retried in a job of its own`),
          ),
        ),
      'store-sent-copies': async ({ sendIds }) => {
        await copies.store(sendIds);
        return JOB_DONE;
      },
    },
    options: {
      concurrency: config.INGEST_CONCURRENCY ?? 2 * config.INGEST_BATCH_SIZE,
      lockDuration: config.INGEST_LOCK_MS,
      stalledInterval: config.INGEST_LOCK_MS,
      // A crash returns its batch to the queue; accepted mail must survive several in a row.
      maxStalledCount: 10,
    },
    logger,
    checks: { database: postgresCheck(db.sql), storage: storageCheck(blobs) },
    chores: [
      { what: 'acceptance sweep', everyMs: config.INGEST_SWEEP_MS, run: () => acceptances.sweep() },
      { what: 'sent-copy sweep', everyMs: config.INGEST_SWEEP_MS, run: () => copies.sweep() },
      { what: 'blob collection', everyMs: config.BLOB_SWEEP_MS, run: () => collector.sweep() },
      ...(spool
        ? [{ what: 'spool sweep', everyMs: config.BLOB_SWEEP_MS, run: () => spool.sweep((files) => acceptances.spoolFilesReferenced(files), Date.now() - config.BLOB_GRACE_MS, config.BLOB_SWEEP_BATCH) }]
        : []),
    ],
    onFailure: ({ jobId, attemptsMade, error }) => logger.warn({ jobId, attempt: attemptsMade, err: error }, `${jobId ?? 'job'} failed`),
    async close() {
      await queues.close();
      commands.disconnect();
      blobs.close();
      await db.close();
    },
  });
}
