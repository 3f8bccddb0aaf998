//! Mail moves end to end through the real binary and a fake Graph mailbox (loopback): a move
//! is queued (CLI), waits for the operator's approval, and is carried out exactly once with
//! `POST /me/messages/{id}/move` — also when `opsdesk serve` is killed (SIGKILL) between the
//! call and its record. A message that is gone (404) or a folder that does not exist is a clear
//! failed state that is not retried.

mod graph_support;

use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use graph_support::{CLIENT_ID, Fake};
use opsdesk::sources::graph::auth::{TokenFile, TokenStore};
use serde_json::Value;

const BIN: &str = env!("CARGO_BIN_EXE_opsdesk");

struct Serve {
    child: Child,
}

impl Serve {
    fn start(data: &Path, config: &Path) -> Serve {
        let child = Command::new(BIN)
            .arg("--data-dir")
            .arg(data)
            .arg("--config")
            .arg(config)
            .args(["serve", "--bind", "127.0.0.1:0", "--no-http"])
            .env_remove("OPSDESK_TOKEN")
            .env("OPSDESK_LOG", "warn")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::inherit())
            .spawn()
            .expect("spawn opsdesk serve");
        Serve { child }
    }

    /// SIGKILL: no clean-up, no chance to record anything.
    fn kill9(mut self) {
        // SAFETY: signalling our own child process.
        unsafe {
            libc::kill(self.child.id() as i32, libc::SIGKILL);
        }
        let _ = self.child.wait();
        std::mem::forget(self);
    }
}

impl Drop for Serve {
    fn drop(&mut self) {
        // SAFETY: signalling our own child process.
        unsafe {
            libc::kill(self.child.id() as i32, libc::SIGTERM);
        }
        let deadline = Instant::now() + Duration::from_secs(20);
        while Instant::now() < deadline {
            if let Ok(Some(_)) = self.child.try_wait() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn wait_for(what: &str, limit: Duration, mut cond: impl FnMut() -> bool) {
    let deadline = Instant::now() + limit;
    while !cond() {
        assert!(Instant::now() < deadline, "timed out waiting for {what}");
        std::thread::sleep(Duration::from_millis(50));
    }
}

struct Setup {
    fake: Fake,
    _tmp: tempfile::TempDir,
    data: PathBuf,
    config: PathBuf,
}

impl Setup {
    fn new() -> Setup {
        let fake = Fake::start_in_thread();
        let tmp = tempfile::tempdir().unwrap();
        let data = tmp.path().join("data");
        let config = tmp.path().join("config.toml");
        std::fs::write(
            &config,
            format!(
                r#"
[profiles.work]
sources = ["graph_mail"]
[profiles.work.graph]
client_id = "{CLIENT_ID}"
time_zone = "UTC"
mail_interval_secs = 1
authority_url = "{}"
base_url = "{}"
"#,
                fake.authority(),
                fake.graph_base()
            ),
        )
        .unwrap();
        let rt = fake.with(|s| s.issue_refresh_token());
        TokenStore::new(data.join("tokens"))
            .save(
                "work",
                &TokenFile {
                    refresh_token: rt,
                    tenant: "organizations".into(),
                    client_id: CLIENT_ID.into(),
                    scopes: vec!["offline_access".into(), "Mail.ReadWrite".into()],
                    saved_at: time::OffsetDateTime::now_utc(),
                },
            )
            .unwrap();
        Setup {
            fake,
            _tmp: tmp,
            data,
            config,
        }
    }

    fn cli(&self, args: &[&str]) -> std::process::Output {
        Command::new(BIN)
            .arg("--data-dir")
            .arg(&self.data)
            .arg("--config")
            .arg(&self.config)
            .args(args)
            .env_remove("OPSDESK_TOKEN")
            .stdin(Stdio::null())
            .output()
            .expect("run opsdesk")
    }

    fn json(&self, args: &[&str]) -> Value {
        let mut a = vec!["--json"];
        a.extend_from_slice(args);
        let o = self.cli(&a);
        assert!(
            o.status.success(),
            "{args:?}: {}",
            String::from_utf8_lossy(&o.stderr)
        );
        serde_json::from_slice(&o.stdout).unwrap()
    }

    /// A mail in the fake mailbox, waited for in opsdesk's inbox.
    fn mail(&self, subject: &str) -> String {
        let id = self
            .fake
            .with(|s| s.add_mail(subject, "ann@fabrikam.com", "<p>hi</p>"));
        wait_for("the mail in the inbox", Duration::from_secs(30), || {
            self.cli(&["inbox", "show", &id]).status.success()
        });
        id
    }

    /// Queue a move with the CLI and approve it; the draft id.
    fn move_approved(&self, id: &str, folder: &str) -> String {
        let q = self.json(&["filing", "move", id, folder]);
        assert_eq!(q["outcome"], "queued", "{q}");
        let draft = q["draft_id"].as_str().unwrap().to_string();
        // Nothing moves before the operator approves.
        assert!(
            self.fake
                .with(|s| s.moves.is_empty() || s.moves.iter().all(|(m, _)| m != id))
        );
        let o = self.cli(&["drafts", "approve", &draft, "--yes"]);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        draft
    }

    fn draft(&self, id: &str) -> Value {
        self.json(&["drafts", "show", id])
    }

    fn wait_status(&self, draft: &str, status: &str) -> Value {
        let mut last = Value::Null;
        wait_for(
            &format!("draft {draft} {status}"),
            Duration::from_secs(30),
            || {
                last = self.draft(draft);
                last["status"] == status
            },
        );
        last
    }

    fn move_posts(&self, id: &str) -> usize {
        self.fake
            .with(|s| s.count("POST", &format!("/me/messages/{id}/move")))
    }
}

#[test]
fn an_approved_move_happens_once_and_failures_are_final() {
    let s = Setup::new();
    let sunrise = s.fake.with(|f| {
        let deals = f.add_folder("Deals", None);
        f.add_folder("Sunrise", Some(&deals))
    });
    let _serve = Serve::start(&s.data, &s.config);

    // A folder path, resolved through childFolders; exactly one move.
    let m1 = s.mail("Sunrise data room");
    let d1 = s.move_approved(&m1, "Deals/Sunrise");
    let done = s.wait_status(&d1, "executed");
    assert!(
        done["remote_id"]
            .as_str()
            .unwrap()
            .contains("Deals/Sunrise"),
        "{done}"
    );
    s.fake.with(|f| {
        assert_eq!(f.moves, vec![(m1.clone(), sunrise.clone())]);
        assert!(
            f.requests
                .iter()
                .filter(|r| r.path.ends_with("/move"))
                .all(|r| r.prefer.contains("ImmutableId") && r.body.contains(&sunrise)),
            "documented body and immutable ids"
        );
    });

    // A well-known name.
    let m2 = s.mail("Old thread");
    let d2 = s.move_approved(&m2, "archive");
    s.wait_status(&d2, "executed");
    assert_eq!(s.move_posts(&m2), 1);

    // The message is gone: failed, clearly, and not retried.
    let m3 = s.mail("Going away");
    s.fake.with(|f| f.remove_mail(&m3));
    // (the inbox keeps its copy; the mailbox no longer has it)
    let d3 = s.move_approved(&m3, "archive");
    let failed = s.wait_status(&d3, "failed");
    let reason = failed["reason"].as_str().unwrap();
    assert!(
        reason.starts_with("not retried: ") && reason.contains("404"),
        "{reason}"
    );
    assert_eq!(s.move_posts(&m3), 0);

    // A folder that does not exist: failed, not retried.
    let m4 = s.mail("Nowhere");
    let d4 = s.move_approved(&m4, "Deals/Nope");
    let failed = s.wait_status(&d4, "failed");
    assert!(
        failed["reason"]
            .as_str()
            .unwrap()
            .contains("no mail folder `Deals/Nope`"),
        "{failed}"
    );
    // Several executor passes later nothing was retried.
    let gets = s
        .fake
        .with(|f| f.count("GET", &format!("/me/messages/{m3}")));
    std::thread::sleep(Duration::from_millis(2500));
    assert_eq!(
        s.fake
            .with(|f| f.count("GET", &format!("/me/messages/{m3}"))),
        gets
    );
    assert_eq!(s.move_posts(&m4), 0);
    assert_eq!(s.move_posts(&m1), 1);
}

#[test]
fn a_crash_between_the_move_and_its_record_does_not_move_twice() {
    let s = Setup::new();
    let serve = Serve::start(&s.data, &s.config);
    let m = s.mail("Crash me");
    s.fake.with(|f| f.stall_after_acting = Some("/move".into()));
    let d = s.move_approved(&m, "archive");
    // The mailbox carried the move out; its answer is held back and the engine is killed.
    wait_for("the move", Duration::from_secs(30), || {
        s.fake.with(|f| !f.moves.is_empty())
    });
    serve.kill9();
    assert_eq!(s.draft(&d)["status"], "approved", "nothing recorded yet");

    s.fake.with(|f| f.stall_after_acting = None);
    let _serve = Serve::start(&s.data, &s.config);
    let done = s.wait_status(&d, "executed");
    assert!(
        done["remote_id"].as_str().unwrap().contains("archive"),
        "{done}"
    );
    assert_eq!(s.move_posts(&m), 1, "moved exactly once");
    assert_eq!(s.fake.with(|f| f.moves.len()), 1);
}
