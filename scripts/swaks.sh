#!/usr/bin/env bash
# Makes sure swaks (the SMTP test tool) is there: the tests deliver with `swaks --tls`, and
# the demo suggests it. Installs Debian's package with apt-get when run as root; otherwise
# says what to install, and the tests that need it are skipped.
set -euo pipefail

command -v swaks >/dev/null && exit 0
source "$(dirname "$0")/apt.sh"

if can_apt; then
  apt_install swaks
  exit 0
fi

echo "note: swaks is not installed, so the test that delivers with swaks --tls is skipped (Debian: apt-get install swaks)." >&2
