import nodemailer from 'nodemailer';
import { createDatabase, readRouting } from '@letterbox/db';
import { UserEvents } from '@letterbox/events';
import { ColleagueDelivery, DatabaseBlobReferences, InboundAcceptances, InboundIntake, RecipientDirectory } from '@letterbox/ingest';
import { loggerFor, postgresCheck, storageCheck } from '@letterbox/observability';
import { JOB_DONE, JobQueues, startQueueWorker, workerCommandConnection, type RunningWorker } from '@letterbox/queue';
import { failFastConnection } from '@letterbox/redis';
import { ListingProviderReceipts, SendDelivery, SenderRateLimit, SendOutbox, SentCopies, type StoredSentCopy } from '@letterbox/sending';
import { createBlobStore } from '@letterbox/storage';
import { deliveryLockOptions } from './delivery-lock';
import type { DeliveryWorkerConfig } from './delivery-worker.config';

/** The send API bounded what a send holds; this only stops a runaway. */
const COLLEAGUE_MESSAGE_MAX_BYTES = 512 * 1024 * 1024;

const logger = loggerFor('delivery');

/** Consumes the delivery queue (deliveries and Sent copies) and sweeps the outbox and the copies left pending, until closed. */
export async function startDeliveryWorker(config: DeliveryWorkerConfig): Promise<RunningWorker> {
  const db = createDatabase({
    url: config.DATABASE_URL,
    ...(config.DATABASE_READ_URL ? { readUrl: config.DATABASE_READ_URL } : {}),
    poolSize: config.DATABASE_POOL_SIZE,
    applicationName: 'letterbox-delivery-worker',
  });
  const blobs = createBlobStore(config);
  const commands = workerCommandConnection(config);
  const queues = new JobQueues(failFastConnection(config, 'redis producer'), config.QUEUE_PREFIX);
  const events = new UserEvents(commands, config.QUEUE_PREFIX);
  const writes = readRouting(db, commands, config.QUEUE_PREFIX);
  // Before the live event: the webmail refetches on it, and must find the copy even on the replica.
  // The copies stand whatever becomes of the event: the next refresh of a list shows them.
  const announceCopies = async (stored: StoredSentCopy[]) => {
    await writes.record([...new Set(stored.map((copy) => copy.userId))]);
    await events
      .publishAll(stored.map(({ userId, mailId, mailboxId }) => ({ userId, event: { type: 'mail.created', mailId, mailboxId } })))
      .catch((error: unknown) => logger.warn({ err: error }, `Sent copies ${stored.map((copy) => copy.mailId).join(', ')} were not announced`));
  };
  const copies = new SentCopies(db, blobs, config.QUEUE_PREFIX, announceCopies);
  const directory = new RecipientDirectory(db.sql);
  const smtp = nodemailer.createTransport({
    host: config.SMTP_HOST,
    port: config.SMTP_PORT,
    secure: config.SMTP_SECURE,
    ignoreTLS: !config.SMTP_SECURE,
    auth: config.SMTP_USER ? { user: config.SMTP_USER, pass: config.SMTP_PASSWORD ?? '' } : undefined,
    pool: true,
    maxConnections: config.SMTP_MAX_CONNECTIONS,
    maxMessages: 1000,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 60_000,
  });
  const delivery = new SendDelivery(db, blobs, smtp, new SenderRateLimit(commands, config.SENDER_RATE_PER_SECOND, config.SENDER_BURST, config.QUEUE_PREFIX), copies, {
    readApiPublicUrl: config.READ_API_PUBLIC_URL,
    receipts: config.SMTP_RECEIPTS_URL ? new ListingProviderReceipts(config.SMTP_RECEIPTS_URL) : undefined,
    colleagues: new ColleagueDelivery(
      directory,
      new InboundIntake(blobs, directory, new InboundAcceptances(db.sql, queues), new DatabaseBlobReferences(db.sql), COLLEAGUE_MESSAGE_MAX_BYTES),
    ),
  });
  const outbox = new SendOutbox(db, queues);
  return startQueueWorker(config, {
    queue: 'mail-delivery',
    handlers: {
      'deliver-send': (payload, attempt) => delivery.deliver(payload, attempt),
      'store-sent-copies': async ({ sendIds }) => {
        await copies.store(sendIds);
        return JOB_DONE;
      },
    },
    options: { concurrency: config.DELIVERY_CONCURRENCY, ...deliveryLockOptions(config.DELIVERY_LOCK_MS) },
    logger,
    checks: { database: postgresCheck(db.sql), storage: storageCheck(blobs) },
    chores: [
      { what: 'outbox sweep', everyMs: config.OUTBOX_SWEEP_MS, run: () => outbox.sweep() },
      { what: 'sent-copy sweep', everyMs: config.OUTBOX_SWEEP_MS, run: () => copies.sweep() },
    ],
    // Whatever ends a delivery for good (no attempts left, too many crashes), its send must not stay `sending`.
    // A copy's job that gives up leaves its copies pending, for the sweep.
    onFailure: ({ payload, error, isFinal }) => {
      if (!('sendId' in payload)) return;
      isFinal()
        .then((final) => (final ? delivery.giveUp(payload.sendId, error.message) : undefined))
        .catch((failure: unknown) => logger.error({ sendId: payload.sendId, err: failure }, `send ${payload.sendId} could not be given up`));
    },
    async close() {
      smtp.close();
      await queues.close();
      commands.disconnect();
      blobs.close();
      await db.close();
    },
  });
}
