export { loadConfig, ConfigError } from './load-config';
export { databaseConfig, requestDatabaseConfig, storageConfig, authConfig, redisConfig, portFrom } from './common-settings';
