//! opsdesk at the size of years: 1,000,000 records (OPSDESK_BENCH_RECORDS changes it) ingested
//! through the engine, then every read that must not grow with the inbox, timed as a client
//! sees it (`Engine::read`: the ladder check, the query, the audit record of the read).
//!
//! Printed, one line each:
//! - ingest: records/s end to end through `Engine::ingest_batch` (sanitize, durable append,
//!   one audit record per item), in batches of 4,000 as a spool file or a Graph page gives them;
//! - the full-text index: build rate (`Engine::index_pending`, as the host runs it after
//!   ingests) and its size on disk beside the data's;
//! - search (p50 / p99 / max over 200 calls): a rare word, an absent word, the most common
//!   word, two common words, a phrase, a prefix, a common word within one profile; and by
//!   relevance the most common word, two common words, a phrase, a prefix and a rare word
//!   (goal: ≤ 20 ms p99 at 1M, any query);
//! - pull of 20 records from cursors spread over the inbox; the morning brief and end-of-day
//!   digest of one profile (goal ≤ 50 ms);
//! - one write just after the engine shed its caches (it rebuilds the dedup map), and one after;
//! - `inbox verify` and `audit verify` over everything (linear; a progress line past 1 s);
//! - this process's resident memory after it all.
//!
//! The console's first frame at this size: `OPSDESK_BENCH_ITEMS=1000000 cargo bench --bench
//! console`.
//!
//! Run: `cargo bench --bench scale` (several minutes at 1M). OPSDESK_BENCH_DIR puts the data on
//! a specific disk (default: the system temp dir); it is deleted when the run ends (several
//! GB at 1M), a panic included.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::{Duration, Instant};

use opsdesk::config::Config;
use opsdesk::domain::{Actor, BriefKind, Channel, NewMessage, Party, Query, SearchOrder};
use opsdesk::engine::{Engine, Mode};
use opsdesk::paths::Paths;
use time::OffsetDateTime;

const BATCH: usize = 4_000;
const RUNS: usize = 200;

/// A deterministic generator: the same inbox on every run.
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        self.0 >> 33
    }
    /// A word index with a Zipf-like spread over `n` words: a few very common, most rare.
    fn zipf(&mut self, n: usize) -> usize {
        let u = (self.next() % 1_000_000) as f64 / 1_000_000.0;
        ((n as f64).powf(u) as usize).saturating_sub(1).min(n - 1)
    }
}

/// 20,000 made-up words (`w` + letters), so frequencies are known and none is an English stem.
fn word(i: usize) -> String {
    let mut s = String::from("w");
    let mut k = i;
    loop {
        s.push((b'a' + (k % 26) as u8) as char);
        k /= 26;
        if k == 0 {
            break;
        }
    }
    s
}

const VOCAB: usize = 20_000;
/// Planted once each (a rare word) at these record numbers.
const RARE: &str = "zebrafinch";

fn message(i: usize, g: &mut Lcg) -> NewMessage {
    let n_words = 30 + (g.next() % 120) as usize;
    let mut body = String::with_capacity(n_words * 7);
    for k in 0..n_words {
        if k > 0 {
            body.push(' ');
        }
        body.push_str(&word(g.zipf(VOCAB)));
    }
    if i % 250_000 == 123 {
        body.push(' ');
        body.push_str(RARE);
    }
    let subject = (0..4)
        .map(|_| word(g.zipf(VOCAB)))
        .collect::<Vec<_>>()
        .join(" ");
    NewMessage {
        id: format!("scale-{i}"),
        profile: if i.is_multiple_of(3) {
            "clinic"
        } else {
            "work"
        }
        .into(),
        channel: if i.is_multiple_of(2) {
            Channel::Email
        } else {
            Channel::Teams
        },
        thread_id: Some(format!("t{}", i % 997)),
        from: Party::new(
            format!("Sender {}", i % 500),
            format!("s{}@contoso.com", i % 500),
        ),
        to: vec![],
        subject: Some(subject),
        ts: OffsetDateTime::now_utc(),
        body,
        html: false,
        meta: BTreeMap::new(),
        attachments: Vec::new(),
    }
}

fn pct(v: &mut [Duration], p: f64) -> Duration {
    v.sort();
    v[((v.len() as f64 - 1.0) * p).round() as usize]
}

fn timed(label: &str, runs: usize, mut f: impl FnMut(usize)) {
    let mut t: Vec<Duration> = (0..runs)
        .map(|i| {
            let s = Instant::now();
            f(i);
            s.elapsed()
        })
        .collect();
    let max = *t.iter().max().unwrap_or(&Duration::ZERO);
    println!(
        "{label:<44} p50 {:>9.2?}  p99 {:>9.2?}  max {:>9.2?}",
        pct(&mut t, 0.5),
        pct(&mut t, 0.99),
        max
    );
}

fn dir_bytes(dir: &Path, pred: impl Fn(&str) -> bool) -> u64 {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(Result::ok)
                .filter(|e| pred(&e.file_name().to_string_lossy()))
                .filter_map(|e| e.metadata().ok())
                .map(|m| m.len())
                .sum()
        })
        .unwrap_or(0)
}

fn rss_kib() -> u64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("VmRSS:"))?
                .split_whitespace()
                .nth(1)?
                .parse()
                .ok()
        })
        .unwrap_or(0)
}

fn main() {
    // `cargo bench` passes `--bench`; a filter that is not ours means another bench was asked for.
    if std::env::args()
        .skip(1)
        .any(|a| !a.starts_with('-') && a != "scale")
    {
        return;
    }
    let n: usize = std::env::var("OPSDESK_BENCH_RECORDS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(1_000_000);
    let tmp = match std::env::var_os("OPSDESK_BENCH_DIR") {
        Some(d) => tempfile::tempdir_in(d).expect("bench dir"),
        None => tempfile::tempdir().expect("temp dir"),
    };
    let paths = Paths::resolve(
        Some(tmp.path().join("data")),
        Some(tmp.path().join("config.toml")),
    )
    .expect("paths");
    let config = Config::from_toml_str(
        "[profiles.work]\nsources = [\"spool\"]\n[profiles.clinic]\nsources = [\"spool\"]\n",
        Path::new("bench.toml"),
    )
    .expect("config");
    let engine = Engine::open(paths.clone(), config, Mode::Primary).expect("engine");

    let mut g = Lcg(42);
    let start = Instant::now();
    let mut i = 0;
    while i < n {
        let k = (n - i).min(BATCH);
        let batch: Vec<NewMessage> = (i..i + k).map(|j| message(j, &mut g)).collect();
        engine.ingest_batch(batch, "bench").expect("ingest");
        i += k;
    }
    let took = start.elapsed().as_secs_f64();
    println!(
        "ingest through the engine: {n} records in {took:.1} s = {:.0} records/s",
        n as f64 / took
    );
    let inbox_dir = paths.inbox_dir();
    let data = dir_bytes(&inbox_dir, |f| f.ends_with(".jsonl"));

    let start = Instant::now();
    let indexed = engine.index_pending().expect("index");
    let took = start.elapsed().as_secs_f64();
    let index = dir_bytes(&inbox_dir, |f| f.starts_with("search.db"));
    println!(
        "full-text index: {indexed} records in {took:.1} s = {:.0} records/s; {:.0} MiB on disk for {:.0} MiB of records ({:.0}%)",
        indexed as f64 / took,
        index as f64 / 1048576.0,
        data as f64 / 1048576.0,
        100.0 * index as f64 / data.max(1) as f64
    );

    let search = |text: &str, profile: Option<&str>, order: SearchOrder| {
        let q = Query::InboxSearch {
            text: text.into(),
            limit: 50,
            channel: None,
            profile: profile.map(str::to_string),
            before: None,
            order,
        };
        engine.read(q, Actor::Cli).expect("search")
    };
    let common = word(0);
    let second = word(1);
    for (label, text, profile, order) in [
        (
            "search: a rare word",
            RARE.to_string(),
            None,
            SearchOrder::Newest,
        ),
        (
            "search: an absent word",
            "qqqqqq".into(),
            None,
            SearchOrder::Newest,
        ),
        (
            "search: the most common word",
            common.clone(),
            None,
            SearchOrder::Newest,
        ),
        (
            "search: two common words",
            format!("{common} {second}"),
            None,
            SearchOrder::Newest,
        ),
        (
            "search: a phrase",
            format!("\"{common} {second}\""),
            None,
            SearchOrder::Newest,
        ),
        ("search: a prefix", "wba*".into(), None, SearchOrder::Newest),
        (
            "search: a common word in one profile",
            second.clone(),
            Some("clinic"),
            SearchOrder::Newest,
        ),
        (
            "search: the most common word, by relevance",
            common.clone(),
            None,
            SearchOrder::Relevance,
        ),
        (
            "search: two common words, by relevance",
            format!("{common} {second}"),
            None,
            SearchOrder::Relevance,
        ),
        (
            "search: a phrase, by relevance",
            format!("\"{common} {second}\""),
            None,
            SearchOrder::Relevance,
        ),
        (
            "search: a prefix, by relevance",
            "wba*".into(),
            None,
            SearchOrder::Relevance,
        ),
        (
            "search: a rare word, by relevance",
            RARE.to_string(),
            None,
            SearchOrder::Relevance,
        ),
    ] {
        timed(label, RUNS, |_| {
            std::hint::black_box(search(&text, profile, order));
        });
    }

    let mut k = 0u64;
    timed("pull 20 from a cursor", RUNS, |_| {
        k = (k + 7_919) % (n as u64 - 20);
        let q = Query::InboxPull {
            consumer: Some("bench".into()),
            since: Some(k),
            limit: 20,
            channel: None,
            profile: None,
            mark_consumed: false,
        };
        std::hint::black_box(engine.read(q, Actor::Cli).expect("pull"));
    });
    for (label, kind) in [
        ("morning_brief (one profile)", BriefKind::Morning),
        ("eod_digest (one profile)", BriefKind::EndOfDay),
    ] {
        timed(label, 20, |_| {
            let q = Query::Brief {
                kind,
                profile: "work".into(),
            };
            std::hint::black_box(engine.read(q, Actor::Cli).expect("brief"));
        });
    }

    // An idle engine sheds its caches, the writer's id map among them (8 bytes a record); the
    // next write rebuilds the map from the index file. What that first write costs, and the
    // one after it.
    engine.shed_caches();
    for (k, label) in [
        "first write after the caches were shed",
        "the write after it",
    ]
    .into_iter()
    .enumerate()
    {
        let one = vec![message(n + k, &mut g)];
        let start = Instant::now();
        engine.ingest_batch(one, "bench").expect("ingest");
        println!("{label}: {:.1} ms", start.elapsed().as_secs_f64() * 1e3);
    }

    let inbox = opsdesk::store::inbox::Inbox::open(&inbox_dir).expect("inbox");
    let start = Instant::now();
    let report = inbox.verify().expect("inbox verify");
    println!(
        "inbox verify: {} records in {:.2} s",
        report.records,
        start.elapsed().as_secs_f64()
    );
    let audit = opsdesk::store::audit::Audit::open(&paths.audit_dir()).expect("audit");
    let start = Instant::now();
    let report = audit.verify().expect("audit verify");
    println!(
        "audit verify: {} records in {:.2} s",
        report.records,
        start.elapsed().as_secs_f64()
    );
    println!(
        "resident memory of this process now: {} MiB",
        rss_kib() / 1024
    );
}
