// Drives opsdesk's Copilot webhook the way GitHub and an extension built on
// @copilot-extensions/preview-sdk see it:
//   - each request is signed here (node:crypto, ECDSA P-256 / SHA-256, base64 DER), and the
//     SDK's own verifyRequestByKeyId accepts it against the same fake keys endpoint opsdesk
//     uses (so the endpoint's shape and the signature format are GitHub's);
//   - opsdesk's answer must equal, byte for byte, the concatenation of the SDK's
//     createAckEvent / createTextEvent / createReferencesEvent / createErrorsEvent /
//     createDoneEvent for the same content, in that order;
//   - a tampered body gets 401.
// Usage: node copilot_sdk.mjs <opsdesk base> <keys api base> <private key pem file> <key id> <sdk dir>
// Prints one JSON object: {ok, cases: [{text, status, frames, problems}]}.
import { readFileSync } from "node:fs";
import { createPrivateKey, sign } from "node:crypto";
import { pathToFileURL } from "node:url";

const [opsdesk, keysBase, keyFile, keyId, sdkDir] = process.argv.slice(2);
const mod = (p) => import(pathToFileURL(`${sdkDir}/node_modules/${p}`).href);
const sdk = await mod("@copilot-extensions/preview-sdk/index.js");
const { request } = await mod("@octokit/request/dist-bundle/index.js");
const keysRequest = request.defaults({ baseUrl: keysBase });
const privateKey = createPrivateKey(readFileSync(keyFile, "utf8"));

const CASES = [
  "What is the status?",
  "Draft an email for deals to ann@contoso.com subject: Term sheet body: Signed copy attached.",
  "draft an email for clinic to someone@example.org subject: x body: y",
  "morning brief please",
];

async function post(body, signature) {
  const r = await fetch(`${opsdesk}/copilot/webhook`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "github-public-key-identifier": keyId,
      "github-public-key-signature": signature,
      "x-github-token": "ghu_sdk_test_token",
    },
    body,
  });
  return { status: r.status, text: await r.text() };
}

// Rebuild the stream from its content with the SDK's helpers.
function expected(stream) {
  const frames = [];
  for (const raw of stream.split("\n\n").filter((f) => f.length > 0)) {
    let event = "";
    let data = "";
    for (const line of raw.split("\n")) {
      if (line.startsWith("event: ")) event = line.slice(7);
      else if (line.startsWith("data: ")) data = line.slice(6);
    }
    frames.push({ event, data });
  }
  const kinds = [];
  let out = "";
  for (const [i, f] of frames.entries()) {
    if (f.data === "[DONE]") continue; // part of createDoneEvent
    if (f.event === "copilot_references") {
      kinds.push("references");
      out += sdk.createReferencesEvent(JSON.parse(f.data));
    } else if (f.event === "copilot_errors") {
      kinds.push("errors");
      out += sdk.createErrorsEvent(JSON.parse(f.data));
    } else {
      const choice = JSON.parse(f.data).choices[0];
      if (choice.finish_reason === "stop") {
        kinds.push("done");
        out += sdk.createDoneEvent();
      } else if (i === 0) {
        kinds.push("ack");
        out += sdk.createAckEvent();
      } else {
        kinds.push("text");
        out += sdk.createTextEvent(choice.delta.content);
      }
    }
  }
  return { out, kinds };
}

const results = [];
let ok = true;
for (const text of CASES) {
  const body = JSON.stringify({ messages: [{ role: "user", content: text }], copilot_thread_id: "t1" });
  const signature = sign("sha256", Buffer.from(body), privateKey).toString("base64");
  const problems = [];
  const { isValid } = await sdk.verifyRequestByKeyId(body, signature, keyId, { request: keysRequest });
  if (!isValid) problems.push("the SDK does not accept the test's signature");
  const r = await post(body, signature);
  if (r.status !== 200) problems.push(`status ${r.status}: ${r.text}`);
  const e = expected(r.text);
  if (e.out !== r.text) problems.push(`not the SDK's bytes:\n${JSON.stringify(r.text)}\nvs\n${JSON.stringify(e.out)}`);
  if (e.kinds[0] !== "ack" || e.kinds[e.kinds.length - 1] !== "done" || !e.kinds.includes("text")) {
    problems.push(`order ${e.kinds.join(",")}`);
  }
  ok &&= problems.length === 0;
  results.push({ text, status: r.status, frames: e.kinds, problems });
}
{
  const body = JSON.stringify({ messages: [{ role: "user", content: "status" }] });
  const signature = sign("sha256", Buffer.from(body), privateKey).toString("base64");
  const r = await post(body.replace("status", "drafts"), signature);
  const problems = r.status === 401 ? [] : [`tampered body got ${r.status}`];
  ok &&= problems.length === 0;
  results.push({ text: "(tampered)", status: r.status, frames: [], problems });
}
console.log(JSON.stringify({ ok, cases: results }));
