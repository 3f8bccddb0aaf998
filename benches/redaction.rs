//! Redactor speed (it runs on every LLM hop and every MCP answer of a HIPAA profile): time per
//! KB of text over the whole message-level evaluation corpus (both splits, 960 documents), and
//! the one-off cost of building a profile's redactor.
//!
//! Run once: `cargo bench --bench redaction`.

// The bench reads only the texts; the labels are the test's business.
#[allow(dead_code)]
#[path = "../tests/redaction_corpus/mod.rs"]
mod redaction_corpus;

use std::time::Instant;

use opsdesk::governance::phi_view::{PhiPolicy, Placeholders};
use opsdesk::governance::redact::{RedactionSession, Redactor, RedactorConfig, RedactorOptions};
use redaction_corpus::Split;

fn main() {
    let tune = redaction_corpus::generate(Split::Tune, 11, 480);
    let hold = redaction_corpus::generate(Split::Holdout, 2026, 480);
    let texts: Vec<&str> = tune
        .docs
        .iter()
        .chain(&hold.docs)
        .map(|d| d.text.as_str())
        .collect();
    let bytes: usize = texts.iter().map(|t| t.len()).sum();
    let mut roster = tune.roster.clone();
    roster.extend(hold.roster.iter().cloned());

    let t = Instant::now();
    let r = Redactor::with_options(
        &RedactorConfig {
            names: roster.clone(),
            patterns: vec![],
        },
        &RedactorOptions {
            keep: tune.keep.clone(),
            redact_conditions: true,
        },
    )
    .expect("redactor builds")
    // The detectors themselves: every round scans every text afresh.
    .without_cache();
    let build = t.elapsed();

    // Warm-up (lazy regex caches), then timed rounds.
    for t in &texts {
        r.redact(t, &mut RedactionSession::new()).expect("redact");
    }
    let rounds = 5;
    let t = Instant::now();
    let mut out = 0usize;
    for _ in 0..rounds {
        for t in &texts {
            out += r
                .redact(t, &mut RedactionSession::new())
                .expect("redact")
                .len();
        }
    }
    let el = t.elapsed();
    let kb = (bytes * rounds) as f64 / 1024.0;
    println!(
        "redaction: {} documents, {:.1} KB, roster {} names; build {:.1} ms; {:.1} µs per KB ({:.2} MB/s); mean document {:.0} bytes in {:.0} µs (checksum {out})",
        texts.len(),
        bytes as f64 / 1024.0,
        roster.len(),
        build.as_secs_f64() * 1e3,
        el.as_secs_f64() * 1e6 / kb,
        kb / 1024.0 / el.as_secs_f64(),
        bytes as f64 / texts.len() as f64,
        el.as_secs_f64() * 1e6 / (rounds * texts.len()) as f64,
    );

    pull_view(&tune, &hold);
}
/// The PHI view of an `inbox_pull` answer of 100 clinic messages for an uncleared client (the
/// part of the call the redactor adds): messages shaped like the tool's, each with its text,
/// preview, subject and sender, viewed the way `Hub::present` does, on a fresh session each
/// time (a new client). Issue 29's target: under 5 ms of CPU.
///
/// Two figures: messages never viewed before (each answer 100 other messages of the corpus:
/// every text is scanned), and the same 100 messages viewed again (another client, the next
/// pull: the redactor's cache of texts already read).
fn pull_view(tune: &redaction_corpus::Corpus, hold: &redaction_corpus::Corpus) {
    let mut roster = tune.roster.clone();
    roster.extend(hold.roster.iter().cloned());
    let toml = format!(
        "[profiles.clinic]\nrequires_hipaa = true\nphi_auto_redact = true\nphi_names = {:?}\nphi_keep = {:?}\n",
        roster, tune.keep
    );
    let config = opsdesk::config::Config::from_toml_str(&toml, std::path::Path::new("bench.toml"))
        .expect("bench config");
    let policy = PhiPolicy::from_config(&config);
    let docs: Vec<&redaction_corpus::Doc> = tune.docs.iter().chain(&hold.docs).collect();
    let answers: Vec<serde_json::Value> = docs
        .chunks(100)
        .filter(|c| c.len() == 100)
        .map(|chunk| {
            let messages: Vec<serde_json::Value> = chunk
                .iter()
                .enumerate()
                .map(|(i, d)| {
                    serde_json::json!({
                        "seq": i, "id": format!("m{i}"), "profile": "clinic", "channel": "email",
                        "from": {"name": "Front Desk", "address": "desk@clinic.example"},
                        "subject": d.text.lines().next().unwrap_or_default(),
                        "text": format!("<<untrusted:abcdefghijklmnopqrst>>\n{}\n<</untrusted:abcdefghijklmnopqrst>>", d.text),
                        "preview": opsdesk::sanitize::one_line(&d.text, opsdesk::sanitize::MAX_PREVIEW_CHARS),
                        "untrusted": true,
                    })
                })
                .collect();
            serde_json::json!({"consumer": "mcp:bench", "messages": messages, "cursor": 100})
        })
        .collect();
    let bytes = answers[0].to_string().len();
    // Warm-up on a small answer: the redactor is built on first use (tens of milliseconds,
    // once per profile).
    let mut v = serde_json::json!({"profile": "clinic", "text": "Seen by Dr. Okafor on 3/4/2025."});
    policy
        .view(false, &Placeholders::new(), &mut v, None)
        .expect("view");
    // Never viewed before: each answer once.
    let t = Instant::now();
    for a in &answers {
        let mut v = a.clone();
        policy
            .view(false, &Placeholders::new(), &mut v, None)
            .expect("view");
    }
    let cold = t.elapsed() / answers.len() as u32;
    // Viewed again: the first answer, over and over.
    let rounds = 20;
    let t = Instant::now();
    for _ in 0..rounds {
        let mut v = answers[0].clone();
        policy
            .view(false, &Placeholders::new(), &mut v, None)
            .expect("view");
    }
    let warm = t.elapsed() / rounds;
    println!(
        "inbox_pull PHI view: 100 clinic messages ({:.1} KB of JSON): {:.2} ms per answer never viewed before ({} answers), {:.2} ms viewed again",
        bytes as f64 / 1024.0,
        cold.as_secs_f64() * 1e3,
        answers.len(),
        warm.as_secs_f64() * 1e3
    );
}
