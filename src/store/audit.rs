//! The hash-chained audit trail, `audit/<YYYY-MM>.jsonl`.
//!
//! Each record carries `prev` (the previous record's hash; 64 zeros for the first) and
//! `hash = sha256(prev || canonical JSON of the record without "hash")`, where canonical means
//! object keys sorted. The chain runs across month files. `verify` recomputes it and names the
//! first record that does not fit.
//!
//! The chain cannot vouch for its own end: cutting the last records, or deleting the newest
//! month file, leaves a shorter chain that still links. So every append also writes the head
//! (`seq` and `hash` of the newest record) to the anchor file `.head` beside the month files,
//! and `verify` checks that the chain reaches the anchored record with the anchored hash.
//! Someone who rewrites the files and the anchor consistently is not detectable from the files
//! alone: so a writer holding the integrity key (`integrity.rs`, kept outside the data dir) adds
//! `mac` = HMAC(key, hash) to every record and a mac to the anchor. The mac is not part of the
//! hashed content, so `hash` keeps its meaning and trails written before keying still verify
//! (reported as not keyed). Once one record is keyed, a later record without a mac was written
//! without the key: a forgery, reported as such.

use std::fs;
use std::fs::File;
use std::os::unix::fs::{MetadataExt, OpenOptionsExt};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::StoreError;
use super::integrity::{IntegrityKey, Label, Sealed};
use super::jsonl::{
    HeldLock, Lines, append_unsynced_at, last_complete_line, open_lock_file, repair_torn_tail,
};
use super::later::{FlushResult, Later};
use crate::domain::{AuditEvent, AuditRecord};
use crate::paths::{ensure_private_dir, open_private_append};

pub const GENESIS: &str = "0000000000000000000000000000000000000000000000000000000000000000";
const LOCK: &str = ".lock";

/// How often a long verification reports its progress (records).
pub const PROGRESS_EVERY: u64 = 4096;

/// The anchor file: the head as of the last append.
pub const ANCHOR: &str = ".head";
/// The anchor's fixed size, so that rewriting it in place never leaves a longer old tail (room
/// for a seq, the hash and the mac; anchors written before macs were 96 bytes).
const ANCHOR_LEN: usize = 192;
/// How much of the trail (bytes, newest first) [`Audit::newest_mac`] reads at most when the
/// anchor has no mac.
const KEYED_PROBE_BUDGET: u64 = 1 << 20;

pub struct Audit {
    dir: PathBuf,
    /// The integrity key: appends mac their records and the anchor, `verify` checks the macs.
    key: Option<Arc<IntegrityKey>>,
    /// The appending side, shared with the background syncer.
    w: Arc<Writer>,
}

/// Staging slots kept between writes (the rest of a large batch's are given back).
const STAGED_KEPT: usize = 64;

/// How long a deferred or batched record may wait: read records staged within this window are
/// written together (one `write`) and records written within it share one fsync.
pub(crate) const DEFERRED_SYNC_WINDOW: std::time::Duration = std::time::Duration::from_millis(10);

/// Appends, group commit and the background syncer (which writes staged read records and
/// syncs deferred ones once per window).
struct Writer {
    dir: PathBuf,
    key: Option<Arc<IntegrityKey>>,
    /// The chain as this process knows it, and read records linked but not yet written.
    /// Serializes appends within the process (the file lock does it across processes).
    chain: Mutex<Chain>,
    /// The lock file, opened by the first append and kept (an open per batch would cost more
    /// than the write). Flocked only under `chain`.
    lock_file: OnceLock<File>,
    /// How far the current month file is known to be on disk.
    synced: Mutex<Synced>,
    pending: Mutex<Pending>,
    syncer: Later,
}

#[derive(Default)]
struct Chain {
    /// Where the next record goes; its `seq`/`hash` are the newest record linked, staged or
    /// written, its `end` what is on file.
    head: Option<Head>,
    /// Read records linked in memory (seq, chain hash, mac) in chain order, not yet written.
    staged: Vec<Staged>,
}

struct Staged {
    record: AuditRecord,
    line: Vec<u8>,
}

/// Where a batch ended: the file and its length after the write.
type Written = (Arc<File>, PathBuf, u64);

#[derive(Default)]
struct Pending {
    /// The newest deferred record's file and end offset, not yet known to be on disk.
    upto: Option<(Arc<File>, PathBuf, u64)>,
    /// An fsync or a batched write failed: the trail may have lost records, so every later
    /// append is refused.
    failed: Option<String>,
}

impl Writer {
    fn new(dir: PathBuf, key: Option<Arc<IntegrityKey>>) -> Writer {
        Writer {
            dir,
            key,
            chain: Mutex::new(Chain::default()),
            lock_file: OnceLock::new(),
            synced: Mutex::new(Synced::default()),
            pending: Mutex::new(Pending::default()),
            syncer: Later::new("audit-sync", DEFERRED_SYNC_WINDOW),
        }
    }

    /// Make `path` durable at least up to `end`, sharing the fsync with concurrent appenders.
    fn sync_upto(&self, file: &File, path: &Path, end: u64) -> Result<(), StoreError> {
        let mut synced = self.synced.lock().unwrap_or_else(|p| p.into_inner());
        if synced.path == path && synced.upto >= end {
            return Ok(()); // someone else's fsync already covered our record
        }
        // Everything written before the fsync starts is covered by it.
        let written = file
            .metadata()
            .map_err(|e| StoreError::io(path, "stat", e))?
            .len();
        file.sync_data()
            .map_err(|e| StoreError::io(path, "fsync", e))?;
        *synced = Synced {
            path: path.to_path_buf(),
            upto: written,
        };
        Ok(())
    }

    /// Refuse while an earlier write or fsync failed (records may be lost: fail closed).
    fn refuse_if_failed(&self) -> Result<(), StoreError> {
        match &self
            .pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .failed
        {
            Some(why) => Err(StoreError::Rejected(format!(
                "the audit trail could not be made durable earlier ({why}); fix the disk and restart opsdesk"
            ))),
            None => Ok(()),
        }
    }

    /// Remember that records may be lost: every later append is refused.
    fn fail(&self, e: &StoreError) {
        tracing::error!("audit trail: {e}");
        self.pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .failed = Some(e.to_string());
    }

    /// Leave a write for the syncer's fsync.
    fn note_written(&self, (file, path, end): Written) -> Result<(), StoreError> {
        let mut p = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        if let Some((f, prev_path, prev_end)) = p.upto.take()
            && prev_path != path
        {
            // A new month file: make the old one durable before forgetting it.
            drop(p);
            self.sync_upto(&f, &prev_path, prev_end)?;
            p = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        }
        p.upto = Some((file, path, end));
        Ok(())
    }

    /// The syncer's work once per window (and `Drop`'s): write the staged read records, then
    /// sync what is pending. A failure is kept, not retried: it makes every later append fail.
    fn flush_pending(&self) -> FlushResult {
        let written = {
            let mut chain = self.chain.lock().unwrap_or_else(|p| p.into_inner());
            self.write_staged(&mut chain)
        };
        let noted = match written {
            Ok(Some((_, w))) => self.note_written(w),
            Ok(None) => Ok(()),
            Err(e) => Err(e),
        };
        if let Err(e) = noted {
            self.fail(&e);
            return Ok(());
        }
        let job = self
            .pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .upto
            .take();
        if let Some((file, path, end)) = job
            && let Err(e) = self.sync_upto(&file, &path, end)
        {
            self.fail(&e);
        }
        Ok(())
    }

    /// Link `event` after the newest record this process knows of and stage it (not written).
    fn stage(&self, chain: &mut Chain, event: AuditEvent) -> Result<AuditRecord, StoreError> {
        let now = crate::domain::now();
        let head = match &mut chain.head {
            Some(h) => h,
            None => {
                // The first append (or the first after a failed write): read the head from the
                // files under the lock.
                let _lock = HeldLock::exclusive(self.lock_file()?, &self.dir.join(LOCK))?;
                chain
                    .head
                    .insert(self.load_head(&self.dir.join(month_file_name(now)))?)
            }
        };
        let staged = self.link(head.seq, head.hash.clone(), now, event)?;
        head.seq = staged.record.seq;
        head.hash = staged.record.hash.clone();
        let record = staged.record.clone();
        chain.staged.push(staged);
        Ok(record)
    }

    /// The record after (`seq`, `prev`) and its line (mac'd when keyed).
    fn link(
        &self,
        seq: u64,
        prev: String,
        ts: time::OffsetDateTime,
        event: AuditEvent,
    ) -> Result<Staged, StoreError> {
        let mut record = AuditRecord {
            seq: seq + 1,
            ts,
            event,
            prev,
            hash: String::new(),
        };
        let mut body =
            serde_json::to_value(&record).map_err(|e| StoreError::Rejected(e.to_string()))?;
        // The same canonical form `record_hash` checks, without copying the map.
        if let Some(obj) = body.as_object_mut() {
            obj.remove("hash");
        }
        record.hash = chain_hash(&record.prev, &body);
        let mut line =
            serde_json::to_vec(&record).map_err(|e| StoreError::Rejected(e.to_string()))?;
        if let Some(key) = &self.key {
            line = super::integrity::append_mac_field(
                line,
                &key.mac(Label::AuditRecord, record.hash.as_bytes()),
            );
        }
        line.push(b'\n');
        Ok(Staged { record, line })
    }

    /// Write every staged record, in order, under one file lock: one `write` per month file
    /// and one anchor update. If another process appended since (the file no longer ends where
    /// this process left it), the staged records are linked again after its records. Not
    /// synced. On error the staged records are gone and the head is read again next time.
    fn write_staged(
        &self,
        chain: &mut Chain,
    ) -> Result<Option<(AuditRecord, Written)>, StoreError> {
        self.write_staged_keeping(chain, 0)
            .map(|r| r.map(|(_, last, w)| (last, w)))
    }

    /// [`Writer::write_staged`], also returning the last `keep` records as written (linked
    /// again if another process appended meanwhile).
    fn write_staged_keeping(
        &self,
        chain: &mut Chain,
        keep: usize,
    ) -> Result<Option<(Vec<AuditRecord>, AuditRecord, Written)>, StoreError> {
        if chain.staged.is_empty() {
            return Ok(None);
        }
        let r = self.write_staged_locked(chain);
        if r.is_err() {
            chain.head = None;
        }
        let kept = chain.staged[chain.staged.len().saturating_sub(keep)..]
            .iter()
            .map(|s| s.record.clone())
            .collect();
        chain.staged.clear();
        // An ingest batch stages thousands at once; a sync window's reads need a few dozen.
        chain.staged.shrink_to(STAGED_KEPT);
        r.map(|(last, w)| Some((kept, last, w)))
    }

    fn write_staged_locked(&self, chain: &mut Chain) -> Result<(AuditRecord, Written), StoreError> {
        let _lock = HeldLock::exclusive(self.lock_file()?, &self.dir.join(LOCK))?;
        let first_month = self.dir.join(month_file_name(chain.staged[0].record.ts));
        let mut head = match chain.head.take() {
            // Nobody else wrote since: the staged links stand.
            Some(h) if h.still_current() => h,
            _ => {
                let h = self.load_head(&first_month)?;
                let (mut seq, mut hash) = (h.seq, h.hash.clone());
                for s in chain.staged.iter_mut() {
                    let event = s.record.event.clone();
                    *s = self.link(seq, hash, s.record.ts, event)?;
                    seq = s.record.seq;
                    hash = s.record.hash.clone();
                }
                h
            }
        };
        let mut buf: Vec<u8> = Vec::new();
        for s in &chain.staged {
            let month = self.dir.join(month_file_name(s.record.ts));
            if head.path < month {
                // A new month begins within the batch: the old file gets what came before,
                // durably, and the chain goes on in the new one.
                self.write_at(&mut head, &buf)?;
                buf.clear();
                self.sync_upto(&head.file, &head.path, head.end)?;
                head = self.load_head(&month)?;
            }
            buf.extend_from_slice(&s.line);
        }
        self.write_at(&mut head, &buf)?;
        let last = &chain.staged[chain.staged.len() - 1].record;
        head.seq = last.seq;
        head.hash = last.hash.clone();
        // Still under the lock: the anchor never names a record older than one on file.
        self.write_anchor(&mut head.anchor, last.seq, &last.hash)?;
        let written = (head.file.clone(), head.path.clone(), head.end);
        let last = last.clone();
        chain.head = Some(head);
        Ok((last, written))
    }

    /// Append `bytes` at the head's end (its file's length, checked or loaded under the lock).
    fn write_at(&self, head: &mut Head, bytes: &[u8]) -> Result<(), StoreError> {
        if bytes.is_empty() {
            return Ok(());
        }
        append_unsynced_at(&head.file, &head.path, bytes, head.end)?;
        head.end += bytes.len() as u64;
        Ok(())
    }
    /// Overwrite the anchor in place with one fixed-size write (not fsync'd: after a power
    /// failure it may name a record the month file lost; `verify` then reports those records
    /// as missing, which is what they are).
    fn write_anchor(
        &self,
        open: &mut Option<File>,
        seq: u64,
        hash: &str,
    ) -> Result<(), StoreError> {
        use std::os::unix::fs::FileExt;
        let path = self.dir.join(ANCHOR);
        let mut text = match &self.key {
            Some(key) => format!(
                "{{\"seq\":{seq},\"hash\":\"{hash}\",\"mac\":\"{}\"}}",
                key.mac(Label::AuditAnchor, anchor_mac_input(seq, hash).as_bytes())
            ),
            None => format!("{{\"seq\":{seq},\"hash\":\"{hash}\"}}"),
        };
        while text.len() < ANCHOR_LEN - 1 {
            text.push(' ');
        }
        text.push('\n');
        let file = match open {
            Some(f) => f,
            None => open.insert(
                std::fs::OpenOptions::new()
                    .write(true)
                    .create(true)
                    .truncate(false)
                    .mode(crate::paths::FILE_MODE)
                    .open(&path)
                    .map_err(|e| StoreError::io(&path, "open", e))?,
            ),
        };
        file.write_all_at(text.as_bytes(), 0).map_err(|e| {
            *open = None; // open it again next time
            StoreError::io(&path, "write", e)
        })
    }

    /// The kept lock file (see `lock_file`), opened on first use. Nothing removes or replaces
    /// it while opsdesk runs; a data dir restored under a running engine is not supported.
    fn lock_file(&self) -> Result<&std::fs::File, StoreError> {
        if let Some(f) = self.lock_file.get() {
            return Ok(f);
        }
        let path = self.dir.join(LOCK);
        // Callers hold `head`, so no other thread opens it meanwhile.
        let _ = self.lock_file.set(open_lock_file(&path)?);
        self.lock_file
            .get()
            .ok_or_else(|| StoreError::Rejected("the audit lock file could not be kept".into()))
    }

    /// Find the head from the files: the newest month file (never an older one than `month`'s
    /// predecessor, so files stay in chain order if the clock steps back), torn tail repaired.
    fn load_head(&self, month: &Path) -> Result<Head, StoreError> {
        let files = month_files(&self.dir)?;
        let mut target = month.to_path_buf();
        if let Some(last) = files.last()
            && *last > target
        {
            target = last.clone();
        }
        let mut file =
            open_private_append(&target).map_err(|e| StoreError::io(&target, "open", e))?;
        repair_torn_tail(&mut file, &target)?;
        let (seq, hash) = self.head(&files, &target)?;
        let meta = file
            .metadata()
            .map_err(|e| StoreError::io(&target, "stat", e))?;
        Ok(Head {
            path: target,
            file: Arc::new(file),
            end: meta.len(),
            ino: meta.ino(),
            dev: meta.dev(),
            seq,
            hash,
            anchor: None,
        })
    }

    /// The last record's seq and hash, looking back through earlier months if needed.
    fn head(&self, files: &[PathBuf], target: &Path) -> Result<(u64, String), StoreError> {
        let mut candidates: Vec<&Path> = files.iter().map(|p| p.as_path()).collect();
        if !candidates.contains(&target) {
            candidates.push(target);
        }
        for path in candidates.into_iter().rev() {
            if let Some(line) = last_complete_line(path)? {
                let v: serde_json::Value =
                    serde_json::from_slice(&line).map_err(|e| StoreError::Corrupt {
                        path: path.to_path_buf(),
                        line: 0,
                        msg: format!(
                            "last audit record is unreadable ({e}); run `opsdesk audit verify`"
                        ),
                    })?;
                let seq = v.get("seq").and_then(|s| s.as_u64());
                let hash = v.get("hash").and_then(|s| s.as_str());
                return match (seq, hash) {
                    (Some(s), Some(h)) => Ok((s, h.to_string())),
                    _ => Err(StoreError::Corrupt {
                        path: path.to_path_buf(),
                        line: 0,
                        msg: "last audit record lacks seq/hash; run `opsdesk audit verify`".into(),
                    }),
                };
            }
        }
        Ok((0, GENESIS.to_string()))
    }
}

impl Drop for Audit {
    fn drop(&mut self) {
        // Staged read records are written and synced before the handle goes (a clean
        // shutdown loses none).
        self.w.syncer.stop();
        let _ = self.w.flush_pending(); // a failure is logged and kept by `fail`
    }
}

/// Where the next record goes and what it links to. Trusted only while the file still ends
/// where we left it (another process may have appended since).
struct Head {
    path: PathBuf,
    file: Arc<File>,
    end: u64,
    /// The open file's identity, to tell whether the path still names it.
    ino: u64,
    dev: u64,
    seq: u64,
    hash: String,
    /// The anchor file, opened by the first append after the head was loaded (one open per
    /// head, not per record: reads append a record on every call).
    anchor: Option<File>,
}

impl Head {
    /// The path still names our open file and it ends where we left it.
    fn still_current(&self) -> bool {
        // One stat of the path: the same inode as the open file (known since it was opened),
        // and its length where this process left it (appends keep the inode).
        match fs::metadata(&self.path) {
            Ok(named) => {
                named.ino() == self.ino && named.dev() == self.dev && named.len() == self.end
            }
            Err(_) => false,
        }
    }
}

#[derive(Default)]
struct Synced {
    path: PathBuf,
    upto: u64,
}

/// Where verification stopped, and why.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BadRecord {
    pub file: PathBuf,
    pub line: u64,
    /// The record's seq if it could be read.
    pub seq: Option<u64>,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct VerifyReport {
    pub files: usize,
    pub records: u64,
    pub first_bad: Option<BadRecord>,
    /// A torn last line left by an interrupted writer (not a chain break; the next append
    /// removes it).
    pub torn_tail: Option<PathBuf>,
    /// The anchored head the chain was checked against; `None` when there is no anchor (a trail
    /// written before anchors existed, or the anchor was deleted): then a cut tail cannot be seen.
    pub anchor: Option<Anchor>,
    /// Archived months (retention), each checked against the hashes the live chain recorded.
    pub archives: Vec<super::audit_archive::Archived>,
    /// Records held by the archives (not counted in `records`).
    pub archived_records: u64,
    /// Live records that carry a mac (checked when `macs_checked`).
    pub keyed_records: u64,
    /// Live records written before keying began (chain-checked only).
    pub unkeyed_records: u64,
    /// Whether the macs were checked (false without the integrity key: then a forgery by
    /// someone who recomputed the chain cannot be told from the real trail).
    pub macs_checked: bool,
}

/// Where [`Audit::scan_back`] ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScanEnd {
    /// The visitor had seen enough.
    Stopped,
    /// Every record was visited.
    Start,
    /// The byte budget ran out first.
    Budget,
}

/// The head as the last append left it, kept in `audit/.head`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Anchor {
    pub seq: u64,
    pub hash: String,
    /// HMAC of seq and hash under the integrity key (absent in anchors written without it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mac: Option<String>,
}

/// What the anchor's mac is over.
fn anchor_mac_input(seq: u64, hash: &str) -> String {
    format!("{seq}\n{hash}")
}

impl VerifyReport {
    pub fn ok(&self) -> bool {
        self.first_bad.is_none()
    }
}

/// The hash of a record: sha256 over `prev` and the canonical JSON of every field but `hash`
/// and `mac` (the mac is over the hash, so it cannot be part of it).
pub fn record_hash(value: &serde_json::Value) -> Option<String> {
    let obj = value.as_object()?;
    let prev = obj.get("prev")?.as_str()?;
    let mut body = obj.clone();
    body.remove("hash");
    body.remove("mac");
    Some(chain_hash(prev, &serde_json::Value::Object(body)))
}

/// `sha256(prev || canonical JSON of body)`; `body` is the record without `hash`.
fn chain_hash(prev: &str, body: &serde_json::Value) -> String {
    // serde_json's Map is ordered by key (no preserve_order feature): canonical by construction.
    let canonical = body.to_string();
    let mut h = Sha256::new();
    h.update(prev.as_bytes());
    h.update(canonical.as_bytes());
    hex::encode(h.finalize())
}

/// The month files of the trail in `dir`, in chain order.
pub(crate) fn month_files(dir: &Path) -> Result<Vec<PathBuf>, StoreError> {
    let mut v: Vec<PathBuf> = fs::read_dir(dir)
        .map_err(|e| StoreError::io(dir, "list", e))?
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| {
            p.file_name()
                .and_then(|n| n.to_str())
                .is_some_and(|n| n.len() == 13 && n.ends_with(".jsonl") && n.as_bytes()[4] == b'-')
        })
        .collect();
    v.sort();
    Ok(v)
}

fn month_file_name(t: time::OffsetDateTime) -> String {
    format!("{:04}-{:02}.jsonl", t.year(), t.month() as u8)
}

impl Audit {
    pub fn open(dir: &Path) -> Result<Audit, StoreError> {
        ensure_private_dir(dir).map_err(|e| StoreError::Rejected(format!("{e:#}")))?;
        Ok(Audit {
            dir: dir.to_path_buf(),
            key: None,
            w: Arc::new(Writer::new(dir.to_path_buf(), None)),
        })
    }

    /// Key this trail: appends mac their records, `verify` checks macs. `None` leaves it
    /// unkeyed (a reader without the key; tests of the chain alone).
    pub fn with_key(mut self, key: Option<Arc<IntegrityKey>>) -> Audit {
        self.key = key.clone();
        match Arc::get_mut(&mut self.w) {
            Some(w) => w.key = key,
            None => {
                // Appends already started the syncer: settle them, then a keyed writer.
                self.w.syncer.stop();
                let _ = self.w.flush_pending(); // a failure is kept in the old writer's state
                let failed = self
                    .w
                    .pending
                    .lock()
                    .unwrap_or_else(|p| p.into_inner())
                    .failed
                    .clone();
                let w = Writer::new(self.dir.clone(), key);
                w.pending.lock().unwrap_or_else(|p| p.into_inner()).failed = failed;
                self.w = Arc::new(w);
            }
        }
        self
    }

    /// The integrity key this handle holds (a reader checking other stores with it).
    pub(crate) fn key(&self) -> Option<Arc<IntegrityKey>> {
        self.key.clone()
    }

    /// Whether this handle holds the integrity key.
    pub fn keyed(&self) -> bool {
        self.key.is_some()
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Month files in chain order (staged read records written first, so readers in this
    /// process see every record answered so far).
    pub fn files(&self) -> Result<Vec<PathBuf>, StoreError> {
        self.settle()?;
        month_files(&self.dir)
    }

    /// Write the staged read records now (not synced: the syncer does that).
    fn settle(&self) -> Result<(), StoreError> {
        let written = {
            let mut chain = self.w.chain.lock().unwrap_or_else(|p| p.into_inner());
            self.w.write_staged(&mut chain)
        };
        let r = match written {
            Ok(Some((_, w))) => self.w.note_written(w).and_then(|()| self.request_sync()),
            Ok(None) => Ok(()),
            Err(e) => Err(e),
        };
        if let Err(e) = &r {
            self.w.fail(e);
        }
        r
    }

    fn request_sync(&self) -> Result<(), StoreError> {
        self.w
            .syncer
            .request(&self.w, |w| &w.syncer, Writer::flush_pending)
            .map_err(StoreError::Rejected)
    }

    /// Append a record and return once it is on disk (state changes: drafts, decisions,
    /// provider changes, refusals). Staged read records are written before it, in the same
    /// write. The record is written under the locks and made durable after them, so callers
    /// that append at the same time share one fsync (group commit).
    pub fn append(&self, event: AuditEvent) -> Result<AuditRecord, StoreError> {
        let (record, written) = self.write(event)?;
        let (file, path, end) = written;
        self.w.sync_upto(&file, &path, end)?;
        Ok(record)
    }

    /// Append a record and return once it is written (so a full disk or a broken trail still
    /// refuses the call); the fsync follows within `DEFERRED_SYNC_WINDOW`, shared with other
    /// records. For records whose caller must stop if the trail fails (the LLM router's) but
    /// should not wait for the disk.
    pub fn append_deferred(&self, event: AuditEvent) -> Result<AuditRecord, StoreError> {
        let (record, written) = self.write(event)?;
        self.w.note_written(written)?;
        self.request_sync()?;
        Ok(record)
    }

    /// Append several records with one write and one anchor update, returning once they are
    /// written; made durable like [`Audit::append`] when `durable`, else within the deferred
    /// sync window. For a batch of ingested items: one record each, the cost of one.
    pub fn append_batch(
        &self,
        events: Vec<AuditEvent>,
        durable: bool,
    ) -> Result<Vec<AuditRecord>, StoreError> {
        if events.is_empty() {
            return Ok(Vec::new());
        }
        self.w.refuse_if_failed()?;
        let mut chain = self.w.chain.lock().unwrap_or_else(|p| p.into_inner());
        let before = chain.staged.len();
        for event in events {
            if let Err(e) = self.w.stage(&mut chain, event) {
                // Nothing of the batch is written: unstage it and read the head again.
                chain.staged.truncate(before);
                chain.head = None;
                return Err(e);
            }
        }
        let ours = chain.staged.len() - before;
        let (records, _, written) = match self.w.write_staged_keeping(&mut chain, ours) {
            Ok(Some(x)) => x,
            Ok(None) => {
                return Err(StoreError::Rejected(
                    "the audit records were not staged".into(),
                ));
            }
            Err(e) => {
                if before > 0 {
                    // Staged read records went down with it.
                    self.w.fail(&e);
                }
                return Err(e);
            }
        };
        drop(chain);
        if durable {
            let (file, path, end) = written;
            self.w.sync_upto(&file, &path, end)?;
        } else {
            self.w.note_written(written)?;
            self.request_sync()?;
        }
        Ok(records)
    }

    /// Stage a read's record: linked now (seq, chain hash, mac), in order, and written by the
    /// syncer with the others of its window in one `write`, then synced. Refused while an
    /// earlier write or fsync failed. A crash loses at most the records of one window; another
    /// process appending meanwhile makes the batch link after its records (the seq returned
    /// here is then not the one on file).
    pub fn append_read(&self, event: AuditEvent) -> Result<AuditRecord, StoreError> {
        self.w.refuse_if_failed()?;
        let record = {
            let mut chain = self.w.chain.lock().unwrap_or_else(|p| p.into_inner());
            self.w.stage(&mut chain, event)?
        };
        self.request_sync()?;
        Ok(record)
    }

    /// Link and write one record after the staged ones (not yet synced).
    fn write(&self, event: AuditEvent) -> Result<(AuditRecord, Written), StoreError> {
        self.w.refuse_if_failed()?;
        let mut chain = self.w.chain.lock().unwrap_or_else(|p| p.into_inner());
        self.w.stage(&mut chain, event)?;
        let batch = chain.staged.len();
        match self.w.write_staged(&mut chain) {
            Ok(Some(x)) => Ok(x),
            Ok(None) => Err(StoreError::Rejected(
                "the audit record was not staged".into(),
            )),
            Err(e) => {
                if batch > 1 {
                    // Staged read records went down with it.
                    self.w.fail(&e);
                }
                Err(e)
            }
        }
    }

    /// The anchored head, if an anchor was ever written.
    pub fn anchor(&self) -> Result<Option<Anchor>, StoreError> {
        self.settle()?;
        let path = self.dir.join(ANCHOR);
        let text = match fs::read_to_string(&path) {
            Ok(t) => t,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(StoreError::io(&path, "read", e)),
        };
        serde_json::from_str::<Anchor>(text.trim())
            .map(Some)
            .map_err(|e| StoreError::Corrupt {
                path,
                line: 1,
                msg: format!("the audit anchor is unreadable ({e})"),
            })
    }

    /// The newest mac this trail holds and what it is over: the anchor's, else the newest
    /// keyed record's within the last [`KEYED_PROBE_BUDGET`] bytes. `None` when neither carries
    /// one (a trail never written with a key, or empty). A writer checks its key against it
    /// before appending anything (`integrity::for_writer`).
    pub fn newest_mac(&self) -> Result<Option<Sealed>, StoreError> {
        // An unreadable anchor is `audit verify`'s to report; the records still say whether
        // and how the trail is keyed.
        if let Ok(Some(Anchor {
            seq,
            hash,
            mac: Some(mac),
        })) = self.anchor()
        {
            return Ok(Some(Sealed {
                label: Label::AuditAnchor,
                data: anchor_mac_input(seq, &hash).into_bytes(),
                mac,
            }));
        }
        let mut found = None;
        self.scan_back(KEYED_PROBE_BUDGET, |line| {
            let Ok(v) = serde_json::from_slice::<serde_json::Value>(line) else {
                return true; // `audit verify` reports unreadable lines
            };
            if let (Some(hash), Some(mac)) = (
                v.get("hash").and_then(|h| h.as_str()),
                v.get("mac").and_then(|m| m.as_str()),
            ) {
                found = Some(Sealed {
                    label: Label::AuditRecord,
                    data: hash.as_bytes().to_vec(),
                    mac: mac.to_string(),
                });
                return false;
            }
            true
        })?;
        Ok(found)
    }

    /// Recompute the whole chain.
    pub fn verify(&self) -> Result<VerifyReport, StoreError> {
        self.verify_with(&mut |_| {})
    }

    /// [`Audit::verify`], telling `progress` how many records it has checked so far (every
    /// [`PROGRESS_EVERY`] records), so a long run can say it is alive.
    pub fn verify_with(&self, progress: &mut dyn FnMut(u64)) -> Result<VerifyReport, StoreError> {
        let files = self.files()?;
        let anchor = self.anchor()?;
        let archived = super::audit_archive::check(&self.dir)?;
        let mut report = VerifyReport {
            files: files.len(),
            records: 0,
            first_bad: None,
            torn_tail: None,
            anchor: anchor.clone(),
            archives: archived.archives.clone(),
            archived_records: archived.records,
            keyed_records: 0,
            unkeyed_records: 0,
            macs_checked: self.key.is_some(),
        };
        if let Some((file, reason)) = archived.problem {
            report.first_bad = Some(BadRecord {
                file,
                line: 0,
                seq: None,
                reason,
            });
            return Ok(report);
        }
        // The hash the chain has at the anchored seq, once reached.
        let mut anchored_hash: Option<String> = None;
        // The live chain goes on where the archives end.
        let (mut prev, mut expect) = match &archived.resume {
            Some((seq, hash)) => (hash.clone(), seq + 1),
            None => (GENESIS.to_string(), 1u64),
        };
        if let Some(a) = &anchor
            && a.seq < expect
            && a.seq > 0
        {
            anchored_hash = archived
                .archives
                .iter()
                .find(|x| x.last == a.seq)
                .map(|x| x.last_hash.clone());
        }
        for (fi, path) in files.iter().enumerate() {
            // A month archived but not yet removed (a crash between the two): it must be
            // exactly what its archive holds; its records were checked there.
            if let Some(a) = archived.archives.iter().find(|a| {
                path.file_name().and_then(|n| n.to_str()) == Some(&format!("{}.jsonl", a.month))
            }) {
                let live = fs::read(path).map_err(|e| StoreError::io(path, "read", e))?;
                let kept = super::audit_archive::read_archive(&self.dir.join(a.file()))?;
                if live != kept {
                    report.first_bad = Some(BadRecord {
                        file: path.clone(),
                        line: 0,
                        seq: None,
                        reason: format!(
                            "this month was archived, but it no longer matches its archive {}",
                            a.file()
                        ),
                    });
                    return Ok(report);
                }
                continue;
            }
            let bad = |line: u64, seq: Option<u64>, reason: String| BadRecord {
                file: path.clone(),
                line,
                seq,
                reason,
            };
            let mut last_end = 0u64;
            for line in Lines::open(path, 0).map_err(|e| StoreError::io(path, "open", e))? {
                let line = line.map_err(|e| StoreError::io(path, "read", e))?;
                last_end = line.offset + line.bytes.len() as u64 + 1;
                let v: serde_json::Value = match serde_json::from_slice(&line.bytes) {
                    Ok(v) => v,
                    Err(e) => {
                        report.first_bad =
                            Some(bad(line.number, None, format!("not valid JSON ({e})")));
                        return Ok(report);
                    }
                };
                let seq = v.get("seq").and_then(|s| s.as_u64());
                let stored = v.get("hash").and_then(|h| h.as_str()).unwrap_or("");
                let this_prev = v.get("prev").and_then(|h| h.as_str()).unwrap_or("");
                let reason = if let Some(s) = seq
                    && s > expect
                    && line.number == 1
                {
                    Some(format!(
                        "records {expect} to {} are missing before this file (a month file was deleted or cut)",
                        s - 1
                    ))
                } else if seq != Some(expect) {
                    let found = match seq {
                        Some(s) => format!("seq {s}"),
                        None => "no seq".to_string(),
                    };
                    Some(format!(
                        "expected seq {expect}, found {found} (a record was removed or inserted)"
                    ))
                } else if this_prev != prev {
                    Some("prev does not match the previous record's hash (a record was removed, reordered or altered)".to_string())
                } else if record_hash(&v).as_deref() != Some(stored) {
                    Some(
                        "hash does not match the record's content (the record was altered)"
                            .to_string(),
                    )
                } else if serde_json::from_value::<AuditRecord>(v.clone()).is_err() {
                    Some("record does not have the audit record shape".to_string())
                } else {
                    self.judge_mac(&v, stored, &mut report)
                };
                if let Some(reason) = reason {
                    report.first_bad = Some(bad(line.number, seq, reason));
                    return Ok(report);
                }
                if anchor.as_ref().is_some_and(|a| a.seq == expect) {
                    anchored_hash = Some(stored.to_string());
                }
                prev = stored.to_string();
                expect += 1;
                report.records += 1;
                if report.records.is_multiple_of(PROGRESS_EVERY) {
                    progress(report.records);
                }
            }
            let len = fs::metadata(path)
                .map_err(|e| StoreError::io(path, "stat", e))?
                .len();
            if len > last_end {
                if fi + 1 == files.len() {
                    report.torn_tail = Some(path.clone());
                } else {
                    report.first_bad = Some(bad(
                        0,
                        None,
                        "incomplete line at the end of a closed month file".into(),
                    ));
                    return Ok(report);
                }
            }
        }
        if let Some(a) = &anchor {
            // The chain's last seq, archived records included.
            let last = expect - 1;
            let at = files.last().cloned().unwrap_or_else(|| self.dir.clone());
            let reason = if a.seq > last {
                Some(if last + 1 == a.seq {
                    format!(
                        "record {} is missing: the trail ends at record {last} but its anchor ({}) names record {}, so the tail was cut or the newest month file deleted",
                        a.seq, ANCHOR, a.seq
                    )
                } else {
                    format!(
                        "records {} to {} are missing: the trail ends at record {last} but its anchor ({}) names record {}, so the tail was cut or the newest month file deleted",
                        last + 1,
                        a.seq,
                        ANCHOR,
                        a.seq
                    )
                })
            } else if anchored_hash.as_deref() != Some(a.hash.as_str()) && a.seq > 0 {
                Some(format!(
                    "record {} does not have the hash its anchor ({}) recorded: the trail was rewritten from there on",
                    a.seq, ANCHOR
                ))
            } else if let Some(key) = &self.key
                && report.keyed_records > 0
                && !a.mac.as_deref().is_some_and(|m| {
                    key.check(
                        Label::AuditAnchor,
                        anchor_mac_input(a.seq, &a.hash).as_bytes(),
                        m,
                    )
                })
            {
                Some(format!(
                    "the anchor ({ANCHOR}) {}: it was written without the integrity key (forged)",
                    if a.mac.is_some() {
                        "has a mac that does not match"
                    } else {
                        "has no mac although the trail is keyed"
                    }
                ))
            } else {
                None
            };
            if let Some(reason) = reason {
                report.first_bad = Some(BadRecord {
                    file: at,
                    line: 0,
                    seq: Some(a.seq),
                    reason,
                });
            }
        }
        Ok(report)
    }

    /// Count a chain-intact record as keyed or not, and check its mac when the key is here.
    /// Returns why the record is forged, if it is.
    fn judge_mac(
        &self,
        v: &serde_json::Value,
        hash: &str,
        report: &mut VerifyReport,
    ) -> Option<String> {
        let after_keying = || {
            let ts = v.get("ts").and_then(|t| t.as_str()).and_then(|t| {
                time::OffsetDateTime::parse(t, &time::format_description::well_known::Rfc3339).ok()
            });
            self.key
                .as_ref()
                .zip(ts)
                .is_some_and(|(k, ts)| k.unkeyed_is_forged(ts))
        };
        match v.get("mac") {
            None if report.keyed_records > 0 => Some(
                "record has no mac but follows keyed records: it was written without the integrity key (forged)"
                    .to_string(),
            ),
            None if after_keying() => Some(
                "record has no mac but was written after the integrity key was created: it was written without the key (forged, or its mac was removed)"
                    .to_string(),
            ),
            None => {
                report.unkeyed_records += 1;
                None
            }
            Some(mac) => {
                if let Some(key) = &self.key
                    && !mac
                        .as_str()
                        .is_some_and(|m| key.check(Label::AuditRecord, hash.as_bytes(), m))
                {
                    return Some(
                        "mac does not match: the record was forged or altered by someone without the integrity key"
                            .to_string(),
                    );
                }
                report.keyed_records += 1;
                None
            }
        }
    }

    /// Visit the trail's complete lines newest first until `visit` returns false (then
    /// `Stopped`), the trail's start (`Start`) or `budget` bytes were read (`Budget`). For
    /// looking at the recent past (crash recovery) without reading a month of records.
    pub fn scan_back(
        &self,
        budget: u64,
        mut visit: impl FnMut(&[u8]) -> bool,
    ) -> Result<ScanEnd, StoreError> {
        use std::os::unix::fs::FileExt;
        let mut left = budget;
        for path in self.files()?.iter().rev() {
            let file = File::open(path).map_err(|e| StoreError::io(path, "open", e))?;
            let len = file
                .metadata()
                .map_err(|e| StoreError::io(path, "stat", e))?
                .len();
            let take = len.min(left);
            let mut buf = vec![0u8; take as usize];
            file.read_exact_at(&mut buf, len - take)
                .map_err(|e| StoreError::io(path, "read", e))?;
            left -= take;
            let whole_file = take == len;
            let mut parts: Vec<&[u8]> = buf.split(|b| *b == b'\n').collect();
            // After the last newline: empty, or a torn line an interrupted writer left.
            parts.pop();
            if !whole_file && !parts.is_empty() {
                parts.remove(0); // cut by the budget: not a whole line
            }
            for line in parts.into_iter().rev() {
                if !line.is_empty() && !visit(line) {
                    return Ok(ScanEnd::Stopped);
                }
            }
            if !whole_file {
                return Ok(ScanEnd::Budget);
            }
        }
        Ok(ScanEnd::Start)
    }

    /// The last `n` records, oldest first (unreadable lines skipped).
    pub fn tail(&self, n: usize) -> Result<Vec<AuditRecord>, StoreError> {
        let mut out = std::collections::VecDeque::with_capacity(n + 1);
        for path in self.files()?.iter().rev() {
            let recs = self.read_file(path, 0)?.0;
            for r in recs.into_iter().rev() {
                if out.len() >= n {
                    break;
                }
                out.push_front(r);
            }
            if out.len() >= n {
                break;
            }
        }
        Ok(out.into_iter().collect())
    }

    /// Records of one file from `offset`, and the offset after the last complete line.
    pub fn read_file(
        &self,
        path: &Path,
        offset: u64,
    ) -> Result<(Vec<AuditRecord>, u64), StoreError> {
        self.settle()?;
        let mut out = Vec::new();
        let mut end = offset;
        let lines = match Lines::open(path, offset) {
            Ok(l) => l,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((out, offset)),
            Err(e) => return Err(StoreError::io(path, "open", e)),
        };
        for line in lines {
            let line = line.map_err(|e| StoreError::io(path, "read", e))?;
            end = line.offset + line.bytes.len() as u64 + 1;
            match serde_json::from_slice::<AuditRecord>(&line.bytes) {
                Ok(r) => out.push(r),
                Err(e) => {
                    tracing::warn!(file = %path.display(), line = line.number, "unreadable audit line: {e}")
                }
            }
        }
        Ok((out, end))
    }
}

#[cfg(test)]
mod sync_tests {
    use super::*;
    use crate::domain::{Actor, AuditOutcome};

    #[test]
    fn after_a_failed_background_fsync_every_append_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let audit = Audit::open(dir.path()).unwrap();
        let ev = || AuditEvent::new("inbox.pull", Actor::Console, AuditOutcome::Ok);
        audit.append_deferred(ev()).unwrap();
        audit.w.pending.lock().unwrap().failed = Some("fsync: Input/output error".into());
        for r in [
            audit.append(ev()),
            audit.append_deferred(ev()),
            audit.append_read(ev()),
        ] {
            let e = r.expect_err("a trail that may have lost records must refuse");
            assert!(e.to_string().contains("could not be made durable"), "{e}");
        }
    }

    #[test]
    fn a_failed_batch_write_refuses_every_later_read_and_append() {
        let dir = tempfile::tempdir().unwrap();
        let audit = Audit::open(dir.path()).unwrap();
        let ev = || AuditEvent::new("status", Actor::Console, AuditOutcome::Ok);
        audit.append(ev()).unwrap();
        audit.append_read(ev()).unwrap();
        {
            // The head's file handle replaced by a read-only one of the same file: the batch's
            // write fails as on a disk that refuses writes.
            let mut chain = audit.w.chain.lock().unwrap();
            let head = chain.head.as_mut().unwrap();
            head.file = Arc::new(File::open(&head.path).unwrap());
        }
        audit.w.flush_pending().unwrap();
        for r in [
            audit.append_read(ev()),
            audit.append(ev()),
            audit.append_deferred(ev()),
        ] {
            let e = r.expect_err("a trail that lost read records must refuse");
            assert!(e.to_string().contains("could not be made durable"), "{e}");
        }
    }
}
