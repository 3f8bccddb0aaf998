// Dev comparison, run by hand (not in CI): chrono-node with a plain "cue word before the
// date" rule on the deadline evaluation set (tests/fixtures/deadlines/eval.jsonl), scored
// the same way as `cargo test --test deadlines_eval`.
//
//   npm install --prefix .ci/tools chrono-node     # .ci/tools is gitignored
//   node scripts/deadlines_chrono.mjs [path/to/eval.jsonl]
//
// chrono's English, German and Spanish parsers all run on each message (chrono has no
// language detection); a date counts as a deadline when a cue word stands in the 30
// characters before it, or "at the latest" / "spätestens" / "a más tardar" right after it,
// or chrono's own match starts with "within" / "in" (a span).
// Dates resolve against the message's received time and offset (forwardDate on), ranges give
// their end; a date before the received day is dropped, as opsdesk does.
import { createRequire } from "node:module";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import path from "node:path";

const here = path.dirname(fileURLToPath(import.meta.url));
const require = createRequire(path.join(here, "..", ".ci", "tools", "package.json"));
const chrono = require("chrono-node");

const file = process.argv[2] ?? path.join(here, "..", "tests", "fixtures", "deadlines", "eval.jsonl");
const lines = readFileSync(file, "utf8").split("\n").filter(Boolean);

const BEFORE = [
  "by", "before", "due", "due by", "due on", "no later than", "until", "till", "deadline",
  "deadline is", "expires", "expires on", "closes", "closes on", "close", "cutoff", "cut-off",
  "latest by", "within", "in", "bis", "spätestens", "frist", "vor", "antes de", "antes del",
  "a más tardar", "hasta", "para", "fecha límite", "plazo", "vence", "dentro de",
];
const AFTER = ["at the latest", "latest", "spätestens", "a más tardar", "como muy tarde"];
const esc = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const beforeRe = new RegExp(`(?:^|[^\\p{L}])(?:${BEFORE.map(esc).join("|")})[\\s:,]*(?:the|on|el|la|den|am|zum)?\\s*$`, "iu");
const afterRe = new RegExp(`^[\\s,]*(?:${AFTER.map(esc).join("|")})`, "iu");

function ymdAt(date, offsetMin) {
  return new Date(date.getTime() + offsetMin * 60000).toISOString().slice(0, 10);
}

const tally = new Map();
const total = { n: 0, tp: 0, fp: 0, fn: 0 };
for (const line of lines) {
  const m = JSON.parse(line);
  if (!m.text) continue;
  const received = new Date(m.received);
  const off = m.received.match(/([+-])(\d\d):(\d\d)$/);
  const offsetMin = off ? (off[1] === "-" ? -1 : 1) * (Number(off[2]) * 60 + Number(off[3])) : 0;
  const ref = { instant: received, timezone: offsetMin };
  const today = ymdAt(received, offsetMin);
  const results = [chrono.en, chrono.de, chrono.es].flatMap((p) =>
    p.parse(m.text, ref, { forwardDate: true }),
  );
  const got = new Set();
  for (const r of results) {
    const pre = m.text.slice(Math.max(0, r.index - 30), r.index);
    const post = m.text.slice(r.index + r.text.length, r.index + r.text.length + 20);
    // chrono takes "within" / "in" into its own match ("within 48 hours").
    const own = /^(within|in|innerhalb|binnen|dentro de|en)\s/iu.test(r.text);
    if (!(own || beforeRe.test(pre) || afterRe.test(post))) continue;
    const d = ymdAt((r.end ?? r.start).date(), offsetMin);
    if (d < today) continue;
    got.add(d);
  }
  const want = new Set(m.deadlines);
  const tp = [...got].filter((d) => want.has(d)).length;
  const fp = got.size - tp;
  const fn = [...want].filter((d) => !got.has(d)).length;
  const t = tally.get(m.class) ?? { n: 0, tp: 0, fp: 0, fn: 0 };
  for (const x of [t, total]) {
    x.n += 1; x.tp += tp; x.fp += fp; x.fn += fn;
  }
  tally.set(m.class, t);
}
const pct = (a, b) => (b === 0 ? 100 : (100 * a) / b).toFixed(1).padStart(6) + "%";
const version = JSON.parse(
  readFileSync(path.join(path.dirname(require.resolve("chrono-node")), "..", "..", "package.json"), "utf8"),
).version;
console.log(`chrono-node ${version} + cue rule`);
console.log("class             msgs   tp   fp   fn   recall precision");
for (const [c, t] of [...[...tally].sort(), ["overall", total]]) {
  console.log(
    `${c.padEnd(16)} ${String(t.n).padStart(5)} ${String(t.tp).padStart(4)} ${String(t.fp).padStart(4)} ${String(t.fn).padStart(4)} ${pct(t.tp, t.tp + t.fn)} ${pct(t.tp, t.tp + t.fp)}`,
  );
}
