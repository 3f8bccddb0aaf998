//! Mail: a delta query on the Inbox.
//!
//! Each poll follows `@odata.nextLink` pages until the `@odata.deltaLink`. Once a page's items
//! are durably in the inbox, its `nextLink` is saved (atomically, per profile) as the resume
//! point, so a round cut short (a 429 or 5xx midway, a crash, the per-poll page bound of a large
//! first sync) continues where it stopped instead of starting over; the `deltaLink` replaces it
//! at the end of the round. A crash between a page's delivery and the save replays that page,
//! and the inbox's dedup by id absorbs the repeats.
//! `Prefer: IdType="ImmutableId"` keeps a message's id when it moves, so the inbox id (and a
//! reply's `createReply` target) stays valid. A 410 / `syncStateNotFound` drops the saved link
//! and starts a full sync. `@removed` entries are counted, never ingested.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use base64::Engine as _;

use super::client::GraphError;
use super::teams::urlencode;
use super::{Account, Deliver, deliver_all, parse_ts, party};
use crate::domain::{Channel, NewMessage};
use crate::sources::poller::SourceHost;
use crate::store::attachments::{AttachmentStore, Content, Incoming};

const STATE: &str = "mail.json";
/// Meta key: the HTTP status with which listing the message's attachments failed (403 / 404);
/// the record lists none (or those of the pages read before).
pub const META_ATTACHMENTS_UNAVAILABLE: &str = "attachments_unavailable";
/// Safety bound on pages per poll (a sync of a huge mailbox continues next poll).
const MAX_PAGES: u32 = 500;
/// Meta key: the addresses a reply goes to when the message named them in `replyTo`.
pub const META_REPLY_TO: &str = "reply_to";
pub(crate) const IMMUTABLE_IDS: &str = "IdType=\"ImmutableId\"";

/// Whether a failure of the link a poll resumed from is one asking again will not mend, so the
/// saved link is dropped for a full sync: a client error other than auth (401 is refreshed in
/// the client, 403 is the mailbox's permission, which a new sync would meet too) and
/// throttling, or an answer of the wrong shape (including a link off our origin).
fn stale(e: &GraphError) -> bool {
    match e {
        GraphError::Http { status, .. } => {
            (400..500).contains(status) && !matches!(status, 401 | 403 | 408 | 429)
        }
        GraphError::Invalid(_) => true,
        _ => false,
    }
}

/// Properties asked for: what a record needs, nothing more.
const SELECT: &str = "subject,from,replyTo,toRecipients,receivedDateTime,body,conversationId,internetMessageId,isRead,isDraft,hasAttachments";

#[derive(Debug, Default, Serialize, Deserialize)]
struct MailState {
    #[serde(default)]
    delta_link: Option<String>,
    /// The `nextLink` after the last delivered page of a round in progress: where the next poll
    /// resumes (it wins over `delta_link`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    next_link: Option<String>,
}

/// What one poll did.
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct MailReport {
    pub new: u64,
    pub seen: u64,
    pub removed: u64,
    pub pages: u32,
    pub resynced: bool,
}

pub struct MailSync {
    account: Arc<Account>,
    attachments: Option<Attachments>,
}

/// What taking in attachments needs: the store, and the host to ask whether a message is
/// already in the inbox (a re-polled message's attachments are not fetched again).
struct Attachments {
    store: AttachmentStore,
    host: Arc<dyn SourceHost>,
}

impl MailSync {
    pub fn new(account: Arc<Account>) -> MailSync {
        MailSync {
            account,
            attachments: None,
        }
    }

    /// Take in attachments of messages with `hasAttachments`: bytes into `store`, metadata
    /// on the record. Without this, attachments are not fetched.
    pub fn with_attachments(
        mut self,
        store: AttachmentStore,
        host: Arc<dyn SourceHost>,
    ) -> MailSync {
        self.attachments = Some(Attachments { store, host });
        self
    }

    fn initial() -> String {
        format!("/me/mailFolders/inbox/messages/delta?$select={SELECT}")
    }

    pub async fn poll_once(&self, deliver: &Deliver) -> Result<MailReport, GraphError> {
        let state: MailState = self.account.load_state(STATE);
        let saved = state.next_link.or(state.delta_link);
        let mut report = MailReport::default();
        let mut progressed = false;
        let start = saved.clone().unwrap_or_else(Self::initial);
        match self
            .round(start, deliver, &mut report, &mut progressed)
            .await
        {
            Ok(()) => {}
            // The delta state is gone (anywhere in the round), or the link this poll resumed
            // from keeps failing in a way asking again cannot mend (a 4xx other than auth and
            // throttling, a page of the wrong shape, a link off our origin): without starting
            // over, every later poll would fail on the same saved link. A full sync repeats
            // what the inbox holds, and its dedup by id absorbs that.
            Err(e)
                if matches!(e, GraphError::SyncReset(_))
                    || (saved.is_some() && !progressed && stale(&e)) =>
            {
                tracing::info!(profile = %self.account.profile, "mail delta state unusable ({e}); full resync");
                self.account
                    .save_state(STATE, &MailState::default())
                    .await?;
                report.resynced = true;
                self.round(Self::initial(), deliver, &mut report, &mut progressed)
                    .await?;
            }
            Err(e) => return Err(e),
        }
        Ok(report)
    }

    /// One round from `link`: pages until the `deltaLink` (or [`MAX_PAGES`]), each page's
    /// items delivered before its successor is saved as the resume point (`progressed` once
    /// one was).
    async fn round(
        &self,
        mut link: String,
        deliver: &Deliver,
        report: &mut MailReport,
        progressed: &mut bool,
    ) -> Result<(), GraphError> {
        let client = &self.account.client;
        loop {
            let page = client
                .get(&link, &[IMMUTABLE_IDS, "odata.maxpagesize=50"])
                .await?;
            report.pages += 1;
            let items = page["value"]
                .as_array()
                .ok_or_else(|| GraphError::Invalid("delta page without `value`".into()))?;
            let next = client.page_link(&page, "@odata.nextLink")?;
            let delta = client.page_link(&page, "@odata.deltaLink")?;
            if next.is_none() && delta.is_none() {
                return Err(GraphError::Invalid(
                    "delta page with neither nextLink nor deltaLink".into(),
                ));
            }
            let mut batch = Vec::new();
            for item in items {
                if item.get("@removed").is_some() {
                    report.removed += 1;
                    continue;
                }
                report.seen += 1;
                if let Some(mut m) = self.to_message(item) {
                    if item["hasAttachments"].as_bool() == Some(true) {
                        self.attach(&mut m).await?;
                    }
                    batch.push(m);
                }
            }
            report.new += deliver_all(deliver, batch).await?;
            // This page is durable: a round stopped from here on resumes at the next link
            // (which wins over the delta link; only the round's last page carries that).
            let state = MailState {
                delta_link: if next.is_none() { delta } else { None },
                next_link: next.clone(),
            };
            self.account.save_state(STATE, &state).await?;
            *progressed = true;
            match next {
                Some(next) if report.pages < MAX_PAGES => link = next,
                // Done, or at the bound: the rest of a large sync comes next poll, from the
                // saved link.
                _ => return Ok(()),
            }
        }
    }

    /// Fetch `m`'s attachments (`GET /me/messages/{id}/attachments`) and store them. A file
    /// attachment's bytes come from the listing's `contentBytes` when it carries them, else
    /// from `/attachments/{id}/$value` (streamed, and only when the declared size is within
    /// the per-file limit); an item attachment (an attached mail, event or contact) is
    /// fetched as its MIME through `$value`; a reference attachment is a link, kept as such.
    async fn attach(&self, m: &mut NewMessage) -> Result<(), GraphError> {
        let Some(att) = &self.attachments else {
            return Ok(());
        };
        let (host, id) = (att.host.clone(), m.id.clone());
        let known = tokio::task::spawn_blocking(move || host.has_item(&id))
            .await
            .map_err(|e| GraphError::Local(e.to_string()))?;
        if known {
            return Ok(());
        }
        let client = &self.account.client;
        let max = att.store.limits().max_file_bytes;
        let base = format!("/me/messages/{}/attachments", urlencode(&m.id));
        let mut link = base.clone();
        let mut incoming = Vec::new();
        // Only the attachments a record lists are fetched; the rest are counted (meta).
        let mut carried = 0usize;
        for _ in 0..MAX_PAGES {
            let page = match client.get(&link, &[IMMUTABLE_IDS]).await {
                Ok(p) => p,
                // The message is readable but its attachments are not (403: a policy or a
                // protected item; 404: gone since the delta page; any other client error but
                // auth, timeout and throttling): asking again would fail the same way, so the
                // message comes in without them, saying so, rather than stalling the
                // mailbox's sync on it.
                Err(GraphError::Http { status, code, .. })
                    if (400..500).contains(&status) && !matches!(status, 401 | 408 | 429) =>
                {
                    tracing::warn!(status, %code, "attachments of a message not listed; taken in without them");
                    m.meta
                        .insert(META_ATTACHMENTS_UNAVAILABLE.into(), json!(status));
                    break;
                }
                Err(e) => return Err(e),
            };
            let items = page["value"]
                .as_array()
                .ok_or_else(|| GraphError::Invalid("attachments without `value`".into()))?;
            for a in items {
                carried += 1;
                if incoming.len() < crate::sanitize::MAX_ATTACHMENTS {
                    incoming.push(self.one_attachment(a, &base, max).await?);
                }
            }
            match client.page_link(&page, "@odata.nextLink")? {
                Some(next) => link = next,
                None => break,
            }
        }
        crate::store::attachments::note_dropped(&mut m.meta, carried);
        let (store, profile) = (att.store.clone(), m.profile.clone());
        m.attachments =
            tokio::task::spawn_blocking(move || store.store_message(&profile, incoming))
                .await
                .map_err(|e| GraphError::Local(e.to_string()))?
                .map_err(|e| GraphError::Local(format!("cannot store attachments: {e}")))?;
        Ok(())
    }

    async fn one_attachment(
        &self,
        a: &Value,
        base: &str,
        max: u64,
    ) -> Result<Incoming, GraphError> {
        let kind = a["@odata.type"].as_str().unwrap_or("");
        let name = a["name"].as_str().unwrap_or("").to_owned();
        let declared = a["size"].as_u64().unwrap_or(0);
        let inline = a["isInline"].as_bool().unwrap_or(false);
        let aid = a["id"].as_str().unwrap_or("");
        let mut media_type = a["contentType"].as_str().unwrap_or("").to_owned();
        let content = match kind {
            "#microsoft.graph.referenceAttachment" => Content::Link,
            "#microsoft.graph.fileAttachment" | "#microsoft.graph.itemAttachment" => {
                if kind == "#microsoft.graph.itemAttachment" {
                    // `$value` of an attached item is its MIME form.
                    media_type = "message/rfc822".into();
                }
                // Unreadable `contentBytes` are fetched through `$value` instead.
                let listed = a["contentBytes"]
                    .as_str()
                    .and_then(|b| base64::engine::general_purpose::STANDARD.decode(b).ok());
                match listed {
                    Some(bytes) => Content::Bytes(bytes),
                    // Graph's `size` counts a little metadata too: it is an upper bound.
                    None if declared > max || aid.is_empty() => {
                        Content::NotFetched { size: declared }
                    }
                    None => {
                        let path = format!("{base}/{}/$value", urlencode(aid));
                        match self.account.client.get_bytes(&path, max).await {
                            Ok(Some(bytes)) => Content::Bytes(bytes),
                            Ok(None) => Content::NotFetched {
                                size: declared.max(max + 1),
                            },
                            // Removed since the listing (404), or an item Graph cannot give as
                            // MIME (405): a retry would fail the same way, so the attachment is
                            // listed without bytes instead of stalling the mailbox's sync.
                            Err(GraphError::Http { status, code, .. })
                                if (400..500).contains(&status) =>
                            {
                                tracing::warn!(status, %code, "attachment not fetched");
                                Content::NotFetched { size: declared }
                            }
                            Err(e) => return Err(e),
                        }
                    }
                }
            }
            // A type this version does not know: listed without bytes rather than failing
            // every poll of the mailbox on it.
            other => {
                tracing::warn!(
                    kind = %crate::sanitize::one_line(other, 80),
                    "attachment of an unknown type: listed, not fetched"
                );
                Content::NotFetched { size: declared }
            }
        };
        let name = if name.is_empty() && kind == "#microsoft.graph.itemAttachment" {
            "attached item.eml".to_owned()
        } else {
            name
        };
        Ok(Incoming {
            name,
            media_type,
            inline,
            content,
        })
    }

    fn to_message(&self, m: &Value) -> Option<NewMessage> {
        let id = m["id"].as_str()?.to_owned();
        if m["isDraft"].as_bool() == Some(true) {
            return None;
        }
        let mut meta = BTreeMap::new();
        meta.insert("graph_id".into(), json!(id));
        if let Some(v) = m["internetMessageId"].as_str() {
            meta.insert("internet_message_id".into(), json!(v));
        }
        // A boolean; the delta reference's own example writes it as a string ("true").
        let is_read = m["isRead"]
            .as_bool()
            .or_else(|| m["isRead"].as_str().and_then(|v| v.parse().ok()));
        if let Some(v) = is_read {
            meta.insert("is_read".into(), json!(v));
        }
        // Where a reply goes: createReply's reference says to the `replyTo` recipients, not
        // `from`, when the message names any (mailing lists, ticketing systems).
        let reply_to: Vec<String> = m["replyTo"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|r| party(&r["emailAddress"]).address)
            .filter(|a| !a.is_empty())
            .collect();
        if !reply_to.is_empty() {
            meta.insert(META_REPLY_TO.into(), json!(reply_to));
        }
        meta.insert("source".into(), json!("graph_mail"));
        Some(NewMessage {
            id,
            profile: self.account.profile.clone(),
            channel: Channel::Email,
            thread_id: m["conversationId"].as_str().map(str::to_owned),
            from: party(&m["from"]["emailAddress"]),
            to: m["toRecipients"]
                .as_array()
                .map(|a| a.iter().map(|r| party(&r["emailAddress"])).collect())
                .unwrap_or_default(),
            subject: m["subject"].as_str().map(str::to_owned),
            ts: m["receivedDateTime"]
                .as_str()
                .and_then(parse_ts)
                .unwrap_or_else(crate::domain::now),
            body: m["body"]["content"].as_str().unwrap_or("").to_owned(),
            html: m["body"]["contentType"]
                .as_str()
                .is_some_and(|t| t.eq_ignore_ascii_case("html")),
            meta,
            attachments: Vec::new(),
        })
    }
}
