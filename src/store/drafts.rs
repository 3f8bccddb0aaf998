//! The approval queue as an event log, `drafts/drafts.jsonl`. The current queue is a fold of the
//! events. Every transition is checked before it is appended, and checked again when the log is
//! folded, so an event that breaks the rules (an approval by a non-operator, an approval of
//! content that has since changed) never takes effect even if it was written by hand. An event
//! the audit trail does not vouch for is ignored and reported too (`drafts_binding`).

use std::collections::{HashMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use super::StoreError;
use super::drafts_binding::{Binder, Unbound};
use super::jsonl::{FileLock, Lines, append_durable, repair_torn_tail};
use super::stamp::Stamp;
use crate::domain::{Actor, Draft, DraftEvent, DraftEventKind, DraftStatus, content_digest};
use crate::paths::{ensure_private_dir, open_private_append};

const LOG: &str = "drafts.jsonl";
const LOCK: &str = ".lock";

pub struct Drafts {
    dir: PathBuf,
    /// The last fold of the log, valid while the log's stamp holds (status, the console and
    /// `drafts_list` read the queue far more often than it changes).
    /// The last fold and the log's stamp then (`None`: there was no log).
    cache: Mutex<Option<(Option<Stamp>, Arc<Queue>)>>,
    /// The audit trail the events are bound to; `None` only for `open_rules_only`.
    binder: Option<Binder>,
}

/// The queue as folded from the log, in creation order.
#[derive(Debug, Default, Clone)]
pub struct Queue {
    pub drafts: Vec<Draft>,
    /// Lines that did not parse or events that broke the rules (reported, ignored).
    pub skipped: Vec<String>,
    /// Events ignored because the audit trail does not vouch for them (also in `skipped`).
    pub unbound: Vec<Unbound>,
    /// Audit records already bound to an accepted event.
    bound: HashSet<u64>,
}

impl Queue {
    pub fn get(&self, id: &str) -> Option<&Draft> {
        self.drafts.iter().find(|d| d.id == id)
    }
    pub fn pending(&self) -> impl Iterator<Item = &Draft> {
        self.drafts
            .iter()
            .filter(|d| d.status == DraftStatus::Pending)
    }
}

impl Drafts {
    /// The queue in `dir`, its events bound to the audit trail in `audit_dir`: an event takes
    /// effect only if its audit record is there and says the same.
    pub fn open(dir: &Path, audit_dir: &Path) -> Result<Drafts, StoreError> {
        let mut d = Drafts::open_rules_only(dir)?;
        d.binder = Some(Binder::new(audit_dir));
        Ok(d)
    }

    /// Bound with the integrity key: an event whose audit record the key did not mac takes
    /// no effect (a forged approval is ignored and reported, never executed).
    pub fn with_key(mut self, key: Option<Arc<crate::store::integrity::IntegrityKey>>) -> Drafts {
        self.binder = self.binder.take().map(|b| b.with_key(key));
        self
    }

    /// The queue with its rules but no audit binding: for tests of the rules alone. The engine
    /// always opens the queue bound (`open`).
    pub fn open_rules_only(dir: &Path) -> Result<Drafts, StoreError> {
        ensure_private_dir(dir).map_err(|e| StoreError::Rejected(format!("{e:#}")))?;
        Ok(Drafts {
            dir: dir.to_path_buf(),
            cache: Mutex::new(None),
            binder: None,
        })
    }

    fn log_path(&self) -> PathBuf {
        self.dir.join(LOG)
    }

    /// The current queue: the fold of the whole log, reused while the log is unchanged.
    pub fn queue(&self) -> Result<Queue, StoreError> {
        Ok(Queue::clone(&*self.shared_queue()?))
    }

    /// `queue` without a copy, for readers that only look (status counts on every call).
    pub fn shared_queue(&self) -> Result<Arc<Queue>, StoreError> {
        let path = self.log_path();
        let stamp = Stamp::of(&path).map_err(|e| StoreError::io(&path, "stat", e))?;
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        // A log that is still missing is cached too: `status` asks on every call.
        if let Some((seen, q)) = cache.as_ref()
            && stamp == *seen
        {
            return Ok(q.clone());
        }
        // Stamp taken before the read: a change during the fold only makes the next call fold
        // again.
        let q = Arc::new(self.fold()?);
        *cache = Some((stamp, q.clone()));
        Ok(q)
    }

    /// Fold the whole log into the current queue.
    fn fold(&self) -> Result<Queue, StoreError> {
        let mut q = Queue::default();
        let mut by_id: HashMap<String, usize> = HashMap::new();
        self.replay(|line, verdict| {
            let msg = match verdict {
                Verdict::Unreadable(e) => format!("{line}: unreadable event ({e})"),
                Verdict::Unbound(ev, why) => {
                    q.unbound.push(Unbound {
                        line: line.number,
                        draft_id: ev.draft_id.clone(),
                        event: ev.kind.name().to_string(),
                        reason: why.to_string(),
                    });
                    format!(
                        "{line}: `{}` of draft {} ignored: {why}",
                        ev.kind.name(),
                        ev.draft_id
                    )
                }
                Verdict::Checked(ev) => match apply(&mut q.drafts, &mut by_id, ev) {
                    Ok(_) => {
                        if let Some(a) = &ev.audit {
                            q.bound.insert(a.seq);
                        }
                        return;
                    }
                    Err(e) => format!("{line}: event ignored: {e}"),
                },
            };
            tracing::warn!("{msg}");
            q.skipped.push(msg);
        })?;
        Ok(q)
    }

    /// Read the log and judge each line's binding to the audit trail, in order.
    fn replay(&self, mut visit: impl FnMut(&LineAt, Verdict<'_>)) -> Result<(), StoreError> {
        let path = self.log_path();
        let lines = match Lines::open(&path, 0) {
            Ok(l) => l,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
            Err(e) => return Err(StoreError::io(&path, "open", e)),
        };
        let mut parsed = Vec::new();
        for line in lines {
            let line = line.map_err(|e| StoreError::io(&path, "read", e))?;
            parsed.push((
                line.number,
                serde_json::from_slice::<DraftEvent>(&line.bytes).map_err(|e| e.to_string()),
            ));
        }
        let events: Vec<&DraftEvent> = parsed.iter().filter_map(|(_, e)| e.as_ref().ok()).collect();
        let mut binding = self.binder.as_ref().map(|b| b.fold(&events));
        for (number, ev) in &parsed {
            let at = LineAt {
                path: &path,
                number: *number,
            };
            match ev {
                Err(e) => visit(&at, Verdict::Unreadable(e)),
                Ok(ev) => {
                    let judged = match binding.as_mut() {
                        Some(b) => b.check(ev)?,
                        None => Ok(()),
                    };
                    match judged {
                        Ok(()) => visit(&at, Verdict::Checked(ev)),
                        Err(why) => visit(&at, Verdict::Unbound(ev, &why)),
                    }
                }
            }
        }
        Ok(())
    }

    /// The events of one draft that took effect, in log order: its life (created, edited,
    /// decided, executed or failed, re-queued as another), each with its time and actor.
    pub fn history(&self, id: &str) -> Result<Vec<DraftEvent>, StoreError> {
        let mut drafts = Vec::new();
        let mut by_id: HashMap<String, usize> = HashMap::new();
        let mut out = Vec::new();
        self.replay(|_, verdict| {
            // Unreadable and unbound lines are reported by the fold.
            if let Verdict::Checked(ev) = verdict
                && apply(&mut drafts, &mut by_id, ev).is_ok()
                && (ev.draft_id == id
                    || matches!(&ev.kind, DraftEventKind::Requeued { from, .. } if from == id))
            {
                out.push(ev.clone());
            }
        })?;
        Ok(out)
    }

    pub fn get(&self, id: &str) -> Result<Option<Draft>, StoreError> {
        Ok(self.queue()?.drafts.into_iter().find(|d| d.id == id))
    }

    /// Whether `ev` would be accepted now (the append checks again under the lock).
    pub fn check(&self, ev: &DraftEvent) -> Result<(), StoreError> {
        let mut q = self.queue()?;
        let mut by_id: HashMap<String, usize> = q
            .drafts
            .iter()
            .enumerate()
            .map(|(i, d)| (d.id.clone(), i))
            .collect();
        apply(&mut q.drafts, &mut by_id, ev)
            .map(|_| ())
            .map_err(StoreError::Rejected)
    }

    /// Check `ev` against the current queue and append it; returns the draft as it now stands.
    pub fn append(&self, ev: DraftEvent) -> Result<Draft, StoreError> {
        let _lock = FileLock::exclusive(&self.dir.join(LOCK))?;
        let path = self.log_path();
        let mut file = open_private_append(&path).map_err(|e| StoreError::io(&path, "open", e))?;
        repair_torn_tail(&mut file, &path)?;
        let mut q = self.queue()?;
        let mut by_id: HashMap<String, usize> = q
            .drafts
            .iter()
            .enumerate()
            .map(|(i, d)| (d.id.clone(), i))
            .collect();
        if let Some(binder) = &self.binder {
            binder
                .check_new(&ev, &q.bound)?
                .map_err(|why| StoreError::Rejected(format!("draft event refused: {why}")))?;
        }
        let idx = apply(&mut q.drafts, &mut by_id, &ev).map_err(StoreError::Rejected)?;
        let mut line = serde_json::to_vec(&ev).map_err(|e| StoreError::Rejected(e.to_string()))?;
        line.push(b'\n');
        append_durable(&mut file, &path, &line)?;
        Ok(q.drafts.swap_remove(idx))
    }
}

/// Where a line of the log is, for messages (`path:line`).
struct LineAt<'a> {
    path: &'a Path,
    number: u64,
}

impl std::fmt::Display for LineAt<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}", self.path.display(), self.number)
    }
}

/// What the replay found on a line.
enum Verdict<'a> {
    Unreadable(&'a str),
    /// The audit trail does not vouch for the event (why).
    Unbound(&'a DraftEvent, &'a str),
    /// Bound (or the store has no binding): the queue's rules decide.
    Checked(&'a DraftEvent),
}

/// Apply one event to the queue, or say why it is not allowed. Returns the draft's index.
fn apply(
    drafts: &mut Vec<Draft>,
    by_id: &mut HashMap<String, usize>,
    ev: &DraftEvent,
) -> Result<usize, String> {
    match &ev.kind {
        DraftEventKind::Created {
            profile,
            outbound,
            digest,
            verdict,
            provider,
        } => create(
            drafts, by_id, ev, profile, outbound, digest, verdict, provider,
        ),
        DraftEventKind::Requeued {
            from,
            digest,
            verdict,
        } => requeue(drafts, by_id, ev, from, digest, verdict),
        _ => {
            let &idx = by_id
                .get(&ev.draft_id)
                .ok_or_else(|| format!("no draft with id {}", ev.draft_id))?;
            transition(&mut drafts[idx], ev)?;
            Ok(idx)
        }
    }
}

/// A new pending draft, whose digest must match its content.
#[allow(clippy::too_many_arguments)] // the fields of one `Created` event
fn create(
    drafts: &mut Vec<Draft>,
    by_id: &mut HashMap<String, usize>,
    ev: &DraftEvent,
    profile: &str,
    outbound: &crate::domain::Outbound,
    digest: &str,
    verdict: &crate::domain::Verdict,
    provider: &Option<String>,
) -> Result<usize, String> {
    if by_id.contains_key(&ev.draft_id) {
        return Err(format!("draft {} already exists", ev.draft_id));
    }
    if *digest != content_digest(profile, outbound) {
        return Err(format!(
            "draft {}: digest does not match its content",
            ev.draft_id
        ));
    }
    drafts.push(Draft {
        id: ev.draft_id.clone(),
        profile: profile.to_string(),
        outbound: outbound.clone(),
        digest: digest.to_string(),
        verdict: verdict.clone(),
        provider: provider.clone(),
        status: DraftStatus::Pending,
        created_by: ev.actor.clone(),
        created_at: ev.ts,
        updated_at: ev.ts,
        approved_digest: None,
        decided_by: None,
        reason: None,
        remote_id: None,
        edits: 0,
        requeued_from: None,
        requeued_as: None,
    });
    by_id.insert(ev.draft_id.clone(), drafts.len() - 1);
    Ok(drafts.len() - 1)
}

/// A later event on an existing draft: the rules of who may do what, in which status.
fn transition(d: &mut Draft, ev: &DraftEvent) -> Result<(), String> {
    if d.status.is_final() {
        return Err(format!("draft {} is already {}", d.id, d.status.as_str()));
    }
    let operator_only = |actor: &Actor, what: &str| {
        if actor.is_operator() {
            Ok(())
        } else {
            Err(format!(
                "only the operator (console or local CLI) can {what} a draft; {actor} cannot"
            ))
        }
    };
    match &ev.kind {
        DraftEventKind::Created { .. } | DraftEventKind::Requeued { .. } => {
            return Err(format!("draft {} already exists", d.id));
        }
        DraftEventKind::Edited { outbound, digest } => {
            if *digest != content_digest(&d.profile, outbound) {
                return Err(format!(
                    "draft {}: digest does not match the edited content",
                    d.id
                ));
            }
            if d.status == DraftStatus::Executed {
                return Err(format!("draft {} was already executed", d.id));
            }
            d.outbound = outbound.clone();
            d.digest = digest.clone();
            d.edits += 1;
            // A decision was about the old content: it no longer holds, and nothing of it is
            // shown as if it did (who decided, why, what was approved).
            d.status = DraftStatus::Pending;
            d.decided_by = None;
            d.reason = None;
            d.approved_digest = None;
        }
        DraftEventKind::Approved { digest } => {
            operator_only(&ev.actor, "approve")?;
            if *digest != d.digest {
                return Err(format!(
                    "draft {} changed since it was reviewed (digest {} ≠ current {}); review it again",
                    d.id,
                    short(digest),
                    short(&d.digest)
                ));
            }
            if d.status != DraftStatus::Pending {
                return Err(format!(
                    "draft {} is {}, not pending",
                    d.id,
                    d.status.as_str()
                ));
            }
            d.status = DraftStatus::Approved;
            d.approved_digest = Some(digest.clone());
            d.decided_by = Some(ev.actor.clone());
            d.reason = None;
        }
        DraftEventKind::Rejected { reason } => {
            operator_only(&ev.actor, "reject")?;
            d.status = DraftStatus::Rejected;
            d.decided_by = Some(ev.actor.clone());
            d.reason = Some(reason.clone());
        }
        DraftEventKind::Executed { remote_id } => {
            executor_only(&ev.actor)?;
            if !matches!(d.status, DraftStatus::Approved | DraftStatus::Failed)
                || !d.approval_holds()
            {
                return Err(format!(
                    "draft {} is not approved with its current content",
                    d.id
                ));
            }
            d.status = DraftStatus::Executed;
            d.remote_id = Some(remote_id.clone());
            d.reason = None;
        }
        DraftEventKind::Failed { reason } => {
            executor_only(&ev.actor)?;
            if !matches!(d.status, DraftStatus::Approved | DraftStatus::Failed)
                || !d.approval_holds()
            {
                return Err(format!(
                    "draft {} is not approved with its current content",
                    d.id
                ));
            }
            d.status = DraftStatus::Failed;
            d.reason = Some(reason.clone());
        }
        DraftEventKind::Expired { ttl_hours } => {
            if ev.actor != Actor::Engine {
                return Err(format!(
                    "only the engine expires drafts; {} cannot",
                    ev.actor
                ));
            }
            if d.status != DraftStatus::Pending {
                return Err(format!(
                    "draft {} is {}, not pending",
                    d.id,
                    d.status.as_str()
                ));
            }
            d.status = DraftStatus::Expired;
            d.reason = Some(format!("expired after {ttl_hours} h without a decision"));
        }
    }
    d.updated_at = ev.ts;
    Ok(())
}

/// A re-queue: a new pending draft with the content of an expired one. Only the operator
/// re-queues, only an expired draft, only once, and only the content they saw (`digest`).
fn requeue(
    drafts: &mut Vec<Draft>,
    by_id: &mut HashMap<String, usize>,
    ev: &DraftEvent,
    from: &str,
    digest: &str,
    verdict: &crate::domain::Verdict,
) -> Result<usize, String> {
    if !ev.actor.is_operator() {
        return Err(format!(
            "only the operator (console or local CLI) can re-queue a draft; {} cannot",
            ev.actor
        ));
    }
    if by_id.contains_key(&ev.draft_id) {
        return Err(format!("draft {} already exists", ev.draft_id));
    }
    let &src = by_id
        .get(from)
        .ok_or_else(|| format!("no draft with id {from}"))?;
    let old = &drafts[src];
    if old.status != DraftStatus::Expired {
        return Err(format!(
            "draft {from} is {}; only an expired draft can be re-queued",
            old.status.as_str()
        ));
    }
    if let Some(new) = &old.requeued_as {
        return Err(format!("draft {from} was already re-queued as {new}"));
    }
    if digest != old.digest {
        return Err(format!(
            "draft {from}: the re-queued content (digest {}) is not the expired draft's ({})",
            short(digest),
            short(&old.digest)
        ));
    }
    let fresh = Draft {
        id: ev.draft_id.clone(),
        verdict: verdict.clone(),
        status: DraftStatus::Pending,
        // Age, and so the time to live, count from the re-queue.
        created_at: ev.ts,
        updated_at: ev.ts,
        approved_digest: None,
        decided_by: None,
        reason: None,
        remote_id: None,
        requeued_from: Some(from.to_string()),
        requeued_as: None,
        ..old.clone()
    };
    drafts[src].requeued_as = Some(ev.draft_id.clone());
    drafts.push(fresh);
    by_id.insert(ev.draft_id.clone(), drafts.len() - 1);
    Ok(drafts.len() - 1)
}

fn executor_only(actor: &Actor) -> Result<(), String> {
    if matches!(actor, Actor::Executor | Actor::Engine) {
        Ok(())
    } else {
        Err(format!(
            "only the executor records execution results; {actor} cannot"
        ))
    }
}

fn short(digest: &str) -> &str {
    &digest[..digest.len().min(12)]
}
