//! Audit retention: old months are archived (compressed) instead of deleted, the archive's
//! hashes are recorded in the live chain (`audit.archive`), and `audit verify` checks the
//! archive against them. Old month files are made by renaming the current one (a record's
//! month is the file it is in).

use std::path::Path;

use opsdesk::config::Config;
use opsdesk::domain::{Action, Actor, Outbound, Outcome};
use opsdesk::engine::{Engine, Mode};
use opsdesk::paths::Paths;
use opsdesk::store::audit_archive::{Archived, read_archive};

const CONFIG: &str = r#"
[profiles.work]
sources = ["spool"]
email_domains = ["contoso.com"]

[audit]
archive_after_months = 2
"#;

fn engine(dir: &Path) -> Engine {
    let paths = Paths::resolve(
        Some(dir.to_path_buf()),
        Some(dir.join("xdg/opsdesk/config.toml")),
    )
    .unwrap();
    let config = Config::from_toml_str(CONFIG, Path::new("test.toml")).unwrap();
    Engine::open(paths, config, Mode::Secondary).unwrap()
}

fn draft(engine: &Engine) -> String {
    match engine
        .submit(
            Action::CreateDraft {
                profile: "work".into(),
                outbound: Outbound::PostChat {
                    chat_id: "19:team".into(),
                    body: "standup moved".into(),
                },
                provider: None,
            },
            Actor::mcp("claude-code"),
        )
        .unwrap()
    {
        Outcome::Queued { draft_id, .. } => draft_id,
        other => panic!("{other:?}"),
    }
}

/// The trail's only month file renamed to `month` (so it reads as an old month).
fn age_the_trail(dir: &Path, month: &str) {
    let audit = dir.join("audit");
    let files: Vec<_> = std::fs::read_dir(&audit)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    assert_eq!(files.len(), 1, "{files:?}");
    std::fs::rename(&files[0], audit.join(format!("{month}.jsonl"))).unwrap();
}

fn verify(dir: &Path) -> (bool, serde_json::Value) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_opsdesk"))
        .env("OPSDESK_DATA_DIR", dir)
        .env("XDG_CONFIG_HOME", dir.join("xdg"))
        .env_remove("OPSDESK_CONFIG")
        .args(["--json", "audit", "verify"])
        .output()
        .unwrap();
    (
        out.status.success(),
        serde_json::from_slice(&out.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", String::from_utf8_lossy(&out.stdout))),
    )
}

#[test]
fn an_old_month_is_archived_its_hash_is_in_the_chain_and_verify_checks_it() {
    let dir = tempfile::tempdir().unwrap();
    let id = {
        let e = engine(dir.path());
        let id = draft(&e);
        e.submit(
            Action::ApproveDraft {
                id: id.clone(),
                digest: None,
            },
            Actor::Cli,
        )
        .unwrap();
        id
    };
    age_the_trail(dir.path(), "2025-01");
    let e = engine(dir.path());
    // A record in the current month, so the old one is not the head.
    let _ = draft(&e);
    let old = std::fs::read(dir.path().join("audit/2025-01.jsonl")).unwrap();

    let done = e
        .archive_audit(2, opsdesk::domain::now(), Actor::Cli)
        .unwrap();
    assert_eq!(done.len(), 1);
    let a = &done[0];
    assert_eq!((a.month.as_str(), a.first), ("2025-01", 1));
    assert!(
        !dir.path().join("audit/2025-01.jsonl").exists(),
        "archived, not kept live"
    );
    let gz = dir.path().join("audit").join(a.file());
    assert_eq!(
        read_archive(&gz).unwrap(),
        old,
        "the archive is the month, compressed"
    );

    // The archive's hashes are in the live chain.
    let note = e
        .audit_tail(50)
        .unwrap()
        .into_iter()
        .find(|r| r.event.event == "audit.archive")
        .expect("the archive is recorded");
    assert_eq!(
        Archived::parse(note.event.target.as_deref().unwrap()).as_ref(),
        Some(a)
    );
    use sha2::Digest;
    assert_eq!(
        a.sha256,
        hex::encode(sha2::Sha256::digest(std::fs::read(&gz).unwrap()))
    );

    let (ok, report) = verify(dir.path());
    assert!(ok, "{report}");
    assert_eq!(report["archived_records"], a.last, "{report}");
    assert_eq!(report["archives"][0]["sha256"], a.sha256.as_str());

    // Draft decisions bound to archived records still count.
    let q = e.draft_queue().unwrap();
    assert!(q.unbound.is_empty(), "{:?}", q.unbound);
    assert_eq!(e.draft(&id).unwrap().unwrap().status.as_str(), "approved");

    // Nothing more is due; a second run archives nothing.
    assert!(
        e.archive_audit(2, opsdesk::domain::now(), Actor::Cli)
            .unwrap()
            .is_empty()
    );
}

#[test]
fn an_altered_or_missing_archive_fails_verify() {
    let dir = tempfile::tempdir().unwrap();
    draft(&engine(dir.path()));
    age_the_trail(dir.path(), "2025-01");
    let e = engine(dir.path());
    draft(&e);
    let a = e
        .archive_audit(1, opsdesk::domain::now(), Actor::Cli)
        .unwrap()
        .remove(0);
    let gz = dir.path().join("audit").join(a.file());
    let good = std::fs::read(&gz).unwrap();

    // Recompressed with a different level: same records, other bytes, other sha256.
    let text = read_archive(&gz).unwrap();
    let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    std::io::Write::write_all(&mut enc, &text).unwrap();
    std::fs::write(&gz, enc.finish().unwrap()).unwrap();
    let (ok, report) = verify(dir.path());
    assert!(!ok);
    assert!(
        report["first_bad"]["reason"]
            .as_str()
            .unwrap()
            .contains("sha256"),
        "{report}"
    );

    std::fs::remove_file(&gz).unwrap();
    let (ok, report) = verify(dir.path());
    assert!(!ok);
    assert!(
        report["first_bad"]["reason"]
            .as_str()
            .unwrap()
            .contains("missing"),
        "{report}"
    );

    std::fs::write(&gz, good).unwrap();
    assert!(verify(dir.path()).0);
}

#[test]
fn a_broken_trail_is_not_archived() {
    let dir = tempfile::tempdir().unwrap();
    draft(&engine(dir.path()));
    age_the_trail(dir.path(), "2025-01");
    let e = engine(dir.path());
    draft(&e);
    let path = dir.path().join("audit/2025-01.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(&path, text.replacen("draft created", "draft createD", 1)).unwrap();
    let err = e
        .archive_audit(1, opsdesk::domain::now(), Actor::Cli)
        .unwrap_err();
    assert!(err.to_string().contains("does not verify"), "{err}");
    assert!(path.exists());
    assert!(!dir.path().join("audit/archive/2025-01.jsonl.gz").exists());
}

#[test]
fn an_export_over_archived_months_reads_them_from_the_archive_and_verifies() {
    let dir = tempfile::tempdir().unwrap();
    draft(&engine(dir.path()));
    age_the_trail(dir.path(), "2025-01");
    let e = engine(dir.path());
    draft(&e);
    let a = e
        .archive_audit(1, opsdesk::domain::now(), Actor::Cli)
        .unwrap()
        .remove(0);
    let total = e.audit_tail(1000).unwrap().last().unwrap().seq;
    let file = dir.path().join("export.jsonl");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_opsdesk"))
        .env("OPSDESK_DATA_DIR", dir.path())
        .env("XDG_CONFIG_HOME", dir.path().join("xdg"))
        .env_remove("OPSDESK_CONFIG")
        .args([
            "audit",
            "export",
            "--from",
            "2000-01-01",
            "--to",
            "2100-01-01",
            "--out",
        ])
        .arg(&file)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let lines = std::fs::read_to_string(&file).unwrap();
    let seqs: Vec<u64> = lines
        .lines()
        .map(|l| {
            serde_json::from_str::<serde_json::Value>(l).unwrap()["seq"]
                .as_u64()
                .unwrap()
        })
        .collect();
    assert_eq!(seqs.first(), Some(&1), "archived records are exported too");
    assert!(seqs.contains(&a.last) && seqs.contains(&(a.last + 1)));
    assert!(*seqs.last().unwrap() >= total);
    let manifest: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.path().join("export.jsonl.manifest.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(manifest["span_verified"], true, "{manifest}");
    assert_eq!(manifest["trail_verified"], true, "{manifest}");
}

/// What retention adds to `audit verify`: the pass that reads the archive notes. Prints the
/// figures (no assertion on time): `cargo test --test audit_archive measure -- --ignored --nocapture`.
#[test]
#[ignore]
fn measure_the_notes_pass_against_a_whole_verify() {
    use opsdesk::domain::{AuditEvent, AuditOutcome};
    use opsdesk::store::audit::Audit;
    let dir = tempfile::tempdir().unwrap();
    let audit = Audit::open(dir.path()).unwrap();
    for i in 0..50_000u64 {
        audit
            .append_deferred(
                AuditEvent::new("inbox.pull", Actor::Console, AuditOutcome::Ok)
                    .target(format!("mcp:x@{i}")),
            )
            .unwrap();
    }
    audit
        .append(AuditEvent::new("x", Actor::Cli, AuditOutcome::Ok))
        .unwrap();
    let t = std::time::Instant::now();
    let notes = opsdesk::store::audit_archive::notes(dir.path()).unwrap();
    let notes_took = t.elapsed();
    let t = std::time::Instant::now();
    let report = audit.verify().unwrap();
    let verify_took = t.elapsed();
    assert!(report.ok() && notes.is_empty());
    println!(
        "50,001 records: notes pass {notes_took:?}, whole verify (notes pass included) {verify_took:?}"
    );
}
