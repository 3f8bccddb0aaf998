//! Inbox store benchmarks: durable append (single and batched) and reading 20 records from a
//! cursor on inboxes of 10k and 1M records.
//!
//! Run: `cargo bench --bench inbox`. Set OPSDESK_BENCH_DIR to put the data on a specific disk
//! (default: the system temp dir).

mod support;

use std::hint::black_box;
use std::time::Duration;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use opsdesk::domain::InboxRecord;
use opsdesk::store::inbox::{Filter, Inbox};

fn record(i: u64) -> InboxRecord {
    support::record(i, "bench", support::profile_of(i), 1)
}

fn tempdir() -> tempfile::TempDir {
    match std::env::var_os("OPSDESK_BENCH_DIR") {
        Some(d) => tempfile::tempdir_in(d).expect("bench dir"),
        None => tempfile::tempdir().expect("temp dir"),
    }
}

fn filled(n: u64) -> (tempfile::TempDir, Inbox) {
    let dir = tempdir();
    let inbox = Inbox::open(dir.path()).expect("open");
    let mut i = 0;
    while i < n {
        let k = (n - i).min(20_000);
        inbox
            .append_batch((i..i + k).map(record).collect())
            .expect("fill");
        i += k;
    }
    (dir, inbox)
}

fn append(c: &mut Criterion) {
    let mut g = c.benchmark_group("append");
    g.measurement_time(Duration::from_secs(10));
    let (_dir, inbox) = filled(10_000);
    let mut i = 1_000_000u64;
    g.bench_function("single_durable", |b| {
        b.iter(|| {
            i += 1;
            black_box(inbox.append(record(i)).expect("append"));
        })
    });
    g.sample_size(10);
    g.bench_function("batch_10k_durable", |b| {
        b.iter_batched(
            || {
                i += 10_000;
                (i - 10_000..i).map(record).collect::<Vec<_>>()
            },
            |batch| black_box(inbox.append_batch(batch).expect("batch")),
            BatchSize::PerIteration,
        )
    });
    g.finish();
}

/// The budget is a p99, which criterion's summary does not give: time single appends directly.
fn append_latency_percentiles(_c: &mut Criterion) {
    let (_dir, inbox) = filled(10_000);
    let mut times: Vec<Duration> = (0..500u64)
        .map(|i| {
            let t = std::time::Instant::now();
            inbox.append(record(2_000_000 + i)).expect("append");
            t.elapsed()
        })
        .collect();
    times.sort();
    let pct = |p: usize| times[(times.len() * p / 100).min(times.len() - 1)];
    println!(
        "append/single_durable latency over {} appends: p50 {:.2?} p99 {:.2?} max {:.2?}",
        times.len(),
        pct(50),
        pct(99),
        times[times.len() - 1]
    );
}

fn read_from_cursor(c: &mut Criterion) {
    let mut g = c.benchmark_group("read_20_from_cursor");
    for n in [10_000u64, 1_000_000] {
        let (_dir, inbox) = filled(n);
        let mut k = 0u64;
        g.bench_function(format!("{n}_records"), |b| {
            b.iter(|| {
                // Cursors spread over the whole inbox, so no one region stays hot.
                k = (k + 7_919) % (n - 20);
                let batch = inbox.read_after(k, 20, &Filter::default()).expect("read");
                assert_eq!(batch.records.len(), 20);
                black_box(batch)
            })
        });
    }
    g.finish();
}

criterion_group!(
    benches,
    append_latency_percentiles,
    append,
    read_from_cursor
);
criterion_main!(benches);
