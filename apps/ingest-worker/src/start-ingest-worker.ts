import { identitiesOf } from '@letterbox/accounts';
import { DatabaseBlobReferences } from '@letterbox/blob-references';
import { databaseFromSettings, readRouting } from '@letterbox/db';
import { createMailAnnouncer, mailCreatedEvents } from '@letterbox/events';
import { createIngestPipeline, InboundAcceptances, ingestJobHandlers, intakeSpoolFor, RspamdLearner, RspamdScanner } from '@letterbox/ingest';
import { loggerFor, postgresCheck, storageCheck } from '@letterbox/observability';
import { createJobQueues, JOB_DONE, startQueueWorker, workerCommandConnection, type RunningWorker } from '@letterbox/queue';
import { BulkChanges, BulkChangeSlices, ExpungeRecordSweep, RunBulkChange, SpamSweep, StartBulkChange } from '@letterbox/mail';
import { BounceAddresses, IncomingBounces, mailRedirector, SentCopies, SrsAddresses, vacationResponder } from '@letterbox/sending';
import { BlobCollector, createBlobStore } from '@letterbox/storage';
import type { IngestWorkerConfig } from './ingest-worker.config';

const logger = loggerFor('ingest');

/**
 * Stores mail in mailboxes until closed: accepted incoming mail, in batches, and the Sent
 * copies of recorded sends; works through changes over a filter in slices; sweeps up what
 * Redis lost of any of them, and removes the blobs nothing refers to.
 */
export async function startIngestWorker(config: IngestWorkerConfig): Promise<RunningWorker> {
  const db = databaseFromSettings(config, 'letterbox-ingest-worker');
  const blobs = createBlobStore(config);
  const commands = workerCommandConnection(config);
  const queues = createJobQueues(config);
  const announcer = createMailAnnouncer({ redis: commands, queuePrefix: config.QUEUE_PREFIX, writes: readRouting(db, commands, config.QUEUE_PREFIX) });
  // A retried job finds its copies stored and announces nothing: a failed event is only logged, and the next refresh of a list shows them.
  const copies = new SentCopies(db, blobs, config.QUEUE_PREFIX, (stored) => announcer.announce(mailCreatedEvents(stored)));
  // The intake spools on disk storage only; this worker reads the same folder.
  const spool = intakeSpoolFor(config);
  const acceptances = new InboundAcceptances(db.sql, queues);
  const bounces = new IncomingBounces(db.sql, new BounceAddresses(config.BOUNCE_TOKEN_SECRET));
  const scanner = config.SPAM_CHECK
    ? new RspamdScanner({ url: config.RSPAMD_URL, concurrency: config.SPAM_CHECK_CONCURRENCY, timeoutMs: config.SPAM_CHECK_TIMEOUT_MS })
    : undefined;
  const spam = scanner && { scanner, maxBytes: config.SPAM_CHECK_MAX_BYTES };
  const learner = new RspamdLearner(blobs, {
    controllerUrl: config.RSPAMD_CONTROLLER_URL,
    password: config.RSPAMD_PASSWORD,
    maxBytes: config.SPAM_CHECK_MAX_BYTES,
    timeoutMs: config.SPAM_CHECK_TIMEOUT_MS,
  });
  // Out-of-office replies go through the send pipeline, as the send API's sends do (no Sent copy).
  const vacation = vacationResponder({
    db,
    blobs,
    queues,
    queuePrefix: config.QUEUE_PREFIX,
    defaultQuotaBytes: config.USER_QUOTA_BYTES,
    identitiesOf: (userIds) => identitiesOf(db, userIds),
  });
  // Redirects are their users' sends too, from SRS addresses of their domains.
  const redirector = mailRedirector({
    db,
    blobs,
    queues,
    queuePrefix: config.QUEUE_PREFIX,
    defaultQuotaBytes: config.USER_QUOTA_BYTES,
    identitiesOf: (userIds) => identitiesOf(db, userIds),
    srs: new SrsAddresses(config.SRS_SECRET),
  });
  const pipeline = createIngestPipeline({
    db,
    blobs,
    redis: commands,
    queuePrefix: config.QUEUE_PREFIX,
    queues,
    announcer,
    spool,
    bounces,
    spam,
    vacation,
    redirector,
    logger,
  });
  const bulkChanges = new BulkChanges(db.sql);
  const bulkRuns = new RunBulkChange(new BulkChangeSlices(db.sql, bulkChanges, config.BULK_CHANGE_SLICE_SIZE), bulkChanges, announcer);
  const bulkStarts = new StartBulkChange(db.sql, bulkChanges, queues);
  const spamSweep = new SpamSweep(db.sql, announcer, { retentionDays: config.SPAM_RETENTION_DAYS, batchSize: config.BLOB_SWEEP_BATCH });
  const expungeSweep = new ExpungeRecordSweep(db.sql, { retentionDays: config.IMAP_EXPUNGE_RETENTION_DAYS, batchSize: config.BLOB_SWEEP_BATCH });
  const collector = new BlobCollector(blobs, new DatabaseBlobReferences(db.sql), { graceMs: config.BLOB_GRACE_MS, batchSize: config.BLOB_SWEEP_BATCH });
  return startQueueWorker(config, {
    queue: 'mail-ingest',
    handlers: {
      ...ingestJobHandlers({ pipeline, acceptances, batches: { maxSize: config.INGEST_BATCH_SIZE, maxWaitMs: config.INGEST_BATCH_WAIT_MS }, logger }),
      'store-sent-copies': async ({ sendIds }) => {
        await copies.store(sendIds);
        return JOB_DONE;
      },
      'bulk-change': (payload, attempt) => bulkRuns.job(payload, attempt),
      'learn-spam': (payload) => learner.learn(payload),
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
      { what: 'bulk change sweep', everyMs: config.INGEST_SWEEP_MS, run: () => bulkStarts.sweep() },
      { what: 'blob collection', everyMs: config.BLOB_SWEEP_MS, run: () => collector.sweep() },
      { what: 'spam sweep', everyMs: config.SPAM_SWEEP_MS, run: () => spamSweep.sweep() },
      { what: 'IMAP expunge sweep', everyMs: config.SPAM_SWEEP_MS, run: () => expungeSweep.sweep() },
      ...(spool
        ? [
            {
              what: 'spool sweep',
              everyMs: config.BLOB_SWEEP_MS,
              run: () => spool.sweep((files) => acceptances.spoolFilesReferenced(files), Date.now() - config.BLOB_GRACE_MS, config.BLOB_SWEEP_BATCH),
            },
          ]
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
