//! The executor: carries out drafts the operator approved, through the profile's Microsoft
//! Graph account, and records `executed` (with the remote id) or `failed` (retryable).
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

use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::{Engine, EngineEvent};
use crate::domain::{
    Actor, AuditEvent, AuditOutcome, Draft, DraftEvent, DraftEventKind, DraftStatus, Outbound, now,
};
use crate::sources::graph::client::GraphError;
use crate::sources::graph::{Account, send};

/// How often the drafts log is re-read for approvals made by other processes.
const SCAN_EVERY: Duration = Duration::from_secs(1);
/// First pause before a failed draft is retried (doubling, capped).
const RETRY_FIRST: Duration = Duration::from_secs(30);
const RETRY_MAX: Duration = Duration::from_secs(1800);

/// Written before anything irreversible; removed once `executed` is recorded.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Marker {
    draft_id: String,
    digest: String,
    kind: String,
    /// The remote draft message (mail) once created.
    #[serde(default)]
    remote_id: Option<String>,
    /// `created`, `sending` (mail) or `posting` (chat).
    stage: String,
    #[serde(with = "time::serde::rfc3339")]
    started_at: time::OffsetDateTime,
}

/// Start the executor for the profiles that have a Graph account.
pub fn spawn(
    engine: Arc<Engine>,
    accounts: BTreeMap<String, Arc<Account>>,
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
                run_once(&engine, &accounts, &mut retry).await;
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
    accounts: &BTreeMap<String, Arc<Account>>,
    retry: &mut HashMap<String, (u32, Instant)>,
) {
    let e = engine.clone();
    let queue = match tokio::task::spawn_blocking(move || e.drafts().queue()).await {
        Ok(Ok(q)) => q,
        Ok(Err(err)) => {
            tracing::warn!("executor cannot read the drafts: {err}");
            return;
        }
        Err(_) => return,
    };
    let now_i = Instant::now();
    for d in queue.drafts {
        let Some(account) = accounts.get(&d.profile) else {
            continue;
        };
        let due = match d.status {
            DraftStatus::Approved => true,
            DraftStatus::Failed => retry.get(&d.id).is_none_or(|(_, at)| now_i >= *at),
            _ => false,
        };
        if !due || !d.approval_holds() {
            continue;
        }
        let outcome = execute(engine, account, &d).await;
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
                let _ = std::fs::remove_file(marker_path(account, &d.id));
            }
            Err(Fail {
                reason,
                retry_after,
            }) => {
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
    };
    let target = match remote_id {
        Some(r) => format!("{} -> {}", d.id, crate::sanitize::one_line(r, 200)),
        None => d.id.clone(),
    };
    let audit = AuditEvent::new("draft.execute", Actor::Executor, outcome)
        .entity(&d.profile)
        .target(target)
        .reason(reason);
    let _ = tokio::task::spawn_blocking(move || {
        if let Err(err) = e.audit(audit) {
            tracing::error!("{err}");
        }
        match e.drafts().append(ev) {
            Ok(d) => e.announce(EngineEvent::DraftChanged(Arc::new(d))),
            Err(err) => tracing::error!("executor could not record the result: {err}"),
        }
    })
    .await;
}

fn marker_path(account: &Account, draft_id: &str) -> PathBuf {
    account
        .state_dir
        .join("outbox")
        .join(format!("{draft_id}.json"))
}

fn load_marker(account: &Account, draft_id: &str) -> Option<Marker> {
    std::fs::read(marker_path(account, draft_id))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok())
}

fn save_marker(account: &Account, m: &Marker) -> Result<(), String> {
    let path = marker_path(account, &m.draft_id);
    if let Some(dir) = path.parent() {
        crate::paths::ensure_private_dir(dir).map_err(|e| format!("{e:#}"))?;
    }
    let bytes = serde_json::to_vec_pretty(m).map_err(|e| e.to_string())?;
    crate::paths::write_atomic(&path, &bytes)
        .map_err(|e| format!("cannot save the send marker: {e}"))
}

/// Whether `d` is still approved with the digest it had when this attempt began.
async fn still_approved(engine: &Arc<Engine>, d: &Draft) -> Result<(), String> {
    let e = engine.clone();
    let id = d.id.clone();
    let now_d = tokio::task::spawn_blocking(move || e.drafts().get(&id))
        .await
        .map_err(|e| e.to_string())?
        .map_err(|e| e.to_string())?;
    match now_d {
        Some(n)
            if n.digest == d.digest
                && n.approval_holds()
                && matches!(n.status, DraftStatus::Approved | DraftStatus::Failed) =>
        {
            Ok(())
        }
        _ => Err("the draft changed or lost its approval during execution; not sent".into()),
    }
}

/// Audit the attempt before making it: no audit, no send.
async fn audit_attempt(engine: &Arc<Engine>, d: &Draft) -> Result<(), String> {
    let e = engine.clone();
    let ev = AuditEvent::new("draft.execute", Actor::Executor, AuditOutcome::Ok)
        .entity(&d.profile)
        .target(d.id.clone())
        .reason(format!("{} attempt", d.outbound.kind()));
    tokio::task::spawn_blocking(move || e.audit(ev).map(|_| ()).map_err(|e| e.to_string()))
        .await
        .map_err(|e| e.to_string())?
}

/// Why an attempt failed, and how long the service asked us to wait (429).
struct Fail {
    reason: String,
    retry_after: Option<Duration>,
}

impl From<String> for Fail {
    fn from(reason: String) -> Fail {
        Fail {
            reason,
            retry_after: None,
        }
    }
}

fn graph_err(e: GraphError) -> Fail {
    Fail {
        retry_after: e.retry_after(),
        reason: e.to_string(),
    }
}

async fn execute(engine: &Arc<Engine>, account: &Account, d: &Draft) -> Result<String, Fail> {
    still_approved(engine, d).await?;
    audit_attempt(engine, d).await?;
    match &d.outbound {
        Outbound::SendEmail {
            to,
            cc,
            subject,
            body,
        } => send_mail(engine, account, d, None, to, cc, subject, body).await,
        Outbound::ReplyEmail {
            message_id,
            to,
            subject,
            body,
        } => {
            // createReply only for a message that came from this Graph mailbox; anything else
            // (a spool item) is answered with a new message.
            let e = engine.clone();
            let mid = message_id.clone();
            let original = tokio::task::spawn_blocking(move || e.inbox().find_by_id(&mid))
                .await
                .ok()
                .and_then(|r| r.ok().flatten())
                .filter(|r| {
                    r.profile == d.profile
                        && r.meta.get("source").and_then(|v| v.as_str()) == Some("graph_mail")
                })
                .and_then(|r| {
                    r.meta
                        .get("graph_id")
                        .and_then(|v| v.as_str())
                        .map(str::to_owned)
                });
            let original = original.as_deref();
            send_mail(engine, account, d, original, to, &[], subject, body).await
        }
        Outbound::PostChat { chat_id, body } => {
            if let Some(m) = load_marker(account, &d.id)
                && m.stage == "posting"
                && let Some(id) = send::find_own_chat_post(
                    account,
                    chat_id,
                    m.started_at - time::Duration::minutes(1),
                    body,
                )
                .await
                .map_err(graph_err)?
            {
                return Ok(id);
            }
            still_approved(engine, d).await?;
            save_marker(
                account,
                &Marker {
                    draft_id: d.id.clone(),
                    digest: d.digest.clone(),
                    kind: d.outbound.kind().into(),
                    remote_id: None,
                    stage: "posting".into(),
                    started_at: now(),
                },
            )?;
            send::post_chat(account, chat_id, body)
                .await
                .map_err(graph_err)
        }
        Outbound::CreateEvent {
            subject,
            start,
            end,
            attendees,
            location,
            body,
        } => {
            still_approved(engine, d).await?;
            send::create_event(
                account,
                &d.id,
                subject,
                *start,
                *end,
                attendees,
                location.as_deref(),
                body,
            )
            .await
            .map_err(graph_err)
        }
    }
}

/// How long after a `/send` whose answer was lost the message may still sit in Drafts before
/// the service moves it: within this window "still in Drafts" does not yet mean "not sent".
const SEND_SETTLE: time::Duration = time::Duration::minutes(2);

#[allow(clippy::too_many_arguments)]
async fn send_mail(
    engine: &Arc<Engine>,
    account: &Account,
    d: &Draft,
    reply_to: Option<&str>,
    to: &[String],
    cc: &[String],
    subject: &str,
    body: &str,
) -> Result<String, Fail> {
    // The send id is the draft id: unique per opsdesk draft, and known without the marker.
    let send_id = d.id.as_str();
    let id = match load_marker(account, &d.id) {
        Some(m) => match recover_mail(account, d, &m).await? {
            Recovered::Sent(remote) => return Ok(remote),
            Recovered::Draft(remote) => remote,
            Recovered::Nothing => create_mail(account, d, reply_to, to, cc, subject, body).await?,
        },
        None => create_mail(account, d, reply_to, to, cc, subject, body).await?,
    };
    // The remote draft must say exactly what was approved (createReply pre-fills quoted text).
    send::set_content(account, &id, send_id, to, subject, body)
        .await
        .map_err(graph_err)?;
    still_approved(engine, d).await?;
    save_marker(account, &marker(d, Some(&id), "sending"))?;
    send::send_draft(account, &id).await.map_err(graph_err)?;
    Ok(id)
}

fn marker(d: &Draft, remote_id: Option<&str>, stage: &str) -> Marker {
    Marker {
        draft_id: d.id.clone(),
        digest: d.digest.clone(),
        kind: d.outbound.kind().into(),
        remote_id: remote_id.map(str::to_owned),
        stage: stage.into(),
        started_at: now(),
    }
}

/// Create the remote draft (marked with the send id), with a marker before and after.
#[allow(clippy::too_many_arguments)]
async fn create_mail(
    account: &Account,
    d: &Draft,
    reply_to: Option<&str>,
    to: &[String],
    cc: &[String],
    subject: &str,
    body: &str,
) -> Result<String, Fail> {
    // Marker first: a crash after the create leaves a marked draft that recovery finds.
    save_marker(account, &marker(d, None, "creating"))?;
    let id = match reply_to {
        Some(original) => send::create_reply(account, original).await,
        None => send::create_draft(account, &d.id, to, cc, subject, body).await,
    }
    .map_err(graph_err)?;
    save_marker(account, &marker(d, Some(&id), "created"))?;
    Ok(id)
}

enum Recovered {
    /// Found in Sent Items: it went out; record it, never send again.
    Sent(String),
    /// Found in Drafts and not possibly in flight: send this one.
    Draft(String),
    /// No remote draft was ever made: start over.
    Nothing,
}

/// An earlier attempt of `d` left marker `m`: find out what happened from documented facts —
/// the send id in Sent Items, then in Drafts — before anything is sent again.
async fn recover_mail(account: &Account, d: &Draft, m: &Marker) -> Result<Recovered, Fail> {
    if let Some(sent) = send::find_by_send_id(account, send::SENT_ITEMS, &d.id)
        .await
        .map_err(graph_err)?
    {
        return if m.digest == d.digest {
            Ok(Recovered::Sent(sent))
        } else {
            Err(format!(
                "an earlier approved version of this draft was already sent (remote id {sent}); the edited version is not sent"
            )
            .into())
        };
    }
    let in_drafts = send::find_by_send_id(account, send::DRAFTS, &d.id)
        .await
        .map_err(graph_err)?;
    // A createReply draft is marked only by the PATCH after it: look it up by id as well.
    let in_drafts = match (in_drafts, &m.remote_id) {
        (Some(found), _) => Some(found),
        (None, Some(remote)) if m.stage == "created" => {
            send::find_by_id(account, send::DRAFTS, remote)
                .await
                .map_err(graph_err)?
        }
        _ => None,
    };
    let settling = m.stage == "sending" && now() - m.started_at < SEND_SETTLE;
    match in_drafts {
        Some(_) if settling => Err(Fail {
            reason: "outcome of the send not known yet (the message is still in Drafts); checked again shortly; not re-sent".into(),
            retry_after: Some(Duration::from_secs(SEND_SETTLE.whole_seconds().unsigned_abs())),
        }),
        Some(found) => Ok(Recovered::Draft(found)),
        None if m.remote_id.is_none() => Ok(Recovered::Nothing),
        None => Err(format!(
            "outcome unknown: the message of an earlier attempt is in neither Drafts nor Sent Items (it may be in the Outbox, or deleted); checked again later, never re-sent automatically (remove {} to allow a new attempt)",
            marker_path(account, &d.id).display()
        )
        .into()),
    }
}
