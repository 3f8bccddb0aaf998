"""Pushes follow scopes (run by tests/mcp_scopes.rs): two clients of one engine, one whose
scope reaches the inbox and one whose scope does not. A new inbox item must reach the first as
an `opsdesk.inbox` log push and `resources/updated`, and never the second, which may not even
subscribe to the inbox resource.

Usage: py_scope_push.py URL OPSDESK_BIN DATA_DIR TOKEN_WITH_INBOX TOKEN_WITHOUT
Prints one JSON summary line; exits non-zero with a FAIL line otherwise.
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
from mcp.shared.exceptions import MCPError
from mcp.types import Implementation

warnings.simplefilter("ignore")

URL, OPSDESK, DATA_DIR, WITH, WITHOUT = sys.argv[1:6]


def fail(msg: str) -> None:
    print(f"FAIL: {msg}", flush=True)
    sys.exit(1)


async def connect(stack, token, logs, updates):
    async def on_log(p) -> None:
        logs.append(p)

    async def on_message(m) -> None:
        root = getattr(m, "root", m)
        if getattr(root, "method", None) == "notifications/resources/updated":
            updates.append(str(root.params.uri))

    http = await stack.enter_async_context(
        create_mcp_http_client(headers={"Authorization": f"Bearer {token}"})
    )
    client = await stack.enter_async_context(
        Client(
            streamable_http_client(URL, http_client=http),
            mode="legacy",
            client_info=Implementation(name="push-probe", version="1.0"),
            logging_callback=on_log,
            message_handler=on_message,
            log_level="debug",
        )
    )
    await client.set_logging_level("debug")
    return client


async def main() -> None:
    in_logs, in_updates, out_logs, out_updates = [], [], [], []
    async with AsyncExitStack() as stack:
        inside = await connect(stack, WITH, in_logs, in_updates)
        outside = await connect(stack, WITHOUT, out_logs, out_updates)
        await inside.subscribe_resource("opsdesk://inbox")
        try:
            await outside.subscribe_resource("opsdesk://inbox")
            fail("a client whose scope does not reach the inbox subscribed to it")
        except MCPError as e:
            if "toolset `inbox`" not in e.message:
                fail(f"the subscription refusal does not name the toolset: {e.message}")

        subject = f"scoped push {time.time_ns()}"
        subprocess.run(
            [OPSDESK, "--data-dir", DATA_DIR, "inbox", "add", "--profile", "default",
             "--from", "Ada <ada@example.com>", "--subject", subject, "--body", "hello"],
            check=True, capture_output=True,
        )

        def pings(logs):
            return [l for l in logs if l.logger == "opsdesk.inbox"
                    and subject in str((l.data or {}).get("summary", ""))]

        with anyio.move_on_after(30):
            while not (pings(in_logs) and "opsdesk://inbox" in in_updates):
                await anyio.sleep(0.05)
        if not pings(in_logs):
            fail(f"the client with the inbox in scope got no push: {in_logs}")
        if "opsdesk://inbox" not in in_updates:
            fail(f"the client with the inbox in scope got no resources/updated: {in_updates}")
        # Each client's pushes are sent in their own task: give the other one the same chance.
        await anyio.sleep(1.0)
        if pings(out_logs) or out_updates:
            fail(f"the client without the inbox in scope got pushes: {out_logs} {out_updates}")
        print(json.dumps({"inside": len(pings(in_logs)), "outside": len(pings(out_logs))}), flush=True)


anyio.run(main)
