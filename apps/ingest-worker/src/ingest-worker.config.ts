import { z } from 'zod';
import {
  blobGraceConfig,
  bounceTokenConfig,
  databaseConfig,
  loadConfig,
  opsConfig,
  quotaConfig,
  redisConfig,
  spamCheckConfig,
  srsConfig,
  storageConfig,
} from '@letterbox/config';

export function loadIngestWorkerConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(
    {
      ...databaseConfig,
      ...storageConfig,
      ...redisConfig,
      ...opsConfig(9102),
      /** Bounces coming back are matched to their sends by their bounce address, which it makes tamper-evident. */
      ...bounceTokenConfig,
      /** Redirected mail (a rule's `redirect`) goes out from an SRS address made with it. */
      ...srsConfig,
      ...blobGraceConfig,
      ...spamCheckConfig,
      /** Out-of-office replies are sends of their users, within their quota. */
      ...quotaConfig,
      /** Mail older than this many days in Spam is deleted by the worker's sweep. */
      SPAM_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
      /** How often the Spam sweep runs; each run deletes at most BLOB_SWEEP_BATCH mails. */
      SPAM_SWEEP_MS: z.coerce.number().int().min(100).max(86_400_000).default(600_000),
      /**
       * An expunged IMAP UID is remembered this many days for QRESYNC; a client away longer is
       * told every UID not there now. The Spam sweep's schedule forgets older ones.
       */
      IMAP_EXPUNGE_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(30),
      /** Messages inserted per transaction. */
      INGEST_BATCH_SIZE: z.coerce.number().int().min(1).max(1000).default(100),
      /** How long a batch waits for more messages after its first, in milliseconds. */
      INGEST_BATCH_WAIT_MS: z.coerce.number().int().min(0).max(10_000).default(10),
      /**
       * Jobs taken at once: by default two batches' worth, so one gathers while the other is
       * written, when each job is one message; a group's job brings many.
       */
      INGEST_CONCURRENCY: z.coerce.number().int().min(1).max(5000).optional(),
      /** How long a crashed worker's jobs stay locked before another worker retries them. */
      INGEST_LOCK_MS: z.coerce.number().int().min(1000).max(600_000).default(30_000),
      /** How often acceptances and bulk changes whose job Redis lost are queued again, and Sent copies left pending are stored. */
      INGEST_SWEEP_MS: z.coerce.number().int().min(100).max(3_600_000).default(30_000),
      /**
       * Mails a change over a filter (POST /v2/mails/bulk) takes per slice, each slice one
       * transaction: a change to one of the user's mails waits for at most one slice.
       */
      BULK_CHANGE_SLICE_SIZE: z.coerce.number().int().min(1).max(50_000).default(2000),
      /** How often the blob collector takes its next step through storage. */
      BLOB_SWEEP_MS: z.coerce.number().int().min(100).max(3_600_000).default(10_000),
      /** Blobs the collector examines per step. */
      BLOB_SWEEP_BATCH: z.coerce.number().int().min(1).max(10_000).default(1000),
    },
    env,
  );
}

export type IngestWorkerConfig = ReturnType<typeof loadIngestWorkerConfig>;
