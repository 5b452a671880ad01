export { loadConfig, ConfigError } from './load-config';
export {
  databaseConfig,
  requestDatabaseConfig,
  heavyReadsDatabaseConfig,
  storageConfig,
  authConfig,
  signInLimitsConfig,
  quotaConfig,
  redisConfig,
  adminConfig,
  ingestTokenConfig,
  spamCheckConfig,
  httpConfig,
  opsConfig,
  portFrom,
  aes256KeyBytes,
  dkimKeyConfig,
  mailPolicyConfig,
  bounceTokenConfig,
  srsConfig,
  blobGraceConfig,
} from './common-settings';
export { pemFileSetting } from './tls-settings';
export { isDemo } from './demo-secrets';
