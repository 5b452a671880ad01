export { loadConfig, ConfigError } from './load-config';
export { databaseConfig, requestDatabaseConfig, storageConfig, authConfig, redisConfig, adminConfig, ingestTokenConfig, httpConfig, portFrom } from './common-settings';
