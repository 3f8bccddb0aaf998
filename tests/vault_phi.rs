//! A vault tool's answer passes the PHI view attributed to what opsdesk handed the tool, not to
//! what the tool's output claims: a work message's summary stays readable ("Premium support"
//! is no person), a clinic message's is redacted for an uncleared client even when the tool
//! labels it `"profile": "work"`; and the operator's own profile is not PHI.

mod mcp_support;

use std::os::unix::fs::PermissionsExt;

use mcp_support::{Server, call, rpc};
use serde_json::json;

/// Echoes the message it was handed, once plainly and once under a false `"profile"`.
const ECHO: &str = "#!/usr/bin/env python3\nimport json, sys\nc = json.load(sys.stdin)['context']\nt = c.get('message', {}).get('text', '')\njson.dump({'summary': t, 'claimed': {'profile': 'work', 'text': t}, 'fixed': 'Premium support'}, sys.stdout)\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_tools_answer_is_redacted_as_the_message_it_was_handed() {
    let tools = tempfile::tempdir().unwrap();
    let d = tools.path().join("echo");
    std::fs::create_dir_all(&d).unwrap();
    std::fs::write(
        d.join("tool.toml"),
        "name = \"echo\"\ndescription = \"echo\"\ntier = \"read_only\"\ninput_schema = { type = \"object\" }\n",
    )
    .unwrap();
    std::fs::write(d.join("run"), ECHO).unwrap();
    std::fs::set_permissions(d.join("run"), std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(&d, std::fs::Permissions::from_mode(0o755)).unwrap();
    std::fs::set_permissions(tools.path(), std::fs::Permissions::from_mode(0o700)).unwrap();
    let config = format!(
        r#"
[vault]
dir = "{}"
sandbox = "best_effort"

[operator]
name = "Dana Whitfield"

[profiles.work]
sources = ["spool"]

[profiles.clinic]
sources = ["spool"]
requires_hipaa = true
phi_auto_redact = true
phi_names = ["Margaret Okafor"]
"#,
        tools.path().display()
    );
    let server = tokio::task::spawn_blocking(move || Server::start(&[], Some(&config)))
        .await
        .unwrap();
    for (profile, id, body) in [
        (
            "work",
            "m-work",
            "Premium support renewal is due; Premium support covers both sites.",
        ),
        (
            "clinic",
            "m-clinic",
            "Margaret Okafor MRN: 00482913 needs her refill.",
        ),
    ] {
        let o = server.cli(&[
            "inbox",
            "add",
            "--profile",
            profile,
            "--id",
            id,
            "--from",
            "Desk <desk@example.org>",
            "--subject",
            "Note",
            "--body",
            body,
        ]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    }
    let work = call(
        &server,
        "claude-code",
        "vault_echo",
        json!({"message_id": "m-work"}),
    )
    .await;
    let w = work["structuredContent"].to_string();
    assert!(
        w.contains("Premium support renewal"),
        "a work message was redacted: {w}"
    );
    assert!(!w.contains("<PERSON"), "{w}");

    let clinic = call(
        &server,
        "claude-code",
        "vault_echo",
        json!({"message_id": "m-clinic"}),
    )
    .await;
    let c = clinic.to_string();
    assert!(
        !c.contains("Okafor"),
        "PHI reached an uncleared client: {c}"
    );
    assert!(!c.contains("00482913"), "{c}");
    // Both copies agree.
    let text: serde_json::Value =
        serde_json::from_str(clinic["content"][0]["text"].as_str().unwrap()).unwrap();
    assert_eq!(text, clinic["structuredContent"], "the two copies disagree");

    // The operator's own identity is not PHI.
    let r = rpc(
        &server,
        "claude-code",
        "resources/read",
        json!({"uri": "opsdesk://config/operator_profile"}),
    )
    .await;
    assert!(r.to_string().contains("Dana Whitfield"), "{r}");
}
