"""The official Python MCP SDK client against opsdesk's tool vault (run by tests/vault.rs).

Usage: py_vault.py URL TOKEN MODE TOOLS_DIR
MODE is "legacy" (initialize handshake; list_changed as a session notification) or
"2026-07-28" (a `subscriptions/listen` stream). Checks: vault tools are listed; a tool dropped
into TOOLS_DIR is announced with tools/list_changed and is then listed and callable; a hanging
tool comes back as a tool error (timeout) and the server keeps answering. Exits non-zero with a
FAIL line otherwise.
"""

import os
import stat
import sys
import warnings
from contextlib import AsyncExitStack

import anyio
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.types import Implementation

warnings.simplefilter("ignore")

URL, TOKEN, MODE, TOOLS = sys.argv[1:5]
LATE = f"late_{'modern' if MODE != 'legacy' else 'legacy'}"


def fail(msg: str) -> None:
    print(f"FAIL [{MODE}]: {msg}", flush=True)
    sys.exit(1)


def drop_tool() -> None:
    # Built in a hidden folder (the vault skips those) and renamed into place in one step, as
    # an operator installing a tool should: a reload in the middle of a slow copy would
    # otherwise announce a half-written (broken) tool first.
    final = os.path.join(TOOLS, LATE)
    d = os.path.join(TOOLS, f".{LATE}.tmp")
    os.makedirs(d)
    os.chmod(d, 0o755)  # whatever the umask: the vault refuses folders others can write
    with open(os.path.join(d, "run"), "w") as f:
        f.write("#!/bin/sh\ncat >/dev/null\necho '{\"late\": true}'\n")
    os.chmod(os.path.join(d, "run"), stat.S_IRWXU)
    # The manifest last: the tool is complete when it appears.
    with open(os.path.join(d, "tool.toml"), "w") as f:
        f.write(f'name = "{LATE}"\ndescription = "dropped in"\ntier = "read_only"\n'
                'input_schema = { type = "object" }\n')
    os.rename(d, final)


async def names(client) -> list:
    return [t.name for t in (await client.list_tools()).tools]


async def main() -> None:
    changed = anyio.Event()

    async def on_message(msg) -> None:
        m = getattr(msg, "root", msg)
        if getattr(m, "method", None) == "notifications/tools/list_changed":
            changed.set()

    async with AsyncExitStack() as stack:
        http = await stack.enter_async_context(
            create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"})
        )
        client = await stack.enter_async_context(
            Client(
                streamable_http_client(URL, http_client=http),
                mode=MODE,
                client_info=Implementation(name="py-vault", version="1.0"),
                message_handler=on_message,
            )
        )
        before = await names(client)
        if "vault_follow_up" not in before or f"vault_{LATE}" in before:
            fail(f"unexpected tool list {before}")

        if MODE == "legacy":
            drop_tool()
            with anyio.move_on_after(30):
                await changed.wait()
            if not changed.is_set():
                fail("no notifications/tools/list_changed within 30 s")
        else:
            async with client.listen(tools_list_changed=True) as sub:
                drop_tool()
                got = False
                with anyio.move_on_after(30):
                    async for _event in sub:
                        got = True
                        break
                if not got:
                    fail("no tools list change event on the listen stream within 30 s")

        after = await names(client)
        if f"vault_{LATE}" not in after:
            fail(f"vault_{LATE} not listed after the change: {after}")
        r = await client.call_tool(f"vault_{LATE}", {})
        if r.is_error or (r.structured_content or {}).get("late") is not True:
            fail(f"vault_{LATE} answered {r}")

        r = await client.call_tool("vault_hang", {})
        if not r.is_error or (r.structured_content or {}).get("error") != "timeout":
            fail(f"vault_hang was not a timeout tool error: {r}")
        r = await client.call_tool("status", {})
        if r.is_error:
            fail(f"status after the hang: {r}")
    print(f"OK [{MODE}]", flush=True)


anyio.run(main)
