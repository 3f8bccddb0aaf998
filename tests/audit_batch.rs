//! Read records are linked when the read is answered and written in batches by the background
//! syncer (issue 34): all of them reach the file, in order, with a chain that verifies, also
//! when another writer appends to the same trail meanwhile.

use std::collections::HashSet;
use std::sync::Arc;

use opsdesk::domain::{Actor, AuditEvent, AuditOutcome};
use opsdesk::store::audit::Audit;

fn read(n: usize) -> AuditEvent {
    AuditEvent::new("status", Actor::mcp("claude-code"), AuditOutcome::Ok).target(format!("r{n}"))
}

fn change(n: usize) -> AuditEvent {
    AuditEvent::new("draft.create", Actor::Console, AuditOutcome::Ok).target(format!("c{n}"))
}

/// Every record of the trail in `dir`, read by a fresh handle, oldest first.
fn targets(dir: &std::path::Path) -> Vec<String> {
    let audit = Audit::open(dir).unwrap();
    let mut out = Vec::new();
    for f in audit.files().unwrap() {
        for r in audit.read_file(&f, 0).unwrap().0 {
            out.push(r.event.target.clone().unwrap_or_default());
        }
    }
    out
}

#[test]
fn a_burst_of_reads_is_all_on_file_in_order_after_a_clean_shutdown() {
    let dir = tempfile::tempdir().unwrap();
    let audit = Audit::open(dir.path()).unwrap();
    let mut seqs = Vec::new();
    for n in 0..300 {
        seqs.push(audit.append_read(read(n)).unwrap().seq);
        if n % 100 == 50 {
            // A durable record goes after the reads staged before it.
            audit.append(change(n)).unwrap();
        }
    }
    assert!(
        seqs.windows(2).all(|w| w[0] < w[1]),
        "seqs handed out in order"
    );
    drop(audit); // clean shutdown: staged records written and synced

    let got = targets(dir.path());
    let mut want = Vec::new();
    for n in 0..300 {
        want.push(format!("r{n}"));
        if n % 100 == 50 {
            want.push(format!("c{n}"));
        }
    }
    assert_eq!(got, want);
    let report = Audit::open(dir.path()).unwrap().verify().unwrap();
    assert!(report.ok(), "{report:?}");
    assert_eq!(report.records, 303);
    assert_eq!(
        report.anchor.map(|a| a.seq),
        Some(303),
        "anchor at the last record"
    );
}

#[test]
fn staged_reads_are_visible_to_readers_of_the_same_handle_at_once() {
    let dir = tempfile::tempdir().unwrap();
    let audit = Audit::open(dir.path()).unwrap();
    let rec = audit.append_read(read(1)).unwrap();
    let tail = audit.tail(1).unwrap();
    assert_eq!(tail.len(), 1);
    assert_eq!(tail[0].hash, rec.hash);
}

#[test]
fn reads_are_written_within_a_window_without_a_shutdown() {
    let dir = tempfile::tempdir().unwrap();
    let audit = Audit::open(dir.path()).unwrap();
    audit.append_read(read(1)).unwrap();
    // Another handle does not see staged records until the syncer writes them.
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while targets(dir.path()) != ["r1"] {
        assert!(
            std::time::Instant::now() < deadline,
            "the syncer never wrote the staged read"
        );
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    drop(audit);
}

/// Two handles on one trail: each has its own lock file description, so they exclude each other
/// exactly as two processes do (flock is per open file description).
#[test]
fn another_writer_interleaves_and_the_batch_links_after_its_records() {
    let dir = tempfile::tempdir().unwrap();
    let reader = Arc::new(Audit::open(dir.path()).unwrap());
    let other = Arc::new(Audit::open(dir.path()).unwrap());
    let mut threads = Vec::new();
    for t in 0..4 {
        let reader = Arc::clone(&reader);
        threads.push(std::thread::spawn(move || {
            for n in 0..100 {
                reader.append_read(read(t * 1000 + n)).unwrap();
            }
        }));
    }
    let writer = {
        let other = Arc::clone(&other);
        std::thread::spawn(move || {
            for n in 0..50 {
                other.append(change(n)).unwrap();
                other.append_read(read(9000 + n)).unwrap();
                std::thread::sleep(std::time::Duration::from_millis(1));
            }
        })
    };
    for t in threads {
        t.join().unwrap();
    }
    writer.join().unwrap();
    drop(Arc::into_inner(reader).unwrap());
    drop(Arc::into_inner(other).unwrap());

    let got = targets(dir.path());
    assert_eq!(got.len(), 400 + 100, "no record lost");
    assert_eq!(
        got.iter().collect::<HashSet<_>>().len(),
        got.len(),
        "no record written twice"
    );
    // Each writer's own records keep their order.
    for t in 0..4 {
        let mine: Vec<&String> = got
            .iter()
            .filter(|s| {
                s.strip_prefix('r')
                    .and_then(|n| n.parse::<usize>().ok())
                    .is_some_and(|n| n / 1000 == t)
            })
            .collect();
        let want: Vec<String> = (0..100).map(|n| format!("r{}", t * 1000 + n)).collect();
        assert_eq!(mine, want.iter().collect::<Vec<_>>());
    }
    let report = Audit::open(dir.path()).unwrap().verify().unwrap();
    assert!(report.ok(), "{report:?}");
    assert_eq!(report.records, 500);
}

/// A batch of ingests' records is one write: in order after the reads staged before it, each
/// returned as written (linked after another writer's records when one appended meanwhile),
/// and the chain verifies.
#[test]
fn a_batch_is_written_at_once_in_order_and_returned_as_written() {
    let dir = tempfile::tempdir().unwrap();
    let ours = Audit::open(dir.path()).unwrap();
    let other = Audit::open(dir.path()).unwrap();
    ours.append(change(0)).unwrap();
    ours.append_read(read(1)).unwrap();
    other.append(change(2)).unwrap(); // our head is stale now
    let written = ours
        .append_batch((3..8).map(change).collect(), true)
        .unwrap();
    assert_eq!(
        written
            .iter()
            .map(|r| r.event.target.clone().unwrap_or_default())
            .collect::<Vec<_>>(),
        ["c3", "c4", "c5", "c6", "c7"]
    );
    let on_file = targets(dir.path());
    assert_eq!(on_file, ["c0", "c2", "r1", "c3", "c4", "c5", "c6", "c7"]);
    // The returned records are the ones on file (relinked after the other writer's).
    let fresh = Audit::open(dir.path()).unwrap();
    let tail = fresh.tail(5).unwrap();
    assert_eq!(
        tail.iter()
            .map(|r| (r.seq, r.hash.clone()))
            .collect::<Vec<_>>(),
        written
            .iter()
            .map(|r| (r.seq, r.hash.clone()))
            .collect::<Vec<_>>()
    );
    assert!(fresh.verify().unwrap().ok());
    assert!(ours.append_batch(Vec::new(), false).unwrap().is_empty());
}
