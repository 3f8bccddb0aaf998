//! An rmcp client of `opsdesk serve --stdio` that records the notifications it gets (log
//! messages and `claude/channel` pushes), for the tests that drive the stdio bridge.
#![allow(deprecated)] // logging notifications are deprecated in 2026-07-28 but serve older clients

use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rmcp::model::*;
use rmcp::service::{NotificationContext, RunningService};
use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::Value;

use super::BIN;

/// The client: its `clientInfo.name`, and what the server pushed to it.
#[derive(Clone, Default)]
pub struct Recorder {
    pub name: String,
    pub logs: Arc<Mutex<Vec<Value>>>,
    pub channel: Arc<Mutex<Vec<Value>>>,
}

impl Recorder {
    pub fn named(name: &str) -> Recorder {
        Recorder {
            name: name.into(),
            ..Recorder::default()
        }
    }
}

impl ClientHandler for Recorder {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new(self.name.clone(), "0.0.1"),
        )
    }
    async fn on_logging_message(
        &self,
        p: LoggingMessageNotificationParam,
        _c: NotificationContext<RoleClient>,
    ) {
        self.logs.lock().unwrap().push(p.data);
    }
    async fn on_custom_notification(
        &self,
        n: CustomNotification,
        _c: NotificationContext<RoleClient>,
    ) {
        if n.method == "notifications/claude/channel" {
            self.channel
                .lock()
                .unwrap()
                .push(n.params.unwrap_or(Value::Null));
        }
    }
}

/// `opsdesk --data-dir <dir> serve --stdio <extra>` as an MCP child process.
pub async fn spawn_stdio(
    client: Recorder,
    data_dir: &std::path::Path,
    extra: &[&str],
) -> RunningService<RoleClient, Recorder> {
    let cmd = tokio::process::Command::new(BIN).configure(|c| {
        c.arg("--data-dir")
            .arg(data_dir)
            // The server's config dir (`Server` puts it beside the data dir).
            .env("XDG_CONFIG_HOME", data_dir.with_file_name("xdg"))
            .args(["serve", "--stdio"])
            .args(extra)
            .env_remove("OPSDESK_TOKEN")
            .env("OPSDESK_LOG", "warn");
    });
    let (transport, _stderr) = TokioChildProcess::builder(cmd)
        .stderr(Stdio::inherit())
        .spawn()
        .expect("spawn opsdesk serve --stdio");
    tokio::time::timeout(Duration::from_secs(60), client.serve(transport))
        .await
        .expect("stdio handshake within 60 s")
        .expect("stdio handshake")
}

/// `tools/call` within 60 s.
pub async fn call_tool(
    client: &RunningService<RoleClient, Recorder>,
    tool: &str,
    args: Value,
) -> CallToolResult {
    let params = CallToolRequestParams::new(tool.to_string())
        .with_arguments(args.as_object().cloned().unwrap_or_default());
    tokio::time::timeout(Duration::from_secs(60), client.call_tool(params))
        .await
        .expect("tool call within 60 s")
        .expect("tool call")
}

/// Wait (up to `secs`) until `cond` holds.
pub async fn wait_for(what: &str, secs: u64, mut cond: impl FnMut() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(secs);
    while !cond() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}
