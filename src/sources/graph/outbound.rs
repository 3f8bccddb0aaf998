//! Microsoft Graph behind the engine's [`OutboundExecutor`] trait: the crash-safe protocol that
//! carries out approved drafts through a profile's Graph account (the calls themselves are in
//! [`super::send`]).
//!
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

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use super::client::GraphError;
use super::{Account, send};
use crate::domain::{Draft, Outbound, now};
use crate::engine::outbound::{BoxFuture, ExecCx, Fail, OutboundExecutor};

/// Written before anything irreversible; removed once `executed` is recorded.
#[derive(Debug, Clone, Serialize, Deserialize)]
struct Marker {
    draft_id: String,
    digest: String,
    kind: String,
    /// The remote draft message (mail) once created.
    #[serde(default)]
    remote_id: Option<String>,
    /// `creating`, `created`, `sending` (mail) or `posting` (chat).
    stage: String,
    #[serde(with = "time::serde::rfc3339")]
    started_at: time::OffsetDateTime,
}

/// The Graph accounts of the profiles that have one.
pub struct GraphOutbound {
    accounts: BTreeMap<String, Arc<Account>>,
    /// Mail folder ids by (profile, folder as written), resolved once.
    folders: std::sync::Mutex<std::collections::HashMap<(String, String), String>>,
}

impl GraphOutbound {
    pub fn new(accounts: BTreeMap<String, Arc<Account>>) -> GraphOutbound {
        GraphOutbound {
            accounts,
            folders: Default::default(),
        }
    }

    fn cached_folder(&self, profile: &str, folder: &str) -> Option<String> {
        let c = self.folders.lock().unwrap_or_else(|p| p.into_inner());
        c.get(&(profile.to_string(), folder.to_string())).cloned()
    }

    fn cache_folder(&self, profile: &str, folder: &str, id: Option<&str>) {
        let mut c = self.folders.lock().unwrap_or_else(|p| p.into_inner());
        let key = (profile.to_string(), folder.to_string());
        match id {
            Some(id) => c.insert(key, id.to_string()),
            None => c.remove(&key),
        };
    }

    /// Move a message exactly once: the folder's id (cached), then "is it there already?"
    /// (with immutable ids a moved message keeps its id, so a crash between the move and its
    /// record is answered by where the message is now), a marker, the approval re-checked,
    /// then `POST /me/messages/{id}/move`. A message that is gone or a folder that does not
    /// exist is a permanent failure, not retried.
    async fn move_mail(
        &self,
        cx: &ExecCx,
        account: &Account,
        d: &Draft,
        message_id: &str,
        folder: &str,
    ) -> Result<String, Fail> {
        let dest = match self.cached_folder(&d.profile, folder) {
            Some(id) => id,
            None => match send::resolve_folder(account, folder)
                .await
                .map_err(graph_err)?
            {
                Some(id) => {
                    self.cache_folder(&d.profile, folder, Some(&id));
                    id
                }
                None => {
                    return Err(Fail::permanent(format!(
                        "there is no mail folder `{folder}` in profile {}'s mailbox",
                        d.profile
                    )));
                }
            },
        };
        match send::parent_folder(account, message_id)
            .await
            .map_err(graph_err)?
        {
            None => {
                return Err(Fail::permanent(format!(
                    "message {message_id} is gone from the mailbox (404); nothing to move"
                )));
            }
            Some(p) if p == dest => return Ok(format!("{message_id} in {folder}")),
            Some(_) => {}
        }
        save_marker(
            account,
            &Marker {
                draft_id: d.id.clone(),
                digest: d.digest.clone(),
                kind: d.outbound.kind().into(),
                remote_id: Some(dest.clone()),
                stage: "moving".into(),
                started_at: now(),
            },
        )
        .await?;
        cx.still_approved(d).await?;
        match send::move_message(account, message_id, &dest).await {
            Ok(id) => Ok(format!("{id} in {folder}")),
            Err(GraphError::Http { status: 404, .. }) => {
                self.cache_folder(&d.profile, folder, None);
                Err(Fail::permanent(format!(
                    "the move of {message_id} to `{folder}` answered 404: the message or the folder is gone"
                )))
            }
            Err(e) => Err(graph_err(e)),
        }
    }
}

impl OutboundExecutor for GraphOutbound {
    fn name(&self) -> &'static str {
        "graph"
    }

    fn serves(&self, profile: &str) -> bool {
        self.accounts.contains_key(profile)
    }

    fn execute<'a>(&'a self, cx: &'a ExecCx, d: &'a Draft) -> BoxFuture<'a, Result<String, Fail>> {
        Box::pin(async move {
            let account = self
                .accounts
                .get(&d.profile)
                .ok_or_else(|| Fail::from(format!("no Graph account for profile {}", d.profile)))?;
            if let Outbound::MoveMail { message_id, folder } = &d.outbound {
                return self.move_mail(cx, account, d, message_id, folder).await;
            }
            execute(cx, account, d).await
        })
    }

    fn finished(&self, d: &Draft) {
        if let Some(account) = self.accounts.get(&d.profile) {
            let _ = std::fs::remove_file(marker_path(account, &d.id));
        }
    }
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

/// Save a marker atomically, on the blocking pool (fsync must not stall an async worker).
async fn save_marker(account: &Account, m: &Marker) -> Result<(), String> {
    let path = marker_path(account, &m.draft_id);
    let bytes = serde_json::to_vec_pretty(m).map_err(|e| e.to_string())?;
    tokio::task::spawn_blocking(move || {
        if let Some(dir) = path.parent() {
            crate::paths::ensure_private_dir(dir).map_err(|e| format!("{e:#}"))?;
        }
        crate::paths::write_atomic(&path, &bytes)
            .map_err(|e| format!("cannot save the send marker: {e}"))
    })
    .await
    .map_err(|e| format!("marker write task failed: {e}"))?
}

/// Whether `d` is still approved with the digest it had when this attempt began.
fn graph_err(e: GraphError) -> Fail {
    Fail {
        retry_after: e.retry_after(),
        reason: e.to_string(),
        permanent: false,
    }
}

async fn execute(cx: &ExecCx, account: &Account, d: &Draft) -> Result<String, Fail> {
    match &d.outbound {
        Outbound::SendEmail {
            to, cc, subject, ..
        } => {
            send_mail(
                cx,
                account,
                d,
                None,
                to,
                cc,
                subject,
                mail_body(&d.outbound),
            )
            .await
        }
        Outbound::ReplyEmail {
            message_id,
            to,
            subject,
            ..
        } => {
            // createReply only for a message that came from this Graph mailbox; anything else
            // (a spool item) is answered with a new message.
            let original = cx
                .inbox_record(message_id)
                .await
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
            let body = mail_body(&d.outbound);
            send_mail(cx, account, d, original, to, &[], subject, body).await
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
            cx.still_approved(d).await?;
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
            )
            .await?;
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
            cx.still_approved(d).await?;
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
        Outbound::MoveMail { .. } => Err(Fail::from(
            "a move is carried out by GraphOutbound::move_mail".to_string(),
        )),
        // Carried out locally by the executor (engine::deals), never sent to Graph.
        Outbound::CreateDeal { .. } => Err(Fail::from(
            "a deal proposal is not carried out through Microsoft Graph".to_string(),
        )),
    }
}

/// What a mail draft sends: its sanitized HTML as `HTML` when it is an HTML mail, else its
/// text.
fn mail_body(o: &Outbound) -> send::MailBody<'_> {
    match o.body_html() {
        Some(html) => send::MailBody::html(html),
        None => send::MailBody::text(o.body()),
    }
}

/// How long after a `/send` whose answer was lost the message may still sit in Drafts before
/// the service moves it: within this window "still in Drafts" does not yet mean "not sent".
const SEND_SETTLE: time::Duration = time::Duration::minutes(2);

#[allow(clippy::too_many_arguments)]
async fn send_mail(
    cx: &ExecCx,
    account: &Account,
    d: &Draft,
    reply_to: Option<&str>,
    to: &[String],
    cc: &[String],
    subject: &str,
    body: send::MailBody<'_>,
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
    attach(cx, account, d, &id).await?;
    cx.still_approved(d).await?;
    save_marker(account, &marker(d, Some(&id), "sending")).await?;
    send::send_draft(account, &id).await.map_err(graph_err)?;
    Ok(id)
}

/// Add the draft's attachments to remote draft `id`, each once: an earlier attempt that was
/// cut off may have added some (they are listed by name and skipped; a file whose upload
/// session was cut off is not listed, and is uploaded whole again).
async fn attach(cx: &ExecCx, account: &Account, d: &Draft, id: &str) -> Result<(), Fail> {
    let wanted = d.outbound.attachments();
    if wanted.is_empty() {
        return Ok(());
    }
    let mut present = send::attachment_names(account, id)
        .await
        .map_err(graph_err)?;
    for a in wanted {
        if let Some(i) = present.iter().position(|n| *n == a.name) {
            present.swap_remove(i);
            continue;
        }
        let bytes = cx.attachment_bytes(&a.sha256).await?;
        send::add_attachment(account, id, &a.name, &a.media_type, &bytes)
            .await
            .map_err(graph_err)?;
    }
    Ok(())
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
    body: send::MailBody<'_>,
) -> Result<String, Fail> {
    // Marker first: a crash after the create leaves a marked draft that recovery finds.
    save_marker(account, &marker(d, None, "creating")).await?;
    let id = match reply_to {
        Some(original) => match send::create_reply(account, original).await {
            // The message replied to is gone from the mailbox (deleted, or moved where this
            // id no longer finds it): asking again cannot change that.
            Err(GraphError::Http {
                status: 404, code, ..
            }) => {
                return Err(Fail::permanent(format!(
                    "the message replied to is gone from the mailbox (createReply answered 404 {code}); nothing to reply to"
                )));
            }
            r => r,
        },
        None => send::create_draft(account, &d.id, to, cc, subject, body).await,
    }
    .map_err(graph_err)?;
    save_marker(account, &marker(d, Some(&id), "created")).await?;
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
            permanent: false,
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
