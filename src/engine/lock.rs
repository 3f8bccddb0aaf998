//! One engine per data directory: an exclusive lock on `engine.lock`, which also records the
//! holder's PID so a second engine can say who is in the way.

use std::fs::{File, TryLockError};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

pub struct EngineLock {
    file: File,
}

#[derive(Debug, thiserror::Error)]
pub enum LockError {
    #[error(
        "another opsdesk engine (pid {pid}) is already running for {dir}; use it (the console, `opsdesk serve`), stop it, or pass a different --data-dir"
    )]
    Held { pid: String, dir: String },
    #[error("cannot open the engine lock {path}: {source}")]
    Io {
        path: String,
        source: std::io::Error,
    },
}

impl EngineLock {
    pub fn acquire(path: &Path) -> Result<EngineLock, LockError> {
        let io = |source| LockError::Io {
            path: path.display().to_string(),
            source,
        };
        let mut file = crate::store::jsonl::open_private_lock(path).map_err(io)?;
        match file.try_lock() {
            Ok(()) => {}
            Err(TryLockError::WouldBlock) => {
                let mut pid = String::new();
                let _ = file.read_to_string(&mut pid);
                let pid = pid.trim();
                return Err(LockError::Held {
                    pid: if pid.is_empty() {
                        "unknown".into()
                    } else {
                        pid.to_string()
                    },
                    dir: path.parent().unwrap_or(path).display().to_string(),
                });
            }
            Err(TryLockError::Error(e)) => return Err(io(e)),
        }
        file.set_len(0).map_err(io)?;
        file.seek(SeekFrom::Start(0)).map_err(io)?;
        writeln!(file, "{}", std::process::id()).map_err(io)?;
        Ok(EngineLock { file })
    }

    /// PID of the engine holding the lock, if one does (for the stdio bridge and `doctor`).
    pub fn holder(path: &Path) -> Option<u32> {
        let file = File::open(path).ok()?;
        match file.try_lock_shared() {
            Ok(()) => {
                let _ = file.unlock();
                None
            }
            Err(_) => {
                let mut s = String::new();
                (&file).read_to_string(&mut s).ok()?;
                s.trim().parse().ok()
            }
        }
    }
}

impl Drop for EngineLock {
    fn drop(&mut self) {
        let _ = self.file.set_len(0);
        let _ = self.file.unlock();
    }
}
