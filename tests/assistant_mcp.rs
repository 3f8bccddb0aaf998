//! The assistant's MCP tools on a real `opsdesk serve` with the fake provider: declared in
//! `tools/list`, typed answers, jobs through the router, and every answer through the PHI view
//! for an uncleared client (the default credential is not cleared).

mod llm_support;
mod mcp_support;

use std::process::Command;

use llm_support::*;
use mcp_support::Server;
use serde_json::{Value, json};

const CLIENT: &str = "assistant-test";

async fn rpc(server: &Server, method: &str, params: Value) -> Value {
    mcp_support::rpc(server, CLIENT, method, params).await
}

async fn call(server: &Server, tool: &str, args: Value) -> Value {
    mcp_support::call(server, CLIENT, tool, args).await
}

fn add(
    server: &Server,
    config: &std::path::Path,
    profile: &str,
    from: &str,
    subject: &str,
    body: &str,
) {
    let out = Command::new(env!("CARGO_BIN_EXE_opsdesk"))
        .arg("--data-dir")
        .arg(&server.data_dir)
        .arg("--config")
        .arg(config)
        .args([
            "inbox",
            "add",
            "--channel",
            "email",
            "--profile",
            profile,
            "--from",
            from,
        ])
        .args(["--subject", subject, "--body", body])
        .env_remove("OPSDESK_LOG")
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

fn completion(content: &str) -> Reply {
    let body = json!({
        "id": "c1", "object": "chat.completion", "created": 1, "model": "fake-model",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 50, "completion_tokens": 9, "total_tokens": 59}
    });
    Reply::Whole(200, vec![], body.to_string())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_assistant_tools_run_jobs_and_answer_through_the_phi_view() {
    let fake = Fake::start().await;
    fake.script(
        "/chat/completions",
        vec![
            completion(
                r#"{"category":"decision","urgency":"high","reason":"asks to pick a vendor"}"#,
            ),
            completion(r#"{"body":"Let us take vendor B."}"#),
        ],
    );
    let config = format!(
        r#"
[profiles.work]
sources = ["spool"]
[profiles.clinic]
sources = ["spool"]
phi_auto_redact = true
requires_hipaa = true
phi_names = ["Maria Lopez"]
[llm]
default = "local"
[llm.providers.local]
enabled = true
endpoint = "{}/v1"
model = "fake-model"
hipaa_cleared = true
"#,
        fake.url
    );
    let cfg_dir = tempfile::tempdir().unwrap();
    let cfg_path = cfg_dir.path().join("config.toml");
    std::fs::write(&cfg_path, &config).unwrap();
    let server = tokio::task::spawn_blocking(move || Server::start(&[], Some(&config)))
        .await
        .unwrap();
    // A deadline five days after the message, whatever day the suite runs (a weekday name
    // here made the test depend on today's weekday): more than two days ahead, so its triage
    // urgency is normal and the model's vendor decision is the only high item.
    let due = (time::OffsetDateTime::now_utc() + time::Duration::days(5)).date();
    add(
        &server,
        &cfg_path,
        "work",
        "Mei Chen <mei.chen@contoso.com>",
        "Vendor",
        "Which vendor do we take, A or B?",
    );
    add(
        &server,
        &cfg_path,
        "clinic",
        "Front desk <desk@clinic.example>",
        "Refill for Maria Lopez",
        &format!("Maria Lopez needs the refill by {due}."),
    );

    let list = rpc(&server, "tools/list", json!({})).await;
    let names: Vec<&str> = list["result"]["tools"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["name"].as_str().unwrap())
        .collect();
    for t in [
        "draft_generate",
        "extraction_deadlines",
        "triage_classify",
        "triage_list",
    ] {
        assert!(names.contains(&t), "{t} missing from {names:?}");
    }

    let r = call(&server, "triage_classify", json!({"seqs": [1, 2]})).await;
    let sc = &r["structuredContent"];
    assert_eq!(sc["progress"]["state"], "finished", "{sc}");
    assert_eq!(sc["items"][0]["result"]["category"], "decision");
    assert_eq!(sc["items"][0]["result"]["by"], "model");
    assert_eq!(
        sc["items"][1]["result"]["category"], "deadline",
        "the rules were sure: {sc}"
    );
    assert_eq!(fake.posts().len(), 1);

    let high = call(&server, "triage_list", json!({"urgency": "high"})).await;
    assert_eq!(
        high["structuredContent"]["items"].as_array().unwrap().len(),
        1,
        "{high}"
    );
    let r = call(&server, "triage_list", json!({})).await;
    let sc = &r["structuredContent"];
    assert_eq!(sc["items"].as_array().unwrap().len(), 2, "{sc}");
    let s = r.to_string();
    assert!(!s.contains("Lopez"), "the clinic's patient leaks: {s}");
    assert_eq!(sc["phi_redaction"]["redacted"], true, "{sc}");
    assert!(s.contains("Mei Chen"), "the work profile stays clear: {s}");

    let r = call(
        &server,
        "extraction_deadlines",
        json!({"seqs": [2], "use_model": false}),
    )
    .await;
    assert_eq!(r["structuredContent"]["items"][0]["ok"], true, "{r}");
    let r = call(&server, "extraction_deadlines", json!({})).await;
    let d = &r["structuredContent"]["deadlines"];
    assert_eq!(d.as_array().unwrap().len(), 1, "{r}");
    // The quote is the phrase as written (its date may be a placeholder in this PHI view).
    assert!(
        d[0]["quote"]
            .as_str()
            .unwrap()
            .contains("needs the refill by"),
        "{r}"
    );
    assert!(!r.to_string().contains("Lopez"), "{r}");

    let r = call(&server, "draft_generate", json!({"seq": 1})).await;
    let sc = &r["structuredContent"];
    assert_eq!(sc["status"], "pending_approval", "{sc}");
    let id = sc["draft_id"].as_str().unwrap();
    let st = call(&server, "draft_status", json!({"id": id})).await;
    assert_eq!(
        st["structuredContent"]["draft"]["created_by"], "assistant:draft",
        "{st}"
    );
    assert_eq!(st["structuredContent"]["awaiting_operator"], true);

    // Bad requests are clear errors.
    let e = rpc(
        &server,
        "tools/call",
        json!({"name": "triage_classify", "arguments": {"seqs": []}}),
    )
    .await;
    assert!(
        e["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("1 to 10"),
        "{e}"
    );
    let e = rpc(
        &server,
        "tools/call",
        json!({"name": "triage_list", "arguments": {"category": "nope"}}),
    )
    .await;
    assert!(e.to_string().contains("categories: needs_reply"), "{e}");
}

/// `filing_suggestion` over MCP (issue 14): the rules first, the model (the router's `filing`
/// job) for mail they leave unplaced; `use_model: false` asks nothing; a HIPAA entity's mail is
/// never sent to the uncleared provider, and then — like any model failure — the rule result
/// stands with the reason.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn filing_suggestion_asks_the_model_for_what_the_rules_leave_unplaced() {
    let fake = Fake::start().await;
    fake.script(
        "/chat/completions",
        vec![completion(
            r#"{"folder":"Travel","reason":"a flight booking"}"#,
        )],
    );
    let config = format!(
        r#"
[profiles.work]
sources = ["spool"]
[profiles.clinic]
sources = ["spool"]
phi_auto_redact = true
requires_hipaa = true
phi_names = ["Maria Lopez"]
[filing]
folders = ["Travel"]
[[filing.rules]]
folder = "Finance"
keywords = ["invoice"]
[llm]
default = "local"
[llm.providers.local]
enabled = true
endpoint = "{}/v1"
model = "fake-model"
"#,
        fake.url
    );
    let cfg_dir = tempfile::tempdir().unwrap();
    let cfg_path = cfg_dir.path().join("config.toml");
    std::fs::write(&cfg_path, &config).unwrap();
    let server = tokio::task::spawn_blocking(move || Server::start(&[], Some(&config)))
        .await
        .unwrap();
    let from = "Mei Chen <mei.chen@contoso.com>";
    add(&server, &cfg_path, "work", from, "Invoice 42", "Attached.");
    add(
        &server,
        &cfg_path,
        "work",
        from,
        "Your flight",
        "Booking AMS-JFK.",
    );
    add(
        &server,
        &cfg_path,
        "clinic",
        "Front desk <desk@clinic.example>",
        "Maria Lopez",
        "Maria Lopez called.",
    );

    // Rules only: the invoice is placed, the rest say so; no model call.
    let r = call(
        &server,
        "filing_suggestion",
        json!({"message_ids": ["1", "2"], "use_model": false}),
    )
    .await;
    let s = &r["structuredContent"]["suggestions"];
    assert_eq!(s[0]["folder"], "Finance", "{r}");
    assert_eq!(s[0]["decided_by"], "rule", "{r}");
    assert!(
        s[1]["folder"].is_null() && s[1].get("model_error").is_none(),
        "{r}"
    );
    assert!(fake.posts().is_empty());

    // The default: the model places the flight among the configured folders.
    let r = call(
        &server,
        "filing_suggestion",
        json!({"message_ids": ["1", "2", "3"]}),
    )
    .await;
    let s = &r["structuredContent"]["suggestions"];
    assert_eq!(s[0]["folder"], "Finance", "{r}");
    assert_eq!(s[1]["folder"], "Travel", "{r}");
    assert_eq!(s[1]["decided_by"], "model", "{r}");
    assert_eq!(s[1]["rule"], "model:local", "{r}");
    // The clinic's mail: the uncleared provider is refused; no folder, and why.
    assert!(s[2]["folder"].is_null(), "{r}");
    assert!(
        s[2]["model_error"].as_str().unwrap_or("").contains("hipaa"),
        "{r}"
    );
    assert!(!r.to_string().contains("Lopez"), "{r}");
    let posts = fake.posts();
    assert_eq!(posts.len(), 1, "only the work mail went to the model");
    assert!(posts[0].body.contains("Your flight") && !posts[0].body.contains("Lopez"));
    // Nothing was queued: a suggestion moves nothing.
    let d = call(&server, "drafts_list", json!({})).await;
    assert_eq!(d["structuredContent"]["drafts"], json!([]), "{d}");
}
