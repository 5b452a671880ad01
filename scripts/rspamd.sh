#!/usr/bin/env bash
# Makes sure Letterbox's own rspamd answers on RSPAMD_PORT (its scanner) and RSPAMD_CONTROLLER_PORT
# (learning, statistics): installs Debian's package with apt-get when run as root, writes its
# configuration under var/rspamd (Debian's, with our ports, the controller's password from
# RSPAMD_PASSWORD, Bayes in our Redis, and no module that waits on the internet), and starts it
# without systemd. An rspamd already answering on the port is taken as it is.
set -euo pipefail

port_open() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

ROOT=$(cd "$(dirname "$0")/.." && pwd)
source "$ROOT/scripts/apt.sh"

RSPAMD_PORT=${RSPAMD_PORT:-11333}
RSPAMD_CONTROLLER_PORT=${RSPAMD_CONTROLLER_PORT:-11334}
# The demo's public default, as libs/config's demoSecret knows it: production sets its own.
RSPAMD_PASSWORD=${RSPAMD_PASSWORD:-letterbox-rspamd}
# Scanner processes: each scores on one core, so one per core bounds the spam stage by the machine, not by one process.
RSPAMD_WORKERS=${RSPAMD_WORKERS:-$(nproc)}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379}

port_open "$RSPAMD_PORT" && exit 0

if ! command -v rspamd >/dev/null; then
  can_apt || { echo "error: rspamd is not running on port $RSPAMD_PORT and not installed (Debian: apt-get install rspamd)." >&2; exit 1; }
  apt_install rspamd
fi

DIR=$ROOT/var/rspamd
mkdir -p "$DIR/local.d" "$DIR/override.d" "$DIR/db" "$DIR/run" "$DIR/log"
read -r REDIS_HOST REDIS_PORT REDIS_DB < <(node -e 'const u=new URL(process.argv[1]);console.log(u.hostname.replace(/^\[|\]$/g,""),u.port||6379,u.pathname.slice(1)||0)' "$REDIS_URL")

cat >"$DIR/override.d/worker-normal.inc" <<CONF
bind_socket = "127.0.0.1:$RSPAMD_PORT";
count = $RSPAMD_WORKERS;
CONF
cat >"$DIR/override.d/worker-controller.inc" <<CONF
bind_socket = "127.0.0.1:$RSPAMD_CONTROLLER_PORT";
password = "$RSPAMD_PASSWORD";
# Every caller gives the password, local or not.
secure_ip = [];
CONF
echo 'count = -1;' >"$DIR/override.d/worker-proxy.inc"
echo "servers = \"$REDIS_HOST:$REDIS_PORT\";" >"$DIR/local.d/redis.conf"
# rspamd sends SELECT before every command when a db is named: two more round trips a message,
# 7-9% of the scanner's CPU (bench/README.md), for the database Redis starts in anyway.
[ "$REDIS_DB" = 0 ] || echo "db = \"$REDIS_DB\";" >>"$DIR/local.d/redis.conf"
# Lookups a machine without the internet would wait on (block lists, fuzzy hashes, URL
# redirects, rspamd's own updates, multimap's freemail and disposable lists, all fetched from
# maps.rspamd.com); checks the intake makes already (SPF, DKIM, DMARC, ARC) and the whitelist
# built on their symbols; the scan history rspamd would write to Redis for every message
# (Letterbox keeps each mail's score and symbols itself, mails.spam); and the milter headers a
# mail server in front would add, which the scanner's callers never read. multimap, whitelist
# and milter_headers cost a fifth of the scanner's CPU on a plain newsletter (bench/README.md).
for module in rbl surbl fuzzy_check asn greylist mx_check ratelimit neural reputation url_redirector \
  replies phishing dkim_signing arc spf dkim dmarc hfilter rspamd_update dcc external_services history_redis \
  multimap whitelist milter_headers; do
  echo 'enabled = false;' >"$DIR/local.d/$module.conf"
done
# A line per scanned message at info: the verdict is on the mail's detail, and the lines cost the scanner's CPU.
echo 'level = "warning";' >"$DIR/local.d/logging.inc"
cat >"$DIR/local.d/options.inc" <<CONF
dns {
  timeout = 0.5s;
  retransmits = 1;
}
CONF

if [ "$(id -u)" = 0 ]; then
  chown -R _rspamd:_rspamd "$DIR/db" "$DIR/run" "$DIR/log"
  user=(-u _rspamd -g _rspamd)
else
  user=()
fi
echo "starting rspamd on port $RSPAMD_PORT ..."
rspamd "${user[@]}" -c /etc/rspamd/rspamd.conf --var="LOCAL_CONFDIR=$DIR" --var="DBDIR=$DIR/db" \
  --var="RUNDIR=$DIR/run" --var="LOGDIR=$DIR/log"
for _ in $(seq 1 60); do port_open "$RSPAMD_PORT" && port_open "$RSPAMD_CONTROLLER_PORT" && exit 0; sleep 0.5; done
echo "error: rspamd did not start listening on port $RSPAMD_PORT (see $DIR/log/rspamd.log)" >&2
exit 1
