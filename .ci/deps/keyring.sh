#!/usr/bin/env bash
# Real peer for the OS-keyring test (tests/graph_keyring.rs): GNOME Keyring, a Secret Service
# implementation, which the test starts with `gnome-keyring-daemon --unlock` on a private D-Bus
# session (dbus-daemon from the `dbus` packages), never on the user's own bus.
# Idempotent and quiet: does nothing when everything is already there.
set -euo pipefail

have() {
  command -v dbus-daemon >/dev/null 2>&1 && command -v gnome-keyring-daemon >/dev/null 2>&1
}

if have; then
  exit 0
fi

if [ "$(id -u)" != 0 ]; then
  echo "keyring deps: missing dbus-daemon / gnome-keyring-daemon and not root; run as root:" >&2
  echo "  apt-get install -y --no-install-recommends dbus dbus-daemon gnome-keyring" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Quiet on success; the whole apt output on failure.
run() {
  if ! "$@" >"$log" 2>&1; then
    cat "$log" >&2
    echo "keyring deps: failed: $*" >&2
    exit 1
  fi
}
# Refresh the package lists only when they are missing or more than a day old.
if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages' -mmin -1440 2>/dev/null | head -n1)" ]; then
  run apt-get update -qq
fi
run apt-get install -y -qq --no-install-recommends dbus dbus-daemon gnome-keyring

if ! have; then
  echo "keyring deps: installed packages, but dbus-daemon or gnome-keyring-daemon is still missing" >&2
  exit 1
fi
