import { z } from 'zod';
import {
  adminConfig,
  authConfig,
  quotaConfig,
  httpConfig,
  loadConfig,
  opsConfig,
  portFrom,
  redisConfig,
  requestDatabaseConfig,
  storageConfig,
} from '@letterbox/config';

export function loadSendApiConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig(
    {
      SEND_API_PORT: portFrom(3001),
      SEND_API_HOST: z.string().min(1).default('0.0.0.0'),
      ...opsConfig(9105),
      /** Largest total of a send's attachments, in bytes. */
      SEND_MAX_ATTACHMENT_BYTES: z.coerce
        .number()
        .int()
        .min(1)
        .max(200 * 1024 * 1024)
        .default(25 * 1024 * 1024),
      /** Most sends recorded by one statement and queued by one Redis call (group commit); 1 records each alone. */
      SEND_GROUP_COMMIT_MAX: z.coerce.number().int().min(1).max(1000).default(256),
      ...adminConfig,
      ...httpConfig,
      ...requestDatabaseConfig,
      ...storageConfig,
      ...authConfig,
      ...quotaConfig,
      ...redisConfig,
    },
    env,
  );
}

export type SendApiConfig = ReturnType<typeof loadSendApiConfig>;

export const SEND_API_CONFIG = Symbol('SEND_API_CONFIG');
