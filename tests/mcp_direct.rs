//! Hot reads in a legacy HTTP session (the direct lane, `src/mcp/direct.rs`): a plain
//! `tools/call` of a short read is answered in one SSE event, with the same answer, identity,
//! scope, audit and session rules as the calls rmcp's session worker answers.

mod mcp_support;

use std::time::Duration;

use mcp_support::Server;
use serde_json::{Value, json};

const ACCEPT: &str = "application/json, text/event-stream";

struct Answer {
    status: u16,
    body: String,
}

impl Answer {
    /// The JSON-RPC message: the last `data:` event.
    fn message(&self) -> Value {
        self.body
            .lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
            .next_back()
            .unwrap_or(Value::Null)
    }

    /// How many SSE events the body holds (a priming event counts).
    fn events(&self) -> usize {
        self.body
            .split("\n\n")
            .filter(|e| !e.trim().is_empty())
            .count()
    }
}

async fn post(server: &Server, token: &str, session: Option<&str>, body: Value) -> Answer {
    post_raw(server, token, session, body.to_string(), &[]).await
}

async fn post_raw(
    server: &Server,
    token: &str,
    session: Option<&str>,
    body: String,
    extra: &[(&str, &str)],
) -> Answer {
    let mut rb = reqwest::Client::new()
        .post(&server.url)
        .timeout(Duration::from_secs(30))
        .header("content-type", "application/json")
        .header("accept", ACCEPT)
        .header("mcp-protocol-version", "2025-06-18")
        .header("authorization", format!("Bearer {token}"))
        .body(body);
    if let Some(s) = session {
        rb = rb.header("mcp-session-id", s);
    }
    for (k, v) in extra {
        rb = rb.header(*k, *v);
    }
    let resp = rb.send().await.expect("send");
    let status = resp.status().as_u16();
    let sid = resp
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    let mut body = resp.text().await.unwrap_or_default();
    if let Some(sid) = sid {
        body = format!("session: {sid}\n\n{body}");
    }
    Answer { status, body }
}

/// A session through the handshake, as `client`.
async fn session(server: &Server, token: &str, client: &str) -> String {
    let init = post(
        server,
        token,
        None,
        json!({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": client, "version": "1"}}}),
    )
    .await;
    assert_eq!(init.status, 200, "{}", init.body);
    let sid = init
        .body
        .strip_prefix("session: ")
        .and_then(|s| s.split('\n').next())
        .expect("a session id")
        .to_string();
    let ack = post(
        server,
        token,
        Some(&sid),
        json!({"jsonrpc": "2.0", "method": "notifications/initialized"}),
    )
    .await;
    assert_eq!(ack.status, 202, "{}", ack.body);
    sid
}

fn plain_call(id: u64, tool: &str, args: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": tool, "arguments": args}})
}

/// The same call with a `_meta` (a progress token), which rmcp's session worker answers.
fn call_with_meta(id: u64, tool: &str, args: Value) -> Value {
    json!({"jsonrpc": "2.0", "id": id, "method": "tools/call",
           "params": {"name": tool, "arguments": args, "_meta": {"progressToken": id}}})
}

fn audit(server: &Server) -> Vec<Value> {
    let o = server.cli(&["--json", "audit", "tail", "-n", "200"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_plain_hot_read_is_one_event_with_the_answer_rmcp_gives() {
    let server = Server::start(&["--demo"], None);
    let token = server.token.clone();
    let sid = session(&server, &token, "lane-test").await;

    let direct = post(
        &server,
        &token,
        Some(&sid),
        plain_call(1, "status", json!({})),
    )
    .await;
    assert_eq!(direct.status, 200, "{}", direct.body);
    assert_eq!(direct.events(), 1, "one event, no priming: {}", direct.body);
    let via_rmcp = post(
        &server,
        &token,
        Some(&sid),
        call_with_meta(2, "status", json!({})),
    )
    .await;
    assert_eq!(via_rmcp.status, 200, "{}", via_rmcp.body);
    assert!(
        via_rmcp.events() > 1,
        "rmcp primes its stream: {}",
        via_rmcp.body
    );

    let (d, r) = (direct.message(), via_rmcp.message());
    assert_eq!(d["id"], 1, "{d}");
    assert_eq!(d["jsonrpc"], "2.0");
    assert!(d["result"].get("resultType").is_none(), "legacy shape: {d}");
    let (ds, rs) = (
        &d["result"]["structuredContent"],
        &r["result"]["structuredContent"],
    );
    assert_eq!(ds["profiles"], rs["profiles"]);
    assert_eq!(ds["version"], rs["version"]);
    assert_eq!(d["result"]["isError"], false);
    // The text copy is the structured answer's JSON.
    let text: Value = serde_json::from_str(
        d["result"]["content"][0]["text"]
            .as_str()
            .expect("a text copy"),
    )
    .expect("JSON text");
    assert_eq!(&text, ds);

    // Pulls through the lane move the session's own cursor, as any pull does.
    let first = post(
        &server,
        &token,
        Some(&sid),
        plain_call(3, "inbox_pull", json!({"limit": 2})),
    )
    .await;
    let second = post(
        &server,
        &token,
        Some(&sid),
        plain_call(4, "inbox_pull", json!({"limit": 2})),
    )
    .await;
    let (a, b) = (first.message(), second.message());
    let seqs = |v: &Value| -> Vec<u64> {
        v["result"]["structuredContent"]["messages"]
            .as_array()
            .map(|m| m.iter().filter_map(|x| x["seq"].as_u64()).collect())
            .unwrap_or_default()
    };
    assert_eq!(seqs(&a).len(), 2, "{a}");
    assert!(!seqs(&b).is_empty(), "{b}");
    assert!(
        seqs(&b).iter().all(|s| s > seqs(&a).last().unwrap()),
        "{a}\n{b}"
    );
    assert_eq!(
        a["result"]["structuredContent"]["consumer"],
        "mcp:default/lane-test"
    );

    // Host names rmcp refuses (DNS rebinding) are not answered on the lane either.
    let rebound = post_raw(
        &server,
        &token,
        Some(&sid),
        plain_call(6, "status", json!({})).to_string(),
        &[("host", "evil.example")],
    )
    .await;
    assert_eq!(rebound.status, 403, "{}", rebound.body);
    // A body that only looks plain (a key twice) is left to rmcp, which refuses it.
    let doubled = post_raw(
        &server,
        &token,
        Some(&sid),
        r#"{"jsonrpc":"2.0","id":7,"id":8,"method":"tools/call","params":{"name":"status","arguments":{}}}"#.into(),
        &[],
    )
    .await;
    assert!(
        doubled.message().get("result").is_none(),
        "{} {}",
        doubled.status,
        doubled.body
    );

    // Bad arguments are the same JSON-RPC error as anywhere.
    let bad = post(
        &server,
        &token,
        Some(&sid),
        plain_call(5, "inbox_pull", json!({"limit": "many"})),
    )
    .await;
    assert_eq!(bad.message()["error"]["code"], -32602, "{}", bad.body);

    // Every call is audited under the session's client.
    let records = audit(&server);
    let reads: Vec<&Value> = records
        .iter()
        .filter(|r| r["actor"] == "mcp:default/lane-test" && r["tool"] == "status")
        .collect();
    assert_eq!(reads.len(), 2, "{records:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_lane_keeps_sessions_to_their_credential_and_their_lifetime() {
    let other = "o".repeat(40);
    let server = Server::start_env(
        &["--demo"],
        Some(
            "[server]\nsession_idle_secs = 10\n\n[server.clients.other]\ntoken_env = \"OTHER_TOKEN\"\n",
        ),
        &[("OTHER_TOKEN", other.as_str())],
    );
    let token = server.token.clone();
    let sid = session(&server, &token, "owner").await;

    // Another credential cannot use the session.
    let stolen = post(
        &server,
        &other,
        Some(&sid),
        plain_call(1, "status", json!({})),
    )
    .await;
    assert_eq!(stolen.status, 404, "{}", stolen.body);

    // Calls the lane answers keep the session alive past the idle limit (and past the
    // idle limit plus rmcp's grace, the timer that used to end sessions)…
    for i in 0..17 {
        let a = post(
            &server,
            &token,
            Some(&sid),
            plain_call(10 + i, "status", json!({})),
        )
        .await;
        assert_eq!(a.status, 200, "call {i}: {}", a.body);
        assert_eq!(a.events(), 1, "answered on the lane: {}", a.body);
        tokio::time::sleep(Duration::from_secs(1)).await;
    }
    // …and an idle one ends (the sweeper looks every 2.5 s).
    tokio::time::sleep(Duration::from_secs(14)).await;
    let late = post(
        &server,
        &token,
        Some(&sid),
        plain_call(20, "status", json!({})),
    )
    .await;
    assert_eq!(late.status, 404, "{}", late.body);

    // A deleted session is gone for the lane too.
    let sid = session(&server, &token, "owner").await;
    let del = reqwest::Client::new()
        .delete(&server.url)
        .header("authorization", format!("Bearer {token}"))
        .header("mcp-session-id", &sid)
        .send()
        .await
        .expect("delete");
    assert!(del.status().is_success(), "{}", del.status());
    let after = post(
        &server,
        &token,
        Some(&sid),
        plain_call(30, "status", json!({})),
    )
    .await;
    assert_eq!(after.status, 404, "{}", after.body);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_scoped_client_is_refused_on_the_lane_and_the_refusal_audited() {
    let dash = "d".repeat(40);
    let server = Server::start_env(
        &["--demo"],
        Some("[server.clients.dash]\ntoken_env = \"DASH_TOKEN\"\ntoolsets = [\"briefs\"]\n"),
        &[("DASH_TOKEN", dash.as_str())],
    );
    let sid = session(&server, &dash, "dashboard").await;
    let refused = post(
        &server,
        &dash,
        Some(&sid),
        plain_call(1, "inbox_pull", json!({})),
    )
    .await;
    assert_eq!(refused.status, 200, "{}", refused.body);
    assert_eq!(
        refused.events(),
        1,
        "answered on the lane: {}",
        refused.body
    );
    let m = refused.message();
    assert!(m["error"]["message"].as_str().is_some(), "{m}");
    assert!(m.get("result").is_none(), "{m}");
    let refusals: Vec<Value> = audit(&server)
        .into_iter()
        .filter(|r| r["event"] == "mcp.scope_refused" && r["tool"] == "inbox_pull")
        .collect();
    assert_eq!(refusals.len(), 1, "{refusals:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_uncleared_client_gets_the_same_redacted_view_on_the_lane_as_through_rmcp() {
    let server = Server::start(
        &[],
        Some(
            "[profiles.clinic]\nsources = [\"spool\"]\nrequires_hipaa = true\nphi_auto_redact = true\nphi_names = [\"Margaret Okafor\"]\n",
        ),
    );
    mcp_support::add_patient_message(&server);
    let token = server.token.clone();
    let sid = session(&server, &token, "uncleared").await;
    let args = json!({"text": "Refill", "limit": 5});
    let direct = post(
        &server,
        &token,
        Some(&sid),
        plain_call(1, "inbox_search", args.clone()),
    )
    .await;
    assert_eq!(direct.events(), 1, "answered on the lane: {}", direct.body);
    let via_rmcp = post(
        &server,
        &token,
        Some(&sid),
        call_with_meta(2, "inbox_search", args),
    )
    .await;
    for id in mcp_support::PATIENT_IDENTIFIERS {
        assert!(
            !direct.body.contains(id),
            "the lane leaked `{id}`: {}",
            direct.body
        );
        assert!(
            !via_rmcp.body.contains(id),
            "rmcp leaked `{id}`: {}",
            via_rmcp.body
        );
    }
    // The same session, the same placeholders: both answers name the sender alike.
    // (Each answer has a fence of its own: compared inside the fences.)
    let from = |a: &Answer| {
        mcp_support::unfenced_answer(&a.message()["result"]["structuredContent"])["messages"][0]
            ["from"]
            .clone()
    };
    assert!(from(&direct).is_object(), "{}", direct.body);
    assert_eq!(from(&direct), from(&via_rmcp));
    let records = audit(&server);
    assert!(
        records
            .iter()
            .filter(|r| r["event"] == "mcp.redacted")
            .count()
            >= 2,
        "each redacted answer is audited: {records:?}"
    );
}
