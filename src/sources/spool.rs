//! The spool folder: drop `.json` or `.eml` files in, opsdesk ingests them.
//!
//! Life of a file:
//! 1. It is ignored while its name is hidden (`.x.json`), ends in anything but `.json`/`.eml`
//!    (`x.json.tmp`, `x.json.part`), it was modified within the settle time, or some process
//!    still has it open for writing (a writer that paused after an e-mail's headers: reading
//!    it then would ingest it cut short). Writers should write to a temporary name and rename:
//!    that is atomic. A file that changes while it is read was written in place by a writer
//!    the checks above did not see (one that reopens the file for each part): it is rejected
//!    with a reason saying so, never ingested as it happened to be.
//! 2. It is parsed and every item is validated before anything is stored, so a file is
//!    ingested whole or rejected whole.
//! 3. Its items go to the [`Sink`] (durable append). Only then is the file moved to `done/`: a
//!    crash in between re-ingests it on restart, and dedup by id makes that harmless (items
//!    without an id get one derived from the file's bytes for exactly this reason).
//! 4. A file that cannot be ingested as it is goes to `rejected/<name>` with
//!    `rejected/<name>.reason.txt` saying why. A sink failure (disk full …) is not the file's
//!    fault: the file stays where it is and the error is returned.
//!
//! An item whose profile is unclear (a `.json` item without `profile`, any `.eml`) gets the
//! default profile, or with [`Spool::with_classifier`] the profile the `[classification]` rules
//! give it (`sources/classify.rs`), before its attachments are stored.
//!
//! Moves never overwrite: a name already taken in `done/` or `rejected/` gets a numeric suffix.

use std::collections::{BTreeMap, BTreeSet};
use std::ffi::{OsStr, OsString};
use std::fs::{self, OpenOptions};
use std::io::{self, ErrorKind, Read};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Mutex;
use std::time::{Duration, SystemTime};

use anyhow::Context;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

use super::classify::{Classifier, META_UNCLEAR};
use super::{IngestFailure, Sink};
use crate::domain::IngestError;
use crate::domain::{Channel, NewMessage, Party, UNASSIGNED};
use crate::paths::{ensure_private_dir, sync_dir, write_atomic};
use crate::sanitize::{self, MAX_FIELD_CHARS};
use crate::store::attachments::{AttachmentStore, Content, Incoming};
use crate::store::inbox::Appended;

/// Files larger than this are rejected unread.
pub(crate) const MAX_FILE_BYTES: u64 = 10 * 1024 * 1024;
/// A file modified more recently than this is assumed to be still being written.
pub(crate) const DEFAULT_SETTLE: Duration = Duration::from_millis(500);

const DONE: &str = "done";
const REJECTED: &str = "rejected";
const REASON_SUFFIX: &str = ".reason.txt";

/// What one poll did.
#[derive(Debug, Default, Clone, PartialEq, Serialize)]
pub struct SpoolReport {
    /// Items newly stored.
    pub ingested: usize,
    /// Items whose id was already stored (a file dropped twice, a re-poll after a crash).
    pub duplicates: usize,
    /// (file, reason) for each file moved to `rejected/`. Both are sanitized for display.
    pub rejected: Vec<(String, String)>,
    /// Files left for a later poll because they were modified too recently.
    pub pending: usize,
}

pub struct Spool {
    dir: PathBuf,
    default_profile: String,
    settle: Duration,
    /// When set, items naming another profile are rejected up front.
    profiles: Option<BTreeSet<String>>,
    /// Two polls of one spool must not race for the same file.
    polling: Mutex<()>,
    /// Where `.eml` attachments' bytes go; without one, attachments are not taken in.
    attachments: Option<AttachmentStore>,
    /// `[classification]`: where items of unclear profile go; without it, the default profile.
    classifier: Option<Classifier>,
}

impl Spool {
    /// Use `dir` as the spool, creating it and its `done/` and `rejected/` folders (0700).
    pub fn new(dir: PathBuf, default_profile: String) -> anyhow::Result<Spool> {
        for d in [dir.clone(), dir.join(DONE), dir.join(REJECTED)] {
            ensure_private_dir(&d)?;
        }
        Ok(Spool {
            dir,
            default_profile,
            settle: DEFAULT_SETTLE,
            profiles: None,
            polling: Mutex::new(()),
            attachments: None,
            classifier: None,
        })
    }

    /// How long a file must be left unmodified before it is read.
    pub fn with_settle(mut self, settle: Duration) -> Spool {
        self.settle = settle;
        self
    }

    /// Reject items that name a profile outside `profiles` (instead of failing in the sink).
    pub fn with_profiles(mut self, profiles: impl IntoIterator<Item = String>) -> Spool {
        self.profiles = Some(profiles.into_iter().collect());
        self
    }

    /// Place items of unclear profile by `[classification]` (the reserved profile `unassigned`
    /// is then accepted too).
    pub fn with_classifier(mut self, classifier: Option<Classifier>) -> Spool {
        self.classifier = classifier;
        self
    }

    /// Take in `.eml` attachments: bytes into `store`, metadata on the record.
    pub fn with_attachments(mut self, store: AttachmentStore) -> Spool {
        self.attachments = Some(store);
        self
    }

    pub fn dir(&self) -> &Path {
        &self.dir
    }

    /// Ingest every settled file in the spool, oldest name first.
    ///
    /// Returns an error (after logging what was already done) when the sink fails for a reason
    /// other than the content, or a file cannot be moved: the file concerned and all later
    /// ones stay in place for the next poll.
    pub fn poll_once(&self, sink: &dyn Sink) -> anyhow::Result<SpoolReport> {
        let _one_at_a_time = self.polling.lock().unwrap_or_else(|p| p.into_inner());
        let mut report = SpoolReport::default();
        let (names, odd) = self.candidates()?;
        for (name, reason) in odd {
            self.reject(&name, &reason, &mut report)?;
        }
        let writing = self.being_written(&names);
        for name in names {
            if writing.contains(&name) {
                tracing::debug!(file = %display_name(&name), "spool file still open for writing");
                report.pending += 1;
                continue;
            }
            if let Err(e) = self.process(&name, sink, &mut report) {
                if report.ingested + report.duplicates + report.rejected.len() > 0 {
                    tracing::info!(
                        ingested = report.ingested,
                        duplicates = report.duplicates,
                        rejected = report.rejected.len(),
                        "spool poll stopped early"
                    );
                }
                return Err(e);
            }
        }
        Ok(report)
    }

    /// Regular files directly in the spool with a `.json` / `.eml` name, sorted by name; and
    /// entries with such a name that are not regular files (a symbolic link, a FIFO, a
    /// directory), with the reason they are refused: they are moved to `rejected/` as they are
    /// (a link is moved, never followed), so they do not sit in the spool unexplained.
    #[allow(clippy::type_complexity)]
    fn candidates(&self) -> anyhow::Result<(Vec<OsString>, Vec<(OsString, String)>)> {
        let mut names = Vec::new();
        let mut odd = Vec::new();
        let entries = fs::read_dir(&self.dir)
            .with_context(|| format!("cannot list spool {}", self.dir.display()))?;
        for entry in entries {
            let entry =
                entry.with_context(|| format!("cannot list spool {}", self.dir.display()))?;
            let name = entry.file_name();
            if kind_of(&name).is_none() {
                continue;
            }
            // file_type() does not follow symlinks.
            match entry.file_type() {
                Ok(t) if t.is_file() => names.push(name),
                Ok(t) => odd.push((name, not_a_file(t))),
                // Vanished since the listing: nothing to do.
                Err(_) => {}
            }
        }
        names.sort();
        odd.sort();
        Ok((names, odd))
    }

    /// The files among `names` that a process holds open for writing (one `/proc` scan per
    /// poll, and only when there are files).
    fn being_written(&self, names: &[OsString]) -> BTreeSet<OsString> {
        use std::os::unix::fs::MetadataExt;
        let ids: Vec<(OsString, super::open_writers::FileId)> = names
            .iter()
            .filter_map(|n| {
                let m = fs::symlink_metadata(self.dir.join(n)).ok()?;
                Some((n.clone(), (m.dev(), m.ino())))
            })
            .collect();
        let wanted = ids.iter().map(|(_, id)| *id).collect();
        let open = super::open_writers::open_for_writing(&wanted);
        ids.into_iter()
            .filter(|(_, id)| open.contains(id))
            .map(|(n, _)| n)
            .collect()
    }

    fn process(
        &self,
        name: &OsStr,
        sink: &dyn Sink,
        report: &mut SpoolReport,
    ) -> anyhow::Result<()> {
        let path = self.dir.join(name);
        let shown = display_name(name);
        let bytes = match self.read_settled(&path)? {
            Fetched::Gone => return Ok(()),
            Fetched::Pending => {
                report.pending += 1;
                return Ok(());
            }
            Fetched::Bad(reason) => return self.reject(name, &reason, report),
            Fetched::Bytes(b) => b,
        };
        let parsed = match kind_of(name) {
            Some(Kind::Json) => {
                parse_json(&bytes, &self.default_profile, &shown).map(|items| (items, Vec::new()))
            }
            Some(Kind::Eml) => parse_eml(&bytes, &self.default_profile, &shown),
            None => return Ok(()),
        };
        let (mut items, attached) = match parsed
            .and_then(|(items, attached)| self.validate(items).map(|items| (items, attached)))
        {
            Ok(parsed) => parsed,
            Err(reason) => return self.reject(name, &reason, report),
        };
        for item in &mut items {
            Classifier::settle(self.classifier.as_ref(), item);
        }
        // Bytes first, then the record that names them: a crash in between leaves unreferenced
        // bytes (reused when the file is read again), never a record naming missing bytes.
        if let (Some(store), Some(first), false) =
            (&self.attachments, items.first_mut(), attached.is_empty())
        {
            let profile = first.profile.clone();
            first.attachments = store.store_message(&profile, attached).with_context(|| {
                format!(
                    "spool file {shown}: its attachments could not be stored in {}; the file stays for the next poll",
                    store.dir().display()
                )
            })?;
        }

        // One durable batch per file: a file's items are stored together, or (a content
        // error) none of them and the file is rejected.
        let count = items.len();
        let (mut new, mut dup) = (0, 0);
        match sink.ingest_batch(items) {
            Ok(results) => {
                for r in results {
                    match r {
                        Appended::New(_) => new += 1,
                        Appended::Duplicate { .. } => dup += 1,
                    }
                }
            }
            // The content is at fault: retrying cannot help. The error names the item.
            Err(bad @ IngestFailure::Refused { .. }) => {
                return self.reject(name, &bad.to_string(), report);
            }
            Err(IngestFailure::Store(e)) => {
                return Err(e.context(format!(
                    "spool file {shown}: its {count} item(s) were not stored; the file stays for the next poll"
                )));
            }
        }
        let dest = move_no_clobber(&path, &self.dir.join(DONE), name)?;
        tracing::debug!(file = %shown, new, dup, done = %dest.display(), "spool file ingested");
        report.ingested += new;
        report.duplicates += dup;
        Ok(())
    }

    /// The file's bytes, once it has settled.
    fn read_settled(&self, path: &Path) -> anyhow::Result<Fetched> {
        // O_NOFOLLOW: a symlink swapped in after listing is not followed. O_NONBLOCK: a FIFO
        // swapped in does not hang the poller (it is rejected below as not a regular file).
        let file = OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW | libc::O_NONBLOCK)
            .open(path);
        let mut file = match file {
            Ok(f) => f,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(Fetched::Gone),
            Err(e) if e.raw_os_error() == Some(libc::ELOOP) => return Ok(Fetched::Gone),
            Err(e) => return Ok(Fetched::Bad(format!("cannot open the file: {e}"))),
        };
        let meta = file
            .metadata()
            .with_context(|| format!("cannot stat {}", path.display()))?;
        if !meta.is_file() {
            return Ok(Fetched::Gone);
        }
        if !self.settled(meta.modified().ok()) {
            return Ok(Fetched::Pending);
        }
        if meta.len() > MAX_FILE_BYTES {
            return Ok(Fetched::Bad(too_big(meta.len())));
        }
        let mut bytes = Vec::with_capacity(meta.len() as usize);
        // Read at most one byte past the limit, in case the file grew after the stat.
        if let Err(e) = (&mut file).take(MAX_FILE_BYTES + 1).read_to_end(&mut bytes) {
            return Ok(Fetched::Bad(format!("cannot read the file: {e}")));
        }
        if bytes.len() as u64 > MAX_FILE_BYTES {
            return Ok(Fetched::Bad(too_big(bytes.len() as u64)));
        }
        // Written to while we read it: what we have may be cut short.
        let after = file
            .metadata()
            .with_context(|| format!("cannot stat {}", path.display()))?;
        if after.len() != bytes.len() as u64
            || after.modified().ok() != meta.modified().ok()
            || meta.len() != bytes.len() as u64
        {
            return Ok(Fetched::Bad(
                "the file changed while it was being read: it is still being written in place, so what was read may be incomplete. Write it under a temporary name (`x.eml.tmp` or `.x.eml`) and rename it into place when it is complete; then drop it in again".into(),
            ));
        }
        Ok(Fetched::Bytes(bytes))
    }

    /// Whether a file last modified at `mtime` is done being written. A modification time
    /// far in the future (a copied file, a skewed clock) does not hold a file back forever.
    fn settled(&self, mtime: Option<SystemTime>) -> bool {
        let Some(mtime) = mtime else {
            return true;
        };
        let now = SystemTime::now();
        // Distance either way: in the past (the usual case) or in the future.
        let age = match now.duration_since(mtime) {
            Ok(d) => d,
            Err(e) => e.duration(),
        };
        age >= self.settle
    }

    fn validate(&self, items: Vec<NewMessage>) -> Result<Vec<NewMessage>, String> {
        let count = items.len();
        for (i, msg) in items.iter().enumerate() {
            if let Err(e) = crate::domain::check_identity(msg) {
                return Err(item_prefix(i, count) + &e.to_string());
            }
            if let Some(known) = &self.profiles
                && !known.contains(&msg.profile)
                && !(self.classifier.is_some() && msg.profile == UNASSIGNED)
            {
                let e = IngestError::UnknownProfile {
                    profile: sanitize::one_line(&msg.profile, 64),
                    known: known.iter().cloned().collect(),
                };
                return Err(item_prefix(i, count) + &e.to_string());
            }
        }
        Ok(items)
    }

    /// Move the file to `rejected/` with a reason file next to it.
    fn reject(&self, name: &OsStr, reason: &str, report: &mut SpoolReport) -> anyhow::Result<()> {
        // Reasons quote file content (field names, values): keep them free of escapes.
        let reason = sanitize::clean_text(reason, 4_000);
        let shown = display_name(name);
        let rejected_dir = self.dir.join(REJECTED);
        let src = self.dir.join(name);
        let dest = reserve_name(&src, &rejected_dir, name, REASON_SUFFIX)?;
        let mut reason_path = dest.clone().into_os_string();
        reason_path.push(REASON_SUFFIX);
        write_atomic(Path::new(&reason_path), format!("{reason}\n").as_bytes())
            .with_context(|| format!("cannot write {}", Path::new(&reason_path).display()))?;
        finish_move(&src, &dest, &rejected_dir, &self.dir)?;
        tracing::warn!(file = %shown, reason = %reason, "spool file rejected");
        report.rejected.push((shown, reason));
        Ok(())
    }
}

enum Fetched {
    /// Vanished (or replaced by something that is not a regular file) since the listing.
    Gone,
    /// Modified too recently.
    Pending,
    /// Cannot be ingested; the reason.
    Bad(String),
    Bytes(Vec<u8>),
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum Kind {
    Json,
    Eml,
}

/// The kind of a spool file by name, or `None` for names the spool ignores.
fn kind_of(name: &OsStr) -> Option<Kind> {
    let b = name.as_bytes();
    if b.starts_with(b".") {
        return None;
    }
    let ends =
        |ext: &[u8]| b.len() > ext.len() && b[b.len() - ext.len()..].eq_ignore_ascii_case(ext);
    if ends(b".json") {
        Some(Kind::Json)
    } else if ends(b".eml") {
        Some(Kind::Eml)
    } else {
        None
    }
}

/// A file name as it may appear in reports and logs.
/// Why a spool entry that is not a regular file is refused.
fn not_a_file(t: fs::FileType) -> String {
    use std::os::unix::fs::FileTypeExt;
    let what = if t.is_symlink() {
        "a symbolic link (opsdesk never follows links in the spool; copy the file in, or write it and rename it into place)"
    } else if t.is_dir() {
        "a directory"
    } else if t.is_fifo() {
        "a named pipe (FIFO); write a regular file and rename it into place"
    } else if t.is_socket() {
        "a socket"
    } else {
        "a device or other special file"
    };
    format!("not a regular file: {what}")
}

fn display_name(name: &OsStr) -> String {
    sanitize::one_line(&name.to_string_lossy(), MAX_FIELD_CHARS)
}

fn too_big(len: u64) -> String {
    format!("the file is {len} bytes; at most {MAX_FILE_BYTES} (10 MiB) are accepted")
}

fn item_prefix(i: usize, count: usize) -> String {
    if count > 1 {
        format!("item {i}: ")
    } else {
        String::new()
    }
}

/// `name` with `.n` before its extension (`a.json` → `a.2.json`); `n == 0` is the name itself.
fn numbered(name: &OsStr, n: u32) -> OsString {
    if n == 0 {
        return name.to_os_string();
    }
    let b = name.as_bytes();
    let (stem, ext) = match b.iter().rposition(|&c| c == b'.') {
        Some(p) if p > 0 => b.split_at(p),
        _ => (b, &b""[..]),
    };
    let mut out = stem.to_vec();
    out.extend_from_slice(format!(".{n}").as_bytes());
    out.extend_from_slice(ext);
    OsString::from_vec(out)
}

/// Hard-link `src` into `dir` under `name` or the first free numbered variant of it (for which
/// `<variant><companion>` is free too, when a companion suffix is given). A hard link fails
/// rather than replace an existing file, so this never overwrites, even against a racing
/// writer. Returns the reserved path; `src` is still in place.
fn reserve_name(src: &Path, dir: &Path, name: &OsStr, companion: &str) -> anyhow::Result<PathBuf> {
    for n in 0..100_000u32 {
        let candidate = dir.join(numbered(name, n));
        if !companion.is_empty() {
            let mut c = candidate.clone().into_os_string();
            c.push(companion);
            if Path::new(&c).symlink_metadata().is_ok() {
                continue;
            }
        }
        match fs::hard_link(src, &candidate) {
            Ok(()) => return Ok(candidate),
            Err(e) if e.kind() == ErrorKind::AlreadyExists => continue,
            // File systems without hard links: check, then rename (racy only against
            // another writer in our own done/ or rejected/, which nothing else writes).
            Err(e) if is_unsupported(&e) => {
                if candidate.symlink_metadata().is_ok() {
                    continue;
                }
                fs::rename(src, &candidate).with_context(|| {
                    format!("cannot move {} to {}", src.display(), candidate.display())
                })?;
                return Ok(candidate);
            }
            Err(e) => {
                return Err(anyhow::Error::new(e).context(format!(
                    "cannot move {} to {}",
                    src.display(),
                    candidate.display()
                )));
            }
        }
    }
    anyhow::bail!("{}: no free name for {}", dir.display(), src.display())
}

fn is_unsupported(e: &io::Error) -> bool {
    matches!(
        e.raw_os_error(),
        Some(libc::EPERM) | Some(libc::EOPNOTSUPP) | Some(libc::EXDEV) | Some(libc::EMLINK)
    )
}

/// Complete a move started by [`reserve_name`]: remove the source name (if the fallback
/// rename has not already) and make both directory changes durable.
fn finish_move(src: &Path, dest: &Path, dest_dir: &Path, src_dir: &Path) -> anyhow::Result<()> {
    match fs::remove_file(src) {
        Ok(()) => {}
        Err(e) if e.kind() == ErrorKind::NotFound => {}
        Err(e) => {
            return Err(anyhow::Error::new(e).context(format!(
                "{} was copied to {} but cannot be removed from the spool",
                src.display(),
                dest.display()
            )));
        }
    }
    make_private(dest)?;
    sync_dir(dest_dir).with_context(|| format!("cannot sync {}", dest_dir.display()))?;
    sync_dir(src_dir).with_context(|| format!("cannot sync {}", src_dir.display()))?;
    Ok(())
}

/// Files the engine took over from other writers become private (0600, directories 0700);
/// a symbolic link is left as it is (chmod would follow it).
fn make_private(path: &Path) -> anyhow::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let meta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(()),
        Err(e) => {
            return Err(anyhow::Error::new(e).context(format!("cannot stat {}", path.display())));
        }
    };
    let mode = if meta.is_dir() {
        crate::paths::DIR_MODE
    } else if meta.is_file() {
        crate::paths::FILE_MODE
    } else {
        return Ok(());
    };
    if meta.permissions().mode() & 0o077 != 0 {
        fs::set_permissions(path, fs::Permissions::from_mode(mode))
            .with_context(|| format!("cannot make {} private", path.display()))?;
    }
    Ok(())
}

/// Move `src` into `dir` without overwriting anything; returns where it went.
fn move_no_clobber(src: &Path, dir: &Path, name: &OsStr) -> anyhow::Result<PathBuf> {
    let dest = reserve_name(src, dir, name, "")?;
    let src_dir = src.parent().unwrap_or(Path::new("."));
    finish_move(src, &dest, dir, src_dir)?;
    Ok(dest)
}

// ------------------------------------------------------------------------ .json files

/// One item of a `.json` spool file. Unknown fields are an error, so a typo (`sbject`) is
/// reported instead of silently dropping data.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonItem {
    id: Option<String>,
    profile: Option<String>,
    channel: Option<String>,
    from: Option<Value>,
    to: Option<Value>,
    subject: Option<String>,
    body: Option<String>,
    text: Option<String>,
    html: Option<bool>,
    ts: Option<String>,
    thread_id: Option<String>,
    meta: Option<BTreeMap<String, Value>>,
}

/// `spool:` + the first 32 hex digits of the file's SHA-256: dropping the same bytes again
/// yields the same ids, so the inbox stores them once.
fn content_id(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    format!("spool:{}", &hex::encode(digest)[..32])
}

fn parse_json(bytes: &[u8], default_profile: &str, file: &str) -> Result<Vec<NewMessage>, String> {
    let text = std::str::from_utf8(bytes).map_err(|e| {
        format!(
            "not UTF-8: invalid byte sequence at byte offset {}",
            e.valid_up_to()
        )
    })?;
    let value: Value = serde_json::from_str(text).map_err(|e| format!("not valid JSON: {e}"))?;
    let base_id = content_id(bytes);
    let objects = match value {
        Value::Object(_) => vec![(None, value)],
        Value::Array(items) if items.is_empty() => {
            return Err("the file holds an empty array: nothing to ingest".into());
        }
        Value::Array(items) => items
            .into_iter()
            .enumerate()
            .map(|(i, v)| (Some(i), v))
            .collect(),
        _ => return Err("expected a JSON object, or an array of objects".into()),
    };
    let now = crate::domain::now();
    objects
        .into_iter()
        .map(|(index, v)| {
            let prefix = index.map(|i| format!("item {i}: ")).unwrap_or_default();
            let default_id = match index {
                Some(i) => format!("{base_id}#{i}"),
                None => base_id.clone(),
            };
            json_item(v, default_id, default_profile, file, now).map_err(|e| prefix + &e)
        })
        .collect()
}

fn json_item(
    v: Value,
    default_id: String,
    default_profile: &str,
    file: &str,
    now: OffsetDateTime,
) -> Result<NewMessage, String> {
    if !v.is_object() {
        return Err("expected an object".into());
    }
    let item: JsonItem = serde_path_to_error::deserialize(v).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner().to_string();
        if path == "." || inner.contains(&format!("`{path}`")) {
            inner
        } else {
            format!("field `{path}`: {inner}")
        }
    })?;

    let channel = match item.channel.as_deref() {
        None => Channel::Spool,
        Some(c) => Channel::from_str(c).map_err(|e| format!("field `channel`: {e}"))?,
    };
    let from = match item.from {
        None => {
            return Err(
                "missing field `from` (\"Name <address>\" or {\"name\", \"address\"})".into(),
            );
        }
        Some(v) => party(v).map_err(|e| format!("field `from`: {e}"))?,
    };
    let to = match item.to {
        None | Some(Value::Null) => Vec::new(),
        Some(Value::Array(list)) => list
            .into_iter()
            .enumerate()
            .map(|(i, v)| party(v).map_err(|e| format!("field `to[{i}]`: {e}")))
            .collect::<Result<_, _>>()?,
        Some(v) => vec![party(v).map_err(|e| format!("field `to`: {e}"))?],
    };
    let body = match (item.body, item.text) {
        (Some(_), Some(_)) => return Err("give either `body` or `text`, not both".into()),
        (Some(b), None) | (None, Some(b)) => b,
        (None, None) => return Err("missing field `body` (or `text`)".into()),
    };
    let ts = match item.ts.as_deref() {
        None => now,
        Some(s) => OffsetDateTime::parse(s, &Rfc3339).map_err(|_| {
            format!(
                "field `ts`: {:?} is not an RFC 3339 timestamp (like 2025-01-31T09:30:00Z)",
                sanitize::one_line(s, 64)
            )
        })?,
    };
    let mut meta = item.meta.unwrap_or_default();
    // Only the spool says whether it could tell the profile, only the classifier which rule
    // placed an item, and only the operator's assignments what it was assigned from: a file
    // supplies none of these (a forged rule would make a source's profile assignable).
    meta.remove(META_UNCLEAR);
    meta.remove(crate::domain::META_PROFILE_RULE);
    meta.remove(crate::domain::META_PROFILE_ASSIGNED);
    if item.profile.is_none() {
        meta.insert(META_UNCLEAR.into(), Value::Bool(true));
    }
    meta.entry("source".into())
        .or_insert_with(|| Value::from("spool"));
    meta.entry("file".into())
        .or_insert_with(|| Value::from(file));

    Ok(NewMessage {
        id: item.id.unwrap_or(default_id),
        profile: item.profile.unwrap_or_else(|| default_profile.to_string()),
        channel,
        thread_id: item.thread_id,
        from,
        to,
        subject: item.subject,
        ts,
        body,
        html: item.html.unwrap_or(false),
        meta,
        attachments: Vec::new(),
    })
}

/// A party from `"Name <address>"`, `"address"` or `{"name": …, "address": …}`.
fn party(v: Value) -> Result<Party, String> {
    let p = match v {
        Value::String(s) => parse_mailbox(&s),
        Value::Object(map) => {
            let mut p = Party::default();
            for (k, v) in map {
                let slot = match k.as_str() {
                    "name" => &mut p.name,
                    "address" => &mut p.address,
                    _ => {
                        return Err(format!(
                            "unknown field `{}`, expected `name` or `address`",
                            sanitize::one_line(&k, 64)
                        ));
                    }
                };
                match v {
                    Value::String(s) => *slot = s,
                    Value::Null => {}
                    _ => return Err(format!("`{k}` must be a string")),
                }
            }
            p
        }
        _ => {
            return Err(
                "expected a string \"Name <address>\" or an object {\"name\", \"address\"}".into(),
            );
        }
    };
    if p.name.trim().is_empty() && p.address.trim().is_empty() {
        return Err("neither a name nor an address".into());
    }
    Ok(p)
}

/// `Name <addr>` (name optionally quoted), `<addr>`, a bare address, or a bare name.
fn parse_mailbox(s: &str) -> Party {
    let s = s.trim();
    if let Some(open) = s.rfind('<')
        && let Some(close) = s[open..].find('>')
    {
        let address = s[open + 1..open + close].trim();
        let name = s[..open].trim().trim_matches('"').trim();
        return Party::new(name, address);
    }
    if s.contains('@') {
        Party::new("", s)
    } else {
        Party::new(s, "")
    }
}

// ------------------------------------------------------------------------ .eml files

/// The message, and its attachments (MIME parts that are not the chosen body: attached files,
/// inline images, attached messages) still to be stored.
fn parse_eml(
    bytes: &[u8],
    default_profile: &str,
    file: &str,
) -> Result<(Vec<NewMessage>, Vec<Incoming>), String> {
    use mail_parser::{MessageParser, MimeHeaders, PartType};

    let msg = MessageParser::default()
        .parse(bytes)
        .filter(|m| !m.parts.is_empty())
        .ok_or("not an email: no message headers found")?;
    let from = msg
        .from()
        .and_then(|a| a.first())
        .map(|a| {
            Party::new(
                a.name().unwrap_or_default(),
                a.address().unwrap_or_default(),
            )
        })
        .filter(|p| !p.name.trim().is_empty() || !p.address.trim().is_empty())
        .ok_or("not an email: no From: header")?;
    let to = msg
        .to()
        .map(|list| {
            list.iter()
                .map(|a| {
                    Party::new(
                        a.name().unwrap_or_default(),
                        a.address().unwrap_or_default(),
                    )
                })
                .collect()
        })
        .unwrap_or_default();

    // Keep the angle brackets: that is the form Graph reports as internetMessageId, so the
    // same mail arriving through both paths has the same id.
    let id = match msg.message_id().map(str::trim).filter(|m| !m.is_empty()) {
        Some(mid) => format!("<{mid}>"),
        None => content_id(bytes),
    };
    let thread_id = msg
        .references()
        .as_text_list()
        .and_then(|refs| refs.first().map(|r| r.to_string()))
        .or_else(|| msg.in_reply_to().as_text().map(str::to_string))
        .map(|r| format!("<{}>", r.trim()));
    let ts = msg
        .date()
        .filter(|d| d.is_valid())
        .and_then(|d| OffsetDateTime::from_unix_timestamp(d.to_timestamp()).ok())
        .unwrap_or_else(crate::domain::now);

    // Prefer the plain-text alternative; fall back to the HTML one (converted at ingestion).
    let part_body = |ids: &[u32], want_html: bool| {
        ids.iter()
            .find_map(|&i| match msg.parts.get(i as usize).map(|p| &p.body) {
                Some(PartType::Text(t)) if !want_html => Some(t.to_string()),
                Some(PartType::Html(h)) if want_html => Some(h.to_string()),
                _ => None,
            })
    };
    let (body, html) = match part_body(&msg.text_body, false) {
        Some(t) => (t, false),
        None => match part_body(&msg.html_body, true) {
            Some(h) => (h, true),
            None => (String::new(), false),
        },
    };

    // mail-parser decodes RFC 2231 (`filename*=UTF-8''…`, continuations) and RFC 2047
    // (`=?UTF-8?B?…?=`) names; the store neutralizes them. Only the parts a record lists are
    // copied out; the rest are counted (meta) and dropped.
    let carried = msg.attachments().count();
    let attached = msg
        .attachments()
        .take(crate::sanitize::MAX_ATTACHMENTS)
        .map(|part| {
            let media_type = match part.content_type() {
                Some(ct) => format!("{}/{}", ct.ctype(), ct.subtype().unwrap_or("octet-stream")),
                None if part.is_message() => "message/rfc822".into(),
                None => "application/octet-stream".into(),
            };
            let inline = part.content_disposition().map_or_else(
                || matches!(part.body, PartType::InlineBinary(_)),
                |d| d.is_inline(),
            );
            let name = part
                .attachment_name()
                .map(str::to_string)
                .unwrap_or_else(|| match part.message().and_then(|m| m.subject()) {
                    Some(subject) => format!("{subject}.eml"),
                    None => String::new(),
                });
            Incoming {
                name,
                media_type,
                inline,
                content: Content::Bytes(part.contents().to_vec()),
            }
        })
        .collect();

    let mut meta = BTreeMap::new();
    meta.insert("source".into(), Value::from("spool"));
    meta.insert("file".into(), Value::from(file));
    // A mail file names no profile: whose it is, is for `[classification]` to say.
    meta.insert(META_UNCLEAR.into(), Value::Bool(true));
    crate::store::attachments::note_dropped(&mut meta, carried);
    Ok((
        vec![NewMessage {
            id,
            profile: default_profile.to_string(),
            channel: Channel::Email,
            thread_id,
            from,
            to,
            subject: msg.subject().map(str::to_string),
            ts,
            body,
            html,
            meta,
            attachments: Vec::new(),
        }],
        attached,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_spool_can_be_shared_between_threads() {
        fn is_send_sync<T: Send + Sync>() {}
        is_send_sync::<Spool>();
    }

    #[test]
    fn names_are_classified_by_extension_case_insensitively() {
        assert_eq!(kind_of(OsStr::new("a.json")), Some(Kind::Json));
        assert_eq!(kind_of(OsStr::new("A.JSON")), Some(Kind::Json));
        assert_eq!(kind_of(OsStr::new("mail.Eml")), Some(Kind::Eml));
        for ignored in [
            ".hidden.json",
            "a.json.tmp",
            "a.json.part",
            "a.txt",
            ".json",
            "json",
        ] {
            assert_eq!(kind_of(OsStr::new(ignored)), None, "{ignored}");
        }
    }

    #[test]
    fn numbered_names_keep_the_extension() {
        assert_eq!(numbered(OsStr::new("a.json"), 0), "a.json");
        assert_eq!(numbered(OsStr::new("a.json"), 2), "a.2.json");
        assert_eq!(numbered(OsStr::new("noext"), 1), "noext.1");
    }

    #[test]
    fn mailboxes_parse_in_the_usual_forms() {
        assert_eq!(
            parse_mailbox("Ada Lovelace <ada@example.com>"),
            Party::new("Ada Lovelace", "ada@example.com")
        );
        assert_eq!(
            parse_mailbox("\"Doe, Jane\" <jane@x.example>"),
            Party::new("Doe, Jane", "jane@x.example")
        );
        assert_eq!(
            parse_mailbox("<a@b.example>"),
            Party::new("", "a@b.example")
        );
        assert_eq!(parse_mailbox("a@b.example"), Party::new("", "a@b.example"));
        assert_eq!(parse_mailbox("CI bot"), Party::new("CI bot", ""));
    }

    #[test]
    fn json_errors_name_the_field() {
        let e =
            parse_json(br#"{"from":"a@b","body":"x","sbject":"typo"}"#, "work", "f").unwrap_err();
        assert!(e.contains("unknown field `sbject`"), "{e}");
        let e = parse_json(
            br#"[{"from":"a@b","body":"x"},{"from":"a@b","body":"x","ts":"yesterday"}]"#,
            "w",
            "f",
        )
        .unwrap_err();
        assert!(e.starts_with("item 1: field `ts`"), "{e}");
        let e = parse_json(br#"{"from":"a@b","body":7}"#, "w", "f").unwrap_err();
        assert!(e.contains("body"), "{e}");
        let e = parse_json(br#"{"body":"x"}"#, "w", "f").unwrap_err();
        assert!(e.contains("missing field `from`"), "{e}");
        let e = parse_json(
            br#"{"from":{"name":"x","adress":"y"},"body":"x"}"#,
            "w",
            "f",
        )
        .unwrap_err();
        assert!(e.contains("`adress`"), "{e}");
    }

    #[test]
    fn json_defaults_fill_in_id_profile_channel_and_time() {
        let bytes = br#"{"from":"CI <ci@x.example>","subject":"s","text":"hello"}"#;
        let items = parse_json(bytes, "work", "f.json").unwrap();
        let m = &items[0];
        assert_eq!(m.id, content_id(bytes));
        assert!(m.id.starts_with("spool:") && m.id.len() == "spool:".len() + 32);
        assert_eq!(m.profile, "work");
        assert_eq!(m.channel, Channel::Spool);
        assert_eq!(m.body, "hello");
        assert_eq!(m.meta["file"], "f.json");
    }

    #[test]
    fn settle_time_counts_from_the_modification_time_either_way() {
        let dir = tempfile::tempdir().unwrap();
        let s = Spool::new(dir.path().join("s"), "w".into()).unwrap();
        let now = SystemTime::now();
        assert!(!s.settled(Some(now)));
        assert!(s.settled(Some(now - Duration::from_secs(2))));
        assert!(
            s.settled(Some(now + Duration::from_secs(3600))),
            "a far-future mtime must not stall the file"
        );
        assert!(s.settled(None));
    }
}
