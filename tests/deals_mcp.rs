//! Deals over MCP: the read tools and the resource answer through the engine (audited) and
//! the PHI view (a `requires_hipaa` deal is redacted for an uncleared client), `deal_create`
//! only proposes, and no MCP tool can create, link or move a deal. The whole flow with the
//! official Python SDK client (proposal, acceptance by the CLI, links, timeline, resource,
//! `resources/updated`) is in `tests/interop/py_deals.py`.

mod mcp_support;

use std::process::Command;
use std::time::Duration;

use mcp_support::{Server, ci_tool, interop_script, run_bounded};
use serde_json::{Value, json};

const CONFIG: &str = r#"
[profiles.work]
sources = ["spool"]
never_mix_with = ["clinic"]

[profiles.clinic]
sources = ["spool"]
requires_hipaa = true
phi_auto_redact = true
phi_names = ["Margaret Okafor"]
"#;

/// One stateless (2026-07-28) request; the whole JSON-RPC answer.
async fn rpc(server: &Server, method: &str, params: Value) -> Value {
    mcp_support::rpc(server, "deals-test", method, params).await
}

async fn tool(server: &Server, name: &str, args: Value) -> Value {
    rpc(
        server,
        "tools/call",
        json!({"name": name, "arguments": args}),
    )
    .await
}

fn ok(o: std::process::Output) -> String {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn deal_tools_read_through_the_engine_and_only_propose() {
    let server = Server::start(&[], Some(CONFIG));
    let tools = rpc(&server, "tools/list", json!({})).await;
    let listed: Vec<&str> = tools["result"]["tools"]
        .as_array()
        .expect("tools")
        .iter()
        .filter_map(|t| t["name"].as_str())
        .collect();
    for t in ["deals_list", "deal_detail", "deal_timeline", "deal_create"] {
        assert!(listed.contains(&t), "{t} missing from {listed:?}");
    }
    let by_name = |n: &str| {
        tools["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .find(|t| t["name"] == n)
            .cloned()
            .unwrap()
    };
    assert_eq!(
        by_name("deal_timeline")["annotations"]["readOnlyHint"],
        true
    );
    assert_eq!(by_name("deal_create")["annotations"]["readOnlyHint"], false);
    assert!(by_name("deal_detail")["outputSchema"].is_object());

    // A proposal waits; a bad one is a clear -32602 naming the field.
    let p = tool(
        &server,
        "deal_create",
        json!({"profile": "work", "name": "Sunrise", "counterparties": ["acme.example"], "keywords": ["sunrise"]}),
    )
    .await;
    let sc = &p["result"]["structuredContent"];
    assert_eq!(sc["status"], "pending_approval", "{p}");
    let draft = sc["draft_id"].as_str().unwrap().to_string();
    let bad = tool(
        &server,
        "deal_create",
        json!({"profile": "work", "name": "X", "stage": "signed"}),
    )
    .await;
    assert_eq!(bad["error"]["code"], -32602, "{bad}");
    assert_eq!(bad["error"]["data"]["field"], "stage", "{bad}");
    let none = tool(&server, "deals_list", json!({"all": true})).await;
    assert_eq!(
        none["result"]["structuredContent"]["deals"],
        json!([]),
        "{none}"
    );

    // The operator accepts it; a message links itself; the client reads it all.
    let accepted: Value = serde_json::from_str(&ok(
        server.cli(&["--json", "deals", "accept", &draft, "--yes"])
    ))
    .unwrap();
    let deal = accepted["id"].as_str().unwrap().to_string();
    ok(server.cli(&[
        "inbox",
        "add",
        "--profile",
        "work",
        "--channel",
        "email",
        "--from",
        "ann@acme.example",
        "--subject",
        "Data room",
        "--body",
        "open",
        "--id",
        "m1",
    ]));
    let list = tool(&server, "deals_list", json!({})).await;
    let row = &list["result"]["structuredContent"]["deals"][0];
    assert_eq!(row["id"], deal.as_str(), "{list}");
    assert_eq!(row["linked_messages"], 1);
    let detail = tool(&server, "deal_detail", json!({"id": deal})).await;
    let m = &detail["result"]["structuredContent"]["messages"][0];
    assert_eq!(m["rule"], "participant", "{detail}");
    assert_eq!(m["untrusted"], true);
    let tl = tool(&server, "deal_timeline", json!({"id": deal, "limit": 200})).await;
    let entries = tl["result"]["structuredContent"]["entries"]
        .as_array()
        .unwrap_or_else(|| panic!("{tl}"));
    assert!(entries.iter().any(|e| e["source"] == "draft"), "{tl}");
    let res = rpc(
        &server,
        "resources/read",
        json!({"uri": format!("opsdesk://deals/{deal}")}),
    )
    .await;
    let body: Value = serde_json::from_str(
        res["result"]["contents"][0]["text"]
            .as_str()
            .unwrap_or_else(|| panic!("{res}")),
    )
    .unwrap();
    assert_eq!(body["deal"]["id"], deal.as_str());
    let missing = tool(&server, "deal_detail", json!({"id": "deal-nosuch"})).await;
    assert!(missing.get("error").is_some(), "{missing}");
    let templates = rpc(&server, "resources/templates/list", json!({})).await;
    assert!(
        templates.to_string().contains("opsdesk://deals/{id}"),
        "{templates}"
    );

    // Every read was audited under the tool's name.
    let audit = ok(server.cli(&["--json", "audit", "tail", "-n", "200"]));
    for t in ["deal_detail", "deal_timeline", "deals_list"] {
        assert!(audit.contains(&format!("\"tool\":\"{t}\"")), "{t}: {audit}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hipaa_deal_is_redacted_for_an_uncleared_client() {
    let server = Server::start(&[], Some(CONFIG));
    let out = ok(server.cli(&[
        "--json",
        "deals",
        "create",
        "--profile",
        "clinic",
        "--name",
        "Margaret Okafor care plan",
        "--notes",
        "Margaret Okafor prefers mornings",
    ]));
    let id = serde_json::from_str::<Value>(&out).unwrap()["id"]
        .as_str()
        .unwrap()
        .to_string();
    for v in [
        tool(&server, "deals_list", json!({})).await,
        tool(&server, "deal_detail", json!({"id": id})).await,
        rpc(
            &server,
            "resources/read",
            json!({"uri": format!("opsdesk://deals/{id}")}),
        )
        .await,
    ] {
        assert!(v.get("result").is_some(), "{v}");
        assert!(!v.to_string().contains("Okafor"), "leaks: {v}");
    }
    // The operator's CLI shows it as it is.
    assert!(ok(server.cli(&["deals", "show", &id])).contains("Margaret Okafor"));
}

#[test]
fn python_sdk_proposes_reads_and_follows_a_deal() {
    let python = ci_tool("mcp-python");
    let server = Server::start(&[], Some("[profiles.work]\nsources = [\"spool\"]\n"));
    let mut cmd = Command::new(&python);
    let config = server.data_dir.with_file_name("config.toml");
    cmd.env("OPSDESK_CONFIG", &config);
    cmd.arg(interop_script("py_deals.py"))
        .args([&server.url, &server.token, "legacy", mcp_support::BIN])
        .arg(&server.data_dir);
    let (ok, out, err) = run_bounded(cmd, Duration::from_secs(120));
    assert!(
        ok,
        "python deals client failed:\nstdout: {out}\nstderr: {err}"
    );
    assert!(
        out.contains("\"rules\": [\"keyword\", \"manual\"]"),
        "{out}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn doctor_over_mcp_gives_the_cli_checks_without_secrets() {
    let server = Server::start(&[], Some(CONFIG));
    let v = tool(&server, "doctor", json!({})).await;
    let sc = &v["result"]["structuredContent"];
    let checks = sc["checks"].as_array().unwrap_or_else(|| panic!("{v}"));
    let names: Vec<&str> = checks.iter().filter_map(|c| c["check"].as_str()).collect();
    for want in [
        "config",
        "data dir",
        "audit trail",
        "inbox",
        "deals log",
        "mcp token",
    ] {
        assert!(names.contains(&want), "{want} missing: {names:?}");
    }
    assert!(sc["ok"].is_boolean());
    // The same checks as `opsdesk doctor --json`, by name.
    let cli: Value = serde_json::from_slice(&server.cli(&["--json", "doctor"]).stdout).unwrap();
    let cli_names: Vec<&str> = cli["checks"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|c| c["check"].as_str())
        .collect();
    // (The month's audit file appears once anything is audited: the CLI ran after the call.)
    let no_files = |v: &[&str]| -> Vec<String> {
        v.iter()
            .filter(|n| !n.starts_with("audit file"))
            .map(|n| n.to_string())
            .collect()
    };
    assert_eq!(no_files(&names), no_files(&cli_names));
    assert!(!v.to_string().contains(&server.token), "the token leaked");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn operator_profile_and_draft_style_come_from_the_config() {
    let config = r#"
[operator]
name = "Clint"
time_zone = "America/Chicago"

[brief]
sections = ["deals", "decisions"]
max_decisions = 5

[drafting]
tone = "brief and direct"
sign_off = "Best,"
max_words = 180

[profiles.olumie]
sources = ["spool"]
display_name = "Olumie Capital"
email_domains = ["olumie.example"]
never_mix_with = ["everest"]

[profiles.everest]
sources = ["spool"]
"#;
    let server = Server::start(&[], Some(config));
    let list = rpc(&server, "resources/list", json!({})).await;
    for uri in [
        "opsdesk://config/operator_profile",
        "opsdesk://config/draft_style",
        "opsdesk://config/brief_config",
    ] {
        assert!(list.to_string().contains(uri), "{uri} not listed: {list}");
    }
    let read = |uri: &'static str| {
        let server = &server;
        async move {
            let v = rpc(server, "resources/read", json!({"uri": uri})).await;
            serde_json::from_str::<Value>(
                v["result"]["contents"][0]["text"]
                    .as_str()
                    .unwrap_or_else(|| panic!("{v}")),
            )
            .unwrap()
        }
    };
    let op = read("opsdesk://config/operator_profile").await;
    assert_eq!(op["operator"]["name"], "Clint", "{op}");
    assert_eq!(op["operator"]["time_zone"], "America/Chicago");
    let olumie = op["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["profile"] == "olumie")
        .cloned()
        .unwrap();
    assert_eq!(olumie["display_name"], "Olumie Capital");
    assert_eq!(olumie["never_mix_with"], json!(["everest"]));
    let style = read("opsdesk://config/draft_style").await;
    assert_eq!(style["tone"], "brief and direct", "{style}");
    assert_eq!(style["max_words"], 180);
    assert_eq!(style["format"], "text");
    let brief = read("opsdesk://config/brief_config").await;
    assert_eq!(brief["sections"], json!(["deals", "decisions"]), "{brief}");
    assert_eq!(brief["max_decisions"], 5);
    // The brief follows it.
    let b = tool(&server, "morning_brief", json!({"profile": "olumie"})).await;
    let text = b["result"]["structuredContent"]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{b}"));
    assert!(
        text.contains("Needs a decision") && !text.contains("Unread:"),
        "{text}"
    );
}
