//! The console in a real tmux at 80x24, the way the issue was found: global options before
//! the default command, the status bar led by health, draft ids visible in the Drafts pane,
//! help for the current pane, and `q` ends it. tmux comes from `.ci/deps/console.sh`.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

struct Tmux {
    socket: String,
}

impl Tmux {
    fn cmd(&self) -> Command {
        let mut c = Command::new("tmux");
        c.args(["-L", &self.socket]);
        c
    }
    fn capture(&self) -> String {
        let o = self
            .cmd()
            .args(["capture-pane", "-p", "-t", "t"])
            .output()
            .expect("tmux capture-pane");
        String::from_utf8_lossy(&o.stdout).into_owned()
    }
    fn keys(&self, keys: &[&str]) {
        let st = self
            .cmd()
            .args(["send-keys", "-t", "t"])
            .args(keys)
            .status()
            .expect("tmux send-keys");
        assert!(st.success());
        std::thread::sleep(Duration::from_millis(200));
    }
    fn wait_for(&self, what: &str, cond: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let s = self.capture();
            if cond(&s) {
                return s;
            }
            assert!(
                start.elapsed() < Duration::from_secs(120),
                "timed out waiting for {what}; pane:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(150));
        }
    }
    fn alive(&self) -> bool {
        self.cmd()
            .args(["has-session", "-t", "t"])
            .status()
            .is_ok_and(|s| s.success())
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = self.cmd().arg("kill-server").status();
    }
}

#[test]
fn console_in_tmux_at_80x24() {
    assert!(
        Command::new("tmux").arg("-V").output().is_ok(),
        "tmux is required (bash .ci/deps/console.sh installs it)"
    );
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let t = Tmux {
        socket: format!("opsdesk-test-{}", std::process::id()),
    };
    let bin = env!("CARGO_BIN_EXE_opsdesk");
    let command = format!(
        "env -u OPSDESK_CONFIG -u OPSDESK_DATA_DIR -u OPSDESK_THEME -u NO_COLOR {bin} --demo --theme light --bind 127.0.0.1:0 --data-dir {}; echo exit=$?; sleep 30",
        shell_quote(&data)
    );
    new_session(&t, &home, (80, 24), &command);

    let s = t.wait_for("the first frame", |s| s.contains("1 Inbox"));
    let status = s.lines().nth(23).unwrap_or("");
    assert!(
        status.starts_with(" ✓ all ok") || status.starts_with(" !!"),
        "health first: {status:?}"
    );
    t.keys(&["3"]);
    let s = t.wait_for("a draft", |s| s.contains("│> pending"));
    let row = s.lines().find(|l| l.contains("│> pending")).unwrap();
    assert!(row.contains(" d-"), "draft id visible at 80 columns: {row}");
    t.keys(&["?"]);
    t.wait_for("help for the Drafts pane", |s| {
        s.contains("Drafts pane · act")
    });
    t.keys(&["Escape"]);

    // The demo's drafts go somewhere visible: approving one sends it to the demo outbox.
    t.keys(&["a"]);
    t.wait_for("the approve dialog", |s| {
        s.contains("Approving releases this")
    });
    t.keys(&["y"]);
    let s = t.wait_for("the draft sent", |s| s.contains("· 1 sent ·"));
    assert!(!s.contains("Approving releases this"), "dialog closed: {s}");
    let sent = data.join("demo-outbox").join("sent.jsonl");
    let outbox = std::fs::read_to_string(&sent).unwrap_or_default();
    assert_eq!(
        outbox.lines().count(),
        1,
        "one message in {}: {outbox}",
        sent.display()
    );
    t.keys(&["q"]);
    let s = t.wait_for("the exit", |s| s.contains("exit="));
    assert!(s.contains("exit=0"), "{s}");
    assert!(t.alive(), "the session outlives the console (sleep)");
}

/// A detached tmux session `t` of `w`x`h` running `command`, with HOME (and the XDG config
/// dir) in the test's `home`.
fn new_session(t: &Tmux, home: &Path, (w, h): (u16, u16), command: &str) {
    let st = t
        .cmd()
        .args(["-f", "/dev/null", "new-session", "-d", "-s", "t"])
        .args(["-x", &w.to_string(), "-y", &h.to_string()])
        .args(["-e", &format!("HOME={}", home.display())])
        .args([
            "-e",
            &format!("XDG_CONFIG_HOME={}", home.join(".config").display()),
        ])
        .args(["-e", "TERM=tmux-256color"])
        .arg(command)
        .status()
        .expect("tmux new-session");
    assert!(st.success());
}

fn shell_quote(p: &Path) -> String {
    format!("'{}'", p.display().to_string().replace('\'', "'\\''"))
}

/// A console started in its own tmux session with `exec`, so the pane's process is opsdesk.
fn console_in_session(t: &Tmux, data: &Path, home: &Path) -> i32 {
    let bin = env!("CARGO_BIN_EXE_opsdesk");
    let command = format!(
        "exec env -u OPSDESK_CONFIG -u OPSDESK_DATA_DIR -u OPSDESK_THEME -u NO_COLOR {bin} --demo --keep --bind 127.0.0.1:0 --data-dir {}",
        shell_quote(data)
    );
    new_session(t, home, (100, 30), &command);
    t.wait_for("the first frame", |s| s.contains("1 Inbox"));
    let o = t
        .cmd()
        .args(["list-panes", "-t", "t", "-F", "#{pane_pid}"])
        .output()
        .expect("tmux list-panes");
    String::from_utf8_lossy(&o.stdout)
        .trim()
        .parse()
        .expect("the pane's pid")
}

/// The process is gone (or a zombie) within 20 s.
fn ends_within(pid: i32) -> bool {
    let start = Instant::now();
    while start.elapsed() < Duration::from_secs(20) {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
        let zombie = stat
            .rsplit_once(')')
            .is_some_and(|(_, r)| r.trim_start().starts_with('Z'));
        if stat.is_empty() || zombie {
            return true;
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    false
}

/// Nobody holds the data dir's engine lock.
fn lock_is_free(data: &Path) -> bool {
    use std::os::fd::AsRawFd;
    let f = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(data.join("engine.lock"))
        .expect("engine.lock");
    // SAFETY: flock on a descriptor we own; released when `f` closes.
    unsafe { libc::flock(f.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) == 0 }
}

#[test]
fn a_console_whose_terminal_goes_away_exits_and_frees_the_data_dir() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let t = Tmux {
        socket: format!("opsdesk-test-gone-{}", std::process::id()),
    };
    let pid = console_in_session(&t, &data, &home);
    assert!(!lock_is_free(&data), "the running console holds the lock");
    // The terminal disappears under it, as when its window or SSH session is closed.
    let st = t
        .cmd()
        .args(["kill-session", "-t", "t"])
        .status()
        .expect("tmux kill-session");
    assert!(st.success());
    assert!(ends_within(pid), "the console outlived its terminal");
    // A process shows as a zombie while its other threads are still being torn down, and
    // their shared descriptors (the lock's among them) close with the last of them.
    let start = Instant::now();
    while !lock_is_free(&data) && start.elapsed() < Duration::from_secs(20) {
        std::thread::sleep(Duration::from_millis(100));
    }
    assert!(lock_is_free(&data), "the engine lock is still held");
}

#[test]
fn sigterm_ends_a_running_console() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let t = Tmux {
        socket: format!("opsdesk-test-term-{}", std::process::id()),
    };
    let pid = console_in_session(&t, &data, &home);
    // SAFETY: a signal to the console we started.
    assert_eq!(unsafe { libc::kill(pid, libc::SIGTERM) }, 0);
    assert!(ends_within(pid), "SIGTERM did not end the console");
    assert!(lock_is_free(&data), "the engine lock is still held");
}
