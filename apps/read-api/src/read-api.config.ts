import { z } from 'zod';
import {
  authConfig,
  dkimKeyConfig,
  heavyReadsDatabaseConfig,
  httpConfig,
  loadConfig,
  mailPolicyConfig,
  opsConfig,
  portFrom,
  quotaConfig,
  redisConfig,
  requestDatabaseConfig,
  storageConfig,
} from '@letterbox/config';

export const readApiSettings = {
  READ_API_PORT: portFrom(3000),
  READ_API_HOST: z.string().min(1).default('0.0.0.0'),
  ...opsConfig(9104),
  /** Processes serving the API; more than one forks a cluster sharing the port. */
  READ_API_WORKERS: z.coerce.number().int().min(1).max(64).default(1),
  /** Memory for recently rendered mail bodies, per process; 0 renders every read from storage. */
  READ_API_RENDER_CACHE_MB: z.coerce.number().int().min(0).max(4096).default(64),
  /** Event streams (/v2/events) one user may hold open at once in each API process. */
  EVENT_STREAMS_PER_USER: z.coerce.number().int().min(1).max(1000).default(10),
  /**
   * Heavy requests (searches, text-filtered lists) of one user running at once
   * in each API process; past them one waits HEAVY_REQUESTS_WAIT_MS for one to end, then answers 429.
   */
  HEAVY_REQUESTS_PER_USER: z.coerce.number().int().min(1).max(100).default(2),
  HEAVY_REQUESTS_WAIT_MS: z.coerce.number().int().min(0).max(30_000).default(1000),
  ...requestDatabaseConfig,
  ...heavyReadsDatabaseConfig,
  ...storageConfig,
  ...authConfig,
  ...quotaConfig,
  ...httpConfig,
  /** The office administrators' DKIM keys, and the SPF records the domains are told to publish. */
  ...dkimKeyConfig,
  ...mailPolicyConfig,
  /** Live mail events: REDIS_URL, and QUEUE_PREFIX as their namespace. */
  ...redisConfig,
};

export type ReadApiConfig = ReturnType<typeof loadReadApiConfig>;

export function loadReadApiConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(readApiSettings, env);
}
