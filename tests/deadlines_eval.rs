//! The deadline finder against its labelled evaluation set (tests/fixtures/deadlines: 312
//! messages, English, German and Spanish; the labelling rule is in its README and first
//! line). Prints recall and precision per class; fails below 90% overall on either.
//! `cargo test --test deadlines_eval -- --nocapture` shows the table and every miss.

use std::collections::{BTreeMap, BTreeSet};

use opsdesk::timeexpr::{Context, deadlines};
use serde_json::Value;
use time::OffsetDateTime;
use time::format_description::well_known::Rfc3339;

#[derive(Default)]
struct Tally {
    messages: usize,
    tp: usize,
    fp: usize,
    fn_: usize,
}

impl Tally {
    fn recall(&self) -> f64 {
        ratio(self.tp, self.tp + self.fn_)
    }
    fn precision(&self) -> f64 {
        ratio(self.tp, self.tp + self.fp)
    }
}

/// 1.0 when there is nothing to find (a trap class has no recall to lose).
fn ratio(a: usize, b: usize) -> f64 {
    if b == 0 { 1.0 } else { a as f64 / b as f64 }
}

#[test]
fn the_finder_meets_90_percent_recall_and_precision_on_the_labelled_set() {
    // DEADLINES_EVAL=<file> scores another set in the same format (a held-out one) instead.
    let other = std::env::var("DEADLINES_EVAL").ok();
    let path = other.clone().unwrap_or_else(|| {
        concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/tests/fixtures/deadlines/eval.jsonl"
        )
        .into()
    });
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    let rule: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert!(
        other.is_some() || rule["labelling_rule"].as_str().unwrap().len() > 200,
        "the rule is written down"
    );

    let mut by_class: BTreeMap<String, Tally> = BTreeMap::new();
    let mut total = Tally::default();
    let mut misses = Vec::new();
    for line in lines {
        let m: Value = serde_json::from_str(line).unwrap();
        let received = OffsetDateTime::parse(m["received"].as_str().unwrap(), &Rfc3339).unwrap();
        let ctx = Context::new(received, received.offset());
        let want: BTreeSet<String> = m["deadlines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_str().unwrap().to_string())
            .collect();
        let found = deadlines(m["text"].as_str().unwrap(), &ctx);
        let got: BTreeSet<String> = found
            .iter()
            .map(|d| d.due.map_or("undated".into(), |d| d.to_string()))
            .collect();
        let tp = got.intersection(&want).count();
        let fp = got.difference(&want).count();
        let fn_ = want.difference(&got).count();
        for t in [
            by_class
                .entry(m["class"].as_str().unwrap().to_string())
                .or_default(),
            &mut total,
        ] {
            t.messages += 1;
            t.tp += tp;
            t.fp += fp;
            t.fn_ += fn_;
        }
        if fp + fn_ > 0 {
            misses.push(format!(
                "{}: want {want:?} got {got:?} ({:?})  {}",
                m["id"].as_str().unwrap(),
                found.iter().map(|d| d.expr.as_str()).collect::<Vec<_>>(),
                m["text"].as_str().unwrap().replace('\n', "⏎")
            ));
        }
    }
    println!(
        "{:<16} {:>4} {:>4} {:>4} {:>4} {:>8} {:>9}",
        "class", "msgs", "tp", "fp", "fn", "recall", "precision"
    );
    for (c, t) in by_class.iter().chain([(&"overall".to_string(), &total)]) {
        println!(
            "{c:<16} {:>4} {:>4} {:>4} {:>4} {:>7.1}% {:>8.1}%",
            t.messages,
            t.tp,
            t.fp,
            t.fn_,
            100.0 * t.recall(),
            100.0 * t.precision()
        );
    }
    for m in &misses {
        println!("miss {m}");
    }
    // A rough figure for this build (a debug test build is many times slower than the bench:
    // `cargo bench --bench deadlines` is the speed goal's measure).
    let texts: Vec<(String, Context)> = text
        .lines()
        .skip(1)
        .map(|l| {
            let m: Value = serde_json::from_str(l).unwrap();
            let at = OffsetDateTime::parse(m["received"].as_str().unwrap(), &Rfc3339).unwrap();
            (
                m["text"].as_str().unwrap().to_string(),
                Context::new(at, at.offset()),
            )
        })
        .collect();
    let t = std::time::Instant::now();
    let rounds = 20;
    for _ in 0..rounds {
        for (body, ctx) in &texts {
            std::hint::black_box(deadlines(body, ctx));
        }
    }
    println!(
        "speed (this build): {:.0} messages/s",
        (rounds * texts.len()) as f64 / t.elapsed().as_secs_f64()
    );
    if other.is_some() {
        return;
    }
    assert!(total.messages >= 300, "{} messages", total.messages);
    assert!(total.recall() >= 0.90, "recall {:.3}", total.recall());
    assert!(
        total.precision() >= 0.90,
        "precision {:.3}",
        total.precision()
    );
}
