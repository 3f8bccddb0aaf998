//! The deadline finder against its labelled sets (tests/fixtures/deadlines, English, German
//! and Spanish, with French and Italian lines from holdout7 on and Dutch and Portuguese from
//! holdout8 on; the labelling rule is in its README and each file's first line): `eval.jsonl`
//! (312 messages), `dev2.jsonl`, `holdout2.jsonl`, `holdout3.jsonl`, `holdout4.jsonl`,
//! `holdout5.jsonl`, `holdout6.jsonl`, `holdout7.jsonl`, `holdout8.jsonl`, `holdout9.jsonl`,
//! `holdout10.jsonl`, `holdout11.jsonl` and `holdout12.jsonl` (231 each), tuned on in that
//! order (each holdout became the next round's development set after its unread figures were
//! taken). `holdout13.jsonl` is the unread holdout, scored under its unread floor (its misses
//! are not printed), until the next holdout is written. Prints recall and precision per
//! class; each set has a floor just under its figure. `cargo test --test deadlines_eval --
//! --nocapture` shows the tables and every miss of the tuned sets.

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

/// Scores one labelled file: prints its table (and, when `show_misses`, every miss) and
/// returns the overall tally.
fn score(path: &str, show_misses: bool) -> Tally {
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut lines = text.lines();
    let rule: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
    assert!(
        rule["labelling_rule"]
            .as_str()
            .is_some_and(|r| r.len() > 200),
        "{path}: the rule is written down on the first line"
    );

    let mut by_class: BTreeMap<String, Tally> = BTreeMap::new();
    let mut total = Tally::default();
    let mut misses = Vec::new();
    let mut texts = Vec::new();
    for line in lines {
        let m: Value = serde_json::from_str(line).unwrap();
        let received = OffsetDateTime::parse(m["received"].as_str().unwrap(), &Rfc3339).unwrap();
        // Received at the operator's offset in America/Chicago (the sets' README).
        let ctx = Context::new(received, received.offset()).in_zone("America/Chicago");
        let body = m["text"].as_str().unwrap();
        let want: BTreeSet<String> = m["deadlines"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d.as_str().unwrap().to_string())
            .collect();
        let found = deadlines(body, &ctx);
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
                body.replace('\n', "⏎")
            ));
        }
        texts.push((body.to_string(), ctx));
    }
    println!("== {path}");
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
    if show_misses {
        for m in &misses {
            println!("miss {m}");
        }
    } else {
        println!("({} messages with a miss, not shown)", misses.len());
    }
    // A rough figure for this build (a debug test build is many times slower than the bench:
    // `cargo bench --bench deadlines` is the speed goal's measure).
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
    total
}

fn fixture(name: &str) -> String {
    format!(
        "{}/tests/fixtures/deadlines/{name}",
        env!("CARGO_MANIFEST_DIR")
    )
}

/// Fails when a set falls under its floor (recall, precision) or is smaller than it was.
fn assert_floor(total: &Tally, messages: usize, recall: f64, precision: f64) {
    assert!(total.messages >= messages, "{} messages", total.messages);
    assert!(total.recall() >= recall, "recall {:.3}", total.recall());
    assert!(
        total.precision() >= precision,
        "precision {:.3}",
        total.precision()
    );
}

#[test]
fn the_finder_holds_its_figures_on_the_tuned_sets() {
    // DEADLINES_EVAL=<file> scores another set in the same format (a held-out one) instead,
    // with its misses shown and no floor.
    if let Ok(other) = std::env::var("DEADLINES_EVAL") {
        score(&other, true);
        return;
    }
    assert_floor(&score(&fixture("eval.jsonl"), true), 312, 0.99, 0.99);
    // holdout4: 92.2% recall / 97.9% precision when it was written, 94.2% / 98.0% unread
    // after the round tuned on holdout3; tuned on since (100% / 100%).
    for set in [
        "dev2.jsonl",
        "holdout2.jsonl",
        "holdout3.jsonl",
        "holdout4.jsonl",
    ] {
        assert_floor(&score(&fixture(set), true), 231, 0.99, 0.99);
    }
    // holdout5: 85.8% / 95.2% when it was written, 86.4% / 96.6% unread after the round
    // tuned on holdout4; tuned on since (98.8% / 100%: the two misses left are labels the rule
    // does not support, see its README paragraph).
    assert_floor(&score(&fixture("holdout5.jsonl"), true), 231, 0.98, 0.99);
    // holdout6: 94.8% / 98.6% when it was written, 95.5% / 99.3% unread after the round tuned
    // on holdout5; tuned on since (100% / 100%).
    assert_floor(&score(&fixture("holdout6.jsonl"), true), 231, 0.99, 0.99);
    // holdout7: 92.9% / 98.6% when it was written (unread, after the round tuned on
    // holdout6); tuned on since (100% / 100%).
    assert_floor(&score(&fixture("holdout7.jsonl"), true), 231, 0.99, 0.99);
    // holdout8: 86.7% / 95.1% when it was written, 88.0% / 95.2% unread after the round tuned
    // on holdout7; tuned on since (96.2% / 100% after round 8, 100% / 100% since round 9 read
    // Dutch and Portuguese).
    // holdout9: 92.3% / 96.6% when it was written (unread, after the round tuned on
    // holdout8); tuned on since (100% / 100%).
    for set in ["holdout8.jsonl", "holdout9.jsonl"] {
        assert_floor(&score(&fixture(set), true), 231, 0.99, 0.99);
    }
    // holdout10: 96.1% / 99.3% when it was written (unread, after the round tuned on
    // holdout9); tuned on since (100% / 100%).
    assert_floor(&score(&fixture("holdout10.jsonl"), true), 231, 0.99, 0.99);
    // holdout11: 91.6% / 94.7% when it was written, 94.2% / 95.4% unread after the round
    // tuned on holdout10; tuned on since (100% / 98.7% after round 11, 100% / 100% since
    // round 12 read a lapse or a third party's wish next to an earlier limit as its reason).
    assert_floor(&score(&fixture("holdout11.jsonl"), true), 231, 0.99, 0.99);
    // holdout12: 92.2% / 95.7% when it was written, 94.6% / 95.8% unread after the round
    // tuned on holdout11; tuned on since (100% / 100% after round 12, with the operator's
    // named zone: "11:30pm Mountain on Monday" across the US spring change).
    assert_floor(&score(&fixture("holdout12.jsonl"), true), 231, 0.99, 0.99);
}

#[test]
fn the_finder_generalises_to_the_unread_holdout() {
    // holdout13: 90.3% recall and 96.1% precision when it was written (the finder after the
    // holdout11 round) and the same after the round on holdout12. Nobody has read its misses;
    // it is the unread floor until the next holdout takes its place.
    assert_floor(&score(&fixture("holdout13.jsonl"), false), 231, 0.90, 0.96);
}
