//! A client that speaks only MCP 2025-03-26 (Streamable HTTP's first revision): it is answered
//! in that revision, and works without the `Mcp-Protocol-Version` header later revisions added.

mod mcp_support;

use mcp_support::Server;
use serde_json::{Value, json};

const ACCEPT: &str = "application/json, text/event-stream";

fn message(text: &str) -> Value {
    serde_json::from_str::<Value>(text).unwrap_or_else(|_| {
        text.lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
            .next_back()
            .unwrap_or(Value::Null)
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_pinned_to_2025_03_26_is_answered_in_that_revision() {
    let server = tokio::task::spawn_blocking(|| Server::start(&[], None))
        .await
        .unwrap();
    let http = reqwest::Client::new();
    let post = |body: Value, sid: Option<String>| {
        let mut rb = http
            .post(&server.url)
            .header("content-type", "application/json")
            .header("accept", ACCEPT)
            .header("authorization", format!("Bearer {}", server.token));
        if let Some(s) = sid {
            rb = rb.header("mcp-session-id", s);
        }
        rb.body(body.to_string()).send()
    };
    let r = post(
        json!({"jsonrpc":"2.0","id":1,"method":"initialize","params":{
            "protocolVersion":"2025-03-26","capabilities":{},
            "clientInfo":{"name":"old-client","version":"1"}}}),
        None,
    )
    .await
    .unwrap();
    assert_eq!(r.status(), 200);
    let sid = r
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string)
        .expect("a session");
    let init = message(&r.text().await.unwrap());
    assert_eq!(
        init["result"]["protocolVersion"], "2025-03-26",
        "negotiated: {init}"
    );
    let r = post(
        json!({"jsonrpc":"2.0","method":"notifications/initialized"}),
        Some(sid.clone()),
    )
    .await
    .unwrap();
    assert!(r.status().is_success(), "{}", r.status());
    // No Mcp-Protocol-Version header: a 2025-03-26 client does not send one.
    let r = post(
        json!({"jsonrpc":"2.0","id":2,"method":"tools/list","params":{}}),
        Some(sid.clone()),
    )
    .await
    .unwrap();
    let list = message(&r.text().await.unwrap());
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap_or_else(|| panic!("{list}"))
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert!(names.contains(&"inbox_pull"), "{names:?}");
    let r = post(
        json!({"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"status","arguments":{}}}),
        Some(sid),
    )
    .await
    .unwrap();
    let call = message(&r.text().await.unwrap());
    // The text copy carries the answer for a client that predates structured content.
    assert!(
        call["result"]["content"][0]["text"]
            .as_str()
            .is_some_and(|t| !t.is_empty()),
        "{call}"
    );
}
