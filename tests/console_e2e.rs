//! End to end: the real binary in a pseudo-terminal, read through a `vt100` screen model (what
//! a person would see, not the raw byte stream). Start with `--demo`, wait for a draft,
//! approve it (`a` + confirm), reject another with a reason, switch the default provider,
//! resize to a small window and back, quit; then check that the audit trail and the drafts
//! store hold exactly those decisions and that the terminal was restored.
//!
//! Every wait polls the screen for a condition with a generous deadline, so a busy machine
//! makes the test slower, not flaky.

use std::io::{Read, Write};
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use portable_pty::{Child, CommandBuilder, MasterPty, PtySize, native_pty_system};
use serde_json::Value;

const ROWS: u16 = 35;
const COLS: u16 = 120;
const DEADLINE: Duration = Duration::from_secs(120);

fn nz(n: u16) -> std::num::NonZeroU16 {
    std::num::NonZeroU16::new(n).unwrap()
}

struct Console {
    parser: Arc<Mutex<vt100::Parser>>,
    writer: Box<dyn Write + Send>,
    child: Box<dyn Child + Send + Sync>,
    master: Box<dyn MasterPty + Send>,
}

impl Drop for Console {
    fn drop(&mut self) {
        // Never leave a console running if an assertion failed half-way.
        let _ = self.child.kill();
    }
}

impl Console {
    fn start(data_dir: &Path, home: &Path) -> Console {
        let pty = native_pty_system()
            .openpty(PtySize {
                rows: ROWS,
                cols: COLS,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_opsdesk"));
        cmd.args([
            "--demo",
            "--data-dir",
            data_dir.to_str().unwrap(),
            "console",
            "--bind",
            "127.0.0.1:0",
        ]);
        for var in [
            "OPSDESK_CONFIG",
            "OPSDESK_DATA_DIR",
            "OPSDESK_THEME",
            "NO_COLOR",
        ] {
            cmd.env_remove(var);
        }
        cmd.env("TERM", "xterm-256color");
        cmd.env("HOME", home);
        cmd.env("XDG_CONFIG_HOME", home.join(".config"));
        let child = pty.slave.spawn_command(cmd).unwrap();
        drop(pty.slave);
        let parser = Arc::new(Mutex::new(vt100::Parser::new(nz(ROWS), nz(COLS), 0)));
        let mut reader = pty.master.try_clone_reader().unwrap();
        let p = parser.clone();
        std::thread::spawn(move || {
            let mut buf = [0u8; 8192];
            while let Ok(n) = reader.read(&mut buf) {
                if n == 0 {
                    break;
                }
                p.lock().unwrap().process(&buf[..n]);
            }
        });
        let writer = pty.master.take_writer().unwrap();
        Console {
            parser,
            writer,
            child,
            master: pty.master,
        }
    }

    fn screen(&self) -> String {
        self.parser.lock().unwrap().screen().contents()
    }

    fn send(&mut self, keys: &str) {
        self.writer.write_all(keys.as_bytes()).unwrap();
        self.writer.flush().unwrap();
        // Give the UI a moment between keys so each lands on the state the test saw.
        std::thread::sleep(Duration::from_millis(150));
    }

    fn wait_for(&mut self, what: &str, cond: impl Fn(&str) -> bool) -> String {
        let start = Instant::now();
        loop {
            let s = self.screen();
            if cond(&s) {
                return s;
            }
            if let Ok(Some(status)) = self.child.try_wait() {
                panic!("console exited ({status:?}) while waiting for {what}; screen:\n{s}");
            }
            assert!(
                start.elapsed() < DEADLINE,
                "timed out waiting for {what}; screen:\n{s}"
            );
            std::thread::sleep(Duration::from_millis(100));
        }
    }

    fn resize(&mut self, rows: u16, cols: u16) {
        self.master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        self.parser
            .lock()
            .unwrap()
            .screen_mut()
            .set_size(nz(rows), nz(cols));
    }
}

/// The selected row (the one with the `>` marker) that shows a pending draft, and its id.
fn selected_pending(screen: &str) -> Option<String> {
    screen
        .lines()
        .find(|l| l.contains("│> pending"))
        .and_then(|l| l.split_whitespace().find(|w| w.starts_with("d-")))
        .map(str::to_string)
}

fn jsonl(dir: &Path) -> Vec<Value> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    files
        .iter()
        .flat_map(|f| {
            std::fs::read_to_string(f)
                .unwrap()
                .lines()
                .map(|l| serde_json::from_str::<Value>(l).unwrap())
                .collect::<Vec<_>>()
        })
        .collect()
}

#[test]
fn demo_approve_reject_switch_provider_resize_quit() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let mut c = Console::start(&data, &home);

    // First frame, with the MCP URL in the status bar.
    c.wait_for("the first frame", |s| s.contains("MCP http://127.0.0.1:"));

    // A draft appears; approve it with `a` and confirm.
    c.send("3");
    let s = c.wait_for("a pending draft", |s| selected_pending(s).is_some());
    let first = selected_pending(&s).unwrap();
    c.send("a");
    c.wait_for("the confirmation", |s| {
        s.contains(&format!("Approve draft {first}?"))
    });
    c.send("y");
    c.wait_for("the approval", |s| {
        s.contains(&format!("approved draft {first}"))
    });

    // Another draft; reject it with a reason.
    let start = Instant::now();
    let second = loop {
        c.send("g");
        let s = c.screen();
        if let Some(id) = selected_pending(&s).filter(|id| *id != first) {
            break id;
        }
        assert!(start.elapsed() < DEADLINE, "no second draft; screen:\n{s}");
        std::thread::sleep(Duration::from_millis(500));
    };
    c.send("r");
    c.wait_for("the reason prompt", |s| {
        s.contains(&format!("Reject draft {second}"))
    });
    c.send("wrong tone");
    c.send("\r");
    c.wait_for("the rejection", |s| {
        s.contains(&format!("rejected draft {second}"))
    });

    // A small window on the way, then back.
    c.resize(12, 40);
    std::thread::sleep(Duration::from_millis(500));
    c.send("1");
    c.send("?");
    c.send("\x1b");
    c.resize(ROWS, COLS);
    c.wait_for("a redraw at full size", |s| s.contains("5 Audit"));

    // Switch the default provider to `local` (providers are listed by name: azure, copilot,
    // local, openai).
    c.send("4");
    c.wait_for("the providers pane", |s| {
        s.contains("Providers · default openai")
    });
    c.send("jj");
    c.wait_for("local selected", |s| s.contains("│> local"));
    c.send("d");
    c.wait_for("the new default", |s| {
        s.contains("default provider is now local")
    });

    c.send("q");
    let start = Instant::now();
    let status = loop {
        if let Some(st) = c.child.try_wait().unwrap() {
            break st;
        }
        assert!(start.elapsed() < DEADLINE, "the console did not exit");
        std::thread::sleep(Duration::from_millis(100));
    };
    assert!(status.success(), "exit status {status:?}");
    // Let the reader drain the last bytes (the restore sequence).
    std::thread::sleep(Duration::from_millis(300));

    // The terminal is restored: main screen, cursor visible, cooked mode with echo.
    {
        let p = c.parser.lock().unwrap();
        assert!(
            !p.screen().alternate_screen(),
            "still on the alternate screen"
        );
        assert!(!p.screen().hide_cursor(), "cursor still hidden");
    }
    if let Some(fd) = c.master.as_raw_fd() {
        let mut t: libc::termios = unsafe { std::mem::zeroed() };
        if unsafe { libc::tcgetattr(fd, &mut t) } == 0 {
            assert!(
                t.c_lflag & libc::ICANON != 0,
                "raw mode left on (ICANON off)"
            );
            assert!(t.c_lflag & libc::ECHO != 0, "raw mode left on (ECHO off)");
        }
    }

    // The audit trail holds exactly these operator decisions, by the console.
    let audit = jsonl(&data.join("audit"));
    let decisions: Vec<(String, String, String)> = audit
        .iter()
        .filter(|r| {
            let e = r["event"].as_str().unwrap_or("");
            e.starts_with("draft.approve")
                || e.starts_with("draft.reject")
                || e.starts_with("provider.")
        })
        .map(|r| {
            (
                r["event"].as_str().unwrap().to_string(),
                r["actor"].as_str().unwrap().to_string(),
                r["target"].as_str().unwrap_or("").to_string(),
            )
        })
        .collect();
    assert_eq!(
        decisions,
        vec![
            ("draft.approve".into(), "console".into(), first.clone()),
            ("draft.reject".into(), "console".into(), second.clone()),
            (
                "provider.set_default".into(),
                "console".into(),
                "local".into()
            ),
        ]
    );
    let verify = std::process::Command::new(env!("CARGO_BIN_EXE_opsdesk"))
        .args(["--data-dir", data.to_str().unwrap(), "audit", "verify"])
        .env_remove("OPSDESK_CONFIG")
        .output()
        .unwrap();
    assert!(verify.status.success(), "audit verify: {verify:?}");

    // The drafts store: one approval and one rejection, both by the console.
    let events = jsonl(&data.join("drafts"));
    let decided: Vec<(String, String, String)> = events
        .iter()
        .filter(|e| matches!(e["event"].as_str(), Some("approved" | "rejected")))
        .map(|e| {
            (
                e["event"].as_str().unwrap().to_string(),
                e["draft_id"].as_str().unwrap().to_string(),
                e["actor"].as_str().unwrap().to_string(),
            )
        })
        .collect();
    assert_eq!(
        decided,
        vec![
            ("approved".into(), first.clone(), "console".into()),
            ("rejected".into(), second.clone(), "console".into()),
        ]
    );
    let reason = events
        .iter()
        .find(|e| e["event"] == "rejected")
        .and_then(|e| e["reason"].as_str())
        .unwrap()
        .to_string();
    assert_eq!(reason, "wrong tone");

    // The provider change is persisted.
    let ov: Value =
        serde_json::from_slice(&std::fs::read(data.join("providers.json")).unwrap()).unwrap();
    assert_eq!(ov["default"], "local");
}
