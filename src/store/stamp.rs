//! File identity stamps for in-process caches of files that other processes may change.
//!
//! A cache built from a file is reused only while the path still names the same file with the
//! same length and modification time; any append, rewrite or replace (tmp + rename) changes
//! at least one of them, so one `stat` decides whether the cache may be used.

use std::fs;
use std::io;
use std::os::unix::fs::MetadataExt;
use std::path::Path;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Stamp {
    dev: u64,
    ino: u64,
    len: u64,
    mtime_ns: i128,
}

impl Stamp {
    pub fn of_metadata(m: &fs::Metadata) -> Stamp {
        Stamp {
            dev: m.dev(),
            ino: m.ino(),
            len: m.len(),
            mtime_ns: m.mtime() as i128 * 1_000_000_000 + m.mtime_nsec() as i128,
        }
    }

    /// The stamp of `path`, `None` when it does not exist.
    pub fn of(path: &Path) -> io::Result<Option<Stamp>> {
        match fs::metadata(path) {
            Ok(m) => Ok(Some(Stamp::of_metadata(&m))),
            Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    #[test]
    fn an_append_or_a_replace_changes_the_stamp_and_nothing_else_does() {
        let d = tempfile::tempdir().unwrap();
        let p = d.path().join("f");
        assert_eq!(Stamp::of(&p).unwrap(), None);
        fs::write(&p, b"one\n").unwrap();
        let a = Stamp::of(&p).unwrap().unwrap();
        assert_eq!(Stamp::of(&p).unwrap(), Some(a), "reading twice is stable");
        fs::OpenOptions::new()
            .append(true)
            .open(&p)
            .unwrap()
            .write_all(b"two\n")
            .unwrap();
        let b = Stamp::of(&p).unwrap().unwrap();
        assert_ne!(a, b, "an append changes the length");
        let tmp = d.path().join("tmp");
        fs::write(&tmp, b"one\ntwo\n").unwrap();
        fs::rename(&tmp, &p).unwrap();
        let c = Stamp::of(&p).unwrap().unwrap();
        assert_ne!(b, c, "same length, but a replaced file has another inode");
    }
}
