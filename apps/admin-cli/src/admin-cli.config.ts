import { databaseConfig, loadConfig, quotaConfig, redisConfig } from '@letterbox/config';

/** The database the command changes, the Redis its ended sessions are announced on, and the default quota it shows. */
export function loadAdminCliConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig({ ...databaseConfig, ...redisConfig, ...quotaConfig }, env);
}

export type AdminCliConfig = ReturnType<typeof loadAdminCliConfig>;
