//! Integrity a co-resident process cannot forge, and a crash that is not tampering.
//!
//! The attacker here can write the data dir (a same-uid process) but cannot read the integrity
//! key in the config dir. It knows the formats: it recomputes hash chains, anchors and CRCs.

use std::os::unix::fs::PermissionsExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use serde_json::Value;

struct Env {
    tmp: tempfile::TempDir,
}

impl Env {
    fn new() -> Env {
        Env {
            tmp: tempfile::tempdir().unwrap(),
        }
    }
    fn data(&self) -> PathBuf {
        self.tmp.path().join("data")
    }
    /// The XDG config home of every process this test starts (never the real HOME).
    fn xdg(&self) -> PathBuf {
        self.tmp.path().join("xdg")
    }
    fn key_file(&self) -> PathBuf {
        self.xdg().join("opsdesk").join("integrity.key")
    }
    fn cmd_with(&self, xdg: &Path, args: &[&str]) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_opsdesk"));
        c.env("OPSDESK_DATA_DIR", self.data())
            .env("XDG_CONFIG_HOME", xdg)
            .env("HOME", self.tmp.path().join("home"))
            .env_remove("OPSDESK_CONFIG")
            .env_remove("OPSDESK_LOG")
            .env_remove("OPSDESK_FAILPOINT")
            .args(args);
        c
    }
    fn run(&self, args: &[&str]) -> Output {
        self.cmd_with(&self.xdg(), args).output().unwrap()
    }
    /// `drafts new`, aborted by the failpoint `at` (a crash).
    fn run_failing_at(&self, at: &str) -> Output {
        self.cmd_with(
            &self.xdg(),
            &[
                "drafts",
                "new",
                "--profile",
                "default",
                "--to",
                "ann@example.com",
                "--subject",
                "Re: invoice",
                "--body",
                "Paid.",
            ],
        )
        .env("OPSDESK_FAILPOINT", at)
        .output()
        .unwrap()
    }
    fn add(&self, subject: &str) -> Output {
        let o = self.run(&[
            "inbox",
            "add",
            "--from",
            "billing@example.org",
            "--subject",
            subject,
            "--body",
            "Please pay to account DE44 5001 0517 5407 3249 31.",
        ]);
        assert!(o.status.success(), "inbox add: {}", text(&o));
        o
    }
    fn verify_json(&self, what: &str) -> (i32, Value) {
        let o = self.run(&["--json", what, "verify"]);
        let v = serde_json::from_slice(&o.stdout)
            .unwrap_or_else(|e| panic!("{what} verify --json: {e}: {}", text(&o)));
        (o.status.code().unwrap_or(-1), v)
    }
    fn audit_file(&self) -> PathBuf {
        let dir = self.data().join("audit");
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
            .collect();
        files.sort();
        files.pop().expect("an audit month file")
    }
    fn inbox_day_file(&self) -> PathBuf {
        let dir = self.data().join("inbox");
        std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| p.extension().is_some_and(|x| x == "jsonl"))
            .expect("an inbox day file")
    }
}

/// `audit verify` exits 3 saying `says`; after `open` (a command that opens the engine) it
/// exits 0. Returns that last verify.
fn verify_fails_then_recovers(env: &Env, says: &str, open: &[&str]) -> Output {
    let o = env.run(&["audit", "verify"]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    assert!(text(&o).contains(says), "{}", text(&o));
    let o = env.run(open);
    assert!(o.status.success(), "{}", text(&o));
    let o = env.run(&["audit", "verify"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o));
    o
}

fn text(o: &Output) -> String {
    format!(
        "exit {:?}\nstdout: {}\nstderr: {}",
        o.status.code(),
        String::from_utf8_lossy(&o.stdout),
        String::from_utf8_lossy(&o.stderr)
    )
}

fn lines(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect()
}

fn append_line(path: &Path, v: &Value) {
    use std::io::Write;
    let mut f = std::fs::OpenOptions::new().append(true).open(path).unwrap();
    writeln!(f, "{v}").unwrap();
}

/// The attacker's move: a `draft.approve` record chained onto the trail with a correct hash,
/// and the anchor moved to it.
fn forge_approval(env: &Env, mac: Option<&str>) -> u64 {
    forge_record(env, "d-forged", mac).0
}

/// A `draft.approve` record for `target` chained onto the trail with a correct hash (and
/// `mac`, if given), the anchor moved to it; its seq and hash.
fn forge_record(env: &Env, target: &str, mac: Option<&str>) -> (u64, String) {
    let file = env.audit_file();
    let last = lines(&file).pop().unwrap();
    let seq = last["seq"].as_u64().unwrap() + 1;
    let mut forged = serde_json::json!({
        "seq": seq,
        "ts": last["ts"],
        "event": "draft.approve",
        "actor": "cli",
        "entity": "default",
        "outcome": "ok",
        "reason": "draft approved",
        "duration_ms": 0,
        "target": target,
        "prev": last["hash"],
    });
    let hash = opsdesk::store::audit::record_hash(&forged).unwrap();
    forged["hash"] = hash.clone().into();
    if let Some(m) = mac {
        forged["mac"] = m.into();
    }
    append_line(&file, &forged);
    let anchor = format!("{{\"seq\":{seq},\"hash\":\"{hash}\"}}");
    std::fs::write(env.data().join("audit/.head"), format!("{anchor:<191}\n")).unwrap();
    (seq, hash)
}

#[test]
fn a_rechained_forged_approval_without_the_key_fails_audit_verify() {
    let env = Env::new();
    env.add("Invoice 1");
    let (code, v) = env.verify_json("audit");
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["macs_checked"], true);
    assert_eq!(v["unkeyed_records"], 0);
    assert!(v["keyed_records"].as_u64().unwrap() >= 1, "{v}");

    let seq = forge_approval(&env, None);
    let o = env.run(&["audit", "verify"]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    let out = text(&o);
    assert!(out.contains(&format!("(record {seq})")), "{out}");
    assert!(out.contains("written without the integrity key"), "{out}");
}

#[test]
fn a_forged_approval_with_a_made_up_mac_fails_audit_verify() {
    let env = Env::new();
    env.add("Invoice 1");
    let seq = forge_approval(&env, Some(&"0".repeat(64)));
    let (code, v) = env.verify_json("audit");
    assert_eq!(code, 3, "{v}");
    assert_eq!(v["first_bad"]["seq"], seq);
    assert!(
        v["first_bad"]["reason"]
            .as_str()
            .unwrap()
            .contains("mac does not match"),
        "{v}"
    );
}

#[test]
fn without_the_key_verify_says_the_macs_cannot_be_checked() {
    let env = Env::new();
    env.add("Invoice 1");
    // A copy of the data dir verified elsewhere: no key in this config dir.
    let elsewhere = env.tmp.path().join("other-xdg");
    let o = env
        .cmd_with(&elsewhere, &["audit", "verify"])
        .output()
        .unwrap();
    let out = text(&o);
    assert!(out.contains("macs NOT checked"), "{out}");
    assert!(out.contains("does not exist here"), "{out}");
    let o = env
        .cmd_with(&elsewhere, &["inbox", "verify"])
        .output()
        .unwrap();
    assert!(text(&o).contains("macs NOT checked"), "{}", text(&o));
    assert!(
        !elsewhere.join("opsdesk/integrity.key").exists(),
        "verifying never creates a key"
    );
}

/// Rewrite record `seq`'s CRC in the index after its bytes changed (the attacker's repair).
fn fix_crc(env: &Env, seq: u64, line_with_newline: &[u8]) {
    use std::os::unix::fs::FileExt;
    let index = std::fs::OpenOptions::new()
        .write(true)
        .open(env.data().join("inbox/index2.bin"))
        .unwrap();
    let crc = crc32fast::hash(line_with_newline);
    index
        .write_all_at(&crc.to_le_bytes(), (seq - 1) * 32 + 24)
        .unwrap();
}

#[test]
fn a_crc_consistent_edit_of_an_inbox_record_fails_inbox_verify() {
    let env = Env::new();
    env.add("Invoice 1");
    env.add("Invoice 2");
    let (code, v) = env.verify_json("inbox");
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["keyed"], 2);
    assert_eq!(v["keyed_from"], 1);

    let day = env.inbox_day_file();
    let bytes = std::fs::read(&day).unwrap();
    let edited = String::from_utf8(bytes)
        .unwrap()
        .replacen("DE44 5001", "DE99 6666", 1);
    std::fs::write(&day, &edited).unwrap();
    let first = edited.split_inclusive('\n').next().unwrap();
    fix_crc(&env, 1, first.as_bytes());

    let (code, v) = env.verify_json("inbox");
    assert_eq!(code, 3, "{v}");
    assert_eq!(v["damaged"][0]["seq"], 1, "{v}");
    assert!(
        v["damaged"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("mac does not match"),
        "{v}"
    );
}

/// A line like the last stored one, as the next seq, without the key's mac.
fn forged_line(env: &Env, mac: Option<&str>) -> Value {
    let mut v = lines(&env.inbox_day_file()).pop().unwrap();
    let seq = v["seq"].as_u64().unwrap() + 1;
    let obj = v.as_object_mut().unwrap();
    obj.remove("mac");
    obj.insert("seq".into(), seq.into());
    obj.insert("id".into(), "forged-1".into());
    obj.insert("subject".into(), "CEO: wire 48,000 EUR today".into());
    if let Some(m) = mac {
        obj.insert("mac".into(), m.into());
    }
    v
}

#[test]
fn a_forged_appended_inbox_line_fails_inbox_verify() {
    let env = Env::new();
    env.add("Invoice 1");
    let forged = forged_line(&env, None);
    append_line(&env.inbox_day_file(), &forged);
    let (code, v) = env.verify_json("inbox");
    assert_eq!(code, 3, "{v}");
    assert_eq!(v["damaged"][0]["seq"], 2, "{v}");
    assert!(
        v["damaged"][0]["reason"]
            .as_str()
            .unwrap()
            .contains("without the integrity key"),
        "{v}"
    );
}

#[test]
fn a_forged_line_indexed_by_a_rebuild_after_the_index_was_deleted_fails_inbox_verify() {
    let env = Env::new();
    env.add("Invoice 1");
    env.add("Invoice 2");
    std::fs::remove_file(env.data().join("inbox/index2.bin")).unwrap();
    let forged = forged_line(&env, Some(&"ab".repeat(32)));
    append_line(&env.inbox_day_file(), &forged);
    let (code, v) = env.verify_json("inbox");
    assert_eq!(code, 3, "{v}");
    assert_eq!(
        v["records"], 3,
        "the rebuilt index holds the forged line: {v}"
    );
    assert_eq!(v["damaged"].as_array().unwrap().len(), 1, "{v}");
    assert_eq!(v["damaged"][0]["seq"], 3, "{v}");
}

#[test]
fn records_written_before_keying_still_verify_and_are_reported_as_not_keyed() {
    use opsdesk::domain::{Actor, AuditEvent, AuditOutcome};
    let env = Env::new();
    // An older opsdesk: no key anywhere, records without macs.
    {
        let audit = opsdesk::store::audit::Audit::open(&env.data().join("audit")).unwrap();
        for _ in 0..3 {
            audit
                .append(AuditEvent::new(
                    "inbox.pull",
                    Actor::Console,
                    AuditOutcome::Ok,
                ))
                .unwrap();
        }
    }
    assert!(!env.key_file().exists());
    // This opsdesk: the first writer creates the key; what it writes is keyed.
    env.add("Invoice 1");
    let (code, v) = env.verify_json("audit");
    assert_eq!(code, 0, "{v}");
    assert_eq!(v["unkeyed_records"], 3, "{v}");
    assert!(v["keyed_records"].as_u64().unwrap() >= 1, "{v}");
    let o = env.run(&["audit", "verify"]);
    assert!(
        text(&o).contains("3 record(s) written before keying (not keyed)"),
        "{}",
        text(&o)
    );
}

#[test]
fn stripping_the_macs_of_records_written_after_keying_is_caught() {
    let env = Env::new();
    env.add("Invoice 1");
    // Every mac removed: nothing keyed "precedes" the records any more, but they were
    // written after the key was created.
    std::thread::sleep(std::time::Duration::from_millis(1100));
    env.add("Invoice 2");
    let file = env.audit_file();
    let stripped: Vec<String> = lines(&file)
        .into_iter()
        .map(|mut v| {
            v.as_object_mut().unwrap().remove("mac");
            v.to_string()
        })
        .collect();
    std::fs::write(&file, stripped.join("\n") + "\n").unwrap();
    std::fs::remove_file(env.data().join("audit/.head")).unwrap();
    let (code, v) = env.verify_json("audit");
    assert_eq!(code, 3, "{v}");
    assert!(
        v["first_bad"]["reason"]
            .as_str()
            .unwrap()
            .contains("written after the integrity key was created"),
        "{v}"
    );
}

#[test]
fn the_key_is_a_private_file_in_the_config_dir_and_never_in_the_data_dir() {
    let env = Env::new();
    env.add("Invoice 1");
    let key = env.key_file();
    let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
    assert_eq!(mode(&key), 0o600);
    assert_eq!(mode(key.parent().unwrap()), 0o700);
    assert_eq!(std::fs::metadata(&key).unwrap().len(), 32);
    let key_bytes = std::fs::read(&key).unwrap();
    for entry in walk(&env.data()) {
        assert_ne!(entry.file_name().unwrap(), "integrity.key");
        let content = std::fs::read(&entry).unwrap();
        assert!(
            !content.windows(32).any(|w| w == key_bytes.as_slice()),
            "{} holds the key",
            entry.display()
        );
    }

    // A config dir inside the data dir: nothing is keyed, doctor says why.
    let inside = env.data().join("conf");
    let o = env
        .cmd_with(&inside, &["--json", "doctor"])
        .output()
        .unwrap();
    assert!(
        String::from_utf8_lossy(&o.stdout).contains("inside the data dir"),
        "{}",
        text(&o)
    );
    assert!(
        walk(&env.data())
            .iter()
            .all(|p| !p.ends_with("integrity.key"))
    );
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            out.extend(walk(&p));
        } else if p.is_file() {
            out.push(p);
        }
    }
    out
}

#[test]
fn a_crash_between_the_inbox_append_and_its_audit_record_is_recovered_at_the_next_open() {
    let env = Env::new();
    env.add("Invoice 1");
    let o = env
        .cmd_with(
            &env.xdg(),
            &[
                "inbox",
                "add",
                "--from",
                "a@example.org",
                "--subject",
                "Invoice 2",
                "--body",
                "b",
            ],
        )
        .env("OPSDESK_FAILPOINT", "after_inbox_append")
        .output()
        .unwrap();
    use std::os::unix::process::ExitStatusExt;
    assert_eq!(
        o.status.signal(),
        Some(libc::SIGABRT),
        "the failpoint aborts: {}",
        text(&o)
    );

    // Before any engine opened again: the record is stored and has no audit record; the next
    // open (any command that opens the engine) audits it as recovered.
    let o = verify_fails_then_recovers(&env, "#2", &["inbox", "list"]);
    assert!(
        text(&o).contains(
            "inbox records stored before a crash, audited at recovery (inbox.recovered): #2"
        ),
        "{}",
        text(&o)
    );
    let (_, v) = env.verify_json("audit");
    assert_eq!(v["inbox_recovered"], serde_json::json!([2]));
    // Recovered once: a second open adds nothing.
    env.run(&["inbox", "list"]);
    let (_, again) = env.verify_json("audit");
    assert_eq!(again["inbox_recovered"], serde_json::json!([2]));
    assert_eq!(again["records"], v["records"], "no second recovery record");
}

#[test]
fn inbox_add_killed_at_any_moment_leaves_a_trail_that_verifies_after_the_next_open() {
    let env = Env::new();
    env.add("warm-up");
    let mut killed = 0;
    for i in 0..25u64 {
        let mut child = env
            .cmd_with(
                &env.xdg(),
                &[
                    "inbox",
                    "add",
                    "--from",
                    "a@example.org",
                    "--subject",
                    &format!("m{i}"),
                    "--body",
                    "b",
                ],
            )
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .unwrap();
        std::thread::sleep(std::time::Duration::from_millis(2 + (i * 7) % 40));
        // SAFETY: kill(2) on our own child's pid.
        unsafe { libc::kill(child.id() as i32, libc::SIGKILL) };
        let st = child.wait().unwrap();
        if !st.success() {
            killed += 1;
        }
    }
    let o = env.run(&["inbox", "list"]);
    assert!(o.status.success(), "{}", text(&o));
    let (code, v) = env.verify_json("audit");
    assert_eq!(code, 0, "after {killed} kills the trail verifies: {v}");
    assert_eq!(v["inbox_unaudited"], serde_json::json!([]));
    let (code, v) = env.verify_json("inbox");
    assert_eq!(code, 0, "{v}");
}

/// The attacker's whole move against an outbound mail: a correctly chained `draft.approve`
/// record for a real pending draft, and the `approved` line bound to it in the drafts log.
fn forge_bound_approval(env: &Env, id: &str, digest: &str) {
    let (seq, hash) = forge_record(env, id, None);
    let ts = lines(&env.audit_file()).pop().unwrap()["ts"].clone();
    append_line(
        &env.data().join("drafts/drafts.jsonl"),
        &serde_json::json!({
            "ts": ts, "draft_id": id, "actor": "cli", "event": "approved",
            "digest": digest, "audit": {"seq": seq, "hash": hash},
        }),
    );
}

#[test]
fn a_forged_approval_bound_to_a_forged_record_never_takes_effect() {
    let env = Env::new();
    let o = env.run(&[
        "drafts",
        "new",
        "--profile",
        "default",
        "--to",
        "cfo@outside.example",
        "--subject",
        "Wire",
        "--body",
        "Wire 48,000 EUR today.",
    ]);
    assert!(o.status.success(), "{}", text(&o));
    let list: Value =
        serde_json::from_slice(&env.run(&["--json", "drafts", "list"]).stdout).unwrap();
    let (id, digest) = (
        list[0]["id"].as_str().unwrap().to_string(),
        list[0]["digest"].as_str().unwrap().to_string(),
    );
    forge_bound_approval(&env, &id, &digest);
    // The queue the executor acts on ignores it: the draft still waits for the operator.
    let shown: Value =
        serde_json::from_slice(&env.run(&["--json", "drafts", "show", &id]).stdout).unwrap();
    assert_eq!(shown["status"], "pending", "{shown}");
    // And verify names both the forged record and the ignored event.
    let o = env.run(&["audit", "verify"]);
    assert_eq!(o.status.code(), Some(3), "{}", text(&o));
    assert!(text(&o).contains("integrity key"), "{}", text(&o));
}

#[test]
fn a_crash_between_a_drafts_audit_record_and_its_log_line_is_recovered_at_the_next_open() {
    let env = Env::new();
    env.add("Invoice 1");
    let o = env
        .cmd_with(
            &env.xdg(),
            &[
                "drafts",
                "new",
                "--profile",
                "default",
                "--to",
                "ann@example.com",
                "--subject",
                "Re: invoice",
                "--body",
                "Paid.",
            ],
        )
        .env("OPSDESK_FAILPOINT", "after_draft_audit")
        .output()
        .unwrap();
    assert!(
        !o.status.success(),
        "the failpoint did not fire: {}",
        text(&o)
    );
    // Before any engine opened again, verify reports a created draft missing; the next
    // engine open explains it as a crash, and verify is satisfied.
    verify_fails_then_recovers(&env, "missing from", &["drafts", "list"]);
    let lost: Vec<Value> = lines(&env.audit_file())
        .into_iter()
        .filter(|r| r["event"] == "draft.lost")
        .collect();
    assert_eq!(lost.len(), 1, "recovered once");
    // A second open does not recover it again.
    env.run(&["drafts", "list"]);
    let again = lines(&env.audit_file())
        .into_iter()
        .filter(|r| r["event"] == "draft.lost")
        .count();
    assert_eq!(again, 1);
}

/// Every file of the data dir and its bytes (the lock files' pid lines aside), to show that a
/// refused command wrote nothing.
fn snapshot(dir: &Path) -> Vec<(PathBuf, Vec<u8>)> {
    let mut files: Vec<(PathBuf, Vec<u8>)> = walk(dir)
        .into_iter()
        .filter(|p| !p.to_string_lossy().ends_with(".lock"))
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap();
            (p, bytes)
        })
        .collect();
    files.sort();
    files
}

/// A data dir with an inbox record and a pending draft, written with the key of `env.xdg()`.
fn keyed_data_dir_with_a_draft(env: &Env) {
    env.add("Invoice 1");
    let o = env.run(&[
        "drafts",
        "new",
        "--profile",
        "default",
        "--to",
        "ann@example.com",
        "--subject",
        "Re: invoice",
        "--body",
        "Paid.",
    ]);
    assert!(o.status.success(), "{}", text(&o));
}

#[test]
fn a_keyed_data_dir_opened_with_no_key_beside_the_config_in_use_is_refused_and_left_as_it_was() {
    let env = Env::new();
    keyed_data_dir_with_a_draft(&env);
    let before = snapshot(&env.data());
    // Another config dir (another --config, another terminal, a restored backup): no key there.
    let elsewhere = env.tmp.path().join("other-xdg");
    for args in [
        &["drafts", "list"][..],
        &["inbox", "list"],
        &["drafts", "show", "x"],
    ] {
        let o = env.cmd_with(&elsewhere, args).output().unwrap();
        let out = text(&o);
        assert!(!o.status.success(), "{args:?}: {out}");
        assert!(out.contains("was written with an integrity key"), "{out}");
        assert!(out.contains("there is no key at"), "{out}");
        assert!(
            out.contains(
                &elsewhere
                    .join("opsdesk/integrity.key")
                    .display()
                    .to_string()
            ),
            "says where the key was looked for: {out}"
        );
        assert!(
            out.contains("OPSDESK_CONFIG"),
            "says how to point at it: {out}"
        );
    }
    assert!(
        !elsewhere.join("opsdesk/integrity.key").exists(),
        "no new key was made for a keyed data dir"
    );
    assert_eq!(snapshot(&env.data()), before, "nothing was written");
    // With the right key the trail still verifies and the draft is still there.
    let (code, v) = env.verify_json("audit");
    assert_eq!(code, 0, "{v}");
    let list: Value =
        serde_json::from_slice(&env.run(&["--json", "drafts", "list"]).stdout).unwrap();
    assert_eq!(list.as_array().map(Vec::len), Some(1), "{list}");
    assert!(
        lines(&env.audit_file())
            .iter()
            .all(|r| r["event"] != "draft.lost"),
        "no draft was declared lost"
    );
}

#[test]
fn a_keyed_data_dir_opened_with_another_key_is_refused_and_nothing_is_written() {
    let env = Env::new();
    keyed_data_dir_with_a_draft(&env);
    // Another key: one a different data dir's first writer made in another config dir.
    let elsewhere = env.tmp.path().join("other-xdg");
    let o = env
        .cmd_with(&elsewhere, &["inbox", "list"])
        .env("OPSDESK_DATA_DIR", env.tmp.path().join("other-data"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", text(&o));
    let other_key = elsewhere.join("opsdesk/integrity.key");
    assert!(other_key.exists());
    let before = snapshot(&env.data());
    for args in [
        &["drafts", "list"][..],
        &[
            "inbox",
            "add",
            "--from",
            "a@example.org",
            "--subject",
            "x",
            "--body",
            "y",
        ],
    ] {
        let o = env.cmd_with(&elsewhere, args).output().unwrap();
        let out = text(&o);
        assert!(!o.status.success(), "{args:?}: {out}");
        assert!(out.contains("does not match the key at"), "{out}");
        assert!(out.contains(&other_key.display().to_string()), "{out}");
    }
    assert_eq!(snapshot(&env.data()), before, "nothing was written");
    let (code, v) = env.verify_json("audit");
    assert_eq!(code, 0, "{v}");
}

#[test]
fn a_command_beside_a_running_engine_leaves_crash_recovery_to_it() {
    let env = Env::new();
    env.add("Invoice 1");
    // A draft audited as created whose log line never came (a crash between the two).
    let o = env.run_failing_at("after_draft_audit");
    assert!(
        !o.status.success(),
        "the failpoint did not fire: {}",
        text(&o)
    );
    // An engine holds the data dir (the lock is what a running `serve` holds).
    let lock = opsdesk::engine::EngineLock::acquire(&env.data().join("engine.lock")).unwrap();
    let before = std::fs::read(env.audit_file()).unwrap();
    let o = env.run(&["drafts", "list"]);
    assert!(o.status.success(), "{}", text(&o));
    assert_eq!(
        std::fs::read(env.audit_file()).unwrap(),
        before,
        "a read beside a running engine writes nothing to its trail"
    );
    drop(lock);
    // With no engine running, the next command recovers it (once).
    let o = env.run(&["drafts", "list"]);
    assert!(o.status.success(), "{}", text(&o));
    let lost = lines(&env.audit_file())
        .into_iter()
        .filter(|r| r["event"] == "draft.lost")
        .count();
    assert_eq!(lost, 1);
}
