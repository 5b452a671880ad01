import { databaseConfig, loadConfig, storageConfig } from '@letterbox/config';
import { createDatabase } from '@letterbox/db';
import { seedDemoOffice } from '@letterbox/demo-data';
import { createBlobStore } from '@letterbox/storage';
import { ensureBenchReceipts } from './data/bench-receipts';
import { ensureBulkUser } from './data/bulk-user';
import { ensureSearchBodies } from './data/search-bodies';
import { ensureSenderUsers } from './data/sender-users';

/** Makes the data every scenario reads; each step checks first, so running it again is cheap. */
async function prepare(): Promise<void> {
  const config = loadConfig({ ...databaseConfig, ...storageConfig });
  const db = createDatabase({ url: config.DATABASE_URL, poolSize: 2, applicationName: 'letterbox-bench-prepare' });
  try {
    const blobs = createBlobStore(config);
    const seeded = await seedDemoOffice(db, blobs);
    console.log(seeded ? 'demo office seeded' : 'demo office already there');
    await ensureBulkUser(db, blobs);
    await ensureSearchBodies(db);
    await ensureBenchReceipts(db);
    await ensureSenderUsers(db);
  } finally {
    await db.close();
  }
}

prepare().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
