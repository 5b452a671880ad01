#!/usr/bin/env bash
# Makes sure PostgreSQL and Redis answer on the addresses in DATABASE_URL and REDIS_URL:
# starts them if installed, installs them with apt on Debian as root, or says what to install.
set -euo pipefail

port_open() { (exec 3<>"/dev/tcp/$1/$2") 2>/dev/null; }

wait_for() {
  local name=$1 host=$2 port=$3
  for _ in $(seq 1 60); do port_open "$host" "$port" && return 0; sleep 0.5; done
  echo "error: $name did not start listening on $host:$port" >&2
  exit 1
}

source "$(dirname "$0")/apt.sh"

is_local() { [ "$1" = 127.0.0.1 ] || [ "$1" = localhost ] || [ "$1" = ::1 ]; }

ensure_postgres() {
  local host=$1 port=$2
  port_open "$host" "$port" && return 0
  if ! is_local "$host"; then echo "error: PostgreSQL at $host:$port is not reachable (DATABASE_URL)" >&2; exit 1; fi
  if ! command -v pg_ctlcluster >/dev/null; then
    can_apt || { echo "error: PostgreSQL is not running and not installed. Install PostgreSQL 15+ (Debian: apt-get install postgresql) or set DATABASE_URL." >&2; exit 1; }
    apt_install postgresql
  fi
  local version
  version=$(ls /etc/postgresql | sort -V | tail -n 1)
  echo "starting PostgreSQL $version ..."
  pg_ctlcluster --skip-systemctl-redirect "$version" main start || true
  wait_for PostgreSQL "$host" "$port"
}

ensure_redis() {
  local host=$1 port=$2
  port_open "$host" "$port" && return 0
  if ! is_local "$host"; then echo "error: Redis at $host:$port is not reachable (REDIS_URL)" >&2; exit 1; fi
  if ! command -v redis-server >/dev/null; then
    can_apt || { echo "error: Redis is not running and not installed. Install Redis 7 (Debian: apt-get install redis-server) or set REDIS_URL." >&2; exit 1; }
    apt_install redis-server
  fi
  echo "starting Redis on port $port ..."
  mkdir -p "$ROOT/var/redis"
  # Append-only persistence: queued jobs must survive a Redis restart.
  redis-server --daemonize yes --bind 127.0.0.1 --port "$port" --dir "$ROOT/var/redis" --appendonly yes \
    --logfile "$ROOT/var/redis/redis.log"
  wait_for Redis "$host" "$port"
}

ROOT=$(cd "$(dirname "$0")/.." && pwd)
read -r PG_HOST PG_PORT < <(node -e 'const u=new URL(process.argv[1]);console.log(u.hostname.replace(/^\[|\]$/g,""),u.port||5432)' "$DATABASE_URL")
read -r REDIS_HOST REDIS_PORT < <(node -e 'const u=new URL(process.argv[1]);console.log(u.hostname.replace(/^\[|\]$/g,""),u.port||6379)' "$REDIS_URL")
ensure_postgres "$PG_HOST" "$PG_PORT"
ensure_redis "$REDIS_HOST" "$REDIS_PORT"
