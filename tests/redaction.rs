//! PHI redaction measured on labeled synthetic fixtures: the sentence fixtures
//! (tests/fixtures/phi and phi_heldout, regenerate with their `generate.py`) and the
//! message-level evaluation corpus generated in tests/redaction_corpus (two splits, seeded).
//! The sentence fixtures predate room numbers being redacted (Ted seed 7.3): their rooms are
//! unlabelled, so redacted rooms count as false positives there.
//!
//! Metrics (`cargo test --test redaction -- --nocapture` prints the table):
//! - recall per labeled kind: a labeled span is found when the redacted spans (of any kind)
//!   cover all of its characters. Dates of birth are labeled kind `Date` with `dob: true` and
//!   reported as their own row, `Date(DOB)`; the `Date` row holds the other dates.
//! - precision per predicted kind: a redacted span is correct when it overlaps a labeled span.
//!
//! The canary-style checks stand in, at this level, for the router's fake-provider canary: no
//! seeded value of a 100%-recall kind survives `redact`, on a fresh session and on one session
//! shared by every message of a "job".

use std::collections::BTreeMap;
use std::sync::OnceLock;

use opsdesk::config::Profile;
use opsdesk::governance::redact::{
    Kind, PatternConfig, RedactError, RedactionSession, Redactor, RedactorConfig, RedactorOptions,
    Span,
};

mod redaction_corpus;
mod redaction_eval;
use redaction_corpus::{Corpus, Split};
use serde_json::Value;

const FIXTURE: &str = include_str!("fixtures/phi/sentences.jsonl");
const ROSTER: &str = include_str!("fixtures/phi/roster.json");
/// Written blind (before its author read the redactor's patterns), so it measures the
/// redactor on shapes it was not tuned on. Regenerate with
/// `python3 tests/fixtures/phi_heldout/generate.py`.
const HELDOUT: &str = include_str!("fixtures/phi_heldout/sentences.jsonl");
const HELDOUT_ROSTER: &str = include_str!("fixtures/phi_heldout/roster.json");

struct Label {
    kind: Kind,
    dob: bool,
    /// Byte offsets (the fixture stores character offsets).
    start: usize,
    end: usize,
    value: String,
}

struct Sample {
    text: String,
    labels: Vec<Label>,
}

fn kind_of(name: &str) -> Kind {
    let snake: String = name
        .chars()
        .enumerate()
        .flat_map(|(i, c)| {
            let sep = (i > 0 && c.is_ascii_uppercase()).then_some('_');
            sep.into_iter().chain(std::iter::once(c))
        })
        .collect();
    Kind::from_name(&snake).unwrap_or_else(|| panic!("unknown kind {name}"))
}

fn parse(fixture: &str) -> Vec<Sample> {
    fixture
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let v: Value = serde_json::from_str(line).expect("fixture line is JSON");
            let text = v["text"].as_str().expect("text").to_string();
            // char offset -> byte offset
            let byte_at = |c: usize| {
                text.char_indices()
                    .map(|(b, _)| b)
                    .chain(std::iter::once(text.len()))
                    .nth(c)
                    .expect("offset inside text")
            };
            let labels = v["spans"]
                .as_array()
                .expect("spans")
                .iter()
                .map(|s| {
                    let start = byte_at(s["start"].as_u64().expect("start") as usize);
                    let end = byte_at(s["end"].as_u64().expect("end") as usize);
                    let value = s["value"].as_str().expect("value").to_string();
                    assert_eq!(&text[start..end], value, "fixture offsets");
                    Label {
                        kind: kind_of(s["kind"].as_str().expect("kind")),
                        dob: s["dob"].as_bool().unwrap_or(false),
                        start,
                        end,
                        value,
                    }
                })
                .collect();
            Sample { text, labels }
        })
        .collect()
}

fn samples() -> &'static [Sample] {
    static S: OnceLock<Vec<Sample>> = OnceLock::new();
    S.get_or_init(|| parse(FIXTURE))
}

fn heldout_samples() -> &'static [Sample] {
    static S: OnceLock<Vec<Sample>> = OnceLock::new();
    S.get_or_init(|| parse(HELDOUT))
}

fn roster() -> Vec<String> {
    serde_json::from_str(ROSTER).expect("roster is a JSON list")
}

fn heldout_redactor() -> &'static Redactor {
    static R: OnceLock<Redactor> = OnceLock::new();
    R.get_or_init(|| {
        Redactor::new(&RedactorConfig {
            names: serde_json::from_str(HELDOUT_ROSTER).expect("roster is a JSON list"),
            patterns: vec![],
        })
        .expect("built-in patterns compile")
    })
}

fn redactor() -> &'static Redactor {
    static R: OnceLock<Redactor> = OnceLock::new();
    R.get_or_init(|| {
        Redactor::new(&RedactorConfig {
            names: roster(),
            patterns: vec![],
        })
        .expect("built-in patterns compile")
    })
}

fn row(l: &Label) -> String {
    if l.dob {
        "Date(DOB)".into()
    } else {
        format!("{:?}", l.kind)
    }
}

/// Values whose recall must be 100%: they must never survive redaction.
fn must_catch(l: &Label) -> bool {
    matches!(
        l.kind,
        Kind::Ssn | Kind::Mrn | Kind::Phone | Kind::Fax | Kind::Email
    ) || l.dob
}

fn covered(spans: &[Span], start: usize, end: usize) -> bool {
    let mut pos = start;
    for s in spans {
        if s.start <= pos && pos < s.end {
            pos = s.end;
        }
        if pos >= end {
            return true;
        }
    }
    pos >= end
}

#[derive(Default)]
struct Tally {
    labeled: usize,
    found: usize,
    /// Labeled spans redacted with exactly their boundaries (a found span may be wider, e.g. a
    /// name merged with the capitalised verb after it; that is still found, but over-redacts).
    exact: usize,
    predicted: usize,
    correct: usize,
}

/// Measures `r` on `samples`, prints the per-kind table (and every miss and false positive)
/// under `title`, and returns the tallies for the caller's assertions.
fn measure(title: &str, r: &Redactor, samples: &[Sample]) -> BTreeMap<String, Tally> {
    measure_with(title, r, samples, true)
}

/// `show_errors: false` prints only the table (the held-out corpus split: its misses are
/// never looked at, so it cannot be tuned on).
fn measure_with(
    title: &str,
    r: &Redactor,
    samples: &[Sample],
    show_errors: bool,
) -> BTreeMap<String, Tally> {
    let mut t: BTreeMap<String, Tally> = BTreeMap::new();
    let mut misses: Vec<String> = Vec::new();
    let mut false_pos: Vec<String> = Vec::new();
    for s in samples {
        let spans = r.find(&s.text).expect("find");
        for l in &s.labels {
            let e = t.entry(row(l)).or_default();
            e.labeled += 1;
            if spans.iter().any(|p| p.start == l.start && p.end == l.end) {
                e.exact += 1;
            }
            if covered(&spans, l.start, l.end) {
                e.found += 1;
            } else {
                misses.push(format!(
                    "{}: {:?} in {:?}",
                    row(l),
                    l.value,
                    around(&s.text, l.start, l.end)
                ));
            }
        }
        for sp in &spans {
            let e = t.entry(format!("{:?}", sp.kind)).or_default();
            e.predicted += 1;
            if s.labels
                .iter()
                .any(|l| l.start < sp.end && sp.start < l.end)
            {
                e.correct += 1;
            } else {
                false_pos.push(format!(
                    "{:?}: {:?} in {:?}",
                    sp.kind,
                    &s.text[sp.start..sp.end],
                    around(&s.text, sp.start, sp.end)
                ));
            }
        }
    }

    println!("== {title}: {} sentences", samples.len());
    println!(
        "{:<12} {:>8} {:>8} {:>8} {:>6} {:>10} {:>8} {:>10}",
        "kind", "labeled", "found", "recall", "exact", "predicted", "correct", "precision"
    );
    let (mut pred, mut corr) = (0, 0);
    for (k, v) in &t {
        pred += v.predicted;
        corr += v.correct;
        println!(
            "{:<12} {:>8} {:>8} {:>8} {:>6} {:>10} {:>8} {:>10}",
            k,
            v.labeled,
            v.found,
            pct(v.found, v.labeled),
            v.exact,
            v.predicted,
            v.correct,
            pct(v.correct, v.predicted)
        );
    }
    let (lab, fnd, exact) = t.values().fold((0, 0, 0), |(a, b, c), v| {
        (a + v.labeled, b + v.found, c + v.exact)
    });
    println!(
        "{:<12} {:>8} {:>8} {:>8} {:>6} {:>10} {:>8} {:>10}",
        "ALL",
        lab,
        fnd,
        pct(fnd, lab),
        exact,
        pred,
        corr,
        pct(corr, pred)
    );
    if show_errors {
        for m in &misses {
            println!("MISS {m}");
        }
        for f in &false_pos {
            println!("FP   {f}");
        }
    } else {
        println!(
            "({} misses and {} false positives not shown)",
            misses.len(),
            false_pos.len()
        );
    }
    t
}

/// The span in up to 40 bytes of its context, marked `[[…]]`.
fn around(text: &str, start: usize, end: usize) -> String {
    let mut a = start.saturating_sub(40);
    while !text.is_char_boundary(a) {
        a -= 1;
    }
    let mut b = (end + 40).min(text.len());
    while !text.is_char_boundary(b) {
        b += 1;
    }
    format!(
        "{}[[{}]]{}",
        &text[a..start],
        &text[start..end],
        &text[end..b]
    )
}

fn pct(a: usize, b: usize) -> String {
    if b == 0 {
        "-".to_string()
    } else {
        format!("{:.1}%", 100.0 * a as f64 / b as f64)
    }
}

/// The issue's target, on every fixture: SSN, MRN, phone (and fax), email and DOB are never
/// missed.
fn assert_strict_kinds(title: &str, t: &BTreeMap<String, Tally>) {
    for k in ["Ssn", "Mrn", "Phone", "Fax", "Email", "Date(DOB)"] {
        let v = t.get(k).unwrap_or_else(|| panic!("{title}: no {k} labels"));
        assert_eq!(v.found, v.labeled, "{title}: recall of {k} must be 100%");
    }
}

fn overall_precision(t: &BTreeMap<String, Tally>) -> (usize, usize) {
    t.values()
        .fold((0, 0), |(p, c), v| (p + v.predicted, c + v.correct))
}

#[test]
fn recall_and_precision_per_kind() {
    let t = measure(
        "fixture phi (written with the redactor)",
        redactor(),
        samples(),
    );
    assert_strict_kinds("phi", &t);
    let (pred, corr) = overall_precision(&t);
    for (k, v) in &t {
        if v.labeled > 0 {
            assert!(
                v.found * 100 >= v.labeled * 95,
                "recall of {k} is {} (< 95%)",
                pct(v.found, v.labeled)
            );
        }
    }
    assert!(
        corr * 100 >= pred * 90,
        "overall precision is {} (< 90%)",
        pct(corr, pred)
    );
}

#[test]
fn heldout_recall_and_precision_per_kind() {
    let t = measure(
        "fixture phi_heldout (written blind)",
        heldout_redactor(),
        heldout_samples(),
    );
    assert_strict_kinds("phi_heldout", &t);
    // Floors measured on this fixture (2026-11-22, after the fixes of that day), not targets:
    // names 96.2% (lowercase names off the roster and lone surnames in lists still slip), every
    // other kind 100%, precision 100% on its negatives. The floors leave a little room.
    for (k, v) in &t {
        if v.labeled > 0 {
            assert!(
                v.found * 100 >= v.labeled * 95,
                "phi_heldout: recall of {k} is {} (< 95%)",
                pct(v.found, v.labeled)
            );
        }
    }
    let (pred, corr) = overall_precision(&t);
    assert!(
        corr * 100 >= pred * 97,
        "phi_heldout: overall precision is {} (< 97%)",
        pct(corr, pred)
    );
}

#[test]
fn seeded_values_never_survive_redaction() {
    never_survive(redactor(), samples());
    never_survive(heldout_redactor(), heldout_samples());
}

fn never_survive(r: &Redactor, samples: &[Sample]) {
    let mut job = RedactionSession::new();
    for s in samples {
        let fresh = r
            .redact(&s.text, &mut RedactionSession::new())
            .expect("redact");
        let shared = r.redact(&s.text, &mut job).expect("redact");
        for l in s.labels.iter().filter(|l| must_catch(l)) {
            assert!(
                !fresh.contains(&l.value) && !shared.contains(&l.value),
                "{} leaked: {fresh:?}",
                row(l)
            );
        }
    }
}

#[test]
fn reidentify_round_trips_every_sentence() {
    round_trips(redactor(), samples());
    round_trips(heldout_redactor(), heldout_samples());
}

fn round_trips(r: &Redactor, samples: &[Sample]) {
    let mut job = RedactionSession::new();
    for s in samples {
        let mut one = RedactionSession::new();
        let red = r.redact(&s.text, &mut one).expect("redact");
        assert_eq!(one.reidentify(&red), s.text);
        let red = r.redact(&s.text, &mut job).expect("redact");
        assert_eq!(job.reidentify(&red), s.text);
    }
}

#[test]
fn placeholders_are_stable_across_hops() {
    let r = redactor();
    let mut session = RedactionSession::new();
    let a = r
        .redact(
            "Patient: Xavier Quintero, MRN 00482913, call (555) 555-0142.",
            &mut session,
        )
        .expect("redact");
    assert_eq!(a, "Patient: <PERSON_1>, MRN <MRN_1>, call <PHONE_1>.");
    // A retry of the same message and a later message of the same job.
    let b = r
        .redact(
            "Patient: Xavier Quintero, MRN 00482913, call (555) 555-0142.",
            &mut session,
        )
        .expect("redact");
    assert_eq!(a, b);
    let c = r
        .redact(
            "Xavier Quintero called back from (555) 555-0142 about MRN 00482913; Quintero is fine.",
            &mut session,
        )
        .expect("redact");
    assert_eq!(
        c,
        "<PERSON_1> called back from <PHONE_1> about MRN <MRN_1>; <PERSON_2> is fine."
    );
    assert_eq!(session.counts().get(&Kind::Person), Some(&2));
    // An answer from the model is re-identified locally; unknown placeholders stay.
    assert_eq!(
        session.reidentify("Call <PERSON_1> at <PHONE_1> (<PERSON_9>)."),
        "Call Xavier Quintero at (555) 555-0142 (<PERSON_9>)."
    );
}

#[test]
fn debug_of_a_session_shows_no_values() {
    let r = redactor();
    let mut session = RedactionSession::new();
    for s in samples().iter().take(60) {
        r.redact(&s.text, &mut session).expect("redact");
    }
    let dbg = format!("{session:?} {session:#?} {r:?}");
    assert!(dbg.contains("counts"));
    for s in samples().iter().take(60) {
        // A short number (an age of 92) can equal a count in the Debug output: skip those.
        for l in s
            .labels
            .iter()
            .filter(|l| !(l.value.len() <= 3 && l.value.bytes().all(|b| b.is_ascii_digit())))
        {
            assert!(!dbg.contains(&l.value), "Debug shows {:?}", row(l));
        }
    }
    let cfg = RedactorConfig {
        names: roster(),
        patterns: vec![],
    };
    assert!(!format!("{cfg:?}").contains(&roster()[0]));
}

#[test]
fn configuration() {
    // A bad configured pattern blocks (fail closed).
    let bad = RedactorConfig {
        names: vec![],
        patterns: vec![PatternConfig {
            kind: Kind::Mrn,
            regex: "([0-9]+".into(),
            context: vec![],
        }],
    };
    assert!(matches!(
        Redactor::new(&bad),
        Err(RedactError::BadPattern { .. })
    ));
    let empty = RedactorConfig {
        names: vec!["  ".into()],
        patterns: vec![],
    };
    assert!(matches!(
        Redactor::new(&empty),
        Err(RedactError::EmptyName { .. })
    ));

    // A site MRN format that needs context words: bare 9-digit chart numbers.
    let site = Redactor::new(&RedactorConfig {
        names: vec![],
        patterns: vec![PatternConfig {
            kind: Kind::Mrn,
            regex: r"\b(?P<v>CH\d{6})\b".into(),
            context: vec!["chart".into()],
        }],
    })
    .expect("compiles");
    let mut s = RedactionSession::new();
    assert_eq!(
        site.redact(
            "Chart CH123456 reviewed. The unrelated product code is CH654321.",
            &mut s
        )
        .expect("redact"),
        "Chart <MRN_1> reviewed. The unrelated product code is CH654321."
    );

    // A profile's roster: whole name, surname alone, "Last, First", case-insensitive.
    let profile = Profile {
        phi_auto_redact: true,
        phi_names: vec!["Harriet Thistlewood".into()],
        ..Profile::default()
    };
    let r = Redactor::for_profile(&profile).expect("builds");
    let mut s = RedactionSession::new();
    let out = r
        .redact(
            "harriet thistlewood fell; Thistlewood, Harriet needs PT; Thistlewood is stable.",
            &mut s,
        )
        .expect("redact");
    assert!(!out.to_lowercase().contains("thistlewood"), "{out}");
    assert!(!out.contains("Harriet"), "{out}");
}

// ---------------------------------------------------------------------------------------------
// The message-level evaluation corpus (tests/redaction_corpus): whole synthetic clinic messages.

/// Documents per split. Seeds are fixed so the figures are reproducible.
const CORPUS_DOCS: usize = 480;
const TUNE_SEED: u64 = 11;
const HOLDOUT_SEED: u64 = 2026;

fn corpus_samples(c: &Corpus) -> Vec<Sample> {
    c.docs
        .iter()
        .map(|d| Sample {
            text: d.text.clone(),
            labels: d
                .labels
                .iter()
                .map(|l| Label {
                    kind: l.kind,
                    dob: l.dob,
                    start: l.start,
                    end: l.end,
                    value: d.text[l.start..l.end].to_string(),
                })
                .collect(),
        })
        .collect()
}

/// The profile a clinic would configure: its patient roster, its own name and its staff on
/// the keep list, conditions redacted.
fn corpus_redactor(c: &Corpus) -> Redactor {
    Redactor::with_options(
        &RedactorConfig {
            names: c.roster.clone(),
            patterns: vec![],
        },
        &RedactorOptions {
            keep: c.keep.clone(),
            redact_conditions: true,
        },
    )
    .expect("corpus redactor builds")
}

/// Per-kind floors (recall %, measured; see docs/ARCHITECTURE.md) and the overall precision
/// floor: a regression below them fails.
fn assert_floors(title: &str, t: &BTreeMap<String, Tally>, floors: &[(&str, f64)], precision: f64) {
    for (k, floor) in floors {
        let v = t
            .get(*k)
            .unwrap_or_else(|| panic!("{title}: no {k} labels"));
        let recall = 100.0 * v.found as f64 / v.labeled as f64;
        assert!(
            recall >= *floor,
            "{title}: recall of {k} is {recall:.1}% (floor {floor}%)"
        );
    }
    let (pred, corr) = overall_precision(t);
    let p = 100.0 * corr as f64 / pred as f64;
    assert!(
        p >= precision,
        "{title}: precision is {p:.1}% (floor {precision}%)"
    );
}

#[test]
fn corpus_tune_split_recall_and_precision_per_kind() {
    let c = redaction_corpus::generate(Split::Tune, TUNE_SEED, CORPUS_DOCS);
    let t = measure(
        "corpus tune split",
        &corpus_redactor(&c),
        &corpus_samples(&c),
    );
    assert_floors("corpus tune", &t, CORPUS_TUNE_FLOORS, CORPUS_TUNE_PRECISION);
}

#[test]
fn corpus_holdout_split_recall_and_precision_per_kind() {
    let c = redaction_corpus::generate(Split::Holdout, HOLDOUT_SEED, CORPUS_DOCS);
    let t = measure_with(
        "corpus holdout split (errors hidden)",
        &corpus_redactor(&c),
        &corpus_samples(&c),
        false,
    );
    assert_floors(
        "corpus holdout",
        &t,
        CORPUS_HOLDOUT_FLOORS,
        CORPUS_HOLDOUT_PRECISION,
    );
}

#[test]
fn corpus_is_reproducible() {
    let a = redaction_corpus::generate(Split::Holdout, HOLDOUT_SEED, 40);
    let b = redaction_corpus::generate(Split::Holdout, HOLDOUT_SEED, 40);
    assert!(a.docs.iter().zip(&b.docs).all(|(x, y)| x.text == y.text));
    let families: std::collections::BTreeSet<&str> = a.docs.iter().map(|d| d.family).collect();
    assert_eq!(families.len(), 13, "{families:?}");
}

// Floors = the figures measured on 2026-11-25 (see docs/ARCHITECTURE.md, issue 11's closing
// note). The tune split was tuned on; the held-out split's table was read (never its misses)
// three times while the redactor changed, so it is no longer fully blind.
const CORPUS_TUNE_FLOORS: &[(&str, f64)] = &[
    ("Account", 100.0),
    ("Address", 100.0),
    ("Age", 100.0),
    ("Condition", 100.0),
    ("Date", 100.0),
    ("Date(DOB)", 100.0),
    ("Email", 100.0),
    ("Fax", 100.0),
    ("HealthPlan", 100.0),
    ("Mrn", 100.0),
    ("Person", 100.0),
    ("Phone", 100.0),
    ("Room", 100.0),
    ("Ssn", 100.0),
    ("Vehicle", 100.0),
    ("Zip", 100.0),
];
const CORPUS_TUNE_PRECISION: f64 = 100.0;
const CORPUS_HOLDOUT_FLOORS: &[(&str, f64)] = &[
    ("Account", 100.0),
    ("Address", 100.0),
    ("Age", 100.0),
    ("Condition", 100.0),
    ("Date", 100.0),
    ("Date(DOB)", 100.0),
    ("Device", 100.0),
    ("Email", 100.0),
    ("Fax", 100.0),
    ("HealthPlan", 100.0),
    ("License", 100.0),
    ("Mrn", 100.0),
    ("Person", 99.8),
    ("Phone", 100.0),
    ("Room", 100.0),
    ("Ssn", 100.0),
    ("Vehicle", 100.0),
    ("Zip", 100.0),
];
/// The practice's and the pharmacy's own fax numbers in the refill faxes are labelled as
/// not PHI and are redacted anyway (74 spans); since issue 29 also 5 unlabelled seven-plus
/// digit numbers after patient context, redacted as record numbers (fail closed): 79 of 4,853.
const CORPUS_HOLDOUT_PRECISION: f64 = 98.3;

// ---------------------------------------------------------------------------------------------
// Issue 29's evaluation set (tests/redaction_eval): the forms that passed before, written fresh.

const EVAL_DOCS: usize = 720;
const EVAL_SEED: u64 = 29;

#[test]
fn eval_set_recall_per_kind_and_precision() {
    let set = redaction_eval::generate(EVAL_SEED, EVAL_DOCS);
    let families: std::collections::BTreeSet<&str> = set.docs.iter().map(|d| d.family).collect();
    assert_eq!(families.len(), 9, "{families:?}");
    let samples: Vec<Sample> = set
        .docs
        .iter()
        .map(|d| Sample {
            text: d.text.clone(),
            labels: d
                .labels
                .iter()
                .map(|l| Label {
                    kind: l.kind,
                    dob: l.dob,
                    start: l.start,
                    end: l.end,
                    value: d.text[l.start..l.end].to_string(),
                })
                .collect(),
        })
        .collect();
    let r = Redactor::with_options(
        &RedactorConfig {
            names: set.roster.clone(),
            patterns: vec![],
        },
        &RedactorOptions {
            keep: set.keep.clone(),
            redact_conditions: false,
        },
    )
    .expect("eval redactor builds");
    let t = measure("eval set (issue 29)", &r, &samples);
    // The issue's targets: ≥ 99.5% on every kind but names, ≥ 98% on names, ≥ 95% precision.
    for (k, v) in &t {
        if v.labeled == 0 {
            continue;
        }
        let floor = if k == "Person" { 98.0 } else { 99.5 };
        let recall = 100.0 * v.found as f64 / v.labeled as f64;
        assert!(
            recall >= floor,
            "eval: recall of {k} is {recall:.1}% (floor {floor}%)"
        );
    }
    let (pred, corr) = overall_precision(&t);
    let p = 100.0 * corr as f64 / pred as f64;
    assert!(p >= 95.0, "eval: precision is {p:.1}% (floor 95%)");
    // Without the roster, names are still found by the lexicon and their positions.
    let bare = Redactor::with_options(
        &RedactorConfig::default(),
        &RedactorOptions {
            keep: set.keep.clone(),
            redact_conditions: false,
        },
    )
    .expect("eval redactor builds");
    let t = measure_with(
        "eval set without the roster",
        &bare,
        &samples,
        std::env::var_os("OPSDESK_SHOW_MISSES").is_some(),
    );
    let v = t.get("Person").expect("names");
    let recall = 100.0 * v.found as f64 / v.labeled as f64;
    // The issue's floor holds without a roster too: names are found by their positions (cues,
    // a verb only people are the subject of, registry and HL7 orders) and the lexicon.
    // `OPSDESK_SHOW_MISSES=1` prints what is missed.
    assert!(recall >= 98.0, "eval without roster: names {recall:.1}%");
}
