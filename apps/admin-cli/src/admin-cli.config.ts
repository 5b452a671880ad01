import { blobGraceConfig, databaseConfig, dkimKeyConfig, loadConfig, mailPolicyConfig, quotaConfig, redisConfig, storageConfig } from '@letterbox/config';

/**
 * The database the command changes, the Redis its ended sessions are announced on, the default quota it shows,
 * the key new DKIM keys are stored under, what the SPF records it prints name, and the storage and blob
 * grace period a backup or restore works with.
 */
export function loadAdminCliConfig(env: NodeJS.ProcessEnv = process.env) {
  return loadConfig({ ...databaseConfig, ...redisConfig, ...quotaConfig, ...dkimKeyConfig, ...mailPolicyConfig, ...storageConfig, ...blobGraceConfig }, env);
}

export type AdminCliConfig = ReturnType<typeof loadAdminCliConfig>;
