//! A crash is not tampering: inbox records stored by a writer that died before their audit
//! record was written are audited when the engine next opens.
//!
//! An ingest appends the inbox record (durable) and then its `inbox.append` audit record. A
//! writer killed between the two (`kill -9` of `opsdesk inbox add`, a crash of `serve` while
//! it ingests) leaves a record no audit record names, which `opsdesk audit verify` would list
//! for ever as "stored while the audit trail could not be written". At open the engine looks
//! at the newest inbox records and appends, for each one the trail does not name, an
//! `inbox.recovered` record (chained in order like any other), so verify can tell such a
//! record — keyed, audited late, named as recovered — from a forgery (whose mac is bad or
//! missing).
//!
//! Ingests hold a shared lock (`inbox/.ingest`) from the inbox append to the audit append;
//! recovery takes it exclusively, so it never mistakes a live writer's record, between its
//! two appends, for a crashed one. The lock is released by the kernel when a writer dies.
//!
//! Only the newest [`WINDOW`] seqs are looked at, and at most [`SCAN_BUDGET`] bytes of the
//! trail: a crash leaves at most the records of the writers that were in flight, which are the
//! newest. Older unaudited records (a full disk long ago) stay what verify reports.

use std::collections::HashSet;
use std::path::PathBuf;

use serde::Deserialize;

use super::{Engine, EngineError};
use crate::domain::{Actor, AuditEvent, AuditOutcome};
use crate::store::audit::ScanEnd;
use crate::store::jsonl::FileLock;

/// How many of the newest inbox seqs recovery checks.
pub const WINDOW: u64 = 64;
/// How much of the trail (bytes, newest first) recovery reads at most.
pub const SCAN_BUDGET: u64 = 16 << 20;
/// The audit event of a recovered record.
pub const RECOVERED_EVENT: &str = "inbox.recovered";
/// Its reason.
pub const RECOVERED_REASON: &str = "stored before a crash (or while the audit trail could not be written); audit record written at recovery";

/// The audit event of a draft that was audited as created but never stored.
pub const LOST_DRAFT_EVENT: &str = "draft.lost";
/// Its reason.
pub const LOST_DRAFT_REASON: &str = "audited as created but never stored: opsdesk stopped between the two (a crash); there is nothing to approve";
/// How many of the newest audit records the lost-draft recovery looks at.
pub const DRAFT_WINDOW: usize = 256;

/// The fields of an audit line recovery needs.
#[derive(Deserialize)]
struct Lite {
    event: String,
    #[serde(default)]
    target: Option<String>,
    #[serde(default)]
    reason: Option<String>,
    #[serde(default)]
    outcome: Option<String>,
    #[serde(default)]
    entity: Option<String>,
}

/// The inbox seq an `inbox.append` / `inbox.recovered` record names (target `<channel>#<seq>`).
pub fn audited_inbox_seq(event: &str, target: Option<&str>) -> Option<u64> {
    if event != "inbox.append" && event != RECOVERED_EVENT {
        return None;
    }
    target?.rsplit_once('#')?.1.parse().ok()
}

impl Engine {
    /// The lock ingests hold shared between their inbox and audit appends.
    pub(crate) fn ingest_lock_path(&self) -> PathBuf {
        self.paths.inbox_dir().join(".ingest")
    }

    /// Held by an ingest from its inbox append to its audit append (see the module text).
    pub(crate) fn ingesting(&self) -> Result<FileLock, crate::store::StoreError> {
        FileLock::shared(&self.ingest_lock_path())
    }

    /// Both recoveries at an engine open, under one exclusive hold of the ingest lock (no
    /// writer is between its two appends while they look).
    pub(crate) fn recover_after_crash(&self) -> Result<(), EngineError> {
        let _quiet = FileLock::exclusive(&self.ingest_lock_path())?;
        let lost = self.recover_lost_drafts();
        let unaudited = self.recover_unaudited();
        lost.and(unaudited).map(|_| ())
    }

    /// Audit the newest inbox records the trail does not name (see the module text); the
    /// caller holds the ingest lock exclusively. Returns the seqs recovered.
    fn recover_unaudited(&self) -> Result<Vec<u64>, EngineError> {
        let last = self.inbox.last_seq()?;
        if last == 0 {
            return Ok(Vec::new());
        }
        let from = last.saturating_sub(WINDOW) + 1;
        let mut seen: HashSet<u64> = HashSet::new();
        // Audit records of concurrent ingests can be out of seq order by up to a batch: so
        // stop only once every seq of the window is named, or the trail is a window further
        // back than the window's start.
        let end = self.audit.scan_back(SCAN_BUDGET, |line| {
            let Ok(l) = serde_json::from_slice::<Lite>(line) else {
                return true; // `audit verify` reports unreadable lines
            };
            if let Some(seq) = audited_inbox_seq(&l.event, l.target.as_deref()) {
                if seq >= from {
                    seen.insert(seq);
                }
                if seen.len() as u64 == last - from + 1 || seq + WINDOW < from {
                    return false;
                }
            }
            true
        })?;
        if end == ScanEnd::Budget {
            tracing::warn!(
                "crash recovery: the newest {SCAN_BUDGET} bytes of the audit trail do not reach the newest inbox records' audit records; not recovering (`opsdesk audit verify` lists any unaudited record)"
            );
            return Ok(Vec::new());
        }
        let mut recovered = Vec::new();
        for seq in (from..=last).filter(|s| !seen.contains(s)) {
            // A hole (a record lost before an index rebuild) or a damaged record is not one
            // to vouch for: `inbox verify` reports it.
            let Some(rec) = self.inbox.get(seq)? else {
                continue;
            };
            self.audit(
                AuditEvent::new(RECOVERED_EVENT, Actor::Engine, AuditOutcome::Ok)
                    .entity(&rec.profile)
                    .target(format!("{}#{}", rec.channel, rec.seq))
                    .reason(RECOVERED_REASON),
            )?;
            tracing::warn!(
                seq,
                "inbox record #{seq} was stored before a crash without its audit record; audited now as {RECOVERED_EVENT}"
            );
            recovered.push(seq);
        }
        Ok(recovered)
    }
}

impl Engine {
    /// Drafts audited as created whose `created` line never reached the drafts log (a crash
    /// between the two appends: `apply_draft_event` holds the ingest lock shared across them,
    /// so none is live now): each gets a `draft.lost` record, so `audit verify` tells a crash
    /// from a deleted or cut log. Only the newest [`DRAFT_WINDOW`] records are looked at; the
    /// caller holds the ingest lock exclusively.
    fn recover_lost_drafts(&self) -> Result<Vec<String>, EngineError> {
        let mut created: Vec<(String, Option<String>)> = Vec::new();
        let mut settled: HashSet<String> = HashSet::new();
        let mut seen = 0usize;
        self.audit.scan_back(SCAN_BUDGET, |line| {
            seen += 1;
            if let Ok(l) = serde_json::from_slice::<Lite>(line)
                && let Some(id) = l.target
            {
                if l.event == LOST_DRAFT_EVENT {
                    settled.insert(id);
                } else if l.reason.as_deref() == Some("draft created")
                    && l.outcome.as_deref() == Some("ok")
                    && !settled.contains(&id)
                {
                    created.push((id, l.entity));
                }
            }
            seen < DRAFT_WINDOW
        })?;
        let mut lost = Vec::new();
        for (id, entity) in created {
            if self.drafts.get(&id)?.is_some() {
                continue;
            }
            let mut ev = AuditEvent::new(LOST_DRAFT_EVENT, Actor::Engine, AuditOutcome::Ok)
                .target(id.clone())
                .reason(LOST_DRAFT_REASON);
            if let Some(e) = entity {
                ev = ev.entity(e);
            }
            self.audit(ev)?;
            tracing::warn!(
                "draft {id} was audited as created before a crash but never stored; audited now as {LOST_DRAFT_EVENT}"
            );
            lost.push(id);
        }
        Ok(lost)
    }
}

/// Test-only failpoints (the `conformance` feature, on for integration tests only): the
/// process aborts at `name` when `OPSDESK_FAILPOINT` names it, as a crash would.
#[cfg(feature = "conformance")]
pub(crate) fn failpoint(name: &str) {
    if std::env::var("OPSDESK_FAILPOINT").is_ok_and(|v| v == name) {
        std::process::abort();
    }
}

#[cfg(not(feature = "conformance"))]
#[inline(always)]
pub(crate) fn failpoint(_name: &str) {}
