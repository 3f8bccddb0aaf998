//! The console's file work on a received attachment, run by the data task (never by `update`):
//! open it with the system's opener, or save a copy into a folder the operator chose. The
//! console never opens anything by itself; both start from a key in the message details.

use std::ffi::OsString;
use std::io::Write;
use std::os::unix::fs::OpenOptionsExt;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};

use anyhow::{Context, Result, bail};

use crate::engine::Engine;

/// Names tried before giving up: `name`, `name (2)`, … `name (999)`.
const MAX_COPIES: u32 = 999;

/// The program that opens a file the way the desktop would: `$OPSDESK_OPENER` when set (tests
/// point it at a script), else `xdg-open` (`open` on macOS).
pub fn opener() -> OsString {
    match std::env::var_os("OPSDESK_OPENER").filter(|s| !s.is_empty()) {
        Some(o) => o,
        None if cfg!(target_os = "macos") => "open".into(),
        None => "xdg-open".into(),
    }
}

/// Where a copy is saved unless the operator types another folder: `~/Downloads` when it
/// exists, else the home folder.
pub(crate) fn default_save_dir() -> Option<PathBuf> {
    let home = std::env::var_os("HOME")
        .filter(|h| !h.is_empty())
        .map(PathBuf::from)?;
    let downloads = home.join("Downloads");
    Some(if downloads.is_dir() { downloads } else { home })
}

/// The folder the operator typed: `~` and `~/…` expand to the home folder; it must be an
/// absolute path to an existing folder (a relative one would depend on where the console was
/// started).
pub(crate) fn resolve_dir(typed: &str) -> Result<PathBuf> {
    let typed = typed.trim();
    let home = || {
        std::env::var_os("HOME")
            .filter(|h| !h.is_empty())
            .map(PathBuf::from)
            .context("HOME is not set; type the full path")
    };
    let dir = if typed == "~" {
        home()?
    } else if let Some(rest) = typed.strip_prefix("~/") {
        home()?.join(rest)
    } else {
        PathBuf::from(typed)
    };
    if !dir.is_absolute() {
        bail!("`{typed}` is not a full path (start with / or ~)");
    }
    if !dir.is_dir() {
        bail!("{} is not an existing folder", dir.display());
    }
    Ok(dir)
}

/// Start `opener` on the stored file `sha256` (its path from `Engine::attachment_path`),
/// detached: no terminal (stdin, stdout and stderr are null, so it cannot draw over the
/// console) and its own process group (Ctrl-C in the console does not reach it). The caller
/// waits for the child on another thread, so it is reaped and a failure can be reported.
pub fn open(engine: &Engine, sha256: &str, opener: &OsString) -> Result<(PathBuf, Child)> {
    let path = engine
        .attachment_path(sha256)
        .context("its bytes are not in the attachment store")?;
    let child = Command::new(opener)
        .arg(&path)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .with_context(|| format!("cannot run `{}`", opener.to_string_lossy()))?;
    Ok((path, child))
}

/// Save a copy of the stored file `sha256` into `dir` as `safe_file_name(name)`, never
/// overwriting: when the name is taken, `name (2).ext`, `name (3).ext`, … The bytes are read
/// checked against their hash; the copy is 0600 (never executable) and written whole or not
/// at all. Returns the path written.
pub fn save(engine: &Engine, sha256: &str, name: &str, dir: &Path) -> Result<PathBuf> {
    let bytes = engine
        .attachment_bytes_checked(sha256)
        .context("cannot read it from the attachment store")?
        .context("its bytes are not in the attachment store")?;
    let name = crate::sanitize::safe_file_name(name);
    let (stem, ext) = match name.rsplit_once('.') {
        Some((s, e)) if !s.is_empty() => (s.to_string(), format!(".{e}")),
        _ => (name.clone(), String::new()),
    };
    for n in 1..=MAX_COPIES {
        let candidate = if n == 1 {
            dir.join(&name)
        } else {
            dir.join(format!("{stem} ({n}){ext}"))
        };
        // create_new: an existing file (or a link planted under that name) is never written.
        let mut f = match std::fs::OpenOptions::new()
            .write(true)
            .create_new(true)
            .mode(0o600)
            .open(&candidate)
        {
            Ok(f) => f,
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => {
                return Err(e).with_context(|| format!("cannot create {}", candidate.display()));
            }
        };
        let written = f.write_all(&bytes).and_then(|()| f.sync_all());
        if let Err(e) = written {
            // No half copy left behind under a name that looks complete.
            let _ = std::fs::remove_file(&candidate);
            return Err(e).with_context(|| format!("cannot write {}", candidate.display()));
        }
        return Ok(candidate);
    }
    bail!(
        "{} already has {MAX_COPIES} files named like `{name}`; nothing was saved",
        dir.display()
    )
}
