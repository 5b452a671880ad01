import { z } from 'zod';
import {
  bounceTokenConfig,
  databaseConfig,
  dkimKeyConfig,
  loadConfig,
  opsConfig,
  pemFileSetting,
  quotaConfig,
  redisConfig,
  storageConfig,
} from '@letterbox/config';

const count = (fallback: number, max: number) => z.coerce.number().int().min(1).max(max).default(fallback);

export function loadDeliveryWorkerConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(
    {
      ...databaseConfig,
      ...storageConfig,
      ...redisConfig,
      ...quotaConfig,
      ...opsConfig(9101),
      ...dkimKeyConfig,
      ...bounceTokenConfig,
      SMTP_HOST: z.string().min(1).default('127.0.0.1'),
      SMTP_PORT: z.coerce.number().int().min(1).max(65535).default(1025),
      SMTP_SECURE: z
        .enum(['true', 'false'])
        .default('false')
        .transform((value) => value === 'true'),
      /** Mail goes to the provider only over TLS (STARTTLS, or SMTP_SECURE); otherwise STARTTLS when the provider offers it. */
      SMTP_REQUIRE_TLS: z
        .enum(['true', 'false'], { message: 'must be true or false' })
        .default('false')
        .transform((value) => value === 'true'),
      /** A PEM file of the CA the provider's certificate must chain to, checked with its host name; unset: not checked. */
      SMTP_TLS_CA: pemFileSetting('certificate'),
      SMTP_USER: z.string().optional(),
      SMTP_PASSWORD: z.string().optional(),
      /** Pooled SMTP connections; with a provider that takes seconds per mail, throughput is connections / latency. */
      SMTP_MAX_CONNECTIONS: count(500, 5000),
      /**
       * Deliveries in flight per worker process: I/O-bound, so far more than CPU cores. To
       * use what the provider allows, in flight ≈ allowed rate × its latency (100/s × 4 s).
       */
      DELIVERY_CONCURRENCY: count(500, 5000),
      SENDER_RATE_PER_SECOND: z.coerce.number().positive().max(10_000).default(5),
      /**
       * Messages a sender may send at once before the rate applies. Keep it below the
       * provider's own burst: the provider counts arrivals, which vary by the network's and
       * its own delays, and each message of burst it leaves unused absorbs one rate interval
       * of that variation (at 5/s with the provider's burst of 5, a burst of 1 tolerates
       * 800 ms; a burst equal to the provider's tolerates none, and the provider refuses).
       */
      SENDER_BURST: count(1, 10_000),
      /**
       * A delivery's lock, renewed while it runs however long the SMTP conversation takes: a
       * killed worker's deliveries are taken over half a lock to two locks after it died
       * (delivery-lock.ts). With SMTP_RECEIPTS_URL, keep it above twice the provider's
       * latency, so that the provider has answered the killed attempt before it is asked.
       */
      DELIVERY_LOCK_MS: z.coerce.number().int().min(1000).max(600_000).default(10_000),
      OUTBOX_SWEEP_MS: z.coerce.number().int().min(100).max(600_000).default(5000),
      READ_API_PUBLIC_URL: z.url().default('http://127.0.0.1:3000'),
      /**
       * Where the SMTP provider lists what it accepted (GET /smtp/messages?to=, as the mock
       * provider's control API does): a message whose attempt was cut short is looked up there
       * before it is sent again. Unset: it is sent again, which may repeat it.
       */
      SMTP_RECEIPTS_URL: z.url().optional(),
    },
    env,
  );
}

export type DeliveryWorkerConfig = ReturnType<typeof loadDeliveryWorkerConfig>;
