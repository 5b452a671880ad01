import { z } from 'zod';
import {
  authConfig,
  quotaConfig,
  ingestTokenConfig,
  loadConfig,
  pemFileSetting,
  portFrom,
  redisConfig,
  requestDatabaseConfig,
  storageConfig,
} from '@letterbox/config';

export function loadIngestConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(
    {
      INGEST_HTTP_PORT: portFrom(3002),
      INGEST_SMTP_PORT: portFrom(2525),
      INGEST_HOST: z.string().min(1).default('0.0.0.0'),
      ...ingestTokenConfig,
      /** Largest incoming message, in bytes (HTTP body or SMTP DATA). */
      INGEST_MAX_MESSAGE_BYTES: z.coerce
        .number()
        .int()
        .min(1024)
        .max(200 * 1024 * 1024)
        .default(30 * 1024 * 1024),
      /** The name this server gives itself in SMTP greetings. */
      INGEST_SMTP_HOSTNAME: z.string().min(1).default('mx.letterbox.test'),
      /** SMTP connections open at once, from everyone. */
      INGEST_SMTP_MAX_CLIENTS: z.coerce.number().int().min(1).max(100_000).default(1000),
      /** Recipients of one SMTP message (RFC 5321 asks for at least 100). */
      INGEST_SMTP_MAX_RECIPIENTS: z.coerce.number().int().min(1).max(10_000).default(100),
      /** SMTP connections, and messages, that one client address may open or send per minute. */
      INGEST_SMTP_CONNECTIONS_PER_MINUTE: z.coerce.number().int().min(1).default(600),
      INGEST_SMTP_MESSAGES_PER_MINUTE: z.coerce.number().int().min(1).default(1200),
      /**
       * STARTTLS: the certificate (with its chain) and its private key, PEM files, both or
       * neither; read again when they change, so a renewal needs no restart. Unset: no STARTTLS.
       */
      INGEST_SMTP_TLS_CERT: pemFileSetting('certificate'),
      INGEST_SMTP_TLS_KEY: pemFileSetting('private key'),
      /** MAIL FROM is refused (530 5.7.0) until the client has done STARTTLS; needs the certificate. */
      INGEST_SMTP_REQUIRE_TLS: z
        .enum(['true', 'false'], { message: 'must be true or false' })
        .default('false')
        .transform((value) => value === 'true'),
      /** Implicit TLS (SMTPS, RFC 8314) on this port as well, with the same certificate; 0 picks a free port. Unset: none. */
      INGEST_SMTPS_PORT: z.coerce.number().int().min(0).max(65535).optional(),
      /** POST /v2/inbound requests that one client address may have in progress at once; past it 429. */
      INGEST_HTTP_MAX_CONCURRENT_PER_CLIENT: z.coerce.number().int().min(1).default(2000),
      ...requestDatabaseConfig,
      ...storageConfig,
      ...authConfig,
      ...quotaConfig,
      ...redisConfig,
    },
    env,
  );
}

export type IngestConfig = ReturnType<typeof loadIngestConfig>;
