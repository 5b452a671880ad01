#!/usr/bin/env bash
# Makes sure swaks (the SMTP test tool) is there: the tests deliver with `swaks --tls`, and
# the demo suggests it. Installs Debian's package with apt-get when run as root; otherwise
# says what to install, and the tests that need it are skipped.
set -euo pipefail

command -v swaks >/dev/null && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing swaks with apt-get ..."
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y -qq swaks >/dev/null 2>&1; then
    apt-get update -qq
    apt-get install -y -qq swaks >/dev/null
  fi
  exit 0
fi

echo "note: swaks is not installed, so the test that delivers with swaks --tls is skipped (Debian: apt-get install swaks)." >&2
