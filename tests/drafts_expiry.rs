//! Draft expiry: a pending draft older than its kind's time to live (`[drafts.ttl_hours]`,
//! 72 h for outbound mail by default) becomes `expired`, is audited, and can never be approved.

use std::path::Path;

use opsdesk::config::Config;
use opsdesk::domain::{Action, Actor, Outbound, Outcome};
use opsdesk::engine::{Engine, Mode};
use opsdesk::paths::Paths;
use time::{Duration, OffsetDateTime};

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
    let out = engine
        .submit(
            Action::CreateDraft {
                profile: "work".into(),
                outbound,
                provider: None,
            },
            Actor::mcp("claude-code"),
        )
        .unwrap();
    match out {
        Outcome::Queued { draft_id, .. } => draft_id,
        other => panic!("expected a queued draft, got {other:?}"),
    }
}

fn mail() -> Outbound {
    Outbound::SendEmail {
        to: vec!["bob@contoso.com".into()],
        cc: vec![],
        subject: "Contract".into(),
        body: "Signed copy attached.".into(),
        attachments: Vec::new(),
        body_html: None,
    }
}

fn chat() -> Outbound {
    Outbound::PostChat {
        chat_id: "19:team".into(),
        body: "on my way".into(),
    }
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

fn approve(engine: &Engine, id: &str) -> Result<Outcome, opsdesk::engine::EngineError> {
    engine.submit(
        Action::ApproveDraft {
            id: id.into(),
            digest: None,
        },
        Actor::Console,
    )
}

fn audited(engine: &Engine, event: &str, id: &str) -> usize {
    engine
        .audit_tail(1000)
        .unwrap()
        .iter()
        .filter(|r| r.event.event == event && r.event.target.as_deref() == Some(id))
        .count()
}

#[test]
fn outbound_mail_expires_after_72_hours_by_default_and_is_then_never_approvable() {
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(dir.path(), CONFIG);
    let (m, c) = (create(&engine, mail()), create(&engine, chat()));
    let t0 = engine.draft(&m).unwrap().unwrap().created_at;

    assert!(
        engine
            .expire_drafts(t0 + Duration::hours(71))
            .unwrap()
            .is_empty()
    );
    assert_eq!(status(&engine, &m), "pending");

    assert_eq!(
        engine.expire_drafts(t0 + Duration::hours(73)).unwrap(),
        vec![m.clone()]
    );
    assert_eq!(status(&engine, &m), "expired");
    assert_eq!(
        status(&engine, &c),
        "pending",
        "chat has no time to live by default"
    );
    let d = engine.draft(&m).unwrap().unwrap();
    assert!(d.reason.unwrap().contains("72 h"));
    assert_eq!(audited(&engine, "draft.expired", &m), 1);

    let e = approve(&engine, &m).expect_err("an expired draft cannot be approved");
    assert!(e.to_string().contains("expired"), "{e}");
    assert_eq!(status(&engine, &m), "expired");
    // Sweeping again changes nothing.
    assert!(
        engine
            .expire_drafts(t0 + Duration::hours(200))
            .unwrap()
            .is_empty()
    );
    assert_eq!(audited(&engine, "draft.expired", &m), 1);
}

#[test]
fn an_approval_never_beats_a_sweep_that_has_not_run() {
    let dir = tempfile::tempdir().unwrap();
    let id = create(&engine(dir.path(), CONFIG), mail());
    // The draft was written 80 hours ago (its log entry backdated; the digest covers content only).
    let log = dir.path().join("drafts/drafts.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    let old = (OffsetDateTime::now_utc() - Duration::hours(80))
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let mut v: serde_json::Value = serde_json::from_str(text.lines().next().unwrap()).unwrap();
    v["ts"] = old.into();
    std::fs::write(&log, format!("{v}\n")).unwrap();

    let engine = engine(dir.path(), CONFIG);
    assert_eq!(status(&engine, &id), "pending");
    approve(&engine, &id).expect_err("expired at the moment of approval");
    assert_eq!(status(&engine, &id), "expired");
    assert_eq!(audited(&engine, "draft.expired", &id), 1);
}

#[test]
fn time_to_live_is_configurable_per_kind_and_validated() {
    let dir = tempfile::tempdir().unwrap();
    let config = format!("{CONFIG}\n[drafts.ttl_hours]\npost_chat = 2\nreply_email = 0\n");
    let engine = engine(dir.path(), &config);
    let (m, c) = (create(&engine, mail()), create(&engine, chat()));
    let t0 = engine.draft(&c).unwrap().unwrap().created_at;
    assert_eq!(
        engine.expire_drafts(t0 + Duration::hours(3)).unwrap(),
        vec![c.clone()]
    );
    assert_eq!(status(&engine, &m), "pending");
    // Naming other kinds keeps mail's default; 0 switches a kind's expiry off.
    assert_eq!(engine.config().drafts.ttl_hours["send_email"], 72);
    assert_eq!(engine.config().drafts.ttl("reply_email"), None);
    assert_eq!(
        engine.expire_drafts(t0 + Duration::hours(73)).unwrap(),
        vec![m.clone()]
    );

    let bad = |extra: &str| {
        Config::from_toml_str(&format!("{CONFIG}\n{extra}"), Path::new("t.toml"))
            .map(|_| ())
            .unwrap_err()
            .to_string()
    };
    let e = bad("[drafts.ttl_hours]\nsend_mail = 72\n");
    assert!(
        e.contains("not an action kind") && e.contains("send_email"),
        "{e}"
    );
    let e = bad("[drafts.ttl_hours]\nsend_email = 100000\n");
    assert!(e.contains("allowed: 1 to"), "{e}");
}

#[test]
fn only_the_engine_may_expire_a_draft() {
    use opsdesk::domain::{DraftEvent, DraftEventKind};
    let dir = tempfile::tempdir().unwrap();
    let engine = engine(dir.path(), CONFIG);
    let id = create(&engine, mail());
    let ev = DraftEvent {
        ts: OffsetDateTime::now_utc(),
        draft_id: id,
        actor: Actor::mcp("claude-code"),
        kind: DraftEventKind::Expired { ttl_hours: 72 },
        audit: None,
    };
    let e = engine.check_draft_event(&ev).unwrap_err();
    assert!(e.to_string().contains("only the engine"), "{e}");
}

/// Write the log's first event (the draft's creation) `hours` into the past.
fn backdate_creation(dir: &Path, hours: i64) {
    let log = dir.join("drafts/drafts.jsonl");
    let text = std::fs::read_to_string(&log).unwrap();
    let old = (OffsetDateTime::now_utc() - Duration::hours(hours))
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut v: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    v["ts"] = old.into();
    lines[0] = v.to_string();
    std::fs::write(&log, lines.join("\n") + "\n").unwrap();
}

fn requeue(
    engine: &Engine,
    id: &str,
    actor: Actor,
) -> Result<Outcome, opsdesk::engine::EngineError> {
    engine.submit(
        Action::RequeueDraft {
            id: id.into(),
            digest: None,
        },
        actor,
    )
}

#[test]
fn an_expired_draft_is_requeued_by_the_operator_as_a_new_draft_with_a_fresh_time_to_live() {
    let dir = tempfile::tempdir().unwrap();
    let id = create(&engine(dir.path(), CONFIG), mail());
    backdate_creation(dir.path(), 80);
    let engine = engine(dir.path(), CONFIG);
    engine.expire_drafts(OffsetDateTime::now_utc()).unwrap();
    assert_eq!(status(&engine, &id), "expired");
    let old = engine.draft(&id).unwrap().unwrap();

    // Nobody but the operator re-queues; a pending draft is not re-queued.
    let out = requeue(&engine, &id, Actor::mcp("claude-code")).unwrap();
    assert!(
        matches!(out, Outcome::Blocked { ref rule, .. } if rule == "operator_only_approval"),
        "{out:?}"
    );

    let before = OffsetDateTime::now_utc();
    let (new, digest) = match requeue(&engine, &id, Actor::Console).unwrap() {
        Outcome::Queued {
            draft_id, digest, ..
        } => (draft_id, digest),
        other => panic!("expected a queued draft, got {other:?}"),
    };
    assert_ne!(new, id);
    let d = engine.draft(&new).unwrap().unwrap();
    assert_eq!(d.status.as_str(), "pending");
    assert_eq!(d.outbound, old.outbound);
    assert_eq!(
        (d.digest.as_str(), digest.as_str()),
        (old.digest.as_str(), old.digest.as_str())
    );
    assert_eq!(d.requeued_from.as_deref(), Some(id.as_str()));
    assert_eq!(
        d.created_by, old.created_by,
        "the author stays who wrote it"
    );
    assert!(d.created_at >= before, "age counts from the re-queue");
    // The expired draft stays expired and names its successor; it is re-queued only once.
    let gone = engine.draft(&id).unwrap().unwrap();
    assert_eq!(gone.status.as_str(), "expired");
    assert_eq!(gone.requeued_as.as_deref(), Some(new.as_str()));
    let e = requeue(&engine, &id, Actor::Cli).unwrap_err();
    assert!(e.to_string().contains("already re-queued"), "{e}");
    let e = requeue(&engine, &new, Actor::Cli).unwrap_err();
    assert!(e.to_string().contains("only an expired draft"), "{e}");
    // Audited and bound like every draft event.
    assert_eq!(audited(&engine, "draft.requeue", &new), 1);
    assert!(engine.draft_queue().unwrap().unbound.is_empty());
    let life = engine.draft_history(&id).unwrap();
    assert_eq!(life.last().unwrap().kind.name(), "requeued");

    // A fresh time to live: 71 h after the re-queue it still waits, 73 h after it expires.
    assert!(
        engine
            .expire_drafts(d.created_at + Duration::hours(71))
            .unwrap()
            .is_empty()
    );
    approve(&engine, &new).expect("the re-queued draft is approvable with its own digest");
    assert_eq!(status(&engine, &new), "approved");
}

#[test]
fn a_requeue_needs_the_content_the_operator_saw_and_todays_rules() {
    let dir = tempfile::tempdir().unwrap();
    let id = create(&engine(dir.path(), CONFIG), mail());
    backdate_creation(dir.path(), 80);
    let engine = engine(dir.path(), CONFIG);
    engine.expire_drafts(OffsetDateTime::now_utc()).unwrap();
    let e = engine
        .submit(
            Action::RequeueDraft {
                id: id.clone(),
                digest: Some("0".repeat(64)),
            },
            Actor::Console,
        )
        .unwrap_err();
    assert!(e.to_string().contains("not the expired draft's"), "{e}");
    // A ban added while the draft waited stops its re-queue.
    let banned = format!("{CONFIG}\n[hard_bans]\nblocked_phrases = [\"Signed copy\"]\n");
    let strict = self::engine(dir.path(), &banned);
    let out = requeue(&strict, &id, Actor::Console).unwrap();
    assert!(matches!(out, Outcome::Blocked { .. }), "{out:?}");
    assert!(strict.draft(&id).unwrap().unwrap().requeued_as.is_none());
}

#[test]
fn the_cli_requeues_an_expired_draft() {
    let dir = tempfile::tempdir().unwrap();
    let id = create(&engine(dir.path(), CONFIG), mail());
    backdate_creation(dir.path(), 80);
    engine(dir.path(), CONFIG)
        .expire_drafts(OffsetDateTime::now_utc())
        .unwrap();
    let cfg = dir.path().join("config.toml");
    std::fs::write(&cfg, CONFIG).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_opsdesk"))
        .env("OPSDESK_DATA_DIR", dir.path())
        .env("OPSDESK_CONFIG", &cfg)
        .env("XDG_CONFIG_HOME", dir.path().join("xdg"))
        .args(["--json", "drafts", "requeue", &id])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let new = v["draft_id"].as_str().unwrap().to_string();
    let engine = engine(dir.path(), CONFIG);
    assert_eq!(status(&engine, &new), "pending");
    assert_eq!(audited(&engine, "draft.requeue", &new), 1);
}
