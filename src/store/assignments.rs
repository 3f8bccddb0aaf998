//! The operator's profile assignments of inbox items, beside the inbox: `inbox/assignments.jsonl`,
//! one [`Assignment`] per line (0600), append-only under its own advisory lock with the shared
//! append machinery (durable append, torn-tail repair). Inbox lines are never rewritten: the
//! inbox applies the newest assignment of a seq to the record as it is read (its `profile`
//! replaced, `meta.profile_assigned` saying from what, by whom and when), so every read — the
//! engine's, `opsdesk watch`'s — presents the assigned profile, and filters by profile see it.
//!
//! Reading folds the log incrementally (only what any process appended since the last read is
//! parsed), so the per-read cost is one `stat` once nothing changes. A damaged complete line is
//! an error, never skipped: a lost assignment could show an item under a less protected profile.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use super::StoreError;
use super::jsonl::{FileLock, Lines, append_durable, repair_torn_tail};
use crate::domain::{InboxRecord, META_PROFILE_ASSIGNED};
use crate::paths::{open_private_append, sync_dir};

const FILE: &str = "assignments.jsonl";
const LOCK: &str = ".assignments.lock";

/// One assignment: item `seq` (source id `id`) belongs to `profile` from now on.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct Assignment {
    pub seq: u64,
    /// The item's source id: an assignment applies only to the record it was made for.
    pub id: String,
    /// The profile the item had before (as stored, or as last assigned).
    pub from: String,
    pub profile: String,
    /// Who assigned it (`cli`, `console`): always the operator.
    pub by: String,
    /// RFC 3339.
    pub at: String,
}

/// The newest assignment per seq.
pub type AssignmentMap = BTreeMap<u64, Assignment>;

pub struct Assignments {
    dir: PathBuf,
    cache: Mutex<Cache>,
}

#[derive(Default)]
struct Cache {
    /// (dev, inode) of the file read.
    file: Option<(u64, u64)>,
    offset: u64,
    lines: u64,
    map: Arc<AssignmentMap>,
}

impl Assignments {
    /// The assignments in `dir` (the inbox directory, which exists already).
    pub fn new(dir: &Path) -> Assignments {
        Assignments {
            dir: dir.to_path_buf(),
            cache: Mutex::new(Cache::default()),
        }
    }

    /// The current assignments (reading only what was appended since the last call).
    pub fn current(&self) -> Result<Arc<AssignmentMap>, StoreError> {
        use std::os::unix::fs::MetadataExt;
        let path = self.dir.join(FILE);
        let mut cache = self.cache.lock().unwrap_or_else(|e| e.into_inner());
        let meta = match std::fs::metadata(&path) {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                *cache = Cache::default();
                return Ok(cache.map.clone());
            }
            Err(e) => return Err(StoreError::io(&path, "stat", e)),
        };
        let file = (meta.dev(), meta.ino());
        // Another file, or one that shrank (repaired or replaced): read it again from the start.
        if cache.file != Some(file) || meta.len() < cache.offset {
            *cache = Cache {
                file: Some(file),
                ..Cache::default()
            };
        }
        if meta.len() > cache.offset {
            let lines =
                Lines::open(&path, cache.offset).map_err(|e| StoreError::io(&path, "open", e))?;
            let mut map = (*cache.map).clone();
            let (mut offset, mut count) = (cache.offset, cache.lines);
            for l in lines {
                let l = l.map_err(|e| StoreError::io(&path, "read", e))?;
                let a: Assignment =
                    serde_json::from_slice(&l.bytes).map_err(|e| StoreError::Corrupt {
                        path: path.clone(),
                        line: count + 1,
                        msg: e.to_string(),
                    })?;
                map.insert(a.seq, a);
                offset = l.offset + l.bytes.len() as u64 + 1;
                count += 1;
            }
            cache.map = Arc::new(map);
            cache.offset = offset;
            cache.lines = count;
        }
        Ok(cache.map.clone())
    }

    /// Record an assignment (durable before this returns).
    pub fn put(&self, a: &Assignment) -> Result<(), StoreError> {
        let _lock = FileLock::exclusive(&self.dir.join(LOCK))?;
        let path = self.dir.join(FILE);
        let created = !path.exists();
        let mut file = open_private_append(&path).map_err(|e| StoreError::io(&path, "open", e))?;
        repair_torn_tail(&mut file, &path)?;
        let mut line = serde_json::to_vec(a).map_err(|e| StoreError::Rejected(e.to_string()))?;
        line.push(b'\n');
        append_durable(&mut file, &path, &line)?;
        // A new file's directory entry is durable only once the directory is synced: without
        // it a crash could lose the whole file, the first assignment with it.
        if created {
            sync_dir(&self.dir).map_err(|e| StoreError::io(&self.dir, "fsync", e))?;
        }
        Ok(())
    }
}

/// Whether [`apply`] would change `r` (most records: it would not, and stay shared).
pub fn changes(map: &AssignmentMap, r: &InboxRecord) -> bool {
    r.meta.contains_key(META_PROFILE_ASSIGNED) || map.get(&r.seq).is_some_and(|a| a.id == r.id)
}

/// Present `r` as assigned, when `map` holds an assignment made for it. `profile_assigned`
/// comes from the map only: one a stored line carries (written by an older version from what a
/// source supplied) is dropped.
pub fn apply(map: &AssignmentMap, r: &mut InboxRecord) {
    r.meta.remove(META_PROFILE_ASSIGNED);
    if let Some(a) = map.get(&r.seq)
        && a.id == r.id
    {
        let from = std::mem::replace(&mut r.profile, a.profile.clone());
        r.meta.insert(
            META_PROFILE_ASSIGNED.into(),
            serde_json::json!({"from": from, "by": a.by, "at": a.at}),
        );
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn a(seq: u64, profile: &str) -> Assignment {
        Assignment {
            seq,
            id: format!("m{seq}"),
            from: "unassigned".into(),
            profile: profile.into(),
            by: "cli".into(),
            at: "2026-11-26T08:00:00Z".into(),
        }
    }

    #[test]
    fn a_stored_profile_assigned_is_dropped_and_only_the_map_says_what_was_assigned() {
        let mut r: InboxRecord = serde_json::from_value(serde_json::json!({
            "seq": 7, "id": "m7", "received_at": "2026-11-26T08:00:00Z", "profile": "work",
            "channel": "spool", "from": {"name": "", "address": "a@b.example"},
            "ts": "2026-11-26T08:00:00Z", "text": "t", "preview": "t", "untrusted": true,
            "meta": {"profile_assigned": {"from": "unassigned", "by": "cli", "at": "x"}},
        }))
        .unwrap();
        let mut other = r.clone();
        apply(&AssignmentMap::new(), &mut r);
        assert!(!r.meta.contains_key(META_PROFILE_ASSIGNED), "{:?}", r.meta);
        assert_eq!(r.profile, "work");
        let map: AssignmentMap = [(7, a(7, "clinic"))].into();
        apply(&map, &mut other);
        assert_eq!(other.profile, "clinic");
        assert_eq!(other.meta[META_PROFILE_ASSIGNED]["from"], "work");
    }

    #[test]
    fn the_newest_assignment_wins_across_writers_and_a_damaged_line_is_an_error() {
        let dir = tempfile::tempdir().unwrap();
        let w = Assignments::new(dir.path());
        let r = Assignments::new(dir.path());
        assert!(r.current().unwrap().is_empty());
        w.put(&a(3, "work")).unwrap();
        assert_eq!(r.current().unwrap()[&3].profile, "work");
        w.put(&a(3, "clinic")).unwrap();
        w.put(&a(4, "work")).unwrap();
        let m = r.current().unwrap();
        assert_eq!((m[&3].profile.as_str(), m.len()), ("clinic", 2));
        let p = dir.path().join(FILE);
        let mut f = std::fs::OpenOptions::new().append(true).open(&p).unwrap();
        std::io::Write::write_all(&mut f, b"{\"seq\":5").unwrap();
        assert_eq!(r.current().unwrap().len(), 2, "a torn tail is not read");
        std::io::Write::write_all(&mut f, b"\n").unwrap();
        assert!(matches!(r.current(), Err(StoreError::Corrupt { .. })));
    }
}
