//! MCP prompts (the `/inbox` slash command of Entraclaw §4 option D): listed by scope, given
//! with the profile's name, refused clearly, every `prompts/get` audited.

mod mcp_support;

use mcp_support::{Server, rpc};
use serde_json::{Value, json};

const CONFIG: &str = r#"
[profiles.work]
sources = ["spool"]
[profiles.home]
sources = ["spool"]
"#;

fn names(list: &Value) -> Vec<String> {
    list["result"]["prompts"]
        .as_array()
        .unwrap_or_else(|| panic!("no prompts in {list}"))
        .iter()
        .map(|p| p["name"].as_str().unwrap().to_string())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_inbox_prompt_and_a_brief_per_profile_are_served_and_audited() {
    let server = tokio::task::spawn_blocking(|| Server::start(&[], Some(CONFIG)))
        .await
        .unwrap();
    let list = rpc(&server, "claude-code", "prompts/list", json!({})).await;
    assert_eq!(names(&list), vec!["inbox", "brief_home", "brief_work"]);

    let got = rpc(
        &server,
        "claude-code",
        "prompts/get",
        json!({"name": "inbox", "arguments": {"profile": "work"}}),
    )
    .await;
    let text = got["result"]["messages"][0]["content"]["text"]
        .as_str()
        .unwrap_or_else(|| panic!("{got}"));
    assert!(
        text.contains("inbox_pull") && text.contains("\"work\"") && text.contains("untrusted"),
        "{text}"
    );
    let brief = rpc(
        &server,
        "claude-code",
        "prompts/get",
        json!({"name": "brief_home"}),
    )
    .await;
    assert!(brief.to_string().contains("morning_brief"), "{brief}");

    // Unknown names and profiles are refused with what is valid.
    let unknown = rpc(
        &server,
        "claude-code",
        "prompts/get",
        json!({"name": "wire_money"}),
    )
    .await;
    assert_eq!(unknown["error"]["code"], -32602, "{unknown}");
    assert!(
        unknown["error"]["data"]["available_prompts"]
            .to_string()
            .contains("brief_work"),
        "{unknown}"
    );
    let bad = rpc(
        &server,
        "claude-code",
        "prompts/get",
        json!({"name": "inbox", "arguments": {"profile": "nope"}}),
    )
    .await;
    assert!(
        bad["error"]["message"]
            .as_str()
            .unwrap_or("")
            .contains("work"),
        "{bad}"
    );

    // Each get is on the trail, refusals as denied.
    let out = server.cli(&["--json", "audit", "tail", "-n", "50"]);
    let trail = String::from_utf8_lossy(&out.stdout);
    let gets: Vec<Value> = trail
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter(|r| r["event"] == "prompt.get")
        .collect();
    assert_eq!(gets.len(), 4, "{trail}");
    assert_eq!(gets.iter().filter(|r| r["outcome"] == "denied").count(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_without_the_tools_gets_no_prompts() {
    let server =
        tokio::task::spawn_blocking(|| Server::start(&["--toolsets", "drafts"], Some(CONFIG)))
            .await
            .unwrap();
    let list = rpc(&server, "claude-code", "prompts/list", json!({})).await;
    assert!(names(&list).is_empty(), "{list}");
    let got = rpc(
        &server,
        "claude-code",
        "prompts/get",
        json!({"name": "inbox"}),
    )
    .await;
    assert!(got["error"].is_object(), "{got}");
}
