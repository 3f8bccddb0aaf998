//! The official TypeScript MCP SDK client (`@modelcontextprotocol/sdk`) against a real
//! `opsdesk serve`. Needs `.ci/deps/mcp.sh` (the tests fail, not skip, without it).

mod mcp_support;

use std::process::Command;
use std::time::Duration;

use mcp_support::{Server, ci_tool, interop_script, npm_dir, run_bounded};

/// Run `ts_client.mjs <scenario>` against `server`; returns its summary line.
fn ts_client(server: &Server, scenario: &str, client: &str) -> serde_json::Value {
    let node = ci_tool("node22");
    let npm = npm_dir();
    assert!(
        npm.join("node_modules/@modelcontextprotocol/sdk/package.json")
            .exists(),
        "the TypeScript SDK is missing under {}: run .ci/deps/mcp.sh",
        npm.display()
    );
    let mut cmd = Command::new(node);
    // The script's `opsdesk inbox add` opens the server's data dir: the server's config home.
    cmd.env("XDG_CONFIG_HOME", server.config_home());
    cmd.arg(interop_script("ts_client.mjs"))
        .args([
            scenario,
            &server.url,
            &server.token,
            client,
            mcp_support::BIN,
        ])
        .arg(&server.data_dir)
        .env("OPSDESK_NPM_DIR", &npm)
        .env_remove("OPSDESK_TOKEN");
    let (ok, out, err) = run_bounded(cmd, Duration::from_secs(120));
    assert!(
        ok,
        "TypeScript client ({scenario}) failed:\nstdout: {out}\nstderr: {err}"
    );
    serde_json::from_str(out.lines().last().unwrap_or("")).expect("summary JSON")
}

#[test]
fn typescript_sdk_client_lists_pulls_notifies_and_drafts() {
    let server = Server::start(&[], None);
    let seen = ts_client(&server, "basic", "ts-basic");
    assert_eq!(seen["protocol"], "2025-11-25");
    let draft_id = seen["draft_id"].as_str().expect("draft id");

    // The draft waits for the operator, as the operator's own CLI shows it.
    let list = server.cli(&["drafts", "list", "--json"]);
    let listing = String::from_utf8_lossy(&list.stdout);
    assert!(
        list.status.success() && listing.contains(draft_id),
        "draft {draft_id} not in `opsdesk drafts list`: {listing}"
    );
    let drafts: serde_json::Value = serde_json::from_str(&listing).expect("drafts JSON");
    let mine = drafts
        .as_array()
        .or_else(|| drafts["drafts"].as_array())
        .and_then(|a| {
            a.iter()
                .find(|d| d["id"].as_str() == Some(draft_id))
                .cloned()
        })
        .unwrap_or_else(|| panic!("draft {draft_id} not found in {listing}"));
    assert!(
        mine.to_string().contains("pending"),
        "draft is not pending: {mine}"
    );
}

#[test]
fn typescript_sdk_claude_code_client_gets_the_channel_push_and_others_do_not() {
    let server = Server::start(&[], None);
    let seen = ts_client(&server, "channel", "copilot");
    println!("{seen}");
    let push = &seen["push"];
    assert!(push["content"].as_str().is_some_and(|c| c.contains("Hi")));
    assert!(seen["other_pings"].as_u64().unwrap_or(0) >= 1);
}
