//! Mail: a delta query on the Inbox.
//!
//! Each poll follows `@odata.nextLink` pages until the `@odata.deltaLink`, which is saved
//! (atomically, per profile) only after every page's items are durably in the inbox; a crash
//! in between replays from the previous link and the inbox's dedup by id absorbs the repeats.
//! `Prefer: IdType="ImmutableId"` keeps a message's id when it moves, so the inbox id (and a
//! reply's `createReply` target) stays valid. A 410 / `syncStateNotFound` drops the saved link
//! and starts a full sync. `@removed` entries are counted, never ingested.

use std::collections::BTreeMap;
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::client::GraphError;
use super::{Account, Deliver, deliver_all, parse_ts, party};
use crate::domain::{Channel, NewMessage};

const STATE: &str = "mail.json";
/// Safety bound on pages per poll (a sync of a huge mailbox continues next poll).
const MAX_PAGES: u32 = 500;
pub const IMMUTABLE_IDS: &str = "IdType=\"ImmutableId\"";

/// Properties asked for: what a record needs, nothing more.
const SELECT: &str = "subject,from,toRecipients,receivedDateTime,body,conversationId,internetMessageId,isRead,isDraft";

#[derive(Debug, Default, Serialize, Deserialize)]
struct MailState {
    #[serde(default)]
    delta_link: Option<String>,
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
}

impl MailSync {
    pub fn new(account: Arc<Account>) -> MailSync {
        MailSync { account }
    }

    fn initial() -> String {
        format!("/me/mailFolders/inbox/messages/delta?$select={SELECT}")
    }

    pub async fn poll_once(&self, deliver: &Deliver) -> Result<MailReport, GraphError> {
        let state: MailState = self.account.load_state(STATE);
        let mut report = MailReport::default();
        let mut link = state.delta_link.unwrap_or_else(Self::initial);
        loop {
            let page = match self
                .account
                .client
                .get(&link, &[IMMUTABLE_IDS, "odata.maxpagesize=50"])
                .await
            {
                Ok(p) => p,
                Err(GraphError::SyncReset(why)) if !report.resynced => {
                    tracing::info!(profile = %self.account.profile, "mail delta reset ({why}); full resync");
                    self.account
                        .save_state(STATE, &MailState::default())
                        .await?;
                    report.resynced = true;
                    link = Self::initial();
                    continue;
                }
                Err(e) => return Err(e),
            };
            report.pages += 1;
            let items = page["value"]
                .as_array()
                .ok_or_else(|| GraphError::Invalid("delta page without `value`".into()))?;
            let mut batch = Vec::new();
            for item in items {
                if item.get("@removed").is_some() {
                    report.removed += 1;
                    continue;
                }
                report.seen += 1;
                if let Some(m) = self.to_message(item) {
                    batch.push(m);
                }
            }
            report.new += deliver_all(deliver, batch).await?;
            if let Some(next) = page["@odata.nextLink"].as_str() {
                if report.pages >= MAX_PAGES {
                    // Not saved: the next poll starts this sync over, dedup absorbs repeats.
                    return Ok(report);
                }
                link = next.to_owned();
            } else if let Some(delta) = page["@odata.deltaLink"].as_str() {
                self.account
                    .save_state(
                        STATE,
                        &MailState {
                            delta_link: Some(delta.to_owned()),
                        },
                    )
                    .await?;
                return Ok(report);
            } else {
                return Err(GraphError::Invalid(
                    "delta page with neither nextLink nor deltaLink".into(),
                ));
            }
        }
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
        if let Some(v) = m["isRead"].as_bool() {
            meta.insert("is_read".into(), json!(v));
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
