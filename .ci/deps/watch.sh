#!/usr/bin/env bash
# Real peers for the `opsdesk watch` tests (tests/watch*.rs): a D-Bus session bus and a
# notification server (python-dbusmock's notification_daemon template) on Debian's own python.
# The tests call `/usr/bin/python3 -m dbusmock` explicitly, because the python3 on PATH may be
# another interpreter (pyenv) that does not see Debian's python3-* packages.
# Idempotent and quiet: does nothing when everything is already there.
set -euo pipefail

have() {
  command -v dbus-daemon >/dev/null 2>&1 &&
    command -v dbus-send >/dev/null 2>&1 &&
    [ -x /usr/bin/python3 ] &&
    /usr/bin/python3 -c 'import dbusmock, dbus, gi.repository.GLib' >/dev/null 2>&1
}

if have; then
  exit 0
fi

if [ "$(id -u)" != 0 ]; then
  echo "watch deps: missing dbus-daemon / python3-dbusmock and not root; run as root:" >&2
  echo "  apt-get install -y --no-install-recommends dbus dbus-daemon python3 python3-dbusmock" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Quiet on success; the whole apt output on failure.
run() {
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    echo "watch deps: failed: $*" >&2
    exit 1
  fi
}
# Refresh the package lists only when they are missing or more than a day old.
if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages' -mmin -1440 2>/dev/null | head -n1)" ]; then
  run apt-get update -qq
fi
run apt-get install -y -qq --no-install-recommends \
  dbus dbus-daemon python3 python3-dbus python3-gi python3-dbusmock

if ! have; then
  echo "watch deps: installed packages, but dbus-daemon or /usr/bin/python3 -m dbusmock still fails" >&2
  exit 1
fi
