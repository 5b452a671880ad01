#!/usr/bin/env bash
# Everything `npm start` and `npm test` need before they run: packages, services, the
# database with its migrations, and the generated Prisma client. Safe to run again.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

export DATABASE_URL=${DATABASE_URL:-postgresql://letterbox:letterbox@127.0.0.1:5432/letterbox}
export REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}

if [ ! -d node_modules ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  echo "installing packages ..."
  # Not `npm ci`: it refuses a lock file that lacks other platforms' optional binaries,
  # which a registry mirror may not carry. --no-save installs exactly what the lock says.
  npm install --no-audit --no-fund --no-save --loglevel=error
fi

bash scripts/services.sh
bash scripts/rspamd.sh
bash scripts/swaks.sh
bash scripts/database.sh

# Writes the Prisma client and Kysely's table types (prisma-kysely), both from the schema,
# offline. The CLI only needs the schema engine for migrate; generate checks that the file exists.
PRISMA_SCHEMA_ENGINE_BINARY=${PRISMA_SCHEMA_ENGINE_BINARY:-$(command -v node)} \
  npx --no-install prisma generate >/dev/null
node --require @swc-node/register scripts/migrate.ts
