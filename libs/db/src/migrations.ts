import { createHash, randomUUID } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { Client } from 'pg';

export interface MigrationReport {
  applied: string[];
  alreadyApplied: string[];
}

// The key `prisma migrate deploy` locks with, so the two never run at once.
const PRISMA_MIGRATE_LOCK = 72707369;

const BOOKKEEPING_TABLE = `
  CREATE TABLE IF NOT EXISTS "_prisma_migrations" (
    "id"                  VARCHAR(36) PRIMARY KEY NOT NULL,
    "checksum"            VARCHAR(64) NOT NULL,
    "finished_at"         TIMESTAMPTZ,
    "migration_name"      VARCHAR(255) NOT NULL,
    "logs"                TEXT,
    "rolled_back_at"      TIMESTAMPTZ,
    "started_at"          TIMESTAMPTZ NOT NULL DEFAULT now(),
    "applied_steps_count" INTEGER NOT NULL DEFAULT 0
  )`;

/**
 * Applies prisma/migrations/<name>/migration.sql in name order, each in its own
 * transaction, recording them in `_prisma_migrations` exactly as Prisma Migrate does,
 * so `prisma migrate deploy` and this runner can take turns on one database.
 */
export async function applyMigrations(databaseUrl: string, migrationsDir: string): Promise<MigrationReport> {
  const client = new Client({ connectionString: databaseUrl });
  await client.connect();
  const report: MigrationReport = { applied: [], alreadyApplied: [] };
  try {
    await client.query('SELECT pg_advisory_lock($1)', [PRISMA_MIGRATE_LOCK]);
    await client.query(BOOKKEEPING_TABLE);
    const done = await client.query<{ migration_name: string; checksum: string }>(
      `SELECT migration_name, checksum FROM "_prisma_migrations"
        WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL`,
    );
    const applied = new Map(done.rows.map((row) => [row.migration_name, row.checksum]));
    for (const name of await migrationNames(migrationsDir)) {
      const script = await readFile(path.join(migrationsDir, name, 'migration.sql'), 'utf8');
      const checksum = createHash('sha256').update(script).digest('hex');
      const appliedChecksum = applied.get(name);
      if (appliedChecksum !== undefined) {
        if (appliedChecksum !== checksum) {
          throw new Error(`migration ${name} was edited after it was applied; add a new migration instead`);
        }
        report.alreadyApplied.push(name);
        continue;
      }
      await applyOne(client, name, script, checksum);
      report.applied.push(name);
    }
  } finally {
    await client.end();
  }
  return report;
}

async function migrationNames(migrationsDir: string): Promise<string[]> {
  const entries = await readdir(migrationsDir, { withFileTypes: true });
  return entries
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();
}

async function applyOne(client: Client, name: string, script: string, checksum: string): Promise<void> {
  const id = randomUUID();
  await client.query(`INSERT INTO "_prisma_migrations" (id, checksum, migration_name, started_at) VALUES ($1, $2, $3, now())`, [id, checksum, name]);
  try {
    await client.query('BEGIN');
    await client.query(script);
    await client.query(`UPDATE "_prisma_migrations" SET finished_at = now(), applied_steps_count = 1 WHERE id = $1`, [id]);
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK');
    const message = error instanceof Error ? error.message : String(error);
    await client.query(`UPDATE "_prisma_migrations" SET logs = $2 WHERE id = $1`, [id, message]);
    throw new Error(`migration ${name} failed: ${message}`);
  }
}
