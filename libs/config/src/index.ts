export { loadConfig, ConfigError } from './load-config';
export { databaseConfig, storageConfig, authConfig, redisConfig, portFrom } from './common-settings';
