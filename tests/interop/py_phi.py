"""The official Python MCP SDK client as an MCP client of a `requires_hipaa` profile (run by
tests/mcp_phi.rs).

Usage: py_phi.py URL TOKEN MODE OPSDESK_BIN DATA_DIR EXPECT IDENTIFIER...
EXPECT is "redacted" (an uncleared client: no identifier may appear anywhere in the full JSON
of the logging push, tool results or resources) or "clear" (a cleared client: the push and the
pull carry them). Exits non-zero with a FAIL line otherwise.
"""

import json
import random
import string
import subprocess
import sys
import warnings
from contextlib import AsyncExitStack

import anyio
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.client.extension import ClientExtension, NotificationBinding
from mcp.types import Implementation
from pydantic import BaseModel, ConfigDict

warnings.simplefilter("ignore")

URL, TOKEN, MODE, OPSDESK, DATA_DIR, EXPECT = sys.argv[1:7]
IDENTIFIERS = sys.argv[7:]


class ChannelParams(BaseModel):
    model_config = ConfigDict(extra="allow")
    content: str = ""
    meta: dict = {}


CHANNEL = []


class ClaudeChannel(ClientExtension):
    """Observes Claude Code's channel push, as Claude Code would receive it."""

    identifier = "com.example.test/claude-channel"

    def notifications(self):
        async def on_push(p) -> None:
            CHANNEL.append(p)

        return [NotificationBinding(method="notifications/claude/channel",
                                    params_type=ChannelParams, handler=on_push)]


def fail(msg: str) -> None:
    print(f"FAIL [{EXPECT}]: {msg}", flush=True)
    sys.exit(1)


def dump(obj) -> str:
    if hasattr(obj, "model_dump"):
        obj = obj.model_dump(mode="json", by_alias=True)
    return json.dumps(obj)


def check(what: str, text: str) -> None:
    found = [i for i in IDENTIFIERS if i in text]
    if EXPECT == "redacted" and found:
        fail(f"{what} leaks {found} to an uncleared client: {text[:2000]}")


async def main() -> None:
    logs = []

    async def on_log(params) -> None:
        logs.append(params)

    async with AsyncExitStack() as stack:
        http = await stack.enter_async_context(
            create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"})
        )
        client = await stack.enter_async_context(
            Client(
                streamable_http_client(URL, http_client=http),
                mode=MODE,
                client_info=Implementation(name="claude-code", version="1.0"),
                logging_callback=on_log,
                log_level="debug",
                extensions=[ClaudeChannel()],
            )
        )
        await client.set_logging_level("debug")
        await client.subscribe_resource("opsdesk://inbox")

        # Letters only: a long digit run would itself be redacted (as a card number).
        marker = "phi-push " + "".join(random.choice(string.ascii_lowercase) for _ in range(12))
        subprocess.run(
            [OPSDESK, "--data-dir", DATA_DIR, "inbox", "add", "--profile", "clinic",
             "--from", "Margaret Okafor <m.okafor@example.org>",
             "--subject", f"{marker} Margaret Okafor MRN: 00482913",
             "--body", f"{marker}: DOB: 1958-03-14, phone 555-201-4477, Margaret Okafor"],
            check=True, capture_output=True,
        )

        def pings():
            return [l for l in logs if l.logger == "opsdesk.inbox"
                    and isinstance(l.data, dict) and marker in str(l.data.get("summary", ""))]

        with anyio.move_on_after(30):
            while not pings():
                await anyio.sleep(0.05)
        found = pings()
        if not found:
            fail(f"no opsdesk.inbox push for the new message (got {[dump(l) for l in logs]})")
        ping = dump(found[0])
        check("the logging push", ping)
        if EXPECT == "clear" and "Okafor" not in ping:
            fail(f"the cleared client's push is redacted: {ping}")
        if EXPECT == "redacted" and "phi_redaction" not in ping:
            fail(f"the redacted push carries no notice: {ping}")

        def pushes():
            return [c for c in CHANNEL if marker in c.content]

        with anyio.move_on_after(30):
            while not pushes():
                await anyio.sleep(0.05)
        if not pushes():
            fail(f"no claude/channel push for the new message (got {len(CHANNEL)})")
        push = dump(pushes()[0])
        check("the claude/channel push", push)
        if EXPECT == "clear" and "1958-03-14" not in push:
            fail(f"the cleared client's channel push is redacted: {push}")

        pull = await client.call_tool("inbox_pull", {"since": 0, "limit": 50, "mark_consumed": False})
        if pull.is_error:
            fail(f"inbox_pull failed: {pull.content}")
        text = dump(pull)
        check("inbox_pull", text)
        if EXPECT == "clear" and "00482913" not in text:
            fail("the cleared client's pull is redacted")

        res = await client.read_resource("opsdesk://inbox")
        check("opsdesk://inbox", dump(res))
        brief = await client.call_tool("morning_brief", {"profile": "clinic"})
        check("morning_brief", dump(brief))

        print(json.dumps({"expect": EXPECT, "ping": json.loads(ping), "channel": json.loads(push)}), flush=True)


anyio.run(main)
