//! Where opsdesk keeps its files, and the permission discipline for them: directories 0700,
//! files 0600, checked and repaired on start.

use std::fs::{self, File, OpenOptions};
use std::io::{self, Write};
use std::os::unix::fs::{DirBuilderExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

pub(crate) const DIR_MODE: u32 = 0o700;
pub(crate) const FILE_MODE: u32 = 0o600;

/// Resolved locations for one opsdesk instance.
#[derive(Debug, Clone)]
pub struct Paths {
    pub data_dir: PathBuf,
    pub config_file: PathBuf,
    /// True when the config path was given explicitly (flag or env): then it must exist.
    pub config_explicit: bool,
}

impl Paths {
    /// `data_dir` / `config` come from `--data-dir`/`OPSDESK_DATA_DIR` and
    /// `--config`/`OPSDESK_CONFIG`; otherwise the XDG locations.
    pub fn resolve(data_dir: Option<PathBuf>, config: Option<PathBuf>) -> Result<Paths> {
        let dirs = directories::ProjectDirs::from("", "", "opsdesk");
        let data_dir = match data_dir {
            Some(d) => d,
            None => dirs
                .as_ref()
                .map(|d| d.data_dir().to_path_buf())
                .context("cannot determine a data directory (no HOME?); pass --data-dir or set OPSDESK_DATA_DIR")?,
        };
        let config_explicit = config.is_some();
        let config_file = match config {
            Some(c) => c,
            None => dirs
                .as_ref()
                .map(|d| d.config_dir().join("config.toml"))
                .unwrap_or_else(|| data_dir.join("config.toml")),
        };
        Ok(Paths {
            data_dir,
            config_file,
            config_explicit,
        })
    }

    pub fn inbox_dir(&self) -> PathBuf {
        self.data_dir.join("inbox")
    }
    pub fn drafts_dir(&self) -> PathBuf {
        self.data_dir.join("drafts")
    }
    pub fn deals_dir(&self) -> PathBuf {
        self.data_dir.join("deals")
    }
    pub fn audit_dir(&self) -> PathBuf {
        self.data_dir.join("audit")
    }
    pub fn tokens_dir(&self) -> PathBuf {
        self.data_dir.join("tokens")
    }
    pub fn spool_dir(&self) -> PathBuf {
        self.data_dir.join("spool")
    }
    pub fn engine_lock(&self) -> PathBuf {
        self.data_dir.join("engine.lock")
    }

    /// Create the data dir tree with private permissions, repairing looser ones.
    pub fn ensure(&self) -> Result<()> {
        for d in [
            self.data_dir.clone(),
            self.inbox_dir(),
            self.drafts_dir(),
            self.audit_dir(),
            self.tokens_dir(),
        ] {
            ensure_private_dir(&d)?;
        }
        repair_tree(&self.data_dir)
    }
}

/// Create `dir` (and parents) as 0700; tighten it if it exists with looser permissions.
pub fn ensure_private_dir(dir: &Path) -> Result<()> {
    if !dir.exists() {
        fs::DirBuilder::new()
            .recursive(true)
            .mode(DIR_MODE)
            .create(dir)
            .with_context(|| format!("cannot create directory {}", dir.display()))?;
    }
    tighten(dir, DIR_MODE)
}

/// Repair group/other access on `path`. An entry that vanished meanwhile (the engine moved a
/// spool file, replaced a state file) is not an error: there is nothing left to repair.
fn tighten(path: &Path, mode: u32) -> Result<()> {
    let meta = match fs::symlink_metadata(path) {
        Ok(m) => m,
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(()),
        Err(e) => return Err(e).with_context(|| format!("cannot stat {}", path.display())),
    };
    if meta.file_type().is_symlink() {
        return Ok(()); // chmod would follow it out of the data dir
    }
    if meta.permissions().mode() & 0o077 != 0 {
        match fs::set_permissions(path, fs::Permissions::from_mode(mode)) {
            Ok(()) => {
                tracing::warn!(path = %path.display(), "permissions were looser than {mode:o}; repaired")
            }
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(e)
                    .with_context(|| format!("cannot set permissions on {}", path.display()));
            }
        }
    }
    Ok(())
}

/// How deep the engine's own trees go (`graph/<profile>/outbox/<file>` is three levels).
const MAX_DEPTH: usize = 6;

/// Repair group/other access on the engine's own files: everything under the data dir except
/// the top of the spool, where other programs write (their temporary files are theirs; a file
/// is made private when the engine moves it to `done/` or `rejected/`, which are repaired).
fn repair_tree(root: &Path) -> Result<()> {
    for entry in list(root)? {
        let path = entry.path();
        match entry.file_type() {
            Ok(t) if t.is_dir() && entry.file_name() == "spool" => {
                tighten(&path, DIR_MODE)?;
                for sub in ["done", "rejected"] {
                    repair_recursive(&path.join(sub), 0)?;
                }
            }
            Ok(t) if t.is_dir() => repair_recursive(&path, 0)?,
            Ok(t) if t.is_file() => tighten(&path, FILE_MODE)?,
            _ => {} // links, sockets, or gone
        }
    }
    Ok(())
}

fn repair_recursive(dir: &Path, depth: usize) -> Result<()> {
    if depth > MAX_DEPTH || !dir.is_dir() {
        return Ok(());
    }
    tighten(dir, DIR_MODE)?;
    for entry in list(dir)? {
        match entry.file_type() {
            Ok(t) if t.is_dir() => repair_recursive(&entry.path(), depth + 1)?,
            Ok(t) if t.is_file() => tighten(&entry.path(), FILE_MODE)?,
            _ => {}
        }
    }
    Ok(())
}

/// A directory's entries; one that vanished lists as empty, entries that vanish mid-listing
/// are left out.
fn list(dir: &Path) -> Result<Vec<fs::DirEntry>> {
    match fs::read_dir(dir) {
        Ok(rd) => Ok(rd.filter_map(|e| e.ok()).collect()),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Vec::new()),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", dir.display())),
    }
}

/// Open (creating 0600 if needed) a file for reading and appending.
pub(crate) fn open_private_append(path: &Path) -> io::Result<File> {
    OpenOptions::new()
        .read(true)
        .append(true)
        .create(true)
        .mode(FILE_MODE)
        .open(path)
}

/// Replace `path` with `bytes` atomically: write a 0600 sibling, fsync it, rename it over, fsync
/// the directory. A reader sees the old or the new content, never a mix.
pub(crate) fn write_atomic(path: &Path, bytes: &[u8]) -> io::Result<()> {
    // A bare file name's parent is "", which cannot be opened: it means the working dir.
    let dir = path
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("file");
    let tmp = dir.join(format!(".{name}.tmp{}", std::process::id()));
    let result = (|| {
        let mut f = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .mode(FILE_MODE)
            .open(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        fs::rename(&tmp, path)?;
        sync_dir(dir)
    })();
    if result.is_err() {
        let _ = fs::remove_file(&tmp);
    }
    result
}

/// fsync a directory so a rename or a new file in it is durable.
pub(crate) fn sync_dir(dir: &Path) -> io::Result<()> {
    if dir.as_os_str().is_empty() {
        return File::open(".")?.sync_all();
    }
    File::open(dir)?.sync_all()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_parent_of_a_bare_file_name_is_the_working_dir() {
        // `Path::new("x.json").parent()` is "", which cannot be opened.
        assert_eq!(Path::new("x.json").parent(), Some(Path::new("")));
        sync_dir(Path::new("")).unwrap();
    }

    #[test]
    fn ensure_creates_private_dirs_and_repairs_loose_ones() {
        let tmp = tempfile::tempdir().unwrap();
        let p = Paths::resolve(Some(tmp.path().join("data")), None).unwrap();
        p.ensure().unwrap();
        fs::set_permissions(p.inbox_dir(), fs::Permissions::from_mode(0o755)).unwrap();
        let f = p.inbox_dir().join("x.jsonl");
        fs::write(&f, "").unwrap();
        fs::set_permissions(&f, fs::Permissions::from_mode(0o644)).unwrap();
        p.ensure().unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&p.data_dir), 0o700);
        assert_eq!(mode(&p.inbox_dir()), 0o700);
        assert_eq!(mode(&f), 0o600);
    }

    #[test]
    fn ensure_repairs_the_engines_trees_deeply_but_not_other_writers_spool_files() {
        let tmp = tempfile::tempdir().unwrap();
        let p = Paths::resolve(Some(tmp.path().join("data")), None).unwrap();
        p.ensure().unwrap();
        let loose = |path: &Path| {
            fs::create_dir_all(path.parent().unwrap()).unwrap();
            fs::write(path, "x").unwrap();
            fs::set_permissions(path, fs::Permissions::from_mode(0o644)).unwrap();
            path.to_path_buf()
        };
        let outbox = loose(&p.data_dir.join("graph/work/outbox/d1.json"));
        let done = loose(&p.spool_dir().join("done/a.json"));
        let rejected = loose(&p.spool_dir().join("rejected/b.json.reason.txt"));
        let theirs = loose(&p.spool_dir().join(".c.json.tmp"));
        let dropped = loose(&p.spool_dir().join("c.json"));
        p.ensure().unwrap();
        let mode = |p: &Path| fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&outbox), 0o600);
        assert_eq!(mode(&done), 0o600);
        assert_eq!(mode(&rejected), 0o600);
        assert_eq!(
            mode(&theirs),
            0o644,
            "another writer's temporary file is theirs"
        );
        assert_eq!(
            mode(&dropped),
            0o644,
            "made private when the engine moves it"
        );
    }

    #[test]
    fn an_entry_that_vanishes_is_not_an_error() {
        let tmp = tempfile::tempdir().unwrap();
        tighten(&tmp.path().join("gone.json"), FILE_MODE).unwrap();
        repair_recursive(&tmp.path().join("gone"), 0).unwrap();
    }

    #[test]
    fn write_atomic_replaces_content_with_a_private_file() {
        let tmp = tempfile::tempdir().unwrap();
        let f = tmp.path().join("state.json");
        write_atomic(&f, b"one").unwrap();
        write_atomic(&f, b"two").unwrap();
        assert_eq!(fs::read(&f).unwrap(), b"two");
        assert_eq!(
            fs::metadata(&f).unwrap().permissions().mode() & 0o777,
            0o600
        );
        assert_eq!(
            fs::read_dir(tmp.path()).unwrap().count(),
            1,
            "no temp file left behind"
        );
    }
}
