//! The assistant's durable results beside the inbox (inbox lines are never rewritten):
//! `<data dir>/assistant/triage.jsonl` and `deadlines.jsonl`, append-only JSON lines (0600, in a
//! 0700 directory) written under the directory's advisory lock with the store's shared append
//! machinery (durable append, torn-tail repair). Reading folds the log: the newest triage per
//! seq, except that an operator's decision is only replaced by another operator decision.
//! Appends are deduplicated against the fold, so re-running a job adds nothing unchanged.
//!
//! The operator's own triage is appended durably (fsync'd before the call returns). What the
//! rules and the model produce is written before the call returns and made durable by a shared
//! background fsync within [`DEFERRED_SYNC_WINDOW`]: a crash loses at most that window's
//! results, and the job can simply be re-run. A failed background fsync refuses every later
//! deferred append (the store may have lost results; fix the disk and restart).

use std::collections::{BTreeMap, BTreeSet};
use std::fs::File;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::deadlines::Found;
use super::triage::{Category, DecidedBy, Urgency};
use crate::paths::{ensure_private_dir, open_private_append};
use crate::store::StoreError;
use crate::store::jsonl::{FileLock, Lines, append_durable, append_unsynced, repair_torn_tail};
use crate::store::later::{FlushResult, Later};

const TRIAGE: &str = "triage.jsonl";
const DEADLINES: &str = "deadlines.jsonl";
const LOCK: &str = ".lock";

/// How long a job's result may wait for its fsync: appends within this window share one.
pub(crate) const DEFERRED_SYNC_WINDOW: Duration = Duration::from_millis(10);

/// The triage of one inbox item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct TriageRecord {
    pub seq: u64,
    /// The item's source id.
    pub id: String,
    pub profile: String,
    pub category: Category,
    pub urgency: Urgency,
    /// One line: why.
    pub reason: String,
    pub by: DecidedBy,
    /// The provider whose answer was used (`by: model`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// Why the model's answer was not used, when it was asked and this is the rule result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub model_error: Option<String>,
    /// RFC 3339.
    pub at: String,
}

impl TriageRecord {
    fn same_decision(&self, o: &TriageRecord) -> bool {
        (
            self.category,
            self.urgency,
            self.by,
            &self.reason,
            &self.model_error,
        ) == (o.category, o.urgency, o.by, &o.reason, &o.model_error)
    }
}

/// A deadline found in one inbox item.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct DeadlineRecord {
    /// The inbox item it was found in.
    pub seq: u64,
    pub id: String,
    pub profile: String,
    #[serde(flatten)]
    pub found: Found,
    /// The provider whose answer it came from (`by: model`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub provider: Option<String>,
    /// RFC 3339.
    pub at: String,
}

impl DeadlineRecord {
    fn key(&self) -> (u64, Option<String>, String) {
        (
            self.seq,
            self.found.due.clone(),
            self.found.what.trim().to_lowercase(),
        )
    }
}

pub(crate) struct AssistantStore {
    dir: PathBuf,
    /// The triage fold and how far into which file it has read: a read only parses what was
    /// appended since (by any process), so a backfill of n items stays linear.
    triage_cache: std::sync::Mutex<Option<TriageCache>>,
    /// The shared background fsync of job results.
    sync: Arc<SyncShared>,
}

struct SyncShared {
    pending: Mutex<Pending>,
    syncer: Later,
}

#[derive(Default)]
struct Pending {
    /// Files written to since their last fsync (at most the two logs).
    files: BTreeMap<PathBuf, Arc<File>>,
    /// A background fsync failed: results may be lost, so later deferred appends are refused.
    failed: Option<String>,
}

impl SyncShared {
    /// Sync every file written since the last flush (the syncer thread, and `Drop`). A failure
    /// is kept, not retried: it refuses every later deferred append.
    fn flush_pending(&self) -> FlushResult {
        let files =
            std::mem::take(&mut self.pending.lock().unwrap_or_else(|p| p.into_inner()).files);
        for (path, file) in files {
            if let Err(e) = file.sync_data() {
                let e = StoreError::io(&path, "fsync", e);
                tracing::error!("assistant store: {e}");
                self.pending
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .failed = Some(e.to_string());
            }
        }
        Ok(())
    }

    /// Refuse when an earlier background fsync failed.
    fn check(&self) -> Result<(), StoreError> {
        match &self
            .pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .failed
        {
            Some(why) => Err(StoreError::Rejected(format!(
                "the assistant store could not be made durable earlier ({why}); fix the disk and restart opsdesk"
            ))),
            None => Ok(()),
        }
    }
}

impl Drop for AssistantStore {
    fn drop(&mut self) {
        self.sync.syncer.stop();
        let _ = self.sync.flush_pending();
    }
}

struct TriageCache {
    /// (dev, inode) of the file read.
    file: (u64, u64),
    offset: u64,
    lines: u64,
    map: BTreeMap<u64, TriageRecord>,
}

impl AssistantStore {
    pub fn open(dir: &Path) -> Result<AssistantStore, StoreError> {
        ensure_private_dir(dir).map_err(|e| StoreError::Rejected(format!("{e:#}")))?;
        Ok(AssistantStore {
            dir: dir.to_path_buf(),
            triage_cache: Default::default(),
            sync: Arc::new(SyncShared {
                pending: Mutex::new(Pending::default()),
                syncer: Later::new("assistant-sync", DEFERRED_SYNC_WINDOW),
            }),
        })
    }

    /// Write `bytes` now and have the shared syncer make them durable within the window.
    fn append_deferred(&self, file: File, path: &Path, bytes: &[u8]) -> Result<(), StoreError> {
        self.sync.check()?;
        append_unsynced(&file, path, bytes)?;
        self.sync
            .pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .files
            .insert(path.to_path_buf(), Arc::new(file));
        self.sync
            .syncer
            .request(&self.sync, |s| &s.syncer, SyncShared::flush_pending)
            .map_err(StoreError::Rejected)
    }

    /// The current triage per seq.
    pub fn triage(&self) -> Result<BTreeMap<u64, TriageRecord>, StoreError> {
        self.with_triage(|m| m.clone())
    }

    /// The current triage of one seq.
    pub fn triage_of(&self, seq: u64) -> Result<Option<TriageRecord>, StoreError> {
        self.with_triage(|m| m.get(&seq).cloned())
    }

    /// Run `f` on the up-to-date fold (reading only what was appended since the last call).
    fn with_triage<R>(
        &self,
        f: impl FnOnce(&BTreeMap<u64, TriageRecord>) -> R,
    ) -> Result<R, StoreError> {
        use std::os::unix::fs::MetadataExt;
        let path = self.dir.join(TRIAGE);
        let mut cache = self.triage_cache.lock().unwrap_or_else(|e| e.into_inner());
        let meta = match std::fs::metadata(&path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                *cache = None;
                return Ok(f(&BTreeMap::new()));
            }
            Err(e) => return Err(StoreError::io(&path, "stat", e)),
        };
        let file = (meta.dev(), meta.ino());
        // Another file, or one that shrank (repaired or replaced): read it again from the start.
        if cache
            .as_ref()
            .is_none_or(|c| c.file != file || meta.len() < c.offset)
        {
            *cache = Some(TriageCache {
                file,
                offset: 0,
                lines: 0,
                map: BTreeMap::new(),
            });
        }
        let c = cache.as_mut().expect("set above");
        if meta.len() > c.offset {
            let lines = match Lines::open(&path, c.offset) {
                Ok(l) => l,
                Err(e) => return Err(StoreError::io(&path, "open", e)),
            };
            for l in lines {
                let l = l.map_err(|e| StoreError::io(&path, "read", e))?;
                let r: TriageRecord =
                    serde_json::from_slice(&l.bytes).map_err(|e| StoreError::Corrupt {
                        path: path.clone(),
                        line: c.lines + 1,
                        msg: e.to_string(),
                    })?;
                fold_triage(&mut c.map, r);
                c.offset = l.offset + l.bytes.len() as u64 + 1;
                c.lines += 1;
            }
        }
        Ok(f(&c.map))
    }

    /// Record a triage. Returns whether it changed anything: an unchanged decision is not
    /// appended again, and only the operator replaces the operator. The operator's triage is
    /// durable on return; a rule or model result within `DEFERRED_SYNC_WINDOW`.
    pub fn put_triage(&self, rec: TriageRecord) -> Result<bool, StoreError> {
        let _lock = FileLock::exclusive(&self.dir.join(LOCK))?;
        let path = self.dir.join(TRIAGE);
        let mut file = open_private_append(&path).map_err(|e| StoreError::io(&path, "open", e))?;
        repair_torn_tail(&mut file, &path)?;
        if let Some(c) = self.triage_of(rec.seq)?
            && (c.same_decision(&rec)
                || (c.by == DecidedBy::Operator && rec.by != DecidedBy::Operator))
        {
            return Ok(false);
        }
        if rec.by == DecidedBy::Operator {
            append_durable(&mut file, &path, &line(&rec)?)?;
        } else {
            self.append_deferred(file, &path, &line(&rec)?)?;
        }
        Ok(true)
    }

    /// Every deadline found, deduplicated (per seq, due date and what).
    pub fn deadlines(&self) -> Result<Vec<DeadlineRecord>, StoreError> {
        let mut seen = BTreeSet::new();
        Ok(read_all::<DeadlineRecord>(&self.dir.join(DEADLINES))?
            .into_iter()
            .filter(|d| seen.insert(d.key()))
            .collect())
    }

    /// Record deadlines; those already stored are skipped. Returns how many were new. Durable
    /// within `DEFERRED_SYNC_WINDOW` (job results: a lost one is found again by a re-run).
    pub fn put_deadlines(&self, recs: Vec<DeadlineRecord>) -> Result<usize, StoreError> {
        if recs.is_empty() {
            return Ok(0);
        }
        let _lock = FileLock::exclusive(&self.dir.join(LOCK))?;
        let path = self.dir.join(DEADLINES);
        let mut file = open_private_append(&path).map_err(|e| StoreError::io(&path, "open", e))?;
        repair_torn_tail(&mut file, &path)?;
        let mut seen: BTreeSet<_> = self.deadlines()?.iter().map(DeadlineRecord::key).collect();
        let mut bytes = Vec::new();
        let mut n = 0;
        for r in recs {
            if seen.insert(r.key()) {
                bytes.extend(line(&r)?);
                n += 1;
            }
        }
        if n > 0 {
            self.append_deferred(file, &path, &bytes)?;
        }
        Ok(n)
    }
}

fn fold_triage(out: &mut BTreeMap<u64, TriageRecord>, r: TriageRecord) {
    match out.get(&r.seq) {
        Some(c) if c.by == DecidedBy::Operator && r.by != DecidedBy::Operator => {}
        _ => {
            out.insert(r.seq, r);
        }
    }
}

fn line<T: Serialize>(r: &T) -> Result<Vec<u8>, StoreError> {
    let mut v = serde_json::to_vec(r).map_err(|e| StoreError::Rejected(e.to_string()))?;
    v.push(b'\n');
    Ok(v)
}

/// Every complete line of `path`; a complete line that does not parse is damage, reported
/// with its line number rather than skipped (a lost operator decision must not go unnoticed).
fn read_all<T: DeserializeOwned>(path: &Path) -> Result<Vec<T>, StoreError> {
    let lines = match Lines::open(path, 0) {
        Ok(l) => l,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(StoreError::io(path, "open", e)),
    };
    let mut out = Vec::new();
    for l in lines {
        let l = l.map_err(|e| StoreError::io(path, "read", e))?;
        let r = serde_json::from_slice(&l.bytes).map_err(|e| StoreError::Corrupt {
            path: path.to_path_buf(),
            line: l.number,
            msg: e.to_string(),
        })?;
        out.push(r);
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn t(seq: u64, category: Category, by: DecidedBy) -> TriageRecord {
        TriageRecord {
            seq,
            id: format!("m{seq}"),
            profile: "work".into(),
            category,
            urgency: Urgency::Normal,
            reason: "r".into(),
            by,
            provider: None,
            model_error: None,
            at: "2026-11-25T08:00:00Z".into(),
        }
    }

    #[test]
    fn triage_survives_reopening_is_deduplicated_and_the_operator_wins() {
        let dir = tempfile::tempdir().unwrap();
        let s = AssistantStore::open(&dir.path().join("assistant")).unwrap();
        assert!(s.put_triage(t(1, Category::Fyi, DecidedBy::Rule)).unwrap());
        assert!(!s.put_triage(t(1, Category::Fyi, DecidedBy::Rule)).unwrap());
        assert!(
            s.put_triage(t(1, Category::Decision, DecidedBy::Model))
                .unwrap()
        );
        assert!(
            s.put_triage(t(1, Category::Bulk, DecidedBy::Operator))
                .unwrap()
        );
        assert!(!s.put_triage(t(1, Category::Fyi, DecidedBy::Model)).unwrap());
        let s = AssistantStore::open(&dir.path().join("assistant")).unwrap();
        let all = s.triage().unwrap();
        assert_eq!(all[&1].category, Category::Bulk);
        assert_eq!(all[&1].by, DecidedBy::Operator);
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&dir.path().join("assistant")), 0o700);
        assert_eq!(mode(&dir.path().join("assistant/triage.jsonl")), 0o600);
        let lines = std::fs::read_to_string(dir.path().join("assistant/triage.jsonl")).unwrap();
        assert_eq!(lines.lines().count(), 3);
    }

    #[test]
    fn a_second_writer_s_appends_are_seen_incrementally() {
        let dir = tempfile::tempdir().unwrap();
        let a = AssistantStore::open(dir.path()).unwrap();
        let b = AssistantStore::open(dir.path()).unwrap();
        a.put_triage(t(1, Category::Fyi, DecidedBy::Rule)).unwrap();
        assert_eq!(b.triage().unwrap().len(), 1);
        b.put_triage(t(1, Category::Bulk, DecidedBy::Operator))
            .unwrap();
        b.put_triage(t(2, Category::Fyi, DecidedBy::Rule)).unwrap();
        assert_eq!(a.triage_of(1).unwrap().unwrap().by, DecidedBy::Operator);
        assert!(
            !a.put_triage(t(1, Category::Decision, DecidedBy::Model))
                .unwrap()
        );
        // The file replaced under it (restored from a backup): read again from the start.
        std::fs::remove_file(dir.path().join(TRIAGE)).unwrap();
        assert!(a.triage().unwrap().is_empty());
        a.put_triage(t(3, Category::Fyi, DecidedBy::Rule)).unwrap();
        assert_eq!(b.triage().unwrap().keys().copied().collect::<Vec<_>>(), [3]);
    }

    #[test]
    fn a_torn_tail_is_repaired_and_a_damaged_line_is_reported() {
        let dir = tempfile::tempdir().unwrap();
        let s = AssistantStore::open(dir.path()).unwrap();
        s.put_triage(t(1, Category::Fyi, DecidedBy::Rule)).unwrap();
        let p = dir.path().join(TRIAGE);
        let mut f = std::fs::OpenOptions::new().append(true).open(&p).unwrap();
        std::io::Write::write_all(&mut f, b"{\"seq\":2,\"id\"").unwrap();
        assert_eq!(s.triage().unwrap().len(), 1, "a torn tail is not read");
        s.put_triage(t(2, Category::Fyi, DecidedBy::Rule)).unwrap();
        assert_eq!(s.triage().unwrap().len(), 2);
        std::io::Write::write_all(&mut f, b"garbage\n").unwrap();
        assert!(matches!(
            s.triage(),
            Err(StoreError::Corrupt { line: 3, .. })
        ));
    }

    #[test]
    fn job_results_are_readable_at_once_and_made_durable_by_the_shared_syncer() {
        let dir = tempfile::tempdir().unwrap();
        let s = AssistantStore::open(dir.path()).unwrap();
        assert!(s.put_triage(t(1, Category::Fyi, DecidedBy::Model)).unwrap());
        // Written before the call returned: another reader sees it at once.
        let other = AssistantStore::open(dir.path()).unwrap();
        assert_eq!(other.triage_of(1).unwrap().unwrap().by, DecidedBy::Model);
        // The background fsync takes the pending file within the window.
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while !s.sync.pending.lock().unwrap().files.is_empty() {
            assert!(
                std::time::Instant::now() < deadline,
                "the pending fsync never ran"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
        assert!(s.sync.pending.lock().unwrap().failed.is_none());
    }

    #[test]
    fn after_a_failed_background_fsync_job_results_are_refused_but_operator_triage_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let s = AssistantStore::open(dir.path()).unwrap();
        s.sync.pending.lock().unwrap().failed = Some("fsync: Input/output error".into());
        let e = s
            .put_triage(t(1, Category::Fyi, DecidedBy::Model))
            .expect_err("a store that may have lost results must refuse more");
        assert!(e.to_string().contains("could not be made durable"), "{e}");
        let d = DeadlineRecord {
            seq: 1,
            id: "m1".into(),
            profile: "work".into(),
            found: Found {
                what: "budget".into(),
                due: None,
                quote: "by Friday".into(),
                confidence: None,
                by: DecidedBy::Model,
                expr: None,
                time: None,
                model_agrees: false,
                disagreement: None,
            },
            provider: None,
            at: "2026-11-25T08:00:00Z".into(),
        };
        assert!(s.put_deadlines(vec![d]).is_err());
        // The operator's decision is appended and fsync'd synchronously, as before.
        assert!(
            s.put_triage(t(1, Category::Bulk, DecidedBy::Operator))
                .unwrap()
        );
        assert_eq!(s.triage_of(1).unwrap().unwrap().by, DecidedBy::Operator);
    }

    #[test]
    fn deadlines_are_deduplicated_across_re_extraction() {
        let dir = tempfile::tempdir().unwrap();
        let s = AssistantStore::open(dir.path()).unwrap();
        let d = |what: &str| DeadlineRecord {
            seq: 4,
            id: "m4".into(),
            profile: "work".into(),
            found: Found {
                what: what.into(),
                due: Some("2026-11-27".into()),
                quote: "by Friday".into(),
                confidence: None,
                by: DecidedBy::Rule,
                expr: None,
                time: None,
                model_agrees: false,
                disagreement: None,
            },
            provider: None,
            at: "2026-11-25T08:00:00Z".into(),
        };
        assert_eq!(s.put_deadlines(vec![d("budget"), d("Budget ")]).unwrap(), 1);
        assert_eq!(s.put_deadlines(vec![d("budget"), d("slides")]).unwrap(), 1);
        assert_eq!(s.deadlines().unwrap().len(), 2);
    }
}
