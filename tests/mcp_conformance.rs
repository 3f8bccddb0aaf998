//! The official MCP conformance suite (`@modelcontextprotocol/conformance`, on Node 22) against
//! opsdesk's MCP server (engine, hub, HTTP guard) with the suite's fixtures registered, for
//! each protocol revision's frozen required set. Needs `.ci/deps/mcp.sh` (the test fails, not
//! skips, without it).
//!
//! The suite cannot send a bearer token and calls fixtures of its own (`test_*` tools,
//! `test://` resources, prompts). Those live behind the test-only `conformance` feature (on for
//! the integration tests only), and the server runs inside this test process: the `opsdesk`
//! binary has no switch that serves without the token, which the last test checks.

mod mcp_support;

use std::path::Path;
use std::process::Command;
use std::time::Duration;

use mcp_support::{ci_tool, npm_dir, run_bounded};

struct Server {
    url: String,
}

fn conformance(server: &Server, revision: &str) {
    let node = ci_tool("node22");
    let npm = npm_dir();
    let out_dir = tempfile::tempdir().expect("temp dir");
    let mut cmd = Command::new(node);
    cmd.current_dir(&npm)
        .arg(npm.join("node_modules/@modelcontextprotocol/conformance/dist/index.js"))
        .args([
            "server",
            "--url",
            &server.url,
            "--requirements",
            revision,
            "-o",
        ])
        .arg(out_dir.path());
    let (ok, out, err) = run_bounded(cmd, Duration::from_secs(300));
    let summary = out.split("=== SUMMARY ===").nth(1).unwrap_or(&out);
    let total = summary
        .lines()
        .find(|l| l.starts_with("Total:"))
        .unwrap_or("no total");
    let not_passing = not_passing_checks(out_dir.path());
    // Visible with --nocapture: the counts, and every check that did not pass (including the
    // ones of scenarios the revision does not score, which never fail the run).
    println!("conformance --requirements {revision}: {total}");
    for line in &not_passing {
        println!("  {line}");
    }
    assert!(
        ok,
        "conformance --requirements {revision} failed:\n{summary}\nchecks that did not pass:\n{}\nstderr: {err}",
        not_passing.join("\n")
    );
    assert!(
        out.contains("Total:"),
        "no conformance summary for {revision}:\n{out}\n{err}"
    );
}

/// `scenario: check-id STATUS: message` for every check in `<out>/*/checks.json` that is
/// neither SUCCESS nor INFO, sorted by scenario.
fn not_passing_checks(out_dir: &Path) -> Vec<String> {
    let mut lines = Vec::new();
    let Ok(entries) = std::fs::read_dir(out_dir) else {
        return lines;
    };
    for entry in entries.flatten() {
        // Result directories are `server-<scenario>-<timestamp>`.
        let dir = entry.file_name().to_string_lossy().into_owned();
        let scenario = scenario_name(&dir).to_string();
        let Ok(text) = std::fs::read_to_string(entry.path().join("checks.json")) else {
            continue;
        };
        let Ok(serde_json::Value::Array(checks)) = serde_json::from_str(&text) else {
            lines.push(format!("{scenario}: unreadable checks.json"));
            continue;
        };
        for check in checks {
            let status = check["status"].as_str().unwrap_or("?");
            if matches!(status, "SUCCESS" | "INFO") {
                continue;
            }
            let message: String = check["errorMessage"]
                .as_str()
                .unwrap_or("")
                .chars()
                .take(300)
                .collect();
            lines.push(format!(
                "{scenario}: {} {status}: {message}",
                check["id"].as_str().unwrap_or("?")
            ));
        }
    }
    lines.sort();
    lines
}

/// `tools-list` from `server-tools-list-2026-11-22T04-26-57-089Z`: the part before the
/// `-YYYY-MM-DDT` that starts the timestamp.
fn scenario_name(dir: &str) -> &str {
    let name = dir.strip_prefix("server-").unwrap_or(dir);
    let b = name.as_bytes();
    let is_stamp = |i: usize| {
        b.len() > i + 11
            && b[i] == b'-'
            && b[i + 1..i + 5].iter().all(u8::is_ascii_digit)
            && b[i + 5] == b'-'
            && b[i + 8] == b'-'
            && b[i + 11] == b'T'
    };
    (0..b.len())
        .find(|&i| is_stamp(i))
        .map_or(name, |i| &name[..i])
}

#[test]
fn conformance_suite_passes_every_required_scenario_of_both_revisions() {
    let data = tempfile::tempdir().expect("temp dir");
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let suite = rt
        .block_on(opsdesk::mcp::fixtures::serve_for_suite(
            data.path().to_path_buf(),
        ))
        .expect("conformance server starts");
    let server = Server {
        url: suite.url.clone(),
    };
    // The suite runs as a child process; the server keeps serving on the runtime's workers.
    conformance(&server, "2025-11-25");
    conformance(&server, "2026-07-28");
    rt.block_on(suite.stop());
}

#[test]
fn the_release_binary_has_no_switch_that_turns_the_token_off() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let out = Command::new(mcp_support::BIN)
        .arg("--data-dir")
        .arg(tmp.path().join("d"))
        .env("XDG_CONFIG_HOME", tmp.path().join("xdg"))
        .args(["serve", "--bind", "127.0.0.1:0", "--conformance-fixtures"])
        .output()
        .expect("run opsdesk");
    assert_eq!(out.status.code(), Some(2), "a usage error, not a server");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("unexpected argument '--conformance-fixtures'"),
        "{err}"
    );
}
