//! The attachment store: inbound attachments' bytes under `<data dir>/attachments`, named by
//! their SHA-256 (`ab/abcdef…`), never by anything the sender chose.
//!
//! - **Confined**: directories 0700, files 0600; a file is written under a temporary name,
//!   fsync'd and renamed into place, so a reader sees all of it or nothing. Opened without
//!   following links.
//! - **Deduplicated**: the same bytes arriving twice (a mail re-polled, a file forwarded) are
//!   stored once; a hash already present is not written again.
//! - **Bounded**: per attachment (`max_file_bytes`), per message (`max_message_bytes`) and for
//!   the whole store (`quota_bytes`). What does not fit is not stored, and its metadata says
//!   so (`AttachmentStatus::TooLarge` …), so a surface shows a marker instead of bytes. A
//!   message's parts beyond the first [`MAX_ATTACHMENTS`] (the most a record lists) are not
//!   stored at all: bytes no record names would only fill the quota. The sources count them
//!   in the record's meta ([`note_dropped`]) and `inbox show` says how many.
//! - **Quota accounting** is per process: the store's size is measured once (a walk of the
//!   directory) and then counted up by this process's writes. Another process writing at the
//!   same time can make the store overshoot the quota by what it wrote; the next process to
//!   start measures again.

use std::fs::{self, OpenOptions};
use std::io::{self, ErrorKind, Read, Write};
use std::os::unix::fs::OpenOptionsExt;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use sha2::{Digest, Sha256};

use crate::config::attachments::AttachmentsConfig;
use crate::domain::{Attachment, AttachmentStatus};
use crate::paths::{ensure_private_dir, sync_dir};
use crate::sanitize::{
    MAX_ATTACHMENT_TEXT_CHARS, MAX_ATTACHMENTS, META_ATTACHMENTS_TRUNCATED, attachment_risk,
    clean_media_type, clean_text, html_to_text, safe_file_name,
};

/// The directory under the data dir.
pub(crate) const DIR: &str = "attachments";

/// One attachment as a source hands it over, before it is stored.
#[derive(Debug, Clone)]
pub struct Incoming {
    /// The sender's name for it, raw (neutralized here).
    pub name: String,
    /// The declared media type, raw.
    pub media_type: String,
    pub inline: bool,
    pub content: Content,
}

#[derive(Debug, Clone)]
pub enum Content {
    Bytes(Vec<u8>),
    /// The source did not fetch the bytes because the declared size is over the per-file
    /// limit (a Graph attachment is only downloaded when it would be kept).
    NotFetched {
        size: u64,
    },
    /// A link to a file elsewhere (Graph `referenceAttachment`): nothing to fetch.
    Link,
}

/// Who received a stored file (`ab/<sha256>.json`).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Owners {
    pub profiles: Vec<String>,
    /// Neutralized name and media type of the first arrival.
    pub name: String,
    pub media_type: String,
    /// First stored from a path of `[attachments] outbound_dirs` by a draft, not by mail: its
    /// bytes are served to MCP clients only once a draft attaching it is approved.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub by_path: bool,
}

/// The store. Cheap to clone (shared state).
#[derive(Clone)]
pub struct AttachmentStore {
    inner: Arc<Inner>,
}

struct Inner {
    dir: PathBuf,
    limits: AttachmentsConfig,
    /// Bytes in the store as this process knows it; measured on first use.
    used: Mutex<Option<u64>>,
}

impl std::fmt::Debug for AttachmentStore {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("AttachmentStore")
            .field("dir", &self.inner.dir)
            .finish()
    }
}

/// Is `s` the shape of a stored hash (64 lower-case hex digits)? Anything else is refused
/// before it comes near a path.
pub fn is_hash(s: &str) -> bool {
    s.len() == 64 && s.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'))
}

impl AttachmentStore {
    /// The store under `data_dir` (created 0700 on first write, not here: a read-only command
    /// does not create directories).
    pub fn new(data_dir: &Path, limits: &AttachmentsConfig) -> AttachmentStore {
        AttachmentStore {
            inner: Arc::new(Inner {
                dir: data_dir.join(DIR),
                limits: limits.clone(),
                used: Mutex::new(None),
            }),
        }
    }

    pub fn dir(&self) -> &Path {
        &self.inner.dir
    }

    pub fn limits(&self) -> &AttachmentsConfig {
        &self.inner.limits
    }

    /// Where the bytes of `sha256` live (whether or not they are there). None for anything
    /// that is not a hash.
    pub fn path_of(&self, sha256: &str) -> Option<PathBuf> {
        is_hash(sha256).then(|| self.inner.dir.join(&sha256[..2]).join(sha256))
    }

    /// Store one message's attachments, in order, and return their metadata. Limits apply in
    /// order: an attachment over `max_file_bytes` is marked `too_large`; one that would take
    /// the message's stored total over `max_message_bytes` is marked `message_too_large`; one
    /// that would take the store over `quota_bytes` is marked `quota_full`. Bytes already in
    /// the store count for the message but cost no quota. An I/O error fails the whole call
    /// (the caller keeps the message for a later attempt); files already written stay, and
    /// are reused then. Only the first [`MAX_ATTACHMENTS`] parts are looked at; the rest are
    /// dropped, not stored (count them with [`note_dropped`]).
    pub fn store_message(
        &self,
        profile: &str,
        parts: Vec<Incoming>,
    ) -> io::Result<Vec<Attachment>> {
        let limits = &self.inner.limits;
        let mut message_total = 0u64;
        let mut out = Vec::with_capacity(parts.len().min(MAX_ATTACHMENTS));
        for part in parts.into_iter().take(MAX_ATTACHMENTS) {
            let name = safe_file_name(&part.name);
            let media_type = clean_media_type(&part.media_type);
            let risk = attachment_risk(&name, &media_type).map(str::to_string);
            let (size, bytes) = match part.content {
                Content::Bytes(b) => (b.len() as u64, Some(b)),
                Content::NotFetched { size } => (size, None),
                Content::Link => {
                    out.push(Attachment {
                        name,
                        media_type,
                        size: 0,
                        sha256: None,
                        inline: part.inline,
                        status: AttachmentStatus::Link,
                        text: None,
                        risk,
                    });
                    continue;
                }
            };
            let sha256 = bytes.as_deref().map(|b| hex::encode(Sha256::digest(b)));
            let status = match (&bytes, &sha256) {
                _ if size > limits.max_file_bytes => AttachmentStatus::TooLarge,
                (Some(b), Some(h)) => {
                    if message_total.saturating_add(size) > limits.max_message_bytes {
                        AttachmentStatus::MessageTooLarge
                    } else if self.put(h, b)? {
                        message_total += size;
                        self.record_owner(h, profile, &name, &media_type)?;
                        AttachmentStatus::Stored
                    } else {
                        AttachmentStatus::QuotaFull
                    }
                }
                // Not fetched although within the per-file limit: the source decided the
                // bytes could not be kept.
                _ => AttachmentStatus::TooLarge,
            };
            let text = match (&bytes, status) {
                (Some(b), _) => extract_text(&media_type, b),
                _ => None,
            };
            out.push(Attachment {
                name,
                media_type,
                size,
                sha256,
                inline: part.inline,
                status,
                text,
                risk,
            });
        }
        Ok(out)
    }

    /// Write `bytes` under `sha256` unless present. False when the quota has no room.
    fn put(&self, sha256: &str, bytes: &[u8]) -> io::Result<bool> {
        let path = self
            .path_of(sha256)
            .ok_or_else(|| io::Error::new(ErrorKind::InvalidInput, "not a hash"))?;
        let mut used = self.inner.used.lock().unwrap_or_else(|p| p.into_inner());
        if fs::symlink_metadata(&path).is_ok_and(|m| m.is_file() && m.len() == bytes.len() as u64) {
            return Ok(true);
        }
        let now = match *used {
            Some(u) => u,
            None => self.measure()?,
        };
        *used = Some(now);
        let size = bytes.len() as u64;
        if now.saturating_add(size) > self.inner.limits.quota_bytes {
            return Ok(false);
        }
        let shard = path.parent().unwrap_or(&self.inner.dir);
        ensure_private_dir(&self.inner.dir).map_err(io::Error::other)?;
        ensure_private_dir(shard).map_err(io::Error::other)?;
        let tmp = shard.join(format!(".{sha256}.tmp{}", std::process::id()));
        let written = (|| {
            let mut f = OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .custom_flags(libc::O_NOFOLLOW)
                .mode(0o600)
                .open(&tmp)?;
            f.write_all(bytes)?;
            f.sync_all()?;
            fs::rename(&tmp, &path)?;
            sync_dir(shard)
        })();
        if let Err(e) = written {
            let _ = fs::remove_file(&tmp);
            return Err(e);
        }
        *used = Some(now + size);
        Ok(true)
    }

    /// Note that `profile`'s mail carried `sha256` (the sidecar `ab/<sha256>.json`): a read
    /// of the bytes is attributed to the profiles listed there (the PHI rules of a
    /// `requires_hipaa` profile apply when any of them is one). Rewritten only when the
    /// profile is new to it. Also used when the operator assigns an item to another profile
    /// (`engine/assign.rs`): the file then counts as owned by both, never by fewer.
    pub fn record_owner(
        &self,
        sha256: &str,
        profile: &str,
        name: &str,
        media_type: &str,
    ) -> io::Result<()> {
        let path = self.owners_path(sha256);
        let mut owners = self.owners(sha256)?.unwrap_or_else(|| Owners {
            profiles: Vec::new(),
            name: name.to_string(),
            media_type: media_type.to_string(),
            by_path: false,
        });
        if owners.profiles.iter().any(|p| p == profile) {
            return Ok(());
        }
        owners.profiles.push(profile.to_string());
        let bytes = serde_json::to_vec(&owners).map_err(io::Error::other)?;
        crate::paths::write_atomic(&path, &bytes)
    }

    /// Mark a file as first stored from an outbound path (see [`Owners::by_path`]).
    pub fn mark_by_path(&self, sha256: &str) -> io::Result<()> {
        let Some(mut owners) = self.owners(sha256)? else {
            return Err(io::Error::new(
                ErrorKind::NotFound,
                "no owner record for a file just stored",
            ));
        };
        if owners.by_path {
            return Ok(());
        }
        owners.by_path = true;
        let bytes = serde_json::to_vec(&owners).map_err(io::Error::other)?;
        crate::paths::write_atomic(&self.owners_path(sha256), &bytes)
    }

    fn owners_path(&self, sha256: &str) -> PathBuf {
        self.inner
            .dir
            .join(&sha256[..2])
            .join(format!("{sha256}.json"))
    }

    /// Whose mail carried `sha256`, and the name and type it first came with. None when no
    /// such record exists (bytes stored by an older version, or not stored at all).
    pub fn owners(&self, sha256: &str) -> io::Result<Option<Owners>> {
        if !is_hash(sha256) {
            return Ok(None);
        }
        match fs::read(self.owners_path(sha256)) {
            Ok(b) => serde_json::from_slice(&b)
                .map(Some)
                .map_err(|e| io::Error::new(ErrorKind::InvalidData, e)),
            Err(e) if e.kind() == ErrorKind::NotFound => Ok(None),
            Err(e) => Err(e),
        }
    }

    /// Total size of the stored files (a walk of the two-level tree; the small owner records
    /// beside them are not counted).
    pub fn measure(&self) -> io::Result<u64> {
        let mut total = 0;
        let shards = match fs::read_dir(&self.inner.dir) {
            Ok(rd) => rd,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(0),
            Err(e) => return Err(e),
        };
        for shard in shards.flatten() {
            if !shard.file_type().is_ok_and(|t| t.is_dir()) {
                continue;
            }
            for f in fs::read_dir(shard.path())?.flatten() {
                if let Ok(m) = f.metadata()
                    && m.is_file()
                    && f.file_name().to_str().is_some_and(is_hash)
                {
                    total += m.len();
                }
            }
        }
        Ok(total)
    }

    /// Up to `max` bytes of the stored file `sha256`, and its full size. None when it is not
    /// stored. A whole read is checked against its hash: bytes changed on disk are an error,
    /// never served.
    pub fn read(&self, sha256: &str, max: u64) -> io::Result<Option<(Vec<u8>, u64)>> {
        let Some(path) = self.path_of(sha256) else {
            return Ok(None);
        };
        let f = match OpenOptions::new()
            .read(true)
            .custom_flags(libc::O_NOFOLLOW)
            .open(&path)
        {
            Ok(f) => f,
            Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
            Err(e) => return Err(e),
        };
        let size = f.metadata()?.len();
        let mut buf = Vec::with_capacity(size.min(max) as usize);
        f.take(max).read_to_end(&mut buf)?;
        if buf.len() as u64 == size && hex::encode(Sha256::digest(&buf)) != sha256 {
            return Err(io::Error::new(
                ErrorKind::InvalidData,
                format!(
                    "attachment {sha256} does not match its hash: the file was changed on disk"
                ),
            ));
        }
        Ok(Some((buf, size)))
    }
}

/// Note in a message's meta that it carried `carried` attachments, when that is more than a
/// record lists and the store keeps ([`MAX_ATTACHMENTS`]): the rest were dropped unstored.
pub(crate) fn note_dropped(
    meta: &mut std::collections::BTreeMap<String, serde_json::Value>,
    carried: usize,
) {
    if carried > MAX_ATTACHMENTS {
        meta.insert(META_ATTACHMENTS_TRUNCATED.into(), carried.into());
    }
}

/// How many attachments a record's mail carried that it does not list (dropped, not stored).
pub fn dropped_count(
    meta: &std::collections::BTreeMap<String, serde_json::Value>,
    listed: usize,
) -> usize {
    meta.get(META_ATTACHMENTS_TRUNCATED)
        .and_then(serde_json::Value::as_u64)
        .map_or(0, |n| (n as usize).saturating_sub(listed))
}

/// The media type of a file the operator attaches by path, from its extension.
pub(crate) fn media_type_of(name: &str) -> &'static str {
    let ext = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    match ext.as_str() {
        "pdf" => "application/pdf",
        "txt" => "text/plain",
        "csv" => "text/csv",
        "htm" | "html" => "text/html",
        "json" => "application/json",
        "xml" => "application/xml",
        "png" => "image/png",
        "jpg" | "jpeg" => "image/jpeg",
        "gif" => "image/gif",
        "tif" | "tiff" => "image/tiff",
        "eml" => "message/rfc822",
        "zip" => "application/zip",
        "docx" => "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
        "xlsx" => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "pptx" => "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        _ => "application/octet-stream",
    }
}

/// Text of a text or HTML attachment, sanitized like a body and bounded. Other types give
/// none (PDF text extraction is not done: no well-kept pure-Rust extractor is a dependency).
pub(crate) fn extract_text(media_type: &str, bytes: &[u8]) -> Option<String> {
    let s = String::from_utf8_lossy(bytes);
    let text = match media_type {
        "text/html" | "application/xhtml+xml" => html_to_text(&s, MAX_ATTACHMENT_TEXT_CHARS),
        t if t.starts_with("text/") => clean_text(&s, MAX_ATTACHMENT_TEXT_CHARS),
        _ => return None,
    };
    (!text.is_empty()).then_some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::fs::PermissionsExt;

    fn store(dir: &Path, file: u64, msg: u64, quota: u64) -> AttachmentStore {
        AttachmentStore::new(
            dir,
            &AttachmentsConfig {
                max_file_bytes: file,
                max_message_bytes: msg,
                quota_bytes: quota,
                outbound_dirs: Vec::new(),
            },
        )
    }

    fn bytes(name: &str, b: &[u8]) -> Incoming {
        Incoming {
            name: name.into(),
            media_type: "application/octet-stream".into(),
            inline: false,
            content: Content::Bytes(b.to_vec()),
        }
    }

    #[test]
    fn stores_by_hash_privately_and_once() {
        let tmp = tempfile::tempdir().unwrap();
        let s = store(tmp.path(), 100, 1000, 10_000);
        let a = s
            .store_message(
                "p",
                vec![bytes("../../etc/passwd", b"hello"), bytes("b", b"hello")],
            )
            .unwrap();
        let h = a[0].sha256.clone().unwrap();
        assert_eq!(a[0].name, "passwd");
        assert_eq!(a[1].sha256.as_deref(), Some(h.as_str()));
        let path = s.path_of(&h).unwrap();
        assert_eq!(path, tmp.path().join("attachments").join(&h[..2]).join(&h));
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&path), 0o600);
        assert_eq!(mode(path.parent().unwrap()), 0o700);
        assert_eq!(mode(&tmp.path().join("attachments")), 0o700);
        assert_eq!(s.measure().unwrap(), 5, "stored once");
        assert_eq!(s.read(&h, 3).unwrap().unwrap(), (b"hel".to_vec(), 5));
        assert!(s.read("../x", 3).unwrap().is_none());
    }

    #[test]
    fn limits_give_markers_in_order() {
        let tmp = tempfile::tempdir().unwrap();
        let s = store(tmp.path(), 10, 15, 1000);
        let a = s
            .store_message(
                "p",
                vec![
                    bytes("big", &[1; 11]),
                    bytes("a", &[2; 10]),
                    bytes("b", &[3; 6]),
                    bytes("c", &[4; 5]),
                ],
            )
            .unwrap();
        let st: Vec<_> = a.iter().map(|a| a.status).collect();
        assert_eq!(
            st,
            [
                AttachmentStatus::TooLarge,
                AttachmentStatus::Stored,
                AttachmentStatus::MessageTooLarge,
                AttachmentStatus::Stored
            ]
        );
        assert!(
            a[0].sha256.is_some(),
            "the hash is known even when not stored"
        );
        assert_eq!(a[0].uri(), None);
    }

    #[test]
    fn the_quota_counts_existing_files_and_dedup_costs_nothing() {
        let tmp = tempfile::tempdir().unwrap();
        store(tmp.path(), 100, 100, 12)
            .store_message("p", vec![bytes("a", &[1; 8])])
            .unwrap();
        // A new process measures what is there.
        let s = store(tmp.path(), 100, 100, 12);
        let a = s
            .store_message("p", vec![bytes("again", &[1; 8]), bytes("new", &[2; 8])])
            .unwrap();
        assert_eq!(a[0].status, AttachmentStatus::Stored);
        assert_eq!(a[1].status, AttachmentStatus::QuotaFull);
        assert_eq!(a[1].status.marker(), "attachment store full, not stored");
    }

    #[test]
    fn parts_beyond_the_record_limit_are_not_stored() {
        let tmp = tempfile::tempdir().unwrap();
        let s = store(tmp.path(), 100, 1_000_000, 1_000_000);
        let parts: Vec<Incoming> = (0..MAX_ATTACHMENTS + 10)
            .map(|i| bytes(&format!("p{i}.txt"), format!("part {i}").as_bytes()))
            .collect();
        let a = s.store_message("p", parts).unwrap();
        assert_eq!(a.len(), MAX_ATTACHMENTS);
        assert!(a.iter().all(|a| a.status == AttachmentStatus::Stored));
        // Only the listed parts' bytes are in the store.
        let listed: u64 = a.iter().map(|a| a.size).sum();
        assert_eq!(s.measure().unwrap(), listed);
        let dropped = hex::encode(Sha256::digest(format!("part {MAX_ATTACHMENTS}").as_bytes()));
        assert!(!s.path_of(&dropped).unwrap().exists());
        let mut meta = std::collections::BTreeMap::new();
        note_dropped(&mut meta, MAX_ATTACHMENTS);
        assert!(meta.is_empty(), "nothing dropped, nothing noted");
        note_dropped(&mut meta, MAX_ATTACHMENTS + 10);
        assert_eq!(dropped_count(&meta, a.len()), 10);
    }

    #[test]
    fn a_changed_file_is_not_served() {
        let tmp = tempfile::tempdir().unwrap();
        let s = store(tmp.path(), 100, 100, 100);
        let h = s.store_message("p", vec![bytes("a", b"abc")]).unwrap()[0]
            .sha256
            .clone()
            .unwrap();
        fs::write(s.path_of(&h).unwrap(), b"abd").unwrap();
        assert!(s.read(&h, 100).is_err());
    }

    #[test]
    fn text_types_have_their_text_extracted_and_cleaned() {
        assert_eq!(
            extract_text("text/plain", b"a\x1b[31mb\xe2\x80\xaec").as_deref(),
            Some("abc")
        );
        assert_eq!(
            extract_text("text/html", b"<p>Hi <b>there</b><script>x()</script>").as_deref(),
            Some("Hi there")
        );
        assert_eq!(extract_text("application/pdf", b"%PDF-1.4"), None);
    }
}
