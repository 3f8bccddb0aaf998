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
        Console::spawn(
            &[
                "--demo",
                "--data-dir",
                data_dir.to_str().unwrap(),
                "console",
                "--bind",
                "127.0.0.1:0",
            ],
            home,
            (ROWS, COLS),
            &[],
        )
    }

    fn spawn(
        args: &[&str],
        home: &Path,
        (rows, cols): (u16, u16),
        env: &[(&str, &str)],
    ) -> Console {
        let pty = native_pty_system()
            .openpty(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
        let mut cmd = CommandBuilder::new(env!("CARGO_BIN_EXE_opsdesk"));
        cmd.args(args);
        // The machine's own API keys never reach a test (a test that needs one passes it).
        for var in ["OPENAI_API_KEY", "AZURE_OPENAI_API_KEY", "GITHUB_TOKEN"] {
            cmd.env_remove(var);
        }
        for (k, v) in env {
            cmd.env(k, v);
        }
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
        let parser = Arc::new(Mutex::new(vt100::Parser::new(nz(rows), nz(cols), 0)));
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

    fn row(&self, n: usize) -> String {
        self.screen().lines().nth(n).unwrap_or("").to_string()
    }

    /// A left click at a 0-based cell, as the terminal reports it with SGR mouse mode.
    fn click(&mut self, col: u16, row: u16) {
        self.send(&format!(
            "\x1b[<0;{};{}M\x1b[<0;{};{}m",
            col + 1,
            row + 1,
            col + 1,
            row + 1
        ));
    }

    fn wait_exit(&mut self) -> portable_pty::ExitStatus {
        let start = Instant::now();
        loop {
            if let Some(st) = self.child.try_wait().unwrap() {
                // Let the reader drain the last bytes (the restore sequence, exit messages).
                std::thread::sleep(Duration::from_millis(300));
                return st;
            }
            assert!(start.elapsed() < DEADLINE, "the console did not exit");
            std::thread::sleep(Duration::from_millis(100));
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
        // The parser takes the new size first: output drawn for the old size that is still in
        // flight only lands on a larger grid (and is cleared by the full redraw a resize
        // causes), while a redraw for the new size parsed on the old grid would be clipped for
        // good (ratatui only sends changed cells afterwards).
        self.parser
            .lock()
            .unwrap()
            .screen_mut()
            .set_size(nz(rows), nz(cols));
        self.master
            .resize(PtySize {
                rows,
                cols,
                pixel_width: 0,
                pixel_height: 0,
            })
            .unwrap();
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
    c.wait_for("the first frame", |s| s.contains("MCP 127.0.0.1:"));

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
    // The tool vault's section, read through the engine: the demo serves the two examples.
    c.wait_for("the vault section", |s| {
        s.contains("Vault tools · 2 served")
            && s.contains("vault_follow_up")
            && s.contains("vault_thread_summary")
            && s.contains("network ")
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
        // The console's config dir: its integrity key checks the macs.
        .env("XDG_CONFIG_HOME", home.join(".config"))
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

fn opsdesk(data: &Path, args: &[&str]) -> std::process::Output {
    std::process::Command::new(env!("CARGO_BIN_EXE_opsdesk"))
        .arg("--data-dir")
        .arg(data)
        .args(args)
        .env_remove("OPSDESK_CONFIG")
        // The console's config home (`Console::spawn`: `<tmp>/home/.config`): the integrity
        // key lives next to the config, and a data dir is opened with the key it was written
        // with, so the command line and the console share one.
        .env(
            "XDG_CONFIG_HOME",
            data.parent().unwrap().join("home").join(".config"),
        )
        .output()
        .unwrap()
}

/// The habits a newcomer brings, at 80x24 with options before the (default) console command:
/// a failing source is named first in the status bar and its reason is one key away; `?` is
/// about this pane and says where the data is; the filter applies while typing and `Esc`
/// clears it; the mouse switches panes; a too-small window says so; `R` writes a reply in
/// `$EDITOR`.
#[test]
fn newcomer_habits_at_80x24() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    for (subject, from) in [
        ("Quarterly plan", "ana@example.org"),
        ("Lunch on Friday", "jon@example.org"),
        ("Badge renewal", "desk@example.org"),
    ] {
        let o = opsdesk(
            &data,
            &[
                "inbox",
                "add",
                "--from",
                from,
                "--subject",
                subject,
                "--body",
                "Hello there.\nSecond line.",
            ],
        );
        assert!(o.status.success(), "{o:?}");
    }
    // $EDITOR for `R`: writes a reply above the quoted message.
    let editor = tmp.path().join("editor.sh");
    std::fs::write(
        &editor,
        "#!/bin/sh\n{ echo 'Thanks, on it.'; cat \"$1\"; } > \"$1.new\" && mv \"$1.new\" \"$1\"\n",
    )
    .unwrap();
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(&editor, std::fs::Permissions::from_mode(0o755)).unwrap();
    let no_config = data.join("no-config");
    let mut c = Console::spawn(
        &[
            "--theme",
            "light",
            "--no-http",
            "--data-dir",
            data.to_str().unwrap(),
        ],
        &home,
        (24, 80),
        &[
            ("EDITOR", editor.to_str().unwrap()),
            ("XDG_CONFIG_HOME", no_config.to_str().unwrap()),
        ],
    );
    c.wait_for("the first frame", |s| s.contains("Inbox · 3 items"));
    // The spool folder the default profile reads becomes a file: the spool source fails.
    std::fs::remove_dir_all(data.join("spool")).unwrap();
    std::fs::write(data.join("spool"), "not a folder").unwrap();

    // Health first in the status bar, and it fits 80 columns.
    let s = c.wait_for("the failing spool", |s| {
        s.lines()
            .nth(23)
            .is_some_and(|l| l.starts_with(" !! spool"))
    });
    assert!(s.lines().nth(23).unwrap().contains("! why"), "{s}");

    // The reason, one key away.
    c.send("!");
    let s = c.wait_for("the health view", |s| s.contains("why:"));
    assert!(s.contains("FAIL  spool"), "{s}");
    assert!(s.contains(data.to_str().unwrap()), "data dir shown: {s}");
    c.send("\x1b");

    // `?`: this pane first, the theme from the global flag, the data dir.
    c.send("?");
    let s = c.wait_for("the help", |s| s.contains("Inbox pane · act"));
    assert!(s.contains("Help · Inbox pane first"), "{s}");
    c.send("\x1b");

    // Live filter: counts, "nothing matches", Esc clears.
    c.send("/");
    c.send("Quar");
    c.wait_for("the filtered title", |s| s.contains("Inbox · 1 of 3"));
    c.send("zzz");
    c.wait_for("nothing matches", |s| s.contains("Nothing matches"));
    c.send("\x1b");
    c.wait_for("the filter cleared", |s| s.contains("Inbox · 3 items"));

    // Mouse: a click on the Drafts tab.
    let top = c.row(0);
    let x = top.find("3 Dra").expect("drafts tab") as u16;
    c.click(x + 1, 0);
    c.wait_for("the drafts pane", |s| s.contains("Drafts · 0 to approve"));
    c.click(top.find("1 Inb").unwrap() as u16 + 1, 0);
    c.wait_for("the inbox pane", |s| s.contains("Inbox · 3 items"));

    // Too small, then back.
    c.resize(12, 50);
    c.wait_for("the too-small screen", |s| s.contains("Terminal too small"));
    c.resize(24, 80);
    c.send("g");
    c.wait_for("a redraw at 80x24", |s| s.contains("Inbox · 3 items"));

    // `R`: the reply written in $EDITOR becomes a draft waiting for approval.
    c.send("R");
    c.wait_for("the drafted reply", |s| {
        s.lines()
            .next()
            .is_some_and(|top| top.contains("3 Drafts (1)"))
    });

    c.send("q");
    assert!(c.wait_exit().success());
    let q = opsdesk(&data, &["--json", "drafts", "list"]);
    let drafts: Value = serde_json::from_slice(&q.stdout).unwrap();
    let body = drafts[0]["outbound"]["body"]
        .as_str()
        .unwrap_or_default()
        .to_string();
    assert!(body.starts_with("Thanks, on it."), "{drafts}");
    assert!(body.contains("wrote:\n> Hello there."), "{body}");
}

/// `--demo --keep`: `n` at the approval cancels, `y` approves and the draft's life shows who
/// decided when; on exit the kept data dir is printed and exists.
#[test]
fn demo_keep_approve_shows_the_life_and_prints_the_data_dir() {
    let tmp = tempfile::tempdir().unwrap();
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let tmpdir = tmp.path().join("tmp");
    std::fs::create_dir_all(&tmpdir).unwrap();
    let mut c = Console::spawn(
        &["--demo", "--keep", "--bind", "127.0.0.1:0"],
        &home,
        (ROWS, COLS),
        &[("TMPDIR", tmpdir.to_str().unwrap())],
    );
    c.send("3");
    let s = c.wait_for("a pending draft", |s| selected_pending(s).is_some());
    let id = selected_pending(&s).unwrap();
    c.send("a");
    c.wait_for("the confirmation", |s| {
        s.contains(&format!("Approve draft {id}?"))
    });
    c.send("n");
    c.wait_for("the cancellation", |s| {
        s.contains("cancelled; nothing changed")
    });
    c.send("a");
    c.wait_for("the confirmation again", |s| {
        s.contains(&format!("Approve draft {id}?"))
    });
    c.send("y");
    c.wait_for("the approval", |s| {
        s.contains(&format!("approved draft {id}"))
    });
    c.send("A");
    let s = c.wait_for("the draft's life", |s| s.contains("approved by console"));
    assert!(s.contains("created by mcp:"), "{s}");
    c.send("q");
    assert!(c.wait_exit().success());
    let s = c.screen();
    let dir = s
        .split("demo data kept in ")
        .nth(1)
        .and_then(|r| r.split_whitespace().next())
        .unwrap_or_else(|| panic!("{s}"))
        .to_string();
    assert!(dir.starts_with(tmpdir.to_str().unwrap()), "{dir}");
    assert!(
        Path::new(&dir).join("drafts/drafts.jsonl").is_file(),
        "{dir}"
    );
}

/// Batch decisions in the console: two drafts marked with `space`, `a` lists both with
/// recipient and subject, and the engine refuses the whole batch because one is mail to an
/// outsider (not eligible by default) — nothing is approved. Unmarking it and approving the
/// internal one goes through, bound to its own digest.
#[test]
fn a_batch_with_an_ineligible_kind_is_refused_as_a_whole() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let config = tmp.path().join("config.toml");
    std::fs::write(
        &config,
        "[profiles.work]\nsources = [\"spool\"]\nemail_domains = [\"contoso.com\"]\n",
    )
    .unwrap();
    let new_draft = |to: &str, subject: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_opsdesk"))
            .arg("--data-dir")
            .arg(&data)
            .arg("--config")
            .arg(&config)
            .args(["--json", "drafts", "new", "--profile", "work", "--to", to])
            .args(["--subject", subject, "--body", "Details inside."])
            .env("XDG_CONFIG_HOME", home.join(".config"))
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        v["draft_id"].as_str().unwrap().to_string()
    };
    let external = new_draft("bob@outside.org", "Quote for Bob");
    let internal = new_draft("ann@contoso.com", "Team lunch");

    let mut c = Console::spawn(
        &[
            "--data-dir",
            data.to_str().unwrap(),
            "--config",
            config.to_str().unwrap(),
            "console",
            "--bind",
            "127.0.0.1:0",
        ],
        &home,
        (ROWS, COLS),
        &[],
    );
    c.send("3");
    c.wait_for("both drafts", |s| {
        s.contains(&external) && s.contains(&internal)
    });
    // Oldest first: the external draft is selected; mark it and the next one.
    c.send("g");
    c.send(" ");
    c.send(" ");
    c.wait_for("two marked", |s| s.contains("2 marked"));
    c.send("a");
    let s = c.wait_for("the batch confirmation", |s| {
        s.contains("Approve 2 marked drafts?")
    });
    assert!(
        s.contains("bob@outside.org · Quote for Bob") && s.contains("ann@contoso.com · Team lunch"),
        "{s}"
    );
    c.send("y");
    let s = c.wait_for("the refusal", |s| {
        s.contains("blocked by batch.ineligible_kind")
    });
    assert!(s.contains(&external), "{s}");

    let status = |id: &str| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_opsdesk"))
            .arg("--data-dir")
            .arg(&data)
            .arg("--config")
            .arg(&config)
            .args(["--json", "drafts", "show", id])
            .env("XDG_CONFIG_HOME", home.join(".config"))
            .output()
            .unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        v["status"].as_str().unwrap().to_string()
    };
    assert_eq!(status(&external), "pending");
    assert_eq!(status(&internal), "pending");

    // Unmark the external draft; the internal one alone is eligible.
    c.send("g");
    c.send(" ");
    c.wait_for("one marked", |s| s.contains("1 marked"));
    c.send("a");
    c.wait_for("the batch confirmation", |s| {
        s.contains("Approve 1 marked drafts?")
    });
    c.send("y");
    c.wait_for("the approval", |s| s.contains("approved 1 drafts"));
    c.send("q");
    assert!(c.wait_exit().success());
    assert_eq!(status(&internal), "approved");
    assert_eq!(status(&external), "pending");
    let audit = jsonl(&data.join("audit"));
    let refused: Vec<_> = audit
        .iter()
        .filter(|r| r["event"] == "draft.batch" && r["outcome"] == "blocked")
        .collect();
    assert_eq!(refused.len(), 1, "{audit:?}");
    let approvals: Vec<_> = audit
        .iter()
        .filter(|r| r["event"] == "draft.approve" && r["outcome"] == "ok")
        .collect();
    assert_eq!(approvals.len(), 1);
    assert_eq!(approvals[0]["target"], internal.as_str());
}

/// A minimal OpenAI-compatible chat server on a loopback port: answers each job's prompt
/// with a schema-valid JSON answer (triage: a decision; a reply draft: a body; otherwise no
/// deadlines) and counts the requests. Plain std so the PTY test needs no runtime.
fn fake_llm() -> (String, Arc<Mutex<Vec<String>>>) {
    use std::io::BufRead;
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}/v1", listener.local_addr().unwrap());
    let seen = Arc::new(Mutex::new(Vec::new()));
    let seen2 = seen.clone();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(stream) = stream else { break };
            let seen = seen2.clone();
            std::thread::spawn(move || {
                let mut reader = std::io::BufReader::new(stream.try_clone().unwrap());
                let mut len = 0usize;
                loop {
                    let mut line = String::new();
                    if reader.read_line(&mut line).unwrap_or(0) == 0 {
                        return;
                    }
                    let l = line.trim_end().to_ascii_lowercase();
                    if l.is_empty() {
                        break;
                    }
                    if let Some(v) = l.strip_prefix("content-length:") {
                        len = v.trim().parse().unwrap_or(0);
                    }
                }
                let mut body = vec![0u8; len];
                reader.read_exact(&mut body).unwrap();
                let body = String::from_utf8_lossy(&body).into_owned();
                let content = if body.contains("You triage") {
                    r#"{"category":"decision","urgency":"high","reason":"asks the operator to decide"}"#
                } else if body.contains("You draft a reply") {
                    r#"{"body":"Thanks, I will look at it today."}"#
                } else {
                    r#"{"deadlines":[]}"#
                };
                seen.lock().unwrap().push(body);
                let answer = serde_json::json!({
                    "id": "c1", "object": "chat.completion", "created": 1, "model": "fake-model",
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": content}, "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 40, "completion_tokens": 8, "total_tokens": 48}
                })
                .to_string();
                let mut w = stream;
                let _ = write!(
                    w,
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\nconnection: close\r\n\r\n{answer}",
                    answer.len()
                );
            });
        }
    });
    (url, seen)
}

/// The assistant from the console: `T` triages the backlog as one job (its progress, then
/// "done", and the labels the model gave appear on the rows), `a` asks for a reply draft
/// (queued pending by `assistant:draft`), the Providers pane shows a row per job with where
/// each entity's calls go.
#[test]
fn assistant_jobs_from_the_console_triage_draft_and_job_routes() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let (url, seen) = fake_llm();
    let config = tmp.path().join("config.toml");
    std::fs::write(
        &config,
        format!(
            "[assistant]\non_arrival = [\"triage\"]\narrival_coalesce_ms = 100\n\n\
             [sources.spool]\ninterval_secs = 1\n\n\
             [llm]\ndefault = \"local\"\n\n[llm.providers.local]\nenabled = true\nendpoint = \"{url}\"\nmodel = \"fake-model\"\n"
        ),
    )
    .unwrap();
    for (subject, from) in [
        ("Vendor choice", "ana@example.org"),
        ("Office move", "jon@example.org"),
    ] {
        let o = opsdesk(
            &data,
            &[
                // The console's config: the data dir is written with its integrity key.
                "--config",
                config.to_str().unwrap(),
                "inbox",
                "add",
                "--from",
                from,
                "--subject",
                subject,
                "--body",
                "Which of the two do we take?",
            ],
        );
        assert!(o.status.success(), "{o:?}");
    }
    let mut c = Console::spawn(
        &[
            "--no-http",
            "--data-dir",
            data.to_str().unwrap(),
            "--config",
            config.to_str().unwrap(),
        ],
        &home,
        (ROWS, COLS),
        &[],
    );
    c.wait_for("the first frame", |s| s.contains("Inbox · 2 items"));

    // On arrival: mail dropped into the spool is triaged by itself, its label shows.
    let spool = data.join("spool");
    std::fs::write(
        spool.join("arrived.json.tmp"),
        r#"{"from": "kim@example.org", "subject": "Arrived", "body": "Which of the two do we take?"}"#,
    )
    .unwrap();
    std::fs::rename(spool.join("arrived.json.tmp"), spool.join("arrived.json")).unwrap();
    c.wait_for("the arrival's label", |s| s.contains("[decision!] Arrived"));

    // The two older ones are left to the operator: `T` triages them as one job.
    c.send("T");
    let s = c.wait_for("the triage job's end", |s| {
        s.contains("job triage 2/2 done")
    });
    assert!(!s.contains('⟳'), "no progress line once done: {s}");
    c.wait_for("the model's labels on the rows", |s| {
        s.matches("[decision!]").count() >= 3
    });

    c.send("a");
    c.wait_for("the assistant's draft", |s| {
        s.lines()
            .next()
            .is_some_and(|top| top.contains("3 Drafts (1)"))
    });

    c.send("4");
    let s = c.wait_for("the job routes", |s| {
        s.contains("ROUTES (entity → provider)")
    });
    assert!(
        s.lines()
            .any(|l| l.contains("triage") && l.contains("default → local")),
        "{s}"
    );
    c.send("q");
    assert!(c.wait_exit().success());

    // Three triage calls (one on arrival) and one reply; the draft is pending and the
    // assistant's.
    let bodies = seen.lock().unwrap().clone();
    assert_eq!(
        bodies.iter().filter(|b| b.contains("You triage")).count(),
        3
    );
    assert_eq!(
        bodies
            .iter()
            .filter(|b| b.contains("You draft a reply"))
            .count(),
        1
    );
    let q = opsdesk(
        &data,
        &[
            "--config",
            config.to_str().unwrap(),
            "--json",
            "drafts",
            "list",
        ],
    );
    let drafts: Value = serde_json::from_slice(&q.stdout).unwrap();
    assert_eq!(drafts[0]["status"], "pending", "{drafts}");
    assert!(
        drafts[0].to_string().contains("assistant:draft"),
        "{drafts}"
    );
    assert!(
        drafts[0]["outbound"]["body"]
            .as_str()
            .is_some_and(|b| b.starts_with("Thanks, I will look at it today.")),
        "{drafts}"
    );
}

/// An attachment is opened only on the operator's key, by `$OPSDESK_OPENER` (here a script
/// that records its argument) on the stored file; saving offers `~/Downloads`, writes the safe
/// name, and a second save writes `name (2).ext` beside it instead of overwriting.
#[test]
fn an_attachment_is_opened_by_the_opener_and_saved_without_overwriting() {
    use base64::Engine as _;
    use sha2::{Digest, Sha256};
    use std::os::unix::fs::PermissionsExt;

    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let home = tmp.path().join("home");
    let downloads = home.join("Downloads");
    std::fs::create_dir_all(&downloads).unwrap();
    std::fs::create_dir_all(data.join("spool")).unwrap();
    let pdf = b"%PDF-1.4\n% the lab's report\n%%EOF\n";
    let eml = format!(
        "From: Lab <lab@example.org>\r\nTo: ops@example.com\r\nSubject: Lab report\r\n\
Message-ID: <lab-1@example.org>\r\nDate: Tue, 24 Nov 2026 09:00:00 +0000\r\nMIME-Version: 1.0\r\n\
Content-Type: multipart/mixed; boundary=\"b\"\r\n\r\n--b\r\nContent-Type: text/plain\r\n\r\n\
The report is attached.\r\n--b\r\nContent-Type: application/pdf\r\n\
Content-Disposition: attachment; filename=\"../report:final.pdf\"\r\n\
Content-Transfer-Encoding: base64\r\n\r\n{}\r\n--b--\r\n",
        base64::engine::general_purpose::STANDARD.encode(pdf)
    );
    std::fs::write(data.join("spool").join("lab.eml"), eml).unwrap();
    let log = tmp.path().join("opened.log");
    let opener = tmp.path().join("opener.sh");
    std::fs::write(
        &opener,
        format!("#!/bin/sh\nprintf '%s\\n' \"$1\" >> '{}'\n", log.display()),
    )
    .unwrap();
    std::fs::set_permissions(&opener, std::fs::Permissions::from_mode(0o755)).unwrap();

    let mut c = Console::spawn(
        &["--no-http", "--data-dir", data.to_str().unwrap()],
        &home,
        (ROWS, COLS),
        &[("OPSDESK_OPENER", opener.to_str().unwrap())],
    );
    c.wait_for("the spooled message", |s| s.contains("Lab report"));
    assert!(!log.exists(), "nothing is opened by itself");
    c.send("\r");
    c.wait_for("the attachment list", |s| s.contains("attachments (1)"));
    c.send("o");
    let sha = hex::encode(Sha256::digest(pdf));
    let stored = data.join("attachments").join(&sha[..2]).join(&sha);
    c.wait_for("the opener's run", |_| {
        std::fs::read_to_string(&log).is_ok_and(|l| l.ends_with('\n'))
    });
    assert_eq!(
        std::fs::read_to_string(&log).unwrap(),
        format!("{}\n", stored.display())
    );
    // The details stay open after opening; any other key closes them.
    c.send("x");
    c.wait_for("the details closed", |s| !s.contains("attachments (1)"));

    for copy in ["report_final.pdf", "report_final (2).pdf"] {
        c.send("\r");
        c.wait_for("the attachment list", |s| s.contains("attachments (1)"));
        c.send("s");
        c.wait_for("the folder question", |s| {
            s.contains(&downloads.display().to_string())
        });
        c.send("\r");
        let want = downloads.join(copy).display().to_string();
        c.wait_for("the saved message", |s| {
            s.contains(&format!("saved a copy as {want}"))
        });
        assert_eq!(std::fs::read(downloads.join(copy)).unwrap(), pdf);
    }
    assert_eq!(std::fs::read_dir(&downloads).unwrap().count(), 2);
    assert_eq!(
        std::fs::read_to_string(&log).unwrap().lines().count(),
        1,
        "saving opens nothing"
    );
    c.send("q");
    assert!(c.wait_exit().success());
}

/// The demo without API keys: the status bar and `!` say which providers lack their key and
/// what to set, before any assistant key is pressed; `a` says so before it tries.
#[test]
fn demo_without_api_keys_says_so_before_the_assistant_is_asked() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let mut c = Console::start(&data, &home);
    c.wait_for("the key warning in the status bar", |s| {
        s.lines()
            .last()
            .is_some_and(|l| l.contains("LLM key missing: azure, openai"))
    });
    c.send("!");
    c.wait_for("the fix in the health view", |s| {
        s.contains("FAIL  provider openai") && s.contains("fix: set OPENAI_API_KEY")
    });
    c.send("\x1b");
    // A demo message to ask about.
    c.wait_for("a demo message", |s| s.contains("│> "));
    c.send("a");
    // The warning may be on the line only briefly (the job's progress and its error follow);
    // the message log keeps it.
    c.send("L");
    c.wait_for("the warning before trying, in the log", |s| {
        s.contains("Messages this session") && s.contains("will fail: its credential is missing")
    });
    c.send("\x1b");
    c.send("q");
    c.wait_exit();
}

#[test]
fn a_draft_queued_by_another_process_appears_without_a_reload() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    let mut c = Console::start(&data, &home);
    c.send("3");
    c.wait_for("a pending draft", |s| selected_pending(s).is_some());
    // The CLI, another process, queues one while the console runs (for the demo's `work`
    // profile: the clinic's rules would refuse mail to an outside domain).
    let profile = "work".to_string();
    // The same user's CLI: the same config dir (and so the same integrity key) as the console.
    let o = std::process::Command::new(env!("CARGO_BIN_EXE_opsdesk"))
        .arg("--data-dir")
        .arg(&data)
        .args([
            "--demo",
            "drafts",
            "new",
            "--profile",
            &profile,
            "--to",
            "watched@fabrikam.example",
            "--subject",
            "From the CLI",
            "--body",
            "Queued by another process.",
        ])
        .env_remove("OPSDESK_CONFIG")
        .env("HOME", &home)
        .env("XDG_CONFIG_HOME", home.join(".config"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("d-"),
        "queued: {}",
        String::from_utf8_lossy(&o.stdout)
    );
    // No key pressed: the pane follows the file.
    c.wait_for("the CLI's draft", |s| {
        s.contains("watched@fabrikam.example")
    });
}

/// The selected inbox row (the one with the `>` marker).
fn selected_row(screen: &str) -> String {
    screen
        .lines()
        .find(|l| l.contains("│> "))
        .unwrap_or("")
        .to_string()
}

/// With the newest message selected (`g`), mail that arrives does not take the selection: a
/// key pressed next acts on the message the operator was reading. The title says what came in
/// above, and `g` goes to it.
#[test]
fn a_message_arriving_above_does_not_move_the_selection() {
    let tmp = tempfile::tempdir().unwrap();
    let data = tmp.path().join("data");
    let home = tmp.path().join("home");
    std::fs::create_dir_all(&home).unwrap();
    for subject in ["Older one", "Read this one"] {
        let o = opsdesk(
            &data,
            &[
                "inbox",
                "add",
                "--from",
                "ana@example.org",
                "--subject",
                subject,
                "--body",
                "Hello.",
            ],
        );
        assert!(o.status.success(), "{o:?}");
    }
    let no_config = data.join("no-config");
    let mut c = Console::spawn(
        &["--no-http", "--data-dir", data.to_str().unwrap()],
        &home,
        (24, 80),
        &[("XDG_CONFIG_HOME", no_config.to_str().unwrap())],
    );
    c.wait_for("the first frame", |s| s.contains("Inbox · 2 items"));
    c.send("g");
    let s = c.wait_for("the newest selected", |s| {
        selected_row(s).contains("Read this one")
    });
    assert!(!s.contains("new ↑"), "{s}");

    // A source delivers a message while the operator reads (written aside, then renamed in).
    let spool = data.join("spool");
    std::fs::write(
        spool.join(".arrived.json"),
        r#"{"from": "Jon <jon@example.org>", "subject": "Arrived meanwhile", "body": "New."}"#,
    )
    .unwrap();
    std::fs::rename(spool.join(".arrived.json"), spool.join("arrived.json")).unwrap();
    // The row and the count come in one update, so one frame shows both.
    let s = c.wait_for("the new message", |s| s.contains("Arrived meanwhile"));
    assert!(selected_row(&s).contains("Read this one"), "{s}");
    assert!(s.contains("1 new ↑ (g)"), "{s}");

    c.send("g");
    c.wait_for("g goes to the new message", |s| {
        selected_row(s).contains("Arrived meanwhile") && !s.contains("new ↑")
    });
    c.send("q");
    assert!(c.wait_exit().success());
}
