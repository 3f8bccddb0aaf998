//! `opsdesk serve --stdio` driven by rmcp's child-process client: bridged to an engine that
//! already holds the data dir (the client's own name reaches the engine, notifications come
//! through), and served by its own engine when none runs.
#![allow(deprecated)] // logging notifications are deprecated in 2026-07-28 but serve older clients

mod mcp_support;

use std::time::{Duration, Instant};

use mcp_support::Server;
use mcp_support::stdio::{Recorder, call_tool, spawn_stdio, wait_for};
use rmcp::model::*;
use serde_json::{Value, json};

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap()
}

fn subjects(r: &CallToolResult) -> Vec<String> {
    assert_ne!(r.is_error, Some(true), "tool error: {r:?}");
    r.structured_content.as_ref().expect("structured")["messages"]
        .as_array()
        .expect("messages")
        .iter()
        .filter_map(|m| {
            let fence = r.structured_content.as_ref()?["fence"].as_str()?;
            m["subject"]
                .as_str()
                .map(|s| mcp_support::inside(fence, s).unwrap_or(s).to_string())
        })
        .collect()
}

#[test]
fn stdio_bridges_to_the_running_engine_per_client() {
    let server = Server::start(&[], None);
    runtime().block_on(async {
        let me = Recorder {
            name: "claude-code".into(),
            ..Default::default()
        };
        let client = spawn_stdio(me.clone(), &server.data_dir, &[]).await;
        let info = client.peer_info().expect("initialize result");
        assert_eq!(
            info.server_info.as_ref().map(|s| s.name.as_str()),
            Some("opsdesk")
        );

        let tools = client.list_all_tools().await.expect("tools/list");
        let names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        assert!(
            names.contains(&"inbox_pull") && names.contains(&"draft_email"),
            "{names:?}"
        );

        // The engine sees the credential (the bridge relays with the engine's stdio bridge
        // token: a stdio connection is the stdio client, bridged or not) and, under it, this
        // app's own cursor, not the bridge's.
        let first = call_tool(&client, "inbox_pull", json!({"limit": 200})).await;
        let out = first.structured_content.clone().expect("structured");
        assert_eq!(out["consumer"], "mcp:stdio/claude-code", "{out}");

        client
            .set_level(SetLevelRequestParams::new(LoggingLevel::Debug))
            .await
            .expect("logging/setLevel");

        // A new message reaches the bridged client as a log ping and (it is Claude Code) as
        // a channel push, through the session's GET stream.
        let subject = format!("bridged {}", std::process::id());
        let add = server.cli(&[
            "inbox",
            "add",
            "--profile",
            "default",
            "--from",
            "Ada <ada@example.com>",
            "--subject",
            &subject,
            "--body",
            "hello over the bridge",
        ]);
        assert!(
            add.status.success(),
            "{}",
            String::from_utf8_lossy(&add.stderr)
        );
        let logs = me.logs.clone();
        let s2 = subject.clone();
        wait_for("the inbox log ping over the bridge", 30, || {
            logs.lock()
                .unwrap()
                .iter()
                .any(|d| d.to_string().contains(&s2))
        })
        .await;
        let channel = me.channel.clone();
        wait_for("the claude/channel push over the bridge", 30, || {
            channel.lock().unwrap().iter().any(|p| {
                p["meta"]["fence"].as_str().is_some_and(|f| {
                    p["content"].as_str()
                        == Some(mcp_support::fenced(f, "hello over the bridge").as_str())
                })
            })
        })
        .await;

        // Delivered as a turn by the channel: the next pull does not hand it over again
        // (the model would see every message twice), and the cursor moves past it.
        let pulled = call_tool(&client, "inbox_pull", json!({"limit": 20})).await;
        assert!(
            subjects(&pulled).is_empty(),
            "the pushed message came back in a pull: {:?}",
            subjects(&pulled)
        );
        // Only the consuming pull skips it: a re-read still shows it.
        let reread = call_tool(
            &client,
            "inbox_pull",
            json!({"limit": 200, "since": 0, "mark_consumed": false}),
        )
        .await;
        assert!(
            subjects(&reread).contains(&subject),
            "{:?}",
            subjects(&reread)
        );
        let again = call_tool(&client, "inbox_pull", json!({"limit": 20})).await;
        assert!(subjects(&again).is_empty());

        // Errors come back as JSON-RPC errors with their data, as over HTTP.
        let err = client
            .call_tool(CallToolRequestParams::new("no_such_tool"))
            .await
            .expect_err("unknown tool");
        assert!(err.to_string().contains("no_such_tool"), "{err}");

        client.cancel().await.expect("close");
    });
    // The engine that holds the lock is still there and still serves.
    let status = server.cli(&["inbox", "list", "--json"]);
    assert!(status.status.success());
}

#[test]
fn two_bridged_clients_keep_separate_cursors() {
    let server = Server::start(&[], None);
    runtime().block_on(async {
        let a = spawn_stdio(
            Recorder {
                name: "bridge-a".into(),
                ..Default::default()
            },
            &server.data_dir,
            &[],
        )
        .await;
        let b = spawn_stdio(
            Recorder {
                name: "bridge-b".into(),
                ..Default::default()
            },
            &server.data_dir,
            &[],
        )
        .await;
        let add = server.cli(&[
            "inbox",
            "add",
            "--profile",
            "default",
            "--from",
            "x@example.com",
            "--subject",
            "for both",
            "--body",
            "b",
        ]);
        assert!(add.status.success());
        let ra = call_tool(&a, "inbox_pull", json!({"limit": 50})).await;
        assert!(subjects(&ra).contains(&"for both".to_string()));
        let ra2 = call_tool(&a, "inbox_pull", json!({"limit": 50})).await;
        assert!(subjects(&ra2).is_empty());
        let rb = call_tool(&b, "inbox_pull", json!({"limit": 50})).await;
        assert!(
            subjects(&rb).contains(&"for both".to_string()),
            "b's cursor moved with a's"
        );
        a.cancel().await.unwrap();
        b.cancel().await.unwrap();
    });
}

#[test]
fn stdio_without_a_running_engine_serves_its_own() {
    let tmp = tempfile::tempdir().unwrap();
    let data_dir = tmp.path().join("data");
    runtime().block_on(async {
        let client = spawn_stdio(
            Recorder {
                name: "solo".into(),
                ..Default::default()
            },
            &data_dir,
            &["--bind", "127.0.0.1:0"],
        )
        .await;
        let tools = client.list_all_tools().await.expect("tools/list");
        assert!(tools.iter().any(|t| t.name == "inbox_pull"));
        let r = call_tool(&client, "inbox_pull", json!({"limit": 5})).await;
        let out = r.structured_content.expect("structured");
        // A stdio connection is the uncleared `stdio` client; its app keeps its own cursor.
        assert_eq!(out["consumer"], "mcp:stdio/solo");
        assert_eq!(out["messages"], json!([]));
        // It is the engine now: it published its HTTP endpoint for later stdio clients.
        let info: Value =
            serde_json::from_slice(&std::fs::read(data_dir.join("engine.json")).unwrap()).unwrap();
        assert!(
            info["mcp_url"]
                .as_str()
                .unwrap()
                .starts_with("http://127.0.0.1:")
        );
        client.cancel().await.expect("close");
    });
    // Closing stdin stops the spawned engine, which removes engine.json on the way out.
    let deadline = Instant::now() + Duration::from_secs(30);
    while data_dir.join("engine.json").exists() {
        assert!(
            Instant::now() < deadline,
            "the stdio engine did not stop after its client left"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}
