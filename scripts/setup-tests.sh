#!/usr/bin/env bash
# What the tests need before they run: scripts/setup.sh on the test database, the browser,
# no keys left from an earlier run, and the marker table that tells the test database from
# any other (tools/run-tests.sh refuses a database without it). Safe to run again.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
source scripts/test-env.sh

bash scripts/setup.sh
bash scripts/browser.sh
node --require @swc-node/register scripts/clear-test-keys.ts
node -e '
  const { Client } = require("pg");
  const [url, table] = process.argv.slice(1);
  const client = new Client({ connectionString: url });
  client
    .connect()
    .then(() => client.query(`CREATE TABLE IF NOT EXISTS ${table} (marked_at timestamptz NOT NULL DEFAULT now())`))
    .then(() => client.query(`COMMENT ON TABLE ${table} IS $$made by scripts/setup-tests.sh: the tests may write here, and only here$$`))
    .finally(() => client.end());
' "$DATABASE_URL" "$TEST_DATABASE_MARKER"
