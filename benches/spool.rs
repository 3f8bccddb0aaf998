//! Spool ingestion: files of 4,000 records each through `Spool::poll_once` into a durable
//! inbox (one batch per file: one fsync of the data, one of the index).
//!
//! Run: `cargo bench --bench spool`. Set OPSDESK_BENCH_DIR to put the data on a specific disk
//! (default: the system temp dir). Prints records/s and the process's RSS before and after.

use std::time::{Duration, Instant};

use opsdesk::sources::InboxSink;
use opsdesk::sources::spool::Spool;
use opsdesk::store::inbox::Inbox;

const FILES: usize = 13;
const PER_FILE: usize = 4_000;

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|n| n.parse().ok())
        })
        .unwrap_or(0)
}

fn main() {
    let dir = match std::env::var_os("OPSDESK_BENCH_DIR") {
        Some(d) => tempfile::tempdir_in(d).expect("bench dir"),
        None => tempfile::tempdir().expect("temp dir"),
    };
    let spool_dir = dir.path().join("spool");
    let inbox = Inbox::open(&dir.path().join("inbox")).expect("inbox");
    let spool = Spool::new(spool_dir.clone(), "work".into())
        .expect("spool")
        .with_settle(Duration::ZERO);
    for f in 0..FILES {
        let items: Vec<serde_json::Value> = (0..PER_FILE)
            .map(|i| {
                serde_json::json!({
                    "id": format!("f{f}-{i}"),
                    "from": "Contoso CI <ci@contoso.example>",
                    "subject": format!("Build #{i} finished"),
                    "body": "All 1,204 tests passed in 3m12s. Artifacts are attached to the run.",
                })
            })
            .collect();
        std::fs::write(
            spool_dir.join(format!("batch-{f:02}.json")),
            serde_json::to_vec(&items).expect("encode"),
        )
        .expect("write spool file");
    }
    let before = rss_kib();
    let start = Instant::now();
    let report = spool.poll_once(&InboxSink(&inbox)).expect("poll");
    let took = start.elapsed();
    let after = rss_kib();
    let n = report.ingested;
    assert_eq!(n, FILES * PER_FILE, "{report:?}");
    println!(
        "spool ingest: {n} records in {FILES} files in {:.2} s = {:.0} records/s; RSS {before} KiB before, {after} KiB after",
        took.as_secs_f64(),
        n as f64 / took.as_secs_f64()
    );
}
