#!/usr/bin/env bash
# Runs one project's *.test.ts (and *.test.tsx) files with Node's test runner, TypeScript compiled by SWC on load
# (tools/test-register.cjs: @swc-node/register's output, cached on disk).
# Usage: tools/run-tests.sh <project-root>, the command of every test target (tools/test-targets.test.ts checks it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
ROOT=$root source scripts/test-env.sh
if ! node -e '
  const { Client } = require("pg");
  const [url, table] = process.argv.slice(1);
  const client = new Client({ connectionString: url });
  client
    .connect()
    .then(() => client.query("SELECT to_regclass($1) IS NOT NULL AS marked", [table]))
    .then(({ rows }) => (process.exitCode = rows[0].marked ? 0 : 1), () => (process.exitCode = 1))
    .finally(() => client.end());
' "$DATABASE_URL" "$TEST_DATABASE_MARKER"; then
  echo "error: $DATABASE_URL is not a test database (no $TEST_DATABASE_MARKER table), or cannot be reached." >&2
  echo "The tests run only on a database scripts/setup-tests.sh set up: run npm test once, or bash scripts/setup-tests.sh (TEST_DATABASE_URL names another)." >&2
  exit 1
fi
# Warnings and errors only: the apps tests start in-process would log every request.
export LOG_LEVEL=${LOG_LEVEL:-warn}
mapfile -t files < <(find "$1" \( -name '*.test.ts' -o -name '*.test.tsx' \) -not -path '*/node_modules/*' | sort)
if [ ${#files[@]} -eq 0 ]; then
  echo "no tests in $1" >&2
  exit 1
fi
# One file at a time: end-to-end tests start servers and workers that must not meet.
exec node --require "$root/tools/test-register.cjs" --test --test-concurrency=1 --test-reporter=spec "${files[@]}"
