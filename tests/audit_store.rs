//! The audit trail is a hash chain: appends link to the previous record, and `verify` names the
//! first record that was altered, removed or reordered.

use std::fs;

use opsdesk::domain::{Actor, AuditEvent, AuditOutcome};
use opsdesk::store::audit::{Audit, GENESIS};

fn event(n: u32) -> AuditEvent {
    AuditEvent::new("tool.call", Actor::mcp("claude-code"), AuditOutcome::Ok)
        .tool("inbox_pull")
        .entity("work")
        .target(format!("call-{n}"))
        .duration_ms(3)
}

fn month_file(dir: &std::path::Path) -> std::path::PathBuf {
    fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .find(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .unwrap()
}

#[test]
fn records_link_to_their_predecessor_and_verify_clean() {
    let dir = tempfile::tempdir().unwrap();
    let audit = Audit::open(dir.path()).unwrap();
    let first = audit.append(event(1)).unwrap();
    let second = audit.append(event(2)).unwrap();
    assert_eq!(first.seq, 1);
    assert_eq!(first.prev, GENESIS);
    assert_eq!(second.prev, first.hash);
    let report = audit.verify().unwrap();
    assert!(report.ok(), "{report:?}");
    assert_eq!(report.records, 2);
}

#[test]
fn tampering_with_one_byte_is_found_and_the_record_named() {
    let dir = tempfile::tempdir().unwrap();
    let audit = Audit::open(dir.path()).unwrap();
    for n in 1..=5 {
        audit.append(event(n)).unwrap();
    }
    let path = month_file(dir.path());
    let text = fs::read_to_string(&path).unwrap();
    // Change "call-3" to "call-9" in the third record: still valid JSON, wrong hash.
    let tampered = text.replacen("call-3", "call-9", 1);
    fs::write(&path, tampered).unwrap();
    let report = audit.verify().unwrap();
    let bad = report.first_bad.expect("tampering must be detected");
    assert_eq!(bad.line, 3);
    assert_eq!(bad.seq, Some(3));
    assert!(bad.reason.contains("altered"), "{}", bad.reason);
}

#[test]
fn a_removed_record_breaks_the_chain_at_its_successor() {
    let dir = tempfile::tempdir().unwrap();
    let audit = Audit::open(dir.path()).unwrap();
    for n in 1..=4 {
        audit.append(event(n)).unwrap();
    }
    let path = month_file(dir.path());
    let lines: Vec<String> = fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(String::from)
        .collect();
    let kept = [&lines[0], &lines[2], &lines[3]]
        .map(|s| s.as_str())
        .join("\n")
        + "\n";
    fs::write(&path, kept).unwrap();
    let bad = audit.verify().unwrap().first_bad.unwrap();
    assert_eq!(bad.line, 2);
    assert_eq!(bad.seq, Some(3));
}

#[test]
fn garbage_in_the_file_is_reported_not_a_panic() {
    let dir = tempfile::tempdir().unwrap();
    let audit = Audit::open(dir.path()).unwrap();
    audit.append(event(1)).unwrap();
    let path = month_file(dir.path());
    let mut text = fs::read(&path).unwrap();
    text[10] = 0xff;
    fs::write(&path, text).unwrap();
    let bad = audit.verify().unwrap().first_bad.unwrap();
    assert_eq!(bad.line, 1);
    assert!(bad.reason.contains("JSON"));
}

#[test]
fn a_torn_last_line_is_noted_and_repaired_by_the_next_append() {
    let dir = tempfile::tempdir().unwrap();
    let audit = Audit::open(dir.path()).unwrap();
    audit.append(event(1)).unwrap();
    let path = month_file(dir.path());
    use std::io::Write;
    fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap()
        .write_all(b"{\"seq\":2,\"ts\":")
        .unwrap();
    let report = audit.verify().unwrap();
    assert!(report.ok());
    assert!(report.torn_tail.is_some());
    let rec = audit.append(event(2)).unwrap();
    assert_eq!(rec.seq, 2);
    let report = audit.verify().unwrap();
    assert!(report.ok() && report.torn_tail.is_none() && report.records == 2);
}

#[test]
fn the_chain_continues_across_month_files() {
    let dir = tempfile::tempdir().unwrap();
    let audit = Audit::open(dir.path()).unwrap();
    audit.append(event(1)).unwrap();
    let last_month = audit.append(event(2)).unwrap();
    // Pretend those two were written in an earlier month.
    fs::rename(month_file(dir.path()), dir.path().join("2000-01.jsonl")).unwrap();
    let next = audit.append(event(3)).unwrap();
    assert_eq!(next.seq, 3);
    assert_eq!(next.prev, last_month.hash);
    let report = audit.verify().unwrap();
    assert!(report.ok(), "{report:?}");
    assert_eq!((report.files, report.records), (2, 3));
    assert_eq!(
        audit
            .tail(2)
            .unwrap()
            .iter()
            .map(|r| r.seq)
            .collect::<Vec<_>>(),
        vec![2, 3]
    );
}

#[test]
fn records_never_carry_bodies() {
    // The record type has no field for content: only names, ids, outcomes and reasons.
    let dir = tempfile::tempdir().unwrap();
    let audit = Audit::open(dir.path()).unwrap();
    let rec = audit.append(event(1)).unwrap();
    let v = serde_json::to_value(&rec).unwrap();
    let keys: Vec<&str> = v.as_object().unwrap().keys().map(|k| k.as_str()).collect();
    assert_eq!(
        keys,
        vec![
            "actor",
            "duration_ms",
            "entity",
            "event",
            "hash",
            "outcome",
            "prev",
            "seq",
            "target",
            "tool",
            "ts"
        ]
    );
}

#[test]
fn concurrent_appenders_share_fsyncs_without_breaking_the_chain() {
    let dir = tempfile::tempdir().unwrap();
    let audit = std::sync::Arc::new(Audit::open(dir.path()).unwrap());
    let threads: Vec<_> = (0..8)
        .map(|t| {
            let audit = audit.clone();
            std::thread::spawn(move || {
                for n in 0..50 {
                    audit.append(event(t * 1000 + n)).unwrap();
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let report = audit.verify().unwrap();
    assert!(report.ok(), "{report:?}");
    assert_eq!(report.records, 400);
    // A second handle (as another process would have) continues the same chain.
    let other = Audit::open(dir.path()).unwrap();
    assert_eq!(other.append(event(9999)).unwrap().seq, 401);
    assert!(audit.verify().unwrap().ok());
}

#[test]
fn a_deferred_record_is_in_the_file_when_append_returns_and_chains_with_synced_ones() {
    let dir = tempfile::tempdir().unwrap();
    let audit = std::sync::Arc::new(Audit::open(dir.path()).unwrap());
    let threads: Vec<_> = (0..4u32)
        .map(|t| {
            let audit = audit.clone();
            std::thread::spawn(move || {
                for i in 0..50 {
                    let n = t * 1000 + i;
                    let rec = if i % 3 == 0 {
                        audit.append(event(n)).unwrap()
                    } else {
                        audit.append_deferred(event(n)).unwrap()
                    };
                    // Written before the caller answers: readable by anyone right away.
                    let text = fs::read_to_string(month_file(dir_of(&audit))).unwrap();
                    assert!(text.contains(&rec.hash), "record {n} not yet in the file");
                }
            })
        })
        .collect();
    for t in threads {
        t.join().unwrap();
    }
    let report = audit.verify().unwrap();
    assert!(report.ok(), "{report:?}");
    assert_eq!(report.records, 200);
    // Dropping the trail stops its syncer and flushes what is pending (no hang).
    drop(audit);
    let reopened = Audit::open(dir.path()).unwrap();
    assert_eq!(reopened.append(event(9)).unwrap().seq, 201);
}

fn dir_of(audit: &Audit) -> &std::path::Path {
    audit.dir()
}

#[test]
fn cutting_the_last_records_is_reported_with_what_is_missing() {
    let dir = tempfile::tempdir().unwrap();
    let audit = Audit::open(dir.path()).unwrap();
    for n in 1..=5 {
        audit.append(event(n)).unwrap();
    }
    let path = month_file(dir.path());
    let text = fs::read_to_string(&path).unwrap();
    let kept: String = text.lines().take(3).map(|l| format!("{l}\n")).collect();
    fs::write(&path, kept).unwrap();
    let report = Audit::open(dir.path()).unwrap().verify().unwrap();
    let bad = report.first_bad.expect("a cut tail must be detected");
    assert!(
        bad.reason.contains("records 4 to 5 are missing"),
        "{}",
        bad.reason
    );
}

#[test]
fn deleting_the_only_month_file_is_reported() {
    let dir = tempfile::tempdir().unwrap();
    let audit = Audit::open(dir.path()).unwrap();
    for n in 1..=3 {
        audit.append(event(n)).unwrap();
    }
    fs::remove_file(month_file(dir.path())).unwrap();
    let report = Audit::open(dir.path()).unwrap().verify().unwrap();
    let bad = report
        .first_bad
        .expect("a deleted month file must be detected");
    assert!(
        bad.reason.contains("records 1 to 3 are missing"),
        "{}",
        bad.reason
    );
}

#[test]
fn deleting_an_earlier_month_file_names_the_missing_records() {
    let dir = tempfile::tempdir().unwrap();
    let audit = Audit::open(dir.path()).unwrap();
    for n in 1..=4 {
        audit.append(event(n)).unwrap();
    }
    // Split the chain over two month files, then lose the first.
    let path = month_file(dir.path());
    let lines: Vec<String> = fs::read_to_string(&path)
        .unwrap()
        .lines()
        .map(|l| format!("{l}\n"))
        .collect();
    fs::remove_file(&path).unwrap();
    fs::write(dir.path().join("2000-01.jsonl"), lines[..2].concat()).unwrap();
    fs::write(dir.path().join("2099-12.jsonl"), lines[2..].concat()).unwrap();
    assert!(Audit::open(dir.path()).unwrap().verify().unwrap().ok());
    fs::remove_file(dir.path().join("2000-01.jsonl")).unwrap();
    let bad = Audit::open(dir.path())
        .unwrap()
        .verify()
        .unwrap()
        .first_bad
        .expect("a deleted earlier month must be detected");
    assert!(
        bad.reason.contains("records 1 to 2 are missing"),
        "{}",
        bad.reason
    );
    // Plain words, never Rust debug text.
    assert!(!bad.reason.contains("Some("), "{}", bad.reason);
}

#[test]
fn a_rewritten_tail_that_still_links_is_caught_by_the_anchor() {
    let dir = tempfile::tempdir().unwrap();
    let audit = Audit::open(dir.path()).unwrap();
    for n in 1..=3 {
        audit.append(event(n)).unwrap();
    }
    let anchor = audit.anchor().unwrap().expect("appends write the anchor");
    assert_eq!(anchor.seq, 3);
    // Replace record 3 by a different, correctly linked record: the chain alone would pass.
    let path = month_file(dir.path());
    let text = fs::read_to_string(&path).unwrap();
    let kept: String = text.lines().take(2).map(|l| format!("{l}\n")).collect();
    let anchor_file = dir.path().join(opsdesk::store::audit::ANCHOR);
    let saved = fs::read(&anchor_file).unwrap();
    fs::write(&path, kept).unwrap();
    let other = Audit::open(dir.path()).unwrap();
    other.append(event(99)).unwrap();
    fs::write(&anchor_file, saved).unwrap();
    let bad = other.verify().unwrap().first_bad.expect("must be detected");
    assert!(bad.reason.contains("rewritten"), "{}", bad.reason);
}

#[test]
fn a_record_is_found_by_its_seq_without_reading_the_whole_trail() {
    use opsdesk::store::audit_find::record_at;
    let dir = tempfile::tempdir().unwrap();
    let audit = opsdesk::store::audit::Audit::open(dir.path()).unwrap();
    let mut hashes = Vec::new();
    for i in 0..3000 {
        let rec = audit
            .append_deferred(
                opsdesk::domain::AuditEvent::new(
                    "inbox.pull",
                    opsdesk::domain::Actor::Cli,
                    opsdesk::domain::AuditOutcome::Ok,
                )
                .target(format!("t{i}")),
            )
            .unwrap();
        hashes.push(rec.hash);
    }
    for seq in [1u64, 2, 777, 1500, 2999, 3000] {
        let f = record_at(dir.path(), seq).unwrap().expect("present");
        assert_eq!(f.record.seq, seq);
        assert_eq!(f.record.hash, hashes[(seq - 1) as usize]);
        assert!(f.intact);
    }
    assert!(record_at(dir.path(), 3001).unwrap().is_none());
    assert!(record_at(dir.path(), 0).unwrap().is_none());
}

/// A long verification tells its caller how far it is (the CLI's progress line), every 4,096
/// records, and what it reports is the same as without.
#[test]
fn verification_reports_its_progress() {
    let dir = tempfile::tempdir().unwrap();
    let audit = Audit::open(dir.path()).unwrap();
    for n in 1..=8200 {
        audit.append_deferred(event(n)).unwrap();
    }
    audit.append(event(8201)).unwrap();
    let mut seen = Vec::new();
    let report = audit.verify_with(&mut |n| seen.push(n)).unwrap();
    assert!(report.ok(), "{report:?}");
    assert_eq!(report.records, 8201);
    assert_eq!(seen, [4096, 8192]);
    assert_eq!(audit.verify().unwrap().records, 8201);
}
