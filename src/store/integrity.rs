//! The integrity key: a secret outside the data dir that makes the audit chain and the inbox
//! records unforgeable by anyone who can only write the data dir.
//!
//! The hash chain (`audit.rs`) and the inbox checksums (`inbox.rs`) catch accidents, but a
//! process of the same user can recompute them over forged content. So every new audit record,
//! the audit anchor and every new inbox line also carry a `mac`: HMAC-SHA256 under this key,
//! with a distinct label per use (a record's mac cannot be replayed as an anchor's). Without
//! the key nobody can write a record that verifies as keyed.
//!
//! The key is 32 random bytes in `integrity.key` (0600) in the config dir (the parent of the
//! config file; 0700), created on first need by a writer of a data dir that holds no keyed
//! records (a keyed one opened with a missing or other key is refused: [`for_writer`]). Why a file, not the OS keyring: an unlocked
//! Secret Service hands any secret to any client of the same user, so the keyring protects
//! nothing against the processes this key is about; the vault sandbox keeps tools out of the
//! config dir. It never lives in the data dir: a data dir that is copied, backed up or written
//! by a tool would carry the key with it. When the config dir is the data dir (or inside it),
//! nothing is keyed and `doctor` says so.

use std::fs::{self, OpenOptions};
use std::io::{ErrorKind, Read, Write};
use std::os::unix::fs::{MetadataExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;
use time::OffsetDateTime;

use super::StoreError;
use crate::paths::{FILE_MODE, Paths, ensure_private_dir, sync_dir};

/// The key file's name in the config dir.
pub const KEY_FILE: &str = "integrity.key";
/// The key's length in bytes (also the file's exact size).
pub const KEY_LEN: usize = 32;
/// A mac's length as stored (hex of HMAC-SHA256).
pub const MAC_HEX_LEN: usize = 64;

/// What a mac is over; part of the mac'd bytes so one use's mac is never valid for another.
#[derive(Debug, Clone, Copy)]
pub enum Label {
    /// An audit record, over its chain hash.
    AuditRecord,
    /// The audit anchor, over its seq and hash.
    AuditAnchor,
    /// An inbox line, over its bytes without the mac.
    InboxRecord,
}

impl Label {
    fn bytes(self) -> &'static [u8] {
        match self {
            Label::AuditRecord => b"opsdesk audit record\n",
            Label::AuditAnchor => b"opsdesk audit anchor\n",
            Label::InboxRecord => b"opsdesk inbox record\n",
        }
    }
}

/// The loaded key, ready to mac (the keyed state is computed once and cloned per mac).
#[derive(Clone)]
pub struct IntegrityKey {
    keyed: Hmac<Sha256>,
    /// When keying began: the key file's modification time (it is written once). A record
    /// stored after this without a mac was written without the key, even if no keyed record
    /// precedes it (someone stripped the macs of the first keyed records, or rewrote them all).
    created: Option<OffsetDateTime>,
}

impl std::fmt::Debug for IntegrityKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("IntegrityKey(..)") // never the bytes
    }
}

impl IntegrityKey {
    pub fn from_bytes(bytes: &[u8; KEY_LEN]) -> IntegrityKey {
        IntegrityKey {
            keyed: <Hmac<Sha256> as KeyInit>::new_from_slice(bytes)
                .expect("HMAC takes keys of any length"),
            created: None,
        }
    }

    /// The key, keying having begun at `created`.
    pub fn created_at(mut self, created: OffsetDateTime) -> IntegrityKey {
        self.created = Some(created);
        self
    }

    /// Whether a record stored at `ts` without a mac cannot be from before keying began. A
    /// second of grace covers clocks of processes that were writing as the key was made.
    pub fn unkeyed_is_forged(&self, ts: OffsetDateTime) -> bool {
        self.created
            .is_some_and(|c| ts > c + time::Duration::seconds(1))
    }

    /// When keying began, if known.
    pub fn created(&self) -> Option<OffsetDateTime> {
        self.created
    }

    fn state(&self, label: Label, data: &[u8]) -> Hmac<Sha256> {
        let mut m = self.keyed.clone();
        m.update(label.bytes());
        m.update(data);
        m
    }

    /// The mac of `data` for `label`, as lowercase hex.
    pub fn mac(&self, label: Label, data: &[u8]) -> String {
        hex::encode(self.state(label, data).finalize().into_bytes())
    }

    /// Whether `mac_hex` is the mac of `data` for `label` (compared in constant time).
    pub fn check(&self, label: Label, data: &[u8], mac_hex: &str) -> bool {
        match hex::decode(mac_hex) {
            Ok(tag) => self.state(label, data).verify_slice(&tag).is_ok(),
            Err(_) => false,
        }
    }
}

/// How a mac is stored at the end of a JSON line: `{...,"mac":"<hex>"}`.
const MAC_FIELD: &[u8] = b",\"mac\":\"";
/// The stored suffix's length: the field, the hex and `"}`.
const MAC_SUFFIX_LEN: usize = MAC_FIELD.len() + MAC_HEX_LEN + 2;

/// `line` (one JSON object, no newline) with `"mac": mac` added as its last field.
pub fn append_mac_field(mut line: Vec<u8>, mac: &str) -> Vec<u8> {
    debug_assert_eq!(line.last(), Some(&b'}'));
    line.pop();
    line.extend_from_slice(MAC_FIELD);
    line.extend_from_slice(mac.as_bytes());
    line.extend_from_slice(b"\"}");
    line
}

/// Split a line written by [`append_mac_field`] into the line as it was before (what the mac
/// is over) and the mac; `None` when the line does not end with a mac field.
pub fn split_mac_field(line: &[u8]) -> Option<(Vec<u8>, &str)> {
    let at = line.len().checked_sub(MAC_SUFFIX_LEN)?;
    let suffix = &line[at..];
    if !suffix.starts_with(MAC_FIELD) || !suffix.ends_with(b"\"}") || at == 0 {
        return None;
    }
    let mac = std::str::from_utf8(&suffix[MAC_FIELD.len()..MAC_FIELD.len() + MAC_HEX_LEN]).ok()?;
    let mut body = line[..at].to_vec();
    body.push(b'}');
    Some((body, mac))
}

/// Where the key of this instance lives, or why it has no place.
#[derive(Debug, Clone, PartialEq)]
pub enum KeyPlace {
    File(PathBuf),
    /// The config dir is the data dir or inside it: a key there would travel with the data.
    InDataDir {
        config_dir: PathBuf,
    },
}

impl KeyPlace {
    pub fn of(paths: &Paths) -> KeyPlace {
        let config_dir = paths
            .config_file
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("."));
        // Compare resolved paths where they exist (a symlinked data dir, `..` segments).
        let real = |p: &Path| fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf());
        if real(&config_dir).starts_with(real(&paths.data_dir)) {
            KeyPlace::InDataDir { config_dir }
        } else {
            KeyPlace::File(config_dir.join(KEY_FILE))
        }
    }

    /// Why nothing is keyed, for `doctor` and the verify commands; `None` when a key has a place.
    pub fn problem(&self) -> Option<String> {
        match self {
            KeyPlace::File(_) => None,
            KeyPlace::InDataDir { config_dir } => Some(format!(
                "the config dir {} is inside the data dir, so the integrity key has no safe place and new audit and inbox records are not keyed; pass --config (or OPSDESK_CONFIG) with a config file outside the data dir",
                config_dir.display()
            )),
        }
    }
}

/// A mac found in the data dir and what it is over: evidence of the key the data dir was
/// written with (`Audit::newest_mac`).
#[derive(Debug, Clone)]
pub struct Sealed {
    pub label: Label,
    pub data: Vec<u8>,
    pub mac: String,
}

/// The key for writers: loaded, or created on first need. `written` is the newest mac the data
/// dir's audit trail holds. A key is created only for a data dir that holds none: a new key
/// for keyed records would have every one of them reported as forged, and everything written
/// after (recovery's records too) signed under a key the chain does not have, so the trail
/// would never verify again. So a missing key for a keyed data dir, and a key that does not
/// verify `written`, are refused before anything is written. `None` when the config dir is in
/// the data dir (see [`KeyPlace::problem`]; logged).
pub fn for_writer(
    paths: &Paths,
    written: Option<&Sealed>,
) -> Result<Option<IntegrityKey>, StoreError> {
    match KeyPlace::of(paths) {
        KeyPlace::File(p) => {
            let key = match (load(&p)?, written) {
                (Some(k), _) => k,
                (None, Some(_)) => return Err(key_elsewhere(paths, &p, "there is no key at")),
                (None, None) => load_or_create(&p)?,
            };
            if let Some(w) = written
                && !key.check(w.label, &w.data, &w.mac)
            {
                return Err(key_elsewhere(paths, &p, "it does not match the key at"));
            }
            Ok(Some(key))
        }
        place => {
            let why = place.problem().unwrap_or_default();
            // Unkeyed records after keyed ones read as forged once the key is back in use.
            if written.is_some() {
                return Err(StoreError::Rejected(format!(
                    "the data dir {} was written with an integrity key, but {why}; nothing was written",
                    paths.data_dir.display()
                )));
            }
            tracing::warn!("{why}");
            Ok(None)
        }
    }
}

/// [`for_writer`] when the trail cannot be read to say whether and how it is keyed: the key
/// in place if there is one (unchecked), and never a new one (the trail may hold macs). A
/// trail that cannot be read refuses the appends themselves, so nothing is written unkeyed
/// after keyed records.
pub fn for_writer_unread(paths: &Paths) -> Result<Option<IntegrityKey>, StoreError> {
    match KeyPlace::of(paths) {
        KeyPlace::File(p) => load(&p),
        _ => Ok(None),
    }
}

/// The refusal of a writer whose key is not the one the data dir was written with.
fn key_elsewhere(paths: &Paths, key: &Path, what: &str) -> StoreError {
    StoreError::Rejected(format!(
        "the data dir {data} was written with an integrity key, but {what} {key}; nothing was written. \
         The key is looked for next to the config file in use ({config}): point opsdesk at the \
         config file this data dir was used with (--config FILE or OPSDESK_CONFIG=FILE; its \
         directory holds {KEY_FILE}). A data dir restored from a backup needs the key of the \
         machine that wrote it, copied into that directory (mode 600). `opsdesk audit verify` \
         checks the trail without writing",
        data = paths.data_dir.display(),
        key = key.display(),
        config = paths.config_file.display(),
    ))
}

/// The key for verifiers: loaded if it exists, never created (a copied data dir verified on
/// another machine must say "cannot check", not mint a key that fails every record).
pub fn for_verifier(paths: &Paths) -> Result<Option<IntegrityKey>, StoreError> {
    match KeyPlace::of(paths) {
        KeyPlace::File(p) => load(&p),
        KeyPlace::InDataDir { .. } => Ok(None),
    }
}

/// Why a verifier has no key, in the words the verify commands print.
pub fn missing_reason(paths: &Paths) -> String {
    match KeyPlace::of(paths) {
        KeyPlace::File(p) => format!(
            "the integrity key {} does not exist here (a copied data dir?)",
            p.display()
        ),
        place => place.problem().unwrap_or_default(),
    }
}

/// Load the key at `path`; `Ok(None)` when there is no file. A file that is not a private
/// regular file of ours with exactly [`KEY_LEN`] bytes is refused, saying why.
pub fn load(path: &Path) -> Result<Option<IntegrityKey>, StoreError> {
    let mut f = match OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NOFOLLOW)
        .open(path)
    {
        Ok(f) => f,
        Err(e) if e.kind() == ErrorKind::NotFound => return Ok(None),
        Err(e) if e.raw_os_error() == Some(libc::ELOOP) => {
            return Err(refuse(path, "it is a symbolic link"));
        }
        Err(e) => return Err(StoreError::io(path, "read the integrity key", e)),
    };
    let meta = f
        .metadata()
        .map_err(|e| StoreError::io(path, "stat the integrity key", e))?;
    if !meta.is_file() {
        return Err(refuse(path, "it is not a regular file"));
    }
    // SAFETY: geteuid has no preconditions and cannot fail.
    let me = unsafe { libc::geteuid() };
    if meta.uid() != me {
        return Err(refuse(
            path,
            &format!("it is owned by uid {}, not by you (uid {me})", meta.uid()),
        ));
    }
    let mode = meta.permissions().mode() & 0o777;
    if mode & 0o077 != 0 {
        return Err(refuse(
            path,
            &format!(
                "it is readable or writable by others (mode {mode:o}); the key may be known: remove it only if you accept that records keyed so far will no longer verify, or `chmod 600` it if nobody else could have read it"
            ),
        ));
    }
    if meta.len() != KEY_LEN as u64 {
        return Err(refuse(
            path,
            &format!("it holds {} bytes, not {KEY_LEN}", meta.len()),
        ));
    }
    let mut bytes = [0u8; KEY_LEN];
    f.read_exact(&mut bytes)
        .map_err(|e| StoreError::io(path, "read the integrity key", e))?;
    let key = IntegrityKey::from_bytes(&bytes);
    Ok(Some(match meta.modified() {
        Ok(t) => key.created_at(OffsetDateTime::from(t)),
        Err(_) => key, // no mtime on this file system: the first keyed record marks the start
    }))
}

fn refuse(path: &Path, why: &str) -> StoreError {
    StoreError::Rejected(format!(
        "refusing the integrity key {}: {why}. It must be a regular 0600 file of {KEY_LEN} bytes owned by you",
        path.display()
    ))
}

/// Load the key at `path`, creating it if there is none. Creation is atomic and never
/// overwrites: the bytes go to a private temporary file, which is then hard-linked to `path`
/// (fails if `path` exists). Two processes racing both end with the one key that won.
pub fn load_or_create(path: &Path) -> Result<IntegrityKey, StoreError> {
    if let Some(k) = load(path)? {
        return Ok(k);
    }
    let dir = path.parent().unwrap_or(Path::new("."));
    ensure_private_dir(dir).map_err(|e| StoreError::Rejected(format!("{e:#}")))?;
    let mut bytes = [0u8; KEY_LEN];
    getrandom::fill(&mut bytes).map_err(|e| {
        StoreError::Rejected(format!(
            "cannot create the integrity key: no OS randomness ({e})"
        ))
    })?;
    // Unique per attempt (threads of one process race too), never derived from the key.
    let tmp = dir.join(format!(
        ".{KEY_FILE}.{}.{}.tmp",
        std::process::id(),
        uuid::Uuid::new_v4().simple()
    ));
    let written = (|| {
        let mut f = OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(FILE_MODE)
            .open(&tmp)?;
        f.write_all(&bytes)?;
        f.sync_all()
    })();
    if let Err(e) = written {
        let _ = fs::remove_file(&tmp);
        return Err(StoreError::io(&tmp, "write the integrity key", e));
    }
    let linked = fs::hard_link(&tmp, path);
    // The temporary name is removed whatever happened: the key is `path` or nothing.
    let _ = fs::remove_file(&tmp);
    match linked {
        Ok(()) => {
            sync_dir(dir).map_err(|e| StoreError::io(dir, "fsync", e))?;
            tracing::info!(path = %path.display(), "created the integrity key");
            // Read back, so the creation time is the file's, as every later load sees it.
            load(path)?.ok_or_else(|| {
                StoreError::Rejected(format!(
                    "the integrity key {} vanished right after it was created",
                    path.display()
                ))
            })
        }
        // Another process created it first: use theirs.
        Err(e) if e.kind() == ErrorKind::AlreadyExists => load(path)?.ok_or_else(|| {
            StoreError::Rejected(format!(
                "the integrity key {} appeared and vanished while being created; retry",
                path.display()
            ))
        }),
        Err(e) => Err(StoreError::io(path, "create the integrity key", e)),
    }
}

/// The key file as `doctor` reports it: `Ok(Some(path))` if there is a usable key,
/// `Ok(None)` when there is none yet.
pub fn inspect(paths: &Paths) -> Result<Option<PathBuf>, String> {
    match KeyPlace::of(paths) {
        KeyPlace::File(p) => match load(&p) {
            Ok(Some(_)) => Ok(Some(p)),
            Ok(None) => Ok(None),
            Err(e) => Err(e.to_string()),
        },
        place => Err(place.problem().unwrap_or_default()),
    }
}

#[cfg(test)]
fn read_raw(path: &Path) -> Vec<u8> {
    fs::read(path).unwrap()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(data: &Path, config_dir: &Path) -> Paths {
        Paths {
            data_dir: data.to_path_buf(),
            config_file: config_dir.join("config.toml"),
            config_explicit: true,
        }
    }

    #[test]
    fn a_new_key_is_32_private_bytes_in_a_private_config_dir_and_is_kept() {
        let tmp = tempfile::tempdir().unwrap();
        let p = paths(&tmp.path().join("data"), &tmp.path().join("cfg"));
        let k1 = for_writer(&p, None).unwrap().unwrap();
        let file = tmp.path().join("cfg").join(KEY_FILE);
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&file), 0o600);
        assert_eq!(mode(&tmp.path().join("cfg")), 0o700);
        assert_eq!(read_raw(&file).len(), KEY_LEN);
        let k2 = for_writer(&p, None).unwrap().unwrap();
        assert_eq!(
            k1.mac(Label::AuditRecord, b"x"),
            k2.mac(Label::AuditRecord, b"x"),
            "the second open uses the same key"
        );
        assert_eq!(
            fs::read_dir(tmp.path().join("cfg")).unwrap().count(),
            1,
            "no temporary file left behind"
        );
    }

    #[test]
    fn a_writer_for_a_keyed_data_dir_never_creates_a_key_and_refuses_another_one() {
        let tmp = tempfile::tempdir().unwrap();
        let written_with = IntegrityKey::from_bytes(&[7; KEY_LEN]);
        let sealed = Sealed {
            label: Label::AuditAnchor,
            data: b"3\nabc".to_vec(),
            mac: written_with.mac(Label::AuditAnchor, b"3\nabc"),
        };
        let p = paths(&tmp.path().join("data"), &tmp.path().join("cfg"));
        let file = tmp.path().join("cfg").join(KEY_FILE);

        let e = for_writer(&p, Some(&sealed)).unwrap_err().to_string();
        assert!(e.contains("there is no key at"), "{e}");
        assert!(e.contains(&file.display().to_string()), "{e}");
        assert!(
            e.contains("--config") && e.contains("OPSDESK_CONFIG"),
            "{e}"
        );
        assert!(!file.exists(), "no key was created");

        load_or_create(&file).unwrap(); // some other key
        let e = for_writer(&p, Some(&sealed)).unwrap_err().to_string();
        assert!(e.contains("does not match the key at"), "{e}");

        fs::write(&file, [7; KEY_LEN]).unwrap();
        let k = for_writer(&p, Some(&sealed)).unwrap().unwrap();
        assert!(
            k.check(sealed.label, &sealed.data, &sealed.mac),
            "the data dir's own key"
        );

        // A config dir inside the data dir has no place for a key: refused too, as records
        // without a mac after keyed ones read as forged.
        let inside = paths(&tmp.path().join("data"), &tmp.path().join("data/cfg"));
        let e = for_writer(&inside, Some(&sealed)).unwrap_err().to_string();
        assert!(
            e.contains("was written with an integrity key") && e.contains("inside the data dir"),
            "{e}"
        );
    }

    #[test]
    fn racing_creators_end_with_one_key() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("cfg").join(KEY_FILE);
        let macs: Vec<String> = std::thread::scope(|s| {
            let hs: Vec<_> = (0..8)
                .map(|_| s.spawn(|| load_or_create(&file).unwrap().mac(Label::InboxRecord, b"m")))
                .collect();
            hs.into_iter().map(|h| h.join().unwrap()).collect()
        });
        assert!(macs.windows(2).all(|w| w[0] == w[1]), "{macs:?}");
    }

    #[test]
    fn a_verifier_never_creates_a_key() {
        let tmp = tempfile::tempdir().unwrap();
        let p = paths(&tmp.path().join("data"), &tmp.path().join("cfg"));
        assert!(for_verifier(&p).unwrap().is_none());
        assert!(!tmp.path().join("cfg").join(KEY_FILE).exists());
        assert!(missing_reason(&p).contains("does not exist here"));
    }

    #[test]
    fn no_key_is_placed_in_the_data_dir() {
        let tmp = tempfile::tempdir().unwrap();
        for config_dir in [tmp.path().to_path_buf(), tmp.path().join("sub")] {
            let p = paths(tmp.path(), &config_dir);
            assert!(matches!(KeyPlace::of(&p), KeyPlace::InDataDir { .. }));
            assert!(for_writer(&p, None).unwrap().is_none());
            assert!(!config_dir.join(KEY_FILE).exists());
            assert!(inspect(&p).unwrap_err().contains("inside the data dir"));
        }
    }

    #[test]
    fn a_key_file_others_can_read_or_of_the_wrong_size_is_refused() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join(KEY_FILE);
        load_or_create(&file).unwrap();
        fs::set_permissions(&file, fs::Permissions::from_mode(0o640)).unwrap();
        let e = load(&file).unwrap_err().to_string();
        assert!(
            e.contains("readable or writable by others (mode 640)"),
            "{e}"
        );
        assert!(
            load_or_create(&file).is_err(),
            "never replaced by a new key either"
        );

        fs::set_permissions(&file, fs::Permissions::from_mode(0o600)).unwrap();
        fs::write(&file, b"short").unwrap();
        let e = load(&file).unwrap_err().to_string();
        assert!(e.contains("holds 5 bytes, not 32"), "{e}");
        assert_eq!(read_raw(&file), b"short", "the bad file is left as it was");

        let link = tmp.path().join("link.key");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        let e = load(&link).unwrap_err().to_string();
        assert!(e.contains("symbolic link"), "{e}");
    }

    #[test]
    fn a_mac_field_appended_to_a_json_line_splits_back_off_exactly() {
        let mac = "ab".repeat(32);
        let line = append_mac_field(br#"{"seq":1,"x":"}"}"#.to_vec(), &mac);
        assert_eq!(
            line,
            format!(r#"{{"seq":1,"x":"}}","mac":"{mac}"}}"#).into_bytes()
        );
        let v: serde_json::Value = serde_json::from_slice(&line).unwrap();
        assert_eq!(v["mac"], mac.as_str());
        let (body, m) = split_mac_field(&line).unwrap();
        assert_eq!(body, br#"{"seq":1,"x":"}"}"#);
        assert_eq!(m, mac);
        assert!(split_mac_field(br#"{"seq":1}"#).is_none());
    }

    #[test]
    fn macs_depend_on_the_key_the_label_and_the_bytes() {
        let a = IntegrityKey::from_bytes(&[1; KEY_LEN]);
        let b = IntegrityKey::from_bytes(&[2; KEY_LEN]);
        let m = a.mac(Label::AuditRecord, b"hash");
        assert_eq!(m.len(), MAC_HEX_LEN);
        assert!(a.check(Label::AuditRecord, b"hash", &m));
        assert!(!b.check(Label::AuditRecord, b"hash", &m), "another key");
        assert!(!a.check(Label::AuditAnchor, b"hash", &m), "another use");
        assert!(!a.check(Label::AuditRecord, b"hasH", &m), "other bytes");
        assert!(!a.check(Label::AuditRecord, b"hash", "not hex"));
    }
}
