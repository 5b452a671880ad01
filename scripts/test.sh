#!/usr/bin/env bash
# `npm test`: sets up what the tests need (packages, services, a test database with its
# migrations), then type-checks, lints and tests every project through Nx.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

source scripts/test-env.sh
export NX_DAEMON=false NX_NO_CLOUD=true NX_TUI=false

bash scripts/setup-tests.sh
# Two at a time, one a core: each tsc or eslint is one process on one core, and they only read (nx.json's parallel of
# 1 is for the tests, whose servers must not meet).
npx --no-install nx run-many -t typecheck lint --parallel=2 --outputStyle=stream
# The whole output is kept: a failing run ends by repeating its failing tests, where a
# reader of only the output's last part (a CI log) finds them.
mkdir -p tmp
if ! npx --no-install nx run-many -t test --parallel=1 --outputStyle=stream 2>&1 | tee tmp/test-output.log; then
  node --require @swc-node/register scripts/failing-tests.ts tmp/test-output.log
  exit 1
fi
