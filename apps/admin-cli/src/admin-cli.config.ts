import { databaseConfig, dkimKeyConfig, loadConfig, mailPolicyConfig, quotaConfig, redisConfig } from '@letterbox/config';

/**
 * The database the command changes, the Redis its ended sessions are announced on, the default quota it shows,
 * the key new DKIM keys are stored under and what the SPF records it prints name.
 */
export function loadAdminCliConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig({ ...databaseConfig, ...redisConfig, ...quotaConfig, ...dkimKeyConfig, ...mailPolicyConfig }, env);
}

export type AdminCliConfig = ReturnType<typeof loadAdminCliConfig>;
