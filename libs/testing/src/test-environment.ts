import { authConfig, databaseConfig, loadConfig, redisConfig, storageConfig } from '@letterbox/config';
import { createDatabase, type Database } from '@letterbox/db';
import { createBlobStore, type BlobStore } from '@letterbox/storage';

/** The settings `npm test` exported: the test database and a scratch storage folder (or, with STORAGE_BACKEND=s3, a test S3: startTestS3). */
export function testSettings() {
  return loadConfig({ ...databaseConfig, ...storageConfig, ...authConfig, ...redisConfig });
}

export function testDatabase(poolSize = 5): Database {
  return createDatabase({ url: testSettings().DATABASE_URL, poolSize, applicationName: 'letterbox-tests' });
}

export function testBlobStore(env: NodeJS.ProcessEnv = {}): BlobStore {
  return createBlobStore(loadConfig(storageConfig, { ...process.env, ...env }));
}
