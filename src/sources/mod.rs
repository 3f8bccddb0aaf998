//! Inbound sources: everything that turns outside traffic into [`NewMessage`]s.
//!
//! A source never writes the inbox itself: it hands raw items to a [`Sink`], which sanitizes
//! them ([`crate::domain::to_record`]), appends them durably and only then announces them
//! (principles 1 and 4 in docs/ARCHITECTURE.md: durable first, inbound is untrusted). A source treats every item as untrusted data.

use crate::domain::IngestError;
use crate::domain::NewMessage;
use crate::store::inbox::{Appended, Inbox};

pub mod classify;
pub mod demo;
pub mod graph;
pub(crate) mod open_writers;
pub mod poller;
pub mod spool;

/// Where sources deliver inbound items. The engine implements it (sanitizes via
/// `sanitize::to_record`, appends durably, then announces).
///
/// An error means the item was *not* stored. Its kind tells a source what to do: a
/// [`IngestFailure::Refused`] item is at fault and offering it again cannot help (reject it);
/// a [`IngestFailure::Store`] failure is the store's (keep the item and offer it again later).
pub trait Sink: Send + Sync {
    fn ingest(&self, msg: NewMessage) -> Result<Appended, IngestFailure>;

    /// Several items, stored together (one durable batch) or, on a content error, not at all;
    /// the error then names the item (`item 3 of 40: …`). The default stores them one by one,
    /// so earlier items may be stored when a later one is refused.
    fn ingest_batch(&self, msgs: Vec<NewMessage>) -> Result<Vec<Appended>, IngestFailure> {
        let count = msgs.len();
        msgs.into_iter()
            .enumerate()
            .map(|(i, m)| self.ingest(m).map_err(|e| e.at(i, count)))
            .collect()
    }
}

/// Why a sink did not store an item (or a batch).
#[derive(Debug, thiserror::Error)]
pub enum IngestFailure {
    /// The content is at fault: retrying cannot help. `item` is `(index, count)` in a batch.
    #[error("{}{reason}", item.map(|(i, n)| format!("item {} of {n}: ", i + 1)).unwrap_or_default())]
    Refused {
        item: Option<(usize, usize)>,
        reason: IngestError,
    },
    /// Storing failed (I/O, a full disk, a lock): the source keeps the item for later.
    #[error(transparent)]
    Store(#[from] anyhow::Error),
}

impl IngestFailure {
    /// Name the item within its batch (a store failure concerns the whole batch).
    pub fn at(self, index: usize, count: usize) -> Self {
        match self {
            IngestFailure::Refused { reason, .. } => IngestFailure::Refused {
                item: Some((index, count)),
                reason,
            },
            other => other,
        }
    }
}

impl From<IngestError> for IngestFailure {
    fn from(reason: IngestError) -> Self {
        IngestFailure::Refused { item: None, reason }
    }
}

/// Sanitize every item first (so a content error stores nothing), naming the failing item.
pub(crate) fn to_records(
    msgs: Vec<NewMessage>,
) -> Result<Vec<crate::domain::InboxRecord>, IngestFailure> {
    let count = msgs.len();
    msgs.into_iter()
        .enumerate()
        .map(|(i, m)| crate::domain::to_record(m).map_err(|e| IngestFailure::from(e).at(i, count)))
        .collect()
}

/// The plain sink: sanitize and append, nothing else. For tests and simple tools; the engine
/// has its own that also audits and broadcasts.
pub struct InboxSink<'a>(pub &'a Inbox);

impl Sink for InboxSink<'_> {
    fn ingest(&self, msg: NewMessage) -> Result<Appended, IngestFailure> {
        let record = crate::domain::to_record(msg)?;
        Ok(self.0.append(record).map_err(anyhow::Error::from)?)
    }

    fn ingest_batch(&self, msgs: Vec<NewMessage>) -> Result<Vec<Appended>, IngestFailure> {
        Ok(self
            .0
            .append_batch(to_records(msgs)?)
            .map_err(anyhow::Error::from)?)
    }
}
