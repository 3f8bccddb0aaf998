#!/usr/bin/env bash
# Runs the test suite's date-sensitive binaries (and the unit tests) with the clock set to a
# Saturday, a year end and a month end (libfaketime; `apt-get install faketime`), to prove no
# test depends on today's date or weekday. By hand, not in CI: `bash scripts/clock_sweep.sh`.
# Test binaries run directly (cargo itself under faketime does not finish); the monotonic clock
# is left real, so timeouts and sleeps behave.
set -euo pipefail
cd "$(dirname "$0")/.."
export PATH="$PWD/.ci/tools/bin:$PATH" FAKETIME_DONT_FAKE_MONOTONIC=1
tests=(assistant_jobs assistant_mcp brief deadlines_eval drafts_expiry drafts_reminders
  tui_snapshots llm_budgets deals_engine deals_mcp deals_cli audit_archive audit_export
  classification)
args=(--lib)
for t in "${tests[@]}"; do args+=(--test "$t"); done
mapfile -t bins < <(cargo test --no-run "${args[@]}" 2>&1 | grep -o 'target/debug/deps/[A-Za-z0-9_-]*' | sort -u)
fail=0
for d in "2026-12-05 10:00:00" "2026-12-31 23:30:00" "2027-02-28 18:00:00"; do
  for b in "${bins[@]}"; do
    if out=$(timeout 300 faketime -f "@$d" "$b" 2>&1); then
      echo "[$d] $(basename "$b"): $(grep '^test result' <<<"$out" | tail -1)"
    else
      echo "[$d] $(basename "$b"): FAILED"; grep -E 'panicked|FAILED' <<<"$out" | head -5; fail=1
    fi
  done
done
exit $fail
