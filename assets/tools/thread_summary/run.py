#!/usr/bin/env python3
"""opsdesk vault tool: an extractive summary of one inbox message.

stdin:  {"tool": ..., "arguments": {"message_id": ..., "sentences": n}, "context": {"message": {...}}}
stdout: {"summary": ..., "asks": [...], "from": ..., "subject": ...}
"""
import json
import re
import sys

req = json.load(sys.stdin)
args = req.get("arguments", {})
msg = req.get("context", {}).get("message")
if msg is None:
    print("no message in context (pass message_id)", file=sys.stderr)
    sys.exit(2)
n = args.get("sentences", 2)
if not isinstance(n, int) or not 1 <= n <= 10:
    print("sentences must be an integer from 1 to 10", file=sys.stderr)
    sys.exit(2)

text = " ".join((msg.get("text") or "").split())
sentences = [s for s in re.split(r"(?<=[.!?])\s+", text) if s]
asks = [s for s in sentences if s.endswith("?") or re.search(r"\b(please|could you|can you|need)\b", s, re.I)]
sender = msg.get("from", {})
json.dump(
    {
        "summary": " ".join(sentences[:n]),
        "asks": asks,
        "from": sender.get("name") or sender.get("address") or "",
        "subject": msg.get("subject") or "",
    },
    sys.stdout,
)
