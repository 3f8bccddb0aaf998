//! The demo executor behind the same adapter trait as Microsoft Graph: in the demo, an approved
//! draft is really carried out into `<data>/demo-outbox/sent.jsonl` (0600), recorded as
//! `executed` with where it went, exactly once — also when the record of the execution was lost.

use std::collections::HashMap;
use std::os::unix::fs::PermissionsExt;
use std::sync::Arc;

use opsdesk::config::Config;
use opsdesk::domain::{Action, Actor, DraftStatus, Outbound, Outcome};
use opsdesk::engine::outbound::{DemoOutbox, OutboundExecutor};
use opsdesk::engine::{Engine, Mode, executor};
use opsdesk::paths::Paths;

fn create_and_approve(engine: &Engine, body: &str) -> String {
    let Outcome::Queued {
        draft_id, digest, ..
    } = engine
        .submit(
            Action::CreateDraft {
                profile: "work".into(),
                outbound: Outbound::SendEmail {
                    to: vec!["ann@contoso.com".into()],
                    cc: vec![],
                    subject: "Numbers".into(),
                    body: body.into(),
                    attachments: Vec::new(),
                    body_html: None,
                },
                provider: None,
            },
            Actor::mcp("demo-assistant"),
        )
        .unwrap()
    else {
        panic!("not queued")
    };
    engine
        .submit(
            Action::ApproveDraft {
                id: draft_id.clone(),
                digest: Some(digest),
            },
            Actor::Cli,
        )
        .unwrap();
    draft_id
}

fn lines(path: &std::path::Path) -> Vec<serde_json::Value> {
    std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_approved_demo_draft_lands_in_the_demo_outbox_once_and_is_recorded_as_sent() {
    let tmp = tempfile::tempdir().unwrap();
    let paths = Paths::resolve(Some(tmp.path().to_path_buf()), None).unwrap();
    let engine = Arc::new(Engine::open(paths, Config::demo(), Mode::Primary).unwrap());
    let outbox = Arc::new(DemoOutbox::new(
        tmp.path(),
        vec!["work".into(), "clinic".into()],
    ));
    let executors: Vec<Arc<dyn OutboundExecutor>> = vec![outbox.clone()];
    let file = tmp.path().join("demo-outbox/sent.jsonl");
    assert_eq!(outbox.file(), file);
    let mut retry = HashMap::new();

    let id = create_and_approve(&engine, "Q3 numbers attached.");
    executor::run_once(&engine, &executors, &mut retry).await;
    let d = engine.draft(&id).unwrap().unwrap();
    assert_eq!(d.status, DraftStatus::Executed, "{:?}", d.reason);
    assert_eq!(d.remote_id.as_deref(), Some("demo-outbox/sent.jsonl#1"));
    let sent = lines(&file);
    assert_eq!(sent.len(), 1);
    assert_eq!(sent[0]["draft_id"], id.as_str());
    assert_eq!(sent[0]["profile"], "work");
    assert_eq!(sent[0]["kind"], "send_email");
    assert_eq!(sent[0]["to"][0], "ann@contoso.com");
    assert_eq!(sent[0]["body"], "Q3 numbers attached.");
    assert!(sent[0]["sent_at"].as_str().unwrap().ends_with('Z'));
    let mode = std::fs::metadata(&file).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode, 0o600);

    // Executed drafts are not carried out again.
    executor::run_once(&engine, &executors, &mut retry).await;
    assert_eq!(lines(&file).len(), 1);

    // A crash after the append, before `executed` was recorded: the outbox already holds it,
    // so the retry records it without a second copy.
    let id2 = create_and_approve(&engine, "Second.");
    let d2 = engine.draft(&id2).unwrap().unwrap();
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&file)
        .unwrap();
    use std::io::Write;
    writeln!(
        f,
        "{}",
        serde_json::json!({"sent_at": "2026-11-22T07:00:00Z", "draft_id": d2.id, "profile": "work",
            "kind": "send_email", "to": ["ann@contoso.com"], "subject": "Numbers", "body": "Second."})
    )
    .unwrap();
    executor::run_once(&engine, &executors, &mut retry).await;
    let d2 = engine.draft(&id2).unwrap().unwrap();
    assert_eq!(d2.status, DraftStatus::Executed);
    assert_eq!(d2.remote_id.as_deref(), Some("demo-outbox/sent.jsonl#2"));
    assert_eq!(lines(&file).len(), 2);

    // A pending draft is not carried out.
    let Outcome::Queued { draft_id: id3, .. } = engine
        .submit(
            Action::CreateDraft {
                profile: "work".into(),
                outbound: Outbound::PostChat {
                    chat_id: "19:x".into(),
                    body: "hi".into(),
                },
                provider: None,
            },
            Actor::mcp("demo-assistant"),
        )
        .unwrap()
    else {
        panic!("not queued")
    };
    executor::run_once(&engine, &executors, &mut retry).await;
    assert_eq!(
        engine.draft(&id3).unwrap().unwrap().status,
        DraftStatus::Pending
    );
    assert_eq!(lines(&file).len(), 2);

    // The attempt and the result are audited, naming the executor and the target.
    let audit = std::fs::read_dir(tmp.path().join("audit"))
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap_or_default())
        .collect::<String>();
    assert!(audit.contains("send_email attempt via demo"));
    assert!(audit.contains("demo-outbox/sent.jsonl#1"));
}
