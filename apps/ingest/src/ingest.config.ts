import { z } from 'zod';
import { authConfig, loadConfig, portFrom, redisConfig, requestDatabaseConfig, storageConfig } from '@letterbox/config';

export function loadIngestConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(
    {
      INGEST_HTTP_PORT: portFrom(3002),
      INGEST_SMTP_PORT: portFrom(2525),
      INGEST_HOST: z.string().min(1).default('0.0.0.0'),
      /** The shared secret of the trusted mail gateways that post to /v2/inbound. */
      INGEST_TOKEN: z.string().min(16, 'must be at least 16 characters').default('letterbox-ingest-demo'),
      /** Largest incoming message, in bytes (HTTP body or SMTP DATA). */
      INGEST_MAX_MESSAGE_BYTES: z.coerce.number().int().min(1024).max(200 * 1024 * 1024).default(30 * 1024 * 1024),
      /** The name this server gives itself in SMTP greetings. */
      INGEST_SMTP_HOSTNAME: z.string().min(1).default('mx.letterbox.test'),
      ...requestDatabaseConfig,
      ...storageConfig,
      ...authConfig,
      ...redisConfig,
    },
    env,
  );
}

export type IngestConfig = ReturnType<typeof loadIngestConfig>;
