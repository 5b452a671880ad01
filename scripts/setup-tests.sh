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
node scripts/test-database-marker.js mark "$DATABASE_URL"
