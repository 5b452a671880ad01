import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import type { PoolClient } from 'pg';
import { declaredStatements, type Database } from '@letterbox/db';
import { testDatabase } from '@letterbox/testing';
// Loading a library's entry declares its named statements (namedStatement, at module level).
import '@letterbox/accounts';
import '@letterbox/audit';
import '@letterbox/auth';
import '@letterbox/blob-references';
import '@letterbox/ingest';
import '@letterbox/mail';
import '@letterbox/push';
import '@letterbox/sending';

const ROOT = path.resolve(__dirname, '..');
const DECLARED = /namedStatement\(\s*'([^']+)'/g;
/** A query given its name inline, which only namedStatement should give. */
const NAMED_INLINE = /\.query(?:<[^(]*?>)?\(\s*\{\s*name:\s*['`]/;

/** The production code of the apps and libraries: no tests, no testing folders, nothing generated. */
async function productionFiles(folder: string): Promise<string[]> {
  const entries = await readdir(path.join(ROOT, folder), { withFileTypes: true });
  const files = await Promise.all(
    entries.map(async (entry) => {
      const relative = path.join(folder, entry.name);
      if (entry.isDirectory()) return ['node_modules', 'generated', 'testing', 'dist'].includes(entry.name) ? [] : productionFiles(relative);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [relative] : [];
    }),
  );
  return files.flat();
}

describe('every named statement of the project prepares against the migrated schema', () => {
  const statements = declaredStatements();
  let sources: Array<{ file: string; text: string }>;
  let db: Database;
  let client: PoolClient;

  before(async () => {
    const files = [...(await productionFiles('apps')), ...(await productionFiles('libs'))];
    sources = await Promise.all(files.map(async (file) => ({ file, text: await readFile(path.join(ROOT, file), 'utf8') })));
    db = testDatabase(1);
    client = await db.sql.connect();
  });

  after(async () => {
    client.release();
    await db.close();
  });

  test('the statements are declared, none named inline, and this test loads every library that declares one', () => {
    const inline = sources.filter(({ text }) => NAMED_INLINE.test(text)).map(({ file }) => file);
    assert.deepEqual(inline, [], 'a query named inline: declare it with namedStatement (@letterbox/db), so that this test prepares it');
    const loaded = new Set(statements.map((statement) => statement.name));
    const missing = sources.flatMap(({ file, text }) =>
      [...text.matchAll(DECLARED)].filter(([, name]) => !loaded.has(name)).map(([, name]) => `${name} (${file})`),
    );
    assert.deepEqual(missing, [], "declared in a library this test does not import: add its entry to the test's imports");
  });

  for (const statement of statements) {
    test(statement.name, async () => {
      // Parsed and analysed, not run: a table or column the schema lacks, or a type that does not fit, fails it.
      await client.query(`PREPARE statement_under_test AS ${statement.text}`);
      await client.query('DEALLOCATE statement_under_test');
    });
  }
});
