"""The official Python MCP SDK client working a deal (run by tests/deals_mcp.rs): propose a deal
with deal_create, the operator accepts it with the CLI, a new message links itself, the
operator links another by hand, and the client reads deal_detail, deal_timeline and the
resource opsdesk://deals/{id}, receiving resources/updated for each change.

Usage: py_deals.py URL TOKEN MODE OPSDESK_BIN DATA_DIR
Exits non-zero with a FAIL line when anything differs.
"""

import json
import subprocess
import sys
import warnings
from contextlib import AsyncExitStack

import anyio
from mcp.client import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.types import Implementation

warnings.simplefilter("ignore")  # resources/subscribe is deprecated in 2026-07-28

URL, TOKEN, MODE, OPSDESK, DATA_DIR = sys.argv[1:6]
DEAL_TOOLS = {"deals_list", "deal_detail", "deal_timeline", "deal_create"}


def fail(msg: str) -> None:
    print(f"FAIL [{MODE}]: {msg}", flush=True)
    sys.exit(1)


def cli(*args: str) -> str:
    r = subprocess.run([OPSDESK, "--data-dir", DATA_DIR, *args], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"opsdesk {' '.join(args)} exited {r.returncode}: {r.stderr}")
    return r.stdout


def structured(result) -> dict:
    if result.is_error:
        fail(f"tool error: {result.content}")
    return result.structured_content


async def main() -> None:
    updates = []

    async def on_message(message) -> None:
        params = getattr(getattr(message, "root", message), "params", None)
        method = getattr(getattr(message, "root", message), "method", "")
        if method == "notifications/resources/updated" and params is not None:
            updates.append(str(params.uri))

    async with AsyncExitStack() as stack:
        http = await stack.enter_async_context(
            create_mcp_http_client(headers={"Authorization": f"Bearer {TOKEN}"})
        )
        client = await stack.enter_async_context(
            Client(
                streamable_http_client(URL, http_client=http),
                mode=MODE,
                client_info=Implementation(name="py-deals", version="1.0"),
                message_handler=on_message,
            )
        )
        names = {t.name for t in (await client.list_tools()).tools}
        if not DEAL_TOOLS <= names:
            fail(f"deal tools missing: {DEAL_TOOLS - names}")
        templates = [t.uri_template for t in (await client.list_resource_templates()).resource_templates]
        if "opsdesk://deals/{id}" not in templates:
            fail(f"no deal resource template in {templates}")

        proposal = structured(await client.call_tool("deal_create", {
            "name": "Sunrise acquisition", "counterparties": ["acme.example"],
            "stage": "diligence", "keywords": ["sunrise"],
            "key_dates": [{"label": "closing", "date": "2026-12-15"}],
        }))
        if proposal.get("status") != "pending_approval":
            fail(f"deal_create did not queue a proposal: {proposal}")
        draft = proposal["draft_id"]
        listed = structured(await client.call_tool("deals_list", {"all": True}))
        if listed["deals"]:
            fail(f"a proposal is not a deal before the operator accepts it: {listed}")

        accepted = json.loads(cli("--json", "deals", "accept", draft, "--yes"))
        deal = accepted["id"]
        uri = f"opsdesk://deals/{deal}"
        await client.subscribe_resource(uri)

        async def wait_update(what: str, before: int) -> None:
            with anyio.move_on_after(30):
                while updates.count(uri) <= before:
                    await anyio.sleep(0.05)
            if updates.count(uri) <= before:
                fail(f"no resources/updated for {uri} after {what} (got {updates})")

        # A new message links itself (keyword), then the operator links one by hand.
        n = updates.count(uri)
        cli("inbox", "add", "--channel", "email", "--from", "ann@elsewhere.example",
            "--subject", "Sunrise data room", "--body", "access granted", "--id", "m-kw")
        await wait_update("an automatic link", n)
        n = updates.count(uri)
        cli("inbox", "add", "--channel", "email", "--from", "bob@bank.example",
            "--subject", "Financing", "--body", "term sheet attached", "--id", "m-manual")
        cli("deals", "link", deal, "m-manual")
        await wait_update("a manual link", n)

        detail = structured(await client.call_tool("deal_detail", {"id": deal}))
        rules = sorted(m["rule"] for m in detail["messages"])
        if rules != ["keyword", "manual"]:
            fail(f"linked messages: {detail['messages']}")
        timeline = structured(await client.call_tool("deal_timeline", {"id": deal}))
        sources = [e["source"] for e in timeline["entries"]]
        for s in ("deal", "message", "draft", "audit"):
            if s not in sources:
                fail(f"timeline without a {s} entry: {timeline}")
        stamps = [e["at"] for e in timeline["entries"]]
        if stamps != sorted(stamps):
            fail(f"timeline not in time order: {stamps}")
        res = await client.read_resource(uri)
        body = json.loads(res.contents[0].text)
        if body["deal"]["id"] != deal or len(body["messages"]) != 2:
            fail(f"resource body: {body}")
        print(json.dumps({"deal": deal, "updates": updates.count(uri), "rules": rules}), flush=True)


anyio.run(main)
