#!/usr/bin/env python3
"""opsdesk vault tool: propose a follow-up reply (a `draft_reply` command).

stdin:  {"tool": ..., "arguments": {"message_id": ..., "note": ...}, "context": {"message": {...}}}
stdout: {"proposal": ..., "commands": [{"kind": "draft_reply", "message_id": ..., "body": ...}]}
"""
import json
import sys

req = json.load(sys.stdin)
args = req.get("arguments", {})
msg = req.get("context", {}).get("message")
if msg is None:
    print("no message in context (pass message_id)", file=sys.stderr)
    sys.exit(2)
sender = msg.get("from", {})
name = (sender.get("name") or "").split(" ")[0] or "there"
subject = msg.get("subject") or "your message"
body = f"Hi {name},\n\nThanks for your note about \"{subject}\". I am on it and will get back to you shortly."
note = (args.get("note") or "").strip()
if note:
    body += f"\n\n{note}"
body += "\n\nBest regards"
json.dump(
    {
        "proposal": f"a follow-up reply to {sender.get('address') or 'the sender'}",
        "commands": [{"kind": "draft_reply", "message_id": args["message_id"], "body": body}],
    },
    sys.stdout,
)
