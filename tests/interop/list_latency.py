"""Latency of `tools/list` over HTTP (stateless 2026-07-28 requests on one keep-alive
connection), for comparing a server with and without a tool scope (docs/ARCHITECTURE.md,
"Tool scopes"). A measurement, not a test.

Usage: list_latency.py URL TOKEN LABEL
Run the server with high rate limits ([server] rate_limit_per_sec / rate_limit_burst = 10000),
or the 400 requests are throttled.
"""
import http.client, json, sys, time, urllib.parse
url, tok = urllib.parse.urlparse(sys.argv[1]), sys.argv[2]
h = {"authorization": f"Bearer {tok}", "content-type": "application/json", "accept": "application/json, text/event-stream",
     "mcp-protocol-version": "2026-07-28", "mcp-method": "tools/list"}
meta = {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "m", "version": "1"}}
body = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": meta}})
c = http.client.HTTPConnection(url.hostname, url.port)
def once():
    c.request("POST", url.path, body=body, headers=h); r = c.getresponse(); return r.read().decode()
for _ in range(20): once()
ts = []
for _ in range(400):
    t = time.perf_counter(); text = once(); ts.append(time.perf_counter() - t)
ts.sort()
m = [l[5:] for l in text.splitlines() if l.startswith("data:") and l[5:].strip()]; doc = json.loads(m[-1]) if m else json.loads(text)
print(f"{sys.argv[3]}: {len(doc['result']['tools'])} tools, median {ts[200]*1e3:.2f} ms, p95 {ts[380]*1e3:.2f} ms")
