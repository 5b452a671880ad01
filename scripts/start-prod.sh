#!/usr/bin/env bash
# `npm run start:prod`: runs the built apps for real, in the foreground: no demo data, no mock
# providers, and nothing started until every app's settings are right (each problem named).
# The database is migrated beforehand (`npm run migrate`), the apps built (`npm run build`).
# LETTERBOX_DIST: where the built apps are (dist/ of the repository unless told).
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"
DIST=${LETTERBOX_DIST:-$ROOT/dist}

if [ "${LETTERBOX_DEMO:-}" = "true" ]; then
  echo "LETTERBOX_DEMO=true is the demo: run npm start for it, or unset LETTERBOX_DEMO for production." >&2
  exit 1
fi
export LETTERBOX_DEMO=false

node --require @swc-node/register scripts/production-settings.ts

if [ ! -f "$DIST/apps/webmail/public/index.html" ]; then
  echo "the apps are not built in $DIST: run npm run build first." >&2
  exit 1
fi
export WEBMAIL_STATIC_DIR=${WEBMAIL_STATIC_DIR:-$DIST/apps/webmail/public}

pids=()
stop_all() {
  trap - INT TERM EXIT
  [ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap stop_all INT TERM EXIT

apps=(read-api send-api delivery-worker ingest ingest-worker notify-worker webmail imap)
# Mail clients' SMTP submission takes passwords, over TLS only: it runs once given its certificate (README, "Mail clients").
[ -z "${SUBMISSION_TLS_CERT:-}" ] || apps+=(submission)

# JSON log lines, each with its app: a log collector reads them as they are.
for app in "${apps[@]}"; do
  # 64 MB semi-spaces: fewer scavenges under load, as scripts/start.sh says.
  node --enable-source-maps --max-semi-space-size=64 "$DIST/apps/$app/src/main.js" &
  pids+=($!)
done
echo "Letterbox is starting in production (pids ${pids[*]}); Ctrl-C or SIGTERM stops every app." >&2
wait -n
echo "an app stopped; stopping the rest" >&2
exit 1
