export { loadConfig, ConfigError } from './load-config';
export {
  databaseConfig,
  requestDatabaseConfig,
  storageConfig,
  authConfig,
  quotaConfig,
  redisConfig,
  adminConfig,
  ingestTokenConfig,
  httpConfig,
  opsConfig,
  portFrom,
} from './common-settings';
export { pemFileSetting } from './tls-settings';
