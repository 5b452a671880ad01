#!/usr/bin/env bash
# Makes sure Chromium is there for the webmail's browser tests (Playwright drives the
# system's Chromium; `npx playwright install` is not used): installs Debian's package with
# apt-get when run as root, or says what to install.
set -euo pipefail

CHROMIUM=${CHROMIUM_PATH:-/usr/bin/chromium}

[ -x "$CHROMIUM" ] && exit 0

if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
  echo "installing chromium with apt-get ..."
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get install -y -qq chromium >/dev/null 2>&1; then
    apt-get update -qq
    apt-get install -y -qq chromium >/dev/null
  fi
  [ -x "$CHROMIUM" ] && exit 0
fi

echo "error: Chromium is not installed at $CHROMIUM: the webmail's browser tests need it. Install it (Debian: apt-get install chromium) and run again." >&2
exit 1
