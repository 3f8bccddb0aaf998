//! `opsdesk watch`: a headless tail of the inbox with desktop toasts.
//!
//! A reader only: it takes no engine lock and works whether or not an engine runs. It follows
//! the inbox through its own consumer cursor ([`follow`]); it watches the inbox *directory*
//! with `notify` (inotify on Linux) purely as a wake-up signal, and re-reads on a slow timer
//! in case an event is missed. What to show is always decided by the store's index-based
//! reader, so day rollover (a new day file), a file renamed over another, a truncated torn
//! tail or a rebuilt `index2.bin` need no special handling here: each is just "something
//! changed, read from the cursor again", and the cursor only moves forward.
//!
//! Printing ([`format`]) and toasts ([`toast`]) are separate: a toast is handed to its own
//! thread without blocking, so the terminal line never waits for the notification server.

pub(crate) mod follow;
pub(crate) mod format;
pub mod toast;

use std::io::{self, ErrorKind, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, Sender, TryRecvError};
use std::time::{Duration, Instant};

use notify::{EventKind, RecommendedWatcher, RecursiveMode, Watcher};

pub use follow::{DEFAULT_CONSUMER, Follower, Poll, Start};
pub(crate) use toast::DesktopNotifier;
pub use toast::{Notifier, ToastConfig, Toaster};

/// How often the inbox is re-read when no file event arrives (a missed event costs at most
/// this much delay).
pub(crate) const FALLBACK_POLL: Duration = Duration::from_secs(1);
/// Records read per batch; a batch is printed, flushed, then the cursor is saved.
pub(crate) const READ_LIMIT: usize = 256;
/// The "what to do" hint is repeated at most this often.
pub(crate) const HINT_EVERY: Duration = Duration::from_secs(600);
/// How long the inbox may look shorter than the cursor (an index being rebuilt does, for a
/// moment) before watch says so.
const BEHIND_WARN_AFTER: Duration = Duration::from_secs(10);

/// Why the tail should look at the inbox again, or stop.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Wake {
    Changed,
    Stop,
}

/// What the tail prints.
#[derive(Debug, Clone)]
pub struct Options {
    /// Print lines (false with `--quiet`: toasts only, unless toasts fail).
    pub print: bool,
    /// One JSON record per line instead of the human line.
    pub json: bool,
    pub colour: bool,
    /// Fit human lines to the terminal's width (stdout is a terminal).
    pub fit_width: bool,
    /// Print the "what to do" hint under new messages.
    pub hint: bool,
    /// The fallback re-read interval.
    pub poll_every: Duration,
    /// When the cursor is saved.
    pub saving: Saving,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            print: true,
            json: false,
            colour: false,
            fit_width: false,
            hint: true,
            poll_every: FALLBACK_POLL,
            saving: Saving::default(),
        }
    }
}

/// Why [`run`] returned.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum End {
    /// A [`Wake::Stop`] (Ctrl-C, SIGTERM, SIGHUP).
    #[default]
    Stopped,
    /// Every sender of the wake channel is gone.
    Disconnected,
    /// Whoever read the output went away (`opsdesk watch | head`).
    BrokenPipe,
}

#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    /// Records delivered (printed and/or handed to the toaster).
    pub delivered: u64,
    /// The consumer's saved cursor at the end.
    pub cursor: u64,
    pub end: End,
}

#[derive(Debug, thiserror::Error)]
pub enum WatchError {
    #[error("cannot write the output: {0}")]
    Output(io::Error),
}

/// Narrower than this, lines are printed whole (and wrap): fitting would leave no summary.
const MIN_FIT_COLUMNS: usize = 30;

/// Whether a path in the inbox directory is one the tail cares about: the index (the commit
/// point) or a day file. Cursor writes (`state.json`, temporary files) are not.
pub(crate) fn is_inbox_file(path: &Path) -> bool {
    match path.file_name().and_then(|n| n.to_str()) {
        Some(n) => {
            n == crate::store::inbox::INDEX || (n.ends_with(".jsonl") && !n.starts_with('.'))
        }
        None => false,
    }
}

/// A `notify` watch on the inbox directory that wakes the tail.
pub struct DirWatch {
    dir: PathBuf,
    tx: Sender<Wake>,
    watcher: RecommendedWatcher,
    /// The directory itself went away (or the watch reported an error): re-arm on the next
    /// tick.
    lost: Arc<AtomicBool>,
}

impl DirWatch {
    pub fn start(dir: &Path, tx: Sender<Wake>) -> notify::Result<DirWatch> {
        let lost = Arc::new(AtomicBool::new(false));
        let (l, t, d) = (lost.clone(), tx.clone(), dir.to_path_buf());
        let mut watcher =
            notify::recommended_watcher(move |res: notify::Result<notify::Event>| {
                let wake = match &res {
                    Ok(ev) => {
                        if matches!(ev.kind, EventKind::Remove(_))
                            && ev.paths.iter().any(|p| p == &d)
                        {
                            l.store(true, Ordering::SeqCst);
                        }
                        // Opening or closing a file without writing is not a change, and the
                        // tail's own reads would otherwise wake it again and again.
                        ev.need_rescan()
                            || (!matches!(ev.kind, EventKind::Access(_))
                                && ev.paths.iter().any(|p| is_inbox_file(p)))
                    }
                    Err(_) => {
                        l.store(true, Ordering::SeqCst);
                        true
                    }
                };
                if wake {
                    // The tail may have stopped; nothing to do then.
                    let _ = t.send(Wake::Changed);
                }
            })?;
        watcher.watch(dir, RecursiveMode::NonRecursive)?;
        Ok(DirWatch {
            dir: dir.to_path_buf(),
            tx,
            watcher,
            lost,
        })
    }

    /// Re-arm a watch whose directory was removed and has come back.
    fn tick(&mut self) {
        if self.lost.load(Ordering::SeqCst) && self.dir.is_dir() {
            let _ = self.watcher.unwatch(&self.dir);
            if self
                .watcher
                .watch(&self.dir, RecursiveMode::NonRecursive)
                .is_ok()
            {
                self.lost.store(false, Ordering::SeqCst);
                let _ = self.tx.send(Wake::Changed);
            }
        }
    }
}

/// Turn SIGINT, SIGTERM and SIGHUP into [`Wake::Stop`]; a second signal exits at once (status
/// 130), in case the first one cannot be acted on (output blocked on a paused terminal).
/// The handlers are installed before this returns.
pub(crate) fn stop_on_signals(tx: Sender<Wake>) -> io::Result<()> {
    use tokio::signal::unix::{SignalKind, signal};
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_io()
        .build()?;
    let (mut int, mut term, mut hup) = {
        let _guard = rt.enter();
        (
            signal(SignalKind::interrupt())?,
            signal(SignalKind::terminate())?,
            signal(SignalKind::hangup())?,
        )
    };
    std::thread::Builder::new()
        .name("watch-signals".into())
        .spawn(move || {
            rt.block_on(async move {
                let mut seen = 0u32;
                loop {
                    tokio::select! {
                        Some(()) = int.recv() => {}
                        Some(()) = term.recv() => {}
                        Some(()) = hup.recv() => {}
                        else => break,
                    }
                    seen += 1;
                    if seen == 1 {
                        let _ = tx.send(Wake::Stop);
                    } else {
                        std::process::exit(130);
                    }
                }
            })
        })?;
    Ok(())
}

/// Report a recurring problem once until it changes or clears.
fn report_once(notices: &dyn Fn(&str), last: &mut Option<String>, msg: String) {
    if last.as_deref() != Some(msg.as_str()) {
        notices(&msg);
        *last = Some(msg);
    }
}

/// Pending wake-ups, taken without waiting.
#[derive(Default)]
struct Pending {
    stop: bool,
    changed: bool,
}

fn take_pending(wake: &Receiver<Wake>) -> Pending {
    let mut p = Pending::default();
    loop {
        match wake.try_recv() {
            Ok(Wake::Stop) => p.stop = true,
            Ok(Wake::Changed) => p.changed = true,
            Err(TryRecvError::Empty) | Err(TryRecvError::Disconnected) => return p,
        }
    }
}

/// When the cursor is saved. Saving takes the inbox's writer lock and fsyncs state.json, so
/// saving after every line would make writers (the engine's pollers) wait on this reader
/// during a burst. The cursor is saved once delivery pauses for [`Saving::idle`], at the
/// latest [`Saving::max_delay`] after the first unsaved delivery, and always on a clean stop.
/// A crash (SIGKILL, power loss) therefore repeats at most the last `max_delay` of lines, and
/// never skips one.
#[derive(Debug, Clone, Copy)]
pub struct Saving {
    pub idle: Duration,
    pub max_delay: Duration,
}

impl Default for Saving {
    fn default() -> Self {
        Saving {
            idle: Duration::from_millis(300),
            max_delay: Duration::from_secs(2),
        }
    }
}

/// State of the tail between batches.
struct Tail<'a> {
    follower: &'a mut Follower,
    opts: &'a Options,
    out: &'a mut dyn Write,
    toaster: Option<&'a Toaster>,
    notices: &'a dyn Fn(&str),
    stats: Stats,
    last_hint: Option<Instant>,
    read_problem: Option<String>,
    save_problem: Option<String>,
    behind_since: Option<Instant>,
    behind_warned: bool,
    /// The last delivery, and the first one not yet saved.
    last_delivery: Option<Instant>,
    unsaved_since: Option<Instant>,
    /// After a failed save, the next try is not before this.
    save_retry: Option<Instant>,
}

/// A failed cursor save is retried after this long (not in a tight loop).
const SAVE_RETRY: Duration = Duration::from_secs(5);

/// What a catch-up step ended with.
enum Step {
    /// Caught up: wait for the next change.
    Idle,
    /// Stop (signal, broken pipe).
    End(End),
}

impl Tail<'_> {
    /// Write a line; `Some(end)` when the reader of the output went away.
    fn write_line(&mut self, line: &str) -> Result<Option<End>, WatchError> {
        match writeln!(self.out, "{line}") {
            Ok(()) => Ok(None),
            Err(e) => broken_pipe(e),
        }
    }

    /// Deliver one batch: lines (flushed), toasts. `Some(end)` if the output went away.
    fn deliver(
        &mut self,
        records: &[crate::domain::InboxRecord],
    ) -> Result<Option<End>, WatchError> {
        // With --quiet, lines are the fallback when toasts cannot be shown.
        let print = self.opts.print || self.toaster.is_none_or(|t| t.is_down());
        // Asked per batch: the terminal may have been resized since.
        let width = if self.opts.fit_width {
            // A terminal that reports no size (0 columns, as a fresh PTY does) is not fitted.
            crossterm::terminal::size()
                .ok()
                .map(|(c, _)| usize::from(c))
                .filter(|&c| c >= MIN_FIT_COLUMNS)
        } else {
            None
        };
        for r in records {
            if print {
                let line = if self.opts.json {
                    format::json_line(r)
                } else {
                    format::human_line(r, self.opts.colour, width)
                };
                if let Some(end) = self.write_line(&line)? {
                    return Ok(Some(end));
                }
            }
            if let Some(t) = self.toaster {
                t.offer(r);
            }
        }
        if print
            && !self.opts.json
            && self.opts.hint
            && self.last_hint.is_none_or(|t| t.elapsed() >= HINT_EVERY)
        {
            if let Some(end) = self.write_line(&format::hint_line(self.opts.colour))? {
                return Ok(Some(end));
            }
            self.last_hint = Some(Instant::now());
        }
        if let Err(e) = self.out.flush() {
            return broken_pipe(e);
        }
        self.stats.delivered += records.len() as u64;
        Ok(None)
    }

    fn save(&mut self) {
        match self.follower.commit() {
            Ok(_) => {
                self.save_problem = None;
                self.unsaved_since = None;
                self.save_retry = None;
            }
            Err(e) => {
                self.save_retry = Some(Instant::now() + SAVE_RETRY);
                report_once(
                    self.notices,
                    &mut self.save_problem,
                    format!(
                        "opsdesk watch: cannot save the `{}` cursor ({e}); a restart may repeat messages",
                        self.follower.consumer()
                    ),
                )
            }
        }
    }

    /// How long until the cursor should be saved (`None`: nothing to save).
    fn save_in(&self, saving: &Saving) -> Option<Duration> {
        if !self.follower.dirty() {
            return None;
        }
        let idle = self
            .last_delivery
            .map(|t| saving.idle.saturating_sub(t.elapsed()))
            .unwrap_or(Duration::ZERO);
        let max = self
            .unsaved_since
            .map(|t| saving.max_delay.saturating_sub(t.elapsed()))
            .unwrap_or(Duration::ZERO);
        let retry = self
            .save_retry
            .map(|t| t.saturating_duration_since(Instant::now()))
            .unwrap_or(Duration::ZERO);
        Some(idle.min(max).max(retry))
    }

    fn check_behind(&mut self, last_seq: u64) {
        if last_seq >= self.follower.position() {
            self.behind_since = None;
            return;
        }
        let since = *self.behind_since.get_or_insert_with(Instant::now);
        if !self.behind_warned && since.elapsed() >= BEHIND_WARN_AFTER {
            self.behind_warned = true;
            let pos = self.follower.position();
            (self.notices)(&format!(
                "opsdesk watch: the inbox ends at #{last_seq} but the `{}` cursor is at #{pos}: \
                 was the inbox replaced? Messages up to #{pos} will not be shown; use another \
                 --consumer to start afresh",
                self.follower.consumer(),
            ));
        }
    }

    /// Read and deliver everything there is, batch by batch.
    fn catch_up(&mut self, wake: &Receiver<Wake>, saving: &Saving) -> Result<Step, WatchError> {
        loop {
            let before = self.follower.position();
            let poll = match self.follower.poll(READ_LIMIT) {
                Ok(p) => {
                    self.read_problem = None;
                    p
                }
                Err(e) => {
                    report_once(
                        self.notices,
                        &mut self.read_problem,
                        format!("opsdesk watch: cannot read the inbox ({e}); retrying"),
                    );
                    return Ok(Step::Idle);
                }
            };
            if !poll.records.is_empty()
                && let Some(end) = self.deliver(&poll.records)?
            {
                return Ok(Step::End(end));
            }
            if self.follower.position() > before {
                // Delivered, or passed over by the filter: either way the cursor is to move,
                // debounced like a delivery.
                self.last_delivery = Some(Instant::now());
            }
            if self.follower.dirty() {
                self.unsaved_since.get_or_insert_with(Instant::now);
            }
            if self.save_in(saving).is_some_and(|d| d.is_zero()) {
                self.save();
            }
            self.check_behind(poll.last_seq);

            // A change that arrived while this batch was read may not be in it: read again
            // rather than wait for the next event.
            let pending = take_pending(wake);
            if pending.stop {
                return Ok(Step::End(End::Stopped));
            }
            if !poll.more && !pending.changed {
                return Ok(Step::Idle);
            }
        }
    }
}

fn broken_pipe(e: io::Error) -> Result<Option<End>, WatchError> {
    // A reader that went away ends the tail quietly; anything else is an error.
    if e.kind() == ErrorKind::BrokenPipe {
        Ok(Some(End::BrokenPipe))
    } else {
        Err(WatchError::Output(e))
    }
}

/// The tail: deliver every new record after the follower's position, then wait for a wake-up
/// (or [`Options::poll_every`]) and do it again, until [`Wake::Stop`].
///
/// Per batch, lines are written and flushed and toasts offered; the cursor follows as
/// [`Saving`] describes, and on every clean stop. Store problems are reported through
/// `notices` once and retried; only an output error ends the tail with an error.
pub fn run(
    follower: &mut Follower,
    opts: &Options,
    out: &mut dyn Write,
    toaster: Option<&Toaster>,
    wake: &Receiver<Wake>,
    mut dir_watch: Option<&mut DirWatch>,
    notices: &dyn Fn(&str),
) -> Result<Stats, WatchError> {
    let saving = opts.saving;
    let mut tail = Tail {
        follower,
        opts,
        out,
        toaster,
        notices,
        stats: Stats::default(),
        last_hint: None,
        read_problem: None,
        save_problem: None,
        behind_since: None,
        behind_warned: false,
        last_delivery: None,
        unsaved_since: None,
        save_retry: None,
    };

    let end = loop {
        if let Step::End(end) = tail.catch_up(wake, &saving)? {
            break end;
        }
        let timeout = match tail.save_in(&saving) {
            Some(d) => d.min(opts.poll_every),
            None => opts.poll_every,
        };
        match wake.recv_timeout(timeout) {
            Ok(Wake::Stop) => break End::Stopped,
            Ok(Wake::Changed) => {
                // Many events usually come together (data line, index entry): the read that
                // follows covers all of those taken here.
                if take_pending(wake).stop {
                    break End::Stopped;
                }
            }
            Err(RecvTimeoutError::Timeout) => {
                if let Some(w) = dir_watch.as_deref_mut() {
                    w.tick();
                }
            }
            Err(RecvTimeoutError::Disconnected) => break End::Disconnected,
        }
    };

    // A clean stop saves what was delivered. After a broken pipe the last batch may not have
    // been read by anyone: leave it to be shown again.
    if end != End::BrokenPipe && tail.follower.dirty() {
        tail.save();
    }
    tail.stats.end = end;
    tail.stats.cursor = tail.follower.saved();
    Ok(tail.stats)
}
