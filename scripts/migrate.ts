import path from 'node:path';
import { databaseConfig, loadConfig } from '@letterbox/config';
import { applyMigrations } from '@letterbox/db';

async function main(): Promise<void> {
  const config = loadConfig({ DATABASE_URL: databaseConfig.DATABASE_URL });
  const report = await applyMigrations(config.DATABASE_URL, path.resolve(__dirname, '../prisma/migrations'));
  const target = new URL(config.DATABASE_URL).pathname.slice(1);
  if (report.applied.length > 0) console.log(`migrations applied to ${target}: ${report.applied.join(', ')}`);
  else console.log(`database ${target} is up to date (${report.alreadyApplied.length} migrations)`);
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
