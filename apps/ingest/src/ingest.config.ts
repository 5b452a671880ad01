import { z } from 'zod';
import {
  authConfig,
  quotaConfig,
  ingestTokenConfig,
  loadConfig,
  opsConfig,
  pemFileSetting,
  portFrom,
  redisConfig,
  requestDatabaseConfig,
  spamCheckConfig,
  srsConfig,
  storageConfig,
} from '@letterbox/config';
import { dnsConfig } from '@letterbox/dns';

export function loadIngestConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(
    {
      INGEST_HTTP_PORT: portFrom(3002),
      INGEST_SMTP_PORT: portFrom(2525),
      INGEST_HOST: z.string().min(1).default('0.0.0.0'),
      ...opsConfig(9106),
      ...ingestTokenConfig,
      /** A bounce to an SRS address (of a redirected mail) is taken when its hash is one made with it, and refused otherwise. */
      ...srsConfig,
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
      /** Check incoming mail (SPF, DKIM, DMARC, ARC) and prepend its trace headers; false stores it as it came (the benchmark's A/B). */
      INGEST_VERIFY_SENDERS: z
        .enum(['true', 'false'], { message: 'must be true or false' })
        .default('true')
        .transform((value) => value === 'true'),
      /** The authserv-id of Letterbox's Authentication-Results (RFC 8601); INGEST_SMTP_HOSTNAME when unset. */
      INGEST_AUTHSERV_ID: z
        .string()
        .regex(/^[A-Za-z0-9.-]+$/, 'must be a host name')
        .optional(),
      /** What all DNS lookups of one message's checks may take together, in ms; past it they are temperror. */
      INGEST_DNS_BUDGET_MS: z.coerce.number().int().min(100).max(60_000).default(5000),
      /** The authserv-id of the gateway whose Authentication-Results POST /v2/inbound takes instead of checking again; none when unset. */
      INGEST_TRUSTED_AUTHSERV_ID: z
        .string()
        .regex(/^[A-Za-z0-9.-]+$/, 'must be a host name')
        .optional(),
      /** What a DMARC p=reject failure gets: refused (SMTP 550 5.7.1, HTTP 422), or put in Spam. */
      INGEST_DMARC_REJECT: z.enum(['refuse', 'quarantine']).default('refuse'),
      /** `true`: a message rspamd gives its `reject` action is refused before it is acknowledged (SMTP 550 5.7.1, HTTP 422). */
      SPAM_REJECT: z
        .enum(['true', 'false'], { message: 'must be true or false' })
        .default('false')
        .transform((value) => value === 'true'),
      RSPAMD_URL: spamCheckConfig.RSPAMD_URL,
      SPAM_CHECK_CONCURRENCY: spamCheckConfig.SPAM_CHECK_CONCURRENCY,
      SPAM_CHECK_TIMEOUT_MS: spamCheckConfig.SPAM_CHECK_TIMEOUT_MS,
      ...dnsConfig,
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
