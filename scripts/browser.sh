#!/usr/bin/env bash
# Makes sure Chromium is there for the webmail's browser tests (Playwright drives the
# system's Chromium; `npx playwright install` is not used): installs Debian's package with
# apt-get when run as root, or says what to install.
set -euo pipefail

CHROMIUM=${CHROMIUM_PATH:-/usr/bin/chromium}

[ -x "$CHROMIUM" ] && exit 0
source "$(dirname "$0")/apt.sh"

if can_apt; then
  apt_install chromium
  [ -x "$CHROMIUM" ] && exit 0
fi

echo "error: Chromium is not installed at $CHROMIUM: the webmail's browser tests need it. Install it (Debian: apt-get install chromium) and run again." >&2
exit 1
