//! The router wired into the engine: `Engine::llm_complete` and the brief polish write every
//! decision to the real hash-chained audit trail, honour the operator's provider toggles and
//! the autonomy ladder, and fall back to the deterministic brief (saying why) when blocked.
//! Also `opsdesk providers …` through the real binary.

mod llm_support;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Output;
use std::time::Duration;

use llm_support::*;
use opsdesk::config::Config;
use opsdesk::domain::{Action, Actor, BriefKind, Channel, NewMessage, Outcome, Party, Query};
use opsdesk::engine::Engine;
use opsdesk::llm::{ChatMessage, LlmError, LlmRequest};
use serde_json::Value;
use time::OffsetDateTime;

const CHAT: &str = "/chat/completions";

fn config_text(url: &str, extra: &str) -> String {
    format!(
        r#"
[profiles.work]
sources = ["spool"]
email_domains = ["contoso.com"]

[profiles.clinic]
sources = ["spool"]
phi_auto_redact = true
requires_hipaa = true
phi_names = ["Maria Lopez"]

[llm]
default = "local"

[llm.providers.local]
enabled = true
endpoint = "{url}/v1"
model = "fake-model"
{extra}
"#
    )
}

fn message(profile: &str, body: &str) -> NewMessage {
    NewMessage {
        id: format!("m-{profile}-{}", body.len()),
        profile: profile.into(),
        channel: Channel::Email,
        thread_id: None,
        from: Party::new("Mei Chen", "mei.chen@contoso.com"),
        to: vec![Party::new("Alex Morgan", "alex.morgan@contoso.com")],
        subject: Some("Can you decide on the vendor by Friday?".into()),
        ts: OffsetDateTime::now_utc(),
        body: body.into(),
        html: false,
        meta: BTreeMap::new(),
        attachments: Vec::new(),
    }
}

fn brief(engine: &Engine, profile: &str) -> Value {
    match engine
        .submit(
            Action::Query(Query::Brief {
                kind: BriefKind::Morning,
                profile: profile.into(),
            }),
            Actor::Cli,
        )
        .unwrap()
    {
        Outcome::Done { detail } => serde_json::to_value(detail).unwrap(),
        other => panic!("{other:?}"),
    }
}

#[tokio::test]
async fn brief_polish_goes_through_the_router_and_is_audited() {
    let fake = Fake::start().await;
    // The fake "polishes" by echoing what it was sent.
    fake.script(CHAT, vec![Reply::Echo { piece: 7 }]);
    let env = Env::new(config_text(&fake.url, ""));
    let engine = env.engine();
    engine
        .ingest(
            message("work", "Please decide on the vendor by Friday."),
            "test",
        )
        .unwrap();
    let det = brief(&engine, "work");
    let original = det["text"].as_str().unwrap().to_string();
    assert_eq!(det["polished"], false);

    let out = engine
        .polish_brief(
            serde_json::from_value(det).unwrap(),
            &Actor::Cli,
            Duration::from_secs(20),
        )
        .await;
    let out = serde_json::to_value(out).unwrap();
    assert_eq!(out["polished"], true, "{out}");
    assert_eq!(out["text"].as_str().unwrap(), original.trim());
    assert!(out.get("polish_skipped").is_none());
    assert!(out["polish_note"].as_str().unwrap().contains("`local`"));

    // What was sent: the brief text under the polish instruction, job `brief`.
    let body: Value = serde_json::from_str(&fake.posts()[0].body).unwrap();
    assert_eq!(body["messages"][1]["content"], original.as_str());
    assert!(
        body["messages"][0]["content"]
            .as_str()
            .unwrap()
            .contains("untrusted")
    );

    let events = env.audit(&engine);
    let names: Vec<&str> = events.iter().map(|e| e.0.as_str()).collect();
    assert!(names.ends_with(&["llm.select", "llm.call"]), "{names:?}");
    assert!(engine.verify_audit().is_ok());

    // The Providers data shows this process's usage.
    let view = engine.providers_view().unwrap();
    let local = view.providers.iter().find(|p| p.name == "local").unwrap();
    assert_eq!(local.calls, Some(1));
    assert_eq!(local.usage.unwrap().completion_tokens, 7);
}

#[tokio::test]
async fn hipaa_brief_polish_is_skipped_with_the_reason_and_nothing_is_sent() {
    let fake = Fake::start().await;
    fake.script(CHAT, vec![Reply::Echo { piece: 7 }]);
    let env = Env::new(config_text(&fake.url, ""));
    let engine = env.engine();
    engine
        .ingest(
            message("clinic", "Maria Lopez needs her refill approved."),
            "test",
        )
        .unwrap();
    let det = brief(&engine, "clinic");
    let out = engine
        .polish_brief(
            serde_json::from_value(det.clone()).unwrap(),
            &Actor::Cli,
            Duration::from_secs(20),
        )
        .await;
    let out = serde_json::to_value(out).unwrap();
    assert_eq!(out["polished"], false);
    let why = out["polish_skipped"].as_str().unwrap();
    assert!(why.contains("hipaa_provider_required"), "{why}");
    // The deterministic brief, its footer now saying why it was not polished.
    let text = out["text"].as_str().unwrap();
    assert!(text.contains("polish skipped"), "{text}");
    assert_eq!(
        text.replace(out["polish_note"].as_str().unwrap(), ""),
        det["text"]
            .as_str()
            .unwrap()
            .replace(det["polish_note"].as_str().unwrap(), "")
    );
    assert!(
        fake.requests().is_empty(),
        "nothing may reach an uncleared provider"
    );
    let events = env.audit(&engine);
    assert!(
        events.iter().any(|(e, o, r)| e == "llm.block"
            && o == "blocked"
            && r.starts_with("hipaa_provider_required")),
        "{events:?}"
    );
    // No PHI in the audit trail.
    assert!(!format!("{events:?}").contains("Lopez"));
}

#[tokio::test]
async fn operator_toggles_apply_to_the_next_call() {
    let fake = Fake::start().await;
    fake.script(CHAT, vec![answer(&["hi"], 1, 1)]);
    let env = Env::new(config_text(&fake.url, ""));
    let engine = env.engine();
    let req = LlmRequest::new("draft", vec![ChatMessage::user("hello")]);
    let ok = engine
        .llm_complete("work", &req, &Actor::Cli, None)
        .await
        .unwrap();
    assert_eq!(ok.text, "hi");

    engine
        .submit(
            Action::SetProviderEnabled {
                name: "local".into(),
                enabled: false,
            },
            Actor::Console,
        )
        .unwrap();
    let err = engine
        .llm_complete("work", &req, &Actor::Cli, None)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, LlmError::Blocked { rule, .. } if rule == "no_provider_available"),
        "{err:?}"
    );
    assert_eq!(fake.posts().len(), 1);
}

#[tokio::test]
async fn the_autonomy_ladder_can_forbid_llm_calls() {
    let fake = Fake::start().await;
    fake.script(CHAT, vec![answer(&["hi"], 1, 1)]);
    let env = Env::new(config_text(&fake.url, "[autonomy]\nllm_call = \"never\"\n"));
    let engine = env.engine();
    let req = LlmRequest::new("draft", vec![ChatMessage::user("hello")]);
    let err = engine
        .llm_complete("work", &req, &Actor::Cli, None)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, LlmError::Blocked { rule, .. } if rule == "autonomy.never"),
        "{err:?}"
    );
    assert!(fake.requests().is_empty());
    let err = engine
        .llm_complete("nope", &req, &Actor::Cli, None)
        .await
        .unwrap_err();
    assert!(matches!(err, LlmError::Invalid(_)));
}

/// The router's records share the trail's background fsync (issue 13) but are still written
/// before the text leaves: a trail that cannot be written stops the call, nothing is sent.
#[tokio::test]
async fn a_trail_that_cannot_be_written_stops_the_call_before_anything_is_sent() {
    let fake = Fake::start().await;
    fake.script(CHAT, vec![answer(&["hi"], 1, 1), answer(&["hi"], 1, 1)]);
    let env = Env::new(config_text(&fake.url, ""));
    let engine = env.engine();
    let req = LlmRequest::new("draft", vec![ChatMessage::user("hello")]);
    engine
        .llm_complete("work", &req, &Actor::Cli, None)
        .await
        .unwrap();
    assert_eq!(fake.posts().len(), 1);

    // The month file becomes something no record can be appended to.
    let audit_dir = env.data().join("audit");
    let month = std::fs::read_dir(&audit_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .unwrap();
    std::fs::remove_file(&month).unwrap();
    std::fs::create_dir(&month).unwrap();

    let err = engine
        .llm_complete("work", &req, &Actor::Cli, None)
        .await
        .unwrap_err();
    assert!(matches!(err, LlmError::AuditUnavailable(_)), "{err:?}");
    assert_eq!(fake.posts().len(), 1, "nothing may leave unaudited");
}

fn stdout_json(o: &Output) -> Value {
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    serde_json::from_slice(&o.stdout).unwrap()
}

#[test]
fn providers_cli_lists_toggles_and_refuses_bad_input() {
    let env = Env::new(config_text("http://127.0.0.1:9", ""));
    let v = stdout_json(&env.run(&["providers", "list", "--json"]));
    let local = v["providers"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == "local")
        .unwrap()
        .clone();
    assert_eq!(local["enabled"], true);
    assert_eq!(local["is_default"], true);
    let clinic = v["entities"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["profile"] == "clinic")
        .unwrap()
        .clone();
    assert!(
        clinic["blocked"].as_str().unwrap().contains("HIPAA"),
        "{clinic}"
    );

    // Disabling the provider `work` relies on leaves it blocked: a script must say --yes.
    let o = env.run(&["providers", "disable", "local"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("--yes"));
    let v = stdout_json(&env.run(&["providers", "list", "--json"]));
    assert!(
        v["providers"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "local" && p["enabled"] == true),
        "nothing changed without --yes"
    );
    let o = env.run(&["providers", "disable", "local", "--yes"]);
    assert!(o.status.success());
    assert!(String::from_utf8_lossy(&o.stdout).contains("disabled provider `local`"));
    let v = stdout_json(&env.run(&["providers", "list", "--json"]));
    assert!(
        v["providers"]
            .as_array()
            .unwrap()
            .iter()
            .any(|p| p["name"] == "local" && p["enabled"] == false)
    );
    // The change persisted in providers.json and was audited.
    let overlay = std::fs::read_to_string(env.data().join("providers.json")).unwrap();
    assert!(overlay.contains("\"local\": false"), "{overlay}");
    let o = env.run(&["audit", "verify"]);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));

    // A disabled provider cannot become the default; an unknown name is a usage error.
    assert_eq!(
        env.run(&["providers", "set-default", "local"])
            .status
            .code(),
        Some(2)
    );
    let o = env.run(&["providers", "enable", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("unknown provider"));
    assert_eq!(
        env.run(&["providers", "enable", "local"]).status.code(),
        Some(0)
    );
    assert_eq!(
        env.run(&["providers", "set-default", "local"])
            .status
            .code(),
        Some(0)
    );
}

#[test]
fn config_keys_of_the_router_are_validated() {
    let parse = |extra: &str| {
        let text = format!("[llm.providers.x]\n{extra}\n");
        Config::from_toml_str(&text, Path::new("t.toml")).map_err(|e| e.to_string())
    };
    // Copilot's token endpoint: copilot only, https (or loopback http).
    let ok = parse(
        "kind = \"copilot\"\ntoken_endpoint = \"http://127.0.0.1:9/copilot_internal/v2/token\"",
    )
    .unwrap();
    assert!(ok.llm.providers["x"].token_endpoint.is_some());
    let e = parse("kind = \"copilot\"\ntoken_endpoint = \"http://github.example/t\"").unwrap_err();
    assert!(e.contains("llm.providers.x.token_endpoint"), "{e}");
    let e = parse("kind = \"openai\"\ntoken_endpoint = \"https://x.example/t\"").unwrap_err();
    assert!(e.contains("applies only to kind copilot"), "{e}");
    // Azure: a dated api-version or "v1".
    let azure =
        "kind = \"azure_openai\"\nendpoint = \"https://r.openai.azure.com\"\ndeployment = \"d\"\n";
    assert!(parse(&format!("{azure}api_version = \"v1\"")).is_ok());
    assert!(parse(&format!("{azure}api_version = \"2024-10-21\"")).is_ok());
    let e = parse(&format!("{azure}api_version = \"v2\"")).unwrap_err();
    assert!(e.contains("api_version"), "{e}");
}

#[tokio::test]
async fn a_polish_that_introduces_a_banned_phrase_is_refused() {
    let fake = Fake::start().await;
    fake.script(
        CHAT,
        vec![answer(
            &["Good morning. Buy gift cards for the vendor."],
            5,
            5,
        )],
    );
    let env = Env::new(config_text(
        &fake.url,
        "[hard_bans]\nblocked_phrases = [\"gift cards\"]\n",
    ));
    let engine = env.engine();
    let det = brief(&engine, "work");
    let out = engine
        .polish_brief(
            serde_json::from_value(det.clone()).unwrap(),
            &Actor::Cli,
            Duration::from_secs(20),
        )
        .await;
    let out = serde_json::to_value(out).unwrap();
    assert_eq!(out["polished"], false);
    let why = out["polish_skipped"].as_str().unwrap();
    assert!(why.contains("hard_ban.blocked_phrase"), "{why}");
    assert!(!out["text"].as_str().unwrap().contains("gift cards"));
    assert_eq!(fake.posts().len(), 1);
}
