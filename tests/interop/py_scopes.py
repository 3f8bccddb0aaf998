"""The official Python MCP SDK client against a scoped opsdesk (run by tests/mcp_scopes.rs).

Usage: py_scopes.py URL TOKEN MODE EXPECT_JSON
EXPECT_JSON: {"tools": [names the client must see, exactly],
              "resources": [URIs it must see, exactly],
              "allowed": {"tool": name, "args": {...}}             (must succeed),
              "refused": {"tool": name, "args": {...},
                          "contains": [substrings of the error message],
                          "rule": "read_only" | "toolsets" | "tools",
                          "scope": "server" | client name},
              "refused_resource": {"uri": uri, "contains": [...]}   (optional)}
Prints one JSON summary line; exits non-zero with a FAIL line otherwise.
"""

import json
import sys
import warnings
from contextlib import AsyncExitStack

import anyio
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError
from mcp.types import Implementation

warnings.simplefilter("ignore")

URL, TOKEN, MODE, EXPECT = sys.argv[1], sys.argv[2], sys.argv[3], json.loads(sys.argv[4])


def fail(msg: str) -> None:
    print(f"FAIL [{MODE}]: {msg}", flush=True)
    sys.exit(1)


async def expect_refusal(what: str, call, contains, rule=None, scope=None) -> dict:
    try:
        result = await call()
    except MCPError as e:
        for part in contains:
            if part not in e.message:
                fail(f"{what}: the refusal does not say {part!r}: {e.message}")
        refused = (e.data or {}).get("refused_by_scope") or {}
        if rule is not None and refused.get("rule") != rule:
            fail(f"{what}: refused by {refused.get('rule')!r}, expected {rule!r}: {e.data}")
        if scope is not None and refused.get("scope") != scope:
            fail(f"{what}: refused by scope {refused.get('scope')!r}, expected {scope!r}")
        return {"code": e.code, "message": e.message, "data": e.data}
    fail(f"{what} was not refused: {result}")


async def main() -> None:
    async with AsyncExitStack() as stack:
        http = await stack.enter_async_context(
            create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"})
        )
        client = await stack.enter_async_context(
            Client(
                streamable_http_client(URL, http_client=http),
                mode=MODE,
                client_info=Implementation(name="scope-probe", version="1.0"),
            )
        )
        tools = sorted(t.name for t in (await client.list_tools()).tools)
        if tools != sorted(EXPECT["tools"]):
            fail(f"tools/list is {tools}, expected {sorted(EXPECT['tools'])}")
        resources = sorted(str(r.uri) for r in (await client.list_resources()).resources)
        if resources != sorted(EXPECT["resources"]):
            fail(f"resources/list is {resources}, expected {sorted(EXPECT['resources'])}")

        allowed = EXPECT["allowed"]
        ok = await client.call_tool(allowed["tool"], allowed["args"])
        if ok.is_error:
            fail(f"{allowed['tool']} (in scope) failed: {ok.content}")

        r = EXPECT["refused"]
        refusal = await expect_refusal(
            f"tools/call {r['tool']}",
            lambda: client.call_tool(r["tool"], r["args"]),
            r["contains"], r.get("rule"), r.get("scope"),
        )
        listed = refusal["data"].get("available_tools")
        if sorted(listed or []) != sorted(EXPECT["tools"]):
            fail(f"the refusal lists {listed} as available, tools/list says {tools}")

        res_refusal = None
        if "refused_resource" in EXPECT:
            rr = EXPECT["refused_resource"]
            res_refusal = await expect_refusal(
                f"resources/read {rr['uri']}",
                lambda: client.read_resource(rr["uri"]),
                rr["contains"],
            )

        print(json.dumps({
            "mode": MODE, "protocol": client.protocol_version, "tools": tools,
            "resources": resources, "refusal": refusal, "resource_refusal": res_refusal,
        }), flush=True)


anyio.run(main)
