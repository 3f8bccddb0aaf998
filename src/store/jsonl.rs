//! Append-only JSON-lines files shared by several processes.
//!
//! Writers hold an exclusive advisory lock (a sibling `.lock` file) for the whole append, so
//! lines from different processes never interleave. A write that fails part-way (full disk,
//! file-size limit) is cut back to the previous length, and a torn last line left by a killed
//! writer is removed by the next writer before it appends. Readers take no lock: they only ever
//! consume complete (newline-terminated) lines.

use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Seek, SeekFrom, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

use super::StoreError;
use crate::paths::FILE_MODE;

/// An exclusive advisory lock held until dropped.
pub struct FileLock {
    file: File,
}

impl FileLock {
    pub fn exclusive(path: &Path) -> Result<FileLock, StoreError> {
        let file = open_lock_file(path)?;
        file.lock().map_err(|e| StoreError::io(path, "lock", e))?;
        Ok(FileLock { file })
    }

    /// A shared lock: waits for any exclusive holder (a writer mid-append) without keeping
    /// other readers out. Readers use it to let a writer finish before judging its files.
    pub fn shared(path: &Path) -> Result<FileLock, StoreError> {
        let file = open_lock_file(path)?;
        file.lock_shared()
            .map_err(|e| StoreError::io(path, "lock", e))?;
        Ok(FileLock { file })
    }
}

impl Drop for FileLock {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

/// Open (creating, 0600) a lock file, to lock now ([`FileLock`]) or to keep ([`HeldLock`]).
pub(crate) fn open_lock_file(path: &Path) -> Result<File, StoreError> {
    open_private_lock(path).map_err(|e| StoreError::io(path, "open lock file", e))
}

/// [`open_lock_file`] with the plain I/O error, for callers with errors of their own (the
/// engine lock).
pub(crate) fn open_private_lock(path: &Path) -> std::io::Result<File> {
    OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .mode(FILE_MODE)
        .open(path)
}

/// An exclusive lock on a lock file the caller keeps open, held until dropped. Locks belong to
/// the open file, not the thread: threads sharing `file` do not exclude each other, so the
/// caller must serialize them (a mutex); the lock keeps other processes out.
pub(crate) struct HeldLock<'a> {
    file: &'a File,
}

impl<'a> HeldLock<'a> {
    pub fn exclusive(file: &'a File, path: &Path) -> Result<HeldLock<'a>, StoreError> {
        file.lock().map_err(|e| StoreError::io(path, "lock", e))?;
        Ok(HeldLock { file })
    }
}

impl Drop for HeldLock<'_> {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}

/// Append `bytes` (one or more complete lines) at the end of `file` and fsync it. On error the
/// file is cut back to its previous length, so a failed append leaves nothing behind.
/// Returns the offset the bytes were written at.
pub(crate) fn append_durable(
    file: &mut File,
    path: &Path,
    bytes: &[u8],
) -> Result<u64, StoreError> {
    let start = file
        .seek(SeekFrom::End(0))
        .map_err(|e| StoreError::io(path, "seek", e))?;
    let res = file.write_all(bytes).and_then(|_| file.sync_data());
    if let Err(e) = res {
        // Best effort: if even the truncate fails the next writer's tail repair cleans up.
        let _ = file.set_len(start);
        let _ = file.sync_data();
        return Err(StoreError::io(path, "append", e));
    }
    Ok(start)
}

/// Append `bytes` at the end of `file` without waiting for the disk (the caller fsyncs, possibly
/// for several appends at once). On error the file is cut back to its previous length.
pub(crate) fn append_unsynced(file: &File, path: &Path, bytes: &[u8]) -> Result<u64, StoreError> {
    let mut f = file;
    let start = f
        .seek(SeekFrom::End(0))
        .map_err(|e| StoreError::io(path, "seek", e))?;
    if let Err(e) = f.write_all(bytes) {
        let _ = file.set_len(start);
        return Err(StoreError::io(path, "append", e));
    }
    Ok(start)
}

/// [`append_unsynced`] for a caller that knows, under the lock, that `file` (opened for
/// appending) is `len` bytes long: no seek to learn it.
pub(crate) fn append_unsynced_at(
    file: &File,
    path: &Path,
    bytes: &[u8],
    len: u64,
) -> Result<u64, StoreError> {
    let mut f = file;
    if let Err(e) = f.write_all(bytes) {
        let _ = file.set_len(len);
        return Err(StoreError::io(path, "append", e));
    }
    Ok(len)
}

/// Remove an incomplete last line (no trailing newline) left by a writer that died mid-write.
/// Returns how many bytes were removed.
pub(crate) fn repair_torn_tail(file: &mut File, path: &Path) -> Result<u64, StoreError> {
    let len = file
        .metadata()
        .map_err(|e| StoreError::io(path, "stat", e))?
        .len();
    if len == 0 {
        return Ok(0);
    }
    let keep = complete_prefix_len(file, len).map_err(|e| StoreError::io(path, "read tail", e))?;
    if keep < len {
        file.set_len(keep)
            .map_err(|e| StoreError::io(path, "truncate torn tail", e))?;
        file.sync_data()
            .map_err(|e| StoreError::io(path, "fsync", e))?;
        tracing::warn!(path = %path.display(), removed = len - keep, "removed a torn last line");
    }
    Ok(len - keep)
}

/// Length of the file up to and including its last newline.
fn complete_prefix_len(file: &mut File, len: u64) -> io::Result<u64> {
    let mut end = len;
    let mut buf = vec![0u8; 8192];
    while end > 0 {
        let start = end.saturating_sub(buf.len() as u64);
        let n = (end - start) as usize;
        file.seek(SeekFrom::Start(start))?;
        file.read_exact(&mut buf[..n])?;
        if let Some(pos) = buf[..n].iter().rposition(|&b| b == b'\n') {
            return Ok(start + pos as u64 + 1);
        }
        end = start;
    }
    Ok(0)
}

/// The last complete line of a file, if any (used to find the tail of a hash chain).
pub(crate) fn last_complete_line(path: &Path) -> Result<Option<Vec<u8>>, StoreError> {
    let mut file = match File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(StoreError::io(path, "open", e)),
    };
    let len = file
        .metadata()
        .map_err(|e| StoreError::io(path, "stat", e))?
        .len();
    let end = complete_prefix_len(&mut file, len).map_err(|e| StoreError::io(path, "read", e))?;
    if end == 0 {
        return Ok(None);
    }
    // Find the newline before the last line.
    let body_end = end - 1;
    let start = if body_end == 0 {
        0
    } else {
        complete_prefix_len(&mut file, body_end).map_err(|e| StoreError::io(path, "read", e))?
    };
    let mut line = vec![0u8; (body_end - start) as usize];
    file.seek(SeekFrom::Start(start))
        .map_err(|e| StoreError::io(path, "seek", e))?;
    file.read_exact(&mut line)
        .map_err(|e| StoreError::io(path, "read", e))?;
    Ok(Some(line))
}

/// A complete line and where it starts.
pub struct Line {
    pub offset: u64,
    /// 1-based line number within the file (counted from `start` when reading from an offset).
    pub number: u64,
    pub bytes: Vec<u8>,
}

/// Iterate the complete lines of a file from `offset`. A trailing line without a newline is a
/// write in progress (or torn) and is not returned.
pub struct Lines {
    reader: BufReader<File>,
    offset: u64,
    number: u64,
}

impl Lines {
    pub fn open(path: &Path, offset: u64) -> io::Result<Lines> {
        let mut file = File::open(path)?;
        file.seek(SeekFrom::Start(offset))?;
        Ok(Lines {
            reader: BufReader::with_capacity(64 * 1024, file),
            offset,
            number: 0,
        })
    }
}

impl Iterator for Lines {
    type Item = io::Result<Line>;
    fn next(&mut self) -> Option<Self::Item> {
        let mut buf = Vec::new();
        match self.reader.read_until(b'\n', &mut buf) {
            Ok(0) => None,
            Ok(n) => {
                if buf.last() != Some(&b'\n') {
                    return None; // incomplete tail
                }
                let offset = self.offset;
                self.offset += n as u64;
                self.number += 1;
                buf.pop();
                Some(Ok(Line {
                    offset,
                    number: self.number,
                    bytes: buf,
                }))
            }
            Err(e) => Some(Err(e)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::paths::open_private_append;

    #[test]
    fn torn_tail_is_removed_and_complete_lines_kept() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.jsonl");
        std::fs::write(&p, b"{\"a\":1}\n{\"a\":2}\n{\"a\":").unwrap();
        let mut f = open_private_append(&p).unwrap();
        assert_eq!(repair_torn_tail(&mut f, &p).unwrap(), 5);
        assert_eq!(std::fs::read(&p).unwrap(), b"{\"a\":1}\n{\"a\":2}\n");
        assert_eq!(repair_torn_tail(&mut f, &p).unwrap(), 0);
    }

    #[test]
    fn readers_never_see_an_incomplete_line() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.jsonl");
        std::fs::write(&p, b"one\ntwo\nthr").unwrap();
        let lines: Vec<_> = Lines::open(&p, 0)
            .unwrap()
            .map(|l| l.unwrap().bytes)
            .collect();
        assert_eq!(lines, vec![b"one".to_vec(), b"two".to_vec()]);
        assert_eq!(last_complete_line(&p).unwrap().unwrap(), b"two");
    }

    #[test]
    fn last_complete_line_of_single_line_file() {
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("a.jsonl");
        std::fs::write(&p, b"only\n").unwrap();
        assert_eq!(last_complete_line(&p).unwrap().unwrap(), b"only");
        std::fs::write(&p, b"").unwrap();
        assert!(last_complete_line(&p).unwrap().is_none());
    }
}
