//! The executor: carries out drafts the operator approved, through the [`OutboundExecutor`]
//! that serves the draft's profile (Microsoft Graph, or the demo outbox), and records
//! `executed` (with where it went) or `failed` (retryable).
//!
//! Rules:
//! - Only a draft whose approval holds for its current digest is touched, checked on a fresh
//!   fold of the log both before the first remote call and again right before the irreversible
//!   one. Approvals made by another process (`opsdesk drafts approve` while `serve` runs) are
//!   seen because the log is re-read every second (and at once on a local `DraftChanged`).
//! - **Never send twice.** Before anything irreversible a marker is saved atomically in
//!   `graph/<profile>/outbox/<draft id>.json`. Mail is created as a draft first (`POST
//!   /me/messages` or `createReply`), marked with the single-value extended property
//!   `OpsdeskSendId` = the draft id (see `sources::graph::send`), and its immutable id goes into
//!   the marker before `send`. When a marker says an earlier attempt's outcome is unknown (crash,
//!   ambiguous error), the executor asks documented questions before sending anything: is a
//!   message with that send id in Sent Items → it went out, record `executed`; is it in Drafts
//!   (and not possibly still being moved by a send just made) → not sent, send it; neither →
//!   outcome unknown (it may sit in the Outbox), recorded as `failed`, asked again at the next
//!   retry, never re-sent blindly. A chat post has no draft stage: the marker records the
//!   attempt, and a retry first looks for the operator's own post with that text in the chat. A
//!   calendar event carries the draft id as `transactionId`, which Graph uses to drop a repeat.
//! - Every execution is audited (kind, profile, draft and remote id, outcome; never bodies),
//!   and the audit record of the attempt is written before the attempt (fail closed).

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::outbound::{ExecCx, Fail, OutboundExecutor};
use super::{Engine, EngineEvent};
use crate::domain::{
    Actor, AuditEvent, AuditOutcome, Draft, DraftEvent, DraftEventKind, DraftStatus, Outbound, now,
};

/// How often the drafts log is re-read for approvals made by other processes.
const SCAN_EVERY: Duration = Duration::from_secs(1);
/// First pause before a failed draft is retried (doubling, capped).
const RETRY_FIRST: Duration = Duration::from_secs(30);
const RETRY_MAX: Duration = Duration::from_secs(1800);
/// How the reason of a failure that retrying cannot fix starts (a moved message that is gone,
/// a folder that does not exist): such a draft is not retried, also after a restart.
pub(crate) const NOT_RETRIED: &str = "not retried: ";

/// The executors of a running engine.
pub(crate) type Executors = Vec<Arc<dyn OutboundExecutor>>;

/// Start the executor with `executors` (each serving some profiles).
pub fn spawn(
    engine: Arc<Engine>,
    executors: Executors,
    shutdown: CancellationToken,
) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut events = engine.subscribe();
        let mut retry: HashMap<String, (u32, Instant)> = HashMap::new();
        let log = engine.paths().drafts_dir().join("drafts.jsonl");
        let mut seen: Option<(u64, Option<std::time::SystemTime>)> = None;
        loop {
            // Keep the 1 s scan cheap: fold the log only when it changed (any process appended)
            // or a retry is due.
            let stamp = std::fs::metadata(&log)
                .map(|m| (m.len(), m.modified().ok()))
                .unwrap_or((0, None));
            let retry_due = retry.values().any(|(_, at)| Instant::now() >= *at);
            if seen != Some(stamp) || retry_due {
                seen = Some(stamp);
                run_once(&engine, &executors, &mut retry).await;
            }
            // Wake at the next tick, or at once when this process sees an approval.
            let approval = async {
                loop {
                    match events.recv().await {
                        Ok(EngineEvent::DraftChanged(d)) if d.status == DraftStatus::Approved => {
                            return;
                        }
                        Err(tokio::sync::broadcast::error::RecvError::Closed) => {
                            std::future::pending::<()>().await
                        }
                        _ => {}
                    }
                }
            };
            tokio::select! {
                _ = shutdown.cancelled() => break,
                _ = tokio::time::sleep(SCAN_EVERY) => {}
                _ = approval => {}
            }
        }
    })
}

/// One pass over the queue; public for tests that drive it without the timer.
pub async fn run_once(
    engine: &Arc<Engine>,
    executors: &[Arc<dyn OutboundExecutor>],
    retry: &mut HashMap<String, (u32, Instant)>,
) {
    let cx = ExecCx::new(engine.clone());
    let e = engine.clone();
    let queue = match tokio::task::spawn_blocking(move || e.drafts.queue()).await {
        Ok(Ok(q)) => q,
        Ok(Err(err)) => {
            tracing::warn!("executor cannot read the drafts: {err}");
            return;
        }
        Err(_) => return,
    };
    let now_i = Instant::now();
    for d in queue.drafts {
        // A deal proposal is carried out here, locally: nothing leaves the machine.
        if matches!(d.outbound, Outbound::CreateDeal { .. }) {
            if d.status == DraftStatus::Approved && d.approval_holds() {
                let e = engine.clone();
                match tokio::task::spawn_blocking(move || e.carry_out_deal_proposal(&d)).await {
                    Ok(Ok(_)) => {}
                    Ok(Err(err)) => tracing::warn!("deal proposal not carried out: {err}"),
                    Err(err) => tracing::warn!("deal proposal task failed: {err}"),
                }
            }
            continue;
        }
        let Some(executor) = executors.iter().find(|x| x.serves(&d.profile)) else {
            continue;
        };
        let due = match d.status {
            DraftStatus::Approved => true,
            DraftStatus::Failed => {
                !d.reason
                    .as_deref()
                    .is_some_and(|r| r.starts_with(NOT_RETRIED))
                    && retry.get(&d.id).is_none_or(|(_, at)| now_i >= *at)
            }
            _ => false,
        };
        if !due || !d.approval_holds() {
            continue;
        }
        let outcome = attempt(&cx, executor.as_ref(), &d).await;
        match outcome {
            Ok(remote_id) => {
                retry.remove(&d.id);
                record(
                    engine,
                    &d,
                    DraftEventKind::Executed {
                        remote_id: remote_id.clone(),
                    },
                    AuditOutcome::Ok,
                    format!("{} executed", d.outbound.kind()),
                    Some(&remote_id),
                )
                .await;
                executor.finished(&d);
            }
            Err(Fail {
                reason,
                retry_after,
                permanent,
            }) => {
                let reason = if permanent {
                    format!(
                        "{NOT_RETRIED}{reason}; edit and approve the draft again to retry, or reject it"
                    )
                } else {
                    reason
                };
                let n = retry.get(&d.id).map_or(0, |(n, _)| *n);
                let wait = RETRY_FIRST
                    .saturating_mul(1 << n.min(10))
                    .min(RETRY_MAX)
                    .max(retry_after.unwrap_or_default());
                retry.insert(d.id.clone(), (n + 1, Instant::now() + wait));
                let reason = crate::sanitize::one_line(&reason, 300);
                record(
                    engine,
                    &d,
                    DraftEventKind::Failed {
                        reason: reason.clone(),
                    },
                    AuditOutcome::Error,
                    format!("{}: {reason}", d.outbound.kind()),
                    None,
                )
                .await;
            }
        }
    }
}

/// Record the result in the drafts log (as the executor), audit it, announce it.
async fn record(
    engine: &Arc<Engine>,
    d: &Draft,
    kind: DraftEventKind,
    outcome: AuditOutcome,
    reason: String,
    remote_id: Option<&str>,
) {
    let e = engine.clone();
    let ev = DraftEvent {
        ts: now(),
        draft_id: d.id.clone(),
        actor: Actor::Executor,
        kind,
        audit: None,
    };
    let target = match remote_id {
        Some(r) => format!("{} -> {}", d.id, crate::sanitize::one_line(r, 200)),
        None => d.id.clone(),
    };
    let audit = AuditEvent::new("draft.execute", Actor::Executor, outcome)
        .entity(&d.profile)
        .target(target)
        .reason(reason);
    let mut ev = ev;
    let _ = tokio::task::spawn_blocking(move || {
        // No audit record, no result: an unaudited `executed` would be ignored by the fold
        // anyway. The draft stays approved; the next attempt finds what was sent by its send id.
        match e.audit(audit) {
            Ok(rec) => ev.audit = Some(crate::domain::AuditRef::of(&rec)),
            Err(err) => {
                tracing::error!(
                    "executor could not record the result of draft {}: {err}",
                    ev.draft_id
                );
                return;
            }
        }
        match e.drafts.append(ev) {
            Ok(d) => e.announce(EngineEvent::DraftChanged(Arc::new(d))),
            Err(err) => tracing::error!("executor could not record the result: {err}"),
        }
    })
    .await;
}

async fn audit_attempt(engine: &Arc<Engine>, d: &Draft, via: &str) -> Result<(), String> {
    let e = engine.clone();
    let ev = AuditEvent::new("draft.execute", Actor::Executor, AuditOutcome::Ok)
        .entity(&d.profile)
        .target(d.id.clone())
        .reason(format!("{} attempt via {via}", d.outbound.kind()));
    tokio::task::spawn_blocking(move || e.audit(ev).map(|_| ()).map_err(|e| e.to_string()))
        .await
        .map_err(|e| e.to_string())?
}

/// Why an attempt failed, and how long the service asked us to wait (429).
/// Re-check the approval, audit the attempt (no audit, no attempt), then carry it out.
async fn attempt(cx: &ExecCx, x: &dyn OutboundExecutor, d: &Draft) -> Result<String, Fail> {
    cx.still_approved(d).await?;
    audit_attempt(cx.engine(), d, x.name()).await?;
    x.execute(cx, d).await
}
