//! The executor's adapter to the outside world: an [`OutboundExecutor`] carries out one approved
//! draft and says where it went. The engine owns the trait; Microsoft Graph implements it in
//! `sources::graph::outbound`, the demo in [`DemoOutbox`]. The executor (`engine::executor`)
//! decides *when* (approval re-checked, audited first, retries); an implementation decides
//! *how*, and is responsible for never carrying out the same draft twice.

use std::future::Future;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::pin::Pin;
use std::sync::Arc;
use std::time::Duration;

use serde_json::json;

use super::Engine;
use crate::domain::InboxRecord;
use crate::domain::{Draft, DraftStatus, Outbound, now};

pub(crate) type BoxFuture<'a, T> = Pin<Box<dyn Future<Output = T> + Send + 'a>>;

/// Why an attempt failed, and how long the far side asked us to wait.
#[derive(Debug, Clone)]
pub struct Fail {
    pub reason: String,
    pub retry_after: Option<Duration>,
    /// Retrying cannot help (the message is gone, the folder does not exist): recorded as
    /// failed and not retried until the operator edits and approves the draft again.
    pub permanent: bool,
}

impl From<String> for Fail {
    fn from(reason: String) -> Fail {
        Fail {
            reason,
            retry_after: None,
            permanent: false,
        }
    }
}

impl Fail {
    pub fn permanent(reason: impl Into<String>) -> Fail {
        Fail {
            reason: reason.into(),
            retry_after: None,
            permanent: true,
        }
    }
}

/// What an implementation may ask the engine while it works.
#[derive(Clone)]
pub struct ExecCx {
    engine: Arc<Engine>,
}

impl ExecCx {
    pub fn new(engine: Arc<Engine>) -> ExecCx {
        ExecCx { engine }
    }

    /// `Ok` when `d` is still approved with the digest it had when this attempt began: called
    /// right before the irreversible step.
    pub async fn still_approved(&self, d: &Draft) -> Result<(), String> {
        let e = self.engine.clone();
        let id = d.id.clone();
        let now_d = tokio::task::spawn_blocking(move || e.drafts.get(&id))
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

    /// The inbox record with id `message_id` (what a reply answers), if any.
    pub async fn inbox_record(&self, message_id: &str) -> Option<InboxRecord> {
        let e = self.engine.clone();
        let mid = message_id.to_owned();
        tokio::task::spawn_blocking(move || e.inbox.find_by_id(&mid))
            .await
            .ok()
            .and_then(|r| r.ok().flatten())
    }

    /// The whole stored file `sha256` (an outbound draft's attachment), checked against its
    /// hash.
    pub async fn attachment_bytes(&self, sha256: &str) -> Result<Vec<u8>, String> {
        let e = self.engine.clone();
        let h = sha256.to_owned();
        match tokio::task::spawn_blocking(move || e.attachments.read(&h, u64::MAX))
            .await
            .map_err(|e| e.to_string())?
        {
            Ok(Some((bytes, _))) => Ok(bytes),
            Ok(None) => Err(format!(
                "attachment {sha256} is no longer in the attachment store; not sent"
            )),
            Err(e) => Err(format!("cannot read attachment {sha256}: {e}; not sent")),
        }
    }

    pub fn engine(&self) -> &Arc<Engine> {
        &self.engine
    }
}

/// Carries out approved drafts of some profiles.
pub trait OutboundExecutor: Send + Sync {
    /// Short name for logs and the audit (`graph`, `demo`).
    fn name(&self) -> &'static str;
    /// Whether this executor carries out drafts of `profile`.
    fn serves(&self, profile: &str) -> bool;
    /// Carry out `d` (approved, audited); `Ok(target)` says where it went (a remote id or a
    /// place), recorded as the `executed` event's `remote_id`.
    fn execute<'a>(&'a self, cx: &'a ExecCx, d: &'a Draft) -> BoxFuture<'a, Result<String, Fail>>;
    /// `executed` is durably recorded: crash-recovery state of `d` may go.
    fn finished(&self, _d: &Draft) {}
}

/// The demo's "outside world": approved drafts are appended to `<data>/demo-outbox/sent.jsonl`
/// (0600, one JSON record per item: `sent_at`, `draft_id`, `profile`, `kind`, `to`, `subject`,
/// `body`), exactly once per draft: the file is the record of what went out, so an item already
/// in it is not written again (a crash between the append and `executed` is absorbed).
pub struct DemoOutbox {
    profiles: Vec<String>,
    file: PathBuf,
}

impl DemoOutbox {
    pub fn new(data_dir: &std::path::Path, profiles: Vec<String>) -> DemoOutbox {
        DemoOutbox {
            profiles,
            file: data_dir.join("demo-outbox").join("sent.jsonl"),
        }
    }

    pub fn file(&self) -> &std::path::Path {
        &self.file
    }

    /// The target recorded for line `n` (1-based) of the outbox file.
    fn target(n: usize) -> String {
        format!("demo-outbox/sent.jsonl#{n}")
    }

    fn deliver(file: &std::path::Path, d: &Draft) -> Result<String, Fail> {
        let dir = file.parent().unwrap_or(file);
        crate::paths::ensure_private_dir(dir).map_err(|e| format!("{e:#}"))?;
        let mut lines = 0;
        if let Ok(f) = std::fs::File::open(file) {
            for line in std::io::BufReader::new(f).lines() {
                let line = line.map_err(|e| format!("cannot read {}: {e}", file.display()))?;
                lines += 1;
                let v: serde_json::Value = serde_json::from_str(&line).unwrap_or_default();
                if v["draft_id"].as_str() == Some(d.id.as_str()) {
                    return Ok(Self::target(lines));
                }
            }
        }
        let (to, subject, body) = match &d.outbound {
            Outbound::SendEmail {
                to, subject, body, ..
            }
            | Outbound::ReplyEmail {
                to, subject, body, ..
            } => (json!(to), json!(subject), json!(body)),
            Outbound::PostChat { chat_id, body } => (json!([chat_id]), json!(null), json!(body)),
            Outbound::CreateEvent {
                subject,
                attendees,
                body,
                ..
            } => (json!(attendees), json!(subject), json!(body)),
            Outbound::MoveMail { message_id, folder } => {
                (json!([folder]), json!(null), json!(message_id))
            }
            Outbound::CreateDeal { .. } => {
                return Err(Fail::from(
                    "a deal proposal is carried out locally, not through the demo outbox"
                        .to_string(),
                ));
            }
        };
        let mut rec = json!({
            "sent_at": crate::sources::graph::rfc3339_precise(now()),
            "draft_id": d.id, "profile": d.profile, "kind": d.outbound.kind(),
            "to": to, "subject": subject, "body": body,
        });
        // An HTML mail: the sanitized HTML that would be sent, beside its text.
        if let Some(html) = d.outbound.body_html() {
            rec["body_html"] = json!(html);
        }
        let mut f = crate::paths::open_private_append(file)
            .map_err(|e| format!("cannot open {}: {e}", file.display()))?;
        let mut line = serde_json::to_vec(&rec).map_err(|e| e.to_string())?;
        line.push(b'\n');
        f.write_all(&line)
            .and_then(|_| f.sync_data())
            .map_err(|e| format!("cannot write {}: {e}", file.display()))?;
        Ok(Self::target(lines + 1))
    }
}

impl OutboundExecutor for DemoOutbox {
    fn name(&self) -> &'static str {
        "demo"
    }

    fn serves(&self, profile: &str) -> bool {
        self.profiles.iter().any(|p| p == profile)
    }

    fn execute<'a>(&'a self, cx: &'a ExecCx, d: &'a Draft) -> BoxFuture<'a, Result<String, Fail>> {
        Box::pin(async move {
            if let Outbound::MoveMail { message_id, .. } = &d.outbound
                && cx.inbox_record(message_id).await.is_none()
            {
                return Err(Fail::permanent(format!(
                    "message {message_id} is not in the inbox; nothing to move"
                )));
            }
            cx.still_approved(d).await?;
            let file = self.file.clone();
            let d = d.clone();
            tokio::task::spawn_blocking(move || Self::deliver(&file, &d))
                .await
                .map_err(|e| Fail::from(format!("demo outbox task failed: {e}")))?
        })
    }
}
