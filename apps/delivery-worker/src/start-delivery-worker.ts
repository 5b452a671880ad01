import nodemailer from 'nodemailer';
import { DatabaseBlobReferences } from '@letterbox/blob-references';
import { databaseFromSettings } from '@letterbox/db';
import { DkimKeyCipher, DkimSigningKeys } from '@letterbox/dkim';
import { ColleagueDelivery, createInboundIntake, RecipientDirectory } from '@letterbox/ingest';
import { loggerFor, postgresCheck, storageCheck } from '@letterbox/observability';
import { createJobQueues, startQueueWorker, workerCommandConnection, type RunningWorker } from '@letterbox/queue';
import { BounceAddresses, ListingProviderReceipts, RedirectFailureNotices, SendDelivery, SenderRateLimit, SendOutbox } from '@letterbox/sending';
import { createBlobStore } from '@letterbox/storage';
import { deliveryLockOptions } from './delivery-lock';
import { providerTlsOptions } from './provider-tls';
import type { DeliveryWorkerConfig } from './delivery-worker.config';

/** The send API bounded what a send holds; this only stops a runaway. */
const COLLEAGUE_MESSAGE_MAX_BYTES = 512 * 1024 * 1024;

const logger = loggerFor('delivery');

/** Consumes the delivery queue and sweeps the outbox, until closed. */
export async function startDeliveryWorker(config: DeliveryWorkerConfig): Promise<RunningWorker> {
  const db = databaseFromSettings(config, 'letterbox-delivery-worker');
  const blobs = createBlobStore(config);
  const commands = workerCommandConnection(config);
  const queues = createJobQueues(config);
  const directory = new RecipientDirectory(db.sql);
  const smtp = nodemailer.createTransport({
    host: config.SMTP_HOST,
    port: config.SMTP_PORT,
    secure: config.SMTP_SECURE,
    ...providerTlsOptions(config),
    auth: config.SMTP_USER ? { user: config.SMTP_USER, pass: config.SMTP_PASSWORD ?? '' } : undefined,
    pool: true,
    maxConnections: config.SMTP_MAX_CONNECTIONS,
    maxMessages: 1000,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 60_000,
  });
  const outbox = new SendOutbox(db, queues);
  const delivery = new SendDelivery(db, blobs, smtp, new SenderRateLimit(commands, config.SENDER_RATE_PER_SECOND, config.SENDER_BURST, config.QUEUE_PREFIX), {
    readApiPublicUrl: config.READ_API_PUBLIC_URL,
    bounceAddresses: new BounceAddresses(config.BOUNCE_TOKEN_SECRET),
    dkimKeys: new DkimSigningKeys(db.sql, DkimKeyCipher.fromSetting(config.DKIM_KEY_ENCRYPTION_KEY)),
    redirectFailures: new RedirectFailureNotices(db, blobs, outbox, config.QUEUE_PREFIX),
    receipts: config.SMTP_RECEIPTS_URL ? new ListingProviderReceipts(config.SMTP_RECEIPTS_URL) : undefined,
    colleagues: new ColleagueDelivery(
      directory,
      createInboundIntake({
        sql: db.sql,
        blobs,
        references: new DatabaseBlobReferences(db.sql),
        queues,
        maxMessageBytes: COLLEAGUE_MESSAGE_MAX_BYTES,
        defaultQuotaBytes: config.USER_QUOTA_BYTES,
        directory,
      }),
    ),
  });
  return startQueueWorker(config, {
    queue: 'mail-delivery',
    handlers: {
      'deliver-send': (payload, attempt) => delivery.deliver(payload, attempt),
    },
    options: { concurrency: config.DELIVERY_CONCURRENCY, ...deliveryLockOptions(config.DELIVERY_LOCK_MS) },
    logger,
    checks: { database: postgresCheck(db.sql), storage: storageCheck(blobs) },
    chores: [{ what: 'outbox sweep', everyMs: config.OUTBOX_SWEEP_MS, run: () => outbox.sweep() }],
    // Whatever ends a delivery for good (no attempts left, too many crashes), its send must not stay `sending`.
    onFailure: ({ payload, error, isFinal }) => {
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
