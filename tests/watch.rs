//! `opsdesk watch` end to end: the real binary against real inbox files, and, in `mod dbus`,
//! against a real D-Bus session bus with a real notification server (python-dbusmock's
//! notification_daemon template, installed by `.ci/deps/watch.sh`).
//!
//! Every wait is a poll for a condition with a generous deadline; no test asserts on a fixed
//! sleep. Every child process is killed when its guard drops, whatever the test's outcome.

use std::collections::BTreeMap;
use std::fs;
use std::io::{BufRead, BufReader, Read};
use std::os::fd::{FromRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

use opsdesk::domain::{Channel, InboxRecord, Party};
use opsdesk::store::inbox::Inbox;
use serde_json::Value;

/// Deadline for anything the tests wait for (a busy 2-core machine can be slow).
const WAIT: Duration = Duration::from_secs(40);

// ------------------------------------------------------------------------------ helpers

fn msg(id: &str, channel: Channel, profile: &str, from: &str, text: &str) -> InboxRecord {
    let now = time::OffsetDateTime::now_utc();
    InboxRecord {
        seq: 0,
        id: id.to_string(),
        received_at: now,
        profile: profile.to_string(),
        channel,
        thread_id: None,
        from: Party::new(from, format!("{}@example.com", id.replace(':', "-"))),
        to: vec![],
        subject: None,
        ts: now,
        text: text.to_string(),
        preview: text.to_string(),
        meta: BTreeMap::new(),
        untrusted: true,
        attachments: Vec::new(),
    }
}

/// A data dir plus private config, cache and runtime dirs for the child processes.
struct Env {
    root: tempfile::TempDir,
}

impl Env {
    fn new() -> Env {
        let root = tempfile::Builder::new()
            .prefix("opsdesk-watch-test-")
            .tempdir()
            .unwrap();
        for d in ["data", "home", "config", "cache", "runtime"] {
            fs::create_dir_all(root.path().join(d)).unwrap();
        }
        Env { root }
    }
    fn path(&self, p: &str) -> PathBuf {
        self.root.path().join(p)
    }
    fn data(&self) -> PathBuf {
        self.path("data")
    }
    fn inbox_dir(&self) -> PathBuf {
        self.data().join("inbox")
    }
    fn inbox(&self) -> Inbox {
        Inbox::open(&self.inbox_dir()).unwrap()
    }
    fn append(&self, r: InboxRecord) -> u64 {
        match self.inbox().append(r).unwrap() {
            opsdesk::store::inbox::Appended::New(r) => r.seq,
            d => panic!("not stored: {d:?}"),
        }
    }
    fn cursor(&self, consumer: &str) -> Option<u64> {
        self.inbox().cursor(consumer).unwrap()
    }
    fn day_files(&self) -> Vec<String> {
        let mut v: Vec<String> = fs::read_dir(self.inbox_dir())
            .unwrap()
            .filter_map(|e| e.ok()?.file_name().into_string().ok())
            .filter(|n| n.ends_with(".jsonl"))
            .collect();
        v.sort();
        v
    }

    /// The binary with a clean environment: nothing of the developer's desktop session (a
    /// real D-Bus address would pop real toasts), times in UTC.
    fn command(&self, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_opsdesk"));
        c.env_clear()
            .env("HOME", self.path("home"))
            .env("XDG_CONFIG_HOME", self.path("config"))
            .env("XDG_CACHE_HOME", self.path("cache"))
            .env("XDG_RUNTIME_DIR", self.path("runtime"))
            .env("TZ", "UTC")
            .arg("--data-dir")
            .arg(self.data())
            .args(args);
        c
    }
}

/// Lines of a pipe, read on a thread of their own.
fn line_reader(r: impl Read + Send + 'static) -> Receiver<String> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(r).lines() {
            let Ok(line) = line else { break };
            if tx.send(line).is_err() {
                break;
            }
        }
    });
    rx
}

/// A running `opsdesk watch`, killed on drop.
struct Watch {
    child: Child,
    out_rx: Receiver<String>,
    err_rx: Receiver<String>,
    out: Vec<String>,
    err: Vec<String>,
}

impl Watch {
    /// Start it and wait until it says it is following (its start position is fixed then).
    fn start(env: &Env, args: &[&str], vars: &[(&str, &str)]) -> Watch {
        let mut c = env.command(&["watch"]);
        c.args(args)
            .envs(vars.iter().copied())
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        let mut child = c.spawn().unwrap();
        let out_rx = line_reader(child.stdout.take().unwrap());
        let err_rx = line_reader(child.stderr.take().unwrap());
        let mut w = Watch {
            child,
            out_rx,
            err_rx,
            out: vec![],
            err: vec![],
        };
        w.wait_err("the start notice", |l| {
            l.contains("opsdesk watch: following")
        });
        w
    }

    fn drain(&mut self) {
        while let Ok(l) = self.out_rx.try_recv() {
            self.out.push(l);
        }
        while let Ok(l) = self.err_rx.try_recv() {
            self.err.push(l);
        }
    }

    fn wait(&mut self, what: &str, mut done: impl FnMut(&Watch) -> bool) {
        let deadline = Instant::now() + WAIT;
        loop {
            self.drain();
            if done(self) {
                return;
            }
            if Instant::now() > deadline {
                panic!(
                    "timed out waiting for {what}\nstdout:\n{}\nstderr:\n{}",
                    self.out.join("\n"),
                    self.err.join("\n")
                );
            }
            if let Ok(Some(st)) = self.child.try_wait() {
                self.drain();
                if !done(self) {
                    panic!(
                        "watch exited ({st}) while waiting for {what}\nstdout:\n{}\nstderr:\n{}",
                        self.out.join("\n"),
                        self.err.join("\n")
                    );
                }
                return;
            }
            match self.out_rx.recv_timeout(Duration::from_millis(50)) {
                Ok(l) => self.out.push(l),
                Err(RecvTimeoutError::Timeout) | Err(RecvTimeoutError::Disconnected) => {}
            }
        }
    }

    fn wait_err(&mut self, what: &str, pred: impl Fn(&str) -> bool) {
        self.wait(what, |w| w.err.iter().any(|l| pred(l)));
    }

    /// Message lines (human mode: not the hint; JSON mode: all).
    fn messages(&self) -> Vec<String> {
        self.out
            .iter()
            .filter(|l| !l.starts_with("  \u{2192}"))
            .cloned()
            .collect()
    }

    fn wait_messages(&mut self, n: usize) -> Vec<String> {
        self.wait(&format!("{n} message lines"), |w| w.messages().len() >= n);
        self.messages()
    }

    /// Seqs of the JSON lines printed so far.
    fn seqs(&self) -> Vec<u64> {
        self.messages()
            .iter()
            .map(|l| {
                let v: Value = serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}"));
                v["seq"].as_u64().unwrap()
            })
            .collect()
    }

    fn wait_seqs(&mut self, n: usize) -> Vec<u64> {
        self.wait_messages(n);
        self.seqs()
    }

    fn signal(&self, sig: i32) {
        // SAFETY: kill(2) on our own child's pid; no memory is involved.
        let rc = unsafe { libc::kill(self.child.id() as libc::pid_t, sig) };
        assert_eq!(rc, 0, "kill failed");
    }

    /// Ctrl-C, then wait for the exit and the rest of the output.
    fn interrupt(self) -> (ExitStatus, Vec<String>, Vec<String>) {
        self.signal(libc::SIGINT);
        self.finish()
    }

    fn finish(mut self) -> (ExitStatus, Vec<String>, Vec<String>) {
        let deadline = Instant::now() + WAIT;
        let status = loop {
            if let Some(st) = self.child.try_wait().unwrap() {
                break st;
            }
            if Instant::now() > deadline {
                self.drain();
                panic!(
                    "watch did not exit\nstdout:\n{}\nstderr:\n{}",
                    self.out.join("\n"),
                    self.err.join("\n")
                );
            }
            std::thread::sleep(Duration::from_millis(20));
        };
        // The pipes close with the process: read them to the end.
        for l in self.out_rx.iter() {
            self.out.push(l);
        }
        for l in self.err_rx.iter() {
            self.err.push(l);
        }
        (
            status,
            std::mem::take(&mut self.out),
            std::mem::take(&mut self.err),
        )
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Nothing a terminal could act on, nothing that hides or reorders text.
fn assert_terminal_safe(line: &str, allow_sgr: bool) {
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        if allow_sgr && c == '\x1b' {
            // Only our own colour codes: ESC [ digits m.
            assert_eq!(chars.next(), Some('['), "{line:?}");
            let mut n = 0;
            while let Some(&d) = chars.peek() {
                if d.is_ascii_digit() || d == ';' {
                    chars.next();
                    n += 1;
                } else {
                    break;
                }
            }
            assert!(
                n > 0 && chars.next() == Some('m'),
                "not an SGR code: {line:?}"
            );
            continue;
        }
        assert!(!c.is_control(), "control character {c:?} in {line:?}");
        assert!(
            !matches!(c, '\u{200B}'..='\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{061C}' | '\u{FEFF}' | '\u{2028}' | '\u{2029}' | '\u{E0000}'..='\u{E007F}'),
            "bidi/invisible character {:?} in {line:?}",
            c
        );
    }
}

fn ok(st: ExitStatus) {
    assert_eq!(st.code(), Some(0), "exit status {st}");
}

// ------------------------------------------------------------------------------ following

#[test]
fn prints_new_messages_and_continues_after_a_restart() {
    let env = Env::new();
    env.append(msg(
        "old",
        Channel::Email,
        "work",
        "Old",
        "before the first run",
    ));

    let mut w = Watch::start(&env, &["--json", "--no-toast"], &[]);
    for i in 1..=3 {
        env.append(msg(
            &format!("a{i}"),
            Channel::Teams,
            "work",
            "Ada",
            &format!("hello {i}"),
        ));
    }
    // The first run starts at the end: the old message is not shown.
    assert_eq!(w.wait_seqs(3), [2, 3, 4]);
    let (st, out, err) = w.interrupt();
    ok(st);
    assert_eq!(out.len(), 3, "{out:?}");
    assert!(
        err.iter()
            .any(|l| l.contains("stopped; `watch` cursor at #4")),
        "{err:?}"
    );
    assert_eq!(env.cursor("watch"), Some(4));

    // Messages that arrive while watch is not running are shown by the next run, once.
    env.append(msg("b1", Channel::Email, "work", "Bob", "while stopped 1"));
    env.append(msg("b2", Channel::Email, "work", "Bob", "while stopped 2"));
    let mut w = Watch::start(&env, &["--json", "--no-toast"], &[]);
    assert!(
        w.err
            .iter()
            .any(|l| l.contains("after #4 (where `watch` stopped)"))
    );
    env.append(msg("c1", Channel::Calendar, "work", "Cal", "live"));
    assert_eq!(w.wait_seqs(3), [5, 6, 7]);
    let ids: Vec<String> = w
        .messages()
        .iter()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(ids, ["b1", "b2", "c1"]);
    let (st, _, _) = w.interrupt();
    ok(st);
    assert_eq!(env.cursor("watch"), Some(7));
}

/// The position a run started from, as its start notice says ("after #N").
fn started_after(err: &[String]) -> u64 {
    let l = err
        .iter()
        .find(|l| l.contains("opsdesk watch: following"))
        .expect("start notice");
    if l.contains("from the first message") {
        return 0;
    }
    let n = l.split("after #").nth(1).expect("after #N");
    n[..n.find(' ').unwrap_or(n.len())].parse().unwrap()
}

fn json_seqs(lines: &[String]) -> Vec<u64> {
    lines
        .iter()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["seq"]
                .as_u64()
                .unwrap()
        })
        .collect()
}

#[test]
fn a_killed_watch_never_skips_a_message() {
    let env = Env::new();
    let mut seen: Vec<u64> = Vec::new();
    let mut w = Watch::start(&env, &["--json", "--no-toast", "--from-start"], &[]);
    for round in 0..4u64 {
        for i in 0..5 {
            env.append(msg(
                &format!("k{round}-{i}"),
                Channel::Email,
                "work",
                "K",
                "x",
            ));
        }
        let want = (round + 1) * 5;
        w.wait(&format!("seq {want}"), |w| w.seqs().contains(&want));
        if round == 2 {
            // Once, let it save its cursor before the kill (it does when delivery pauses).
            let inbox = env.inbox();
            let deadline = Instant::now() + WAIT;
            while inbox.cursor("watch").unwrap() != Some(want) {
                assert!(Instant::now() < deadline, "cursor never saved");
                std::thread::sleep(Duration::from_millis(20));
            }
        }
        w.signal(libc::SIGKILL);
        let (_, out, err) = w.finish();
        // Each run continues right after the saved cursor, in order, with no gap.
        let from = started_after(&err);
        let seqs = json_seqs(&out);
        assert_eq!(seqs, (from + 1..=want).collect::<Vec<_>>(), "{err:?}");
        if round == 3 {
            assert_eq!(from, 15, "the cursor saved before the last kill was used");
        }
        seen.extend(seqs);
        w = Watch::start(&env, &["--json", "--no-toast"], &[]);
    }
    let (st, out, err) = w.interrupt();
    ok(st);
    let from = started_after(&err);
    assert!(json_seqs(&out).iter().all(|&s| s > from));
    let mut uniq = seen.clone();
    uniq.sort();
    uniq.dedup();
    assert_eq!(
        uniq,
        (1..=20).collect::<Vec<_>>(),
        "nothing skipped: {seen:?}"
    );
}

#[test]
fn an_idle_watch_uses_no_cpu() {
    let env = Env::new();
    let mut w = Watch::start(&env, &["--json", "--no-toast"], &[]);
    env.append(msg("i1", Channel::Email, "work", "I", "x"));
    w.wait_seqs(1);
    // Its own reads (opening index2.bin, the day file) and cursor writes must not wake it.
    let ticks = |pid: u32| -> u64 {
        let stat = fs::read_to_string(format!("/proc/{pid}/stat")).unwrap();
        let after = &stat[stat.rfind(')').unwrap() + 2..];
        let f: Vec<&str> = after.split(' ').collect();
        f[11].parse::<u64>().unwrap() + f[12].parse::<u64>().unwrap() // utime + stime
    };
    let pid = w.child.id();
    let before = ticks(pid);
    let t0 = Instant::now();
    std::thread::sleep(Duration::from_secs(3));
    let used = ticks(pid) - before;
    let hz = 100; // USER_HZ on Linux
    // A busy loop would use about the whole interval; an idle tail wakes once a second.
    assert!(
        used * 1000 / hz < 300,
        "{used} ticks of CPU in {:?} while idle",
        t0.elapsed()
    );
    ok(w.interrupt().0);
}

#[test]
fn from_start_is_for_a_new_consumer_and_consumers_are_independent() {
    let env = Env::new();
    for i in 1..=3 {
        env.append(msg(&format!("m{i}"), Channel::Email, "work", "M", "x"));
    }
    let mut w = Watch::start(&env, &["--json", "--no-toast", "--from-start"], &[]);
    assert_eq!(w.wait_seqs(3), [1, 2, 3]);
    ok(w.interrupt().0);

    // The `watch` cursor exists now: --from-start does not rewind it, and says so.
    let mut w = Watch::start(&env, &["--json", "--no-toast", "--from-start"], &[]);
    assert!(
        w.err
            .iter()
            .any(|l| l.contains("--from-start applies to a new consumer")),
        "{:?}",
        w.err
    );
    env.append(msg("m4", Channel::Email, "work", "M", "x"));
    assert_eq!(w.wait_seqs(1), [4]);
    ok(w.interrupt().0);

    // Another consumer has its own cursor.
    let mut w = Watch::start(
        &env,
        &["--json", "--no-toast", "--from-start", "--consumer", "side"],
        &[],
    );
    assert_eq!(w.wait_seqs(4), [1, 2, 3, 4]);
    ok(w.interrupt().0);
    assert_eq!(env.cursor("side"), Some(4));
    assert_eq!(env.cursor("watch"), Some(4));
}

#[test]
fn filters_show_only_matching_messages_and_move_past_the_rest() {
    let env = Env::new();
    let mut w = Watch::start(
        &env,
        &[
            "--json",
            "--no-toast",
            "--channel",
            "teams",
            "--profile",
            "clinic",
        ],
        &[],
    );
    let plan = [
        (Channel::Email, "clinic"),
        (Channel::Teams, "work"),
        (Channel::Teams, "clinic"), // 3
        (Channel::Calendar, "clinic"),
        (Channel::Teams, "clinic"), // 5
        (Channel::Email, "work"),
    ];
    for (i, (c, p)) in plan.iter().enumerate() {
        env.append(msg(&format!("f{i}"), *c, p, "F", "x"));
    }
    assert_eq!(w.wait_seqs(2), [3, 5]);
    // The cursor reaches the last record even though it did not match.
    let inbox = env.inbox();
    let deadline = Instant::now() + WAIT;
    while inbox.cursor("watch").unwrap() != Some(6) {
        assert!(
            Instant::now() < deadline,
            "cursor stuck at {:?}",
            inbox.cursor("watch")
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let (st, out, _) = w.interrupt();
    ok(st);
    for l in out {
        let v: Value = serde_json::from_str(&l).unwrap();
        assert_eq!(
            (v["channel"].as_str(), v["profile"].as_str()),
            (Some("teams"), Some("clinic"))
        );
    }
}

#[test]
fn human_lines_have_the_documented_shape_and_a_hint() {
    let env = Env::new();
    let mut w = Watch::start(&env, &["--no-toast"], &[]);
    let mut r = msg("h1", Channel::Teams, "work", "Brandon", "Hi there");
    r.ts = time::macros::datetime!(2026-03-04 18:21:09 UTC);
    env.append(r);
    let mut r = msg(
        "h2",
        Channel::Email,
        "clinic",
        "Contoso Billing",
        "Please pay",
    );
    r.subject = Some("Invoice 4471".into());
    r.ts = time::macros::datetime!(2026-03-04 09:05 UTC);
    env.append(r);
    w.wait_messages(2);
    let (st, out, _) = w.interrupt();
    ok(st);
    let msgs: Vec<&String> = out.iter().filter(|l| l.starts_with('[')).collect();
    assert_eq!(msgs[0], "[teams 18:21 work] Brandon: \"Hi there\"");
    assert_eq!(
        msgs[1],
        "[email 09:05 clinic] Contoso Billing: \"Invoice 4471 \u{2014} Please pay\""
    );
    assert!(
        out.iter()
            .any(|l| l.contains("ask your MCP client to check the inbox")),
        "{out:?}"
    );
    // Not a terminal: no colour codes at all.
    assert!(out.iter().all(|l| !l.contains('\x1b')));
}

// ------------------------------------------------------------------------------ in process

/// A `Write` whose bytes the test can read while the tail runs on another thread.
#[derive(Clone, Default)]
struct SharedBuf(std::sync::Arc<std::sync::Mutex<Vec<u8>>>);

impl std::io::Write for SharedBuf {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(b);
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl SharedBuf {
    fn lines(&self) -> Vec<String> {
        String::from_utf8(self.0.lock().unwrap().clone())
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }
}

/// Records the toasts it is asked to show.
struct RecordingNotifier(std::sync::Arc<std::sync::Mutex<Vec<opsdesk::watch::toast::Toast>>>);

impl opsdesk::watch::Notifier for RecordingNotifier {
    fn notify(
        &mut self,
        t: &opsdesk::watch::toast::Toast,
    ) -> Result<(), opsdesk::watch::toast::NotifyError> {
        self.0.lock().unwrap().push(t.clone());
        Ok(())
    }
}

fn wait_until(what: &str, mut f: impl FnMut() -> bool) {
    let deadline = Instant::now() + WAIT;
    while !f() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

#[test]
fn in_process_tail_prints_toasts_and_saves_on_stop() {
    use opsdesk::watch::{self, Follower, Options, Toaster, Wake};
    let env = Env::new();
    env.append(msg("p0", Channel::Email, "work", "Before", "not shown"));
    let (mut follower, start) =
        Follower::open(&env.inbox_dir(), "inproc", Default::default(), false).unwrap();
    assert_eq!(start, watch::Start::AtEnd(1));

    let toasts = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let notices = std::sync::Arc::new(std::sync::Mutex::new(Vec::<String>::new()));
    let n2 = notices.clone();
    let toaster = Toaster::spawn(
        Box::new(RecordingNotifier(toasts.clone())),
        std::sync::Arc::new(move |s: &str| n2.lock().unwrap().push(s.to_string())),
        watch::ToastConfig::default(),
    );
    let (tx, rx) = mpsc::channel();
    let mut dir_watch = watch::DirWatch::start(&env.inbox_dir(), tx.clone()).unwrap();
    let buf = SharedBuf::default();
    let mut out = buf.clone();
    let tail = std::thread::spawn(move || {
        let opts = Options {
            hint: false,
            // Far longer than the test: only the file events can wake the tail.
            poll_every: Duration::from_secs(3600),
            ..Options::default()
        };
        let stats = watch::run(
            &mut follower,
            &opts,
            &mut out,
            Some(&toaster),
            &rx,
            Some(&mut dir_watch),
            &|s: &str| eprintln!("{s}"),
        )
        .unwrap();
        toaster.finish(Duration::from_secs(10));
        stats
    });

    let mut r = msg("p1", Channel::Teams, "work", "Ada <script>", "hi & bye");
    r.ts = time::macros::datetime!(2026-01-01 00:00 UTC);
    env.append(r);
    env.append(msg("p2", Channel::Email, "work", "Bob", "second"));
    wait_until("two lines", || buf.lines().len() >= 2);
    wait_until("two toasts", || toasts.lock().unwrap().len() >= 2);
    tx.send(Wake::Stop).unwrap();
    let stats = tail.join().unwrap();

    let lines = buf.lines();
    assert_eq!(lines.len(), 2, "{lines:?}");
    assert!(
        lines[0].ends_with("work] Ada <script>: \"hi & bye\""),
        "{lines:?}"
    );
    let toasts = toasts.lock().unwrap();
    // Markup is escaped in the summary as in the body: notification daemons differ in
    // whether they render it there.
    assert_eq!(toasts[0].summary, "teams: Ada &lt;script&gt;");
    assert_eq!(toasts[0].body, "hi &amp; bye");
    assert_eq!(toasts[1].summary, "email: Bob");
    assert_eq!(stats.delivered, 2);
    assert_eq!(stats.end, watch::End::Stopped);
    // Stopping saves the cursor at once, whatever the save debounce.
    assert_eq!(stats.cursor, 3);
    assert_eq!(env.cursor("inproc"), Some(3));
    assert!(notices.lock().unwrap().is_empty());
}

// ------------------------------------------------------------------------------ the files

#[test]
fn day_rollover_is_followed() {
    let env = Env::new();
    for i in 1..=3 {
        env.append(msg(
            &format!("d{i}"),
            Channel::Email,
            "work",
            "D",
            "day one",
        ));
    }
    let mut w = Watch::start(&env, &["--json", "--no-toast", "--from-start"], &[]);
    assert_eq!(w.wait_seqs(3), [1, 2, 3]);

    // Make the records so far belong to an earlier day: move their file to an old date and
    // let the store rebuild its index (it rebuilds when index2.bin is missing). New records
    // then go to today's file, as after midnight.
    let files = env.day_files();
    assert_eq!(files.len(), 1);
    fs::rename(
        env.inbox_dir().join(&files[0]),
        env.inbox_dir().join("2020-01-01.jsonl"),
    )
    .unwrap();
    fs::remove_file(env.inbox_dir().join("index2.bin")).unwrap();
    env.append(msg("n1", Channel::Teams, "work", "N", "day two"));
    env.append(msg("n2", Channel::Teams, "work", "N", "day two again"));

    assert_eq!(w.wait_seqs(5), [1, 2, 3, 4, 5]);
    let files = env.day_files();
    assert_eq!(files.len(), 2, "{files:?}");
    assert_eq!(files[0], "2020-01-01.jsonl");
    let (st, out, _) = w.interrupt();
    ok(st);
    assert_eq!(out.len(), 5, "no repeats: {out:?}");
    assert_eq!(env.cursor("watch"), Some(5));
}

#[test]
fn rename_over_truncation_and_index_rewrites_neither_repeat_nor_skip() {
    let env = Env::new();
    let dir = env.inbox_dir();
    env.append(msg("r1", Channel::Email, "work", "R", "one"));
    let mut w = Watch::start(&env, &["--json", "--no-toast", "--from-start"], &[]);
    assert_eq!(w.wait_seqs(1), [1]);
    let day = dir.join(&env.day_files()[0]);

    // An editor's save: a new file renamed over the day file.
    let bytes = fs::read(&day).unwrap();
    fs::write(dir.join(".edit.tmp"), &bytes).unwrap();
    fs::rename(dir.join(".edit.tmp"), &day).unwrap();
    env.append(msg("r2", Channel::Email, "work", "R", "two"));
    assert_eq!(w.wait_seqs(2), [1, 2]);

    // A torn tail (a write that died mid-line) and a torn index entry. The reader must not
    // show them; the next writer cuts them (truncation) and appends.
    use std::io::Write;
    fs::OpenOptions::new()
        .append(true)
        .open(&day)
        .unwrap()
        .write_all(br#"{"seq":3,"id":"torn","text":"\u001b]52;c;VE9STg==\u0007"#)
        .unwrap();
    fs::OpenOptions::new()
        .append(true)
        .open(dir.join("index2.bin"))
        .unwrap()
        .write_all(&[7u8; 10])
        .unwrap();
    env.append(msg("r3", Channel::Email, "work", "R", "three"));
    assert_eq!(w.wait_seqs(3), [1, 2, 3]);
    assert!(!fs::read_to_string(&day).unwrap().contains("\"torn\""));

    // A complete record whose writer died before indexing it: the next writer rolls it
    // forward, and watch shows it exactly once, in order.
    let mut lost = msg("rolled", Channel::Teams, "work", "R", "rolled forward");
    lost.seq = 4;
    let mut line = serde_json::to_vec(&lost).unwrap();
    line.push(b'\n');
    fs::OpenOptions::new()
        .append(true)
        .open(&day)
        .unwrap()
        .write_all(&line)
        .unwrap();
    env.append(msg("r5", Channel::Email, "work", "R", "five"));
    assert_eq!(w.wait_seqs(5), [1, 2, 3, 4, 5]);

    // index2.bin replaced atomically (as a rebuild writes it): same entries, new inode.
    let idx = fs::read(dir.join("index2.bin")).unwrap();
    fs::write(dir.join(".index2.bin.tmp"), &idx).unwrap();
    fs::rename(dir.join(".index2.bin.tmp"), dir.join("index2.bin")).unwrap();
    env.append(msg("r6", Channel::Email, "work", "R", "six"));
    assert_eq!(w.wait_seqs(6), [1, 2, 3, 4, 5, 6]);

    // And a truncation of the day file back to its committed length (what the store's own
    // repair does) followed by more appends.
    let len = fs::metadata(&day).unwrap().len();
    fs::OpenOptions::new()
        .append(true)
        .open(&day)
        .unwrap()
        .write_all(b"garbage without newline")
        .unwrap();
    fs::OpenOptions::new()
        .write(true)
        .open(&day)
        .unwrap()
        .set_len(len)
        .unwrap();
    env.append(msg("r7", Channel::Email, "work", "R", "seven"));
    assert_eq!(w.wait_seqs(7), [1, 2, 3, 4, 5, 6, 7]);

    let (st, out, _) = w.interrupt();
    ok(st);
    let ids: Vec<String> = out
        .iter()
        .map(|l| {
            serde_json::from_str::<Value>(l).unwrap()["id"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    assert_eq!(ids, ["r1", "r2", "r3", "rolled", "r5", "r6", "r7"]);
}

// ------------------------------------------------------------------------------ hostile text

/// The shared hostile-content corpus plus cases aimed at what watch prints: each has a
/// payload marker that must never appear in the output.
fn hostile_corpus() -> Vec<(String, String)> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/hostile.json");
    let text = fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!(
            "{} is missing ({e}): the shared hostile corpus",
            path.display()
        )
    });
    let cases: Vec<Value> = serde_json::from_str(&text).unwrap();
    let mut out: Vec<(String, String)> = cases
        .iter()
        .map(|c| {
            (
                c["name"].as_str().unwrap_or("?").to_string(),
                c["input"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert!(out.len() >= 5, "the corpus looks empty");
    for (name, input) in [
        ("osc52 clipboard BEL", "copy \x1b]52;c;TUFSS0VSNTI=\x07done"),
        (
            "osc52 clipboard ST",
            "copy \x1b]52;c;TUFSS0VSNTI=\x1b\\done",
        ),
        (
            "osc8 link",
            "\x1b]8;;https://MARKER8.example/\x1b\\click here\x1b]8;;\x1b\\",
        ),
        ("csi clear + title", "\x1b[2J\x1b[H\x1b]0;MARKERTITLE\x07hi"),
        (
            "8-bit c1 csi",
            "\u{9b}31mred\u{9b}0m \u{9d}0;MARKERC1\u{9c}",
        ),
        (
            "bidi override",
            "invoice \u{202e}fdp.exe\u{202c} \u{2066}x\u{2069}",
        ),
        ("zero width + tags", "a\u{200b}b\u{e0041}\u{e0042}c"),
        (
            "markup",
            "<b>bold</b> <a href=\"https://MARKERHREF.example\">x</a> & 'q'",
        ),
        (
            "newlines",
            "line1\nline2\r\nline3\rfake [teams 00:00 work] Boss: \"wire money\"",
        ),
        ("nul and bell", "a\0b\x07c\x08d\x7f"),
    ] {
        out.push((name.to_string(), input.to_string()));
    }
    out
}

/// Payloads of escape sequences: never text, so never shown. (Markup in a plain-text message
/// is text, shown as such: escaped in a toast, harmless on a terminal.)
const MARKERS: [&str; 4] = ["TUFSS0VSNTI=", "MARKER8", "MARKERTITLE", "MARKERC1"];

/// Records carrying `input` in every text field, as a hand-edited inbox could (the store's
/// append does not sanitize; ingestion does, and watch must not rely on it).
fn hostile_record(i: usize, input: &str) -> InboxRecord {
    let mut r = msg(&format!("h{i}"), Channel::Teams, "work", input, input);
    r.subject = Some(input.to_string());
    r.from.address = input.to_string();
    r.thread_id = Some(input.to_string());
    if i.is_multiple_of(4) {
        r.profile = format!("work{input}");
    }
    r
}

#[test]
fn hostile_content_never_reaches_the_terminal_raw() {
    let env = Env::new();
    let corpus = hostile_corpus();
    for (i, (_, input)) in corpus.iter().enumerate() {
        env.append(hostile_record(i, input));
    }
    let n = corpus.len();

    for args in [
        vec!["--no-toast", "--from-start"],
        vec!["--no-toast", "--from-start", "--json", "--consumer", "json"],
    ] {
        let mut w = Watch::start(&env, &args, &[]);
        w.wait_messages(n);
        let (st, out, err) = w.interrupt();
        ok(st);
        let json = args.contains(&"--json");
        let msgs: Vec<&String> = out
            .iter()
            .filter(|l| !l.starts_with("  \u{2192}"))
            .collect();
        assert_eq!(
            msgs.len(),
            n,
            "one line per message, whatever the content: {out:#?}"
        );
        for l in out.iter().chain(err.iter()) {
            assert_terminal_safe(l, false);
        }
        if json {
            // Faithful: every line decodes back to the stored record.
            for (l, (i, (_, input))) in msgs.iter().zip(corpus.iter().enumerate()) {
                let r: InboxRecord = serde_json::from_str(l).unwrap();
                assert_eq!(r.text, *input, "case {i}");
            }
        } else {
            for l in &msgs {
                for m in MARKERS {
                    assert!(!l.contains(m), "payload {m} shown: {l:?}");
                }
                assert!(l.starts_with("[teams "), "{l:?}");
            }
            // Text stays readable around what was removed.
            assert!(msgs.iter().any(|l| l.contains("click here")));
            assert!(msgs.iter().any(|l| l.contains("copy done")));
        }
    }
}

// ------------------------------------------------------------------------------ colour

/// Run watch on a pseudo-terminal (so stdout is a tty) and return what it printed.
fn run_on_pty(env: &Env, vars: &[(&str, &str)]) -> String {
    let (mut master, mut slave) = (0, 0);
    // SAFETY: openpty writes two file descriptors into the given ints; the other pointers
    // may be null.
    let rc = unsafe {
        libc::openpty(
            &mut master,
            &mut slave,
            std::ptr::null_mut(),
            std::ptr::null(),
            std::ptr::null(),
        )
    };
    assert_eq!(rc, 0, "openpty failed");
    // SAFETY: both descriptors were just opened and are owned by nobody else.
    let (master, slave) = unsafe { (OwnedFd::from_raw_fd(master), OwnedFd::from_raw_fd(slave)) };
    let mut c = env.command(&["watch", "--no-toast", "--from-start"]);
    c.envs(vars.iter().copied())
        .stdin(Stdio::null())
        .stdout(Stdio::from(slave))
        .stderr(Stdio::piped());
    let child = c.spawn().unwrap();
    drop(c); // closes our copy of the slave, so the master sees EOF/EIO when the child exits
    let mut w = Watch {
        child,
        out_rx: line_reader(fs::File::from(master)),
        err_rx: mpsc::channel().1,
        out: vec![],
        err: vec![],
    };
    w.err_rx = line_reader(w.child.stderr.take().unwrap());
    w.wait_err("the start notice", |l| l.contains("following"));
    w.wait("a message line", |w| {
        w.out.iter().any(|l| l.contains("Ada"))
    });
    let (st, out, _) = w.interrupt();
    ok(st);
    out.join("\n")
}

#[test]
fn colour_on_a_terminal_unless_no_color() {
    let env = Env::new();
    env.append(msg("c1", Channel::Teams, "work", "Ada", "hi"));
    let coloured = run_on_pty(&env, &[]);
    assert!(coloured.contains("\x1b[35mteams\x1b[0m"), "{coloured:?}");
    for l in coloured.lines() {
        assert_terminal_safe(l.trim_end_matches('\r'), true);
    }
    let env = Env::new();
    env.append(msg("c1", Channel::Teams, "work", "Ada", "hi"));
    let plain = run_on_pty(&env, &[("NO_COLOR", "1")]);
    assert!(plain.contains("[teams "), "{plain:?}");
    assert!(!plain.contains('\x1b'), "{plain:?}");
}

// ------------------------------------------------------------------------------ usage

#[test]
fn usage_errors() {
    let env = Env::new();
    let out = env
        .command(&["watch", "--quiet", "--no-toast"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    let out = env.command(&["watch", "--consumer", ""]).output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(2),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = env
        .command(&["watch", "--channel", "fax"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

// ------------------------------------------------------------------------------ no bus

#[test]
fn without_a_bus_it_says_so_once_and_keeps_printing() {
    let env = Env::new();
    // No DBUS_SESSION_BUS_ADDRESS, and an empty XDG_RUNTIME_DIR: there is no session bus.
    let mut w = Watch::start(&env, &["--json"], &[]);
    w.wait_err("the no-server notice", |l| {
        l.contains("no desktop notification server")
    });
    for i in 1..=3 {
        env.append(msg(&format!("n{i}"), Channel::Email, "work", "N", "x"));
        w.wait_seqs(i);
    }
    let (st, out, err) = w.interrupt();
    ok(st);
    assert_eq!(out.len(), 3);
    let notices: Vec<&String> = err
        .iter()
        .filter(|l| l.contains("notification server"))
        .collect();
    assert_eq!(notices.len(), 1, "{err:?}");
    assert!(notices[0].ends_with("; printing only"), "{notices:?}");

    // A bus address that points nowhere is the same.
    let mut w = Watch::start(
        &env,
        &["--json", "--consumer", "other", "--quiet"],
        &[(
            "DBUS_SESSION_BUS_ADDRESS",
            "unix:path=/nonexistent/opsdesk-test-bus",
        )],
    );
    w.wait_err("the no-server notice", |l| {
        l.contains("no desktop notification server")
    });
    // --quiet falls back to printing when toasts cannot be shown.
    env.append(msg("n4", Channel::Email, "work", "N", "x"));
    assert_eq!(w.wait_seqs(1), [4]);
    ok(w.interrupt().0);
}

// ------------------------------------------------------------------------------ D-Bus

mod dbus {
    use super::*;

    /// The tools these tests need; missing ones fail the test with the fix, never skip it.
    fn require_tools() {
        let mut missing = vec![];
        for (tool, arg) in [("dbus-daemon", "--version"), ("dbus-send", "--help")] {
            if Command::new(tool)
                .arg(arg)
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .status()
                .is_err()
            {
                missing.push(tool.to_string());
            }
        }
        let py = Command::new("/usr/bin/python3")
            .args(["-c", "import dbusmock, dbus"])
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status();
        if !py.is_ok_and(|s| s.success()) {
            missing.push("/usr/bin/python3 with python3-dbusmock".into());
        }
        assert!(
            missing.is_empty(),
            "the D-Bus notification tests need {}: run `bash .ci/deps/watch.sh` as root \
             (installs dbus and python3-dbusmock)",
            missing.join(", ")
        );
    }

    /// A private session bus (no service activation, so nothing starts by itself), killed on
    /// drop, with optionally the mock notification server on it.
    pub struct Bus {
        pub address: String,
        daemon: Child,
        server: Option<Child>,
        _dir: tempfile::TempDir,
    }

    impl Bus {
        pub fn start(with_server: bool) -> Bus {
            require_tools();
            let dir = tempfile::tempdir().unwrap();
            let conf = dir.path().join("session.conf");
            fs::write(
                &conf,
                format!(
                    r#"<!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-Bus Bus Configuration 1.0//EN"
 "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
<busconfig>
  <type>session</type>
  <listen>unix:path={}/bus</listen>
  <auth>EXTERNAL</auth>
  <policy context="default">
    <allow send_destination="*" eavesdrop="true"/>
    <allow eavesdrop="true"/>
    <allow own="*"/>
  </policy>
</busconfig>
"#,
                    dir.path().display()
                ),
            )
            .unwrap();
            let mut daemon = Command::new("dbus-daemon")
                .arg(format!("--config-file={}", conf.display()))
                .args(["--nofork", "--nopidfile", "--print-address=1"])
                .stdin(Stdio::null())
                .stdout(Stdio::piped())
                .stderr(Stdio::null())
                .spawn()
                .unwrap();
            let lines = line_reader(daemon.stdout.take().unwrap());
            let address = match lines.recv_timeout(WAIT) {
                Ok(a) => a.trim().to_string(),
                Err(e) => {
                    let _ = daemon.kill();
                    panic!("dbus-daemon printed no address: {e}");
                }
            };
            let mut bus = Bus {
                address,
                daemon,
                server: None,
                _dir: dir,
            };
            if with_server {
                let server = Command::new("/usr/bin/python3")
                    .args([
                        "-m",
                        "dbusmock",
                        "--session",
                        "--template",
                        "notification_daemon",
                    ])
                    .env("DBUS_SESSION_BUS_ADDRESS", &bus.address)
                    .stdin(Stdio::null())
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .spawn()
                    .unwrap();
                bus.server = Some(server);
                let deadline = Instant::now() + WAIT;
                while !bus.has_owner("org.freedesktop.Notifications") {
                    assert!(
                        Instant::now() < deadline,
                        "the mock notification server did not start"
                    );
                    std::thread::sleep(Duration::from_millis(50));
                }
            }
            bus
        }

        fn has_owner(&self, name: &str) -> bool {
            Command::new("dbus-send")
                .arg(format!("--bus={}", self.address))
                .args([
                    "--print-reply",
                    "--dest=org.freedesktop.DBus",
                    "/org/freedesktop/DBus",
                    "org.freedesktop.DBus.NameHasOwner",
                ])
                .arg(format!("string:{name}"))
                .output()
                .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("boolean true"))
        }

        /// The Notify calls the server has received.
        pub fn calls(&self) -> Vec<Value> {
            let script =
                Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/watch/notify_calls.py");
            let out = Command::new("/usr/bin/python3")
                .arg(script)
                .env("DBUS_SESSION_BUS_ADDRESS", &self.address)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            serde_json::from_slice::<Vec<Value>>(&out.stdout).unwrap()
        }

        pub fn wait_calls(&self, n: usize) -> Vec<Value> {
            let deadline = Instant::now() + WAIT;
            loop {
                let c = self.calls();
                if c.len() >= n {
                    return c;
                }
                assert!(
                    Instant::now() < deadline,
                    "got {} of {n} Notify calls: {c:#?}",
                    c.len()
                );
                std::thread::sleep(Duration::from_millis(100));
            }
        }
    }

    impl Drop for Bus {
        fn drop(&mut self) {
            if let Some(s) = &mut self.server {
                let _ = s.kill();
                let _ = s.wait();
            }
            let _ = self.daemon.kill();
            let _ = self.daemon.wait();
        }
    }

    fn summary_body(c: &Value) -> (String, String) {
        (
            c["summary"].as_str().unwrap().to_string(),
            c["body"].as_str().unwrap().to_string(),
        )
    }

    #[test]
    fn toasts_reach_a_real_notification_server() {
        let bus = Bus::start(true);
        let env = Env::new();
        let mut w = Watch::start(
            &env,
            &["--json"],
            &[("DBUS_SESSION_BUS_ADDRESS", &bus.address)],
        );

        // One message: one toast, markup escaped.
        env.append(msg(
            "t1",
            Channel::Teams,
            "work",
            "Ada Lovelace",
            "Lunch <b>at</b> 12 & \"go\"?",
        ));
        w.wait_seqs(1);
        let calls = bus.wait_calls(1);
        let c = &calls[0];
        assert_eq!(c["app_name"], "opsdesk");
        assert_eq!(
            summary_body(c),
            (
                "teams: Ada Lovelace".to_string(),
                "Lunch &lt;b&gt;at&lt;/b&gt; 12 &amp; &quot;go&quot;?".to_string()
            )
        );
        assert_eq!(c["hints"]["category"], "im.received");
        let icon = PathBuf::from(c["app_icon"].as_str().unwrap());
        assert_eq!(icon, env.path("cache").join("opsdesk/opsdesk.png"));
        assert!(fs::read(&icon).unwrap().starts_with(b"\x89PNG"));

        // Two together: still one toast each (small groups are not coalesced).
        let mut a = msg("t2", Channel::Email, "work", "Bob", "Quarterly numbers");
        a.subject = Some("Q3".into());
        let b = msg("t3", Channel::Calendar, "clinic", "Carol", "Moved to 3pm");
        env.inbox().append_batch(vec![a, b]).unwrap();
        w.wait_seqs(3);
        let calls = bus.wait_calls(3);
        let got: Vec<(String, String)> = calls[1..3].iter().map(summary_body).collect();
        assert_eq!(
            got,
            [
                (
                    "email: Bob".to_string(),
                    "Q3 \u{2014} Quarterly numbers".to_string()
                ),
                ("calendar: Carol".to_string(), "Moved to 3pm".to_string()),
            ]
        );

        // A sync of many at once: one "N new messages" toast, counted per channel.
        let burst: Vec<InboxRecord> = (0..40)
            .map(|i| {
                let c = if i % 4 == 0 {
                    Channel::Teams
                } else {
                    Channel::Email
                };
                msg(&format!("burst{i}"), c, "work", "Sync", "x")
            })
            .collect();
        env.inbox().append_batch(burst).unwrap();
        w.wait_seqs(43);
        let calls = bus.wait_calls(4);
        assert_eq!(
            summary_body(&calls[3]),
            (
                "40 new messages".to_string(),
                "30 email, 10 teams".to_string()
            )
        );
        // All 40 are in that one toast, so there is nothing left to show.
        assert_eq!(calls.len(), 4, "{calls:#?}");

        let (st, _, err) = w.interrupt();
        ok(st);
        assert!(
            !err.iter().any(|l| l.contains("notification server")),
            "{err:?}"
        );
    }

    #[test]
    fn hostile_content_never_reaches_a_toast_raw() {
        let bus = Bus::start(true);
        let env = Env::new();
        let mut w = Watch::start(
            &env,
            &["--json"],
            &[("DBUS_SESSION_BUS_ADDRESS", &bus.address)],
        );
        let corpus = hostile_corpus();
        // Groups of up to three arrive together and still get a toast each.
        let mut expected = 0;
        for (g, chunk) in corpus.chunks(3).enumerate() {
            let recs: Vec<InboxRecord> = chunk
                .iter()
                .enumerate()
                .map(|(j, (_, input))| hostile_record(g * 3 + j, input))
                .collect();
            expected += recs.len();
            env.inbox().append_batch(recs).unwrap();
            w.wait_seqs(expected);
            bus.wait_calls(expected);
        }
        let calls = bus.calls();
        assert_eq!(calls.len(), corpus.len());
        for (c, (name, _)) in calls.iter().zip(&corpus) {
            let (summary, body) = summary_body(c);
            assert_terminal_safe(&summary, false);
            assert_terminal_safe(&body, false);
            assert!(
                !body.contains('<') && !body.contains('>'),
                "{name}: markup not escaped: {body:?}"
            );
            // Every `&` starts an entity we wrote.
            for (i, _) in body.match_indices('&') {
                let rest = &body[i..];
                assert!(
                    ["&amp;", "&lt;", "&gt;", "&quot;", "&#39;"]
                        .iter()
                        .any(|e| rest.starts_with(e)),
                    "{name}: bare & in {body:?}"
                );
            }
            for m in MARKERS {
                assert!(
                    !summary.contains(m) && !body.contains(m),
                    "{name}: payload {m} shown"
                );
            }
            assert!(summary.starts_with("teams: "), "{name}: {summary:?}");
            assert!(body.chars().count() <= 200 * 6, "{name}: body not bounded");
        }
        ok(w.interrupt().0);
    }

    #[test]
    fn a_bus_without_a_notification_server_is_reported_once() {
        let bus = Bus::start(false);
        let env = Env::new();
        let mut w = Watch::start(
            &env,
            &["--json"],
            &[("DBUS_SESSION_BUS_ADDRESS", &bus.address)],
        );
        w.wait_err("the no-server notice", |l| {
            l.contains("no desktop notification server")
        });
        for i in 1..=3 {
            env.append(msg(&format!("s{i}"), Channel::Teams, "work", "S", "x"));
            w.wait_seqs(i);
        }
        let (st, out, err) = w.interrupt();
        ok(st);
        assert_eq!(out.len(), 3);
        let notices: Vec<&String> = err
            .iter()
            .filter(|l| l.contains("notification server"))
            .collect();
        assert_eq!(notices.len(), 1, "{err:?}");
        assert!(
            notices[0].contains("ServiceUnknown") || notices[0].contains("not provided"),
            "{notices:?}"
        );
    }
}
