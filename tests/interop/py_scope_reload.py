"""A scope reload tells connected clients (run by tests/mcp_scopes.rs): the official Python SDK
client lists the tools, the config file is rewritten and the server sent SIGHUP, the client
must receive `notifications/tools/list_changed` (legacy: as a notification; 2026-07-28: on its
`subscriptions/listen` stream) and then list the new tools — past its own list cache.

Usage: py_scope_reload.py URL TOKEN MODE CONFIG_PATH SERVER_PID NEW_CONFIG EXPECT_JSON
EXPECT_JSON: {"before": [tools], "after": [tools]}
"""

import json
import os
import signal
import sys
import warnings
from contextlib import AsyncExitStack

import anyio
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.subscriptions import ToolsListChanged
from mcp.types import Implementation

warnings.simplefilter("ignore")

URL, TOKEN, MODE, CONFIG, PID, NEW_CONFIG = sys.argv[1:7]
EXPECT = json.loads(sys.argv[7])
LIST_CHANGED = "notifications/tools/list_changed"


def fail(msg: str) -> None:
    print(f"FAIL [{MODE}]: {msg}", flush=True)
    sys.exit(1)


def is_tools_changed(ev) -> bool:
    root = getattr(ev, "root", ev)
    return getattr(root, "method", None) == LIST_CHANGED


def reload() -> None:
    with open(CONFIG, "w") as f:
        f.write(NEW_CONFIG)
    os.kill(int(PID), signal.SIGHUP)


async def names(client) -> list:
    return sorted(t.name for t in (await client.list_tools()).tools)


async def main() -> None:
    changed = anyio.Event()

    async def on_message(m) -> None:
        if is_tools_changed(m):
            changed.set()

    async with AsyncExitStack() as stack:
        http = await stack.enter_async_context(
            create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"})
        )
        client = await stack.enter_async_context(
            Client(
                streamable_http_client(URL, http_client=http),
                mode=MODE,
                client_info=Implementation(name="reload-probe", version="1.0"),
                message_handler=on_message,
            )
        )
        before = await names(client)
        if before != sorted(EXPECT["before"]):
            fail(f"before the reload tools/list is {before}, expected {sorted(EXPECT['before'])}")
        # Listed twice: the second answer may come from the client's cache.
        await names(client)

        if client.protocol_version == "2026-07-28":
            # Here the change must arrive as an event of the listen stream.
            streamed = False
            async with client.listen(tools_list_changed=True) as sub:
                reload()
                with anyio.move_on_after(30):
                    async for ev in sub:
                        if isinstance(ev, ToolsListChanged):
                            streamed = True
                            break
            if not streamed:
                fail("no tools list_changed event on the listen stream after the scope reload")
            changed.set()
        else:
            reload()
            with anyio.move_on_after(30):
                await changed.wait()
        if not changed.is_set():
            fail("no notifications/tools/list_changed after the scope reload")

        after = await names(client)
        if after != sorted(EXPECT["after"]):
            fail(f"after the reload tools/list is {after}, expected {sorted(EXPECT['after'])}")
        print(json.dumps({"mode": MODE, "protocol": client.protocol_version,
                          "before": before, "after": after}), flush=True)


anyio.run(main)
