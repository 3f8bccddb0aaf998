//! Per-operation limits (Debrief §4.1–4.2): expensive calls have their own, lower rate per
//! credential (`[server.operation_limits]`), on top of the request rate; cheap calls are not
//! held back by them, and a refusal is audited and says when to retry.

mod mcp_support;

use mcp_support::{Server, rpc};
use serde_json::json;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_expensive_call_over_its_limit_is_refused_and_cheap_calls_go_on() {
    let config = "[server.operation_limits]\npolish = { per_minute = 1, burst = 1 }\n";
    let server = tokio::task::spawn_blocking(move || Server::start(&[], Some(config)))
        .await
        .unwrap();
    let brief = |polish: bool| json!({"name": "morning_brief", "arguments": {"profile": "default", "polish": polish}});
    // The first polished brief uses the one token (whatever the model says of it).
    let first = rpc(&server, "claude-code", "tools/call", brief(true)).await;
    assert_ne!(first["error"]["code"], -32005, "{first}");
    let second = rpc(&server, "claude-code", "tools/call", brief(true)).await;
    assert_eq!(second["error"]["code"], -32005, "{second}");
    assert_eq!(
        second["error"]["data"]["limit"], "server.operation_limits.polish",
        "{second}"
    );
    assert!(
        second["error"]["data"]["retry_after_secs"]
            .as_u64()
            .unwrap()
            >= 1
    );
    // The plain brief is not an expensive call.
    let plain = rpc(&server, "claude-code", "tools/call", brief(false)).await;
    assert!(plain["error"].is_null(), "{plain}");
    // The refusal is on the trail.
    let out = server.cli(&["--json", "audit", "tail", "-n", "50"]);
    let trail = String::from_utf8_lossy(&out.stdout);
    assert!(
        trail
            .lines()
            .any(|l| l.contains("\"mcp.rate_limited\"") && l.contains("morning_brief")),
        "{trail}"
    );
}

#[test]
fn a_zero_limit_is_a_config_error() {
    let dir = tempfile::tempdir().unwrap();
    let cfg = dir.path().join("config.toml");
    std::fs::write(
        &cfg,
        "[server.operation_limits]\nmodel_jobs = { per_minute = 0, burst = 1 }\n",
    )
    .unwrap();
    let o = std::process::Command::new(mcp_support::BIN)
        .arg("--config")
        .arg(&cfg)
        .arg("--data-dir")
        .arg(dir.path().join("data"))
        .args(["config", "check"])
        .output()
        .unwrap();
    assert!(!o.status.success());
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        text.contains("server.operation_limits.model_jobs.per_minute"),
        "{text}"
    );
}
