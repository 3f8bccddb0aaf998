//! End to end through the real binary: `opsdesk serve` polls a fake Graph mailbox (loopback),
//! the message lands in the inbox exactly once (re-polls do not duplicate it), an MCP client
//! drafts a reply with `draft_reply`, the operator approves it with `opsdesk drafts approve`
//! (another process), and the fake Graph receives exactly one send with the approved text.

mod graph_support;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use graph_support::{CLIENT_ID, Fake};
use opsdesk::sources::graph::auth::{TokenFile, TokenStore};
use rmcp::ServiceExt;
use rmcp::model::CallToolRequestParams;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use serde_json::{Value, json};

const BIN: &str = env!("CARGO_BIN_EXE_opsdesk");

struct Serve {
    child: Child,
}

impl Drop for Serve {
    fn drop(&mut self) {
        // SAFETY: signalling our own child process.
        unsafe {
            libc::kill(self.child.id() as i32, libc::SIGTERM);
        }
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn wait_for(what: &str, limit: Duration, mut cond: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !cond() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn cli(data: &Path, config: &Path, args: &[&str]) -> std::process::Output {
    Command::new(BIN)
        .arg("--data-dir")
        .arg(data)
        .arg("--config")
        .arg(config)
        .args(args)
        .env_remove("OPSDESK_TOKEN")
        .output()
        .expect("run opsdesk")
}

fn files_under(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).into_iter().flatten().flatten() {
        let p = e.path();
        if p.is_dir() {
            out.extend(files_under(&p));
        } else {
            out.push(p);
        }
    }
    out
}

/// Every inbox record with `id` (read from the files, as any reader may).
fn records_with_id(data: &Path, id: &str) -> Vec<Value> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(data.join("inbox"))
        .into_iter()
        .flatten()
        .flatten()
    {
        if e.path().extension().is_some_and(|x| x == "jsonl") {
            for line in std::fs::read_to_string(e.path())
                .unwrap_or_default()
                .lines()
            {
                if let Ok(v) = serde_json::from_str::<Value>(line)
                    && v["id"] == id
                {
                    out.push(v);
                }
            }
        }
    }
    out
}

#[test]
fn a_graph_mail_is_ingested_once_replied_through_mcp_approved_by_cli_and_sent_once() {
    let fake = Fake::start_in_thread();
    let tmp = tempfile::tempdir().unwrap();
    let data: PathBuf = tmp.path().join("data");
    let config = tmp.path().join("config.toml");
    std::fs::write(
        &config,
        format!(
            r#"
[profiles.work]
sources = ["graph_mail"]
email_domains = ["contoso.com"]
[profiles.work.graph]
client_id = "{CLIENT_ID}"
time_zone = "UTC"
mail_interval_secs = 1
authority_url = "{}"
base_url = "{}"
"#,
            fake.authority(),
            fake.graph_base()
        ),
    )
    .unwrap();
    // A signed-in profile, as `opsdesk login work` leaves it.
    let rt = fake.with(|s| s.issue_refresh_token());
    TokenStore::new(data.join("tokens"))
        .save(
            "work",
            &TokenFile {
                refresh_token: rt,
                tenant: "organizations".into(),
                client_id: CLIENT_ID.into(),
                scopes: vec![
                    "offline_access".into(),
                    "Mail.ReadWrite".into(),
                    "Mail.Send".into(),
                ],
                saved_at: time::OffsetDateTime::now_utc(),
            },
        )
        .unwrap();
    let mail_id = fake.with(|s| {
        s.add_mail(
            "Quarterly numbers",
            "ann@fabrikam.com",
            "<p>Can you confirm the <b>Q3</b> numbers?</p>",
        )
    });

    let child = Command::new(BIN)
        .arg("--data-dir")
        .arg(&data)
        .arg("--config")
        .arg(&config)
        .args(["serve", "--bind", "127.0.0.1:0"])
        .env_remove("OPSDESK_TOKEN")
        .env("OPSDESK_LOG", "warn")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn opsdesk serve");
    let _serve = Serve { child };
    let mut url = String::new();
    wait_for("engine.json", Duration::from_secs(60), || {
        std::fs::read(data.join("engine.json"))
            .ok()
            .and_then(|b| serde_json::from_slice::<Value>(&b).ok())
            .and_then(|v| v["mcp_url"].as_str().map(str::to_string))
            .map(|u| url = u)
            .is_some()
    });
    let token = std::fs::read_to_string(data.join("mcp-token"))
        .unwrap()
        .trim()
        .to_string();

    // In the inbox exactly once, also after further polls of the delta link.
    wait_for("the mail in the inbox", Duration::from_secs(30), || {
        !records_with_id(&data, &mail_id).is_empty()
    });
    let polls = fake.with(|s| s.count("GET", "/delta"));
    wait_for("two more polls", Duration::from_secs(30), || {
        fake.with(|s| s.count("GET", "/delta")) >= polls + 2
    });
    let recs = records_with_id(&data, &mail_id);
    assert_eq!(recs.len(), 1, "one record: {recs:?}");
    assert_eq!(recs[0]["profile"], "work");
    assert_eq!(recs[0]["channel"], "email");
    assert_eq!(
        recs[0]["text"].as_str().unwrap().trim(),
        "Can you confirm the Q3 numbers?"
    );

    // An MCP client drafts the reply.
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .unwrap();
    let draft_id = rt.block_on(async {
        let transport = StreamableHttpClientTransport::from_config(
            StreamableHttpClientTransportConfig::with_uri(url.clone()).auth_header(token.clone()),
        );
        let client = tokio::time::timeout(Duration::from_secs(60), ().serve(transport))
            .await
            .expect("MCP handshake in time")
            .expect("MCP handshake");
        let args = json!({"message_id": mail_id, "body": "Confirmed: the Q3 numbers are final."});
        let r = tokio::time::timeout(
            Duration::from_secs(60),
            client.call_tool(
                CallToolRequestParams::new("draft_reply")
                    .with_arguments(args.as_object().cloned().unwrap()),
            ),
        )
        .await
        .expect("tool call in time")
        .expect("tool call");
        assert_ne!(r.is_error, Some(true), "{r:?}");
        let out = r.structured_content.expect("structured content");
        assert_eq!(out["status"], "pending_approval", "{out}");
        let _ = client.cancel().await;
        out["draft_id"].as_str().unwrap().to_string()
    });

    // Nothing goes out before the operator approves.
    std::thread::sleep(Duration::from_millis(1500));
    assert_eq!(
        fake.with(|s| s.sent.len()),
        0,
        "nothing sent before approval"
    );

    let out = cli(&data, &config, &["drafts", "approve", &draft_id, "--yes"]);
    assert!(
        out.status.success(),
        "approve: {}",
        String::from_utf8_lossy(&out.stderr)
    );

    wait_for("the send", Duration::from_secs(30), || {
        fake.with(|s| !s.sent.is_empty())
    });
    wait_for("executed recorded", Duration::from_secs(30), || {
        let out = cli(&data, &config, &["--json", "drafts", "show", &draft_id]);
        String::from_utf8_lossy(&out.stdout).contains("\"executed\"")
    });
    // A few more executor passes: still exactly one send.
    std::thread::sleep(Duration::from_millis(2500));
    fake.with(|s| {
        assert_eq!(s.sent.len(), 1, "exactly one send");
        assert_eq!(s.sent[0].body, "Confirmed: the Q3 numbers are final.");
        assert_eq!(s.sent[0].to, vec!["ann@fabrikam.com".to_string()]);
        assert_eq!(s.sent[0].reply_to.as_deref(), Some(mail_id.as_str()));
        assert_eq!(s.count("POST", "/send"), 1);
    });

    // No access token anywhere on disk (inbox, audit, drafts, state, token file).
    let tokens: Vec<String> = fake.with(|s| s.access.keys().cloned().collect());
    assert!(!tokens.is_empty());
    for file in files_under(&data) {
        let bytes = std::fs::read(&file).unwrap_or_default();
        let text = String::from_utf8_lossy(&bytes);
        for t in &tokens {
            assert!(
                !text.contains(t.as_str()),
                "access token in {}",
                file.display()
            );
        }
    }

    // doctor sees the signed-in profile and the healthy source.
    let out = cli(&data, &config, &["--json", "doctor"]);
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let checks = report["checks"].as_array().unwrap();
    let find = |name: &str| checks.iter().find(|c| c["check"] == name).cloned().unwrap();
    assert_eq!(find("login work")["ok"], true, "{report}");
    assert_eq!(find("source graph_mail:work")["ok"], true, "{report}");
}

#[test]
fn a_running_engine_without_a_sign_in_reports_it_and_doctor_names_the_fix() {
    let fake = Fake::start_in_thread();
    let tmp = tempfile::tempdir().unwrap();
    let data: PathBuf = tmp.path().join("data");
    let config = tmp.path().join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[profiles.work]\nsources = [\"graph_mail\"]\n[profiles.work.graph]\nclient_id = \"{CLIENT_ID}\"\nmail_interval_secs = 1\nauthority_url = \"{}\"\nbase_url = \"{}\"\n",
            fake.authority(),
            fake.graph_base()
        ),
    )
    .unwrap();
    let child = Command::new(BIN)
        .arg("--data-dir")
        .arg(&data)
        .arg("--config")
        .arg(&config)
        .args(["serve", "--bind", "127.0.0.1:0"])
        .env_remove("OPSDESK_TOKEN")
        .env("OPSDESK_LOG", "error")
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("spawn opsdesk serve");
    let _serve = Serve { child };
    let health = data.join("graph/work/health-graph_mail.json");
    wait_for("the health report", Duration::from_secs(30), || {
        health.exists()
    });
    let out = cli(&data, &config, &["--json", "doctor"]);
    assert_eq!(out.status.code(), Some(1));
    let report: Value = serde_json::from_slice(&out.stdout).unwrap();
    let src = report["checks"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["check"] == "source graph_mail:work")
        .cloned()
        .unwrap();
    assert_eq!(src["ok"], false, "{report}");
    assert_eq!(src["fix"], "opsdesk login work", "{report}");
    assert!(
        src["detail"].as_str().unwrap().contains("not signed in"),
        "{report}"
    );
    // Nothing was asked of Graph without a token.
    assert_eq!(fake.with(|s| s.requests.len()), 0);
}
