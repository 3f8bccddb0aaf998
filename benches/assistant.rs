//! The assistant's jobs: rule triage throughput in process (goal ≥ 50,000 items/s) and the
//! engine's overhead per model job beyond the provider's own latency (goal < 2 ms): triage of
//! items the rules are unsure of, against an in-process OpenAI-compatible fake that answers at
//! once, so what is measured is the engine (ladder, selection, redaction, router, HTTP over
//! loopback, parsing, the audit records and the triage store; their fsyncs run in the
//! background, shared within a 10 ms window).
//!
//! Run: `cargo bench --bench assistant`. Set OPSDESK_BENCH_DIR to put the data on a specific
//! disk (default: the system temp dir).

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use opsdesk::assistant::triage;
use opsdesk::config::Config;
use opsdesk::domain::{Actor, Channel, InboxRecord, NewMessage, Party};
use opsdesk::engine::{Engine, Mode};
use opsdesk::paths::Paths;
use time::OffsetDateTime;

const RULE_ITEMS: usize = 200_000;
const MODEL_ITEMS: usize = 300;

fn record(i: usize) -> InboxRecord {
    let (from, subject, text) = match i % 5 {
        0 => (
            "newsletter@shop.example",
            "Deals",
            "Big sale. Click to unsubscribe.",
        ),
        1 => (
            "mei.chen@contoso.com",
            "Budget",
            "Please send the budget by Friday, thanks.",
        ),
        2 => (
            "mei.chen@contoso.com",
            "Vendor",
            "Please decide which vendor we take.",
        ),
        3 => (
            "ada@contoso.com",
            "Lunch",
            "Are you free for lunch on Thursday?",
        ),
        _ => (
            "ops@contoso.com",
            "Minutes",
            "Minutes of today's meeting are attached.",
        ),
    };
    InboxRecord {
        seq: i as u64 + 1,
        id: format!("m{i}"),
        received_at: OffsetDateTime::now_utc(),
        profile: "work".into(),
        channel: Channel::Email,
        thread_id: None,
        from: Party::new("Sender", from),
        to: vec![],
        subject: Some(subject.into()),
        ts: OffsetDateTime::now_utc(),
        text: text.repeat(3),
        preview: String::new(),
        meta: BTreeMap::new(),
        untrusted: true,
        attachments: Vec::new(),
    }
}

fn rules() {
    let items: Vec<InboxRecord> = (0..RULE_ITEMS).map(record).collect();
    let start = Instant::now();
    let mut n = 0usize;
    for r in &items {
        let t = triage::by_rules(r, time::UtcOffset::UTC);
        n += t.reason.len();
    }
    let took = start.elapsed();
    println!(
        "rule triage: {RULE_ITEMS} items in {:.3} s = {:.0} items/s (checksum {n})",
        took.as_secs_f64(),
        RULE_ITEMS as f64 / took.as_secs_f64()
    );
}

async fn fake_provider() -> String {
    let body = serde_json::json!({
        "id": "c1", "object": "chat.completion", "created": 1, "model": "fake-model",
        "choices": [{"index": 0, "message": {"role": "assistant",
            "content": "{\"category\":\"needs_reply\",\"urgency\":\"normal\",\"reason\":\"a question\"}"},
            "finish_reason": "stop"}],
        "usage": {"prompt_tokens": 50, "completion_tokens": 9, "total_tokens": 59}
    })
    .to_string();
    let app = axum::Router::new().fallback(move || {
        let b = body.clone();
        async move { ([("content-type", "application/json")], b) }
    });
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0")
        .await
        .expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move { axum::serve(listener, app).await.expect("serve") });
    format!("http://{addr}")
}

fn model_jobs() {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("runtime");
    rt.block_on(async {
        let url = fake_provider().await;
        let dir = match std::env::var_os("OPSDESK_BENCH_DIR") {
            Some(d) => tempfile::tempdir_in(d).expect("bench dir"),
            None => tempfile::tempdir().expect("temp dir"),
        };
        let config = format!(
            "[profiles.work]\nsources = [\"spool\"]\n[llm]\ndefault = \"local\"\n[llm.providers.local]\nenabled = true\nendpoint = \"{url}/v1\"\nmodel = \"fake-model\"\n"
        );
        let paths = Paths::resolve(Some(dir.path().join("data")), Some(dir.path().join("config.toml"))).expect("paths");
        let config = Config::from_toml_str(&config, Path::new("bench.toml")).expect("config");
        let engine = Arc::new(Engine::open(paths, config, Mode::Secondary).expect("engine"));
        let mut seqs = Vec::new();
        for i in 0..MODEL_ITEMS {
            let m = NewMessage {
                id: format!("q{i}"),
                profile: "work".into(),
                channel: Channel::Email,
                thread_id: None,
                from: Party::new("Ada", "ada@contoso.com"),
                to: vec![],
                subject: Some("Lunch".into()),
                ts: OffsetDateTime::now_utc(),
                body: format!("Are you free for lunch on Thursday? ({i})"),
                html: false,
                meta: BTreeMap::new(),
                attachments: Vec::new(),
            };
            if let opsdesk::store::inbox::Appended::New(r) = engine.ingest(m, "bench").expect("ingest") {
                seqs.push(r.seq);
            }
        }
        // One at a time: the latency of one job, not the throughput of the batch.
        let start = Instant::now();
        for seq in &seqs {
            let t = engine
                .triage_item(*seq, &Actor::Cli, true)
                .await
                .expect("triage");
            assert_eq!(t.by, triage::DecidedBy::Model, "{:?}", t.model_error);
        }
        let took = start.elapsed();
        println!(
            "model triage against an instant fake: {MODEL_ITEMS} jobs in {:.3} s = {:.2} ms per job (engine overhead incl. loopback HTTP, 3 audit records and 1 store append per job, written at once and fsync'd by the shared background syncers)",
            took.as_secs_f64(),
            took.as_secs_f64() * 1000.0 / MODEL_ITEMS as f64
        );
    });
}

fn main() {
    rules();
    model_jobs();
}
