import assert from 'node:assert/strict';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from 'pg';
import { applyMigrations } from './migrations';

const baseUrl = process.env.DATABASE_URL ?? 'postgresql://letterbox:letterbox@127.0.0.1:5432/letterbox_test';

/** Runs against a throwaway database so the real one's bookkeeping is left alone. */
describe('applyMigrations', () => {
  const databaseName = `letterbox_migrations_${process.pid}`;
  const url = Object.assign(new URL(baseUrl), { pathname: `/${databaseName}` }).toString();
  let dir: string;

  async function admin<T>(work: (client: Client) => Promise<T>): Promise<T> {
    const client = new Client({ connectionString: baseUrl });
    await client.connect();
    try {
      return await work(client);
    } finally {
      await client.end();
    }
  }

  async function writeMigration(name: string, sql: string) {
    await mkdir(path.join(dir, name), { recursive: true });
    await writeFile(path.join(dir, name, 'migration.sql'), sql);
  }

  before(async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'letterbox-migrations-'));
    await admin((client) => client.query(`CREATE DATABASE ${databaseName}`));
  });

  after(async () => {
    await admin((client) => client.query(`DROP DATABASE IF EXISTS ${databaseName} WITH (FORCE)`));
    await rm(dir, { recursive: true, force: true });
  });

  test('applies new migrations in name order and records them as Prisma Migrate does', async () => {
    await writeMigration('20260101000000_first', 'CREATE TABLE first_table (id int);');
    await writeMigration('20260102000000_second', 'ALTER TABLE first_table ADD COLUMN name text;');
    const report = await applyMigrations(url, dir);
    assert.deepEqual(report.applied, ['20260101000000_first', '20260102000000_second']);
    const client = new Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query(
      'SELECT migration_name, length(checksum) AS checksum_length, applied_steps_count, finished_at IS NOT NULL AS finished FROM _prisma_migrations ORDER BY migration_name',
    );
    await client.end();
    assert.deepEqual(rows, [
      { migration_name: '20260101000000_first', checksum_length: 64, applied_steps_count: 1, finished: true },
      { migration_name: '20260102000000_second', checksum_length: 64, applied_steps_count: 1, finished: true },
    ]);
  });

  test('running again applies nothing', async () => {
    const report = await applyMigrations(url, dir);
    assert.deepEqual(report.applied, []);
    assert.equal(report.alreadyApplied.length, 2);
  });

  test('a failing migration is rolled back and named', async () => {
    await writeMigration('20260103000000_broken', 'CREATE TABLE half_done (id int); SELECT * FROM no_such_table;');
    await assert.rejects(applyMigrations(url, dir), /20260103000000_broken failed: .*no_such_table/);
    const client = new Client({ connectionString: url });
    await client.connect();
    const { rows } = await client.query(`SELECT to_regclass('half_done') AS table_name`);
    await client.end();
    assert.equal(rows[0].table_name, null);
    await rm(path.join(dir, '20260103000000_broken'), { recursive: true });
  });

  test('an edited migration that was applied is refused', async () => {
    await writeMigration('20260101000000_first', 'CREATE TABLE first_table (id bigint);');
    await assert.rejects(applyMigrations(url, dir), /20260101000000_first was edited after it was applied/);
  });
});
