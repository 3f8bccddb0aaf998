//! Desktop notifications for `opsdesk watch`, best effort (principle 1 in docs/ARCHITECTURE.md: the files are
//! the truth, every push is best effort).
//!
//! The tail hands each record to a [`Toaster`] with a non-blocking `try_send` into a bounded
//! channel; a thread of its own talks to the notification server. So a slow, hung or missing
//! server never delays a printed line. Bursts are coalesced: records that arrive together
//! (within [`ToastConfig::window`], or that overflowed the channel) become one
//! "N new messages" toast when there are more than [`ToastConfig::max_individual`] of them.
//!
//! Toast summary: `"{channel}: {sender}"`, cleaned and markup-escaped (plain text by the
//! specification, but some daemons render markup there too, and escaped text shows the same
//! on both kinds); body: the message summary, cleaned and markup-escaped, at most
//! [`MAX_BODY_CHARS`] characters before escaping.

use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::{Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

use crate::domain::{Channel, InboxRecord};
use crate::sanitize::{escape_markup, one_line};

/// Longest toast body, in characters of text (before markup escaping).
pub(crate) const MAX_BODY_CHARS: usize = 200;
/// Longest sender in a toast summary.
const MAX_SENDER_CHARS: usize = 64;
/// The application name given to the notification server.
pub(crate) const APP_NAME: &str = "opsdesk";
/// The toast icon, embedded so that a moved or installed binary still has it.
pub(crate) const ICON_PNG: &[u8] = include_bytes!("../../assets/opsdesk.png");

/// What the tail hands over per record: already cleaned, bounded text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToastItem {
    pub channel: Channel,
    pub sender: String,
    pub text: String,
}

impl ToastItem {
    pub fn from_record(r: &InboxRecord) -> ToastItem {
        let sender = one_line(r.from.label(), MAX_SENDER_CHARS);
        ToastItem {
            channel: r.channel,
            sender: if sender.is_empty() {
                "(unknown sender)".to_string()
            } else {
                sender
            },
            text: super::format::summary(r, MAX_BODY_CHARS),
        }
    }
}

/// One notification as sent to the server.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Toast {
    /// Plain text.
    pub summary: String,
    /// Freedesktop body markup: text with `&`, `<`, `>`, `'`, `"` escaped.
    pub body: String,
    /// Freedesktop notification category hint.
    pub category: &'static str,
}

/// Per-channel counts of items that did not fit in the channel.
#[derive(Debug, Default)]
pub(crate) struct Overflow([AtomicU64; 4]);

fn channel_index(c: Channel) -> usize {
    Channel::ALL.iter().position(|&x| x == c).unwrap_or(0)
}

impl Overflow {
    fn add(&self, c: Channel) {
        self.0[channel_index(c)].fetch_add(1, Ordering::Relaxed);
    }
    fn take(&self) -> [u64; 4] {
        let mut out = [0; 4];
        for (o, a) in out.iter_mut().zip(&self.0) {
            *o = a.swap(0, Ordering::Relaxed);
        }
        out
    }
}

fn category(c: Channel) -> &'static str {
    match c {
        Channel::Email => "email.arrived",
        Channel::Teams => "im.received",
        Channel::Calendar | Channel::Spool => "x-opsdesk.inbox",
    }
}

/// The toasts for a group of items that arrived together plus `overflow` items counted per
/// channel (in [`Channel::ALL`] order): one per item when there are at most `max_individual`,
/// else one "N new messages" toast with the count per channel.
pub fn plan(items: &[ToastItem], overflow: [u64; 4], max_individual: usize) -> Vec<Toast> {
    let total = items.len() as u64 + overflow.iter().sum::<u64>();
    if total == 0 {
        return Vec::new();
    }
    if total <= max_individual as u64 && overflow.iter().all(|&n| n == 0) {
        return items
            .iter()
            .map(|i| Toast {
                summary: escape_markup(&format!("{}: {}", i.channel, i.sender)),
                body: escape_markup(&i.text),
                category: category(i.channel),
            })
            .collect();
    }
    let mut counts = overflow;
    for i in items {
        counts[channel_index(i.channel)] += 1;
    }
    let body = Channel::ALL
        .iter()
        .zip(counts)
        .filter(|(_, n)| *n > 0)
        .map(|(c, n)| format!("{n} {c}"))
        .collect::<Vec<_>>()
        .join(", ");
    vec![Toast {
        summary: format!("{total} new message{}", if total == 1 { "" } else { "s" }),
        body: escape_markup(&body),
        category: "x-opsdesk.inbox",
    }]
}

/// Something that shows a toast. The desktop one is [`DesktopNotifier`]; tests can supply
/// their own.
pub trait Notifier: Send + 'static {
    fn notify(&mut self, toast: &Toast) -> Result<(), NotifyError>;
    /// Check, once at start, that a server is there, so a missing one is reported before the
    /// first message rather than at it.
    fn probe(&mut self) -> Result<(), NotifyError> {
        Ok(())
    }
}

/// Why a toast could not be shown (the text of the D-Bus error).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotifyError(pub String);

impl fmt::Display for NotifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Toasts through the freedesktop notification service on the D-Bus session bus
/// (`notify-rust` with its pure-Rust zbus backend).
pub(crate) struct DesktopNotifier {
    icon: Option<String>,
}

impl DesktopNotifier {
    pub fn new(icon: Option<PathBuf>) -> DesktopNotifier {
        DesktopNotifier {
            icon: icon.and_then(|p| p.to_str().map(str::to_string)),
        }
    }
}

impl Notifier for DesktopNotifier {
    fn probe(&mut self) -> Result<(), NotifyError> {
        notify_rust::get_server_information()
            .map(drop)
            .map_err(|e| NotifyError(crate::sanitize::for_terminal(&e.to_string())))
    }

    fn notify(&mut self, toast: &Toast) -> Result<(), NotifyError> {
        let mut n = notify_rust::Notification::new();
        n.appname(APP_NAME)
            .summary(&toast.summary)
            .body(&toast.body)
            .hint(notify_rust::Hint::Category(toast.category.to_string()));
        if let Some(icon) = &self.icon {
            n.icon(icon);
        }
        // The returned handle only keeps the connection for action callbacks; none are used.
        n.show()
            .map(drop)
            .map_err(|e| NotifyError(crate::sanitize::for_terminal(&e.to_string())))
    }
}

/// Write the embedded icon to `<cache dir>/opsdesk/opsdesk.png` (unless it is already there
/// with the same bytes) and return its path. `None` when there is no cache directory or it
/// cannot be written: a toast without an icon is still a toast.
pub(crate) fn install_icon(cache_dir: Option<&Path>) -> Option<PathBuf> {
    let dir = match cache_dir {
        Some(d) => d.to_path_buf(),
        None => directories::ProjectDirs::from("", "", "opsdesk")?
            .cache_dir()
            .to_path_buf(),
    };
    let path = dir.join("opsdesk.png");
    if std::fs::read(&path).is_ok_and(|b| b == ICON_PNG) {
        return Some(path);
    }
    crate::paths::ensure_private_dir(&dir).ok()?;
    crate::paths::write_atomic(&path, ICON_PNG).ok()?;
    Some(path)
}

/// Tuning of the toast thread.
#[derive(Debug, Clone)]
pub struct ToastConfig {
    /// Items waiting for the toast thread; beyond this they are only counted.
    pub capacity: usize,
    /// Items arriving within this long of each other are one group.
    pub window: Duration,
    /// A group is shown after this long at most, even if items keep coming.
    pub max_wait: Duration,
    /// Groups of up to this many items get a toast each; larger ones one summary toast.
    pub max_individual: usize,
    /// After a failure, toasts are dropped (counted) for this long before the next try.
    pub retry_after: Duration,
    /// A server that has not answered one toast for this long is reported as not answering.
    pub hung_after: Duration,
}

impl Default for ToastConfig {
    fn default() -> Self {
        ToastConfig {
            capacity: 64,
            window: Duration::from_millis(150),
            max_wait: Duration::from_secs(1),
            max_individual: 3,
            retry_after: Duration::from_secs(60),
            hung_after: Duration::from_secs(10),
        }
    }
}

/// Where the toast thread reports problems (stderr in the binary).
pub(crate) type NoticeSink = Arc<dyn Fn(&str) + Send + Sync>;

struct Shared {
    overflow: Overflow,
    /// The last toast failed; the tail may fall back to printing.
    down: AtomicBool,
    /// The "no server" notice was given (given once per run).
    announced: AtomicBool,
    /// Milliseconds since `epoch` at which the current toast started; 0 when idle.
    busy_since_ms: AtomicU64,
    epoch: Instant,
    shown: AtomicU64,
    dropped: AtomicU64,
    notices: NoticeSink,
    /// Serializes the notice so the tail thread and the toast thread never both give it.
    notice_lock: Mutex<()>,
}

impl Shared {
    fn announce_once(&self, what: &str) {
        let _g = self.notice_lock.lock().unwrap_or_else(|p| p.into_inner());
        if !self.announced.swap(true, Ordering::SeqCst) {
            (self.notices)(&format!(
                "opsdesk watch: no desktop notification server ({what}); printing only"
            ));
        }
    }
}

/// What waits for the toast thread: an inbox item (grouped with those arriving with it) or a
/// toast already composed (a drafts reminder, coalesced by its maker).
enum Queued {
    Item(ToastItem),
    Ready(Toast),
}

/// The handle the tail uses.
pub struct Toaster {
    tx: Option<SyncSender<Queued>>,
    shared: Arc<Shared>,
    hung_after: Duration,
    thread: Option<thread::JoinHandle<()>>,
}

impl Toaster {
    pub fn spawn(notifier: Box<dyn Notifier>, notices: NoticeSink, config: ToastConfig) -> Toaster {
        let (tx, rx) = std::sync::mpsc::sync_channel(config.capacity.max(1));
        let shared = Arc::new(Shared {
            overflow: Overflow::default(),
            down: AtomicBool::new(false),
            announced: AtomicBool::new(false),
            busy_since_ms: AtomicU64::new(0),
            epoch: Instant::now(),
            shown: AtomicU64::new(0),
            dropped: AtomicU64::new(0),
            notices,
            notice_lock: Mutex::new(()),
        });
        let hung_after = config.hung_after;
        let s = shared.clone();
        let thread = thread::Builder::new()
            .name("watch-toasts".into())
            .spawn(move || toast_loop(notifier, rx, s, config));
        let (tx, thread) = match thread {
            Ok(t) => (Some(tx), Some(t)),
            Err(e) => {
                shared.announce_once(&format!("cannot start the toast thread: {e}"));
                shared.down.store(true, Ordering::SeqCst);
                (None, None)
            }
        };
        Toaster {
            tx,
            shared,
            hung_after,
            thread,
        }
    }

    /// Queue a toast for `r`. Never blocks: when the queue is full the record is counted and
    /// becomes part of the next "N new messages" toast.
    pub fn offer(&self, r: &InboxRecord) {
        self.check_hung();
        let Some(tx) = &self.tx else { return };
        match tx.try_send(Queued::Item(ToastItem::from_record(r))) {
            Ok(()) => {}
            Err(TrySendError::Full(Queued::Item(item))) => self.shared.overflow.add(item.channel),
            Err(TrySendError::Full(Queued::Ready(_))) | Err(TrySendError::Disconnected(_)) => {}
        }
    }

    /// Queue a drafts reminder (one toast naming every overdue draft). Never blocks: with the
    /// queue full it is dropped and counted, and the next interval's reminder says it again.
    pub fn remind(&self, reminder: &crate::engine::reminders::Reminder) {
        self.check_hung();
        let Some(tx) = &self.tx else { return };
        let toast = Toast {
            summary: escape_markup(&reminder.summary()),
            body: escape_markup(&reminder.body_lines().join("\n")),
            category: "x-opsdesk.drafts",
        };
        if tx.try_send(Queued::Ready(toast)).is_err() {
            self.shared.dropped.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// The last attempt to show a toast failed, or the server has stopped answering.
    pub fn is_down(&self) -> bool {
        self.check_hung();
        self.shared.down.load(Ordering::SeqCst)
    }

    /// Toasts the server accepted so far (a coalesced toast counts once).
    pub fn shown(&self) -> u64 {
        self.shared.shown.load(Ordering::Relaxed)
    }

    /// A toast that has been in progress for longer than `hung_after` means the server (or
    /// the bus) does not answer: say so once; toasts queue up meanwhile and are coalesced.
    fn check_hung(&self) {
        let since = self.shared.busy_since_ms.load(Ordering::SeqCst);
        if since == 0 {
            return;
        }
        let now = self.shared.epoch.elapsed().as_millis() as u64;
        if now.saturating_sub(since) >= self.hung_after.as_millis() as u64 {
            self.shared.down.store(true, Ordering::SeqCst);
            self.shared
                .announce_once("the notification server does not answer");
        }
    }

    /// Stop taking toasts and wait up to `timeout` for the queued ones to be shown.
    pub fn finish(mut self, timeout: Duration) {
        self.tx = None;
        let Some(t) = self.thread.take() else { return };
        let deadline = Instant::now() + timeout;
        while !t.is_finished() && Instant::now() < deadline {
            thread::sleep(Duration::from_millis(10));
        }
        if t.is_finished() {
            let _ = t.join();
        }
        // Otherwise leave the thread: it is stuck in a call to the server, and exiting the
        // process ends it.
    }
}

fn toast_loop(
    mut notifier: Box<dyn Notifier>,
    rx: Receiver<Queued>,
    shared: Arc<Shared>,
    config: ToastConfig,
) {
    let mut retry_at: Option<Instant> = None;
    shared.busy_since_ms.store(
        (shared.epoch.elapsed().as_millis() as u64).max(1),
        Ordering::SeqCst,
    );
    let probed = notifier.probe();
    shared.busy_since_ms.store(0, Ordering::SeqCst);
    if let Err(e) = probed {
        shared.announce_once(&e.0);
        shared.down.store(true, Ordering::SeqCst);
        retry_at = Some(Instant::now() + config.retry_after);
    }
    while let Ok(first) = rx.recv() {
        // Gather what arrives with it: a burst becomes one group.
        let mut group = Vec::new();
        let mut ready = Vec::new();
        match first {
            Queued::Item(i) => group.push(i),
            Queued::Ready(t) => ready.push(t),
        }
        let started = Instant::now();
        let mut closed = false;
        loop {
            let left = config.max_wait.saturating_sub(started.elapsed());
            if left.is_zero() {
                break;
            }
            match rx.recv_timeout(config.window.min(left)) {
                Ok(Queued::Ready(t)) => ready.push(t),
                Ok(Queued::Item(item)) => {
                    if group.len() < 10_000 {
                        group.push(item);
                    } else {
                        shared.overflow.add(item.channel);
                    }
                }
                Err(RecvTimeoutError::Timeout) => break,
                Err(RecvTimeoutError::Disconnected) => {
                    closed = true;
                    break;
                }
            }
        }
        let mut toasts = plan(&group, shared.overflow.take(), config.max_individual);
        toasts.extend(ready);
        if retry_at.is_some_and(|t| Instant::now() < t) {
            shared
                .dropped
                .fetch_add(toasts.len() as u64, Ordering::Relaxed);
        } else {
            for t in &toasts {
                let now_ms = (shared.epoch.elapsed().as_millis() as u64).max(1);
                shared.busy_since_ms.store(now_ms, Ordering::SeqCst);
                let result = notifier.notify(t);
                shared.busy_since_ms.store(0, Ordering::SeqCst);
                match result {
                    Ok(()) => {
                        shared.shown.fetch_add(1, Ordering::Relaxed);
                        shared.down.store(false, Ordering::SeqCst);
                        retry_at = None;
                    }
                    Err(e) => {
                        shared.announce_once(&e.0);
                        shared.down.store(true, Ordering::SeqCst);
                        retry_at = Some(Instant::now() + config.retry_after);
                        break;
                    }
                }
            }
        }
        if closed {
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn item(c: Channel, s: &str, t: &str) -> ToastItem {
        ToastItem {
            channel: c,
            sender: s.into(),
            text: t.into(),
        }
    }

    #[test]
    fn small_groups_are_individual_and_escaped() {
        let t = plan(&[item(Channel::Teams, "Ada", "<b>hi</b> & bye")], [0; 4], 3);
        assert_eq!(
            t,
            vec![Toast {
                summary: "teams: Ada".into(),
                body: "&lt;b&gt;hi&lt;/b&gt; &amp; bye".into(),
                category: "im.received",
            }]
        );
    }

    #[test]
    fn a_sender_with_markup_is_escaped_in_the_summary() {
        let t = plan(
            &[item(Channel::Email, "<span size='100000'>BIG</span>", "x")],
            [0; 4],
            3,
        );
        assert_eq!(
            t[0].summary,
            "email: &lt;span size=&#39;100000&#39;&gt;BIG&lt;/span&gt;"
        );
    }

    #[test]
    fn bursts_are_coalesced_with_counts() {
        let mut items = vec![item(Channel::Email, "a", "x"); 3];
        items.push(item(Channel::Teams, "b", "y"));
        let t = plan(&items, [0, 2, 0, 0], 3);
        assert_eq!(t.len(), 1);
        assert_eq!(t[0].summary, "6 new messages");
        assert_eq!(t[0].body, "3 email, 3 teams");
        // Any overflow means items were not seen one by one: coalesce even if few.
        let t = plan(&[], [1, 0, 0, 0], 3);
        assert_eq!(t[0].summary, "1 new message");
        assert!(plan(&[], [0; 4], 3).is_empty());
    }

    struct Recorder(Arc<Mutex<Vec<Toast>>>, bool);
    impl Notifier for Recorder {
        fn notify(&mut self, toast: &Toast) -> Result<(), NotifyError> {
            if self.1 {
                return Err(NotifyError("no server here".into()));
            }
            self.0.lock().unwrap().push(toast.clone());
            Ok(())
        }
    }

    fn rec(i: u64) -> InboxRecord {
        let now = time::OffsetDateTime::now_utc();
        InboxRecord {
            seq: i,
            id: format!("m{i}"),
            received_at: now,
            profile: "work".into(),
            channel: Channel::Email,
            thread_id: None,
            from: crate::domain::Party::new("Ada", "a@x"),
            to: vec![],
            subject: None,
            ts: now,
            text: format!("t{i}"),
            preview: format!("t{i}"),
            meta: Default::default(),
            untrusted: true,
            attachments: Vec::new(),
        }
    }

    #[test]
    fn a_drafts_reminder_is_one_toast_naming_every_overdue_draft() {
        use crate::engine::reminders::{Overdue, Reminder};
        let seen = Arc::new(Mutex::new(Vec::new()));
        let t = Toaster::spawn(
            Box::new(Recorder(seen.clone(), false)),
            Arc::new(|_: &str| {}),
            ToastConfig::default(),
        );
        let overdue = |id: &str, h: i64| Overdue {
            id: id.into(),
            profile: "work".into(),
            kind: "send_email",
            recipients: "bob@contoso.com".into(),
            subject: "<Contract>".into(),
            age: time::Duration::hours(h),
        };
        t.remind(&Reminder {
            after: time::Duration::hours(24),
            drafts: vec![overdue("d-1", 50), overdue("d-2", 30)],
        });
        t.finish(Duration::from_secs(10));
        let seen = seen.lock().unwrap();
        assert_eq!(seen.len(), 1, "{seen:?}");
        assert_eq!(seen[0].summary, "2 drafts waiting longer than 24 h");
        assert!(
            seen[0]
                .body
                .contains("d-1 2d send_email to bob@contoso.com · &lt;Contract&gt;"),
            "{seen:?}"
        );
        assert!(seen[0].body.contains("d-2 30h"), "{seen:?}");
        assert_eq!(seen[0].category, "x-opsdesk.drafts");
    }

    #[test]
    fn toaster_coalesces_a_burst_and_reports_failure_once() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let notes = Arc::new(Mutex::new(Vec::<String>::new()));
        let n2 = notes.clone();
        let cfg = ToastConfig {
            capacity: 4,
            ..ToastConfig::default()
        };
        let t = Toaster::spawn(
            Box::new(Recorder(seen.clone(), false)),
            Arc::new(move |s: &str| n2.lock().unwrap().push(s.to_string())),
            cfg.clone(),
        );
        for i in 0..50 {
            t.offer(&rec(i));
        }
        t.finish(Duration::from_secs(10));
        let seen = seen.lock().unwrap();
        let total: u64 = seen
            .iter()
            .map(|t| {
                t.summary
                    .split_once(" new message")
                    .map(|(n, _)| n)
                    .map(|n| n.parse::<u64>().unwrap())
                    .unwrap_or(1)
            })
            .sum();
        assert_eq!(total, 50, "{seen:?}");
        assert!(seen.len() < 5, "{seen:?}");
        assert!(notes.lock().unwrap().is_empty());

        let n3 = notes.clone();
        let t = Toaster::spawn(
            Box::new(Recorder(Arc::default(), true)),
            Arc::new(move |s: &str| n3.lock().unwrap().push(s.to_string())),
            cfg,
        );
        for i in 0..3 {
            t.offer(&rec(i));
            std::thread::sleep(Duration::from_millis(400));
        }
        assert!(t.is_down());
        t.finish(Duration::from_secs(10));
        let notes = notes.lock().unwrap();
        assert_eq!(notes.len(), 1, "{notes:?}");
        assert!(notes[0].contains("no desktop notification server (no server here)"));
    }

    #[test]
    fn icon_is_installed_once() {
        let d = tempfile::tempdir().unwrap();
        let p = install_icon(Some(d.path())).unwrap();
        assert_eq!(std::fs::read(&p).unwrap(), ICON_PNG);
        assert_eq!(install_icon(Some(d.path())).unwrap(), p);
        assert!(ICON_PNG.starts_with(b"\x89PNG"));
    }
}
