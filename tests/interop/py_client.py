"""The official Python MCP SDK client against a real `opsdesk serve` (run by tests/mcp_interop.rs).

Usage: py_client.py URL TOKEN MODE CLIENT_NAME OPSDESK_BIN DATA_DIR
MODE is "auto" (probes server/discover, 2026-07-28) or "legacy" (initialize handshake, 2025-11-25).

Checks, in order: the tool list; a message added with `opsdesk inbox add` produces an
`opsdesk.inbox` logging notification (summary, no body); inbox_pull returns it once for this
client while another client still gets it; draft_email queues a draft. Prints one JSON line
with what it saw; exits non-zero with a FAIL line otherwise.
"""

import json
import subprocess
import sys
import time
import warnings
from contextlib import AsyncExitStack

import anyio
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.types import Implementation

warnings.simplefilter("ignore")  # logging and resources/subscribe are deprecated in 2026-07-28

URL, TOKEN, MODE, NAME, OPSDESK, DATA_DIR = sys.argv[1:7]

EXPECTED_TOOLS = {
    "status", "inbox_pull", "inbox_search", "mail_list", "calendar_list", "morning_brief",
    "eod_digest", "drafts_list", "draft_status", "providers_get", "draft_email", "draft_reply",
    "calendar_event_draft", "chat_reply_draft",
    "triage_list", "triage_classify", "extraction_deadlines", "draft_generate",
    "calendar_event_draft", "chat_reply_draft", "deals_list", "deal_detail", "deal_timeline",
    "deal_create", "doctor", "filing_suggestion", "mail_move",
}


def fail(msg: str) -> None:
    print(f"FAIL [{MODE}]: {msg}", flush=True)
    sys.exit(1)


async def connect(stack: AsyncExitStack, name: str, on_log=None) -> Client:
    http = await stack.enter_async_context(
        create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"})
    )
    return await stack.enter_async_context(
        Client(
            streamable_http_client(URL, http_client=http),
            mode=MODE,
            client_info=Implementation(name=name, version="1.0"),
            logging_callback=on_log,
            log_level="debug",
        )
    )


def inside(result, s):
    """What is inside a value opsdesk fenced with this answer's fence (else the value as is)."""
    f = result.structured_content["fence"]
    pre, post = f"<<untrusted:{f}>>\n", f"\n<</untrusted:{f}>>"
    if isinstance(s, str) and s.startswith(pre) and s.endswith(post):
        return s[len(pre):-len(post)]
    return s


def subjects(result) -> list:
    """The subjects of an answer's messages, each inside the answer's fence."""
    if result.is_error:
        fail(f"tool error: {result.content}")
    return [inside(result, m.get("subject")) for m in result.structured_content["messages"]]


async def main() -> None:
    logs = []

    async def on_log(params) -> None:
        logs.append(params)

    async with AsyncExitStack() as stack:
        client = await connect(stack, NAME, on_log)
        proto = client.protocol_version
        if MODE == "legacy":
            if proto != "2025-11-25":
                fail(f"legacy mode negotiated {proto}")
            await client.set_logging_level("debug")

        tools = await client.list_tools()
        names = {t.name for t in tools.tools}
        if names != EXPECTED_TOOLS:
            fail(f"tool list differs: missing {EXPECTED_TOOLS - names}, extra {names - EXPECTED_TOOLS}")

        # Start from an empty cursor for this client.
        await client.call_tool("inbox_pull", {"limit": 200})

        if proto == "2026-07-28":
            # Stateless protocol: background pushes ride a subscriptions/listen stream.
            await stack.enter_async_context(client.listen(resource_subscriptions=["opsdesk://inbox"]))
        else:
            await client.subscribe_resource("opsdesk://inbox")

        subject = f"interop {NAME} {time.time_ns()}"
        body = "secret body text that must not appear in notifications"
        subprocess.run(
            [OPSDESK, "--data-dir", DATA_DIR, "inbox", "add", "--profile", "default",
             "--from", "Ada <ada@example.com>", "--subject", subject, "--body", body],
            check=True, capture_output=True,
        )

        def matching():
            return [l for l in logs if l.logger == "opsdesk.inbox"
                    and isinstance(l.data, dict) and subject in str(l.data.get("summary", ""))]

        with anyio.move_on_after(30):
            while not matching():
                await anyio.sleep(0.05)
        found = matching()
        if not found:
            fail(f"no opsdesk.inbox logging notification for the new message (got {[l.data for l in logs]})")
        ping = found[0].data
        if body in json.dumps(ping):
            fail("the logging notification carries the body")
        if ping.get("unread", 0) < 1:
            fail(f"the ping has no unread count: {ping}")

        first = await client.call_tool("inbox_pull", {"limit": 20})
        if subjects(first).count(subject) != 1:
            fail(f"first pull did not return the message once: {subjects(first)}")
        msg = next(m for m in first.structured_content["messages"] if inside(first, m["subject"]) == subject)
        if msg.get("untrusted") is not True:
            fail("inbound message is not marked untrusted")
        second = await client.call_tool("inbox_pull", {"limit": 20})
        if subject in subjects(second):
            fail("second pull returned the message again")

        async with AsyncExitStack() as other_stack:
            other = await connect(other_stack, NAME + "-other")
            theirs = await other.call_tool("inbox_pull", {"limit": 200})
            if subject not in subjects(theirs):
                fail("another client's pull did not get the message")

        draft = await client.call_tool(
            "draft_email",
            {"to": ["bob@example.com"], "subject": "Re: " + subject, "body": "Thanks, will do."},
        )
        if draft.is_error:
            fail(f"draft_email failed: {draft.content}")
        d = draft.structured_content
        if d.get("status") != "pending_approval" or not d.get("draft_id"):
            fail(f"draft_email did not queue a draft: {d}")

        print(json.dumps({
            "mode": MODE, "protocol": proto, "tools": sorted(names), "ping": ping,
            "message_id": msg["id"], "draft_id": d["draft_id"], "verdict": d["verdict"],
        }), flush=True)


anyio.run(main)
