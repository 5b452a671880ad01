#!/usr/bin/env bash
# `npm test`: sets up what the tests need (packages, services, a test database with its
# migrations), then type-checks, lints and tests every project through Nx.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

export DATABASE_URL=${TEST_DATABASE_URL:-postgresql://letterbox:letterbox@127.0.0.1:5432/letterbox_test}
export STORAGE_DIR=${TEST_STORAGE_DIR:-$ROOT/tmp/test-storage}
export NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false
# The tests run on the demo's public secrets; outside the demo the apps refuse them.
export LETTERBOX_DEMO=true

bash scripts/setup.sh
bash scripts/browser.sh
node --require @swc-node/register scripts/clear-test-keys.ts
npx --no-install nx run-many -t typecheck lint --outputStyle=stream
# The whole output is kept: a failing run ends by repeating its failing tests, where a
# reader of only the output's last part (a CI log) finds them.
mkdir -p tmp
if ! npx --no-install nx run-many -t test --parallel=1 --outputStyle=stream 2>&1 | tee tmp/test-output.log; then
  node --require @swc-node/register scripts/failing-tests.ts tmp/test-output.log
  exit 1
fi
