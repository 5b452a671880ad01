import { z } from 'zod';
import {
  authConfig,
  ConfigError,
  isDemo,
  loadConfig,
  opsConfig,
  pemFileSetting,
  portFrom,
  redisConfig,
  requestDatabaseConfig,
  storageConfig,
} from '@letterbox/config';

const count = (fallback: number, max: number) => z.coerce.number().int().min(1).max(max).default(fallback);

export function loadImapConfig(env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(
    {
      IMAP_HOST: z.string().min(1).default('0.0.0.0'),
      /** IMAP with STARTTLS. */
      IMAP_PORT: portFrom(1143),
      /** IMAP over implicit TLS (RFC 8314), with the certificate of IMAP_TLS_CERT; not listened on without one. */
      IMAPS_PORT: portFrom(1993),
      ...opsConfig(9108),
      /** The certificate (with its chain) and its private key, PEM files, both or neither; read again when they change. */
      IMAP_TLS_CERT: pemFileSetting('certificate'),
      IMAP_TLS_KEY: pemFileSetting('private key'),
      /** Signing in without TLS, the password in the clear: the demo's default only. */
      IMAP_ALLOW_PLAINTEXT: z.enum(['true', 'false'], { message: 'must be true or false' }).optional(),
      /** IMAP connections open at once from one client address, and signed in to one account, per process. */
      IMAP_MAX_CONNECTIONS_PER_ADDRESS: count(100, 100_000),
      IMAP_MAX_CONNECTIONS_PER_USER: count(20, 1000),
      /** A session with no byte either way for this long is closed (RFC 3501: at least 30 minutes). */
      IMAP_IDLE_TIMEOUT_MS: z.coerce
        .number()
        .int()
        .min(30 * 60_000)
        .max(24 * 3_600_000)
        .default(30 * 60_000),
      /** Largest literal of a command, and largest command (its lines and literals), in bytes. */
      IMAP_MAX_LITERAL_BYTES: count(1024 ** 2, 200 * 1024 ** 2),
      IMAP_MAX_COMMAND_BYTES: count(2 * 1024 ** 2, 200 * 1024 ** 2),
      ...requestDatabaseConfig,
      ...redisConfig,
      ...storageConfig,
      SIGN_IN_MAX_FAILURES_PER_ACCOUNT: authConfig.SIGN_IN_MAX_FAILURES_PER_ACCOUNT,
      SIGN_IN_MAX_FAILURES_PER_CLIENT: authConfig.SIGN_IN_MAX_FAILURES_PER_CLIENT,
      SIGN_IN_WINDOW_SECONDS: authConfig.SIGN_IN_WINDOW_SECONDS,
    },
    env,
  );
  const allowPlaintext = config.IMAP_ALLOW_PLAINTEXT === undefined ? isDemo(env) : config.IMAP_ALLOW_PLAINTEXT === 'true';
  // Without a certificate and without plaintext sign-in, nobody could sign in: a setting is missing.
  if (!allowPlaintext && !config.IMAP_TLS_CERT) {
    throw new ConfigError(
      'Invalid configuration:\n  IMAP_TLS_CERT: needed, with IMAP_TLS_KEY, unless IMAP_ALLOW_PLAINTEXT=true: IMAP signs in only over TLS (not set)',
    );
  }
  return { ...config, IMAP_ALLOW_PLAINTEXT: allowPlaintext };
}

export type ImapConfig = ReturnType<typeof loadImapConfig>;
