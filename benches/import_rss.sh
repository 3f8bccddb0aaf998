#!/usr/bin/env bash
# Idle memory of `opsdesk serve` after a large spool import (docs/ARCHITECTURE.md, "Memory").
#
#   benches/import_rss.sh [BIN] [RECORDS]      # default: target/release/opsdesk, 50000
#
# Writes RECORDS records as spool files of 4,000 into a throw-away data dir, starts `serve` on
# a free loopback port, copies the files into its spool, waits until all are ingested, and
# prints RSS fresh, 5 s, 20 s and 60 s after, and the peak. Stops the server and removes everything.
set -euo pipefail
BIN=${1:-target/release/opsdesk}
N=${2:-50000}
[ -x "$BIN" ] || { echo "no binary at $BIN (cargo build --release)" >&2; exit 2; }
WORK=$(mktemp -d)
trap 'kill "$PID" 2>/dev/null || true; wait "$PID" 2>/dev/null || true; rm -rf "$WORK"' EXIT
mkdir -p "$WORK/src" "$WORK/data/spool"
python3 - "$WORK/src" "$N" <<'PY'
import json, os, random, sys
out, n = sys.argv[1], int(sys.argv[2])
rnd = random.Random(7)
words = "budget review contract invoice meeting schedule vendor update patient report travel lunch".split()
for f in range(0, n, 4000):
    items = []
    for i in range(f, min(n, f + 4000)):
        body = " ".join(rnd.choice(words) for _ in range(rnd.randint(20, 300)))
        items.append({"id": f"bench-{i}", "profile": "work" if i % 3 else "clinic",
                      "from": {"name": f"Sender {i % 97}", "address": f"s{i % 97}@northwind.example"},
                      "subject": f"Item {i}", "body": body})
    with open(os.path.join(out, f"bench-{f // 4000:04d}.json"), "w") as fh:
        json.dump(items, fh)
PY
cat > "$WORK/config.toml" <<'TOML'
[profiles.work]
sources = ["spool"]
[profiles.clinic]
sources = ["spool"]
[sources.spool]
interval_secs = 1
TOML
OPSDESK_TOKEN=$(head -c 32 /dev/urandom | od -An -tx1 | tr -d ' \n') \
  OPSDESK_CONFIG="$WORK/config.toml" "$BIN" serve --data-dir "$WORK/data" --bind 127.0.0.1:0 \
  >"$WORK/serve.log" 2>&1 &
PID=$!
rss() { grep -E "^$1:" "/proc/$PID/status" | awk '{printf "%.1f MB", $2/1024}'; }
sleep 1  # start-up
sleep 2
echo "fresh: RSS $(rss VmRSS) (anonymous $(rss RssAnon), file-backed $(rss RssFile))"
t0=$(date +%s.%N)
cp "$WORK"/src/*.json "$WORK/data/spool/"
while compgen -G "$WORK/data/spool/*.json" >/dev/null; do
  kill -0 "$PID" 2>/dev/null || { cat "$WORK/serve.log" >&2; exit 1; }
  sleep 0.2
done
t1=$(date +%s.%N)
echo "imported $N records in $(python3 -c "print(round($t1 - $t0, 1))") s"
sleep 5; echo "idle +5 s: RSS $(rss VmRSS)"
sleep 15; echo "idle +20 s: RSS $(rss VmRSS) (anonymous $(rss RssAnon), file-backed $(rss RssFile)), peak $(rss VmHWM)"
# The background indexer may still be catching up at +20 s; the engine unmaps the code pages a
# burst ran 10 s after it (docs/ARCHITECTURE.md, "Memory").
sleep 40; echo "idle +60 s: RSS $(rss VmRSS) (anonymous $(rss RssAnon), file-backed $(rss RssFile))"
[ -z "$(ls -A "$WORK/data/spool/rejected" 2>/dev/null)" ] || { echo "rejected spool files: $(ls "$WORK/data/spool/rejected")" >&2; exit 1; }
