//! Deals benchmarks: folding the deals log (100 deals with 200 links each: 20,100 events) and
//! the auto-link check one new inbox item costs against 100 open deals.
//!
//! Run: `cargo bench --bench deals`.

use std::hint::black_box;
use std::time::Duration;

use criterion::{Criterion, criterion_group, criterion_main};
use opsdesk::domain::{
    Actor, Deal, DealEvent, DealEventKind, DealLink, DealSpec, DealStage, InboxRecord, LinkRule,
};
use opsdesk::engine::deals::{LinkProbe, link_reason_with};
use opsdesk::store::deals::Deals;

const DEALS: usize = 100;
const LINKS: usize = 200;

fn spec(i: usize) -> DealSpec {
    DealSpec {
        name: format!("Deal {i}"),
        counterparties: vec![format!("party{i}.example"), format!("ceo@corp{i}.example")],
        stage: DealStage::Diligence,
        key_dates: vec![],
        notes: String::new(),
        keywords: vec![format!("project{i}"), format!("codename{i}")],
    }
}

fn link(deal: usize, n: usize) -> DealLink {
    DealLink {
        message_id: format!("m-{deal}-{n}"),
        seq: (deal * LINKS + n) as u64,
        profile: "work".into(),
        thread_id: Some(format!("t-{deal}-{}", n % 10)),
        rule: LinkRule::Keyword,
        reason: "keyword".into(),
    }
}

fn filled() -> (tempfile::TempDir, Deals) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = Deals::open(dir.path()).expect("open");
    let ts = time::OffsetDateTime::now_utc();
    for d in 0..DEALS {
        store
            .append(DealEvent {
                ts,
                deal_id: format!("deal-{d}"),
                actor: Actor::Cli,
                kind: DealEventKind::Created {
                    profile: "work".into(),
                    spec: spec(d),
                    proposal: None,
                },
            })
            .expect("create");
    }
    // Links written as lines directly (appending 20k fsync'd events one by one is slow and
    // not what is measured); the fold checks them like any other.
    let mut text = String::new();
    for d in 0..DEALS {
        for n in 0..LINKS {
            let ev = DealEvent {
                ts,
                deal_id: format!("deal-{d}"),
                actor: Actor::Engine,
                kind: DealEventKind::Linked { link: link(d, n) },
            };
            text.push_str(&serde_json::to_string(&ev).expect("json"));
            text.push('\n');
        }
    }
    use std::io::Write;
    std::fs::OpenOptions::new()
        .append(true)
        .open(store.log_path())
        .expect("log")
        .write_all(text.as_bytes())
        .expect("write");
    (dir, store)
}

fn record() -> InboxRecord {
    serde_json::from_value(serde_json::json!({
        "seq": 1, "id": "new", "received_at": "2026-11-25T08:00:00Z", "profile": "work",
        "channel": "email", "thread_id": "t-none",
        "from": {"name": "Someone", "address": "someone@elsewhere.example"},
        "to": [{"name": "Me", "address": "me@contoso.example"}],
        "subject": "Quarterly numbers for the board",
        "ts": "2026-11-25T08:00:00Z",
        "text": "Hello, please find the quarterly numbers attached. ".repeat(40),
        "preview": "Hello", "untrusted": true,
    }))
    .expect("record")
}

fn benches(c: &mut Criterion) {
    let (dir, _store) = filled();
    c.bench_function("deals fold 100 deals x 200 links (cold)", |b| {
        b.iter(|| {
            // A fresh handle has no cache: the whole log is read and folded.
            let s = Deals::open(dir.path()).expect("open");
            let book = s.book().expect("fold");
            assert_eq!(book.deals.len(), DEALS);
            black_box(book);
        })
    });
    let s = Deals::open(dir.path()).expect("open");
    let _ = s.book().expect("warm");
    c.bench_function("deals book (cached, unchanged log)", |b| {
        b.iter(|| black_box(s.book().expect("book")))
    });
    let book = s.book().expect("book");
    let deals: Vec<&Deal> = book.deals.iter().collect();
    let rec = record();
    c.bench_function(
        "auto-link check: 1 item vs 100 open deals (no match)",
        |b| {
            b.iter(|| {
                // What `Engine::autolink` does per new item.
                let probe = LinkProbe::of(black_box(&rec));
                let hits = deals
                    .iter()
                    .filter(|d| link_reason_with(d, &rec, &probe).is_some())
                    .count();
                assert_eq!(hits, 0);
            })
        },
    );
}

criterion_group! {
    name = deals;
    config = Criterion::default()
        .sample_size(20)
        .measurement_time(Duration::from_secs(3))
        .warm_up_time(Duration::from_secs(1));
    targets = benches
}
criterion_main!(deals);
