//! Tool scopes (`mcp::scope`): read-only mode, toolsets and tool patterns, server-wide and per
//! named client, as real clients see them over HTTP — the official Python SDK for lists,
//! calls, refusals and resources — and the configuration and CLI surfaces around them.

mod mcp_support;

use std::process::Command;
use std::time::Duration;

use mcp_support::{BIN, Server, ci_tool, interop_script, run_bounded};
use opsdesk::mcp::scope::Toolset;
use opsdesk::mcp::tools::{TOOLS, Tier};
use serde_json::{Value, json};

/// The tools of the table that satisfy `keep`, by name: expectations come from the one table,
/// so a tool added there is expected where its tier and toolset put it.
fn tools_where(keep: impl Fn(&opsdesk::mcp::tools::ToolDef) -> bool) -> Vec<&'static str> {
    TOOLS.iter().filter(|t| keep(t)).map(|t| t.name).collect()
}

const ALL_RESOURCES: [&str; 10] = [
    "opsdesk://inbox",
    "opsdesk://drafts",
    "opsdesk://audit/recent",
    "opsdesk://config/profiles",
    "opsdesk://config/autonomy_ladder",
    "opsdesk://config/hard_bans",
    "opsdesk://config/llm_providers",
    "opsdesk://config/operator_profile",
    "opsdesk://config/draft_style",
    "opsdesk://config/brief_config",
];

/// Run `tests/interop/py_scopes.py` as the client holding `token`; its summary.
fn python(server: &Server, token: &str, mode: &str, expect: Value) -> Value {
    let mut cmd = Command::new(ci_tool("mcp-python"));
    cmd.arg(interop_script("py_scopes.py"))
        .args([&server.url, token, mode])
        .arg(expect.to_string());
    let (ok, out, err) = run_bounded(cmd, Duration::from_secs(120));
    assert!(
        ok,
        "python scope client ({mode}) failed:\nstdout: {out}\nstderr: {err}"
    );
    serde_json::from_str(out.lines().last().unwrap_or("")).expect("summary JSON")
}

/// The audit trail's records, as `opsdesk audit tail --json` prints them.
fn audit(server: &Server) -> Vec<Value> {
    let o = server.cli(&["--json", "audit", "tail", "-n", "200"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout)
        .lines()
        .filter_map(|l| serde_json::from_str(l).ok())
        .collect()
}

fn draft_email_args() -> Value {
    json!({"to": ["bob@example.com"], "subject": "Scoped", "body": "Should this be queued?"})
}

#[test]
fn python_sdk_read_only_server_lists_only_read_tools_and_refuses_a_draft_with_how_to_leave() {
    let server = Server::start(&["--read-only"], None);
    let read_tools = tools_where(|t| t.tier == Tier::ReadOnly);
    assert!(read_tools.len() < TOOLS.len() && !read_tools.is_empty());
    for mode in ["legacy", "auto"] {
        let seen = python(
            &server,
            &server.token,
            mode,
            json!({
                "tools": read_tools,
                "resources": ALL_RESOURCES,
                "allowed": {"tool": "inbox_pull", "args": {"limit": 1}},
                "refused": {"tool": "draft_email", "args": draft_email_args(),
                            "contains": ["read-only mode", "opsdesk serve --read-only", "drops --read-only from `opsdesk serve`"],
                            "rule": "read_only", "scope": "server"},
            }),
        );
        assert_eq!(seen["refusal"]["code"], -32602, "{seen}");
    }
    // Nothing was queued, and each refusal is in the audit trail with the scope that refused.
    let o = server.cli(&["--json", "drafts", "list", "--all"]);
    let drafts = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(!drafts.contains("Scoped"), "{drafts}");
    let refusals: Vec<Value> = audit(&server)
        .into_iter()
        .filter(|r| r["event"] == "mcp.scope_refused")
        .collect();
    assert_eq!(refusals.len(), 2, "{refusals:?}");
    for r in &refusals {
        assert_eq!(r["outcome"], "denied", "{r}");
        assert_eq!(r["tool"], "draft_email", "{r}");
        let reason = r["reason"].as_str().unwrap_or("");
        assert!(
            reason.starts_with("scope server read_only (opsdesk serve --read-only)"),
            "{reason}"
        );
    }
}

#[test]
fn two_named_clients_on_one_server_see_and_may_call_different_tools() {
    let dash_token = "d".repeat(40);
    let agent_token = "a".repeat(40);
    let server = Server::start_env(
        &[],
        Some(
            r#"
[server.clients.dash]
token_env = "DASH_TOKEN"
read_only = true
toolsets = ["inbox", "briefs"]

[server.clients.agent]
token_env = "AGENT_TOKEN"
toolsets = ["inbox", "drafts"]
tools = ["inbox_pull", "draft_*"]
"#,
        ),
        &[
            ("DASH_TOKEN", dash_token.as_str()),
            ("AGENT_TOKEN", agent_token.as_str()),
        ],
    );
    // The dashboard: read tools of its two toolsets, the inbox resource only.
    let dash_tools = tools_where(|t| {
        t.tier == Tier::ReadOnly && matches!(t.toolset, Toolset::Inbox | Toolset::Briefs)
    });
    let seen = python(
        &server,
        &dash_token,
        "legacy",
        json!({
            "tools": dash_tools,
            "resources": ["opsdesk://inbox", "opsdesk://config/brief_config"],
            "allowed": {"tool": "morning_brief", "args": {}},
            "refused": {"tool": "draft_email", "args": draft_email_args(),
                        "contains": ["client `dash` is in read-only mode", "read_only = false", "[server.clients.dash]"],
                        "rule": "read_only", "scope": "dash"},
            "refused_resource": {"uri": "opsdesk://drafts", "contains": ["toolset `drafts`"]},
        }),
    );
    assert!(seen["tools"].as_array().is_some_and(|t| !t.is_empty()));

    // The agent: the tools its patterns pick from its toolsets; it may draft.
    let seen = python(
        &server,
        &agent_token,
        "auto",
        json!({
            "tools": ["draft_email", "draft_generate", "draft_reply", "draft_status", "inbox_pull"],
            "resources": ["opsdesk://drafts", "opsdesk://inbox", "opsdesk://config/draft_style"],
            "allowed": {"tool": "draft_email", "args": draft_email_args()},
            "refused": {"tool": "mail_list", "args": {},
                        "contains": ["none of the tool patterns", "client `agent`"],
                        "rule": "tools", "scope": "agent"},
        }),
    );
    assert_eq!(seen["protocol"], "2026-07-28", "{seen}");

    // The default credential on the same engine is not narrowed by either.
    let all = tools_where(|_| true);
    python(
        &server,
        &server.token,
        "legacy",
        json!({
            "tools": all,
            "resources": ALL_RESOURCES,
            "allowed": {"tool": "status", "args": {}},
            // An unknown tool is refused as before (not a scope refusal).
            "refused": {"tool": "no_such_tool", "args": {}, "contains": ["unknown tool"]},
        }),
    );

    // The agent's draft was queued, under its own name; the dashboard's refusal is audited.
    let o = server.cli(&["--json", "drafts", "list"]);
    let drafts = String::from_utf8_lossy(&o.stdout).to_string();
    assert!(
        drafts.contains("Scoped") && drafts.contains("mcp:agent"),
        "{drafts}"
    );
    let records = audit(&server);
    let reasons: Vec<&str> = records
        .iter()
        .filter(|r| r["event"] == "mcp.scope_refused")
        .filter_map(|r| r["reason"].as_str())
        .collect();
    assert!(
        reasons
            .iter()
            .any(|r| r.starts_with("scope dash read_only ([server.clients.dash] read_only)")),
        "{reasons:?}"
    );
    assert!(
        reasons
            .iter()
            .any(|r| r.starts_with("scope dash toolsets ([server.clients.dash] toolsets)")),
        "the refused resource read is audited too: {reasons:?}"
    );
    assert!(
        reasons
            .iter()
            .any(|r| r.starts_with("scope agent tools ([server.clients.agent] tools)")),
        "{reasons:?}"
    );
}

#[test]
fn toolsets_and_tool_patterns_from_the_command_line_narrow_the_list() {
    let server = Server::start(
        &[
            "--toolsets",
            "inbox,admin",
            "--enabled-tools",
            "inbox_*,status",
        ],
        None,
    );
    python(
        &server,
        &server.token,
        "auto",
        json!({
            "tools": ["inbox_pull", "inbox_search", "status"],
            // Admin's resources follow `status`; the drafts resource has no tool in scope.
            "resources": ["opsdesk://inbox", "opsdesk://audit/recent", "opsdesk://config/profiles",
                          "opsdesk://config/autonomy_ladder", "opsdesk://config/hard_bans",
                          "opsdesk://config/llm_providers", "opsdesk://config/operator_profile"],
            "allowed": {"tool": "status", "args": {}},
            "refused": {"tool": "morning_brief", "args": {},
                        "contains": ["toolset `briefs`", "not enabled for this server", "--toolsets"],
                        "rule": "toolsets", "scope": "server"},
            "refused_resource": {"uri": "opsdesk://drafts", "contains": ["toolset `drafts`"]},
        }),
    );
}

/// One JSON-RPC request in the stateless (2026-07-28) style; the response object.
async fn rpc(server: &Server, method: &str, name: Option<&str>, params: Value) -> Value {
    let mut params = params;
    params["_meta"] = json!({"io.modelcontextprotocol/protocolVersion":"2026-07-28",
                             "io.modelcontextprotocol/clientCapabilities":{},
                             "io.modelcontextprotocol/clientInfo":{"name":"raw","version":"1"}});
    let mut req = reqwest::Client::builder()
        .timeout(Duration::from_secs(30))
        .build()
        .expect("client")
        .post(&server.url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", method)
        .header("authorization", format!("Bearer {}", server.token));
    if let Some(n) = name {
        req = req.header("mcp-name", n);
    }
    let text = req
        .body(json!({"jsonrpc":"2.0","id":1,"method":method,"params":params}).to_string())
        .send()
        .await
        .expect("send")
        .text()
        .await
        .unwrap_or_default();
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn opsdesk_read_only_in_the_environment_turns_read_only_on() {
    let server = Server::start_env(&[], None, &[("OPSDESK_READ_ONLY", "1")]);
    let v = rpc(&server, "tools/list", None, json!({})).await;
    let names: Vec<&str> = v["result"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, tools_where(|t| t.tier == Tier::ReadOnly), "{v}");
    let v = rpc(
        &server,
        "tools/call",
        Some("chat_reply_draft"),
        json!({"name": "chat_reply_draft", "arguments": {"chat_id": "c", "body": "hi"}}),
    )
    .await;
    let msg = v["error"]["message"].as_str().unwrap_or("");
    assert!(
        msg.contains("read-only mode") && msg.contains("unsets OPSDESK_READ_ONLY"),
        "{v}"
    );
    assert_eq!(
        v["error"]["data"]["refused_by_scope"]["set_by"],
        "OPSDESK_READ_ONLY"
    );
}

fn run(args: &[&str], env: &[(&str, &str)]) -> (i32, String) {
    let tmp = tempfile::tempdir().expect("temp dir");
    let mut cmd = Command::new(BIN);
    cmd.arg("--data-dir").arg(tmp.path().join("d")).args(args);
    cmd.env("XDG_CONFIG_HOME", tmp.path().join("xdg"));
    cmd.env_remove("OPSDESK_TOKEN")
        .env_remove("OPSDESK_READ_ONLY");
    for (k, v) in env {
        cmd.env(k, v);
    }
    let o = cmd.output().expect("run");
    (
        o.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&o.stdout).to_string() + &String::from_utf8_lossy(&o.stderr),
    )
}

#[test]
fn unknown_toolsets_and_tool_patterns_are_refused_with_the_valid_names() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let check = |toml: &str| {
        let p = tmp.path().join("config.toml");
        std::fs::write(&p, toml).expect("config");
        run(
            &[
                "--config",
                p.to_str().expect("utf-8 path"),
                "config",
                "check",
            ],
            &[("X_TOKEN", &"x".repeat(40))],
        )
    };
    let valid_sets = "inbox, briefs, drafts, calendar, deals, triage, vault, admin";
    let (code, out) = check("[server]\ntoolsets = [\"inbox\", \"mail\"]\n");
    assert_ne!(code, 0, "{out}");
    assert!(
        out.contains("server.toolsets") && out.contains("`mail`") && out.contains(valid_sets),
        "{out}"
    );
    let (code, out) = check("[server]\ntools = [\"inbx_*\"]\n");
    assert_ne!(code, 0, "{out}");
    assert!(
        out.contains("server.tools")
            && out.contains("matches no tool")
            && out.contains("inbox_pull, "),
        "{out}"
    );
    let (code, out) = check(
        "[server.clients.dash]\ntoken_env = \"X_TOKEN\"\ntoolsets = [\"brief\"]\ntools = [\"status;x\"]\n",
    );
    assert_ne!(code, 0, "{out}");
    assert!(
        out.contains("server.clients.dash.toolsets") && out.contains(valid_sets),
        "{out}"
    );
    assert!(
        out.contains("server.clients.dash.tools") && out.contains("not a tool pattern"),
        "{out}"
    );
    // Valid settings pass; settings that leave a client nothing are a warning, not an error.
    let (code, out) = check(
        "[server]\ntoolsets = [\"inbox\", \"briefs\"]\n[server.clients.dash]\ntoken_env = \"X_TOKEN\"\nread_only = true\ntools = [\"inbox_*\"]\n",
    );
    assert_eq!(code, 0, "{out}");
    let (code, out) = check(
        "[server.clients.dash]\ntoken_env = \"X_TOKEN\"\ntoolsets = [\"admin\"]\ntools = [\"inbox_*\"]\n",
    );
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("offered no tool"), "{out}");

    // The command line: usage errors (exit 2) naming the valid values.
    let (code, out) = run(&["serve", "--toolsets", "inbox,nope"], &[]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("unknown toolset `nope`") && out.contains(valid_sets),
        "{out}"
    );
    let (code, out) = run(&["serve", "--enabled-tools", "sned_*"], &[]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("matches no tool") && out.contains("draft_email"),
        "{out}"
    );
    let (code, out) = run(&["serve"], &[("OPSDESK_READ_ONLY", "maybe")]);
    assert_eq!(code, 2, "{out}");
    assert!(
        out.contains("OPSDESK_READ_ONLY") && out.contains("1/true/yes/on"),
        "{out}"
    );
}

#[test]
fn doctor_and_mcp_config_show_the_running_servers_scope() {
    let server = Server::start(&["--read-only", "--toolsets", "inbox,drafts"], None);
    let expected = tools_where(|t| {
        t.tier == Tier::ReadOnly && matches!(t.toolset, Toolset::Inbox | Toolset::Drafts)
    });
    let o = server.cli(&["--json", "doctor"]);
    let v: Value = serde_json::from_slice(&o.stdout).expect("doctor JSON");
    let check = v["checks"]
        .as_array()
        .expect("checks")
        .iter()
        .find(|c| c["check"] == "mcp scope default")
        .cloned()
        .unwrap_or(Value::Null);
    let detail = check["detail"].as_str().unwrap_or("");
    assert!(
        detail.starts_with(&format!(
            "read-only; {} of {} tools (toolsets: inbox, drafts)",
            expected.len(),
            TOOLS.len()
        )) && detail.contains("opsdesk serve --read-only, opsdesk serve --toolsets"),
        "{check}"
    );

    let o = server.cli(&["mcp-config", "copilot-cli"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let entry: Value = serde_json::from_slice(&o.stdout).expect("client config");
    let listed: Vec<&str> = entry["mcpServers"]["opsdesk"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(Value::as_str)
        .collect();
    assert_eq!(listed, expected);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(
        stderr.contains("scope of this credential (`default`): read-only"),
        "{stderr}"
    );

    // A new client's section carries its scope.
    let o = server.cli(&[
        "mcp-config",
        "claude-code",
        "--new-client",
        "dash",
        "--read-only",
        "--toolsets",
        "briefs",
    ]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    assert!(
        stderr.contains("read_only = true") && stderr.contains("toolsets = [\"briefs\"]"),
        "{stderr}"
    );
}

#[test]
fn mcp_config_as_a_named_client_carries_its_token_variable_and_scope() {
    let token = "q".repeat(40);
    let server = Server::start_env(
        &[],
        Some(
            "[server.clients.dash]\ntoken_env = \"DASH_TOKEN\"\nread_only = true\ntoolsets = [\"briefs\"]\n",
        ),
        &[("DASH_TOKEN", token.as_str())],
    );
    let o = server.cli(&["mcp-config", "copilot-cli", "--as-client", "dash"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{stderr}");
    let entry: Value = serde_json::from_slice(&o.stdout).expect("client config");
    let e = &entry["mcpServers"]["opsdesk"];
    assert_eq!(
        e["headers"]["Authorization"], "Bearer ${DASH_TOKEN}",
        "{entry}"
    );
    assert_eq!(
        e["tools"],
        json!(tools_where(|t| t.toolset == Toolset::Briefs)),
        "{entry}"
    );
    assert!(!String::from_utf8_lossy(&o.stdout).contains(&token));
    assert!(
        stderr.contains("scope of this credential (`dash`): read-only"),
        "{stderr}"
    );
    assert!(stderr.contains("${DASH_TOKEN}"), "{stderr}");
    // An unknown name lists the configured ones.
    let o = server.cli(&["mcp-config", "claude-code", "--as-client", "dahs"]);
    let stderr = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("no MCP client `dahs`") && stderr.contains("configured: dash"),
        "{stderr}"
    );
}

#[test]
fn a_bridged_stdio_connection_cannot_claim_a_narrower_scope() {
    let server = Server::start(&[], None);
    let mut cmd = Command::new(BIN);
    cmd.arg("--data-dir")
        .arg(&server.data_dir)
        // The server's config dir (mcp_support puts it beside the data dir).
        .env("XDG_CONFIG_HOME", server.data_dir.with_file_name("xdg"))
        .args(["serve", "--stdio", "--read-only"])
        .env_remove("OPSDESK_TOKEN");
    let (ok, _out, err) = run_bounded(cmd, Duration::from_secs(60));
    assert!(!ok, "the bridge started read-only in name only: {err}");
    assert!(
        err.contains("an engine already runs") && err.contains("[server.clients.<name>]"),
        "{err}"
    );
}

#[test]
fn python_sdk_pushes_reach_only_clients_whose_scope_reaches_the_inbox() {
    let feed = "f".repeat(40);
    let briefer = "b".repeat(40);
    let server = Server::start_env(
        &[],
        Some(
            "[server.clients.feed]\ntoken_env = \"FEED_TOKEN\"\ntoolsets = [\"inbox\"]\n\
             [server.clients.briefer]\ntoken_env = \"BRIEFER_TOKEN\"\ntoolsets = [\"briefs\"]\n",
        ),
        &[
            ("FEED_TOKEN", feed.as_str()),
            ("BRIEFER_TOKEN", briefer.as_str()),
        ],
    );
    let mut cmd = Command::new(ci_tool("mcp-python"));
    // The script's `opsdesk inbox add` needs the server's config.
    cmd.env(
        "OPSDESK_CONFIG",
        server.data_dir.with_file_name("config.toml"),
    )
    .arg(interop_script("py_scope_push.py"))
    .args([&server.url, BIN])
    .arg(&server.data_dir)
    .args([&feed, &briefer]);
    let (ok, out, err) = run_bounded(cmd, Duration::from_secs(120));
    assert!(
        ok,
        "python push client failed:\nstdout: {out}\nstderr: {err}"
    );
}

/// Poll (bounded) until `f` holds; never a timing assertion, only a bound on waiting.
fn eventually(what: &str, mut f: impl FnMut() -> bool) {
    let deadline = std::time::Instant::now() + Duration::from_secs(30);
    while !f() {
        assert!(
            std::time::Instant::now() < deadline,
            "{what} did not happen within 30 s"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
}

#[test]
fn python_sdk_a_scope_reload_sends_list_changed_and_the_new_list_applies() {
    let server = Server::start(&[], Some("[server]\nread_only = false\n"));
    let config = server.data_dir.with_file_name("config.toml");
    let all = tools_where(|_| true);
    let read = tools_where(|t| t.tier == Tier::ReadOnly);
    let read_inbox = tools_where(|t| t.tier == Tier::ReadOnly && t.toolset == Toolset::Inbox);
    for (mode, new_config, before, after) in [
        ("legacy", "[server]\nread_only = true\n", &all, &read),
        (
            "auto",
            "[server]\nread_only = true\ntoolsets = [\"inbox\"]\n",
            &read,
            &read_inbox,
        ),
    ] {
        let mut cmd = Command::new(ci_tool("mcp-python"));
        cmd.arg(interop_script("py_scope_reload.py"))
            .args([&server.url, &server.token, mode])
            .arg(&config)
            .arg(server.pid().to_string())
            .arg(new_config)
            .arg(json!({"before": before, "after": after}).to_string());
        let (ok, out, err) = run_bounded(cmd, Duration::from_secs(120));
        assert!(
            ok,
            "python reload client ({mode}) failed:\nstdout: {out}\nstderr: {err}"
        );
    }
    // The reloads are audited, and doctor shows the running engine's new scope.
    let reloads = |outcome: &str| {
        audit(&server)
            .into_iter()
            .filter(|r| r["event"] == "mcp.scope_reload" && r["outcome"] == outcome)
            .count()
    };
    assert_eq!(reloads("ok"), 2);
    let o = server.cli(&["--json", "doctor"]);
    let doctor = String::from_utf8_lossy(&o.stdout).to_string();
    let expected = format!(
        "read-only; {} of {} tools (toolsets: inbox)",
        read_inbox.len(),
        TOOLS.len()
    );
    assert!(doctor.contains(&expected), "{doctor}");

    // A reload that would change credentials is refused whole: the scope stays as it was.
    std::fs::write(
        &config,
        "[server]\n[server.clients.ghost]\ntoken_env = \"GHOST_TOKEN\"\n",
    )
    .expect("config");
    // SAFETY: signalling the server process this test started.
    unsafe {
        libc::kill(server.pid() as i32, libc::SIGHUP);
    }
    eventually("the refused reload's audit record", || {
        reloads("denied") == 1
    });
    // So is a config that fails validation.
    std::fs::write(&config, "[server]\ntoolsets = [\"everything\"]\n").expect("config");
    // SAFETY: as above.
    unsafe {
        libc::kill(server.pid() as i32, libc::SIGHUP);
    }
    eventually("the invalid reload's audit record", || {
        reloads("denied") == 2
    });
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let v = rt.block_on(rpc(&server, "tools/list", None, json!({})));
    let names: Vec<&str> = v["result"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    assert_eq!(names, read_inbox, "{v}");
}

/// `opsdesk serve --stdio <extra>` (own engine, HTTP on a free port) as rmcp's child-process
/// client sees it: the tool names it lists and the error a draft call gets.
async fn stdio_probe(
    data_dir: &std::path::Path,
    config: Option<&std::path::Path>,
    extra: &[&str],
    env: &[(&str, &str)],
) -> (Vec<String>, String) {
    use rmcp::ServiceExt;
    use rmcp::transport::{ConfigureCommandExt, TokioChildProcess};
    let cmd = tokio::process::Command::new(BIN).configure(|c| {
        c.arg("--data-dir").arg(data_dir);
        // Beside the data dir, inside the test's tempdir: never the real HOME.
        c.env("XDG_CONFIG_HOME", data_dir.with_extension("xdg"));
        if let Some(p) = config {
            c.arg("--config").arg(p);
        }
        c.args(["serve", "--stdio", "--bind", "127.0.0.1:0"])
            .args(extra)
            .env_remove("OPSDESK_TOKEN")
            .env_remove("OPSDESK_READ_ONLY")
            .env("OPSDESK_LOG", "warn");
        for (k, v) in env {
            c.env(k, v);
        }
    });
    let (transport, _stderr) = TokioChildProcess::builder(cmd)
        .stderr(std::process::Stdio::inherit())
        .spawn()
        .expect("spawn opsdesk serve --stdio");
    let client = tokio::time::timeout(Duration::from_secs(60), ().serve(transport))
        .await
        .expect("initialize in time")
        .expect("initialize");
    let names = client
        .list_all_tools()
        .await
        .expect("tools/list")
        .into_iter()
        .map(|t| t.name.to_string())
        .collect();
    let args = draft_email_args();
    let refused = client
        .call_tool(
            rmcp::model::CallToolRequestParams::new("draft_email")
                .with_arguments(args.as_object().cloned().unwrap_or_default()),
        )
        .await
        .map(|r| format!("not refused: {r:?}"))
        .unwrap_or_else(|e| e.to_string());
    client.cancel().await.expect("close");
    (names, refused)
}

#[test]
fn stdio_follows_the_same_scope_rules() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    let tmp = tempfile::tempdir().expect("temp dir");
    // Server-wide read-only from the command line.
    let (names, refused) = rt.block_on(stdio_probe(
        &tmp.path().join("a"),
        None,
        &["--read-only"],
        &[],
    ));
    assert_eq!(names, tools_where(|t| t.tier == Tier::ReadOnly));
    assert!(
        refused.contains("read-only mode") && refused.contains("drops --read-only"),
        "{refused}"
    );
    // A stdio connection acting as a named client gets that client's own scope.
    let config = tmp.path().join("config.toml");
    std::fs::write(
        &config,
        "[server]\nstdio_client = \"desk\"\n[server.clients.desk]\ntoken_env = \"DESK_TOKEN\"\ntoolsets = [\"briefs\"]\n",
    )
    .expect("config");
    let token = "k".repeat(40);
    let (names, refused) = rt.block_on(stdio_probe(
        &tmp.path().join("b"),
        Some(&config),
        &[],
        &[("DESK_TOKEN", token.as_str())],
    ));
    assert_eq!(names, tools_where(|t| t.toolset == Toolset::Briefs));
    assert!(
        refused.contains("toolset `drafts`") && refused.contains("[server.clients.desk]"),
        "{refused}"
    );
}
