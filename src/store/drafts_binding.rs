//! Binding the drafts log to the audit trail, so an event that was not audited never takes
//! effect (a hand-appended `approved` line, or one copied from another draft).
//!
//! The engine audits every draft event before appending it and stores the record's seq and
//! hash in the event (`DraftEvent::audit`). On every fold an event is accepted only if:
//!
//! - its audit record exists at that seq, is intact (its hash is the hash of its content), has
//!   the hash the event names, and says the same thing: same draft (target), same kind (reason
//!   `draft <kind>`, or for the executor `draft.execute` with outcome ok/error), same actor;
//! - no earlier event of the log was bound to the same record (one record, one event: an old
//!   approval cannot be replayed after an edit).
//!
//! **Logs written before events were bound** (no `audit` field): such an event is accepted
//! only if it comes before the first bound event of the log *and* the trail holds an unused
//! record describing it (same draft, kind, actor and outcome) older than the first bound
//! event's record; records are consumed in order, one per event. After the first bound event
//! an unbound event is always ignored. So existing queues keep working, and a forged unbound
//! line needs an audited decision nobody else used, which only a decision that was audited but
//! lost a race to the log leaves behind.
//!
//! Each refused event is reported (`Unbound`), never silently dropped.

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::Serialize;

use super::StoreError;
use super::audit_find::{draft_records, record_at};
use crate::domain::{AuditOutcome, AuditRecord, DraftEvent, DraftEventKind};

/// Looks up and remembers audit records for the drafts fold.
pub struct Binder {
    audit_dir: PathBuf,
    /// The integrity key: a record it did not mac (a forged or re-chained one) vouches for
    /// nothing, so a same-user process cannot forge an approval the executor would act on.
    key: Option<Arc<crate::store::integrity::IntegrityKey>>,
    /// The seq of the trail's first keyed record (keying began there; every later record
    /// must carry a mac), found once.
    first_keyed: std::sync::OnceLock<Option<u64>>,
    /// Records already found intact at their seq, by seq (records never change; a rewritten
    /// trail is what `opsdesk audit verify` reports, in a fresh process).
    verified: Mutex<HashMap<u64, AuditRecord>>,
    /// The trail's draft records below a cutoff, for logs with unbound events.
    legacy: Mutex<Option<(u64, Arc<Vec<AuditRecord>>)>>,
}

/// A draft event the fold ignored because the audit trail does not vouch for it.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Unbound {
    /// Line of `drafts.jsonl`, 1-based.
    pub line: u64,
    pub draft_id: String,
    pub event: String,
    pub reason: String,
}

impl Binder {
    pub fn new(audit_dir: &Path) -> Binder {
        Binder {
            audit_dir: audit_dir.to_path_buf(),
            key: None,
            first_keyed: std::sync::OnceLock::new(),
            verified: Mutex::new(HashMap::new()),
            legacy: Mutex::new(None),
        }
    }

    fn record(&self, seq: u64) -> Result<Result<AuditRecord, String>, StoreError> {
        if let Some(r) = self
            .verified
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .get(&seq)
        {
            return Ok(Ok(r.clone()));
        }
        Ok(match record_at(&self.audit_dir, seq)? {
            None => Err(format!("its audit record {seq} does not exist")),
            Some(f) if !f.intact => Err(format!(
                "its audit record {seq} was altered (its hash does not match its content)"
            )),
            Some(f) if !self.keyed_ok(&f) => Err(format!(
                "its audit record {seq} was not written with the integrity key (its mac is missing or wrong): forged"
            )),
            Some(f) => {
                self.verified
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .insert(seq, f.record.clone());
                Ok(f.record)
            }
        })
    }

    /// Bind with `key`: records must carry its mac (those from before keying began excepted).
    pub fn with_key(mut self, key: Option<Arc<crate::store::integrity::IntegrityKey>>) -> Binder {
        self.key = key;
        self
    }

    fn keyed_ok(&self, f: &super::audit_find::Found) -> bool {
        use crate::store::integrity::Label;
        let Some(key) = &self.key else {
            return true;
        };
        match &f.mac {
            Some(m) => key.check(Label::AuditRecord, f.record.hash.as_bytes(), m),
            // An unkeyed record is from before keying only if it precedes the first keyed
            // record of the trail (its own time is the writer's word, so it decides nothing
            // alone) and keying had not begun by its time.
            None => {
                let before_keying = match self.first_keyed() {
                    Some(k) => f.record.seq < k,
                    None => true,
                };
                before_keying && !key.unkeyed_is_forged(f.record.ts)
            }
        }
    }

    /// The seq of the trail's first keyed record, found once per process.
    fn first_keyed(&self) -> Option<u64> {
        *self
            .first_keyed
            .get_or_init(|| super::audit_find::first_keyed_seq(&self.audit_dir))
    }

    /// The trail's draft records below `below`; `fresh` reads the trail again (it may have
    /// grown since the cached scan).
    fn legacy_records(&self, below: u64, fresh: bool) -> Result<Arc<Vec<AuditRecord>>, StoreError> {
        let mut cached = self.legacy.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((b, recs)) = cached.as_ref()
            && *b == below
            && !fresh
        {
            return Ok(recs.clone());
        }
        let recs = Arc::new(draft_records(&self.audit_dir, below)?);
        *cached = Some((below, recs.clone()));
        Ok(recs)
    }

    /// Whether a new event (appended after the current log, whose accepted events use the
    /// records in `bound`) is vouched for: it must name an unused record that describes it.
    pub fn check_new(
        &self,
        ev: &DraftEvent,
        bound: &HashSet<u64>,
    ) -> Result<Result<(), String>, StoreError> {
        let Some(r) = &ev.audit else {
            return Ok(Err("it names no audit record".into()));
        };
        if bound.contains(&r.seq) {
            return Ok(Err(format!(
                "its audit record {} already vouches for an earlier event",
                r.seq
            )));
        }
        let rec = match self.record(r.seq)? {
            Ok(rec) => rec,
            Err(why) => return Ok(Err(why)),
        };
        if rec.hash != r.hash {
            return Ok(Err(format!(
                "its audit record {} has a different hash than the event names",
                r.seq
            )));
        }
        Ok(describes(&rec, ev).map_err(|why| format!("its audit record {} {why}", r.seq)))
    }

    /// The state of one fold over `events` (the log's parsed events, in order).
    pub fn fold<'a>(&'a self, events: &[&DraftEvent]) -> FoldBinding<'a> {
        let first_bound = events.iter().find_map(|e| e.audit.as_ref().map(|a| a.seq));
        FoldBinding {
            binder: self,
            used: HashSet::new(),
            first_bound,
            seen_bound: false,
            legacy: None,
            legacy_fresh: false,
        }
    }
}

/// Binding checks along one fold of the log.
pub struct FoldBinding<'a> {
    binder: &'a Binder,
    used: HashSet<u64>,
    /// The seq of the first bound event's record: unbound events are judged against older
    /// records only.
    first_bound: Option<u64>,
    seen_bound: bool,
    /// Unbound-era records, consumed as unbound events use them.
    legacy: Option<Vec<Option<AuditRecord>>>,
    /// Whether `legacy` was read from the trail during this fold (not the cache).
    legacy_fresh: bool,
}

impl FoldBinding<'_> {
    /// `Ok(Ok(()))` when the trail vouches for `ev` (the record is then used up), `Ok(Err(why))`
    /// when it does not; `Err` when the trail cannot be read (the fold fails: fail closed).
    pub fn check(&mut self, ev: &DraftEvent) -> Result<Result<(), String>, StoreError> {
        match &ev.audit {
            Some(r) => {
                self.seen_bound = true;
                let verdict = self.binder.check_new(ev, &self.used)?;
                if verdict.is_ok() {
                    self.used.insert(r.seq);
                }
                Ok(verdict)
            }
            None if self.seen_bound => Ok(Err(
                "it has no audit record (every event after the first bound one must name its record; written outside opsdesk?)".into(),
            )),
            None => {
                if self.take_legacy(ev, false)? || self.take_legacy(ev, true)? {
                    Ok(Ok(()))
                } else {
                    Ok(Err(
                        "it names no audit record and the audit trail holds no unused record of it (written outside opsdesk?)".into(),
                    ))
                }
            }
        }
    }

    /// Use up the oldest unused unbound-era record that describes `ev`, if there is one.
    /// `reread`: read the trail again first (once per fold), unless this fold already did.
    fn take_legacy(&mut self, ev: &DraftEvent, reread: bool) -> Result<bool, StoreError> {
        if self.legacy.is_none() || (reread && !self.legacy_fresh) {
            let below = self.first_bound.unwrap_or(u64::MAX);
            let recs = self.binder.legacy_records(below, reread)?;
            self.legacy = Some(recs.iter().cloned().map(Some).collect());
            self.legacy_fresh |= reread;
        } else if reread {
            return Ok(false);
        }
        let used = &mut self.used;
        let slots = self.legacy.as_mut().expect("filled above");
        let hit = slots.iter_mut().find(|slot| {
            slot.as_ref()
                .is_some_and(|r| !used.contains(&r.seq) && describes(r, ev).is_ok())
        });
        Ok(match hit.and_then(|slot| slot.take()) {
            Some(r) => {
                used.insert(r.seq);
                true
            }
            None => false,
        })
    }
}

/// Whether `rec` is the audit record of `ev`; if not, what differs.
fn describes(rec: &AuditRecord, ev: &DraftEvent) -> Result<(), String> {
    let e = &rec.event;
    let target = e.target.as_deref().unwrap_or("");
    let executor = matches!(
        ev.kind,
        DraftEventKind::Executed { .. } | DraftEventKind::Failed { .. }
    );
    let same_draft = if executor {
        target == ev.draft_id
            || target
                .strip_prefix(ev.draft_id.as_str())
                .is_some_and(|rest| rest.starts_with(" -> "))
    } else {
        target == ev.draft_id
    };
    if !same_draft {
        return Err(format!("is about `{target}`, not draft {}", ev.draft_id));
    }
    if e.actor != ev.actor.to_string() {
        return Err(format!("was written for {}, not {}", e.actor, ev.actor));
    }
    let reason = e.reason.as_deref().unwrap_or("");
    let kind = ev.kind.name();
    let fits = match ev.kind {
        DraftEventKind::Executed { .. } => {
            e.event == "draft.execute"
                && e.outcome == AuditOutcome::Ok
                && reason.ends_with(" executed")
        }
        DraftEventKind::Failed { .. } => {
            e.event == "draft.execute" && e.outcome == AuditOutcome::Error
        }
        _ => {
            // `draft <kind>`, optionally followed by `: <detail>` (an expiry says why). The
            // event is the action's name (`draft.approve`, but also `mail.move` for a queued
            // move): the reason and the target say which draft event the record vouches for.
            e.outcome == AuditOutcome::Ok
                && reason
                    .strip_prefix(&format!("draft {kind}"))
                    .is_some_and(|rest| rest.is_empty() || rest.starts_with(": "))
        }
    };
    if fits {
        Ok(())
    } else {
        Err(format!(
            "records `{}` ({}, {reason:?}), not this `{kind}`",
            e.event,
            e.outcome.as_str()
        ))
    }
}
