//! Retention of the audit trail: old month files are compressed into `audit/archive/` instead
//! of being deleted, and each archive is vouched for by the live chain.
//!
//! Archiving a month is two steps around one audit record, so that a month leaves the live
//! trail only once the trail says where it went:
//!
//! 1. [`prepare`]: the month file is read, its records checked to link among themselves, and
//!    written gzip-compressed to `archive/<YYYY-MM>.jsonl.gz` (temporary name, fsync,
//!    rename, directory fsync). The result names the records it holds, the last one's hash
//!    (where the live chain goes on) and the sha256 of the compressed file.
//! 2. The engine appends an `audit.archive` record whose `target` is [`Archived::note`]
//!    (target, not reason: reasons are PHI-scrubbed free text, and a hash must stay exact).
//! 3. [`commit`]: the month file is removed.
//!
//! A crash between 1 and 2 leaves an archive no record names, with the month still live:
//! [`prepare`] simply writes it again next time. Between 2 and 3 both exist: `verify` accepts
//! that (the live records are checked, the archive too) and the next run removes the month.
//!
//! `verify` ([`check`]) reads every note in the live trail, recomputes each archive's sha256,
//! decompresses it and re-checks its chain and its last hash, and lets the live chain start
//! where the archives end.

use std::collections::BTreeMap;
use std::fs;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use serde::Serialize;
use sha2::{Digest, Sha256};

use super::StoreError;
use super::audit::{GENESIS, month_files, record_hash};
use super::jsonl::Lines;

/// The folder under the audit dir that holds the archives.
pub(crate) const ARCHIVE_DIR: &str = "archive";
/// The audit event that records an archive.
pub const EVENT: &str = "audit.archive";

/// One archived month as the live chain records it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Archived {
    /// `YYYY-MM`.
    pub month: String,
    pub first: u64,
    pub last: u64,
    /// The hash of the archive's last record: the live chain's next `prev`.
    pub last_hash: String,
    /// sha256 of the compressed file's bytes.
    pub sha256: String,
}

impl Archived {
    /// The archive's file, relative to the audit dir.
    pub fn file(&self) -> String {
        format!("{ARCHIVE_DIR}/{}.jsonl.gz", self.month)
    }

    /// The `target` of its `audit.archive` record:
    /// `archive/2026-01.jsonl.gz records=1-120 last=<hash> sha256=<hash>`.
    pub fn note(&self) -> String {
        format!(
            "{} records={}-{} last={} sha256={}",
            self.file(),
            self.first,
            self.last,
            self.last_hash,
            self.sha256
        )
    }

    /// The archive a note names (`None` for anything else).
    pub fn parse(note: &str) -> Option<Archived> {
        let mut parts = note.split(' ');
        let file = parts.next()?;
        let month = file
            .strip_prefix(&format!("{ARCHIVE_DIR}/"))?
            .strip_suffix(".jsonl.gz")?
            .to_string();
        let (first, last) = parts.next()?.strip_prefix("records=")?.split_once('-')?;
        let last_hash = parts.next()?.strip_prefix("last=")?.to_string();
        let sha256 = parts.next()?.strip_prefix("sha256=")?.to_string();
        let hex64 = |s: &str| s.len() == 64 && s.bytes().all(|b| b.is_ascii_hexdigit());
        let ok = parts.next().is_none() && month.len() == 7 && hex64(&last_hash) && hex64(&sha256);
        ok.then_some(Archived {
            month,
            first: first.parse().ok()?,
            last: last.parse().ok()?,
            last_hash,
            sha256,
        })
    }
}

/// The month files older than `keep_from` (`YYYY-MM`), never the newest file (it holds the
/// chain's head).
pub fn due(dir: &Path, keep_from: &str) -> Result<Vec<PathBuf>, StoreError> {
    let mut files = month_files(dir)?;
    files.pop();
    Ok(files
        .into_iter()
        .filter(|p| month_of(p).is_some_and(|m| m.as_str() < keep_from))
        .collect())
}

fn month_of(path: &Path) -> Option<String> {
    Some(
        path.file_name()?
            .to_str()?
            .strip_suffix(".jsonl")?
            .to_string(),
    )
}

/// Step 1: compress `month_file` into the archive folder, after checking that its records
/// link among themselves. The archive is durable when this returns.
pub(crate) fn prepare(dir: &Path, month_file: &Path) -> Result<Archived, StoreError> {
    let month = month_of(month_file).ok_or_else(|| {
        StoreError::Rejected(format!("{} is not a month file", month_file.display()))
    })?;
    let bytes = fs::read(month_file).map_err(|e| StoreError::io(month_file, "read", e))?;
    let (first, last, last_hash) =
        check_lines(bytes.split(|b| *b == b'\n').filter(|l| !l.is_empty()), None).map_err(
            |why| {
                StoreError::Rejected(format!(
                    "{} is not archived: {why}; run `opsdesk audit verify`",
                    month_file.display()
                ))
            },
        )?;
    if !bytes.ends_with(b"\n") {
        return Err(StoreError::Rejected(format!(
            "{} ends with an incomplete line; it is not archived",
            month_file.display()
        )));
    }
    let adir = dir.join(ARCHIVE_DIR);
    crate::paths::ensure_private_dir(&adir).map_err(|e| StoreError::Rejected(format!("{e:#}")))?;
    let mut gz = GzEncoder::new(Vec::new(), Compression::best());
    gz.write_all(&bytes)
        .map_err(|e| StoreError::io(month_file, "compress", e))?;
    let compressed = gz
        .finish()
        .map_err(|e| StoreError::io(month_file, "compress", e))?;
    let a = Archived {
        month,
        first,
        last,
        last_hash,
        sha256: hex::encode(Sha256::digest(&compressed)),
    };
    let path = dir.join(a.file());
    crate::paths::write_atomic(&path, &compressed)
        .map_err(|e| StoreError::io(&path, "write", e))?;
    Ok(a)
}

/// Step 3 (after the `audit.archive` record is durable): remove the month file, if it still
/// holds exactly what was archived.
pub fn commit(dir: &Path, a: &Archived) -> Result<(), StoreError> {
    let month_file = dir.join(format!("{}.jsonl", a.month));
    let bytes = fs::read(&month_file).map_err(|e| StoreError::io(&month_file, "read", e))?;
    let archived = read_archive(&dir.join(a.file()))?;
    if bytes != archived {
        return Err(StoreError::Rejected(format!(
            "{} changed since it was archived; it is kept",
            month_file.display()
        )));
    }
    fs::remove_file(&month_file).map_err(|e| StoreError::io(&month_file, "remove", e))?;
    crate::paths::sync_dir(dir).map_err(|e| StoreError::io(dir, "fsync", e))
}

/// The decompressed bytes of an archive.
pub fn read_archive(path: &Path) -> Result<Vec<u8>, StoreError> {
    let file = fs::File::open(path).map_err(|e| StoreError::io(path, "open", e))?;
    let mut out = Vec::new();
    GzDecoder::new(file)
        .read_to_end(&mut out)
        .map_err(|e| StoreError::io(path, "decompress", e))?;
    Ok(out)
}

/// Check that `lines` are consecutive records linked by `prev` with intact hashes (and, with
/// `start`, that the first links to that seq and hash). Returns first seq, last seq, last hash.
fn check_lines<'a>(
    lines: impl Iterator<Item = &'a [u8]>,
    start: Option<(u64, &str)>,
) -> Result<(u64, u64, String), String> {
    let mut first = None;
    let mut expect: Option<(u64, String)> = start.map(|(s, h)| (s + 1, h.to_string()));
    for (i, line) in lines.enumerate() {
        let v: serde_json::Value = serde_json::from_slice(line)
            .map_err(|e| format!("line {} is not JSON ({e})", i + 1))?;
        let seq = v["seq"]
            .as_u64()
            .ok_or(format!("line {} has no seq", i + 1))?;
        let hash = v["hash"].as_str().unwrap_or("");
        if let Some((s, prev)) = &expect {
            if seq != *s {
                return Err(format!("expected seq {s}, found {seq}"));
            }
            if v["prev"].as_str() != Some(prev.as_str()) {
                return Err(format!("record {seq} does not link to the one before"));
            }
        } else if seq == 1 && v["prev"].as_str() != Some(GENESIS) {
            return Err("record 1 does not start the chain".into());
        }
        if record_hash(&v).as_deref() != Some(hash) {
            return Err(format!("record {seq} was altered (hash)"));
        }
        first.get_or_insert(seq);
        expect = Some((seq + 1, hash.to_string()));
    }
    match (first, expect) {
        (Some(f), Some((next, h))) => Ok((f, next - 1, h)),
        _ => Err("no records".into()),
    }
}

/// What `verify` found about the archives.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
pub struct ArchiveReport {
    /// Archives recorded in the live chain, oldest first, each checked.
    pub archives: Vec<Archived>,
    /// Records they hold.
    pub records: u64,
    /// Where the live chain must go on: the last archived record's seq and hash.
    #[serde(skip)]
    pub resume: Option<(u64, String)>,
    /// The first problem (an archive missing, altered or not recorded; a gap between them).
    pub problem: Option<(PathBuf, String)>,
}

/// Every `audit.archive` note in the live trail, by month (the newest note of a month wins).
pub fn notes(dir: &Path) -> Result<BTreeMap<String, Archived>, StoreError> {
    let mut out = BTreeMap::new();
    // Cheap filter before parsing: one record in many thousands is a note.
    let needle = format!("\"event\":\"{EVENT}\"");
    for path in month_files(dir)? {
        for line in Lines::open(&path, 0).map_err(|e| StoreError::io(&path, "open", e))? {
            let line = line.map_err(|e| StoreError::io(&path, "read", e))?;
            if !line
                .bytes
                .windows(needle.len())
                .any(|w| w == needle.as_bytes())
            {
                continue;
            }
            let Ok(v) = serde_json::from_slice::<serde_json::Value>(&line.bytes) else {
                continue;
            };
            if v["event"] == EVENT
                && v["outcome"] == "ok"
                && let Some(a) = v["target"].as_str().and_then(Archived::parse)
            {
                out.insert(a.month.clone(), a);
            }
        }
    }
    Ok(out)
}

/// Check every archive against the live chain's notes: each file there, its sha256 as noted,
/// its records intact and linked, its last hash as noted, the archives consecutive from record
/// 1; and no archive file that no note names.
pub fn check(dir: &Path) -> Result<ArchiveReport, StoreError> {
    let notes = notes(dir)?;
    let mut report = ArchiveReport::default();
    let adir = dir.join(ARCHIVE_DIR);
    let mut unnamed: Vec<PathBuf> = match fs::read_dir(&adir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().ends_with(".jsonl.gz"))
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(StoreError::io(&adir, "list", e)),
    };
    let mut resume: Option<(u64, String)> = None;
    for a in notes.values() {
        let path = dir.join(a.file());
        unnamed.retain(|p| *p != path);
        let bad = |why: String| Some((path.clone(), why));
        let bytes = match fs::read(&path) {
            Ok(b) => b,
            Err(e) => {
                report.problem = bad(format!(
                    "the archive of {} that the trail records is missing or unreadable ({e})",
                    a.month
                ));
                return Ok(report);
            }
        };
        if hex::encode(Sha256::digest(&bytes)) != a.sha256 {
            report.problem = bad(format!(
                "the archive of {} does not have the sha256 the trail recorded (it was altered or replaced)",
                a.month
            ));
            return Ok(report);
        }
        let text = read_archive(&path)?;
        let start = resume.as_ref().map(|(s, h)| (*s, h.as_str()));
        match check_lines(text.split(|b| *b == b'\n').filter(|l| !l.is_empty()), start) {
            Ok((first, last, hash))
                if first == a.first && last == a.last && hash == a.last_hash =>
            {
                if resume.is_none() && first != 1 {
                    report.problem = bad(format!(
                        "records 1 to {} are missing before the archive of {}",
                        first - 1,
                        a.month
                    ));
                    return Ok(report);
                }
                report.records += last - first + 1;
                resume = Some((last, hash));
            }
            Ok(_) => {
                report.problem = bad(format!(
                    "the archive of {} does not hold the records the trail recorded",
                    a.month
                ));
                return Ok(report);
            }
            Err(why) => {
                report.problem = bad(format!("the archive of {}: {why}", a.month));
                return Ok(report);
            }
        }
        report.archives.push(a.clone());
    }
    if let Some(p) = unnamed.into_iter().next() {
        // A crash between writing an archive and recording it leaves one: harmless (its month
        // is still live), but say so rather than vouch for it.
        let month = p
            .file_name()
            .and_then(|n| n.to_str())
            .and_then(|n| n.strip_suffix(".jsonl.gz"))
            .unwrap_or("");
        if !month_files(dir)?
            .iter()
            .any(|f| month_of(f).as_deref() == Some(month))
        {
            report.problem = Some((
                p,
                "this archive is not recorded in the trail and its month is not live: it cannot be vouched for".into(),
            ));
            return Ok(report);
        }
    }
    report.resume = resume;
    Ok(report)
}

/// The last archive `record_line` decompressed: its path, compressed length and text.
type LastRead = (PathBuf, u64, std::sync::Arc<Vec<u8>>);

/// The archived record with `seq`, for binding checks of old draft events. The last archive
/// read is kept in memory (a fold asks for many seqs of one month in a row).
pub(crate) fn record_line(dir: &Path, seq: u64) -> Result<Option<Vec<u8>>, StoreError> {
    static LAST: Mutex<Option<LastRead>> = Mutex::new(None);
    let adir = dir.join(ARCHIVE_DIR);
    let mut files: Vec<PathBuf> = match fs::read_dir(&adir) {
        Ok(rd) => rd
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.to_string_lossy().ends_with(".jsonl.gz"))
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(StoreError::io(&adir, "list", e)),
    };
    files.sort();
    for path in files.iter().rev() {
        let len = fs::metadata(path).map(|m| m.len()).unwrap_or(0);
        let text = {
            let mut last = LAST.lock().unwrap_or_else(|p| p.into_inner());
            match last.as_ref() {
                Some((p, l, t)) if p == path && *l == len => t.clone(),
                _ => {
                    let t = std::sync::Arc::new(read_archive(path)?);
                    *last = Some((path.clone(), len, t.clone()));
                    t
                }
            }
        };
        let mut lines = text.split(|b| *b == b'\n').filter(|l| !l.is_empty());
        let first = lines
            .next()
            .and_then(|l| serde_json::from_slice::<serde_json::Value>(l).ok())
            .and_then(|v| v["seq"].as_u64());
        if first.is_none_or(|f| f > seq) {
            continue;
        }
        for l in text.split(|b| *b == b'\n').filter(|l| !l.is_empty()) {
            if serde_json::from_slice::<serde_json::Value>(l)
                .ok()
                .and_then(|v| v["seq"].as_u64())
                == Some(seq)
            {
                return Ok(Some(l.to_vec()));
            }
        }
        return Ok(None);
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_note_reads_back_and_nothing_else_does() {
        let a = Archived {
            month: "2026-01".into(),
            first: 1,
            last: 120,
            last_hash: "a".repeat(64),
            sha256: "b".repeat(64),
        };
        assert_eq!(Archived::parse(&a.note()), Some(a.clone()));
        assert_eq!(Archived::parse("d-123"), None);
        assert_eq!(Archived::parse(&format!("{} extra", a.note())), None);
        assert_eq!(
            Archived::parse(&a.note().replace("sha256=b", "sha256=x")),
            None
        );
    }
}
