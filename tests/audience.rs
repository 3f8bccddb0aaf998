//! Audience checks on what leaves (Ted §8.1): a draft to someone outside the profile's domains
//! that carries an internal label or quotes an internal thread is refused when it is made,
//! with rule, reason and remedy, through the real MCP surface; colleagues may get both.

mod mcp_support;

use mcp_support::{Server, rpc};
use serde_json::{Value, json};

const THREAD: &str = "Between us: the margin floor for the renewal is 12 percent and we will not go below it under any circumstances.";

async fn draft(server: &Server, to: &str, body: &str) -> Value {
    let r = rpc(
        server,
        "claude-code",
        "tools/call",
        json!({"name": "draft_email", "arguments": {
            "profile": "work", "to": [to], "subject": "Renewal", "body": body}}),
    )
    .await;
    r["result"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn internal_labels_and_threads_stay_inside_the_profiles_domains() {
    let config = r#"
[profiles.work]
sources = ["spool"]
email_domains = ["contoso.com"]
[profiles.work.audience]
internal_only = ["Project Falcon"]
"#;
    let server = tokio::task::spawn_blocking(move || Server::start(&[], Some(config)))
        .await
        .unwrap();
    let o = server.cli(&[
        "inbox",
        "add",
        "--profile",
        "work",
        "--from",
        "Ann Lee <ann@contoso.com>",
        "--subject",
        "Renewal floor",
        "--body",
        THREAD,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    let label = draft(
        &server,
        "cfo@fabrikam.example",
        "Project Falcon starts Monday.",
    )
    .await;
    assert_eq!(label["isError"], true, "{label}");
    assert_eq!(
        label["structuredContent"]["rule"], "audience.internal_only",
        "{label}"
    );
    assert!(
        label["structuredContent"]["remedy"]
            .as_str()
            .unwrap_or("")
            .contains("contoso.com"),
        "{label}"
    );

    let quote = format!("Hello,\n\n> {THREAD}\n\nBest");
    let quoted = draft(&server, "buyer@fabrikam.example", &quote).await;
    assert_eq!(
        quoted["structuredContent"]["rule"], "audience.internal_thread",
        "{quoted}"
    );

    // Colleagues may be told both: the drafts are queued.
    for body in ["Project Falcon starts Monday.", quote.as_str()] {
        let ok = draft(&server, "bob@contoso.com", body).await;
        assert_eq!(
            ok["structuredContent"]["status"], "pending_approval",
            "{ok}"
        );
    }
}

/// `R` on a chat message in the console (here `draft_reply`, the same action): the reply
/// quotes the message back into the chat it came from, which tells its members nothing new.
/// The same quote posted into another chat is still refused.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chat_reply_may_quote_its_own_chat_but_not_into_another() {
    let config = r#"
[profiles.work]
sources = ["spool"]
email_domains = ["contoso.com"]
"#;
    let server = tokio::task::spawn_blocking(move || Server::start(&[], Some(config)))
        .await
        .unwrap();
    let team = "19:platform-team-7f3a@thread.v2";
    let o = server.cli(&[
        "inbox",
        "add",
        "--profile",
        "work",
        "--channel",
        "teams",
        "--thread",
        team,
        "--id",
        "chat-msg-1",
        "--from",
        "Sam Rivera <sam.rivera@contoso.com>",
        "--body",
        THREAD,
    ]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let quote = format!("Agreed.\n\nOn Monday, Sam Rivera wrote:\n> {THREAD}");

    let reply = rpc(
        &server,
        "claude-code",
        "tools/call",
        json!({"name": "draft_reply", "arguments": {"message_id": "chat-msg-1", "body": quote}}),
    )
    .await["result"]
        .clone();
    assert_eq!(
        reply["structuredContent"]["status"], "pending_approval",
        "{reply}"
    );

    let elsewhere = rpc(
        &server,
        "claude-code",
        "tools/call",
        json!({"name": "chat_reply_draft", "arguments": {
            "profile": "work", "chat_id": "19:fabrikam-renewal-guest-91c0@thread.v2", "body": quote}}),
    )
    .await["result"]
        .clone();
    assert_eq!(
        elsewhere["structuredContent"]["rule"], "audience.internal_thread",
        "{elsewhere}"
    );
}
