//! The command line as a user meets it: the real binary, a temporary data dir.

use std::path::Path;
use std::process::{Command, Output, Stdio};

struct Env {
    dir: tempfile::TempDir,
}

impl Env {
    fn new() -> Env {
        Env {
            dir: tempfile::tempdir().unwrap(),
        }
    }
    fn data(&self) -> std::path::PathBuf {
        self.dir.path().join("data")
    }
    fn cmd(&self) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_opsdesk"));
        // XDG_CONFIG_HOME keeps the user's own config out; `config()` writes where opsdesk looks.
        c.env("OPSDESK_DATA_DIR", self.data())
            .env("XDG_CONFIG_HOME", self.dir.path().join("xdg"))
            .env_remove("OPSDESK_CONFIG")
            .env_remove("OPSDESK_LOG")
            .stdin(Stdio::null());
        c
    }
    fn config(&self, text: &str) {
        let dir = self.dir.path().join("xdg/opsdesk");
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("config.toml"), text).unwrap();
    }
    fn run(&self, args: &[&str]) -> Output {
        self.cmd().args(args).output().unwrap()
    }
}

fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}
fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}
fn json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).unwrap_or_else(|e| panic!("not JSON ({e}): {}", stdout(o)))
}

const TWO_PROFILES: &str = r#"
[profiles.work]
sources = ["spool"]
email_domains = ["contoso.com"]
[profiles.clinic]
sources = ["spool"]
phi_auto_redact = true
[hard_bans]
blocked_recipient_domains = ["evil.example"]
"#;

#[test]
fn runs_with_no_config_file_and_round_trips_a_message() {
    let env = Env::new();
    let add = env.run(&[
        "--json",
        "inbox",
        "add",
        "--from",
        "Ada <ada@contoso.com>",
        "--subject",
        "Hi",
        "--body",
        "Hello",
        "--id",
        "m1",
    ]);
    assert!(add.status.success(), "{}", stderr(&add));
    assert_eq!(json(&add)["seq"], 1);
    let again = env.run(&[
        "--json",
        "inbox",
        "add",
        "--from",
        "ada@contoso.com",
        "--body",
        "x",
        "--id",
        "m1",
    ]);
    assert_eq!(json(&again)["duplicate_of"], 1);
    let list = env.run(&["--json", "inbox", "list"]);
    let items = json(&list);
    assert_eq!(items.as_array().unwrap().len(), 1);
    assert_eq!(items[0]["untrusted"], true);
}

#[test]
fn hostile_text_never_reaches_the_terminal_raw() {
    let env = Env::new();
    let body = "pwn \u{1b}]52;c;ZXZpbA==\u{7} \u{1b}[2J\u{202e}gnp.exe \u{9b}31m done";
    let add = env.run(&[
        "inbox",
        "add",
        "--from",
        "x@y.org",
        "--subject",
        "\u{1b}[31mred",
        "--body",
        body,
        "--id",
        "h",
    ]);
    assert!(add.status.success(), "{}", stderr(&add));
    for args in [
        &["inbox", "list"][..],
        &["inbox", "show", "h"],
        &["inbox", "pull", "--consumer", "t"],
    ] {
        let out = stdout(&env.run(args));
        assert!(
            !out.contains('\u{1b}')
                && !out.contains('\u{9b}')
                && !out.contains('\u{202e}')
                && !out.contains('\u{7}'),
            "{args:?}: {out:?}"
        );
    }
}

#[test]
fn usage_errors_exit_2_and_say_what_is_allowed() {
    let env = Env::new();
    env.config(TWO_PROFILES);
    let o = env.run(&["inbox", "add", "--from", "a@b.c", "--body", "x"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("--profile is required; profiles: clinic, work"),
        "{}",
        stderr(&o)
    );
    let o = env.run(&["inbox", "show", "nope"]);
    assert_eq!(o.status.code(), Some(2));
    let o = env.run(&[
        "drafts",
        "new",
        "--profile",
        "home",
        "--to",
        "a@contoso.com",
        "--subject",
        "s",
        "--body",
        "b",
    ]);
    assert_eq!(o.status.code(), Some(2));
    // Named in words, not as raw JSON.
    assert!(
        stderr(&o).contains("valid profiles: clinic, work"),
        "{}",
        stderr(&o)
    );
    let o = env.run(&["inbox", "frobnicate"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn a_broken_config_is_explained_with_file_and_key() {
    let env = Env::new();
    env.config("[profiles.work]\nphi_redact = true\n");
    let o = env.run(&["config", "check"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("config.toml") && err.contains("phi_redact"),
        "{err}"
    );
    env.config("[server\nbind = 1");
    let o = env.run(&["inbox", "list"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("config.toml:1"), "{}", stderr(&o));
    env.config("[llm.providers.openai]\napi_key = \"sk-live-abcdefghijklmnop\"\n");
    let o = env.run(&["config", "check"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("OPENAI_API_KEY") && !err.contains("sk-live"),
        "{err}"
    );
}

#[test]
fn drafts_need_the_operator_and_bans_hold_from_the_cli_too() {
    let env = Env::new();
    env.config(TWO_PROFILES);
    let o = env.run(&[
        "--json",
        "drafts",
        "new",
        "--profile",
        "work",
        "--to",
        "bob@contoso.com",
        "--subject",
        "Renewal",
        "--body",
        "Yes",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let id = json(&o)["draft_id"].as_str().unwrap().to_string();
    // Not a terminal and no --yes: refused, nothing approved.
    let o = env.run(&["drafts", "approve", &id]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--yes"));
    let o = env.run(&["--json", "drafts", "show", &id]);
    assert_eq!(json(&o)["status"], "pending");
    let o = env.run(&["drafts", "approve", &id, "--yes"]);
    assert!(o.status.success(), "{}", stderr(&o));
    // Until it is sent, the operator may withdraw an approval; a rejected draft is final.
    let o = env.run(&["drafts", "reject", &id, "--reason", "changed my mind"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = env.run(&["drafts", "approve", &id, "--yes"]);
    assert_eq!(
        o.status.code(),
        Some(4),
        "a rejected draft cannot be approved"
    );
    let o = env.run(&[
        "drafts",
        "new",
        "--profile",
        "work",
        "--to",
        "x@evil.example",
        "--subject",
        "s",
        "--body",
        "b",
    ]);
    assert_eq!(o.status.code(), Some(4));
    assert!(
        stderr(&o).contains("hard_ban.blocked_recipient_domain"),
        "{}",
        stderr(&o)
    );
    // Every decision is in the audit trail, and the chain verifies.
    let o = env.run(&["--json", "audit", "tail", "-n", "50"]);
    let events: Vec<String> = stdout(&o)
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .map(|v| {
            format!(
                "{} {}",
                v["event"].as_str().unwrap(),
                v["outcome"].as_str().unwrap()
            )
        })
        .collect();
    assert!(
        events.contains(&"draft.create ok".to_string()),
        "{events:?}"
    );
    assert!(
        events.contains(&"draft.approve ok".to_string()),
        "{events:?}"
    );
    assert!(
        events.contains(&"draft.reject ok".to_string()),
        "{events:?}"
    );
    assert!(
        events.contains(&"draft.create blocked".to_string()),
        "{events:?}"
    );
    assert!(env.run(&["audit", "verify"]).status.success());
}

#[test]
fn audit_verify_exits_3_and_names_the_tampered_record() {
    let env = Env::new();
    for i in 0..3 {
        assert!(
            env.run(&[
                "inbox",
                "add",
                "--from",
                "a@b.co",
                "--body",
                "x",
                "--id",
                &format!("m{i}")
            ])
            .status
            .success()
        );
    }
    let audit_dir = env.data().join("audit");
    let file = std::fs::read_dir(&audit_dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .unwrap();
    let text = std::fs::read_to_string(&file)
        .unwrap()
        .replacen("spool#2", "spool#9", 1);
    std::fs::write(&file, text).unwrap();
    let o = env.run(&["audit", "verify"]);
    assert_eq!(o.status.code(), Some(3));
    assert!(stdout(&o).contains("line 2 (record 2)"), "{}", stdout(&o));
}

#[test]
fn a_full_disk_fails_the_append_cleanly_and_loses_nothing() {
    let env = Env::new();
    assert!(
        env.run(&[
            "inbox", "add", "--from", "a@b.co", "--body", "first", "--id", "m1"
        ])
        .status
        .success()
    );
    // RLIMIT_FSIZE makes the kernel refuse to grow files past 4 KiB, as a full disk would.
    let big = "y".repeat(20_000);
    let o = env
        .cmd()
        .args([
            "inbox", "add", "--from", "a@b.co", "--id", "m2", "--body", &big,
        ])
        .pre_exec_limit(4096)
        .output()
        .unwrap();
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert!(stderr(&o).contains("nothing was lost"), "{}", stderr(&o));
    // The store is consistent: the old record is intact, the failed one absent, and the
    // next append (without the limit) continues the sequence.
    let o = env.run(&[
        "--json", "inbox", "add", "--from", "a@b.co", "--body", "third", "--id", "m3",
    ]);
    assert_eq!(json(&o)["seq"], 2);
    let list = json(&env.run(&["--json", "inbox", "list"]));
    let ids: Vec<&str> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(ids, vec!["m3", "m1"]);
}

#[test]
fn a_second_engine_names_the_one_holding_the_data_dir() {
    let env = Env::new();
    let mut first = env
        .cmd()
        .args(["serve", "--bind", "127.0.0.1:0"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let lock = env.data().join("engine.lock");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(30);
    while std::fs::read_to_string(&lock)
        .map(|s| s.trim().is_empty())
        .unwrap_or(true)
    {
        assert!(
            std::time::Instant::now() < deadline,
            "first engine did not start"
        );
        std::thread::sleep(std::time::Duration::from_millis(50));
    }
    // Port 0 too: the lock, not the port, must be what refuses the second engine.
    let o = env.run(&["serve", "--bind", "127.0.0.1:0"]);
    let _ = first.kill();
    let _ = first.wait();
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(err.contains(&format!("pid {}", first.id())), "{err}");
    // Readers and one-shot commands work beside a running engine.
    assert!(Path::new(&lock).exists());
}

#[test]
fn several_processes_writing_at_once_keep_every_store_consistent() {
    let env = Env::new();
    // Four shells, each running eight `opsdesk inbox add` one after the other.
    let children: Vec<_> = (0..4)
        .map(|w| {
            let script = (0..8)
                .map(|i| format!("\"$OPSDESK\" inbox add --from a@b.co --body x --id w{w}-{i} >/dev/null || exit 1"))
                .collect::<Vec<_>>()
                .join("; ");
            Command::new("sh")
                .arg("-c")
                .arg(script)
                .env("OPSDESK", env!("CARGO_BIN_EXE_opsdesk"))
                .env("OPSDESK_DATA_DIR", env.data())
                .env("XDG_CONFIG_HOME", env.dir.path().join("xdg"))
                .env_remove("OPSDESK_CONFIG")
                .spawn()
                .unwrap()
        })
        .collect();
    for mut c in children {
        assert!(c.wait().unwrap().success());
    }
    let list = json(&env.run(&["--json", "inbox", "list", "--limit", "100"]));
    let mut seqs: Vec<u64> = list
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["seq"].as_u64().unwrap())
        .collect();
    seqs.sort();
    assert_eq!(seqs, (1..=32).collect::<Vec<_>>());
    let verify = json(&env.run(&["--json", "audit", "verify"]));
    assert_eq!(
        verify["records"], 32,
        "one audit record per append, chain intact: {verify}"
    );
    assert!(verify["first_bad"].is_null());
}

trait LimitExt {
    fn pre_exec_limit(&mut self, bytes: u64) -> &mut Self;
}

impl LimitExt for Command {
    fn pre_exec_limit(&mut self, bytes: u64) -> &mut Self {
        use std::os::unix::process::CommandExt;
        // SAFETY: setrlimit is async-signal-safe; nothing else runs between fork and exec.
        unsafe {
            self.pre_exec(move || {
                let lim = libc::rlimit {
                    rlim_cur: bytes,
                    rlim_max: bytes,
                };
                if libc::setrlimit(libc::RLIMIT_FSIZE, &lim) != 0 {
                    return Err(std::io::Error::last_os_error());
                }
                Ok(())
            })
        }
    }
}

#[test]
fn a_draft_with_hidden_characters_is_refused_naming_the_field_and_nothing_is_queued() {
    let env = Env::new();
    env.config(TWO_PROFILES);
    let o = env.run(&[
        "drafts",
        "new",
        "--profile",
        "work",
        "--to",
        "ada@contoso.com",
        "--subject",
        "Invoice \u{202e}fdp.exe",
        "--body",
        "ok",
    ]);
    assert!(!o.status.success(), "{}", stdout(&o));
    let err = stderr(&o);
    assert!(
        err.contains("subject contains a bidirectional control character"),
        "{err}"
    );
    let list = stdout(&env.run(&["drafts", "list", "--all"]));
    assert!(list.contains("(no drafts)"), "{list}");
}

#[test]
fn a_record_stored_while_the_audit_could_not_grow_is_reported_by_verify() {
    let env = Env::new();
    env.config(TWO_PROFILES);
    let add = |id: &str| {
        env.run(&[
            "inbox",
            "add",
            "--profile",
            "work",
            "--from",
            "a@b.co",
            "--body",
            "x",
            "--id",
            id,
        ])
    };
    assert!(add("m1").status.success());
    // Refusals are audited too: grow the trail well past the inbox's one small day file.
    for _ in 0..12 {
        let o = env.run(&[
            "drafts",
            "new",
            "--profile",
            "work",
            "--to",
            "x@evil.example",
            "--subject",
            "s",
            "--body",
            "b",
        ]);
        assert_eq!(o.status.code(), Some(4), "{}", stderr(&o));
    }
    let audit_len: u64 = std::fs::read_dir(env.data().join("audit"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .map(|p| std::fs::metadata(p).unwrap().len())
        .sum();
    // Files may not grow past the trail's current size, as on a full disk: the small inbox
    // files still take the record, the audit month file cannot.
    let o = env
        .cmd()
        .args([
            "inbox",
            "add",
            "--profile",
            "work",
            "--from",
            "a@b.co",
            "--body",
            "y",
            "--id",
            "m2",
        ])
        .pre_exec_limit(audit_len)
        .output()
        .unwrap();
    let err = stderr(&o);
    // The record is stored, and the command says so and that its audit line is missing; it
    // fails so a script notices, and nothing claims that nothing was changed.
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        stdout(&o).contains("stored as #2 (m2), but the audit trail could not be written: "),
        "{}",
        stdout(&o)
    );
    assert!(!err.contains("nothing was changed"), "{err}");
    let v = env.run(&["audit", "verify"]);
    assert_eq!(v.status.code(), Some(3), "{}", stdout(&v));
    assert!(
        stderr(&v).contains("inbox records with no audit record: #2"),
        "{}",
        stderr(&v)
    );
    // The next engine open, with room on the disk again, audits it late and says so: the
    // trail then verifies and names it (engine/recovery.rs).
    let stored = json(&env.run(&["--json", "inbox", "list"]));
    assert_eq!(
        stored.as_array().unwrap().len(),
        2,
        "the limit should let the small inbox grow: {err}"
    );
    let v = env.run(&["audit", "verify"]);
    assert_eq!(v.status.code(), Some(0), "{}", stderr(&v));
    assert!(
        stdout(&v).contains("audited at recovery (inbox.recovered): #2"),
        "{}",
        stdout(&v)
    );
}

#[test]
fn a_hand_written_approval_and_a_deleted_drafts_log_are_found_by_verify() {
    let env = Env::new();
    env.config(TWO_PROFILES);
    let o = env.run(&[
        "drafts",
        "new",
        "--profile",
        "work",
        "--to",
        "ada@contoso.com",
        "--subject",
        "Hi",
        "--body",
        "Hello",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let list = json(&env.run(&["--json", "drafts", "list", "--all"]));
    let id = list[0]["id"].as_str().unwrap().to_string();
    let digest = list[0]["digest"].as_str().unwrap().to_string();
    assert!(env.run(&["audit", "verify"]).status.success());
    let log = env.data().join("drafts/drafts.jsonl");
    let forged = serde_json::json!({
        "ts": "2026-01-01T00:00:00Z", "draft_id": id, "actor": "cli",
        "event": "approved", "digest": digest,
    });
    let mut text = std::fs::read_to_string(&log).unwrap();
    text.push_str(&format!("{forged}\n"));
    std::fs::write(&log, text).unwrap();
    // The forged approval does not take effect, and both the list and verify say why.
    let after = env.run(&["--json", "drafts", "list", "--all"]);
    assert_eq!(json(&after)[0]["status"], "pending");
    assert!(
        stderr(&after).contains(&format!(
            "`approved` of draft {id} ignored: it has no audit record"
        )),
        "{}",
        stderr(&after)
    );
    let v = env.run(&["audit", "verify"]);
    assert_eq!(v.status.code(), Some(3), "{}", stdout(&v));
    assert!(
        stdout(&v).contains(&format!(
            "`approved` of draft {id} ignored: it has no audit record"
        )),
        "{}",
        stdout(&v)
    );
    std::fs::remove_file(&log).unwrap();
    let v = env.run(&["audit", "verify"]);
    assert_eq!(v.status.code(), Some(3), "{}", stdout(&v));
    assert!(
        stdout(&v).contains(&format!(
            "draft {id} was created according to the audit trail but is missing"
        )),
        "{}",
        stdout(&v)
    );
}

#[test]
fn inbox_verify_and_doctor_name_a_record_whose_bytes_changed() {
    let env = Env::new();
    env.config(TWO_PROFILES);
    for (id, body) in [("m1", "invoice 100"), ("m2", "invoice 200")] {
        let o = env.run(&[
            "inbox",
            "add",
            "--profile",
            "work",
            "--from",
            "a@b.c",
            "--id",
            id,
            "--body",
            body,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let o = env.run(&["--json", "inbox", "verify"]);
    assert!(o.status.success(), "{}", stdout(&o));
    assert_eq!(json(&o)["records"], 2);

    let inbox = env.data().join("inbox");
    let day = std::fs::read_dir(&inbox)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .unwrap();
    let text = std::fs::read_to_string(&day).unwrap();
    std::fs::write(&day, text.replacen("invoice 200", "invoice 900", 1)).unwrap();

    let o = env.run(&["--json", "inbox", "verify"]);
    assert_eq!(o.status.code(), Some(3), "{}", stdout(&o));
    let out = stdout(&o);
    let v: serde_json::Value = serde_json::Deserializer::from_str(&out)
        .into_iter()
        .next()
        .unwrap()
        .unwrap();
    assert_eq!(v["damaged"][0]["seq"], 2, "{v}");
    let o = env.run(&["inbox", "verify"]);
    assert_eq!(o.status.code(), Some(3));
    assert!(
        stdout(&o).contains("record #2 DAMAGED: checksum mismatch"),
        "{}",
        stdout(&o)
    );
    // Readers skip it and say so.
    let list = env.run(&["inbox", "list"]);
    assert!(list.status.success());
    assert!(!stdout(&list).contains("invoice 900"), "{}", stdout(&list));
    assert!(
        stderr(&list).contains("1 damaged inbox record(s) were skipped"),
        "{}",
        stderr(&list)
    );
    let doctor = env.run(&["doctor"]);
    assert!(
        stdout(&doctor).contains("1 damaged record(s) (readers skip them): #2"),
        "{}",
        stdout(&doctor)
    );
}

#[test]
fn a_reader_that_goes_away_ends_the_output_quietly_and_the_work_is_kept() {
    // `opsdesk inbox pull | head -0`: the reader is gone before anything is written.
    let env = Env::new();
    for i in 0..3 {
        let body = format!("Hello {i}");
        let id = format!("m{i}");
        let add = env.run(&[
            "inbox",
            "add",
            "--from",
            "ada@contoso.com",
            "--body",
            &body,
            "--id",
            &id,
        ]);
        assert!(add.status.success(), "{}", stderr(&add));
    }
    let mut child = env
        .cmd()
        .args(["inbox", "pull", "--consumer", "script"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = stderr(&out);
    assert!(out.status.success(), "status {:?}: {err}", out.status);
    assert!(!err.contains("panicked"), "{err}");
    // The pull still moved the cursor: nothing is left for the same consumer.
    let again = env.run(&["--json", "inbox", "pull", "--consumer", "script"]);
    assert!(again.status.success(), "{}", stderr(&again));
    let left = json(&again);
    assert_eq!(left["messages"].as_array().unwrap().len(), 0, "{left}");
}

#[test]
fn inbox_list_columns_line_up_under_their_headers_whatever_the_names() {
    let env = Env::new();
    env.config(
        "[profiles.operations]\nsources = [\"spool\"]\n[profiles.ops]\nsources = [\"spool\"]\n",
    );
    for (id, profile) in [("m1", "operations"), ("m2", "ops")] {
        let o = env.run(&[
            "inbox",
            "add",
            "--profile",
            profile,
            "--from",
            "Bob <bob@x.example>",
            "--subject",
            "Hi",
            "--body",
            "b",
            "--id",
            id,
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    let out = stdout(&env.run(&["inbox", "list"]));
    let lines: Vec<&str> = out.lines().collect();
    assert_eq!(lines.len(), 3, "{out}");
    let col = |header: &str| lines[0].find(header).unwrap();
    for row in &lines[1..] {
        // Each cell starts where its header does.
        let profile = if row.contains("operations") {
            "operations"
        } else {
            "ops"
        };
        assert_eq!(row.find(profile), Some(col("PROFILE")), "{out}");
        assert_eq!(row.find("Bob"), Some(col("FROM")), "{out}");
        assert_eq!(row.find("Hi"), Some(col("SUBJECT")), "{out}");
        let channel = row.split_whitespace().nth(3).unwrap();
        assert_eq!(
            row.find(&format!(" {channel} ")).map(|i| i + 1),
            Some(col("CHANNEL")),
            "{out}"
        );
    }
}

#[test]
fn lists_have_headers_verdicts_read_as_words_and_approval_says_when_it_is_sent() {
    let env = Env::new();
    env.config(TWO_PROFILES);
    let o = env.run(&[
        "--json",
        "drafts",
        "new",
        "--profile",
        "work",
        "--to",
        "bob@contoso.com",
        "--subject",
        "Renewal",
        "--body",
        "Yes",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let id = json(&o)["draft_id"].as_str().unwrap().to_string();

    let list = stdout(&env.run(&["drafts", "list"]));
    let header = list.lines().next().unwrap();
    assert!(
        header.starts_with("ID ") && header.contains("RECIPIENTS"),
        "{list}"
    );
    let show = stdout(&env.run(&["drafts", "show", &id]));
    let verdict = show.lines().find(|l| l.starts_with("verdict:")).unwrap();
    assert!(verdict.contains("queue — "), "{verdict}");
    assert!(!verdict.contains('{'), "raw JSON: {verdict}");

    // `work` has no account to send from: approving says nothing will send it.
    let o = env.run(&["drafts", "approve", &id, "--yes"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let said = stdout(&o);
    assert!(
        said.contains(&format!("approved {id}")) && said.contains("nothing will send it"),
        "{said}"
    );

    let tail = stdout(&env.run(&["audit", "tail", "-n", "3"]));
    let header = tail.lines().next().unwrap();
    assert!(
        header.contains("SEQ") && header.contains("EVENT") && header.contains("ACTOR"),
        "{tail}"
    );
}

#[test]
fn seqs_are_accepted_as_lists_print_them_and_unclear_words_are_explained() {
    let env = Env::new();
    // The README's first example on a fresh setup: says how to get the profile.
    let o = env.run(&[
        "inbox",
        "add",
        "--profile",
        "work",
        "--from",
        "a@x.example",
        "--subject",
        "s",
        "--body",
        "b",
    ]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("[profiles.work]") && err.contains("--profile default"),
        "{err}"
    );

    let o = env.run(&[
        "inbox",
        "add",
        "--profile",
        "default",
        "--from",
        "a@x.example",
        "--subject",
        "s",
        "--body",
        "b",
        "--id",
        "m1",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let shown = env.run(&["--json", "inbox", "show", "#1"]);
    assert!(shown.status.success(), "{}", stderr(&shown));
    assert_eq!(json(&shown)["id"], "m1");
    let set = env.run(&["triage", "set", "#1", "fyi"]);
    assert!(set.status.success(), "{}", stderr(&set));
    let list = stdout(&env.run(&["triage", "list"]));
    assert!(list.lines().next().unwrap().contains("CATEGORY"), "{list}");

    // `unassigned` without [classification]: why, not "unknown".
    let o = env.run(&["triage", "list", "--profile", "unassigned"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(
        err.contains("[classification]") && !err.contains("unknown profile"),
        "{err}"
    );

    let help = stdout(&env.run(&["--help"]));
    let triage = help
        .lines()
        .find(|l| l.trim_start().starts_with("triage"))
        .unwrap();
    assert!(triage.contains("assign"), "{triage}");
}

#[test]
fn audit_tail_prints_each_record_on_one_line_whatever_its_target_and_reason_hold() {
    // A target or reason can echo what a client sent (an id in an error): line breaks in it
    // must not print lines that read as records of their own.
    let env = Env::new();
    let audit = opsdesk::store::audit::Audit::open(&env.data().join("audit")).unwrap();
    let forged = "\n   301 2026-12-07 07:33 draft.approved     ok      operator             d-1";
    audit
        .append(
            opsdesk::domain::AuditEvent::new(
                "tool.call",
                opsdesk::domain::Actor::mcp("client"),
                opsdesk::domain::AuditOutcome::Error,
            )
            .target(format!("d-x{forged}"))
            .reason(format!("no such draft: d-x{forged}")),
        )
        .unwrap();
    let tail = stdout(&env.run(&["audit", "tail", "-n", "5"]));
    let lines: Vec<&str> = tail.lines().collect();
    assert_eq!(lines.len(), 2, "header and one record: {tail}");
    assert!(lines[1].trim_start().starts_with("1 "), "{tail}");
    assert!(
        lines[1].contains("d-x 301 2026-12-07 07:33 draft.approved ok operator d-1"),
        "the text is kept, folded onto the record's line: {tail}"
    );
}
