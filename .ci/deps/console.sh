#!/usr/bin/env bash
# Peers for the console tests (tests/console_e2e.rs, tests/console_tmux.rs,
# tests/cli_conventions.rs, tests/tui_*.rs) and benches/console.rs. The end-to-end tests drive
# the real binary in a pseudo-terminal (portable-pty) read through a vt100 screen model, which
# needs only the kernel's pty device, and in a real tmux at 80x24 (tests/console_tmux.rs), which
# needs tmux. Idempotent and quiet.
set -euo pipefail

if [ ! -e /dev/ptmx ]; then
  echo "console tests need a pseudo-terminal device (/dev/ptmx)" >&2
  exit 1
fi

if command -v tmux >/dev/null 2>&1; then
  exit 0
fi

if [ "$(id -u)" != 0 ]; then
  if command -v sudo >/dev/null 2>&1; then
    exec sudo -n "$0" "$@"
  fi
  echo "tmux is missing and this is not root; install it with: apt-get install -y tmux" >&2
  exit 1
fi

export DEBIAN_FRONTEND=noninteractive
apt-get update -qq >/dev/null
apt-get install -y -qq tmux >/dev/null
