#!/usr/bin/env bash
# mdBook for the user guide (docs/book): `.ci/run` builds it and tests/docs_book.rs runs
# `mdbook build` when it is on PATH. Installed from crates.io into .ci/tools/bin, without the
# `serve`/`watch`/`search` features (a build needs none of them; about half the compile time).
# Idempotent and quiet: does nothing when the pinned version is already there.
set -euo pipefail
cd "$(dirname "$0")/../.."

version=0.5.4
bin=.ci/tools/bin/mdbook
if [ -x "$bin" ] && [ "$("$bin" --version 2>/dev/null)" = "mdbook v$version" ]; then
  exit 0
fi

log=$(mktemp)
trap 'rm -f "$log"' EXIT
# Its own target dir, so the project's build cache is not disturbed.
if ! cargo install mdbook --locked --version "$version" --no-default-features \
  --root .ci/tools --target-dir .ci/tools/build/mdbook >"$log" 2>&1; then
  cat "$log" >&2
  echo "book deps: cargo install mdbook $version failed" >&2
  exit 1
fi
rm -rf .ci/tools/build/mdbook
rmdir .ci/tools/build 2>/dev/null || true
"$bin" --version >/dev/null
