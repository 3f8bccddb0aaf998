//! Batch decisions: several drafts approved or rejected in one step, only for kinds the ladder
//! lets be batched (`[drafts] batch_kinds`, `batch_internal_mail`; mail to outsiders is not
//! by default). Each decision is bound to its own digest and audited on its own.

use std::path::Path;

use opsdesk::config::Config;
use opsdesk::domain::{Action, Actor, BatchDecision, BatchItem, Outbound, Outcome};
use opsdesk::engine::{Engine, Mode};
use opsdesk::paths::Paths;

const CONFIG: &str = r#"
[profiles.work]
sources = ["spool"]
email_domains = ["contoso.com"]
"#;

fn engine(dir: &Path, config: &str) -> Engine {
    let paths = Paths::resolve(Some(dir.to_path_buf()), Some(dir.join("config.toml"))).unwrap();
    let config = Config::from_toml_str(config, Path::new("test.toml")).unwrap();
    Engine::open(paths, config, Mode::Secondary).unwrap()
}

fn create(engine: &Engine, outbound: Outbound) -> String {
    match engine
        .submit(
            Action::CreateDraft {
                profile: "work".into(),
                outbound,
                provider: None,
            },
            Actor::mcp("claude-code"),
        )
        .unwrap()
    {
        Outcome::Queued { draft_id, .. } => draft_id,
        other => panic!("expected a queued draft, got {other:?}"),
    }
}

fn mail(to: &str, subject: &str) -> Outbound {
    Outbound::SendEmail {
        to: vec![to.into()],
        cc: vec![],
        subject: subject.into(),
        body: "Details inside.".into(),
        attachments: vec![],
        body_html: None,
    }
}

fn chat(body: &str) -> Outbound {
    Outbound::PostChat {
        chat_id: "19:team".into(),
        body: body.into(),
    }
}

fn items(engine: &Engine, ids: &[&str]) -> Vec<BatchItem> {
    ids.iter()
        .map(|id| BatchItem {
            id: id.to_string(),
            digest: engine.draft(id).unwrap().unwrap().digest,
        })
        .collect()
}

fn batch(engine: &Engine, decision: BatchDecision, items: Vec<BatchItem>, actor: Actor) -> Outcome {
    engine
        .submit(Action::DecideDrafts { decision, items }, actor)
        .unwrap()
}

fn status(engine: &Engine, id: &str) -> String {
    engine
        .draft(id)
        .unwrap()
        .unwrap()
        .status
        .as_str()
        .to_string()
}

fn records(engine: &Engine, event: &str, outcome: &str) -> Vec<opsdesk::domain::AuditRecord> {
    engine
        .audit_tail(1000)
        .unwrap()
        .into_iter()
        .filter(|r| r.event.event == event && r.event.outcome.as_str() == outcome)
        .collect()
}

#[test]
fn eligible_drafts_are_approved_together_each_on_its_own_digest_and_record() {
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(dir.path(), CONFIG);
    let c = create(&engine, chat("standup moved"));
    let m = create(&engine, mail("ann@contoso.com", "Team lunch"));
    let out = batch(
        &engine,
        BatchDecision::Approve,
        items(&engine, &[&c, &m]),
        Actor::Console,
    );
    let Outcome::Done { detail } = out else {
        panic!("{out:?}")
    };
    // Its JSON is the batch's report as `--json` prints it.
    let detail = serde_json::to_value(&detail).unwrap();
    assert_eq!(detail["decided"], 2, "{detail}");
    for id in [&c, &m] {
        let d = engine.draft(id).unwrap().unwrap();
        assert_eq!(d.status.as_str(), "approved");
        assert_eq!(d.approved_digest.as_deref(), Some(d.digest.as_str()));
    }
    let approvals = records(&engine, "draft.approve", "ok");
    let targets: Vec<_> = approvals
        .iter()
        .map(|r| r.event.target.clone().unwrap())
        .collect();
    assert_eq!(targets, [c.clone(), m.clone()], "one record per decision");
    assert_eq!(records(&engine, "draft.batch", "ok").len(), 1);
    assert!(engine.draft_queue().unwrap().unbound.is_empty());
}

#[test]
fn one_ineligible_draft_refuses_the_whole_batch_and_nothing_is_decided() {
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(dir.path(), CONFIG);
    let c = create(&engine, chat("standup moved"));
    let ext = create(&engine, mail("bob@outside.org", "Quote"));
    for decision in [
        BatchDecision::Approve,
        BatchDecision::Reject {
            reason: "stale".into(),
        },
    ] {
        let out = batch(&engine, decision, items(&engine, &[&c, &ext]), Actor::Cli);
        let Outcome::Blocked { rule, reason, .. } = out else {
            panic!("{out:?}")
        };
        assert_eq!(rule, "batch.ineligible_kind");
        assert!(
            reason.contains(&ext) && reason.contains("bob@outside.org"),
            "{reason}"
        );
        assert!(!reason.contains(&format!("{c}:")), "{reason}");
    }
    assert_eq!(status(&engine, &c), "pending");
    assert_eq!(status(&engine, &ext), "pending");
    assert_eq!(records(&engine, "draft.batch", "blocked").len(), 2);
    assert!(records(&engine, "draft.approve", "ok").is_empty());

    // Nobody but the operator decides; a batch of one client is refused too.
    let out = batch(
        &engine,
        BatchDecision::Approve,
        items(&engine, &[&c]),
        Actor::mcp("x"),
    );
    assert!(matches!(out, Outcome::Blocked { ref rule, .. } if rule == "operator_only_approval"));
    assert_eq!(status(&engine, &c), "pending");
}

#[test]
fn eligibility_is_configurable_and_a_changed_draft_is_not_approved() {
    let dir = tempfile::tempdir().unwrap();
    let config = format!(
        "{CONFIG}\n[drafts]\nbatch_kinds = [\"send_email\"]\nbatch_internal_mail = false\n"
    );
    let engine = engine(dir.path(), &config);
    let ext = create(&engine, mail("bob@outside.org", "Quote"));
    let c = create(&engine, chat("standup moved"));
    let out = batch(
        &engine,
        BatchDecision::Approve,
        items(&engine, &[&c]),
        Actor::Cli,
    );
    assert!(
        matches!(out, Outcome::Blocked { .. }),
        "chat is no longer batchable: {out:?}"
    );

    let other = create(&engine, mail("carol@elsewhere.org", "Offer"));
    let mut its = items(&engine, &[&ext, &other]);
    // The operator saw an older content of `other`: that approval must not go through.
    its[1].digest = "0".repeat(64);
    let Outcome::Done { detail } = batch(&engine, BatchDecision::Approve, its, Actor::Cli) else {
        panic!()
    };
    let detail = serde_json::to_value(&detail).unwrap();
    assert_eq!(detail["decided"], 1, "{detail}");
    assert_eq!(status(&engine, &ext), "approved");
    assert_eq!(status(&engine, &other), "pending");
    assert_eq!(detail["results"][1]["outcome"], "error", "{detail}");

    let bad = Config::from_toml_str(
        &format!("{CONFIG}\n[drafts]\nbatch_kinds = [\"send_mail\"]\n"),
        Path::new("t.toml"),
    )
    .map(|_| ())
    .unwrap_err()
    .to_string();
    assert!(
        bad.contains("batch_kinds") && bad.contains("not a draft kind"),
        "{bad}"
    );
}

#[test]
fn the_cli_approves_a_batch_and_refuses_ineligible_kinds_with_exit_4() {
    let dir = tempfile::tempdir().unwrap();
    let (c, m, ext) = {
        let engine = engine(dir.path(), CONFIG);
        (
            create(&engine, chat("standup moved")),
            create(&engine, mail("ann@contoso.com", "Team lunch")),
            create(&engine, mail("bob@outside.org", "Quote")),
        )
    };
    let cfg = dir.path().join("config.toml");
    std::fs::write(&cfg, CONFIG).unwrap();
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_opsdesk"))
            .env("OPSDESK_DATA_DIR", dir.path())
            .env("OPSDESK_CONFIG", &cfg)
            .env("XDG_CONFIG_HOME", dir.path().join("xdg"))
            .stdin(std::process::Stdio::null())
            .args(args)
            .output()
            .unwrap()
    };
    let out = run(&["drafts", "approve", &c, &ext, "--yes"]);
    assert_eq!(
        out.status.code(),
        Some(4),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("batch.ineligible_kind") && err.contains(&ext),
        "{err}"
    );
    // Without --yes and no terminal, nothing is decided either.
    let out = run(&["drafts", "approve", &c, &m]);
    assert_ne!(out.status.code(), Some(0));
    let engine = engine(dir.path(), CONFIG);
    assert_eq!(status(&engine, &c), "pending");

    let out = run(&["drafts", "approve", &c, &m, "--yes"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains(&format!("approved {c}")) && text.contains(&format!("approved {m}")),
        "{text}"
    );
    assert_eq!(status(&engine, &c), "approved");
    assert_eq!(status(&engine, &m), "approved");
    assert_eq!(status(&engine, &ext), "pending");
}
