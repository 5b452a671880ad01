#!/usr/bin/env bash
# `npm start`: sets up everything on this machine, seeds the demo office once, and runs
# the platform in the foreground. Ctrl-C stops every app.
set -euo pipefail
ROOT=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT"

# LETTERBOX_DEMO=false (or NODE_ENV=production) is a production start: npm run start:prod's, no demo at all.
if [ "${LETTERBOX_DEMO:-true}" != "true" ] || [ "${NODE_ENV:-}" = "production" ]; then
  exec bash scripts/start-prod.sh
fi
# The demo runs on the public secrets the README prints; production refuses them.
export LETTERBOX_DEMO=true
# Readable log lines on the terminal; a deployment keeps the JSON lines (LOG_PRETTY=false).
export LOG_PRETTY=${LOG_PRETTY:-true}

bash scripts/setup.sh
node --require @swc-node/register scripts/build.ts
node --require @swc-node/register scripts/seed.ts

# The SMTP listener offers STARTTLS with a self-signed certificate made once for the demo,
# unless given a certificate of its own.
if [ -z "${INGEST_SMTP_TLS_CERT:-}" ] && [ -z "${INGEST_SMTP_TLS_KEY:-}" ]; then
  node --require @swc-node/register scripts/demo-certificate.ts "$ROOT/tmp/tls"
  export INGEST_SMTP_TLS_CERT=$ROOT/tmp/tls/cert.pem INGEST_SMTP_TLS_KEY=$ROOT/tmp/tls/key.pem
fi
# IMAP's STARTTLS and IMAPS present the same certificate unless given one of their own.
export IMAP_TLS_CERT=${IMAP_TLS_CERT:-$INGEST_SMTP_TLS_CERT} IMAP_TLS_KEY=${IMAP_TLS_KEY:-$INGEST_SMTP_TLS_KEY}

pids=()
stop_all() {
  trap - INT TERM EXIT
  [ ${#pids[@]} -eq 0 ] || kill "${pids[@]}" 2>/dev/null || true
  wait 2>/dev/null || true
}
trap stop_all INT TERM EXIT

# The app's own pid goes in pids (not a pipeline's last command), so stopping reaches it
# however the script is stopped: Ctrl-C, SIGTERM, or one app exiting.
# Semi-spaces of up to 64 MB: the read API answering 25,000 requests a second spent a fifth of its main thread in
# scavenges with V8's default and a twentieth with this, and answered about 8% more (bench/README, issue 31).
run() {
  local name=$1; shift
  node --enable-source-maps --max-semi-space-size=64 "$@" > >(sed -u "s/^/[$name] /") 2>&1 &
  pids+=($!)
}

# The apps look up SPF, DKIM and DMARC records in the mock providers' DNS, which serves the demo and test domains.
export MOCK_DNS_PORT=${MOCK_DNS_PORT:-5354}
export DNS_SERVERS=${DNS_SERVERS:-127.0.0.1:${MOCK_DNS_PORT}}

# Without Google credentials, push notifications go to the mock providers' FCM endpoint.
[ -n "${GOOGLE_APPLICATION_CREDENTIALS:-}" ] || export FCM_MOCK_URL=${FCM_MOCK_URL:-http://127.0.0.1:3005}

# Mail to @bounce.example comes back as a DSN through the ingest app's SMTP intake.
export MOCK_SMTP_BOUNCE_PORT=${MOCK_SMTP_BOUNCE_PORT:-${INGEST_SMTP_PORT:-2525}}
run mock-providers dist/apps/mock-providers/src/main.js
run read-api dist/apps/read-api/src/main.js
run send-api dist/apps/send-api/src/main.js
# The mock SMTP provider lists what it accepted: a delivery cut short asks it before sending again.
SMTP_RECEIPTS_URL=${SMTP_RECEIPTS_URL:-http://127.0.0.1:${MOCK_PROVIDERS_HTTP_PORT:-3005}} run delivery-worker dist/apps/delivery-worker/src/main.js
run ingest dist/apps/ingest/src/main.js
run ingest-worker dist/apps/ingest-worker/src/main.js
run notify-worker dist/apps/notify-worker/src/main.js
run imap dist/apps/imap/src/main.js
# Mail clients submit over TLS with the same demo certificate, unless given their own.
SUBMISSION_TLS_CERT=${SUBMISSION_TLS_CERT:-$INGEST_SMTP_TLS_CERT} SUBMISSION_TLS_KEY=${SUBMISSION_TLS_KEY:-$INGEST_SMTP_TLS_KEY} run submission dist/apps/submission/src/main.js
run webmail dist/apps/webmail/src/main.js

cat <<INFO
Letterbox is starting:
  webmail         http://127.0.0.1:${WEBMAIL_PORT:-8080}
  read API        http://127.0.0.1:${READ_API_PORT:-3000}   (OpenAPI at /docs)
  send API        http://127.0.0.1:${SEND_API_PORT:-3001}   (OpenAPI at /docs; queue dashboard at /admin/queues, admin / letterbox-admin)
  ingest          http://127.0.0.1:${INGEST_HTTP_PORT:-3002}/v2/inbound (Bearer ${INGEST_TOKEN:-letterbox-ingest-demo}), SMTP 127.0.0.1:${INGEST_SMTP_PORT:-2525} (STARTTLS; try: swaks --tls --server 127.0.0.1:${INGEST_SMTP_PORT:-2525} --to bob@letterbox.test)
  IMAP            127.0.0.1:${IMAP_PORT:-1143} (STARTTLS; plaintext sign-in allowed in the demo), IMAPS 127.0.0.1:${IMAPS_PORT:-1993}; user name: the email address
  submission      SMTP 127.0.0.1:${SUBMISSION_PORT:-1587} (STARTTLS) and 127.0.0.1:${SUBMISSIONS_PORT:-1465} (TLS) for mail clients: AUTH with the address and password below (self-signed certificate)
  mock SMTP       127.0.0.1:${MOCK_SMTP_PORT:-1025}, mock FCM and control API http://127.0.0.1:${MOCK_PROVIDERS_HTTP_PORT:-3005}
  mock DNS        127.0.0.1:${MOCK_DNS_PORT} (UDP and TCP; the apps' DNS_SERVERS=${DNS_SERVERS}), e.g. dig @127.0.0.1 -p ${MOCK_DNS_PORT} TXT _dmarc.letterbox.test
  /metrics        on each app's ops port only: delivery 9101, ingest worker 9102, notify 9103, read API 9104, send API 9105, ingest 9106, webmail 9107, IMAP 9108, submission 9109
Sign in as alice@letterbox.test or bob@letterbox.test with password letterbox-demo.
INFO
wait -n
echo "an app stopped; stopping the rest" >&2
exit 1
