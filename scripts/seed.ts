import { databaseConfig, dkimKeyConfig, loadConfig, storageConfig } from '@letterbox/config';
import { createDatabase } from '@letterbox/db';
import { DEMO_ADMIN, DEMO_DOMAIN, DEMO_PASSWORD, seedDemoDkimKeys, seedDemoOffice } from '@letterbox/demo-data';
import { createBlobStore } from '@letterbox/storage';

async function main(): Promise<void> {
  const config = loadConfig({ ...databaseConfig, ...storageConfig, ...dkimKeyConfig });
  const db = createDatabase({ url: config.DATABASE_URL, poolSize: 4, applicationName: 'letterbox-seed' });
  const blobs = createBlobStore(config);
  try {
    const seeded = await seedDemoOffice(db, blobs);
    if (seeded)
      console.log(`demo office seeded: alice@${DEMO_DOMAIN}, bob@${DEMO_DOMAIN} and the administrator ${DEMO_ADMIN.address}, password ${DEMO_PASSWORD}`);
    else console.log(`demo office already seeded (alice@${DEMO_DOMAIN}, bob@${DEMO_DOMAIN}, administrator ${DEMO_ADMIN.address}, password ${DEMO_PASSWORD})`);
    const keys = await seedDemoDkimKeys(db, config.DKIM_KEY_ENCRYPTION_KEY);
    if (keys.length > 0) console.log(`DKIM keys of ${DEMO_DOMAIN} made: ${keys.map((key) => key.dnsName).join(', ')}`);
  } finally {
    blobs.close();
    await db.close();
  }
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
