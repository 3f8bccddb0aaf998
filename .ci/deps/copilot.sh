#!/usr/bin/env bash
# The peer for the Copilot Extension webhook's interop test (tests/copilot_sdk.rs): GitHub's
# `@copilot-extensions/preview-sdk` (pinned), whose event helpers give the expected frames and
# whose `verifyRequest` checks the test's signatures. Installed into .ci/tools/npm-copilot; run
# by tests/interop/copilot_sdk.mjs under Node 22 from .ci/deps/mcp.sh. Idempotent and quiet.
set -euo pipefail
cd "$(dirname "$0")/../.."

SDK_VERSION=5.0.1

DIR="$PWD/.ci/tools/npm-copilot"
mkdir -p "$DIR"

if [ "$(cat "$DIR/.pinned" 2>/dev/null)" = "$SDK_VERSION" ] &&
  [ -f "$DIR/node_modules/@copilot-extensions/preview-sdk/package.json" ]; then
  exit 0
fi

if ! command -v npm >/dev/null 2>&1; then
  if [ "$(id -u)" != 0 ]; then
    echo "copilot deps: npm is missing and this is not root; install it (apt-get install -y nodejs npm) and rerun" >&2
    exit 1
  fi
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq >/dev/null
  apt-get install -y -qq --no-install-recommends nodejs npm ca-certificates >/dev/null
fi

echo "copilot deps: installing @copilot-extensions/preview-sdk $SDK_VERSION"
cat >"$DIR/package.json" <<JSON
{ "name": "opsdesk-ci-copilot", "private": true, "type": "module" }
JSON
npm install --prefix "$DIR" --no-audit --no-fund --loglevel=error --save-exact \
  "@copilot-extensions/preview-sdk@$SDK_VERSION" >/dev/null
echo "$SDK_VERSION" >"$DIR/.pinned"
