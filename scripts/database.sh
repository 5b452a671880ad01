#!/usr/bin/env bash
# Creates the role and database named in DATABASE_URL when PostgreSQL is local and they
# are missing, connecting as the postgres superuser (trust on 127.0.0.1, or peer as root).
set -euo pipefail

read -r DB_HOST DB_USER DB_PASSWORD DB_NAME < <(node -e '
  const u = new URL(process.argv[1]);
  console.log(u.hostname, decodeURIComponent(u.username) || "postgres", decodeURIComponent(u.password) || "-", u.pathname.slice(1));
' "$DATABASE_URL")

if node -e 'const {Client}=require("pg");const c=new Client({connectionString:process.argv[1]});c.connect().then(()=>c.end()).catch(()=>process.exit(1))' "$DATABASE_URL"; then
  exit 0
fi
case "$DB_HOST" in 127.0.0.1|localhost|::1) ;; *) echo "error: cannot connect to $DATABASE_URL" >&2; exit 1 ;; esac

admin_psql() {
  if psql -h 127.0.0.1 -U postgres -d postgres -tAc 'SELECT 1' >/dev/null 2>&1; then
    psql -h 127.0.0.1 -U postgres -d postgres -v ON_ERROR_STOP=1 -qtA "$@"
  elif [ "$(id -u)" = 0 ] && id postgres >/dev/null 2>&1; then
    (cd / && runuser -u postgres -- psql -d postgres -v ON_ERROR_STOP=1 -qtA "$@")
  else
    echo "error: cannot connect to $DATABASE_URL, and cannot connect as the postgres superuser to create it." >&2
    echo "Create role '$DB_USER' and database '$DB_NAME', or set DATABASE_URL." >&2
    exit 1
  fi
}

if [ "$(admin_psql -c "SELECT 1 FROM pg_roles WHERE rolname = '$DB_USER'")" != 1 ]; then
  echo "creating PostgreSQL role $DB_USER ..."
  password_clause=""
  [ "$DB_PASSWORD" = - ] || password_clause="PASSWORD '$DB_PASSWORD'"
  admin_psql -c "CREATE ROLE \"$DB_USER\" LOGIN CREATEDB $password_clause"
fi
if [ "$(admin_psql -c "SELECT 1 FROM pg_database WHERE datname = '$DB_NAME'")" != 1 ]; then
  echo "creating database $DB_NAME ..."
  admin_psql -c "CREATE DATABASE \"$DB_NAME\" OWNER \"$DB_USER\""
fi
