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
        attachments: Vec::new(),
        body_html: None,
    }
}

fn ev(id: &str, actor: Actor, kind: DraftEventKind) -> DraftEvent {
    DraftEvent {
        ts: time::OffsetDateTime::now_utc(),
        draft_id: id.into(),
        actor,
        kind,
        audit: None,
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
    let drafts = Drafts::open_rules_only(dir.path()).unwrap();
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
    let drafts = Drafts::open_rules_only(dir.path()).unwrap();
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
    let drafts = Drafts::open_rules_only(dir.path()).unwrap();
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
    // Nothing of the voided decision is shown as if it held.
    assert_eq!(d.decided_by, None);
    assert_eq!(d.reason, None);
    assert_eq!(d.approved_digest, None);
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
    let drafts = Drafts::open_rules_only(dir.path()).unwrap();
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
    let drafts = Drafts::open_rules_only(dir.path()).unwrap();
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
    let drafts = Drafts::open_rules_only(dir.path()).unwrap();
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
    let engine = Drafts::open_rules_only(dir.path()).unwrap();
    let cli = Drafts::open_rules_only(dir.path()).unwrap();
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

// --- Binding to the audit trail -------------------------------------------------------------

use opsdesk::domain::{AuditEvent, AuditOutcome, AuditRef};
use opsdesk::store::audit::Audit;

/// A queue bound to an audit trail, as the engine opens it.
struct Bound {
    _dir: tempfile::TempDir,
    audit: Audit,
    drafts: Drafts,
    log: std::path::PathBuf,
}

fn bound() -> Bound {
    let dir = tempfile::tempdir().unwrap();
    let audit = Audit::open(&dir.path().join("audit")).unwrap();
    let drafts = Drafts::open(&dir.path().join("drafts"), &dir.path().join("audit")).unwrap();
    let log = dir.path().join("drafts/drafts.jsonl");
    Bound {
        _dir: dir,
        audit,
        drafts,
        log,
    }
}

/// Audit `ev` the way the engine does (reason `draft <kind>`, target the draft id).
fn audit_of(audit: &Audit, ev: &DraftEvent) -> AuditRef {
    let name = format!("draft.{}", ev.kind.name());
    let rec = audit
        .append(
            AuditEvent::new(name, &ev.actor, AuditOutcome::Ok)
                .target(ev.draft_id.clone())
                .reason(format!("draft {}", ev.kind.name())),
        )
        .unwrap();
    AuditRef::of(&rec)
}

fn audited(audit: &Audit, mut ev: DraftEvent) -> DraftEvent {
    ev.audit = Some(audit_of(audit, &ev));
    ev
}

fn append_line(log: &std::path::Path, ev: &DraftEvent) {
    let mut text = std::fs::read_to_string(log).unwrap_or_default();
    text.push_str(&serde_json::to_string(ev).unwrap());
    text.push('\n');
    std::fs::write(log, text).unwrap();
}

fn approval(d: &opsdesk::domain::Draft) -> DraftEvent {
    ev(
        &d.id,
        Actor::Cli,
        DraftEventKind::Approved {
            digest: d.digest.clone(),
        },
    )
}

#[test]
fn a_hand_appended_approval_without_its_audit_record_does_not_take_effect_and_is_reported() {
    let b = bound();
    let d = b
        .drafts
        .append(audited(&b.audit, created("d1", "Yes, renew.")))
        .unwrap();
    append_line(&b.log, &approval(&d));
    let q = b.drafts.queue().unwrap();
    assert_eq!(q.get("d1").unwrap().status, DraftStatus::Pending);
    assert_eq!(q.unbound.len(), 1, "{:?}", q.unbound);
    assert_eq!(q.unbound[0].line, 2);
    assert_eq!(q.unbound[0].event, "approved");
    assert!(
        q.unbound[0].reason.contains("no audit record"),
        "{:?}",
        q.unbound
    );
    // The store refuses to append it too.
    let e = b.drafts.append(approval(&d)).unwrap_err();
    assert!(e.to_string().contains("names no audit record"), "{e}");
    // Audited, it takes effect.
    let d = b.drafts.append(audited(&b.audit, approval(&d))).unwrap();
    assert_eq!(d.status, DraftStatus::Approved);
}

#[test]
fn an_approval_bound_to_a_record_that_says_something_else_is_ignored() {
    let b = bound();
    let d = b
        .drafts
        .append(audited(&b.audit, created("d1", "Yes, renew.")))
        .unwrap();
    // A record of a rejection (or of another draft) cannot vouch for an approval.
    let other = audit_of(
        &b.audit,
        &ev(
            "d1",
            Actor::Cli,
            DraftEventKind::Rejected {
                reason: "no".into(),
            },
        ),
    );
    let mut forged = approval(&d);
    forged.audit = Some(other.clone());
    append_line(&b.log, &forged);
    // Nor a record whose hash is not the one named.
    let mut forged = approval(&d);
    forged.audit = Some(AuditRef {
        seq: other.seq,
        hash: "0".repeat(64),
    });
    append_line(&b.log, &forged);
    let q = b.drafts.queue().unwrap();
    assert_eq!(q.get("d1").unwrap().status, DraftStatus::Pending);
    assert_eq!(q.unbound.len(), 2, "{:?}", q.unbound);
    assert!(
        q.unbound[0].reason.contains("not this `approved`"),
        "{:?}",
        q.unbound
    );
    assert!(
        q.unbound[1].reason.contains("different hash"),
        "{:?}",
        q.unbound
    );
}

#[test]
fn an_old_approval_record_cannot_be_replayed_after_an_edit() {
    let b = bound();
    let d = b
        .drafts
        .append(audited(&b.audit, created("d1", "Yes, renew.")))
        .unwrap();
    let first = audited(&b.audit, approval(&d));
    b.drafts.append(first.clone()).unwrap();
    let o = email("Yes, renew for 3 years.");
    let edit = ev(
        "d1",
        Actor::mcp("claude-code"),
        DraftEventKind::Edited {
            digest: content_digest("work", &o),
            outbound: o,
        },
    );
    let d = b.drafts.append(audited(&b.audit, edit)).unwrap();
    assert_eq!(d.status, DraftStatus::Pending);
    // The earlier approval's record, reused for the new content.
    let mut replay = approval(&d);
    replay.audit = first.audit.clone();
    append_line(&b.log, &replay);
    let q = b.drafts.queue().unwrap();
    assert_eq!(q.get("d1").unwrap().status, DraftStatus::Pending);
    assert!(
        q.unbound[0]
            .reason
            .contains("already vouches for an earlier event"),
        "{:?}",
        q.unbound
    );
}

#[test]
fn a_log_written_before_binding_keeps_its_audited_decisions_and_loses_forged_ones() {
    let b = bound();
    // An old log: events without `audit`, each audited by the engine of the time.
    let c = created("d1", "Yes, renew.");
    audit_of(&b.audit, &c);
    append_line(&b.log, &c);
    let c2 = created("d2", "No.");
    audit_of(&b.audit, &c2);
    append_line(&b.log, &c2);
    let d1 = b.drafts.get("d1").unwrap().unwrap();
    let a = approval(&d1);
    audit_of(&b.audit, &a);
    append_line(&b.log, &a);
    // Forged: an approval of d2 that the trail never recorded, and a second copy of d1's.
    let d2 = b.drafts.get("d2").unwrap().unwrap();
    append_line(&b.log, &approval(&d2));
    let q = b.drafts.queue().unwrap();
    assert_eq!(q.get("d1").unwrap().status, DraftStatus::Approved);
    assert_eq!(q.get("d2").unwrap().status, DraftStatus::Pending);
    assert_eq!(q.unbound.len(), 1, "{:?}", q.unbound);
    assert_eq!(q.unbound[0].draft_id, "d2");
    // Once the engine writes a bound event, unbound ones after it never count.
    let c3 = b
        .drafts
        .append(audited(&b.audit, created("d3", "Maybe.")))
        .unwrap();
    let mut late = approval(&c3);
    audit_of(&b.audit, &late); // even with a record in the trail
    late.audit = None;
    append_line(&b.log, &late);
    let q = b.drafts.queue().unwrap();
    assert_eq!(q.get("d3").unwrap().status, DraftStatus::Pending);
    assert!(
        q.unbound
            .iter()
            .any(|u| u.draft_id == "d3" && u.reason.contains("after the first bound one")),
        "{:?}",
        q.unbound
    );
}
