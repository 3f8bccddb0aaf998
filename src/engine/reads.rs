//! The engine's unaudited reads, each named for what it returns.
//!
//! The stores are the engine's own: no surface holds an `Inbox`, `Drafts`, `Deals` or `Audit`
//! (the fields are private and there are no accessors). A client's read — an MCP tool, the
//! Copilot webhook, `inbox pull` — goes through [`Engine::read`] / [`Engine::submit`] with a
//! `Query`, which checks governance and writes its audit record. What is here is the short,
//! explicit list of reads that are *not* audited, because the operator's own process shows its
//! own files to the operator (the console's paging, `drafts list`, `inbox show`), a background
//! task counts (the MCP notifier's unread figure), or a test inspects the result of an action.
//! None of them writes anything but a consumer cursor, and none returns text to a remote party
//! without passing the PHI view at that surface.

use super::Engine;
use crate::domain::{AuditRecord, Deal, Draft, DraftEvent, InboxRecord};
use crate::store::StoreError;
use crate::store::audit::VerifyReport;
use crate::store::deals::Book;
use crate::store::drafts::Queue;
use crate::store::inbox::{Batch, Filter, InboxState};
use std::sync::Arc;

impl Engine {
    // ---- inbox ----

    /// Up to `limit` records older than `before` (newest first; `None` = from the newest),
    /// matching `filter`. Unaudited: the console's paging and `inbox list`.
    pub fn unaudited_inbox_page_before(
        &self,
        before: Option<u64>,
        limit: usize,
        filter: &Filter,
    ) -> Result<Batch, StoreError> {
        self.inbox.read_before(before, limit, filter)
    }

    /// Up to `limit` records after seq `after` (oldest first), matching `filter`. Unaudited:
    /// the console's paging and the MCP notifier's announcements.
    pub fn unaudited_inbox_page_after(
        &self,
        after: u64,
        limit: usize,
        filter: &Filter,
    ) -> Result<Batch, StoreError> {
        self.inbox.read_after(after, limit, filter)
    }

    /// One record by seq, or `None`.
    pub fn inbox_record(&self, seq: u64) -> Result<Option<InboxRecord>, StoreError> {
        self.inbox.get(seq)
    }

    /// One record by its source id, or `None`.
    pub fn inbox_record_by_id(&self, id: &str) -> Result<Option<InboxRecord>, StoreError> {
        self.inbox.find_by_id(id)
    }

    /// Where a stored attachment's bytes are on this machine (`None` when not stored). For
    /// the operator's own process only (`inbox show`, the console): the path is never handed
    /// to a remote party, whose way to the bytes is the audited `opsdesk://attachments/` read.
    pub fn attachment_path(&self, sha256: &str) -> Option<std::path::PathBuf> {
        self.attachments.path_of(sha256).filter(|p| p.is_file())
    }

    /// A stored attachment's bytes, checked against its hash (`None` when not stored): the
    /// console's "save a copy", for the operator's own process only, like `attachment_path`.
    pub fn attachment_bytes_checked(&self, sha256: &str) -> std::io::Result<Option<Vec<u8>>> {
        Ok(self.attachments.read(sha256, u64::MAX)?.map(|(b, _)| b))
    }

    /// The inbox's last seq, unread count and consumer cursors.
    pub fn inbox_state(&self) -> Result<InboxState, StoreError> {
        self.inbox.state()
    }

    /// The seq of the newest record (0 when empty).
    pub fn inbox_last_seq(&self) -> Result<u64, StoreError> {
        self.inbox.last_seq()
    }

    /// Where `consumer` has read up to, if it ever has.
    pub fn inbox_cursor(&self, consumer: &str) -> Result<Option<u64>, StoreError> {
        self.inbox.cursor(consumer)
    }

    /// Move `consumer`'s cursor (the console marking what the operator has seen).
    pub fn set_inbox_cursor(&self, consumer: &str, seq: u64) -> Result<(), StoreError> {
        self.inbox.set_cursor(consumer, seq)
    }

    // ---- drafts ----

    /// One draft folded from its events, or `None`.
    pub fn draft(&self, id: &str) -> Result<Option<Draft>, StoreError> {
        self.drafts.get(id)
    }

    /// A draft's events, oldest first (its life as the console and `drafts show` tell it).
    pub fn draft_history(&self, id: &str) -> Result<Vec<DraftEvent>, StoreError> {
        self.drafts.history(id)
    }

    /// Every draft, with the events the fold refused listed beside them.
    pub fn draft_queue(&self) -> Result<Queue, StoreError> {
        self.drafts.queue()
    }

    /// Whether `ev` would be accepted by the drafts log as it stands (no write).
    pub fn check_draft_event(&self, ev: &DraftEvent) -> Result<(), StoreError> {
        self.drafts.check(ev)
    }

    // ---- deals ----

    /// One deal, or `None`.
    pub fn deal(&self, id: &str) -> Result<Option<Deal>, StoreError> {
        self.deals.get(id)
    }

    /// The whole book of deals (cached until the log changes).
    pub fn deal_book(&self) -> Result<Arc<Book>, StoreError> {
        self.deals.book()
    }

    // ---- assistant ----

    /// The stored triage of one inbox item, if any (the console's rows, `assistant` CLI).
    pub fn triage_of(
        &self,
        seq: u64,
    ) -> Result<Option<crate::assistant::store::TriageRecord>, crate::store::StoreError> {
        self.assistant.triage_of(seq)
    }

    /// Every stored triage, by seq.
    pub fn triage_all(
        &self,
    ) -> Result<
        std::collections::BTreeMap<u64, crate::assistant::store::TriageRecord>,
        crate::store::StoreError,
    > {
        self.assistant.triage()
    }

    /// Every stored deadline.
    pub fn deadlines_all(
        &self,
    ) -> Result<Vec<crate::assistant::store::DeadlineRecord>, crate::store::StoreError> {
        self.assistant.deadlines()
    }

    // ---- audit ----

    /// The last `n` audit records, oldest first.
    pub fn audit_tail(&self, n: usize) -> Result<Vec<AuditRecord>, StoreError> {
        self.audit.tail(n)
    }

    /// The whole chain checked from its first record to its anchored head.
    pub fn verify_audit(&self) -> Result<VerifyReport, StoreError> {
        self.audit.verify()
    }
}
