//! The deadline finder's speed (it runs on every brief, every triage and every deadline job):
//! messages per second on one core over the labelled evaluation set (312 mail and chat
//! messages in English, German and Spanish), each with its own received time. Goal: ≥ 20,000
//! messages/s. Criterion's `thrpt` line is the figure (elements = messages).
//!
//! Run: `cargo bench --bench deadlines`.

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use opsdesk::timeexpr::{Context, deadlines};
use serde_json::Value;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

fn messages() -> Vec<(String, Context)> {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/fixtures/deadlines/eval.jsonl"
    ))
    .expect("the evaluation set");
    text.lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok())
        .filter_map(|m| {
            let body = m["text"].as_str()?.to_string();
            let at = OffsetDateTime::parse(m["received"].as_str()?, &Rfc3339).ok()?;
            Some((body, Context::new(at, at.offset())))
        })
        .collect()
}

fn finder(c: &mut Criterion) {
    let msgs = messages();
    assert!(msgs.len() >= 300, "{} messages", msgs.len());
    let mut g = c.benchmark_group("deadlines");
    g.throughput(Throughput::Elements(msgs.len() as u64));
    g.bench_function("find_312_messages", |b| {
        b.iter(|| {
            let mut n = 0;
            for (text, ctx) in &msgs {
                n += deadlines(std::hint::black_box(text), ctx).len();
            }
            n
        })
    });
    g.finish();
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(30);
    targets = finder
}
criterion_main!(benches);
