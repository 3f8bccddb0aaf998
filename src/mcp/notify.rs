//! Pushes to connected clients when the engine announces something.
//!
//! The engine announces an inbound item only after it is durably in the inbox, and every push
//! here is best effort: each send runs in its own task with a time limit, so a slow or gone
//! client can neither hold up the engine nor the other clients, and nothing is lost (the files
//! are the truth; `inbox_pull` reads them).
#![allow(deprecated)] // logging notifications are deprecated in 2026-07-28 but serve older clients

use std::sync::Arc;
use std::sync::atomic::Ordering;
use std::time::Duration;

use rmcp::model::{
    CustomNotification, LoggingLevel, LoggingMessageNotificationParam,
    ResourceUpdatedNotificationParam, ServerNotification,
};
use serde_json::{Value, json};
use tokio::sync::broadcast::error::RecvError;
use tokio_util::sync::CancellationToken;

use super::resources;
use super::server::{Hub, PeerEntry, PeerKind, level_rank};
use crate::domain::InboxRecord;
use crate::engine::EngineEvent;

/// Logger name of the inbox ping (Entraclaw seed, `entraclaw.inbox`).
pub const INBOX_LOGGER: &str = "opsdesk.inbox";
/// Method of Claude Code's channel push.
pub const CLAUDE_CHANNEL: &str = "notifications/claude/channel";
/// A send that takes longer than this is abandoned.
const SEND_LIMIT: Duration = Duration::from_secs(5);

/// Whether a client is Claude Code, the one client that turns channel pushes into turns.
/// Decided per client from its own `clientInfo.name`, never from a cached host.
pub fn is_claude_code(client: &str) -> bool {
    let c = client.trim().to_ascii_lowercase();
    c == "claude-code" || c == "claude code"
}

/// How often the inbox files are checked for items appended by other processes
/// (`opsdesk inbox add`, a second writer): their appends do not pass this engine's event bus.
const FOLLOW_EVERY: Duration = Duration::from_millis(200);

/// Follow the engine's events (and the inbox files) until `stop`, pushing notifications.
pub fn spawn(hub: Arc<Hub>, stop: CancellationToken) -> tokio::task::JoinHandle<()> {
    let mut rx = hub.engine().subscribe();
    super::vault_tools::watch(&hub, stop.clone());
    tokio::spawn(async move {
        // Items already there when the server starts are not news.
        let mut last = hub.engine().inbox().last_seq().unwrap_or(0);
        let mut tick = tokio::time::interval(FOLLOW_EVERY);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let ev = tokio::select! {
                _ = stop.cancelled() => break,
                _ = tick.tick() => {
                    catch_up(&hub, &mut last);
                    continue;
                }
                ev = rx.recv() => ev,
            };
            match ev {
                Ok(EngineEvent::InboxAppended(rec)) => {
                    if rec.seq > last + 1 {
                        catch_up(&hub, &mut last);
                    }
                    if rec.seq > last {
                        last = rec.seq;
                        inbox_appended(&hub, &rec);
                    }
                }
                Ok(EngineEvent::DraftChanged(_)) => resource_changed(&hub, resources::DRAFTS),
                Ok(_) => {}
                Err(RecvError::Lagged(n)) => {
                    // The files are the truth: the next catch-up reads what was missed.
                    tracing::debug!(
                        "MCP notifier fell {n} events behind; catching up from the inbox files"
                    );
                }
                Err(RecvError::Closed) => break,
            }
        }
    })
}

/// Notify about every item after `last` (appended by any process), oldest first.
fn catch_up(hub: &Arc<Hub>, last: &mut u64) {
    let inbox = hub.engine().inbox();
    let Ok(now) = inbox.last_seq() else { return };
    while *last < now {
        let Ok(batch) = inbox.read_after(*last, 100, &Default::default()) else {
            return;
        };
        if batch.records.is_empty() {
            *last = now;
            break;
        }
        for rec in &batch.records {
            *last = (*last).max(rec.seq);
            inbox_appended(hub, rec);
        }
    }
}

/// The log ping's data: who, where, a one-line summary and the unread count. Never the body.
pub fn inbox_ping(rec: &InboxRecord, unread: u64) -> Value {
    let summary = match &rec.subject {
        Some(s) if !s.is_empty() => crate::sanitize::one_line(s, 120),
        _ => crate::sanitize::one_line(&rec.preview, 80),
    };
    json!({
        "channel": rec.channel.as_str(),
        "profile": rec.profile,
        "from": crate::sanitize::one_line(rec.from.label(), 80),
        "summary": summary,
        "unread": unread,
        "id": rec.id,
        "seq": rec.seq,
        "hint": "call inbox_pull to read it",
    })
}

/// Claude Code's channel push: sanitized content plus meta (Entraclaw seed shape).
pub fn claude_channel(rec: &InboxRecord) -> Value {
    let f = &time::format_description::well_known::Rfc3339;
    json!({
        "content": rec.text,
        "meta": {
            "source": "opsdesk",
            "channel": rec.channel.as_str(),
            "profile": rec.profile,
            "chat_id": rec.thread_id.clone().unwrap_or_else(|| rec.channel.as_str().to_string()),
            "message_id": rec.id,
            "user": rec.from.label(),
            "ts": rec.ts.format(f).unwrap_or_default(),
            "untrusted": "true",
        }
    })
}

fn inbox_appended(hub: &Arc<Hub>, rec: &InboxRecord) {
    let unread = hub.engine().inbox().state().map(|s| s.unread).unwrap_or(0);
    let ping = inbox_ping(rec, unread);
    let channel = claude_channel(rec);
    for p in hub.live_peers() {
        let mut ping = ping.clone();
        let mut channel = is_claude_code(&p.client).then(|| channel.clone());
        let hub = hub.clone();
        let profile = rec.profile.clone();
        send(p, move |p| async move {
            // PHICLIENTS-VIEW (3/3): every push passes the PHI view (attributed to the
            // record's profile); one that cannot be redacted is not sent.
            let what = "push:opsdesk.inbox";
            let who = &p.identity;
            if let Err(e) = hub
                .present(who, &p.placeholders, what, &mut ping, Some(&profile))
                .await
            {
                tracing::warn!(client = %who.name, "inbox push withheld: {}", e.message);
                return;
            }
            if let Some(c) = channel.as_mut()
                && let Err(e) = hub
                    .present(who, &p.placeholders, CLAUDE_CHANNEL, c, Some(&profile))
                    .await
            {
                tracing::warn!(client = %who.name, "channel push withheld: {}", e.message);
                return;
            }
            match &p.kind {
                PeerKind::Session(s) => {
                    let level = s.log_level.load(Ordering::Relaxed);
                    if level <= level_rank(LoggingLevel::Info) {
                        let _ = p.peer.notify_logging_message(log(ping)).await;
                    }
                    if s.inbox_subscribed.load(Ordering::Relaxed) {
                        let _ = p
                            .peer
                            .notify_resource_updated(ResourceUpdatedNotificationParam::new(
                                resources::INBOX,
                            ))
                            .await;
                    }
                }
                PeerKind::Listen { sink, log_level } => {
                    // The sink sends only what the client's filter accepted.
                    let _ = sink.notify_resource_updated(resources::INBOX).await;
                    // Logging rides the listen stream only when the client asked for it.
                    if log_level.is_some_and(|l| level_rank(l) <= level_rank(LoggingLevel::Info)) {
                        let _ = p.peer.notify_logging_message(log(ping)).await;
                    }
                }
            }
            if let Some(params) = channel {
                let n = CustomNotification::new(CLAUDE_CHANNEL, Some(params));
                let _ = p
                    .peer
                    .send_notification(ServerNotification::CustomNotification(n))
                    .await;
            }
        });
    }
}

fn resource_changed(hub: &Arc<Hub>, uri: &'static str) {
    for p in hub.live_peers() {
        send(p, move |p| async move {
            match &p.kind {
                PeerKind::Session(s) => {
                    let subscribed = if uri == resources::INBOX {
                        s.inbox_subscribed.load(Ordering::Relaxed)
                    } else {
                        s.drafts_subscribed.load(Ordering::Relaxed)
                    };
                    if subscribed {
                        let _ = p
                            .peer
                            .notify_resource_updated(ResourceUpdatedNotificationParam::new(uri))
                            .await;
                    }
                }
                PeerKind::Listen { sink, .. } => {
                    let _ = sink.notify_resource_updated(uri).await;
                }
            }
        });
    }
}

fn log(data: Value) -> LoggingMessageNotificationParam {
    LoggingMessageNotificationParam::new(LoggingLevel::Info, data).with_logger(INBOX_LOGGER)
}

/// Run one client's sends in their own task, bounded in time.
fn send<F, Fut>(p: PeerEntry, f: F)
where
    F: FnOnce(PeerEntry) -> Fut + Send + 'static,
    Fut: std::future::Future<Output = ()> + Send + 'static,
{
    let client = p.client.clone();
    tokio::spawn(async move {
        if tokio::time::timeout(SEND_LIMIT, f(p)).await.is_err() {
            tracing::debug!(client = %client, "MCP notification abandoned (client too slow)");
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_claude_code_gets_the_channel_push() {
        assert!(is_claude_code("claude-code"));
        assert!(is_claude_code("Claude Code"));
        assert!(!is_claude_code("copilot"));
        assert!(!is_claude_code("vscode"));
        assert!(!is_claude_code("claude-code-impostor"));
    }
}
