//! The approval queue: an event log whose fold enforces who may decide and what an approval
//! covers.

use opsdesk::domain::{
    Actor, DraftEvent, DraftEventKind, DraftStatus, Outbound, Verdict, content_digest,
};
use opsdesk::store::drafts::Drafts;

fn email(body: &str) -> Outbound {
    Outbound::SendEmail {
        to: vec!["bob@contoso.com".into()],
        cc: vec![],
        subject: "Renewal".into(),
        body: body.into(),
    }
}

fn ev(id: &str, actor: Actor, kind: DraftEventKind) -> DraftEvent {
    DraftEvent {
        ts: time::OffsetDateTime::now_utc(),
        draft_id: id.into(),
        actor,
        kind,
    }
}

fn created(id: &str, body: &str) -> DraftEvent {
    let o = email(body);
    ev(
        id,
        Actor::mcp("claude-code"),
        DraftEventKind::Created {
            profile: "work".into(),
            digest: content_digest("work", &o),
            outbound: o,
            verdict: Verdict::Queue {
                reason: "draft_only".into(),
            },
            provider: None,
        },
    )
}

#[test]
fn a_draft_is_pending_until_the_operator_approves_its_current_content() {
    let dir = tempfile::tempdir().unwrap();
    let drafts = Drafts::open(dir.path()).unwrap();
    let d = drafts.append(created("d1", "Yes, renew.")).unwrap();
    assert_eq!(d.status, DraftStatus::Pending);
    let d = drafts
        .append(ev(
            "d1",
            Actor::Console,
            DraftEventKind::Approved {
                digest: d.digest.clone(),
            },
        ))
        .unwrap();
    assert_eq!(d.status, DraftStatus::Approved);
    assert!(d.approval_holds());
    assert_eq!(d.decided_by, Some(Actor::Console));
}

#[test]
fn no_mcp_client_can_approve_or_reject() {
    let dir = tempfile::tempdir().unwrap();
    let drafts = Drafts::open(dir.path()).unwrap();
    let d = drafts.append(created("d1", "x")).unwrap();
    let err = drafts
        .append(ev(
            "d1",
            Actor::mcp("claude-code"),
            DraftEventKind::Approved {
                digest: d.digest.clone(),
            },
        ))
        .unwrap_err();
    assert!(err.to_string().contains("only the operator"), "{err}");
    assert!(
        drafts
            .append(ev(
                "d1",
                Actor::mcp("x"),
                DraftEventKind::Rejected {
                    reason: "no".into()
                }
            ))
            .is_err()
    );
    assert_eq!(
        drafts.get("d1").unwrap().unwrap().status,
        DraftStatus::Pending
    );
}

#[test]
fn an_edit_after_review_voids_the_approval() {
    let dir = tempfile::tempdir().unwrap();
    let drafts = Drafts::open(dir.path()).unwrap();
    let d = drafts.append(created("d1", "v1")).unwrap();
    let old = d.digest.clone();
    drafts
        .append(ev(
            "d1",
            Actor::Cli,
            DraftEventKind::Approved {
                digest: old.clone(),
            },
        ))
        .unwrap();
    let o = email("v2");
    let d = drafts
        .append(ev(
            "d1",
            Actor::mcp("claude-code"),
            DraftEventKind::Edited {
                digest: content_digest("work", &o),
                outbound: o,
            },
        ))
        .unwrap();
    assert_eq!(d.status, DraftStatus::Pending);
    assert!(!d.approval_holds());
    // Approving what was reviewed before the edit is refused.
    let err = drafts
        .append(ev(
            "d1",
            Actor::Cli,
            DraftEventKind::Approved { digest: old },
        ))
        .unwrap_err();
    assert!(
        err.to_string().contains("changed since it was reviewed"),
        "{err}"
    );
    // Execution needs a fresh approval.
    assert!(
        drafts
            .append(ev(
                "d1",
                Actor::Executor,
                DraftEventKind::Executed {
                    remote_id: "r".into()
                }
            ))
            .is_err()
    );
}

#[test]
fn execution_results_follow_approval_and_failures_stay_retryable() {
    let dir = tempfile::tempdir().unwrap();
    let drafts = Drafts::open(dir.path()).unwrap();
    let d = drafts.append(created("d1", "x")).unwrap();
    drafts
        .append(ev(
            "d1",
            Actor::Console,
            DraftEventKind::Approved { digest: d.digest },
        ))
        .unwrap();
    let f = drafts
        .append(ev(
            "d1",
            Actor::Executor,
            DraftEventKind::Failed {
                reason: "503".into(),
            },
        ))
        .unwrap();
    assert_eq!(f.status, DraftStatus::Failed);
    let x = drafts
        .append(ev(
            "d1",
            Actor::Executor,
            DraftEventKind::Executed {
                remote_id: "AAMk1".into(),
            },
        ))
        .unwrap();
    assert_eq!(
        (x.status, x.remote_id.as_deref()),
        (DraftStatus::Executed, Some("AAMk1"))
    );
    assert!(
        drafts
            .append(ev(
                "d1",
                Actor::Console,
                DraftEventKind::Rejected {
                    reason: "late".into()
                }
            ))
            .is_err()
    );
}

#[test]
fn a_forged_event_in_the_log_has_no_effect() {
    let dir = tempfile::tempdir().unwrap();
    let drafts = Drafts::open(dir.path()).unwrap();
    let d = drafts.append(created("d1", "x")).unwrap();
    // Someone writes an approval by an MCP client straight into the file, plus a broken line.
    let forged = ev(
        "d1",
        Actor::mcp("evil"),
        DraftEventKind::Approved { digest: d.digest },
    );
    let mut line = serde_json::to_string(&forged).unwrap();
    line.push_str("\nnot json\n");
    use std::io::Write;
    std::fs::OpenOptions::new()
        .append(true)
        .open(dir.path().join("drafts.jsonl"))
        .unwrap()
        .write_all(line.as_bytes())
        .unwrap();
    let q = drafts.queue().unwrap();
    assert_eq!(q.get("d1").unwrap().status, DraftStatus::Pending);
    assert_eq!(q.skipped.len(), 2);
}

#[test]
fn a_digest_that_does_not_match_the_content_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let drafts = Drafts::open(dir.path()).unwrap();
    let mut e = created("d1", "x");
    if let DraftEventKind::Created { digest, .. } = &mut e.kind {
        *digest = "0".repeat(64);
    }
    assert!(drafts.append(e).is_err());
    assert!(drafts.queue().unwrap().drafts.is_empty());
}

#[test]
fn a_decision_written_by_another_process_is_seen_at_once() {
    // The engine caches the fold; the CLI approving in another process must still show.
    let dir = tempfile::tempdir().unwrap();
    let engine = Drafts::open(dir.path()).unwrap();
    let cli = Drafts::open(dir.path()).unwrap();
    let d = engine.append(created("d1", "Yes, renew.")).unwrap();
    assert_eq!(engine.queue().unwrap().pending().count(), 1);
    cli.append(ev(
        "d1",
        Actor::Cli,
        DraftEventKind::Approved { digest: d.digest },
    ))
    .unwrap();
    let q = engine.queue().unwrap();
    assert_eq!(q.pending().count(), 0);
    assert_eq!(q.get("d1").unwrap().status, DraftStatus::Approved);
}
