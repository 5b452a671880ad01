import { z } from 'zod';
import {
  ConfigError,
  databaseConfig,
  isDemo,
  loadConfig,
  opsConfig,
  pemFileSetting,
  quotaConfig,
  redisConfig,
  signInLimitsConfig,
  storageConfig,
} from '@letterbox/config';

/** A port; 0 picks a free one (the tests'). */
const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
const count = (fallback: number, max: number) => z.coerce.number().int().min(1).max(max).default(fallback);

export const submissionSettings = {
  ...databaseConfig,
  ...storageConfig,
  ...redisConfig,
  ...opsConfig(9109),
  /** Mail clients sign in against the API's wrong-password counters. */
  ...signInLimitsConfig,
  /** A submitted message is a send of its user's, within their quota. */
  ...quotaConfig,
  SUBMISSION_HOST: z.string().min(1).default('0.0.0.0'),
  /** SMTP submission (RFC 6409) with STARTTLS: 587 in a deployment. */
  SUBMISSION_PORT: port(1587),
  /** The same with implicit TLS (RFC 8314): 465 in a deployment. */
  SUBMISSIONS_PORT: port(1465),
  /** The name this server gives itself in SMTP greetings. */
  SUBMISSION_HOSTNAME: z.string().min(1).default('smtp.letterbox.test'),
  /** The certificate (with its chain) and its private key, PEM files, read again when they change: needed unless SUBMISSION_ALLOW_PLAINTEXT. */
  SUBMISSION_TLS_CERT: pemFileSetting('certificate'),
  SUBMISSION_TLS_KEY: pemFileSetting('private key'),
  /** The demo only: AUTH in the clear on SUBMISSION_PORT, before STARTTLS, for a client that cannot do TLS. */
  SUBMISSION_ALLOW_PLAINTEXT: z
    .enum(['true', 'false'], { message: 'must be true or false' })
    .default('false')
    .transform((value) => value === 'true'),
  /** Largest submitted message, in bytes (SIZE); past it 552. */
  SUBMISSION_MAX_MESSAGE_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(200 * 1024 * 1024)
    .default(25 * 1024 * 1024),
  /** Recipients of one message, Bcc included. */
  SUBMISSION_MAX_RECIPIENTS: count(100, 1000),
  /** SMTP connections open at once, from everyone. */
  SUBMISSION_MAX_CLIENTS: count(1000, 100_000),
};

export function loadSubmissionConfig(env: NodeJS.ProcessEnv = process.env) {
  const config = loadConfig(submissionSettings, env);
  if (config.SUBMISSION_ALLOW_PLAINTEXT && !isDemo(env)) {
    throw new ConfigError('Invalid configuration:\n  SUBMISSION_ALLOW_PLAINTEXT: passwords in the clear are for the demo only (LETTERBOX_DEMO=true)');
  }
  if (!config.SUBMISSION_ALLOW_PLAINTEXT && !config.SUBMISSION_TLS_CERT) {
    throw new ConfigError("Invalid configuration:\n  SUBMISSION_TLS_CERT: required: mail clients' passwords go over TLS only (not set)");
  }
  return config;
}

export type SubmissionConfig = ReturnType<typeof loadSubmissionConfig>;
