//! Answers to `Query` actions. Results are JSON values for the surface to shape; inbound
//! records in them keep their `untrusted: true` mark.

use serde_json::{Value, json};

use super::{Call, Engine, EngineError, consumer_name};
use crate::domain::{DraftStatus, Query};
use crate::store::inbox::{Filter, InboxState};

/// Upper bound on records one read returns, whatever the caller asks for.
pub const MAX_READ: usize = 200;

impl Engine {
    pub(super) fn run_query(&self, q: Query, cx: &Call) -> Result<(Value, String), EngineError> {
        match q {
            Query::Status => {
                let st: InboxState = self.inbox.state()?;
                let queue = self.drafts.queue()?;
                let pending = queue.pending().count();
                let v = json!({
                    "version": env!("CARGO_PKG_VERSION"),
                    "profiles": self.profile_names(),
                    "inbox": {"last_seq": st.last_seq, "unread": st.unread},
                    "drafts": {"pending": pending, "total": queue.drafts.len()},
                    "sources": self.health(),
                });
                Ok((v, format!("pending={pending}")))
            }
            Query::InboxPull { consumer, since, limit, channel, profile, mark_consumed } => {
                let own = consumer_name(cx.actor);
                let consumer = match consumer {
                    Some(c) if cx.actor.is_operator() || Some(&c) == own.as_ref() => c,
                    Some(c) => {
                        return Err(EngineError::invalid(
                            format!("{} may only read with its own cursor, not `{c}`", cx.actor),
                            json!({"allowed_consumer": own}),
                        ));
                    }
                    None => own.ok_or_else(|| EngineError::invalid("this caller has no inbox cursor", Value::Null))?,
                };
                self.check_profile(profile.as_deref())?;
                let limit = limit.clamp(1, MAX_READ);
                let filter = Filter { channel, profile, text: None };
                let cursor = self.inbox.cursor(&consumer)?.unwrap_or(0);
                let from = since.unwrap_or(cursor);
                let batch = self.inbox.read_after(from, limit, &filter)?;
                let mut now_at = cursor;
                if mark_consumed && let Some(last) = batch.records.last() {
                    now_at = self.inbox.advance_cursor(&consumer, last.seq)?;
                }
                let n = batch.records.len();
                let v = json!({
                    "consumer": consumer,
                    "messages": batch.records,
                    "cursor": now_at,
                    "unread_remaining": batch.last_seq.saturating_sub(now_at),
                    "skipped_corrupt": batch.skipped_corrupt,
                });
                Ok((v, format!("{consumer} returned={n} cursor={now_at}")))
            }
            Query::InboxSearch { text, limit, channel, profile, before } => {
                self.check_profile(profile.as_deref())?;
                let text = text.trim().to_string();
                if text.is_empty() {
                    return Err(EngineError::invalid("search text is empty", json!({"field": "text"})));
                }
                let limit = limit.clamp(1, MAX_READ);
                let filter = Filter { channel, profile, text: Some(text) };
                let batch = self.inbox.read_before(before, limit, &filter)?;
                let n = batch.records.len();
                Ok((json!({"messages": batch.records, "skipped_corrupt": batch.skipped_corrupt}), format!("returned={n}")))
            }
            Query::InboxGet { key } => {
                let rec = match key.parse::<u64>() {
                    Ok(seq) => self.inbox.get(seq)?,
                    Err(_) => self.inbox.find_by_id(&key)?,
                }
                .ok_or_else(|| EngineError::NotFound(format!("no inbox item `{key}` (give a seq or a source id)")))?;
                let target = format!("#{}", rec.seq);
                Ok((serde_json::to_value(rec).unwrap_or_default(), target))
            }
            Query::DraftsList { all } => {
                let q = self.drafts.queue()?;
                let drafts: Vec<_> = q.drafts.into_iter().filter(|d| all || !d.status.is_final()).collect();
                let n = drafts.len();
                Ok((json!({"drafts": drafts}), format!("returned={n}")))
            }
            Query::DraftStatus { id } => {
                let d = self.existing_draft(&id)?;
                let awaiting = d.status == DraftStatus::Pending;
                let v = json!({"draft": d, "awaiting_operator": awaiting});
                Ok((v, id))
            }
        }
    }

    fn check_profile(&self, profile: Option<&str>) -> Result<(), EngineError> {
        match profile {
            Some(p) if !self.config.profiles.contains_key(p) => Err(EngineError::invalid(
                format!("unknown profile `{p}`"),
                json!({"field": "profile", "valid_profiles": self.profile_names()}),
            )),
            _ => Ok(()),
        }
    }
}
