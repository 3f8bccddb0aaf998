//! The durable inbox: `inbox/<YYYY-MM-DD>.jsonl` data files, `inbox/index2.bin` and
//! `inbox/state.json`.
//!
//! `index2.bin` holds one fixed 32-byte entry per `seq` (entry `seq-1`): the day file, offset and
//! length of the record's line, a hash of its source id, and a CRC-32 of the line's bytes,
//! checked on every read (a changed byte in a record that still parses is reported with its seq
//! and the record skipped, never returned). It is the commit point: a record
//! exists once its index entry is written, which happens only after its line is fsync'd. So:
//! - reading from a cursor is one `pread` into the index plus one per record, whatever the size
//!   of the inbox;
//! - a writer killed between the two writes leaves a line no index entry points to; the next
//!   writer rolls such complete lines forward (they carry their `seq`) and cuts torn ones;
//! - dedup by source id needs only the id hashes, loaded from the index once per process and
//!   caught up incrementally when other processes append.
//! - an index that is missing or shorter than the data files (deleted, truncated) is noticed by
//!   readers too (the last entry's day file is longer than the entry's end, or a later day file
//!   exists) and, once any writer holding the lock has finished, rebuilt under the inbox lock
//!   (warning only when that rebuild changed something); if that fails the read fails saying why, so no
//!   reader ever shows a short inbox with success.
//!
//! **Keyed records.** The CRC catches accidents, not someone who edits a line and recomputes it.
//! A writer holding the integrity key (`integrity.rs`, outside the data dir) ends each line with
//! `"mac"`: HMAC(key, the line without that field). The mac lives in the line, so it survives an
//! index rebuild; readers ignore the field (records parse as before), and `verify` checks it:
//! a bad mac, or a line without one after the first keyed record, is a forgery. Lines written
//! before keying are counted as unkeyed.
//!
//! `state.json` carries consumer cursors (`{unread, last_seq, consumers}`) and is replaced
//! atomically when a cursor moves; its `last_seq`/`unread` are a snapshot from that moment
//! (`Inbox::state` computes them live from the index, which is the truth).

use std::collections::BTreeMap;
use std::fs::{self, File, OpenOptions};
use std::io::ErrorKind;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use time::OffsetDateTime;

use super::StoreError;
use super::cursors::StateFile;
use super::fulltext::FullText;
use super::integrity::{IntegrityKey, Label, append_mac_field, split_mac_field};
use super::jsonl::{FileLock, Lines, append_durable};
use crate::domain::{Channel, InboxRecord, SearchOrder, SearchQuery};
use crate::paths::{ensure_private_dir, open_private_append, write_atomic};

mod reader;
mod search;

use reader::{HotRecords, RecordReader};

const ENTRY_LEN: u64 = 32;
/// The index. Its name changed with the entry format (`index.bin` had 24-byte entries without
/// checksums): an inbox written before has no `index2.bin`, so the missing-index repair
/// rebuilds it from the data files, checksumming each line as it stands, and then removes the
/// old index (`LEGACY_INDEX`).
pub(crate) const INDEX: &str = "index2.bin";
const LEGACY_INDEX: &str = "index.bin";
const LOCK: &str = ".lock";
/// Present once a record was ever stored in the reserved profile `unassigned` (written, durably,
/// before the first such record): the PHI view treats `unassigned` as the strictest profile
/// whenever this exists, whatever the configuration says now (`governance/phi_view.rs`), and a
/// data dir that never held one pays nothing for it.
pub(crate) const UNASSIGNED_MARKER: &str = "unassigned.seen";
/// The console's cursor defines the operator's `unread` count in state.json.
pub(crate) const OPERATOR_CONSUMER: &str = "console";
/// Julian day number of 1970-01-01.
const UNIX_EPOCH_JULIAN: i32 = 2_440_588;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct IndexEntry {
    day: u32,
    len: u32,
    offset: u64,
    id_hash: u64,
    /// CRC-32 (IEEE) of the record's line, newline included.
    crc: u32,
}

impl IndexEntry {
    /// A seq whose record was lost (only ever produced by an index rebuild after damage).
    const HOLE: IndexEntry = IndexEntry {
        day: 0,
        len: 0,
        offset: 0,
        id_hash: 0,
        crc: 0,
    };

    fn is_hole(&self) -> bool {
        self.len == 0
    }
    fn end(&self) -> u64 {
        self.offset + self.len as u64
    }
    fn encode(&self) -> [u8; ENTRY_LEN as usize] {
        let mut b = [0u8; ENTRY_LEN as usize];
        b[0..4].copy_from_slice(&self.day.to_le_bytes());
        b[4..8].copy_from_slice(&self.len.to_le_bytes());
        b[8..16].copy_from_slice(&self.offset.to_le_bytes());
        b[16..24].copy_from_slice(&self.id_hash.to_le_bytes());
        b[24..28].copy_from_slice(&self.crc.to_le_bytes());
        // 28..32 reserved, zero.
        b
    }
    fn decode(b: &[u8]) -> IndexEntry {
        let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
        let u64_at = |i: usize| {
            let mut a = [0u8; 8];
            a.copy_from_slice(&b[i..i + 8]);
            u64::from_le_bytes(a)
        };
        IndexEntry {
            day: u32_at(0),
            len: u32_at(4),
            offset: u64_at(8),
            id_hash: u64_at(16),
            crc: u32_at(24),
        }
    }
}

fn id_hash(id: &str) -> u64 {
    let d = Sha256::digest(id.as_bytes());
    let mut a = [0u8; 8];
    a.copy_from_slice(&d[..8]);
    // 0 marks a hole in the index; move the one id hashing to 0 elsewhere.
    u64::from_le_bytes(a).max(1)
}

/// The checksum of a line as read without its newline (`Lines`), equal to the checksum of the
/// line as written (newline included).
fn line_crc(without_newline: &[u8]) -> u32 {
    let mut h = crc32fast::Hasher::new();
    h.update(without_newline);
    h.update(b"\n");
    h.finalize()
}

fn day_of(t: OffsetDateTime) -> u32 {
    t.unix_timestamp().div_euclid(86_400).max(0) as u32
}

fn day_file_name(day: u32) -> String {
    match time::Date::from_julian_day(UNIX_EPOCH_JULIAN + day as i32) {
        Ok(d) => format!(
            "{:04}-{:02}-{:02}.jsonl",
            d.year(),
            d.month() as u8,
            d.day()
        ),
        Err(_) => format!("day-{day}.jsonl"),
    }
}

fn parse_day_file_name(name: &str) -> Option<u32> {
    let stem = name.strip_suffix(".jsonl")?;
    let fmt = time::macros::format_description!("[year]-[month]-[day]");
    let date = time::Date::parse(stem, &fmt).ok()?;
    u32::try_from(date.to_julian_day() - UNIX_EPOCH_JULIAN).ok()
}

/// Which records a read returns.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter {
    pub channel: Option<Channel>,
    pub profile: Option<String>,
    /// Words to find (`domain::SearchQuery`): answered by the full-text index, so only
    /// [`Inbox::read_before`] and [`Inbox::search`] take it.
    pub text: Option<String>,
}

impl Filter {
    pub fn is_empty(&self) -> bool {
        self.channel.is_none() && self.profile.is_none() && self.text.is_none()
    }

    /// Whether `r` has the channel and profile asked for (the text is the index's to judge).
    pub fn matches(&self, r: &InboxRecord) -> bool {
        if self.channel.is_some_and(|c| c != r.channel) {
            return false;
        }
        if self.profile.as_deref().is_some_and(|p| p != r.profile) {
            return false;
        }
        true
    }
}

/// Result of an append: the stored record, or the seq of the record that already has this id.
#[derive(Debug, Clone, PartialEq)]
pub enum Appended {
    New(Box<InboxRecord>),
    Duplicate { id: String, seq: u64 },
}

/// Records read from the inbox. Shared with the parsed-record cache: a record's newest reads
/// hand out the one parsed copy (`Arc::unwrap_or_clone` for one to own).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Batch {
    pub records: Vec<Arc<InboxRecord>>,
    /// Indexed records that could not be read back intact (reported, never returned).
    pub skipped_corrupt: u64,
    /// The inbox's last seq at the time of the read.
    pub last_seq: u64,
}

/// What `Inbox::verify` found.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct InboxVerifyReport {
    /// Indexed seqs (the inbox's last seq).
    pub records: u64,
    /// Records whose bytes do not read back as stored, by seq.
    pub damaged: Vec<DamagedRecord>,
    /// Seqs whose record was lost before an index rebuild (known, reported, not damage found now).
    pub holes: Vec<u64>,
    /// Records that carry a mac (checked when `macs_checked`).
    pub keyed: u64,
    /// The first keyed record's seq: records before it were written before keying began.
    pub keyed_from: Option<u64>,
    /// Records written before keying began (checksum-checked only).
    pub unkeyed_legacy: u64,
    /// Whether macs were checked (false without the integrity key).
    pub macs_checked: bool,
}

impl InboxVerifyReport {
    pub fn ok(&self) -> bool {
        self.damaged.is_empty()
    }
}

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct DamagedRecord {
    pub seq: u64,
    pub reason: String,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct InboxState {
    /// Records the operator (the `console` consumer) has not seen.
    pub unread: u64,
    pub last_seq: u64,
    /// Consumer name → last seq it consumed.
    pub consumers: BTreeMap<String, u64>,
}

#[derive(Default)]
struct WriterCache {
    /// How many index entries `ids` covers.
    covered: u64,
    ids: super::id_index::IdIndex,
}

pub struct Inbox {
    dir: PathBuf,
    writer: Mutex<WriterCache>,
    /// state.json: cursors, cached, pulls' moves saved lazily.
    state: Arc<StateFile>,
    /// Recently read records, parsed: pulls and the console read the newest records over and
    /// over. Keyed by seq and checked against the index entry, so a rebuilt index that points
    /// a seq elsewhere is never answered from here.
    hot: Mutex<HotRecords>,
    /// The operator's profile assignments (`store/assignments.rs`), applied to every record
    /// the public reads return (never to the lines, never to the hot cache).
    assignments: super::assignments::Assignments,
    /// The index file kept open for reads, with the inode it was opened as: a read stats the
    /// path and reuses it while the path still names it (an open and close per read cost as
    /// much as the rest of a `status`).
    index_file: Mutex<Option<OpenIndex>>,
    /// The integrity key: appends mac their lines, `verify` checks the macs.
    key: Option<Arc<IntegrityKey>>,
    /// The full-text index (`store/fulltext.rs`), opened by the first search or catch-up.
    fulltext: Mutex<Option<FullText>>,
    /// Set once records of `unassigned` may exist (never cleared): the marker was there at
    /// open, this process stored or read such a record, or a watch saw the marker appear.
    unassigned_seen: Arc<std::sync::atomic::AtomicBool>,
    /// Whether a watch on the marker runs ([`Inbox::watch_unassigned`]); without one,
    /// [`Inbox::has_unassigned`] looks for the marker each time.
    unassigned_watched: Arc<std::sync::atomic::AtomicBool>,
}

struct OpenIndex {
    file: Arc<File>,
    ino: u64,
    dev: u64,
}

impl Drop for Inbox {
    fn drop(&mut self) {
        self.state.shutdown();
    }
}

impl Inbox {
    /// Drop the parsed-record cache; the next reads fill it again from the day files. An idle
    /// engine calls this once a burst has settled (`cli/host.rs`): the records it kept were
    /// parsed amid the burst's short-lived allocations, and their few live blocks held about
    /// 4 MB of allocator pages resident (docs/ARCHITECTURE.md, "Memory"). Copying them into
    /// fresh allocations instead kept most of it (measured).
    ///
    /// The writer's id map goes too: at 8 bytes a record it is the one structure that grows
    /// with the inbox (8 MB at a million records), and the next write rebuilds it from the
    /// index file with one sort (`catch_up_ids`; 40 ms at a million records, `cargo bench --bench
    /// scale`).
    pub fn shed_caches(&self) {
        let old = std::mem::take(&mut *self.hot.lock().unwrap_or_else(|p| p.into_inner()));
        // Freed here, outside the lock.
        drop(old);
        let ids = std::mem::take(&mut *self.writer.lock().unwrap_or_else(|p| p.into_inner()));
        drop(ids);
    }

    /// Open (creating if needed) the inbox in `dir`. Opening takes no lock; readers never do.
    pub fn open(dir: &Path) -> Result<Inbox, StoreError> {
        ensure_private_dir(dir).map_err(|e| StoreError::Rejected(format!("{e:#}")))?;
        Ok(Inbox {
            dir: dir.to_path_buf(),
            writer: Mutex::new(WriterCache::default()),
            state: StateFile::new(dir),
            index_file: Mutex::new(None),
            hot: Mutex::new(HotRecords::default()),
            assignments: super::assignments::Assignments::new(dir),
            key: None,
            fulltext: Mutex::new(None),
            unassigned_seen: Arc::new(std::sync::atomic::AtomicBool::new(
                dir.join(UNASSIGNED_MARKER).exists(),
            )),
            unassigned_watched: Arc::new(std::sync::atomic::AtomicBool::new(false)),
        })
    }

    /// Key this inbox: appends mac their lines, `verify` checks macs. `None` leaves it
    /// unkeyed (a reader without the key; tests of the checksums alone).
    pub fn with_key(mut self, key: Option<Arc<IntegrityKey>>) -> Inbox {
        self.key = key;
        self
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    fn day_path(&self, day: u32) -> PathBuf {
        self.dir.join(day_file_name(day))
    }

    // ---------------------------------------------------------------- writing

    /// Append one record (its `seq` and `received_at` are assigned here).
    pub fn append(&self, record: InboxRecord) -> Result<Appended, StoreError> {
        let mut out = self.append_batch(vec![record])?;
        Ok(out.remove(0))
    }

    /// Append records under one lock and one fsync per file. Records whose source id is
    /// already stored (or repeated within the batch) are reported as duplicates, not stored.
    pub fn append_batch(&self, records: Vec<InboxRecord>) -> Result<Vec<Appended>, StoreError> {
        let mut cache = self.writer.lock().unwrap_or_else(|p| p.into_inner());
        let _lock = FileLock::exclusive(&self.path(LOCK))?;
        let index_path = self.path(INDEX);
        let mut index =
            open_private_append(&index_path).map_err(|e| StoreError::io(&index_path, "open", e))?;
        let committed = self.recover(&mut index)?;
        self.catch_up_ids(&mut cache, &index, committed)?;

        let now = crate::domain::now();
        let last_day = self
            .last_real_entry(&index, committed)?
            .map(|e| e.day)
            .unwrap_or(0);
        // Never write into an older day file than the last record's: keeps files in seq order
        // even if the clock steps back, which recovery relies on.
        let day = day_of(now).max(last_day);
        let data_path = self.day_path(day);
        let mut data =
            open_private_append(&data_path).map_err(|e| StoreError::io(&data_path, "open", e))?;
        let base = data
            .metadata()
            .map_err(|e| StoreError::io(&data_path, "stat", e))?
            .len();

        let mut seq = committed;
        let mut bytes = Vec::new();
        let mut entries = Vec::new();
        let mut fresh = super::id_index::IdMap::default();
        let mut out = Vec::with_capacity(records.len());
        for mut rec in records {
            let h = id_hash(&rec.id);
            let existing = match fresh.get(&h) {
                Some(&s) => Some(s),
                None => self.stored_under(&cache.ids, &index, h, &rec.id)?,
            };
            if let Some(s) = existing {
                out.push(Appended::Duplicate { id: rec.id, seq: s });
                continue;
            }
            seq += 1;
            rec.seq = seq;
            rec.received_at = now;
            rec.untrusted = true;
            let mut line = serde_json::to_vec(&rec).map_err(|e| {
                StoreError::Rejected(format!("cannot encode record {}: {e}", rec.id))
            })?;
            if let Some(key) = &self.key {
                let mac = key.mac(Label::InboxRecord, &line);
                line = append_mac_field(line, &mac);
            }
            line.push(b'\n');
            let len = u32::try_from(line.len())
                .map_err(|_| StoreError::Rejected(format!("record {} is too large", rec.id)))?;
            entries.push(IndexEntry {
                day,
                len,
                offset: base + bytes.len() as u64,
                id_hash: h,
                crc: crc32fast::hash(&line),
            });
            bytes.extend_from_slice(&line);
            fresh.insert(h, seq);
            out.push(Appended::New(Box::new(rec)));
        }
        if entries.is_empty() {
            return Ok(out);
        }
        // The marker first: a record of `unassigned` must never exist without it.
        if out
            .iter()
            .any(|a| matches!(a, Appended::New(r) if r.profile == crate::domain::UNASSIGNED))
        {
            self.note_unassigned()?;
        }

        let at = append_durable(&mut data, &data_path, &bytes)?;
        if at != base {
            // Someone wrote to the file without the lock; refuse rather than index wrong offsets.
            let _ = data.set_len(base);
            return Err(StoreError::Rejected(format!(
                "{} changed while locked (another program is writing to it?)",
                data_path.display()
            )));
        }
        let mut idx_bytes = Vec::with_capacity(entries.len() * ENTRY_LEN as usize);
        for e in &entries {
            idx_bytes.extend_from_slice(&e.encode());
        }
        if let Err(e) = append_durable(&mut index, &index_path, &idx_bytes) {
            // Uncommitted: take the lines back out so nothing half-stored remains.
            let _ = data.set_len(base);
            let _ = data.sync_data();
            return Err(e);
        }
        for (h, s) in fresh {
            cache.ids.insert(h, s);
        }
        cache.covered = seq;
        // state.json is not rewritten here: its last_seq/unread are derived from the index
        // whenever it is read, and rewriting it would double the fsyncs of every append.
        Ok(out)
    }

    /// Where [`UNASSIGNED_MARKER`] lives.
    pub fn unassigned_marker(&self) -> PathBuf {
        self.path(UNASSIGNED_MARKER)
    }

    /// Write [`UNASSIGNED_MARKER`] (durably: file and directory synced) unless it exists.
    pub fn note_unassigned(&self) -> Result<(), StoreError> {
        let path = self.unassigned_marker();
        if !path.is_file() {
            write_atomic(
                &path,
                b"records of the profile `unassigned` were stored here\n",
            )
            .map_err(|e| StoreError::io(&path, "write", e))?;
        }
        self.unassigned_seen.store(true, Ordering::Relaxed);
        Ok(())
    }

    /// The flag that says records of `unassigned` may exist, for those that must act on it
    /// at once (the PHI view): shared, set by this inbox, never cleared.
    pub fn unassigned_seen(&self) -> &Arc<std::sync::atomic::AtomicBool> {
        &self.unassigned_seen
    }

    /// Whether records of `unassigned` may exist: the flag, or (with no watch running) the
    /// marker on disk.
    pub fn has_unassigned(&self) -> bool {
        may_have_unassigned(
            &self.unassigned_seen,
            &self.unassigned_watched,
            &self.unassigned_marker(),
        )
    }

    /// [`Inbox::has_unassigned`] for another owner to ask (the PHI view), sharing this
    /// inbox's flag and watch.
    pub fn unassigned_probe(&self) -> Arc<dyn Fn() -> bool + Send + Sync> {
        let (seen, watched) = (
            self.unassigned_seen.clone(),
            self.unassigned_watched.clone(),
        );
        let marker = self.unassigned_marker();
        Arc::new(move || may_have_unassigned(&seen, &watched, &marker))
    }

    /// Watch the inbox directory for the marker appearing (another process storing the first
    /// record of `unassigned`), so no read has to look for it. The returned watcher must be
    /// kept; dropping it ends the watch (and [`Inbox::has_unassigned`] looks again). `None`
    /// when the flag is already set: nothing left to watch for.
    ///
    /// The marker is written (durably) before the record it announces, so its event is
    /// queued by the kernel before that record can be read; and a read of such a record
    /// sets the flag itself before anyone sees it.
    pub fn watch_unassigned(&self) -> notify::Result<Option<notify::RecommendedWatcher>> {
        use notify::Watcher;
        if self.unassigned_seen.load(Ordering::Relaxed) {
            return Ok(None);
        }
        let seen = self.unassigned_seen.clone();
        let mut w = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
            // An error of the watch itself (an overflowed queue) may have hidden the event:
            // fail closed.
            let hit = match res {
                Ok(ev) => ev
                    .paths
                    .iter()
                    .any(|p| p.file_name().is_some_and(|n| n == UNASSIGNED_MARKER)),
                Err(_) => true,
            };
            if hit {
                seen.store(true, Ordering::Relaxed);
            }
        })?;
        w.watch(&self.dir, notify::RecursiveMode::NonRecursive)?;
        // It may have appeared before the watch began.
        if self.unassigned_marker().exists() {
            self.unassigned_seen.store(true, Ordering::Relaxed);
        }
        self.unassigned_watched.store(true, Ordering::Relaxed);
        Ok(Some(w))
    }

    /// Bring the index and the data files into agreement; returns the committed record count.
    fn recover(&self, index: &mut File) -> Result<u64, StoreError> {
        let index_path = self.path(INDEX);
        let len = index
            .metadata()
            .map_err(|e| StoreError::io(&index_path, "stat", e))?
            .len();
        if len % ENTRY_LEN != 0 {
            // A torn index entry: its data line is complete, so roll-forward re-indexes it.
            index
                .set_len(len - len % ENTRY_LEN)
                .map_err(|e| StoreError::io(&index_path, "truncate", e))?;
            tracing::warn!("removed a torn inbox index entry");
        }
        let mut committed = len / ENTRY_LEN;
        let last = self.last_real_entry(index, committed)?;
        let (from_day, from_offset) = match last {
            Some(e) => {
                let p = self.day_path(e.day);
                let flen = match fs::metadata(&p) {
                    Ok(m) => m.len(),
                    Err(err) if err.kind() == ErrorKind::NotFound => 0,
                    Err(err) => return Err(StoreError::io(&p, "stat", err)),
                };
                if flen < e.end() || !self.ends_with_newline(&p, e.end())? {
                    tracing::warn!(
                        "inbox index points past its data; rebuilding the index from the data files"
                    );
                    return self.rebuild_index(index);
                }
                if flen == e.end() && !self.has_later_day_files(e.day)? {
                    return Ok(committed); // the common case: nothing to repair
                }
                (e.day, e.end())
            }
            None => {
                if committed > 0 {
                    // Only holes: nothing to anchor on; a full rebuild sorts it out.
                    return self.rebuild_index(index);
                }
                if self.day_files()?.is_empty() {
                    return Ok(0);
                }
                // Data without an index (first append died, or the index was removed).
                return self.rebuild_index(index);
            }
        };
        committed = self.roll_forward(index, committed, from_day, from_offset)?;
        Ok(committed)
    }

    fn ends_with_newline(&self, path: &Path, end: u64) -> Result<bool, StoreError> {
        if end == 0 {
            return Ok(true);
        }
        let f = File::open(path).map_err(|e| StoreError::io(path, "open", e))?;
        let mut b = [0u8; 1];
        f.read_exact_at(&mut b, end - 1)
            .map_err(|e| StoreError::io(path, "read", e))?;
        Ok(b[0] == b'\n')
    }

    fn has_later_day_files(&self, day: u32) -> Result<bool, StoreError> {
        // Only possible once the calendar day has moved past `day`; skip the readdir otherwise.
        if day_of(crate::domain::now()) <= day {
            return Ok(false);
        }
        Ok(self.day_files()?.iter().any(|&(d, _)| d > day))
    }

    /// Day files present, in day order.
    fn day_files(&self) -> Result<Vec<(u32, PathBuf)>, StoreError> {
        let mut v = Vec::new();
        for entry in fs::read_dir(&self.dir).map_err(|e| StoreError::io(&self.dir, "list", e))? {
            let entry = entry.map_err(|e| StoreError::io(&self.dir, "list", e))?;
            if let Some(day) = entry.file_name().to_str().and_then(parse_day_file_name) {
                v.push((day, entry.path()));
            }
        }
        v.sort();
        Ok(v)
    }

    /// Index complete lines written after the last committed one (their appends did not
    /// return, but they are whole and carry the next seqs); cut everything else.
    fn roll_forward(
        &self,
        index: &mut File,
        mut committed: u64,
        day: u32,
        offset: u64,
    ) -> Result<u64, StoreError> {
        let index_path = self.path(INDEX);
        let mut new_entries = Vec::new();
        for (d, path) in self.day_files()?.into_iter().filter(|(d, _)| *d >= day) {
            let start = if d == day { offset } else { 0 };
            let mut cut = None;
            let mut end = start;
            for line in Lines::open(&path, start).map_err(|e| StoreError::io(&path, "open", e))? {
                let line = line.map_err(|e| StoreError::io(&path, "read", e))?;
                match serde_json::from_slice::<InboxRecord>(&line.bytes) {
                    Ok(r) if r.seq == committed + 1 => {
                        committed += 1;
                        let len = line.bytes.len() as u32 + 1;
                        new_entries.push(IndexEntry {
                            day: d,
                            len,
                            offset: line.offset,
                            id_hash: id_hash(&r.id),
                            crc: line_crc(&line.bytes),
                        });
                        end = line.offset + len as u64;
                    }
                    _ => {
                        cut = Some(line.offset);
                        break;
                    }
                }
            }
            let cut_at = cut.unwrap_or(end);
            let flen = fs::metadata(&path)
                .map_err(|e| StoreError::io(&path, "stat", e))?
                .len();
            if flen > cut_at {
                let f = OpenOptions::new()
                    .write(true)
                    .open(&path)
                    .map_err(|e| StoreError::io(&path, "open", e))?;
                f.set_len(cut_at)
                    .map_err(|e| StoreError::io(&path, "truncate", e))?;
                f.sync_data()
                    .map_err(|e| StoreError::io(&path, "fsync", e))?;
                tracing::warn!(file = %path.display(), removed = flen - cut_at, "removed uncommitted inbox bytes");
            }
            if cut_at == 0 {
                let _ = fs::remove_file(&path);
            }
        }
        if !new_entries.is_empty() {
            tracing::warn!(
                records = new_entries.len(),
                "re-indexed complete inbox records left by an interrupted append"
            );
            let mut b = Vec::new();
            for e in &new_entries {
                b.extend_from_slice(&e.encode());
            }
            append_durable(index, &index_path, &b)?;
        }
        Ok(committed)
    }

    /// Recreate the index from the data files (records carry their seq). Unreadable lines are
    /// reported and left in place; seqs with no readable record become holes.
    fn rebuild_index(&self, index: &mut File) -> Result<u64, StoreError> {
        let mut slots: Vec<IndexEntry> = Vec::new();
        for (day, path) in self.day_files()? {
            let mut f = open_private_append(&path).map_err(|e| StoreError::io(&path, "open", e))?;
            super::jsonl::repair_torn_tail(&mut f, &path)?;
            for line in Lines::open(&path, 0).map_err(|e| StoreError::io(&path, "open", e))? {
                let line = line.map_err(|e| StoreError::io(&path, "read", e))?;
                match serde_json::from_slice::<InboxRecord>(&line.bytes) {
                    Ok(r) if r.seq > 0 => {
                        let i = (r.seq - 1) as usize;
                        if slots.len() <= i {
                            slots.resize(i + 1, IndexEntry::HOLE);
                        }
                        if slots[i].is_hole() {
                            let len = line.bytes.len() as u32 + 1;
                            slots[i] = IndexEntry {
                                day,
                                len,
                                offset: line.offset,
                                id_hash: id_hash(&r.id),
                                crc: line_crc(&line.bytes),
                            };
                        } else {
                            tracing::warn!(file = %path.display(), line = line.number, seq = r.seq, "second record with the same seq ignored");
                        }
                    }
                    _ => {
                        tracing::warn!(file = %path.display(), line = line.number, "unreadable inbox line skipped")
                    }
                }
            }
        }
        // Seqs already handed out must never be handed out again: a consumer whose cursor is
        // past a lost record would skip the new record that reused its seq. The cursors (and
        // state.json's last_seq) say how far seqs went at least; the lost ones stay holes.
        let high_water = self
            .state
            .load()
            .map(|st| {
                st.consumers
                    .values()
                    .copied()
                    .max()
                    .unwrap_or(0)
                    .max(st.last_seq)
            })
            .unwrap_or(0);
        if high_water > slots.len() as u64 {
            tracing::warn!(
                lost = high_water - slots.len() as u64,
                "inbox records after seq {} are lost; their seqs stay unused",
                slots.len()
            );
            slots.resize(high_water as usize, IndexEntry::HOLE);
        }
        let mut b = Vec::with_capacity(slots.len() * ENTRY_LEN as usize);
        for e in &slots {
            b.extend_from_slice(&e.encode());
        }
        let index_path = self.path(INDEX);
        write_atomic(&index_path, &b).map_err(|e| StoreError::io(&index_path, "rewrite", e))?;
        // The index of the old format is superseded (see `INDEX`).
        match fs::remove_file(self.path(LEGACY_INDEX)) {
            Ok(()) => tracing::info!("inbox index migrated to {INDEX} (entries with checksums)"),
            Err(e) if e.kind() == ErrorKind::NotFound => {}
            Err(e) => tracing::warn!("cannot remove the old inbox index {LEGACY_INDEX}: {e}"),
        }
        *index =
            open_private_append(&index_path).map_err(|e| StoreError::io(&index_path, "open", e))?;
        Ok(slots.len() as u64)
    }

    fn catch_up_ids(
        &self,
        cache: &mut WriterCache,
        index: &File,
        committed: u64,
    ) -> Result<(), StoreError> {
        if cache.covered > committed {
            *cache = WriterCache::default();
        }
        let path = self.path(INDEX);
        let mut seq = cache.covered;
        let mut buf = Vec::new();
        // Every entry gathered, then one sort (a rebuild after `shed_caches` reads them all);
        // a read error leaves the map as it was.
        let mut batch =
            super::id_index::Batch::with_capacity(usize::try_from(committed - seq).unwrap_or(0));
        while seq < committed {
            let n = (committed - seq).min(WALK_CHUNK);
            for (s, e) in read_entries(index, &path, seq, n, &mut buf)? {
                if !e.is_hole() {
                    batch.push(e.id_hash, s);
                }
            }
            seq += n;
        }
        cache.ids.extend(batch);
        cache.covered = committed;
        Ok(())
    }

    fn last_real_entry(
        &self,
        index: &File,
        committed: u64,
    ) -> Result<Option<IndexEntry>, StoreError> {
        let mut i = committed;
        while i > 0 {
            let e = read_entry(index, &self.path(INDEX), i - 1)?;
            if !e.is_hole() {
                return Ok(Some(e));
            }
            i -= 1;
        }
        Ok(None)
    }

    /// The seq a record with source id `id` (hash `hash`) was stored under, if any: the id
    /// map's candidates confirmed by the full hash in their index entry, then (against a
    /// 64-bit collision) by the stored record's id when it can be read.
    fn stored_under(
        &self,
        ids: &super::id_index::IdIndex,
        index: &File,
        hash: u64,
        id: &str,
    ) -> Result<Option<u64>, StoreError> {
        let path = self.path(INDEX);
        for s in ids.candidates(hash) {
            let e = read_entry(index, &path, s - 1)?;
            if e.id_hash != hash {
                continue;
            }
            let mut reader = RecordReader::new(self);
            if reader.read(s, &e).is_none_or(|r| r.id == id) {
                return Ok(Some(s));
            }
        }
        Ok(None)
    }

    // ---------------------------------------------------------------- reading

    fn open_index(&self) -> Result<Option<(Arc<File>, u64)>, StoreError> {
        use std::os::unix::fs::MetadataExt;
        let p = self.path(INDEX);
        let mut kept = self.index_file.lock().unwrap_or_else(|e| e.into_inner());
        let named = match fs::metadata(&p) {
            Ok(m) => m,
            Err(e) if e.kind() == ErrorKind::NotFound => {
                *kept = None;
                return Ok(None);
            }
            Err(e) => return Err(StoreError::io(&p, "stat", e)),
        };
        if let Some(k) = kept.as_ref()
            && k.ino == named.ino()
            && k.dev == named.dev()
        {
            // The path's length is the open file's: the same inode.
            return Ok(Some((k.file.clone(), named.len() / ENTRY_LEN)));
        }
        match File::open(&p) {
            Ok(f) => {
                let m = f.metadata().map_err(|e| StoreError::io(&p, "stat", e))?;
                let file = Arc::new(f);
                *kept = Some(OpenIndex {
                    file: file.clone(),
                    ino: m.ino(),
                    dev: m.dev(),
                });
                Ok(Some((file, m.len() / ENTRY_LEN)))
            }
            Err(e) if e.kind() == ErrorKind::NotFound => {
                *kept = None;
                Ok(None)
            }
            Err(e) => Err(StoreError::io(&p, "open", e)),
        }
    }

    /// `open_index` for readers: an index that is missing or shorter than the data files
    /// (deleted, truncated, restored from an old backup) would show an empty or short inbox
    /// with no error. Notice it and rebuild it under the inbox lock, or fail saying why.
    /// A writer between its data and index writes also looks like this, on every append: so
    /// first wait for the writer (shared lock) and look again; only an index still behind
    /// then is damaged and repaired under the exclusive lock.
    fn open_index_checked(&self) -> Result<Option<(Arc<File>, u64)>, StoreError> {
        let opened = self.open_index()?;
        if !self.is_behind(&opened)? {
            return Ok(opened);
        }
        {
            let _wait = FileLock::shared(&self.path(LOCK))?;
            let opened = self.open_index()?;
            if !self.is_behind(&opened)? {
                return Ok(opened); // it only lagged a writer, which has finished now
            }
        }
        let repaired = self.repair_index().map_err(|e| {
            StoreError::Rejected(format!(
                "{} is missing or shorter than the inbox data files, and rebuilding it failed: {e}",
                self.path(INDEX).display()
            ))
        })?;
        if let Some((before, after)) = repaired {
            tracing::warn!(
                indexed_before = before,
                indexed_now = after,
                "the inbox index was missing or short; rebuilt it from the data files"
            );
        }
        self.open_index()
    }

    fn is_behind(&self, opened: &Option<(Arc<File>, u64)>) -> Result<bool, StoreError> {
        match opened {
            None => Ok(!self.day_files()?.is_empty()),
            Some((index, n)) => self.index_is_behind(index, *n),
        }
    }

    /// The data files hold more than the index points to.
    fn index_is_behind(&self, index: &File, n: u64) -> Result<bool, StoreError> {
        let Some(last) = self.last_real_entry(index, n)? else {
            return Ok(!self.day_files()?.is_empty());
        };
        let data = self.day_path(last.day);
        let len = match fs::metadata(&data) {
            Ok(m) => m.len(),
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(true),
            Err(e) => return Err(StoreError::io(&data, "stat", e)),
        };
        Ok(len > last.end() || self.has_later_day_files(last.day)?)
    }

    /// Run the writers' recovery under the lock. Returns the entry counts before and after
    /// when recovery changed the index, `None` when it found nothing to repair (a writer may
    /// have finished in between).
    fn repair_index(&self) -> Result<Option<(u64, u64)>, StoreError> {
        let _lock = FileLock::exclusive(&self.path(LOCK))?;
        let index_path = self.path(INDEX);
        let mut index =
            open_private_append(&index_path).map_err(|e| StoreError::io(&index_path, "open", e))?;
        let len_before = index
            .metadata()
            .map_err(|e| StoreError::io(&index_path, "stat", e))?
            .len();
        let after = self.recover(&mut index)?;
        let len_after = index
            .metadata()
            .map_err(|e| StoreError::io(&index_path, "stat", e))?
            .len();
        Ok((len_after != len_before || after != len_before / ENTRY_LEN)
            .then_some((len_before / ENTRY_LEN, after)))
    }

    /// Whether a writer left work unfinished (a torn line, an unindexed record or a torn index
    /// entry) that the next append will repair. Read-only; for diagnostics and `doctor`.
    pub fn needs_repair(&self) -> Result<bool, StoreError> {
        let Some((index, n)) = self.open_index()? else {
            return Ok(!self.day_files()?.is_empty());
        };
        let p = self.path(INDEX);
        if index
            .metadata()
            .map_err(|e| StoreError::io(&p, "stat", e))?
            .len()
            % ENTRY_LEN
            != 0
        {
            return Ok(true);
        }
        let Some(last) = self.last_real_entry(&index, n)? else {
            return Ok(!self.day_files()?.is_empty());
        };
        let data = self.day_path(last.day);
        let len = fs::metadata(&data)
            .map_err(|e| StoreError::io(&data, "stat", e))?
            .len();
        Ok(len != last.end() || self.day_files()?.iter().any(|&(d, _)| d > last.day))
    }

    /// The highest committed seq (0 for an empty inbox).
    pub fn last_seq(&self) -> Result<u64, StoreError> {
        Ok(self.open_index_checked()?.map(|(_, n)| n).unwrap_or(0))
    }

    /// `last_seq` for callers already holding the inbox lock (no repair: that takes the lock).
    fn last_seq_locked(&self) -> Result<u64, StoreError> {
        Ok(self.open_index()?.map(|(_, n)| n).unwrap_or(0))
    }

    /// Read every indexed record back and check it (checksum, complete line, parses, carries
    /// its seq). Readers skip such records one at a time; this names them all.
    pub fn verify(&self) -> Result<InboxVerifyReport, StoreError> {
        self.verify_with(&mut |_| {})
    }

    /// [`Inbox::verify`], telling `progress` how many records it has read so far (every 4,096).
    pub fn verify_with(
        &self,
        progress: &mut dyn FnMut(u64),
    ) -> Result<InboxVerifyReport, StoreError> {
        let mut report = InboxVerifyReport::default();
        let Some((index, n)) = self.open_index_checked()? else {
            return Ok(report);
        };
        report.records = n;
        report.macs_checked = self.key.is_some();
        let mut reader = RecordReader::new(self);
        let path = self.path(INDEX);
        let mut buf = Vec::new();
        let mut seq = 0u64;
        while seq < n {
            let k = (n - seq).min(WALK_CHUNK);
            for (s, e) in read_entries(&index, &path, seq, k, &mut buf)? {
                if e.is_hole() {
                    report.holes.push(s);
                } else if let Err(reason) = reader
                    .try_read(s, &e)
                    .and_then(|r| self.judge_mac(&r, &reader.buf, &mut report))
                {
                    report.damaged.push(DamagedRecord { seq: s, reason });
                }
            }
            seq += k;
            progress(seq);
        }
        Ok(report)
    }

    /// Count an intact line (`line`, newline included) as keyed or not and check its mac when
    /// the key is here; `Err` says why the record is forged.
    fn judge_mac(
        &self,
        record: &InboxRecord,
        line: &[u8],
        report: &mut InboxVerifyReport,
    ) -> Result<(), String> {
        let seq = record.seq;
        let line = line.strip_suffix(b"\n").unwrap_or(line);
        match split_mac_field(line) {
            None if report.keyed_from.is_some() => Err(
                "no mac, but it follows keyed records: written without the integrity key (forged)"
                    .into(),
            ),
            None if self
                .key
                .as_ref()
                .is_some_and(|k| k.unkeyed_is_forged(record.received_at)) =>
            {
                Err("no mac, but stored after the integrity key was created: written without the key (forged, or its mac was removed)".into())
            }
            None => {
                report.unkeyed_legacy += 1;
                Ok(())
            }
            Some((body, mac)) => {
                if let Some(key) = &self.key
                    && !key.check(Label::InboxRecord, &body, mac)
                {
                    return Err(format!(
                        "mac does not match: record {seq} was forged or altered by someone without the integrity key"
                    ));
                }
                report.keyed += 1;
                report.keyed_from.get_or_insert(seq);
                Ok(())
            }
        }
    }

    /// The operator's profile assignments (written by the engine, applied by every read here).
    pub fn assignments(&self) -> &super::assignments::Assignments {
        &self.assignments
    }

    /// Up to `limit` records with seq > `after`, oldest first.
    pub fn read_after(
        &self,
        after: u64,
        limit: usize,
        filter: &Filter,
    ) -> Result<Batch, StoreError> {
        if let Some(query) = text_query(filter)? {
            return self.search_after(&query, filter, after, limit);
        }
        let Some((index, n)) = self.open_index_checked()? else {
            return Ok(Batch::default());
        };
        let mut batch = Batch {
            last_seq: n,
            ..Batch::default()
        };
        let mut reader = RecordReader::caching(self, n).assigned(self.assignments.current()?);
        let path = self.path(INDEX);
        let mut seq = after;
        // A page is a few dozen records: read the index ahead by less than a whole walk does.
        let chunk = 256u64;
        let mut buf = Vec::new();
        while seq < n && batch.records.len() < limit {
            let k = (n - seq).min(chunk);
            for (s, e) in read_entries(&index, &path, seq, k, &mut buf)? {
                if e.is_hole() {
                    continue;
                }
                match reader.read(s, &e) {
                    Some(r) if filter.matches(&r) => {
                        batch.records.push(r);
                        if batch.records.len() >= limit {
                            break;
                        }
                    }
                    Some(_) => {}
                    None => batch.skipped_corrupt += 1,
                }
            }
            seq += k;
        }
        Ok(batch)
    }

    /// Up to `limit` records with seq < `before` (or the newest, for `None`), newest first.
    /// With text in `filter`, the records with those words ([`Inbox::search`]).
    pub fn read_before(
        &self,
        before: Option<u64>,
        limit: usize,
        filter: &Filter,
    ) -> Result<Batch, StoreError> {
        if let Some(query) = text_query(filter)? {
            return self.search(&query, filter, before, limit, SearchOrder::Newest);
        }
        let Some((index, n)) = self.open_index_checked()? else {
            return Ok(Batch::default());
        };
        let mut batch = Batch {
            last_seq: n,
            ..Batch::default()
        };
        let mut reader = RecordReader::caching(self, n).assigned(self.assignments.current()?);
        let mut seq = before.map(|b| b.saturating_sub(1)).unwrap_or(n).min(n);
        while seq > 0 && batch.records.len() < limit {
            let e = read_entry(&index, &self.path(INDEX), seq - 1)?;
            if !e.is_hole() {
                match reader.read(seq, &e) {
                    Some(r) if filter.matches(&r) => batch.records.push(r),
                    Some(_) => {}
                    None => batch.skipped_corrupt += 1,
                }
            }
            seq -= 1;
        }
        Ok(batch)
    }

    /// The record with this seq, if it exists and reads back intact.
    pub fn get(&self, seq: u64) -> Result<Option<InboxRecord>, StoreError> {
        let Some((index, n)) = self.open_index_checked()? else {
            return Ok(None);
        };
        if seq == 0 || seq > n {
            return Ok(None);
        }
        let e = read_entry(&index, &self.path(INDEX), seq - 1)?;
        if e.is_hole() {
            return Ok(None);
        }
        Ok(RecordReader::caching(self, n)
            .assigned(self.assignments.current()?)
            .read(seq, &e)
            .map(Arc::unwrap_or_clone))
    }

    /// The record with this source id (scans the id hashes in the index, not the data).
    pub fn find_by_id(&self, id: &str) -> Result<Option<InboxRecord>, StoreError> {
        let Some((index, n)) = self.open_index_checked()? else {
            return Ok(None);
        };
        let h = id_hash(id);
        let mut reader = RecordReader::new(self).assigned(self.assignments.current()?);
        let path = self.path(INDEX);
        let mut seq = 0u64;
        let mut buf = Vec::new();
        while seq < n {
            let k = (n - seq).min(WALK_CHUNK);
            for (s, e) in read_entries(&index, &path, seq, k, &mut buf)? {
                if e.id_hash == h
                    && !e.is_hole()
                    && let Some(r) = reader.read(s, &e)
                    && r.id == id
                {
                    return Ok(Some(Arc::unwrap_or_clone(r)));
                }
            }
            seq += k;
        }
        Ok(None)
    }

    // ---------------------------------------------------------------- cursors and state

    /// Current state: cursors from state.json (or its backup), `last_seq` from the index.
    pub fn state(&self) -> Result<InboxState, StoreError> {
        let last = self.last_seq()?;
        let mut st = self.load_state()?;
        st.last_seq = last;
        st.unread = last.saturating_sub(st.consumers.get(OPERATOR_CONSUMER).copied().unwrap_or(0));
        Ok(st)
    }

    /// The consumer's cursor (last consumed seq), `None` if it has never consumed.
    pub fn cursor(&self, consumer: &str) -> Result<Option<u64>, StoreError> {
        Ok(self.load_state()?.consumers.get(consumer).copied())
    }

    /// Move `consumer`'s cursor forward to `seq` (never backwards, never past the last seq).
    /// Only that consumer's entry changes.
    pub fn advance_cursor(&self, consumer: &str, seq: u64) -> Result<u64, StoreError> {
        validate_consumer(consumer)?;
        let _lock = FileLock::exclusive(&self.path(LOCK))?;
        let last = self.last_seq_locked()?;
        let mut result = 0;
        self.update_state(last, |st| {
            let c = st.consumers.entry(consumer.to_string()).or_insert(0);
            *c = (*c).max(seq.min(last));
            result = *c;
        })?;
        Ok(result)
    }

    /// Set `consumer`'s cursor to exactly `seq` (for an explicit rewind by the operator).
    pub fn set_cursor(&self, consumer: &str, seq: u64) -> Result<(), StoreError> {
        validate_consumer(consumer)?;
        let _lock = FileLock::exclusive(&self.path(LOCK))?;
        let last = self.last_seq_locked()?;
        self.state.forget_pending(consumer);
        self.update_state(last, |st| {
            st.consumers.insert(consumer.to_string(), seq.min(last));
        })
    }

    /// Read what `consumer` has not consumed yet; with `mark`, move its cursor past what was
    /// returned. With a filter, the cursor moves to the last *returned* record, so records of
    /// other channels/profiles before it count as seen by this consumer (a cursor is one
    /// watermark). Returns the batch and the records still after the cursor.
    pub fn pull(
        &self,
        consumer: &str,
        limit: usize,
        filter: &Filter,
        mark: bool,
    ) -> Result<(Batch, u64), StoreError> {
        let (batch, cursor) = self.pull_from(consumer, None, limit, filter, mark)?;
        let remaining = batch.last_seq.saturating_sub(cursor);
        Ok((batch, remaining))
    }

    /// `pull` that may start elsewhere than the consumer's cursor (`since`, a re-read); with
    /// `mark` the cursor still only moves forward. Returns the batch and the cursor after it.
    pub fn pull_from(
        &self,
        consumer: &str,
        since: Option<u64>,
        limit: usize,
        filter: &Filter,
        mark: bool,
    ) -> Result<(Batch, u64), StoreError> {
        validate_consumer(consumer)?;
        let mut cursor = self.cursor(consumer)?.unwrap_or(0);
        let batch = self.read_after(since.unwrap_or(cursor), limit, filter)?;
        if mark && let Some(last) = batch.records.last() {
            // A returned record is in the index the read just looked at: no need to look again.
            cursor = self
                .state
                .advance_lazy(consumer, last.seq.min(batch.last_seq))?;
        }
        Ok((batch, cursor))
    }

    fn load_state(&self) -> Result<InboxState, StoreError> {
        self.state.load()
    }

    /// Read-modify-write of state.json and its backup; the caller holds the inbox lock.
    fn update_state(&self, last: u64, f: impl FnOnce(&mut InboxState)) -> Result<(), StoreError> {
        self.state.update(last, f)
    }

    /// Write lazily moved cursors now.
    pub fn save_cursors(&self) -> Result<(), StoreError> {
        self.state.save_pending()
    }
}

/// Committed records per the index length (for code that has only the directory).
pub(super) fn index_len(dir: &Path) -> Result<u64, StoreError> {
    let p = dir.join(INDEX);
    match fs::metadata(&p) {
        Ok(m) => Ok(m.len() / ENTRY_LEN),
        Err(e) if e.kind() == ErrorKind::NotFound => Ok(0),
        Err(e) => Err(StoreError::io(&p, "stat", e)),
    }
}

fn validate_consumer(name: &str) -> Result<(), StoreError> {
    if name.is_empty() || name.len() > 128 || name.chars().any(|c| c.is_control()) {
        return Err(StoreError::Rejected(format!(
            "invalid consumer name {name:?}: use 1-128 printable characters, e.g. `mcp:claude-code`"
        )));
    }
    Ok(())
}

fn read_entry(index: &File, path: &Path, i: u64) -> Result<IndexEntry, StoreError> {
    let mut b = [0u8; ENTRY_LEN as usize];
    index
        .read_exact_at(&mut b, i * ENTRY_LEN)
        .map_err(|e| StoreError::io(path, "read", e))?;
    Ok(IndexEntry::decode(&b))
}

/// Index entries of seqs `from+1 ..= from+count`, as (seq, entry), read with one `pread` into
/// `buf` (walks of the whole index read it a chunk at a time).
fn read_entries<'b>(
    index: &File,
    path: &Path,
    from: u64,
    count: u64,
    buf: &'b mut Vec<u8>,
) -> Result<impl Iterator<Item = (u64, IndexEntry)> + 'b, StoreError> {
    buf.resize((count * ENTRY_LEN) as usize, 0);
    index
        .read_exact_at(buf, from * ENTRY_LEN)
        .map_err(|e| StoreError::io(path, "read", e))?;
    let buf: &'b Vec<u8> = buf;
    Ok(buf
        .chunks_exact(ENTRY_LEN as usize)
        .enumerate()
        .map(move |(i, c)| (from + i as u64 + 1, IndexEntry::decode(c))))
}

/// The words `filter` asks for, if any: reads with them go through the full-text index.
fn text_query(filter: &Filter) -> Result<Option<SearchQuery>, StoreError> {
    filter
        .text
        .as_deref()
        .map(|t| SearchQuery::parse(t).map_err(|e| StoreError::Rejected(e.to_string())))
        .transpose()
}

/// Seqs walked per `pread` of the index by a walk of the whole index.
const WALK_CHUNK: u64 = 4096;

/// The flag, else (no watch running) the marker on disk, raising the flag when it is there.
fn may_have_unassigned(
    seen: &std::sync::atomic::AtomicBool,
    watched: &std::sync::atomic::AtomicBool,
    marker: &Path,
) -> bool {
    if seen.load(Ordering::Relaxed) {
        return true;
    }
    if watched.load(Ordering::Relaxed) {
        return false;
    }
    let there = marker.exists();
    if there {
        seen.store(true, Ordering::Relaxed);
    }
    there
}
