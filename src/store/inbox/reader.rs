//! Reading records back by their index entries, and the cache of the newest parsed records.

use std::collections::BTreeMap;
use std::fs::File;
use std::os::unix::fs::FileExt;
use std::sync::Arc;
use std::sync::atomic::Ordering;

use super::{Inbox, IndexEntry, day_file_name};
use crate::domain::InboxRecord;

/// How many of the newest records the parsed-record cache holds at most.
pub(super) const HOT_RECORDS: u64 = 2048;

/// And how many bytes of their lines: a cache sized by count alone held 2,048 records of
/// whatever size (about 5 MB of short mail, ten times that of long threads) after an import.
/// A parsed record takes about twice its line; 1 MiB of lines keeps a few pages of pulls.
const HOT_LINE_BYTES: u64 = 1 << 20;

/// The parsed-record cache: the newest records read, bounded by count and by line bytes.
#[derive(Default)]
pub(super) struct HotRecords {
    records: BTreeMap<u64, (IndexEntry, Arc<InboxRecord>)>,
    line_bytes: u64,
}

impl HotRecords {
    pub(super) fn get(&self, seq: u64, e: &IndexEntry) -> Option<Arc<InboxRecord>> {
        match self.records.get(&seq) {
            Some((entry, r)) if entry == e => Some(r.clone()),
            _ => None,
        }
    }

    /// Keep `r`, then drop the oldest until both bounds hold. A record larger than the whole
    /// budget is not kept (nor does it push the others out).
    pub(super) fn insert(&mut self, seq: u64, e: IndexEntry, r: Arc<InboxRecord>) {
        if u64::from(e.len) > HOT_LINE_BYTES {
            return;
        }
        if let Some((old, _)) = self.records.insert(seq, (e, r)) {
            self.line_bytes -= u64::from(old.len);
        }
        self.line_bytes += u64::from(e.len);
        while self.records.len() as u64 > HOT_RECORDS || self.line_bytes > HOT_LINE_BYTES {
            let Some((_, (gone, _))) = self.records.pop_first() else {
                break;
            };
            self.line_bytes -= u64::from(gone.len);
        }
    }
}

/// Reads indexed records, keeping the current day file open across consecutive records.
pub(super) struct RecordReader<'a> {
    inbox: &'a Inbox,
    open: Option<(u32, File)>,
    pub(super) buf: Vec<u8>,
    /// Records from this seq on are newest enough to keep in the cache.
    hot_from: u64,
    /// Applied to what `read` returns (after the cache: it holds the lines as written).
    assigned: Option<std::sync::Arc<crate::store::assignments::AssignmentMap>>,
}

impl<'a> RecordReader<'a> {
    pub(super) fn new(inbox: &'a Inbox) -> Self {
        RecordReader {
            inbox,
            open: None,
            buf: Vec::new(),
            hot_from: u64::MAX,
            assigned: None,
        }
    }

    /// A reader that caches what it parses among the newest records of an inbox of `n`.
    pub(super) fn caching(inbox: &'a Inbox, n: u64) -> Self {
        RecordReader {
            hot_from: n.saturating_sub(HOT_RECORDS) + 1,
            ..RecordReader::new(inbox)
        }
    }

    /// Present records with the operator's assignments (applied even when there are none: a
    /// stored `profile_assigned` is dropped then).
    pub(super) fn assigned(
        mut self,
        map: std::sync::Arc<crate::store::assignments::AssignmentMap>,
    ) -> Self {
        self.assigned = Some(map);
        self
    }

    /// The record at `e` as presented (assignments applied), or `None`. Shared with the cache
    /// unless an assignment changes it.
    pub(super) fn read(&mut self, seq: u64, e: &IndexEntry) -> Option<Arc<InboxRecord>> {
        let mut r = self.read_line(seq, e)?;
        if let Some(map) = &self.assigned
            && crate::store::assignments::changes(map, &r)
        {
            crate::store::assignments::apply(map, Arc::make_mut(&mut r));
        }
        Some(r)
    }

    /// The record at `e`, or `None` (with a warning) if it does not read back as record `seq`.
    pub(super) fn read_line(&mut self, seq: u64, e: &IndexEntry) -> Option<Arc<InboxRecord>> {
        {
            let hot = self.inbox.hot.lock().unwrap_or_else(|p| p.into_inner());
            if let Some(r) = hot.get(seq, e) {
                return Some(r);
            }
        }
        match self.try_read(seq, e) {
            Ok(r) => {
                if r.profile == crate::domain::UNASSIGNED {
                    // Before anyone sees it: the PHI view treats `unassigned` as live now.
                    self.inbox.unassigned_seen.store(true, Ordering::Relaxed);
                }
                let r = Arc::new(r);
                if seq >= self.hot_from {
                    let mut hot = self.inbox.hot.lock().unwrap_or_else(|p| p.into_inner());
                    hot.insert(seq, *e, r.clone());
                }
                Some(r)
            }
            Err(msg) => {
                tracing::warn!(seq, "skipping unreadable inbox record: {msg}");
                None
            }
        }
    }

    pub(super) fn try_read(&mut self, seq: u64, e: &IndexEntry) -> Result<InboxRecord, String> {
        if self.open.as_ref().is_none_or(|(d, _)| *d != e.day) {
            let p = self.inbox.day_path(e.day);
            let f = File::open(&p).map_err(|err| format!("{}: {err}", p.display()))?;
            self.open = Some((e.day, f));
        }
        let Some((_, f)) = &self.open else {
            unreachable!("opened above")
        };
        self.buf.resize(e.len as usize, 0);
        f.read_exact_at(&mut self.buf, e.offset)
            .map_err(|err| err.to_string())?;
        if self.buf.last() != Some(&b'\n') {
            return Err("record is not a complete line".into());
        }
        if crc32fast::hash(&self.buf) != e.crc {
            return Err(format!(
                "checksum mismatch: the bytes of record {seq} in {} changed after it was stored",
                day_file_name(e.day)
            ));
        }
        let r: InboxRecord = serde_json::from_slice(&self.buf[..self.buf.len() - 1])
            .map_err(|err| err.to_string())?;
        if r.seq != seq {
            return Err(format!("index says seq {seq}, record says {}", r.seq));
        }
        Ok(r)
    }
}

#[cfg(test)]
mod hot_tests {
    use super::*;
    use crate::domain::{Channel, InboxRecord, Party};

    fn entry(len: u32) -> IndexEntry {
        IndexEntry {
            day: 1,
            len,
            offset: 0,
            id_hash: 0,
            crc: 0,
        }
    }

    fn record(seq: u64) -> Arc<InboxRecord> {
        let now = time::OffsetDateTime::UNIX_EPOCH;
        Arc::new(InboxRecord {
            seq,
            id: format!("m{seq}"),
            received_at: now,
            profile: "work".into(),
            channel: Channel::Email,
            thread_id: None,
            from: Party::new("A", "a@example.com"),
            to: Vec::new(),
            subject: None,
            ts: now,
            text: String::new(),
            preview: String::new(),
            meta: Default::default(),
            untrusted: true,
            attachments: Vec::new(),
        })
    }

    #[test]
    fn the_parsed_record_cache_is_bounded_by_line_bytes_as_well_as_by_count() {
        let mut hot = HotRecords::default();
        // Long records: the byte budget binds long before the count does.
        let big = (HOT_LINE_BYTES / 10) as u32;
        for seq in 1..=50 {
            hot.insert(seq, entry(big), record(seq));
        }
        assert!(hot.line_bytes <= HOT_LINE_BYTES);
        assert_eq!(hot.records.len(), 10, "the ten newest fit");
        assert!(hot.get(50, &entry(big)).is_some() && hot.get(40, &entry(big)).is_none());
        // Short records: the count binds.
        let mut hot = HotRecords::default();
        for seq in 1..=(HOT_RECORDS + 100) {
            hot.insert(seq, entry(100), record(seq));
        }
        assert_eq!(hot.records.len() as u64, HOT_RECORDS);
        assert_eq!(hot.line_bytes, HOT_RECORDS * 100);
        // A record larger than the whole budget is not kept, and pushes nothing out.
        hot.insert(u64::MAX, entry(HOT_LINE_BYTES as u32 + 1), record(1));
        assert_eq!(hot.records.len() as u64, HOT_RECORDS);
        assert_eq!(hot.line_bytes, HOT_RECORDS * 100);
        // A seq read again (its entry changed by a rebuilt index) replaces, not double counts.
        let mut hot = HotRecords::default();
        hot.insert(7, entry(10), record(7));
        hot.insert(7, entry(30), record(7));
        assert_eq!(hot.line_bytes, 30);
        assert!(hot.get(7, &entry(10)).is_none());
    }
}
