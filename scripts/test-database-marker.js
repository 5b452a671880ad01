// The marker that tells the test database from any other: `mark` makes it (scripts/setup-tests.sh),
// `check` exits 1 when the database lacks it or cannot be reached (tools/run-tests.sh).
// Plain JavaScript: every test target runs the check, and compiling TypeScript would cost it half a second.
const { Client } = require('pg');

const MARKER = 'letterbox_test_database';
const [command, url] = process.argv.slice(2);
const statements = {
  mark: [
    `CREATE TABLE IF NOT EXISTS ${MARKER} (marked_at timestamptz NOT NULL DEFAULT now())`,
    `COMMENT ON TABLE ${MARKER} IS $$made by scripts/setup-tests.sh: the tests may write here, and only here$$`,
  ],
  check: [`SELECT to_regclass('${MARKER}') IS NOT NULL AS marked`],
}[command];
if (!statements || !url) {
  process.stderr.write('usage: node scripts/test-database-marker.js mark|check <database url>\n');
  process.exit(2);
}

const client = new Client({ connectionString: url });
client
  .connect()
  .then(async () => {
    let last;
    for (const statement of statements) last = await client.query(statement);
    if (command === 'check' && !last.rows[0].marked) {
      process.stderr.write(`error: ${url} is not a test database (no ${MARKER} table).\n`);
      process.exitCode = 1;
    }
  })
  .catch((error) => {
    process.stderr.write(`error: ${url}: ${error.message}\n`);
    process.exitCode = 1;
  })
  .finally(() => client.end());
