//! The router behind the MCP surface of a real `opsdesk serve`: `morning_brief` with
//! `polish: true` goes to the (fake) provider and back, a HIPAA profile's polish is skipped
//! with the reason, and `providers_get` reports the router's usage in its typed `router` field.

mod llm_support;
mod mcp_support;

use std::time::Duration;

use llm_support::*;
use mcp_support::Server;
use serde_json::{Value, json};

async fn call(server: &Server, tool: &str, args: Value) -> Value {
    let mut params = json!({"name": tool, "arguments": args});
    params["_meta"] = json!({
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "llm-test", "version": "1"},
    });
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params});
    let resp = reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .build()
        .unwrap()
        .post(&server.url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("authorization", format!("Bearer {}", server.token))
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", tool)
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let text = resp.text().await.unwrap();
    let v = serde_json::from_str::<Value>(&text)
        .ok()
        .unwrap_or_else(|| {
            text.lines()
                .filter_map(|l| l.strip_prefix("data:"))
                .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
                .next_back()
                .unwrap_or(Value::Null)
        });
    assert!(v["error"].is_null(), "{tool}: {v}");
    v["result"]["structuredContent"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn morning_brief_polish_and_providers_get_over_mcp() {
    let fake = Fake::start().await;
    fake.script("/chat/completions", vec![Reply::Echo { piece: 9 }]);
    let config = format!(
        r#"
[profiles.work]
sources = ["spool"]
[profiles.clinic]
sources = ["spool"]
phi_auto_redact = true
requires_hipaa = true
[llm]
default = "local"
[llm.providers.local]
enabled = true
endpoint = "{}/v1"
model = "fake-model"
"#,
        fake.url
    );
    let server = tokio::task::spawn_blocking(move || Server::start(&[], Some(&config)))
        .await
        .unwrap();

    let before = call(&server, "providers_get", json!({})).await;
    assert_eq!(before["router"], json!({}), "{before}");

    let plain = call(&server, "morning_brief", json!({"profile": "work"})).await;
    assert_eq!(plain["polished"], false);
    assert!(fake.posts().is_empty(), "no polish unless asked");

    let polished = call(
        &server,
        "morning_brief",
        json!({"profile": "work", "polish": true}),
    )
    .await;
    assert_eq!(polished["polished"], true, "{polished}");
    assert_eq!(fake.posts().len(), 1);
    assert!(polished.get("polish_skipped").is_none());

    let after = call(&server, "providers_get", json!({})).await;
    assert_eq!(after["router"]["local"]["calls"], 1, "{after}");
    assert_eq!(after["router"]["local"]["usage"]["completion_tokens"], 7);

    let clinic = call(
        &server,
        "morning_brief",
        json!({"profile": "clinic", "polish": true}),
    )
    .await;
    assert_eq!(clinic["polished"], false);
    assert!(
        clinic["polish_skipped"]
            .as_str()
            .unwrap()
            .contains("hipaa_provider_required"),
        "{clinic}"
    );
    assert_eq!(
        fake.posts().len(),
        1,
        "nothing of the clinic reached the uncleared provider"
    );
}

/// The raw JSON-RPC answer of a call (for error answers).
async fn call_raw(server: &Server, tool: &str, args: Value) -> Value {
    let params = json!({"name": tool, "arguments": args, "_meta": {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": {"name": "llm-test", "version": "1"},
    }});
    let body = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params});
    let text = reqwest::Client::new()
        .post(&server.url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("authorization", format!("Bearer {}", server.token))
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", tool)
        .body(body.to_string())
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    serde_json::from_str::<Value>(&text).unwrap_or_else(|_| {
        text.lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
            .next_back()
            .unwrap_or(Value::Null)
    })
}

/// `profile: "all"` (issue 14): one section per entity, each from its own data only; the
/// personal profile only with `include_personal`; the HIPAA entity's section redacted for this
/// uncleared client; and a polish sends each section alone, routed as its own entity, so the
/// clinic's section never reaches the uncleared provider.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_brief_across_entities_keeps_each_entity_in_its_own_section() {
    let fake = Fake::start().await;
    fake.script("/chat/completions", vec![Reply::Echo { piece: 9 }]);
    let config = format!(
        r#"
[profiles.work]
sources = ["spool"]
[profiles.clinic]
sources = ["spool"]
phi_auto_redact = true
requires_hipaa = true
phi_names = ["Margaret Okafor"]
[profiles.home]
sources = ["spool"]
personal = true
[llm]
default = "local"
[llm.providers.local]
enabled = true
endpoint = "{}/v1"
model = "fake-model"
"#,
        fake.url
    );
    let server = tokio::task::spawn_blocking(move || Server::start(&[], Some(&config)))
        .await
        .unwrap();
    for (profile, from, subject) in [
        (
            "work",
            "Jordan Lee <jordan.lee@contoso.com>",
            "Term sheet for Sunrise?",
        ),
        (
            "clinic",
            "Margaret Okafor <m.okafor@example.org>",
            "Refill for Margaret Okafor?",
        ),
        ("home", "Sam <sam@family.example>", "Dinner on Friday?"),
    ] {
        let o = server.cli(&[
            "inbox",
            "add",
            "--profile",
            profile,
            "--channel",
            "email",
            "--from",
            from,
            "--subject",
            subject,
            "--body",
            "Can you confirm?",
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }

    let all = call(&server, "morning_brief", json!({"profile": "all"})).await;
    assert_eq!(all["profile"], "all", "{all}");
    let sections = all["sections"].as_array().unwrap();
    let names: Vec<&str> = sections
        .iter()
        .map(|s| s["profile"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["clinic", "work"], "{all}");
    assert_eq!(all["left_out"][0]["profile"], "home", "{all}");
    let section = |p: &str| {
        sections
            .iter()
            .find(|s| s["profile"] == p)
            .unwrap()
            .to_string()
    };
    let (work, clinic) = (section("work"), section("clinic"));
    assert!(
        work.contains("Term sheet for Sunrise") && !work.contains("Refill"),
        "{work}"
    );
    assert!(
        clinic.contains("Refill") && !clinic.contains("Term sheet"),
        "{clinic}"
    );
    assert!(
        !all.to_string().contains("Okafor"),
        "PHI reaches an uncleared client: {all}"
    );
    assert!(!all.to_string().contains("Dinner"), "{all}");

    let with_home = call(
        &server,
        "eod_digest",
        json!({"profile": "all", "include_personal": true}),
    )
    .await;
    let names: Vec<&str> = with_home["sections"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["profile"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["clinic", "home", "work"], "{with_home}");
    assert_eq!(with_home["kind"], "end_of_day");

    let e = call_raw(
        &server,
        "morning_brief",
        json!({"profile": "work", "include_personal": true}),
    )
    .await;
    assert_eq!(e["error"]["data"]["field"], "include_personal", "{e}");

    assert!(fake.posts().is_empty());
    let polished = call(
        &server,
        "morning_brief",
        json!({"profile": "all", "polish": true}),
    )
    .await;
    let s = &polished["sections"];
    assert_eq!(s[1]["profile"], "work");
    assert_eq!(s[1]["polished"], true, "{polished}");
    assert_eq!(s[0]["polished"], false, "{polished}");
    assert!(
        s[0]["polish_skipped"]
            .as_str()
            .unwrap()
            .contains("hipaa_provider_required"),
        "{polished}"
    );
    let posts = fake.posts();
    assert_eq!(posts.len(), 1, "only the work section was sent");
    assert!(
        posts[0].body.contains("Term sheet") && !posts[0].body.contains("Refill"),
        "{}",
        posts[0].body
    );
}
