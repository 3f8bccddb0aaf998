//! Terminal set-up and, above all, restoration on every exit path: normal return (Drop guard),
//! a panic on the UI thread (panic hook restores before the message is printed), a panic on
//! any other thread (the hook posts `Msg::Fatal`, the UI ends and the guard restores).
//!
//! While the UI runs, stderr (where tracing logs go) is pointed at `<data dir>/console.log`,
//! since a log line written over the screen would corrupt it.

use std::io::{self, Stdout};
use std::os::fd::AsRawFd;
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};
use std::sync::mpsc::Sender;
use std::sync::{Arc, Mutex};
use std::thread::ThreadId;

use crossterm::cursor::{Hide, Show};
use crossterm::event::{DisableMouseCapture, EnableMouseCapture};
use crossterm::execute;
use crossterm::terminal::{
    Clear, ClearType, EnterAlternateScreen, LeaveAlternateScreen, disable_raw_mode, enable_raw_mode,
};
use ratatui::Terminal;
use ratatui::backend::CrosstermBackend;

use super::msg::Msg;

pub type Term = Terminal<CrosstermBackend<Stdout>>;

static ACTIVE: AtomicBool = AtomicBool::new(false);
/// Whether mouse capture is (meant to be) on; kept across an `$EDITOR` suspension.
static MOUSE: AtomicBool = AtomicBool::new(true);
static SAVED_STDERR: AtomicI32 = AtomicI32::new(-1);
static FATAL_TX: Mutex<Option<(ThreadId, Sender<Msg>)>> = Mutex::new(None);

/// Raw mode + alternate screen. Restored by `TerminalGuard`'s Drop (or `restore`).
pub fn enter() -> io::Result<(Term, TerminalGuard)> {
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    let guard = TerminalGuard;
    Ok((fresh_terminal()?, guard))
}

/// Leave raw mode and the alternate screen, show the cursor. Idempotent and safe to call from
/// a panic hook.
pub fn restore() {
    if ACTIVE.swap(false, Ordering::SeqCst) {
        let _ = disable_raw_mode();
        let _ = execute!(
            io::stdout(),
            DisableMouseCapture,
            LeaveAlternateScreen,
            Show
        );
    }
}

/// Alternate screen, cleared, cursor hidden, and a `Terminal` whose next draw paints
/// everything. (Not `Terminal::clear`: it asks the terminal for the cursor position, which
/// some terminals never answer.)
fn fresh_terminal() -> io::Result<Term> {
    execute!(
        io::stdout(),
        EnterAlternateScreen,
        Clear(ClearType::All),
        Hide
    )?;
    if MOUSE.load(Ordering::SeqCst) {
        execute!(io::stdout(), EnableMouseCapture)?;
    }
    let mut t = Terminal::new(CrosstermBackend::new(io::stdout()))?;
    t.hide_cursor()?;
    Ok(t)
}

/// Capture the mouse (clicks and the wheel reach the console) or leave it to the terminal
/// (which then selects text).
pub fn set_mouse(on: bool) -> io::Result<()> {
    MOUSE.store(on, Ordering::SeqCst);
    if on {
        execute!(io::stdout(), EnableMouseCapture)
    } else {
        execute!(io::stdout(), DisableMouseCapture)
    }
}

/// Re-enter after a suspension (`$EDITOR`).
pub fn resume(t: &mut Term) -> io::Result<()> {
    enable_raw_mode()?;
    ACTIVE.store(true, Ordering::SeqCst);
    *t = fresh_terminal()?;
    Ok(())
}

pub struct TerminalGuard;

impl Drop for TerminalGuard {
    fn drop(&mut self) {
        restore();
    }
}

/// The console's log is rotated past this size: it becomes `console.log.1`, older ones shift up.
pub const LOG_MAX_BYTES: u64 = 4 * 1024 * 1024;
/// Rotated logs kept beside the live one (`.1` newest … `.3` oldest).
pub const LOG_KEEP: usize = 3;
/// How often the live log's size is looked at.
const LOG_CHECK: std::time::Duration = std::time::Duration::from_secs(10);

/// When `path` is over `max` bytes, shift `path.{keep-1}` → `path.{keep}` … and `path` →
/// `path.1` (the oldest beyond `keep` is overwritten); true when it rotated.
pub fn rotate_if_large(path: &Path, max: u64, keep: usize) -> io::Result<bool> {
    match std::fs::metadata(path) {
        Ok(m) if m.len() > max => {}
        Ok(_) => return Ok(false),
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(false),
        Err(e) => return Err(e),
    }
    let numbered = |n: usize| {
        let mut p = path.as_os_str().to_owned();
        p.push(format!(".{n}"));
        std::path::PathBuf::from(p)
    };
    for n in (1..keep.max(1)).rev() {
        let from = numbered(n);
        if from.exists() {
            std::fs::rename(&from, numbered(n + 1))?;
        }
    }
    std::fs::rename(path, numbered(1))?;
    Ok(true)
}

/// Point stderr at `path` until the returned guard drops, rotating it by size (at the start
/// and while the console runs).
pub fn redirect_stderr(path: &Path) -> io::Result<StderrGuard> {
    // A log that cannot be rotated is still written to; the console must start.
    let _ = rotate_if_large(path, LOG_MAX_BYTES, LOG_KEEP);
    let file = crate::paths::open_private_append(path)?;
    // SAFETY: dup/dup2 on valid descriptors; the saved copy is closed in restore_stderr.
    let saved = unsafe { libc::dup(2) };
    if saved < 0 {
        return Err(io::Error::last_os_error());
    }
    if unsafe { libc::dup2(file.as_raw_fd(), 2) } < 0 {
        let e = io::Error::last_os_error();
        unsafe { libc::close(saved) };
        return Err(e);
    }
    SAVED_STDERR.store(saved, Ordering::SeqCst);
    let stop = Arc::new(AtomicBool::new(false));
    let (p, halt) = (path.to_path_buf(), stop.clone());
    let _ = std::thread::Builder::new()
        .name("console-log-rotate".into())
        .spawn(move || {
            while !halt.load(Ordering::SeqCst) {
                std::thread::sleep(LOG_CHECK);
                if halt.load(Ordering::SeqCst) {
                    break;
                }
                if !matches!(rotate_if_large(&p, LOG_MAX_BYTES, LOG_KEEP), Ok(true)) {
                    continue;
                }
                // Writes go on to the renamed file until stderr points at a fresh one.
                if let Ok(f) = crate::paths::open_private_append(&p)
                    && !halt.load(Ordering::SeqCst)
                {
                    // SAFETY: dup2 of a descriptor we own onto stderr.
                    unsafe {
                        libc::dup2(f.as_raw_fd(), 2);
                    }
                }
            }
        });
    Ok(StderrGuard { stop })
}

fn restore_stderr() {
    let saved = SAVED_STDERR.swap(-1, Ordering::SeqCst);
    if saved >= 0 {
        // SAFETY: `saved` is the descriptor dup'ed in redirect_stderr, closed only here.
        unsafe {
            libc::dup2(saved, 2);
            libc::close(saved);
        }
    }
}

pub struct StderrGuard {
    stop: Arc<AtomicBool>,
}

impl Drop for StderrGuard {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        restore_stderr();
    }
}

type Hook = Box<dyn Fn(&std::panic::PanicHookInfo<'_>) + Sync + Send + 'static>;

/// Install the panic hook; the returned guard puts the previous hook back.
pub fn install_panic_hook(tx: Sender<Msg>) -> PanicHookGuard {
    if let Ok(mut g) = FATAL_TX.lock() {
        *g = Some((std::thread::current().id(), tx));
    }
    let prev: Arc<Hook> = Arc::new(std::panic::take_hook());
    let p = prev.clone();
    std::panic::set_hook(Box::new(move |info| {
        let target = FATAL_TX
            .lock()
            .ok()
            .and_then(|g| g.as_ref().map(|(id, tx)| (*id, tx.clone())));
        match target {
            Some((ui, tx)) if ui != std::thread::current().id() => {
                // Another thread: the UI ends cleanly and prints this after restoring.
                let name = std::thread::current()
                    .name()
                    .unwrap_or("background task")
                    .to_string();
                let _ = tx.send(Msg::Fatal(format!("{name} panicked: {}", describe(info))));
                p(info);
            }
            _ => {
                restore();
                restore_stderr();
                p(info);
            }
        }
    }));
    PanicHookGuard { prev }
}

pub struct PanicHookGuard {
    prev: Arc<Hook>,
}

impl Drop for PanicHookGuard {
    fn drop(&mut self) {
        if let Ok(mut g) = FATAL_TX.lock() {
            *g = None;
        }
        let prev = self.prev.clone();
        std::panic::set_hook(Box::new(move |info| prev(info)));
    }
}

fn describe(info: &std::panic::PanicHookInfo<'_>) -> String {
    let payload = info
        .payload()
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| info.payload().downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "panic".into());
    match info.location() {
        Some(l) => format!("{payload} at {}:{}", l.file(), l.line()),
        None => payload,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_large_log_is_rotated_and_only_a_few_are_kept() {
        let d = tempfile::tempdir().unwrap();
        let log = d.path().join("console.log");
        let nth = |n: usize| d.path().join(format!("console.log.{n}"));
        // Small: left alone.
        std::fs::write(&log, "x").unwrap();
        assert!(!rotate_if_large(&log, 10, 3).unwrap());
        for round in 1..=5 {
            std::fs::write(&log, format!("round {round} {}", "y".repeat(20))).unwrap();
            assert!(rotate_if_large(&log, 10, 3).unwrap());
            assert!(!log.exists());
        }
        // The newest rotated log is .1; only .1-.3 are kept.
        assert!(
            std::fs::read_to_string(nth(1))
                .unwrap()
                .starts_with("round 5")
        );
        assert!(
            std::fs::read_to_string(nth(3))
                .unwrap()
                .starts_with("round 3")
        );
        assert!(!nth(4).exists());
    }
}
