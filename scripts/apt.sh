# Sourced by the setup scripts that install a missing Debian package: apt-get as root only.

can_apt() { [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; }

# Installs from the package lists as they are, and refreshes them only when that fails:
# a machine set up once installs without going to the mirror again. Another install running
# (a second setup, a test installing a browser) is waited for, not taken as a failure.
apt_install() {
  echo "installing $* with apt-get ..."
  export DEBIAN_FRONTEND=noninteractive
  if ! apt-get -o DPkg::Lock::Timeout=600 install -y -qq "$@" >/dev/null 2>&1; then
    apt-get update -qq
    apt-get -o DPkg::Lock::Timeout=600 install -y -qq "$@" >/dev/null
  fi
}
