//! Finding audit records without reading the whole trail: one record by its seq (a bisection
//! over the month files, whose seqs only grow), and the records about drafts (one scan, used
//! only for drafts logs written before their events were bound to the trail).

use std::io;
use std::path::Path;

use serde::Deserialize;

use super::StoreError;
use super::audit::{month_files, record_hash};
use super::jsonl::Lines;
use crate::domain::AuditRecord;

/// Below this many bytes between the bounds, a linear read is cheaper than more probes.
const LINEAR_BELOW: u64 = 16 * 1024;

/// An audit record as found on file, and whether its stored hash is the hash of its content.
#[derive(Debug, Clone)]
pub struct Found {
    pub record: AuditRecord,
    pub intact: bool,
    /// The record's `mac` (keyed integrity), when it carries one.
    pub mac: Option<String>,
}

#[derive(Deserialize)]
struct SeqOnly {
    seq: u64,
}

/// The record with `seq`, if the trail in `dir` holds one.
pub fn record_at(dir: &Path, seq: u64) -> Result<Option<Found>, StoreError> {
    let files = match month_files(dir) {
        Ok(f) => f,
        Err(StoreError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => {
            return Ok(None);
        }
        Err(e) => return Err(e),
    };
    // The newest file whose first record is not after `seq`.
    for path in files.iter().rev() {
        match first_seq(path)? {
            Some(first) if first <= seq => return find_in(path, seq),
            _ => continue,
        }
    }
    // Older than every live month: it may be in an archived one (retention).
    Ok(super::audit_archive::record_line(dir, seq)?
        .and_then(|l| serde_json::from_slice::<serde_json::Value>(&l).ok())
        .and_then(found))
}

fn first_seq(path: &Path) -> Result<Option<u64>, StoreError> {
    seq_of_line_at(path, 0).map(|o| o.map(|(s, _)| s))
}

/// The seq of the first complete line starting at `offset` (a line start), and its length.
fn seq_of_line_at(path: &Path, offset: u64) -> Result<Option<(u64, u64)>, StoreError> {
    let mut lines = Lines::open(path, offset).map_err(|e| StoreError::io(path, "open", e))?;
    match lines.next() {
        None => Ok(None),
        Some(line) => {
            let line = line.map_err(|e| StoreError::io(path, "read", e))?;
            // An unreadable line has no seq to steer by: callers fall back to reading linearly.
            Ok(serde_json::from_slice::<SeqOnly>(&line.bytes)
                .ok()
                .map(|s| (s.seq, line.bytes.len() as u64 + 1)))
        }
    }
}

/// The start of the first line after `offset`, if any line starts before `end`.
fn next_line_start(path: &Path, offset: u64, end: u64) -> Result<Option<u64>, StoreError> {
    use std::os::unix::fs::FileExt;
    let file = std::fs::File::open(path).map_err(|e| StoreError::io(path, "open", e))?;
    let mut buf = vec![0u8; 4096];
    let mut at = offset;
    while at < end {
        let n = file
            .read_at(&mut buf, at)
            .map_err(|e| StoreError::io(path, "read", e))?;
        if n == 0 {
            return Ok(None);
        }
        if let Some(i) = buf[..n].iter().position(|b| *b == b'\n') {
            let start = at + i as u64 + 1;
            return Ok((start < end).then_some(start));
        }
        at += n as u64;
    }
    Ok(None)
}

fn find_in(path: &Path, seq: u64) -> Result<Option<Found>, StoreError> {
    let len = std::fs::metadata(path)
        .map_err(|e| StoreError::io(path, "stat", e))?
        .len();
    // `lo` is always a line start whose seq is not after `seq`.
    let (mut lo, mut hi) = (0u64, len);
    while hi - lo > LINEAR_BELOW {
        let mid = lo + (hi - lo) / 2;
        let Some(start) = next_line_start(path, mid, hi)? else {
            hi = mid;
            continue;
        };
        match seq_of_line_at(path, start)? {
            Some((s, _)) if s <= seq => lo = start,
            Some(_) => hi = mid,
            None => break, // an unreadable line: read linearly from `lo`
        }
    }
    for line in Lines::open(path, lo).map_err(|e| StoreError::io(path, "open", e))? {
        let line = line.map_err(|e| StoreError::io(path, "read", e))?;
        let Ok(v) = serde_json::from_slice::<serde_json::Value>(&line.bytes) else {
            continue;
        };
        match v.get("seq").and_then(|s| s.as_u64()) {
            Some(s) if s == seq => return Ok(found(v)),
            Some(s) if s > seq => return Ok(None),
            _ => {}
        }
    }
    Ok(None)
}

fn found(v: serde_json::Value) -> Option<Found> {
    let intact = record_hash(&v).is_some_and(|h| Some(h.as_str()) == v["hash"].as_str());
    let mac = v["mac"].as_str().map(str::to_string);
    serde_json::from_value::<AuditRecord>(v)
        .ok()
        .map(|record| Found {
            record,
            intact,
            mac,
        })
}

/// Every intact record about a draft (`draft.*` events) with a seq below `below`, in chain
/// order. Reads the whole trail: used only to accept events of a drafts log written before
/// events carried their audit record.
pub(crate) fn draft_records(dir: &Path, below: u64) -> Result<Vec<AuditRecord>, StoreError> {
    let mut out = Vec::new();
    let files = match month_files(dir) {
        Ok(f) => f,
        Err(StoreError::Io { source, .. }) if source.kind() == io::ErrorKind::NotFound => {
            return Ok(out);
        }
        Err(e) => return Err(e),
    };
    for path in &files {
        for line in Lines::open(path, 0).map_err(|e| StoreError::io(path, "open", e))? {
            let line = line.map_err(|e| StoreError::io(path, "read", e))?;
            // Cheap filter before parsing: reads dominate the trail.
            if !contains(&line.bytes, b"\"event\":\"draft.") {
                continue;
            }
            let Ok(v) = serde_json::from_slice::<serde_json::Value>(&line.bytes) else {
                continue;
            };
            if v.get("seq")
                .and_then(|s| s.as_u64())
                .is_none_or(|s| s >= below)
            {
                continue;
            }
            if let Some(f) = found(v)
                && f.intact
            {
                out.push(f.record);
            }
        }
    }
    Ok(out)
}

/// The seq of the first record carrying a mac (keying began there), reading the trail from
/// its start until one is found; `None` for a trail without one. An unreadable trail counts
/// as keyed from the start (`Some(0)`): what it holds vouches for nothing unkeyed.
pub(crate) fn first_keyed_seq(dir: &Path) -> Option<u64> {
    let Ok(files) = month_files(dir) else {
        return Some(0);
    };
    for path in files {
        let Ok(lines) = Lines::open(&path, 0) else {
            return Some(0);
        };
        for line in lines {
            let Ok(line) = line else { return Some(0) };
            if contains(&line.bytes, b"\"mac\":\"") {
                return serde_json::from_slice::<SeqOnly>(&line.bytes)
                    .map(|s| s.seq)
                    .ok()
                    .or(Some(0));
            }
        }
    }
    None
}

fn contains(hay: &[u8], needle: &[u8]) -> bool {
    hay.windows(needle.len()).any(|w| w == needle)
}
