//! `inbox/state.json`: consumer cursors, cached in-process and, for pulls, saved lazily.
//!
//! A cursor is a watermark of what a consumer has been *given*. Moving it durably on every
//! pull costs two fsyncs under the inbox lock, which serializes every client behind the disk.
//! So pulls move cursors in memory (`advance_lazy`) and a saver thread writes them within
//! `LAZY_SAVE_WINDOW`, merged with what other processes wrote; dropping the inbox saves what
//! is left. A crash in that window re-delivers the last items (at-least-once), never loses
//! one. Explicit moves (`advance`, `set`: the operator's mark-read and rewind) stay durable
//! before they return.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use super::StoreError;
use super::inbox::{InboxState, OPERATOR_CONSUMER};
use super::jsonl::FileLock;
use super::later::Later;
use super::stamp::Stamp;
use crate::paths::write_atomic;

const STATE: &str = "state.json";
const STATE_BAK: &str = "state.json.bak";

/// How long a lazily moved cursor may wait before it is written.
pub const LAZY_SAVE_WINDOW: Duration = Duration::from_millis(50);

pub(super) struct StateFile {
    dir: PathBuf,
    /// state.json as last read or written by this process, valid while its stamp holds.
    cache: Mutex<Option<(Stamp, InboxState)>>,
    /// Cursors moved in memory and not yet written.
    pending: Mutex<BTreeMap<String, u64>>,
    saver: Later,
}

impl StateFile {
    pub(super) fn new(dir: &Path) -> Arc<StateFile> {
        Arc::new(StateFile {
            dir: dir.to_path_buf(),
            cache: Mutex::new(None),
            pending: Mutex::new(BTreeMap::new()),
            saver: Later::new("inbox-cursors", LAZY_SAVE_WINDOW),
        })
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// The cursors as saved, with this process's unsaved moves applied.
    pub(super) fn load(&self) -> Result<InboxState, StoreError> {
        let mut st = self.load_saved()?;
        let pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        for (name, seq) in pending.iter() {
            let c = st.consumers.entry(name.clone()).or_insert(0);
            *c = (*c).max(*seq);
        }
        Ok(st)
    }

    fn load_saved(&self) -> Result<InboxState, StoreError> {
        let main = self.path(STATE);
        // One stat instead of a read and a parse on every pull: cursors are read per call.
        let stamp = Stamp::of(&main).map_err(|e| StoreError::io(&main, "stat", e))?;
        let mut cache = self.cache.lock().unwrap_or_else(|p| p.into_inner());
        if let (Some(now), Some((seen, st))) = (stamp, cache.as_ref())
            && now == *seen
        {
            return Ok(st.clone());
        }
        *cache = None;
        match read_state_file(&main) {
            Ok(Some(s)) => {
                // Stamp taken before the read: if the file changed in between, the stamp no
                // longer matches and the next call reads again.
                if let Some(now) = stamp {
                    *cache = Some((now, s.clone()));
                }
                return Ok(s);
            }
            Ok(None) => {}
            Err(msg) => {
                tracing::warn!("{msg}; using the backup copy");
                // Keep the damaged file for inspection; the next write replaces state.json.
                let aside = self.path(&format!(
                    "state.json.corrupt-{}",
                    crate::domain::now().unix_timestamp()
                ));
                let _ = fs::rename(&main, aside);
            }
        }
        match read_state_file(&self.path(STATE_BAK)) {
            Ok(Some(s)) => Ok(s),
            Ok(None) => Ok(InboxState::default()),
            Err(msg) => {
                tracing::warn!("{msg}; consumer cursors start over");
                Ok(InboxState::default())
            }
        }
    }

    /// Read-modify-write of state.json and its backup; the caller holds the inbox lock.
    pub(super) fn update(
        &self,
        last: u64,
        f: impl FnOnce(&mut InboxState),
    ) -> Result<(), StoreError> {
        let mut st = self.load_saved()?;
        f(&mut st);
        st.last_seq = last;
        st.unread = last.saturating_sub(st.consumers.get(OPERATOR_CONSUMER).copied().unwrap_or(0));
        let mut bytes =
            serde_json::to_vec_pretty(&st).map_err(|e| StoreError::Rejected(e.to_string()))?;
        bytes.push(b'\n');
        // The backup is what saves the cursors if state.json is ever damaged.
        for name in [STATE, STATE_BAK] {
            let path = self.path(name);
            write_atomic(&path, &bytes).map_err(|e| StoreError::io(&path, "write", e))?;
        }
        // Writers of state.json hold the inbox lock (as the caller does), so the file cannot
        // change between the write and this stat.
        if let Ok(Some(stamp)) = Stamp::of(&self.path(STATE)) {
            *self.cache.lock().unwrap_or_else(|p| p.into_inner()) = Some((stamp, st));
        }
        Ok(())
    }

    /// Move a cursor forward in memory; the saver writes it within `LAZY_SAVE_WINDOW`.
    pub(super) fn advance_lazy(
        self: &Arc<Self>,
        consumer: &str,
        seq: u64,
    ) -> Result<u64, StoreError> {
        let saved = self
            .load_saved()?
            .consumers
            .get(consumer)
            .copied()
            .unwrap_or(0);
        let mut pending = self.pending.lock().unwrap_or_else(|p| p.into_inner());
        let now = match pending.get_mut(consumer) {
            Some(c) => {
                *c = (*c).max(seq).max(saved);
                *c
            }
            // Not past the saved cursor (a re-read, a pull with nothing new): nothing to save.
            None if seq <= saved => return Ok(saved),
            None => {
                pending.insert(consumer.to_string(), seq);
                seq
            }
        };
        drop(pending);
        self.saver
            .request(
                self,
                |s| &s.saver,
                |s| {
                    s.save_pending()
                        .map_err(|e| format!("inbox cursors not saved: {e}"))
                },
            )
            .map_err(StoreError::Rejected)?;
        Ok(now)
    }

    /// Drop an unsaved move (an explicit rewind replaces it).
    pub(super) fn forget_pending(&self, consumer: &str) {
        self.pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .remove(consumer);
    }

    /// Write the lazily moved cursors (merged: a cursor never moves back).
    ///
    /// The moves stay in `pending` until they are on disk: a reader between the write and its
    /// completion must still see them, or it would hand out the same items again.
    pub(super) fn save_pending(&self) -> Result<(), StoreError> {
        let pending = self
            .pending
            .lock()
            .unwrap_or_else(|p| p.into_inner())
            .clone();
        if pending.is_empty() {
            return Ok(());
        }
        let result = (|| {
            let _lock = FileLock::exclusive(&self.path(".lock"))?;
            let last = super::inbox::index_len(&self.dir)?;
            self.update(last, |st| {
                for (name, seq) in &pending {
                    let c = st.consumers.entry(name.clone()).or_insert(0);
                    *c = (*c).max((*seq).min(last));
                }
            })
        })();
        if result.is_ok() {
            // Saved: drop the moves that were written, unless one moved further meanwhile (or
            // was replaced by an explicit rewind, which removed it).
            let mut now = self.pending.lock().unwrap_or_else(|p| p.into_inner());
            for (name, seq) in pending {
                if now.get(&name) == Some(&seq) {
                    now.remove(&name);
                }
            }
        }
        // On failure they stay pending for the next attempt; readers still see them.
        result
    }

    /// Stop the saver and write what is pending (the inbox is going away).
    pub(super) fn shutdown(&self) {
        self.saver.stop();
        if let Err(e) = self.save_pending() {
            tracing::error!("inbox cursors not saved at exit: {e}");
        }
    }
}

fn read_state_file(path: &Path) -> Result<Option<InboxState>, String> {
    match fs::read(path) {
        Ok(b) => serde_json::from_slice(&b)
            .map(Some)
            .map_err(|e| format!("{} is unreadable ({e})", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!("{} cannot be read ({e})", path.display())),
    }
}
