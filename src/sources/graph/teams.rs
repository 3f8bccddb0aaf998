//! Teams: chats listed by their last message, then each changed chat's changed messages.
//!
//! Only documented query options are used:
//! - `GET /me/chats` ("List chats", learn.microsoft.com/graph/api/chat-list): `$expand=
//!   lastMessagePreview` with `$orderby=lastMessagePreview/createdDateTime desc`, `$top` ≤ 50.
//! - `GET /chats/{id}/messages` ("List messages in a chat",
//!   learn.microsoft.com/graph/api/chat-list-messages): `$top` ≤ 50; `$orderby` only
//!   `lastModifiedDateTime desc` (default) or `createdDateTime desc`; `$filter` on
//!   `lastModifiedDateTime` with `gt`/`lt` when ordered by `lastModifiedDateTime`, or on
//!   `createdDateTime` with `lt` only when ordered by `createdDateTime`. So new *and edited*
//!   messages are asked for with `lastModifiedDateTime gt <floor>`, newest change first, paged
//!   through `@odata.nextLink`; paging stops at the first item at or below the floor (in case
//!   a front end ignores the filter, nothing old is re-read past one page).
//!
//! The delegated `/me/chats/getAllMessages` is not available and is not used.
//!
//! An edited message (`lastEditedDateTime` set) is taken in as a record of its own
//! (`…/<message id>/edit/<lastEditedDateTime>`, `meta.edited_of` = the original record id), since
//! inbox records are immutable; a reaction also changes `lastModifiedDateTime` but not the text,
//! and comes back under the original id, which the inbox's dedup absorbs. Edits of old messages
//! in a chat without a newer message are not seen: the chat list orders by last *new* message.
//!
//! State per profile: the operator's own user id (their messages are skipped) and, per chat, the
//! newest `lastModifiedDateTime` taken in (full precision; queries send whole seconds, and the
//! client-side check against the precise floor drops the at most one repeat). It is saved only
//! after the new messages are durable.
//!
//! Where the chat-list scan stops: a chat never seen before is read back 24 hours, a known one
//! from its cursor. Chats come newest first, so the scan stops at the first chat at or below
//! the lowest floor a chat further down could still have: the start of the last complete scan
//! (`scanned`, less a few minutes for clock skew and listing lag: every chat whose last message
//! is older was read by that scan or an earlier one), and the floors of chats skipped since
//! (`behind`: a known one's cursor, a never-seen one's 24 hours). Without a record of a complete
//! scan (first poll, older state) the bound is 24 hours back and every known cursor. So a
//! never-seen chat's 24-hour cut-off does not hide a known chat further down with unread
//! messages (e.g. after the engine was off for days), and a caught-up poll still reads one page.
//! Not seen: a chat the operator is added to whose last message predates the last scan, until
//! its next message.
//!
//! One chat answering 403 or 404 (the operator left it, it was deleted, a policy hides it) is a
//! fault of that chat, not of the poll: it is skipped (logged, counted in
//! [`TeamsReport::chats_failed`]) with its cursor left where it was, so it is tried again next
//! poll, and the other chats are read and saved. A 429, 5xx or 401 stops the whole poll as
//! before (the poller backs off; nothing is saved, nothing lost).

use std::collections::{BTreeMap, BTreeSet};
use std::sync::Arc;

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};
use time::OffsetDateTime;

use super::client::GraphError;
use super::{Account, Deliver, deliver_all, parse_ts, rfc3339, rfc3339_precise};
use crate::domain::{Channel, NewMessage, Party};

const STATE: &str = "teams.json";
/// How far back a chat seen for the first time is read.
const FIRST_LOOK_BACK: time::Duration = time::Duration::hours(24);
const CHAT_PAGES: u32 = 5;
/// Allowance for skew between this clock (when a scan started) and Graph's (message times).
const SCAN_MARGIN: time::Duration = time::Duration::minutes(5);
/// Safety bound on pages of one chat per poll (50 each); beyond it the rest is skipped with a
/// warning rather than re-read forever.
const MESSAGE_PAGES: u32 = 20;

#[derive(Debug, Default, Serialize, Deserialize)]
struct TeamsState {
    #[serde(default)]
    me: Option<String>,
    /// chat id → newest lastModifiedDateTime taken in (RFC 3339).
    #[serde(default)]
    chats: BTreeMap<String, String>,
    /// Start of the last complete chat-list scan (RFC 3339).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    scanned: Option<String>,
    /// Known chats skipped (403 / 404) since: their cursors lag, the scan must reach them.
    #[serde(default, skip_serializing_if = "BTreeSet::is_empty")]
    behind: BTreeSet<String>,
}

#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct TeamsReport {
    pub new: u64,
    pub chats_checked: u64,
    pub skipped: u64,
    /// Chats skipped this poll because they answered 403 / 404 (tried again next poll).
    pub chats_failed: u64,
}

pub struct TeamsSync {
    account: Arc<Account>,
}

impl TeamsSync {
    pub fn new(account: Arc<Account>) -> TeamsSync {
        TeamsSync { account }
    }

    pub async fn poll_once(&self, deliver: &Deliver) -> Result<TeamsReport, GraphError> {
        let client = &self.account.client;
        let mut state: TeamsState = self.account.load_state(STATE);
        if state.me.is_none() {
            let me = client.get("/me?$select=id", &[]).await?;
            state.me = me["id"].as_str().map(str::to_owned);
        }
        let mut report = TeamsReport::default();
        let now = crate::domain::now();
        let mut link = "/me/chats?$expand=lastMessagePreview&$orderby=lastMessagePreview/createdDateTime%20desc&$top=50".to_owned();
        let mut changed: Vec<(String, OffsetDateTime)> = Vec::new();
        let first_look = now - FIRST_LOOK_BACK;
        let scanned = state.scanned.as_deref().and_then(parse_ts);
        // The scan's stopping point (see the module comment): the lowest floor a chat not yet
        // met in this scan may have.
        let base = scanned.map_or(first_look, |t| t - SCAN_MARGIN);
        let cursor = |id: &str| state.chats.get(id).and_then(|c| parse_ts(c));
        let mut pending: BTreeMap<String, OffsetDateTime> = match scanned {
            None => state
                .chats
                .keys()
                .filter_map(|id| cursor(id).map(|t| (id.clone(), t)))
                .collect(),
            Some(_) => state
                .behind
                .iter()
                .map(|id| (id.clone(), cursor(id).unwrap_or(first_look)))
                .collect(),
        };
        let mut complete = false;
        'pages: for _ in 0..CHAT_PAGES {
            let page = client.get(&link, &[]).await?;
            for chat in page["value"].as_array().into_iter().flatten() {
                let Some(id) = chat["id"].as_str() else {
                    continue;
                };
                let Some(last) = chat["lastMessagePreview"]["createdDateTime"]
                    .as_str()
                    .and_then(parse_ts)
                else {
                    continue;
                };
                pending.remove(id);
                let seen = state.chats.get(id).and_then(|s| parse_ts(s));
                let floor = seen.unwrap_or(first_look);
                if last > floor {
                    changed.push((id.to_owned(), floor));
                }
                let bound = pending.values().min().map_or(base, |p| base.min(*p));
                if last <= bound {
                    // Ordered newest first: every later chat is older still, and no floor
                    // of one is older than this.
                    complete = true;
                    break 'pages;
                }
            }
            match client.page_link(&page, "@odata.nextLink")? {
                Some(next) => link = next,
                None => {
                    complete = true;
                    break;
                }
            }
        }
        if !complete {
            tracing::warn!(profile = %self.account.profile, "more than {} chats to look through; the rest next poll", CHAT_PAGES * 50);
        }
        let mut failed = BTreeSet::new();
        for (chat_id, floor) in changed {
            report.chats_checked += 1;
            let (batch, newest, skipped) = match self.new_messages(&chat_id, floor, &state).await {
                Ok(r) => r,
                Err(e) if chat_unavailable(&e) => {
                    tracing::warn!(profile = %self.account.profile, "chat {chat_id} skipped this poll, tried again next poll: {e}");
                    report.chats_failed += 1;
                    failed.insert(chat_id);
                    continue;
                }
                Err(e) => return Err(e),
            };
            report.skipped += skipped;
            report.new += deliver_all(deliver, batch).await?;
            state.behind.remove(&chat_id);
            if let Some(n) = newest {
                state.chats.insert(chat_id, rfc3339_precise(n));
            }
        }
        if complete {
            // Every chat with a message since the stopping point was met: what was behind and
            // not met has nothing newer than its cursor.
            state.scanned = Some(rfc3339_precise(now));
            state.behind = failed;
        } else {
            state.behind.extend(failed);
        }
        self.account.save_state(STATE, &state).await?;
        Ok(report)
    }

    /// Messages of `chat_id` changed after `floor`, oldest first, without system messages, the
    /// operator's own and deleted ones; plus the newest change time seen and the skip count.
    async fn new_messages(
        &self,
        chat_id: &str,
        floor: OffsetDateTime,
        state: &TeamsState,
    ) -> Result<(Vec<NewMessage>, Option<OffsetDateTime>, u64), GraphError> {
        let client = &self.account.client;
        let mut link = format!(
            "/chats/{}/messages?$top=50&$orderby=lastModifiedDateTime%20desc&$filter=lastModifiedDateTime%20gt%20{}",
            urlencode(chat_id),
            rfc3339(floor)
        );
        let mut out = Vec::new();
        let mut newest: Option<OffsetDateTime> = None;
        let mut skipped = 0;
        let mut pages = 0;
        'pages: loop {
            let page = client.get(&link, &[]).await?;
            pages += 1;
            for m in page["value"].as_array().into_iter().flatten() {
                let Some(created) = m["createdDateTime"].as_str().and_then(parse_ts) else {
                    continue;
                };
                let modified = m["lastModifiedDateTime"]
                    .as_str()
                    .and_then(parse_ts)
                    .unwrap_or(created);
                if modified <= floor {
                    // Newest change first: everything after this is older still.
                    break 'pages;
                }
                newest = Some(newest.map_or(modified, |n| n.max(modified)));
                let own =
                    state.me.is_some() && m["from"]["user"]["id"].as_str() == state.me.as_deref();
                let system = m["messageType"].as_str().is_some_and(|t| t != "message");
                let deleted = !m["deletedDateTime"].is_null();
                if own || system || deleted {
                    skipped += 1;
                    continue;
                }
                if let Some(msg) = self.to_message(chat_id, m, created) {
                    out.push(msg);
                }
            }
            match client.page_link(&page, "@odata.nextLink")? {
                Some(_) if pages >= MESSAGE_PAGES => {
                    tracing::warn!(profile = %self.account.profile, "chat {chat_id}: more than {} changed messages since the last poll; older changes skipped", MESSAGE_PAGES * 50);
                    break;
                }
                Some(next) => link = next,
                None => break,
            }
        }
        out.sort_by_key(|m| m.ts);
        Ok((out, newest, skipped))
    }

    fn to_message(&self, chat_id: &str, m: &Value, created: OffsetDateTime) -> Option<NewMessage> {
        let msg_id = m["id"].as_str()?;
        let user = &m["from"]["user"];
        let app = &m["from"]["application"];
        let from = if user.is_object() {
            Party::new(
                user["displayName"].as_str().unwrap_or(""),
                user["id"].as_str().unwrap_or(""),
            )
        } else {
            Party::new(
                app["displayName"].as_str().unwrap_or("app"),
                app["id"].as_str().unwrap_or(""),
            )
        };
        let mut meta = BTreeMap::new();
        meta.insert("chat_id".into(), json!(chat_id));
        meta.insert("graph_id".into(), json!(msg_id));
        meta.insert("source".into(), json!("graph_teams"));
        // Chat message ids are unique only within their chat, and one chat can be seen by
        // two profiles' accounts (a federated chat between the operator's identities): the
        // profile is part of the id so each profile keeps its own record.
        let original = format!("teams/{}/{chat_id}/{msg_id}", self.account.profile);
        let (id, ts) = match m["lastEditedDateTime"].as_str().and_then(parse_ts) {
            Some(edited) => {
                meta.insert("edited_of".into(), json!(original));
                (
                    format!("{original}/edit/{}", rfc3339_precise(edited)),
                    edited,
                )
            }
            None => (original, created),
        };
        let html = m["body"]["contentType"]
            .as_str()
            .is_some_and(|t| t.eq_ignore_ascii_case("html"));
        let mut body = m["body"]["content"].as_str().unwrap_or("").to_owned();
        // What the message carries beside its text: the body holds only an
        // `<attachment id=…>` placeholder for each, so without this a shared file, a bot's
        // card or a quoted reply would arrive empty.
        for line in m["attachments"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(attachment_line)
            .take(crate::sanitize::MAX_ATTACHMENTS)
        {
            if html {
                body.push_str(&format!("<p>{}</p>", crate::sanitize::escape_markup(&line)));
            } else {
                body.push('\n');
                body.push_str(&line);
            }
        }
        Some(NewMessage {
            id,
            profile: self.account.profile.clone(),
            channel: Channel::Teams,
            thread_id: Some(chat_id.to_owned()),
            from,
            to: Vec::new(),
            subject: m["subject"]
                .as_str()
                .filter(|s| !s.is_empty())
                .map(str::to_owned),
            ts,
            body,
            html,
            meta,
            attachments: Vec::new(),
        })
    }
}

/// An answer about one chat that asking again soon will not change (403: no access to it any
/// more; 404 or 410: gone, the latter classified as a sync reset since Graph uses it for
/// expired delta state too): it must not stop the other chats.
fn chat_unavailable(e: &GraphError) -> bool {
    matches!(
        e,
        GraphError::Http {
            status: 403 | 404,
            ..
        } | GraphError::SyncReset(_)
    )
}

/// One line of text for a chat message's attachment (chatMessageAttachment): a shared file
/// (`reference`) by name and link, a quoted reply (`messageReference`) and a forwarded
/// message by who wrote what, a card (adaptive, hero, thumbnail) by its title and text blocks,
/// a code snippet by name; anything else by its name or content type.
fn attachment_line(a: &Value) -> Option<String> {
    let kind = a["contentType"].as_str().unwrap_or("");
    let name = a["name"].as_str().filter(|n| !n.is_empty());
    // `content` is a JSON document in a string for cards and references.
    let content: Value = a["content"]
        .as_str()
        .and_then(|c| serde_json::from_str(c).ok())
        .unwrap_or(Value::Null);
    let line = match kind {
        "reference" => format!(
            "Shared file: {}{}",
            name.unwrap_or("(unnamed)"),
            a["contentUrl"]
                .as_str()
                .map(|u| format!(" <{u}>"))
                .unwrap_or_default()
        ),
        "messageReference" | "forwardedMessageReference" => {
            let who = content["messageSender"]["user"]["displayName"]
                .as_str()
                .or_else(|| content["messageSender"]["application"]["displayName"].as_str())
                .unwrap_or("someone");
            let what = content["messagePreview"].as_str().unwrap_or("");
            let head = if kind == "messageReference" {
                "In reply to"
            } else {
                "Forwarded from"
            };
            format!("{head} {who}: \"{what}\"")
        }
        k if k.starts_with("application/vnd.microsoft.card.") => {
            let mut texts = Vec::new();
            card_texts(&content, &mut texts, 0);
            let what = k.trim_start_matches("application/vnd.microsoft.card.");
            if texts.is_empty() {
                format!(
                    "Card ({what}){}",
                    name.map(|n| format!(": {n}")).unwrap_or_default()
                )
            } else {
                format!("Card ({what}): {}", texts.join(" · "))
            }
        }
        _ => format!(
            "Attachment: {}",
            name.unwrap_or(if kind.is_empty() { "(unknown)" } else { kind })
        ),
    };
    Some(crate::sanitize::one_line(&line, 600))
}

/// The `title`, `subtitle` and `text` strings and the facts of a card, depth-first, bounded.
fn card_texts(v: &Value, out: &mut Vec<String>, depth: usize) {
    if depth > 16 || out.len() >= 40 {
        return;
    }
    match v {
        Value::Object(o) => {
            let text = |k: &str| {
                o.get(k)
                    .and_then(Value::as_str)
                    .map(str::trim)
                    .filter(|t| !t.is_empty())
            };
            // A fact (FactSet) is a title and its value.
            if let (Some(t), Some(val)) = (text("title"), text("value")) {
                out.push(format!("{t}: {val}"));
            } else {
                out.extend(
                    ["title", "subtitle", "text"]
                        .into_iter()
                        .filter_map(|k| text(k).map(str::to_owned)),
                );
            }
            for (k, child) in o {
                if !matches!(k.as_str(), "title" | "subtitle" | "text" | "value") {
                    card_texts(child, out, depth + 1);
                }
            }
        }
        Value::Array(a) => a.iter().for_each(|c| card_texts(c, out, depth + 1)),
        _ => {}
    }
}

/// Percent-encode a path segment (chat ids hold `:` and `@`, which are fine in paths, but be
/// strict about anything else).
pub(crate) fn urlencode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-._~:@".contains(&b) {
            out.push(b as char);
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}
