//! Governance is one code path: the same action gets the same verdict whichever surface
//! submits it (console, CLI, MCP), and every block is explained and audited.

mod mcp_support;

use std::path::Path;

use opsdesk::config::Config;
use opsdesk::domain::{Action, Actor, AuditOutcome, Channel, NewMessage, Outbound, Outcome, Party};
use opsdesk::engine::{Engine, Mode};
use opsdesk::paths::Paths;
use serde_json::{Value, json};

const CONFIG: &str = r#"
[profiles.work]
sources = ["spool"]
email_domains = ["contoso.com"]
never_mix_with = ["clinic"]

[profiles.clinic]
sources = ["spool"]
email_domains = ["riversideclinic.org"]
phi_names = ["Margaret Okafor"]

[hard_bans]
blocked_recipient_domains = ["competitor.example"]
blocked_phrases = ["gift cards"]
"#;

const CLINIC_NOTE: &str = "Lab results for the 3pm patient came back; the potassium level is \
                           elevated and the nephrology consult should be moved up to Thursday.";

fn engine(dir: &Path, config: &str) -> Engine {
    let paths = Paths::resolve(Some(dir.to_path_buf()), Some(dir.join("config.toml"))).unwrap();
    let config = Config::from_toml_str(config, Path::new("test.toml")).unwrap();
    Engine::open(paths, config, Mode::Secondary).unwrap()
}

fn message(id: &str, profile: &str, text: &str) -> NewMessage {
    NewMessage {
        id: id.into(),
        profile: profile.into(),
        channel: Channel::Email,
        thread_id: None,
        from: Party::new("Dr. Lee", "lee@riversideclinic.org"),
        to: vec![],
        subject: Some("Labs".into()),
        ts: time::OffsetDateTime::now_utc(),
        body: text.into(),
        html: false,
        meta: Default::default(),
        attachments: Vec::new(),
    }
}

fn email(to: &str, subject: &str, body: &str) -> Outbound {
    Outbound::SendEmail {
        to: vec![to.into()],
        cc: vec![],
        subject: subject.into(),
        body: body.into(),
        attachments: Vec::new(),
        body_html: None,
    }
}

/// The cases: (what, action, expected rule or None for "queued for approval").
fn cases() -> Vec<(&'static str, Action, Option<&'static str>)> {
    let draft = |profile: &str, o: Outbound| Action::CreateDraft {
        profile: profile.into(),
        outbound: o,
        provider: None,
    };
    vec![
        (
            "a clean draft",
            draft("work", email("bob@contoso.com", "Renewal", "Yes, renew.")),
            None,
        ),
        (
            "a banned recipient domain",
            draft("work", email("ceo@competitor.example", "Hi", "Hello")),
            Some("hard_ban.blocked_recipient_domain"),
        ),
        (
            "a banned phrase",
            draft(
                "work",
                email("bob@contoso.com", "Quick favour", "Buy gift cards"),
            ),
            Some("hard_ban.blocked_phrase"),
        ),
        (
            "a work draft to the clinic",
            draft(
                "work",
                email("frontdesk@riversideclinic.org", "Hi", "Hello"),
            ),
            Some("entity_boundary.recipient"),
        ),
        (
            "a clinic patient named in a work draft",
            draft(
                "work",
                email("bob@contoso.com", "Late", "Margaret Okafor called"),
            ),
            Some("entity_boundary.content"),
        ),
        (
            "clinic text copied into a work draft",
            draft(
                "work",
                email(
                    "bob@contoso.com",
                    "FYI",
                    "the potassium level is elevated and the nephrology consult should be moved up",
                ),
            ),
            Some("entity_boundary.content"),
        ),
        (
            "a reply to a clinic message from the work profile",
            draft(
                "work",
                Outbound::ReplyEmail {
                    message_id: "clinic-1".into(),
                    to: vec!["bob@contoso.com".into()],
                    subject: "Re: Labs".into(),
                    body: "Noted".into(),
                    attachments: Vec::new(),
                    body_html: None,
                },
            ),
            Some("entity_boundary.reply_profile"),
        ),
    ]
}

fn verdict(o: &Outcome) -> Option<String> {
    match o {
        Outcome::Queued { .. } => None,
        Outcome::Blocked { rule, .. } => Some(rule.clone()),
        other => panic!("a draft action must queue or block, got {other:?}"),
    }
}

#[test]
fn the_same_action_gets_the_same_verdict_from_the_console_the_cli_and_an_mcp_client() {
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(dir.path(), CONFIG);
    engine
        .ingest(message("clinic-1", "clinic", CLINIC_NOTE), "test")
        .unwrap();
    for (what, action, expected) in cases() {
        for actor in [Actor::Console, Actor::Cli, Actor::mcp("claude-code")] {
            let out = engine.submit(action.clone(), actor.clone()).unwrap();
            assert_eq!(
                verdict(&out).as_deref(),
                expected,
                "{what} from {actor}: {out:?}"
            );
            if let Outcome::Blocked { reason, remedy, .. } = &out {
                assert!(
                    !reason.is_empty() && !remedy.is_empty(),
                    "{what}: unexplained"
                );
            }
        }
    }
    // Each block is in the audit trail with its rule, once per surface.
    let records = engine.audit_tail(500).unwrap();
    for (what, _, expected) in cases() {
        let Some(rule) = expected else { continue };
        let actors: Vec<String> = records
            .iter()
            .filter(|r| {
                r.event.outcome == AuditOutcome::Blocked
                    && r.event
                        .reason
                        .as_deref()
                        .is_some_and(|x| x.starts_with(rule))
            })
            .map(|r| r.event.actor.to_string())
            .collect();
        for a in ["console", "cli", "mcp:claude-code"] {
            assert!(
                actors.iter().any(|x| x == a),
                "{what}: no audited block by {a}: {actors:?}"
            );
        }
    }
}

#[test]
fn an_approval_is_judged_again_against_the_rules_of_the_moment() {
    let dir = tempfile::tempdir().unwrap();
    let lenient = CONFIG.replace("blocked_phrases = [\"gift cards\"]", "blocked_phrases = []");
    let id = {
        let engine = engine(dir.path(), &lenient);
        let out = engine
            .submit(
                Action::CreateDraft {
                    profile: "work".into(),
                    outbound: email("bob@contoso.com", "Favour", "Buy gift cards"),
                    provider: None,
                },
                Actor::mcp("claude-code"),
            )
            .unwrap();
        match out {
            Outcome::Queued { draft_id, .. } => draft_id,
            other => panic!("{other:?}"),
        }
    };
    // The operator adds the ban; approving the old draft is now refused.
    let engine = engine(dir.path(), CONFIG);
    let out = engine
        .submit(
            Action::ApproveDraft {
                id: id.clone(),
                digest: None,
            },
            Actor::Console,
        )
        .unwrap();
    assert_eq!(verdict(&out).as_deref(), Some("hard_ban.blocked_phrase"));
    assert_eq!(
        engine.draft(&id).unwrap().unwrap().status.as_str(),
        "pending"
    );
}

#[test]
fn a_blocked_ladder_level_stops_reads_from_every_surface() {
    let dir = tempfile::tempdir().unwrap();
    let config = format!("{CONFIG}\n[autonomy]\nread = \"blocked\"\n");
    let engine = engine(dir.path(), &config);
    for actor in [Actor::Console, Actor::Cli, Actor::mcp("claude-code")] {
        let out = engine
            .submit(Action::Query(opsdesk::domain::Query::Status), actor.clone())
            .unwrap();
        assert_eq!(
            verdict(&out).as_deref(),
            Some("autonomy.blocked"),
            "{actor}"
        );
    }
}

#[test]
fn no_mcp_client_can_change_llm_providers() {
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(dir.path(), CONFIG);
    let out = engine
        .submit(
            Action::SetProviderEnabled {
                name: "openai".into(),
                enabled: true,
            },
            Actor::mcp("claude-code"),
        )
        .unwrap();
    assert_eq!(
        verdict(&out).as_deref(),
        Some("operator_only_provider_change")
    );
}

/// Through the real surfaces: the CLI binary and an MCP client over HTTP against
/// `opsdesk serve`, on one data dir.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_cli_and_an_mcp_client_are_refused_by_the_same_rule() {
    let server = mcp_support::Server::start(&[], Some(CONFIG));
    let config = server.data_dir.parent().unwrap().join("config.toml");
    let config = config.to_str().unwrap();
    let o = server.cli(&[
        "--config",
        config,
        "drafts",
        "new",
        "--profile",
        "work",
        "--to",
        "frontdesk@riversideclinic.org",
        "--subject",
        "Hi",
        "--body",
        "Hello",
    ]);
    assert_eq!(
        o.status.code(),
        Some(4),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );
    assert!(
        String::from_utf8_lossy(&o.stderr).contains("entity_boundary.recipient"),
        "{}",
        String::from_utf8_lossy(&o.stderr)
    );

    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {
            "name": "draft_email",
            "arguments": {"profile": "work", "to": ["frontdesk@riversideclinic.org"], "subject": "Hi", "body": "Hello"},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": {},
                "io.modelcontextprotocol/clientInfo": {"name": "governance-test", "version": "1"}
            }
        }
    });
    let resp = reqwest::Client::new()
        .post(&server.url)
        .header("content-type", "application/json")
        .header("accept", "application/json, text/event-stream")
        .header("authorization", format!("Bearer {}", server.token))
        .header("mcp-protocol-version", "2026-07-28")
        .header("mcp-method", "tools/call")
        .header("mcp-name", "draft_email")
        .body(body.to_string())
        .send()
        .await
        .unwrap();
    let text = resp.text().await.unwrap();
    let v: Value = serde_json::from_str(&text).unwrap_or_else(|_| {
        text.lines()
            .filter_map(|l| l.strip_prefix("data:"))
            .filter_map(|d| serde_json::from_str(d.trim()).ok())
            .next_back()
            .unwrap_or(Value::Null)
    });
    let result = &v["result"];
    assert_eq!(result["isError"], true, "{v}");
    assert_eq!(result["structuredContent"]["blocked"], true, "{v}");
    assert_eq!(
        result["structuredContent"]["rule"], "entity_boundary.recipient",
        "{v}"
    );
    assert!(result["structuredContent"]["remedy"].is_string(), "{v}");
    // Nothing was queued by either.
    let o = server.cli(&["--config", config, "--json", "drafts", "list", "--all"]);
    let list: Value = serde_json::from_slice(&o.stdout).unwrap_or(Value::Null);
    assert_eq!(list.as_array().map(|a| a.len()), Some(0), "{list}");
}

#[test]
fn a_boundary_refusal_says_nothing_of_the_other_profile_and_a_prober_is_paused() {
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(dir.path(), CONFIG);
    engine
        .ingest(
            message(
                "clinic-1",
                "clinic",
                &format!("DOB: 1958-03-14. {CLINIC_NOTE}"),
            ),
            "test",
        )
        .unwrap();
    let draft = |body: &str| Action::CreateDraft {
        profile: "work".into(),
        outbound: email("bob@contoso.com", "Note", body),
        provider: None,
    };
    let blocked = |out: Result<Outcome, _>| match out {
        Ok(Outcome::Blocked { rule, reason, .. }) => (rule, reason),
        other => panic!("not blocked: {other:?}"),
    };
    let client = Actor::mcp("default/prober");
    // The reason names neither the person nor the passage that matched: a right and a wrong
    // guess at a date of birth read the same.
    let (rule, reason) = blocked(engine.submit(draft("Margaret Okafor called"), client.clone()));
    assert_eq!(rule, "entity_boundary.content");
    assert!(
        !reason.contains("Okafor") && !reason.contains("Margaret"),
        "{reason}"
    );
    let (_, right) = blocked(engine.submit(
        draft("DOB: 1958-03-14. Lab results for the 3pm patient came back; the potassium"),
        client.clone(),
    ));
    let (_, wrong) = blocked(engine.submit(
        draft("DOB: 1958-03-15. Lab results for the 3pm patient came back; the potassium"),
        client.clone(),
    ));
    assert_eq!(right, wrong);
    assert!(
        !right.contains("1958") && !right.contains("potassium"),
        "{right}"
    );
    // Three such refusals in an hour: this credential's drafts are refused unread, a clean one
    // too, whatever name the client gives itself.
    for who in ["default/prober", "default/renamed"] {
        let (rule, _) = blocked(engine.submit(draft("Renewal: yes."), Actor::mcp(who)));
        assert_eq!(rule, "entity_boundary.paused", "{who}");
    }
    // Other credentials and the operator are not affected.
    assert!(matches!(
        engine
            .submit(draft("Renewal: yes."), Actor::mcp("agent/claude-code"))
            .unwrap(),
        Outcome::Queued { .. }
    ));
    assert!(matches!(
        engine.submit(draft("Renewal: yes."), Actor::Cli).unwrap(),
        Outcome::Queued { .. }
    ));
    let paused = engine
        .audit_tail(50)
        .unwrap()
        .into_iter()
        .filter(|r| {
            r.event
                .reason
                .as_deref()
                .is_some_and(|x| x.starts_with("entity_boundary.paused"))
        })
        .count();
    assert_eq!(paused, 2, "each paused draft is audited");
}
