//! The official Python and TypeScript MCP SDK clients against a real `opsdesk serve`.
//! Needs `.ci/deps/mcp.sh` (the tests fail, not skip, without it).

mod mcp_support;

use std::process::Command;
use std::time::Duration;

use mcp_support::{Server, ci_tool, interop_script, run_bounded};

fn python_client(mode: &str, client: &str) {
    let python = ci_tool("mcp-python");
    let server = Server::start(&[], None);
    let mut cmd = Command::new(python);
    // The script's `opsdesk inbox add` opens the server's data dir: the server's config home.
    cmd.env("XDG_CONFIG_HOME", server.config_home());
    cmd.arg(interop_script("py_client.py"))
        .args([&server.url, &server.token, mode, client, mcp_support::BIN])
        .arg(&server.data_dir);
    let (ok, out, err) = run_bounded(cmd, Duration::from_secs(120));
    assert!(
        ok,
        "python client ({mode}) failed:\nstdout: {out}\nstderr: {err}"
    );
    let seen: serde_json::Value =
        serde_json::from_str(out.lines().last().unwrap_or("")).expect("summary JSON");
    let draft_id = seen["draft_id"].as_str().expect("draft id");

    // The draft waits for the operator, as the operator's own CLI shows it.
    let list = server.cli(&["drafts", "list", "--json"]);
    let listing = String::from_utf8_lossy(&list.stdout);
    assert!(
        list.status.success() && listing.contains(draft_id),
        "draft {draft_id} not in `opsdesk drafts list`: {listing}"
    );
    assert!(
        listing.contains("pending"),
        "draft is not pending: {listing}"
    );
    seen_protocol(mode, &seen);
}

fn seen_protocol(mode: &str, seen: &serde_json::Value) {
    let proto = seen["protocol"].as_str().unwrap_or("");
    match mode {
        "legacy" => assert_eq!(proto, "2025-11-25"),
        _ => assert_eq!(
            proto, "2026-07-28",
            "auto mode should negotiate the stateless revision"
        ),
    }
}

#[test]
fn python_sdk_client_in_auto_mode_pulls_notifies_and_drafts() {
    python_client("auto", "py-auto");
}

#[test]
fn python_sdk_client_in_legacy_mode_pulls_notifies_and_drafts() {
    python_client("legacy", "py-legacy");
}
