#!/usr/bin/env bash
# Runs one project's *.test.ts files with Node's test runner, TypeScript compiled by SWC on load.
# Usage: tools/run-tests.sh <project-root>
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
mapfile -t files < <(find "$1" -name '*.test.ts' -not -path '*/node_modules/*' | sort)
if [ ${#files[@]} -eq 0 ]; then
  echo "no tests in $1" >&2
  exit 1
fi
exec node --require @swc-node/register --test --test-reporter=spec "${files[@]}"
