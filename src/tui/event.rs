//! Everything that reaches the UI thread arrives as a `Msg` on one channel: terminal input
//! (read on its own thread), engine events (forwarded from the broadcast bus by a task on the
//! engine's runtime) and the data task's answers.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::Sender;
use std::time::Duration;

use crossterm::event::{self, Event};
use tokio::sync::broadcast;

use super::msg::Msg;
use crate::engine::EngineEvent;

/// Lets the main loop stop the input reader while `$EDITOR` owns the terminal.
#[derive(Default)]
pub struct InputGate {
    pub paused: AtomicBool,
    /// Set by the reader once it has seen `paused` and will not read.
    pub idle: AtomicBool,
    pub stop: AtomicBool,
}

impl InputGate {
    /// Pause the reader and wait (briefly) until it has stopped reading.
    pub fn pause(&self) {
        self.paused.store(true, Ordering::SeqCst);
        for _ in 0..100 {
            if self.idle.load(Ordering::SeqCst) {
                return;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
    pub fn resume(&self) {
        self.idle.store(false, Ordering::SeqCst);
        self.paused.store(false, Ordering::SeqCst);
    }
}

/// Read terminal events on a thread of their own (crossterm's read blocks).
pub fn spawn_input(
    tx: Sender<Msg>,
    gate: Arc<InputGate>,
) -> std::io::Result<std::thread::JoinHandle<()>> {
    std::thread::Builder::new()
        .name("console-input".into())
        .spawn(move || {
            // SAFETY: isatty only inspects the descriptor.
            let tty = unsafe { libc::isatty(libc::STDIN_FILENO) } == 1;
            loop {
                if gate.stop.load(Ordering::SeqCst) {
                    break;
                }
                // A terminal that went away (window closed, SSH dropped, tmux session killed)
                // leaves crossterm's poll spinning on a dead tty; notice the hang-up instead.
                if tty && hung_up(libc::STDIN_FILENO) {
                    let _ = tx.send(Msg::Fatal("the terminal went away".into()));
                    break;
                }
                if gate.paused.load(Ordering::SeqCst) {
                    gate.idle.store(true, Ordering::SeqCst);
                    std::thread::sleep(Duration::from_millis(20));
                    continue;
                }
                // Poll with a timeout so pause and stop are noticed promptly.
                match event::poll(Duration::from_millis(50)) {
                    Ok(false) => continue,
                    Ok(true) => {}
                    Err(e) => {
                        let _ = tx.send(Msg::Fatal(format!("terminal input failed: {e}")));
                        break;
                    }
                }
                if gate.paused.load(Ordering::SeqCst) {
                    continue;
                }
                let msg = match event::read() {
                    Ok(Event::Key(k)) => Msg::Key(k),
                    // Motion without a button pressed is not worth a message.
                    Ok(Event::Mouse(m))
                        if !matches!(m.kind, crossterm::event::MouseEventKind::Moved) =>
                    {
                        Msg::Mouse(m)
                    }
                    Ok(Event::Resize(w, h)) => Msg::Resize(w, h),
                    Ok(_) => continue,
                    Err(e) => Msg::Fatal(format!("terminal input failed: {e}")),
                };
                let fatal = matches!(msg, Msg::Fatal(_));
                if tx.send(msg).is_err() || fatal {
                    break;
                }
            }
        })
}

/// Whether `fd` (a tty) was hung up: its other end closed.
fn hung_up(fd: i32) -> bool {
    let mut p = libc::pollfd {
        fd,
        events: 0,
        revents: 0,
    };
    // SAFETY: one pollfd we own, no waiting.
    let n = unsafe { libc::poll(&mut p, 1, 0) };
    n > 0 && p.revents & (libc::POLLHUP | libc::POLLERR | libc::POLLNVAL) != 0
}

/// Watch the drafts folder: drafts queued or decided by another process (the CLI, a vault tool
/// run from the CLI) reach the Drafts pane without Ctrl-r. A burst of changes is one reload.
/// The watcher lives as long as the returned value.
pub fn watch_drafts(
    dir: &std::path::Path,
    tx: Sender<Msg>,
) -> notify::Result<notify::RecommendedWatcher> {
    use notify::{RecursiveMode, Watcher};
    let (ev_tx, ev_rx) = std::sync::mpsc::channel::<()>();
    let mut w = notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
        if res.is_ok_and(|e| !e.kind.is_access()) {
            let _ = ev_tx.send(());
        }
    })?;
    w.watch(dir, RecursiveMode::NonRecursive)?;
    std::thread::Builder::new()
        .name("console-drafts-watch".into())
        .spawn(move || {
            // Ends when the watcher (and with it the sender) is dropped.
            while ev_rx.recv().is_ok() {
                std::thread::sleep(Duration::from_millis(150));
                while ev_rx.try_recv().is_ok() {}
                if tx.send(Msg::DraftsOnDisk).is_err() {
                    break;
                }
            }
        })
        .map_err(|e| notify::Error::generic(&e.to_string()))?;
    Ok(w)
}

/// Forward engine events to the UI. A lag means events were dropped: the UI reloads.
pub async fn forward_engine(mut rx: broadcast::Receiver<EngineEvent>, tx: Sender<Msg>) {
    loop {
        let msg = match rx.recv().await {
            Ok(ev) => Msg::Engine(ev),
            Err(broadcast::error::RecvError::Lagged(_)) => Msg::Lagged,
            Err(broadcast::error::RecvError::Closed) => break,
        };
        if tx.send(msg).is_err() {
            break;
        }
    }
}
