//! Named MCP clients: `opsdesk mcp-config <client> --new-client NAME` mints a token and prints
//! what to do with it; a server configured that way names the client by its credential.

mod mcp_support;

use std::process::Command;
use std::time::Duration;

use mcp_support::{BIN, Server};
use serde_json::{Value, json};

#[test]
fn new_client_mints_a_token_and_prints_the_config_and_the_client_entry() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let out = Command::new(BIN)
        .arg("--data-dir")
        .arg(tmp.path().join("d"))
        .env("XDG_CONFIG_HOME", tmp.path().join("xdg"))
        .args([
            "mcp-config",
            "claude-code",
            "--new-client",
            "scribe-bot",
            "--url",
            "http://127.0.0.1:48080/mcp",
        ])
        .env_remove("OPSDESK_TOKEN")
        .output()
        .expect("run");
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let entry: Value = serde_json::from_str(&stdout).expect("client config JSON");
    assert_eq!(
        entry["mcpServers"]["opsdesk"]["headers"]["Authorization"],
        "Bearer ${OPSDESK_TOKEN_SCRIBE_BOT}"
    );
    let export = stderr
        .lines()
        .find_map(|l| l.trim().strip_prefix("export OPSDESK_TOKEN_SCRIBE_BOT="))
        .expect("export line");
    assert!(
        export.len() >= 32 && export.bytes().all(|b| b.is_ascii_hexdigit()),
        "{export}"
    );
    assert!(stderr.contains("[server.clients.scribe-bot]"), "{stderr}");
    assert!(
        stderr.contains("token_env = \"OPSDESK_TOKEN_SCRIBE_BOT\""),
        "{stderr}"
    );
    assert!(stderr.contains("hipaa_cleared = false"), "{stderr}");
    // The secret is never in the client's file content.
    assert!(!stdout.contains(export));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_credential_not_the_declared_name_names_the_client() {
    let token = "t".repeat(40);
    let server = Server::start_env(
        &[],
        Some("[server.clients.scribe]\ntoken_env = \"SCRIBE_TOKEN\"\n"),
        &[("SCRIBE_TOKEN", token.as_str())],
    );
    let call = |tok: String, declared: &'static str| {
        let url = server.url.clone();
        async move {
            let body = json!({"jsonrpc":"2.0","id":1,"method":"tools/call","params":{
                "name":"inbox_pull","arguments":{"limit":1},
                "_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",
                         "io.modelcontextprotocol/clientCapabilities":{},
                         "io.modelcontextprotocol/clientInfo":{"name":declared,"version":"1"}}}})
            .to_string();
            let resp = reqwest::Client::builder()
                .timeout(Duration::from_secs(30))
                .build()
                .expect("client")
                .post(url)
                .header("content-type", "application/json")
                .header("accept", "application/json, text/event-stream")
                .header("mcp-protocol-version", "2026-07-28")
                .header("mcp-method", "tools/call")
                .header("mcp-name", "inbox_pull")
                .header("authorization", format!("Bearer {tok}"))
                .body(body)
                .send()
                .await
                .expect("send");
            let text = resp.text().await.unwrap_or_default();
            serde_json::from_str::<Value>(&text)
                .ok()
                .or_else(|| {
                    text.lines()
                        .filter_map(|l| l.strip_prefix("data:"))
                        .filter_map(|d| serde_json::from_str::<Value>(d.trim()).ok())
                        .next_back()
                })
                .unwrap_or(Value::Null)
        }
    };
    // A named client calling itself "claude-code" is still `scribe`.
    let v = call(token.clone(), "claude-code").await;
    assert_eq!(
        v["result"]["structuredContent"]["consumer"], "mcp:scribe",
        "{v}"
    );
    // The shared default token keeps per-app cursors under its own name.
    let v = call(server.token.clone(), "scribe").await;
    assert_eq!(
        v["result"]["structuredContent"]["consumer"], "mcp:default/scribe",
        "{v}"
    );
}

#[test]
fn a_client_section_with_a_bad_variable_or_a_literal_token_is_refused_by_config_check() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let check = |toml: &str| {
        let p = tmp.path().join("config.toml");
        std::fs::write(&p, toml).expect("config");
        let o = Command::new(BIN)
            .arg("--data-dir")
            .arg(tmp.path().join("d"))
            .arg("--config")
            .arg(&p)
            .args(["config", "check"])
            .output()
            .expect("run");
        (
            o.status.success(),
            String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr),
        )
    };
    let (ok, out) = check("[server.clients.scribe]\ntoken_env = \"not a name\"\n");
    assert!(
        !ok && out.contains("server.clients.scribe.token_env"),
        "{out}"
    );
    let (ok, out) = check("[server.clients.scribe]\ntoken_env = \"OPSDESK_TOKEN\"\n");
    assert!(!ok && out.contains("default client"), "{out}");
    let (ok, out) = check("[server]\nstdio_client = \"ghost\"\n");
    assert!(!ok && out.contains("stdio_client"), "{out}");
    let (ok, out) = check(
        "[server.clients.scribe]\ntoken = \"0123456789abcdef0123456789abcdef\"\ntoken_env = \"X\"\n",
    );
    assert!(!ok, "a literal token in the config was accepted: {out}");
    let (ok, out) =
        check("[server.clients.scribe]\ntoken_env = \"SCRIBE_TOKEN\"\nhipaa_cleared = true\n");
    assert!(ok, "{out}");
}
