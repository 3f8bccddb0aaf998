//! Which files some process still holds open for writing (Linux `/proc`), so the spool does not
//! read a file whose writer paused mid-way (after an e-mail's headers, say) and ingest it cut
//! short. Only processes whose `/proc/<pid>/fd` we may read are seen, which covers every
//! process of the same user (the writers of a private spool).

use std::collections::HashSet;
use std::fs;
use std::os::unix::fs::MetadataExt;

/// A file's identity: device and inode.
pub type FileId = (u64, u64);

/// The subset of `wanted` that some process has open for writing (`O_WRONLY` or `O_RDWR`).
/// An unreadable `/proc` (not Linux, hidepid) finds nothing: callers still have the settle time.
pub fn open_for_writing(wanted: &HashSet<FileId>) -> HashSet<FileId> {
    let mut found = HashSet::new();
    if wanted.is_empty() {
        return found;
    }
    let Ok(procs) = fs::read_dir("/proc") else {
        return found;
    };
    for p in procs.flatten() {
        let name = p.file_name();
        if !name.as_encoded_bytes().iter().all(u8::is_ascii_digit) {
            continue;
        }
        let Ok(fds) = fs::read_dir(p.path().join("fd")) else {
            continue; // another user's process, or it exited
        };
        for fd in fds.flatten() {
            // stat follows the magic link to the open file itself.
            let Ok(meta) = fs::metadata(fd.path()) else {
                continue;
            };
            let id = (meta.dev(), meta.ino());
            if !wanted.contains(&id) || found.contains(&id) {
                continue;
            }
            let info = p.path().join("fdinfo").join(fd.file_name());
            if fs::read_to_string(info).is_ok_and(|t| writable(&t)) {
                found.insert(id);
            }
        }
    }
    found
}

/// Whether an fdinfo text (`flags:\t0100001`, octal) says the file is open for writing.
fn writable(fdinfo: &str) -> bool {
    fdinfo
        .lines()
        .find_map(|l| l.strip_prefix("flags:"))
        .and_then(|f| u32::from_str_radix(f.trim(), 8).ok())
        .is_some_and(|flags| flags & libc::O_ACCMODE as u32 != libc::O_RDONLY as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_file_open_for_writing_is_seen_and_one_open_for_reading_is_not() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("x.eml");
        let w = fs::File::create(&p).unwrap();
        let m = fs::metadata(&p).unwrap();
        let id = (m.dev(), m.ino());
        let wanted: HashSet<FileId> = [id].into();
        assert!(open_for_writing(&wanted).contains(&id));
        drop(w);
        let _r = fs::File::open(&p).unwrap();
        assert!(open_for_writing(&wanted).is_empty());
    }
}
