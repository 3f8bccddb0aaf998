"""Memory per MCP session, before and after the sessions end (issue 15). A measurement, not a
test: run once, by hand, and report the figures.

Usage: .ci/tools/bin/mcp-python tests/interop/session_rss.py OPSDESK_BIN [SESSIONS]

Starts `opsdesk serve` on a private data dir (max_sessions raised for the run), opens SESSIONS
legacy sessions with `initialize` (default 2000), reads the server's RSS, ends them all with
DELETE, waits for the sweep, and reads RSS again.
"""

import json
import os
import subprocess
import sys
import tempfile
import time

import httpx2 as httpx

BIN = sys.argv[1]
N = int(sys.argv[2]) if len(sys.argv) > 2 else 2000


def rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1


with tempfile.TemporaryDirectory() as tmp:
    data = os.path.join(tmp, "d")
    cfg = os.path.join(tmp, "config.toml")
    with open(cfg, "w") as f:
        f.write(f"[server]\nmax_sessions = {N + 10}\nrate_limit_per_sec = 100000\nrate_limit_burst = 100000\n")
    env = dict(os.environ, OPSDESK_LOG="warn")
    env.pop("OPSDESK_TOKEN", None)
    proc = subprocess.Popen([BIN, "--data-dir", data, "--config", cfg, "serve", "--bind", "127.0.0.1:0"],
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        url = None
        for _ in range(600):
            try:
                url = json.load(open(os.path.join(data, "engine.json")))["mcp_url"]
                break
            except Exception:
                time.sleep(0.1)
        token = open(os.path.join(data, "mcp-token")).read().strip()
        h = {"authorization": f"Bearer {token}", "accept": "application/json, text/event-stream",
             "content-type": "application/json"}
        c = httpx.Client(timeout=30)
        c.post(url, headers=h, content=json.dumps({"jsonrpc": "2.0", "id": 0, "method": "ping"}))
        time.sleep(1)
        base = rss_kb(proc.pid)
        ids = []
        body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "m", "version": "1"}}})
        for _ in range(N):
            r = c.post(url, headers=h, content=body)
            ids.append(r.headers["mcp-session-id"])
        time.sleep(1)
        peak = rss_kb(proc.pid)
        for sid in ids:
            c.delete(url, headers={**h, "mcp-session-id": sid, "mcp-protocol-version": "2025-11-25"})
        time.sleep(3)
        after = rss_kb(proc.pid)
        print(json.dumps({"sessions": N, "rss_before_kb": base, "rss_with_sessions_kb": peak,
                          "per_session_kb": round((peak - base) / N, 1), "rss_after_end_kb": after}))
    finally:
        proc.terminate()
        proc.wait(timeout=20)
