import nodemailer from 'nodemailer';
import { createDatabase } from '@letterbox/db';
import { ColleagueDelivery, DatabaseBlobReferences, InboundAcceptances, InboundIntake, RecipientDirectory } from '@letterbox/ingest';
import { loggerFor, postgresCheck, redisCheck, storageCheck } from '@letterbox/observability';
import { isFinalAttempt, JobQueues, producerConnection, SenderRateLimit, startJobWorker, workerConnection, type RunningWorker } from '@letterbox/queue';
import { ListingProviderReceipts, SendDelivery, SendOutbox } from '@letterbox/sending';
import { createBlobStore } from '@letterbox/storage';
import { deliveryLockOptions } from './delivery-lock';
import type { DeliveryWorkerConfig } from './delivery-worker.config';

/** The send API bounded what a send holds; this only stops a runaway. */
const COLLEAGUE_MESSAGE_MAX_BYTES = 512 * 1024 * 1024;

const logger = loggerFor('delivery');

/** Consumes the delivery queue and sweeps the outbox, until closed. */
export async function startDeliveryWorker(config: DeliveryWorkerConfig): Promise<RunningWorker> {
  const db = createDatabase({ url: config.DATABASE_URL, poolSize: config.DATABASE_POOL_SIZE, applicationName: 'letterbox-delivery-worker' });
  const blobs = createBlobStore(config);
  const commands = workerConnection(config);
  const queues = new JobQueues(producerConnection(config), config.QUEUE_PREFIX);
  const health = producerConnection(config);
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
  const delivery = new SendDelivery(db, blobs, smtp, new SenderRateLimit(commands, config.SENDER_RATE_PER_SECOND, config.SENDER_BURST, config.QUEUE_PREFIX), {
    readApiPublicUrl: config.READ_API_PUBLIC_URL,
    receipts: config.SMTP_RECEIPTS_URL ? new ListingProviderReceipts(config.SMTP_RECEIPTS_URL) : undefined,
    colleagues: new ColleagueDelivery(
      directory,
      new InboundIntake(blobs, directory, new InboundAcceptances(db.sql, queues), new DatabaseBlobReferences(db.sql), queues, COLLEAGUE_MESSAGE_MAX_BYTES),
    ),
  });
  const worker = startJobWorker(
    'mail-delivery',
    {
      'deliver-send': (payload, job, token) => delivery.deliver(payload.sendId, job, token, isFinalAttempt(job)),
    },
    config,
    {
      prefix: config.QUEUE_PREFIX,
      concurrency: config.DELIVERY_CONCURRENCY,
      ...deliveryLockOptions(config.DELIVERY_LOCK_MS),
    },
  );
  worker.on('error', (error) => logger.warn({ err: error }, 'worker connection failed'));
  // Whatever ends a job for good (no attempts left, too many crashes), its send must not stay `sending`.
  worker.on('failed', (job, error) => {
    if (!job) return;
    job
      .isFailed()
      .then((final) => (final ? delivery.giveUp(job.data.sendId, error.message) : undefined))
      .catch((failure: unknown) => logger.error({ sendId: job.data.sendId, err: failure }, `send ${job.data.sendId} could not be given up`));
  });
  const outbox = new SendOutbox(db, queues);
  const sweeping = setInterval(() => {
    outbox.sweep().catch((error: unknown) => logger.warn({ err: error }, 'outbox sweep failed'));
  }, config.OUTBOX_SWEEP_MS);
  await worker.waitUntilReady();
  return {
    readiness: { database: postgresCheck(db.sql), redis: redisCheck(health), storage: storageCheck(blobs) },
    async close() {
      clearInterval(sweeping);
      await worker.close();
      smtp.close();
      await queues.close();
      commands.disconnect();
      health.disconnect();
      blobs.close();
      await db.close();
    },
  };
}
