#!/usr/bin/env bash
# Runs one project's *.test.ts (and *.test.tsx) files with Node's test runner, TypeScript compiled by SWC on load.
# Usage: tools/run-tests.sh <project-root>, the command of every test target (tools/test-targets.test.ts checks it).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
ROOT=$root source scripts/test-env.sh
if ! node scripts/test-database-marker.js check "$DATABASE_URL"; then
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
exec node --require @swc-node/register --test --test-concurrency=1 --test-reporter=spec "${files[@]}"
