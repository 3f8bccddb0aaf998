// The official TypeScript MCP SDK client (@modelcontextprotocol/sdk) against a real
// `opsdesk serve` (run by tests/mcp_interop_ts.rs).
//
// Usage: node22 ts_client.mjs SCENARIO URL TOKEN CLIENT_NAME OPSDESK_BIN DATA_DIR
//   with OPSDESK_NPM_DIR = the npm prefix .ci/deps/mcp.sh installed the SDK into.
// SCENARIO:
//   "basic"   the tool list; a message added with `opsdesk inbox add` produces an
//             `opsdesk.inbox` logging notification (summary, no body); inbox_pull returns it
//             once for this client while another client still gets it; draft_email queues a
//             draft.
//   "channel" a client named "claude-code" receives `notifications/claude/channel` for a new
//             HTML Teams message, shaped as in the Entraclaw seed ({content, meta}, sanitized
//             text, no raw HTML), while a client with another name (CLIENT_NAME) gets the
//             logging ping but no channel push.
// Prints one JSON line with what it saw; exits non-zero with a FAIL line otherwise.

import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [SCENARIO, URL_, TOKEN, NAME, OPSDESK, DATA_DIR] = process.argv.slice(2);
const NPM = process.env.OPSDESK_NPM_DIR;

function fail(msg) {
  console.log(`FAIL [ts ${SCENARIO}]: ${msg}`);
  process.exit(1);
}

if (!NPM) fail("OPSDESK_NPM_DIR is not set: run .ci/deps/mcp.sh");
const sdk = (p) =>
  import(pathToFileURL(join(NPM, "node_modules/@modelcontextprotocol/sdk/dist/esm", p)).href);
const { Client } = await sdk("client/index.js");
const { StreamableHTTPClientTransport } = await sdk("client/streamableHttp.js");
const { LoggingMessageNotificationSchema } = await sdk("types.js");

const EXPECTED_TOOLS = [
  "calendar_event_draft", "calendar_list", "chat_reply_draft", "deal_create", "deal_detail",
  "deal_timeline", "deals_list", "doctor", "draft_email", "draft_generate", "draft_reply",
  "draft_status", "drafts_list", "eod_digest", "extraction_deadlines", "filing_suggestion",
  "inbox_pull", "inbox_search", "mail_list", "mail_move", "morning_brief", "providers_get",
  "status", "triage_classify", "triage_list",
];
const CHANNEL = "notifications/claude/channel";

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function until(what, cond, ms = 30000) {
  const deadline = Date.now() + ms;
  for (;;) {
    const v = cond();
    if (v) return v;
    if (Date.now() > deadline) fail(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** A connected client that records logging notifications and channel pushes. */
async function connect(name) {
  const transport = new StreamableHTTPClientTransport(new URL(URL_), {
    requestInit: { headers: { Authorization: `Bearer ${TOKEN}` } },
  });
  const client = new Client({ name, version: "1.0.0" }, { capabilities: {} });
  const seen = { logs: [], channel: [], other: [] };
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    seen.logs.push(n.params);
  });
  client.fallbackNotificationHandler = async (n) => {
    if (n.method === CHANNEL) seen.channel.push(n.params);
    else seen.other.push(n);
  };
  await client.connect(transport);
  await client.setLoggingLevel("debug");
  const close = async () => {
    try {
      await transport.terminateSession();
    } catch {
      // rmcp answers DELETE with 202; anything else is not this test's concern
    }
    await client.close();
  };
  return { client, transport, seen, close };
}

function addMessage(args) {
  execFileSync(OPSDESK, ["--data-dir", DATA_DIR, "inbox", "add", "--profile", "default", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
}

// The messages of a pull, each subject taken from inside the answer's fence (a subject not
// fenced with it stays as it is, and then matches nothing).
function pulled(res) {
  if (res.isError) fail(`tool error: ${JSON.stringify(res.content)}`);
  const f = res.structuredContent.fence;
  const [pre, post] = [`<<untrusted:${f}>>\n`, `\n<</untrusted:${f}>>`];
  return res.structuredContent.messages.map((m) => {
    const s = m.subject;
    const inside = typeof s === "string" && s.startsWith(pre) && s.endsWith(post);
    return { ...m, subject: inside ? s.slice(pre.length, s.length - post.length) : s };
  });
}

const pings = (seen, needle) =>
  seen.logs.filter(
    (l) => l.logger === "opsdesk.inbox" && l.data && JSON.stringify(l.data).includes(needle),
  );

async function basic() {
  const me = await connect(NAME);
  const proto = me.transport.protocolVersion;
  if (proto !== "2025-11-25") fail(`negotiated ${proto}, expected 2025-11-25`);
  if (!me.transport.sessionId) fail("no Mcp-Session-Id");
  if (me.client.getServerVersion()?.name !== "opsdesk") fail("server is not opsdesk");

  const { tools } = await me.client.listTools();
  const names = tools.map((t) => t.name).sort();
  if (JSON.stringify(names) !== JSON.stringify(EXPECTED_TOOLS)) {
    fail(`tool list differs: ${JSON.stringify(names)}`);
  }
  const pull = tools.find((t) => t.name === "inbox_pull");
  if (pull.annotations?.readOnlyHint !== true || !pull.outputSchema) {
    fail(`inbox_pull lacks readOnlyHint/outputSchema: ${JSON.stringify(pull)}`);
  }

  // Start from an empty cursor for this client.
  await me.client.callTool({ name: "inbox_pull", arguments: { limit: 200 } });
  await me.client.subscribeResource({ uri: "opsdesk://inbox" });

  const subject = `ts interop ${NAME} ${Date.now()}`;
  const body = "secret body text that must not appear in notifications";
  addMessage(["--from", "Ada <ada@example.com>", "--subject", subject, "--body", body]);

  const [log] = await until("the opsdesk.inbox logging notification", () => {
    const f = pings(me.seen, subject);
    return f.length ? f : null;
  });
  const ping = log.data;
  if (JSON.stringify(ping).includes(body)) fail("the logging notification carries the body");
  if (!(ping.unread >= 1)) fail(`the ping has no unread count: ${JSON.stringify(ping)}`);
  if (me.seen.channel.length) fail(`a non-Claude client got ${CHANNEL}`);

  const first = pulled(await me.client.callTool({ name: "inbox_pull", arguments: { limit: 20 } }));
  const mine = first.filter((m) => m.subject === subject);
  if (mine.length !== 1) fail(`first pull did not return the message once: ${JSON.stringify(first)}`);
  if (mine[0].untrusted !== true) fail("inbound message is not marked untrusted");
  const second = pulled(await me.client.callTool({ name: "inbox_pull", arguments: { limit: 20 } }));
  if (second.some((m) => m.subject === subject)) fail("second pull returned the message again");

  const other = await connect(`${NAME}-other`);
  const theirs = pulled(await other.client.callTool({ name: "inbox_pull", arguments: { limit: 200 } }));
  if (!theirs.some((m) => m.subject === subject)) fail("another client's pull did not get the message");
  await other.close();

  const draft = await me.client.callTool({
    name: "draft_email",
    arguments: { to: ["bob@example.com"], subject: `Re: ${subject}`, body: "Thanks, will do." },
  });
  if (draft.isError) fail(`draft_email failed: ${JSON.stringify(draft.content)}`);
  const d = draft.structuredContent;
  if (d?.status !== "pending_approval" || !d?.draft_id) {
    fail(`draft_email did not queue a draft: ${JSON.stringify(d)}`);
  }
  await me.close();
  return { protocol: proto, tools: names, ping, message_id: mine[0].id, draft_id: d.draft_id };
}

async function channel() {
  const claude = await connect("claude-code");
  const other = await connect(NAME);
  if (!claude.client.getServerCapabilities()?.experimental?.["claude/channel"]) {
    fail("the server does not advertise the experimental claude/channel capability");
  }
  // Both sessions' GET streams must be open before the message arrives; the SDK opens them
  // right after initialize, and the server keeps a short replay cache for the gap.
  await sleep(300);

  const id = `ts-channel-${Date.now()}`;
  const html =
    '<div><p>Hi <b>there</b>, the build is <a href="https://example.com/x">red</a>.</p>' +
    "<script>alert(1)</script><style>p{color:red}</style></div>";
  addMessage([
    "--channel", "teams", "--from", "Brandon <brandon@example.com>", "--id", id,
    "--thread", "19:chat-abc@thread.v2", "--html", "--body", html,
  ]);

  const [push] = await until(`${CHANNEL} at the claude-code client`, () => {
    const f = claude.seen.channel.filter((p) => p?.meta?.message_id === id);
    return f.length ? f : null;
  });
  // The other client is notified too (the portable ping), just not through the channel.
  await until("the logging ping at the other client", () => pings(other.seen, id).length > 0);
  await sleep(1000);

  const keys = Object.keys(push).sort();
  if (JSON.stringify(keys) !== JSON.stringify(["content", "meta"])) {
    fail(`channel params are not {content, meta}: ${JSON.stringify(push)}`);
  }
  // The content is the sender's: inside the push's fence (its id in meta.fence).
  const fence = push.meta?.fence;
  const [pre, post] = [`<<untrusted:${fence}>>\n`, `\n<</untrusted:${fence}>>`];
  if (typeof fence !== "string" || !/^[a-z]{20}$/.test(fence)) fail(`channel meta.fence: ${JSON.stringify(push.meta)}`);
  if (typeof push.content !== "string" || !push.content.startsWith(pre) || !push.content.endsWith(post)) {
    fail(`channel content is not fenced with meta.fence: ${JSON.stringify(push)}`);
  }
  const text = push.content.slice(pre.length, push.content.length - post.length);
  if (!text.includes("Hi") || !text.includes("there")) {
    fail(`channel content is not the message text: ${JSON.stringify(push.content)}`);
  }
  if (/<[a-z/!]/i.test(text) || text.includes("alert(1)") || text.includes("color:red")) {
    fail(`channel content carries raw HTML: ${JSON.stringify(push.content)}`);
  }
  const meta = push.meta;
  for (const k of ["chat_id", "message_id", "user", "ts"]) {
    if (typeof meta[k] !== "string" || meta[k] === "") fail(`channel meta lacks ${k}: ${JSON.stringify(meta)}`);
  }
  for (const [k, v] of Object.entries(meta)) {
    if (typeof v !== "string") fail(`channel meta.${k} is not a string: ${JSON.stringify(meta)}`);
  }
  if (meta.chat_id !== "19:chat-abc@thread.v2") fail(`meta.chat_id: ${meta.chat_id}`);
  if (!meta.user.includes("Brandon")) fail(`meta.user: ${meta.user}`);
  if (Number.isNaN(Date.parse(meta.ts))) fail(`meta.ts is not a timestamp: ${meta.ts}`);
  if (claude.seen.channel.filter((p) => p?.meta?.message_id === id).length !== 1) {
    fail("the channel push arrived more than once");
  }
  if (other.seen.channel.length) {
    fail(`client "${NAME}" got ${CHANNEL}: ${JSON.stringify(other.seen.channel)}`);
  }
  await claude.close();
  await other.close();
  return { push, other_pings: pings(other.seen, id).length };
}

const scenarios = { basic, channel };
if (!scenarios[SCENARIO]) fail(`unknown scenario ${SCENARIO}`);
const out = await scenarios[SCENARIO]();
console.log(JSON.stringify({ scenario: SCENARIO, ...out }));
process.exit(0);
