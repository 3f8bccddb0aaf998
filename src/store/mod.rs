//! Durable files: the inbox, the drafts queue and the audit trail. Each is append-only JSONL,
//! safe for several processes at once, and recovers from a writer killed mid-append.

pub(crate) mod assignments;
pub mod attachments;
pub mod audit;
pub mod audit_archive;
pub mod audit_export;
pub mod audit_find;
mod cursors;
pub mod deals;
pub mod drafts;
pub(crate) mod drafts_binding;
pub(crate) mod fulltext;
pub(crate) mod id_index;
pub mod inbox;
pub(crate) mod integrity;
pub mod jsonl;
pub(crate) mod later;
pub(crate) mod stamp;

use std::io;
use std::path::{Path, PathBuf};

#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    #[error("{}: cannot {op}: {}", path.display(), describe_io(source))]
    Io {
        path: PathBuf,
        op: &'static str,
        #[source]
        source: io::Error,
    },
    #[error("{}:{line}: {msg}", path.display())]
    Corrupt {
        path: PathBuf,
        line: u64,
        msg: String,
    },
    /// A request the store refuses (unknown id, a transition the queue does not allow).
    #[error("{0}")]
    Rejected(String),
}

impl StoreError {
    pub fn io(path: &Path, op: &'static str, source: io::Error) -> StoreError {
        StoreError::Io {
            path: path.to_path_buf(),
            op,
            source,
        }
    }
}

/// Add what the operator can do about the common I/O failures.
fn describe_io(e: &io::Error) -> String {
    match e.raw_os_error() {
        Some(libc::ENOSPC) => {
            format!("{e}: the disk is full; free space and retry (nothing was lost)")
        }
        Some(libc::EFBIG) => {
            format!("{e}: the file-size limit was reached (ulimit -f); nothing was lost")
        }
        Some(libc::EACCES) | Some(libc::EPERM) => {
            format!("{e}: check ownership and permissions of the data directory")
        }
        Some(libc::EROFS) => format!("{e}: the file system is read-only"),
        _ => e.to_string(),
    }
}
