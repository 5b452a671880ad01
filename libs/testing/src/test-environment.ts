import { authConfig, databaseConfig, loadConfig, redisConfig, storageConfig } from '@letterbox/config';
import { createDatabase, type Database } from '@letterbox/db';
import { BlobStore } from '@letterbox/storage';

/** The settings `npm test` exported: the test database and a scratch storage folder. */
export function testSettings() {
  return loadConfig({ ...databaseConfig, ...storageConfig, ...authConfig, ...redisConfig });
}

export function testDatabase(poolSize = 5): Database {
  return createDatabase({ url: testSettings().DATABASE_URL, poolSize, applicationName: 'letterbox-tests' });
}

export function testBlobStore(): BlobStore {
  const settings = testSettings();
  return new BlobStore(settings.STORAGE_DIR, settings.STORAGE_COMPRESS);
}
