//! Inbound sources: everything that turns outside traffic into [`NewMessage`]s.
//!
//! A source never writes the inbox itself: it hands raw items to a [`Sink`], which sanitizes
//! them ([`crate::sanitize::to_record`]), appends them durably and only then announces them
//! (DESIGN principles 1 and 4). A source treats every item as untrusted data.

use crate::domain::NewMessage;
use crate::store::inbox::{Appended, Inbox};

pub mod demo;
pub mod graph;
pub mod open_writers;
pub mod poller;
pub mod spool;

/// Where sources deliver inbound items. The engine implements it (sanitizes via
/// `sanitize::to_record`, appends durably, then announces).
///
/// An error means the item was *not* stored: the source keeps it and offers it again later.
/// Content the sink refuses as invalid is reported as a [`crate::sanitize::IngestError`]
/// somewhere in the error chain, so a source can tell "bad item" from "try again".
pub trait Sink: Send + Sync {
    fn ingest(&self, msg: NewMessage) -> anyhow::Result<Appended>;

    /// Several items, stored together (one durable batch) or, on a content error, not at all;
    /// the error then names the item (`item 3 of 40: …`). The default stores them one by one,
    /// so earlier items may be stored when a later one is refused.
    fn ingest_batch(&self, msgs: Vec<NewMessage>) -> anyhow::Result<Vec<Appended>> {
        let count = msgs.len();
        msgs.into_iter()
            .enumerate()
            .map(|(i, m)| {
                self.ingest(m)
                    .map_err(|e| e.context(format!("item {} of {count}", i + 1)))
            })
            .collect()
    }
}

/// Sanitize every item first (so a content error stores nothing), naming the failing item.
pub fn to_records(msgs: Vec<NewMessage>) -> anyhow::Result<Vec<crate::domain::InboxRecord>> {
    let count = msgs.len();
    msgs.into_iter()
        .enumerate()
        .map(|(i, m)| {
            crate::sanitize::to_record(m)
                .map_err(|e| anyhow::Error::new(e).context(format!("item {} of {count}", i + 1)))
        })
        .collect()
}

/// The plain sink: sanitize and append, nothing else. For tests and simple tools; the engine
/// has its own that also audits and broadcasts.
pub struct InboxSink<'a>(pub &'a Inbox);

impl Sink for InboxSink<'_> {
    fn ingest(&self, msg: NewMessage) -> anyhow::Result<Appended> {
        let record = crate::sanitize::to_record(msg)?;
        Ok(self.0.append(record)?)
    }

    fn ingest_batch(&self, msgs: Vec<NewMessage>) -> anyhow::Result<Vec<Appended>> {
        Ok(self.0.append_batch(to_records(msgs)?)?)
    }
}
