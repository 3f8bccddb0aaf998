//! The harness of the blind PHI evaluation sets (tests/redaction_blind2 … 6): the types a
//! set's generator fills, a sanity check of what it generated, and the measure — recall and
//! precision per kind, recall per family, a character precision — with and without the
//! set's roster, held to the set's floors. Each `tests/redaction_blindN.rs` names its set,
//! seed and floors; `OPSDESK_SHOW_MISSES=1` adds every miss and false positive in context,
//! `OPSDESK_SHOW_DOCS=1` every document.

use std::collections::{BTreeMap, BTreeSet};

use opsdesk::governance::redact::{Kind, Redactor, RedactorConfig, RedactorOptions, Span};

/// One identifier: `text[start..end]` is of `kind`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Label {
    pub start: usize,
    pub end: usize,
    pub kind: Kind,
}

#[derive(Debug, Clone)]
pub struct Doc {
    pub family: &'static str,
    pub text: String,
    /// Sorted, non-overlapping.
    pub labels: Vec<Label>,
}

pub struct Set {
    pub docs: Vec<Doc>,
    /// Full names of a third of the patients, as a profile's roster (`phi_names`) would list
    /// them.
    pub roster: Vec<String>,
    /// The practice, its sites, staff and payers (the profile's `phi_keep`): never PHI.
    pub keep: Vec<String>,
}

#[derive(Default, Clone, Copy)]
struct Row {
    labelled: usize,
    found: usize,
    predicted: usize,
    correct: usize,
}

fn pct(a: usize, b: usize) -> String {
    if b == 0 {
        "-".to_string()
    } else {
        format!("{:.1}%", 100.0 * a as f64 / b as f64)
    }
}

/// `text[start..end]` with up to 40 bytes either side, the part marked `[[...]]`, on one line.
fn context(text: &str, start: usize, end: usize) -> String {
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
    .replace('\r', "\\r")
    .replace('\n', "\\n")
}

/// Every kind the blind sets label: `Kind::ALL` but its last, `Condition` (redacted only when
/// a profile opts in, so no set labels it).
pub const IDENTIFIERS: &[Kind] = Kind::ALL.split_last().unwrap().1;
const _: () = assert!(matches!(Kind::ALL[Kind::ALL.len() - 1], Kind::Condition));

/// What a generated set must hold to be worth measuring.
pub struct Sanity {
    pub min_docs: usize,
    pub min_families: usize,
    pub families: &'static [&'static str],
    /// Kinds that must be labelled at least once (a subset of [`IDENTIFIERS`]).
    pub kinds: &'static [Kind],
}

/// Labels inside their text, on character boundaries, not blank, sorted and not overlapping;
/// every family with at least 20 identifiers and every kind asked for present.
fn check_sane(docs: &[Doc], sanity: &Sanity) {
    assert!(docs.len() >= sanity.min_docs, "{} documents", docs.len());
    let families: BTreeSet<&str> = docs.iter().map(|d| d.family).collect();
    assert!(
        families.len() >= sanity.min_families,
        "{} families",
        families.len()
    );
    assert_eq!(families.len(), sanity.families.len());
    let mut per_family: BTreeMap<&str, usize> = BTreeMap::new();
    let mut kinds = BTreeSet::new();
    for d in docs {
        assert!(!d.labels.is_empty(), "a document without identifiers");
        *per_family.entry(d.family).or_default() += d.labels.len();
        let mut last_end = 0;
        for l in &d.labels {
            assert!(
                l.start < l.end && l.end <= d.text.len(),
                "label out of text"
            );
            assert!(d.text.is_char_boundary(l.start) && d.text.is_char_boundary(l.end));
            assert!(!d.text[l.start..l.end].trim().is_empty(), "blank label");
            assert!(l.start >= last_end, "overlapping labels in {:?}", d.text);
            last_end = l.end;
            kinds.insert(l.kind);
        }
    }
    for f in sanity.families {
        assert!(
            per_family.get(f).copied().unwrap_or(0) >= 20,
            "family {f} has too few identifiers"
        );
    }
    for k in sanity.kinds {
        assert!(IDENTIFIERS.contains(k), "{k:?} is no kind the sets label");
        assert!(kinds.contains(k), "no identifier of kind {k:?}");
    }
}

/// What one run over the set measured, in percent.
#[derive(Debug, Clone, Copy)]
struct Scores {
    names: f64,
    all: f64,
    /// Share of predicted spans that overlap a label.
    precision: f64,
    /// Share of redacted non-blank bytes that lie inside a label: a span count cannot see one
    /// span swallowing a whole line, this does.
    char_precision: f64,
}

/// Prints the tables for `find` over `docs`.
fn measure(name: &str, find: &dyn Fn(&str) -> Vec<Span>, docs: &[Doc], show: bool) -> Scores {
    let mut kinds: BTreeMap<Kind, Row> = BTreeMap::new();
    let mut families: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    let mut misses = Vec::new();
    let mut false_pos = Vec::new();
    // (label kind, predicted kind) where a span overlaps a label of another kind.
    let mut confused: BTreeMap<(Kind, Kind), usize> = BTreeMap::new();
    let (mut redacted_bytes, mut redacted_in_labels) = (0usize, 0usize);
    for d in docs {
        let spans = find(&d.text);
        let mut covered = vec![false; d.text.len()];
        for s in &spans {
            covered[s.start..s.end].iter_mut().for_each(|c| *c = true);
        }
        let mut labelled = vec![false; d.text.len()];
        for l in &d.labels {
            labelled[l.start..l.end].iter_mut().for_each(|c| *c = true);
        }
        for (i, b) in d.text.bytes().enumerate() {
            if covered[i] && !b.is_ascii_whitespace() {
                redacted_bytes += 1;
                redacted_in_labels += usize::from(labelled[i]);
            }
        }
        let fam = families.entry(d.family).or_default();
        for l in &d.labels {
            let found = d.text.as_bytes()[l.start..l.end]
                .iter()
                .zip(&covered[l.start..l.end])
                .all(|(b, c)| *c || b.is_ascii_whitespace());
            let row = kinds.entry(l.kind).or_default();
            row.labelled += 1;
            fam.0 += 1;
            if found {
                row.found += 1;
                fam.1 += 1;
            } else {
                misses.push(format!(
                    "{:<10} {:<11} {}",
                    d.family,
                    format!("{:?}", l.kind),
                    context(&d.text, l.start, l.end)
                ));
            }
        }
        for s in &spans {
            let row = kinds.entry(s.kind).or_default();
            row.predicted += 1;
            let overlapped: Vec<_> = d
                .labels
                .iter()
                .filter(|l| s.start < l.end && l.start < s.end)
                .collect();
            if !overlapped.is_empty() {
                row.correct += 1;
                if overlapped.iter().all(|l| l.kind != s.kind) {
                    *confused.entry((overlapped[0].kind, s.kind)).or_default() += 1;
                }
            } else {
                false_pos.push(format!(
                    "{:<10} {:<11} {}",
                    d.family,
                    format!("{:?}", s.kind),
                    context(&d.text, s.start, s.end)
                ));
            }
        }
    }
    let mut total = Row::default();
    println!("\n== {name} ==");
    println!(
        "{:<11} {:>9} {:>6} {:>7} {:>10} {:>8} {:>10}",
        "kind", "labelled", "found", "recall", "predicted", "correct", "precision"
    );
    for (k, row) in &kinds {
        println!(
            "{:<11} {:>9} {:>6} {:>7} {:>10} {:>8} {:>10}",
            format!("{k:?}"),
            row.labelled,
            row.found,
            pct(row.found, row.labelled),
            row.predicted,
            row.correct,
            pct(row.correct, row.predicted)
        );
        total.labelled += row.labelled;
        total.found += row.found;
        total.predicted += row.predicted;
        total.correct += row.correct;
    }
    println!(
        "{:<11} {:>9} {:>6} {:>7} {:>10} {:>8} {:>10}",
        "ALL",
        total.labelled,
        total.found,
        pct(total.found, total.labelled),
        total.predicted,
        total.correct,
        pct(total.correct, total.predicted)
    );
    println!(
        "character precision: {} of {} redacted bytes inside labels ({})",
        redacted_in_labels,
        redacted_bytes,
        pct(redacted_in_labels, redacted_bytes)
    );
    println!(
        "\n{:<11} {:>9} {:>6} {:>7}",
        "family", "labelled", "found", "recall"
    );
    for (f, (n, found)) in &families {
        println!("{f:<11} {n:>9} {found:>6} {:>7}", pct(*found, *n));
    }
    if !confused.is_empty() {
        println!("\nspans of another kind than their label (label -> predicted: count)");
        for ((l, p), n) in &confused {
            println!("  {l:?} -> {p:?}: {n}");
        }
    }
    if show {
        println!("\n-- misses ({}) --", misses.len());
        misses.iter().for_each(|m| println!("{m}"));
        println!("\n-- false positives ({}) --", false_pos.len());
        false_pos.iter().for_each(|m| println!("{m}"));
    }
    let ratio = |a: usize, b: usize| 100.0 * a as f64 / b.max(1) as f64;
    let names = kinds.get(&Kind::Person).copied().unwrap_or_default();
    Scores {
        names: ratio(names.found, names.labelled),
        all: ratio(total.found, total.labelled),
        precision: ratio(total.correct, total.predicted),
        char_precision: ratio(redacted_in_labels, redacted_bytes),
    }
}

/// Floors a set's scores must reach, with and without the roster, in percent.
pub struct Floors {
    pub names: f64,
    pub all: f64,
    pub precision: f64,
    pub char_precision: f64,
}

fn floors(s: &Scores, f: &Floors) -> Result<(), String> {
    let checks = [
        ("names", s.names, f.names),
        ("all identifiers", s.all, f.all),
        ("precision", s.precision, f.precision),
        ("character precision", s.char_precision, f.char_precision),
    ];
    let failed: Vec<String> = checks
        .iter()
        .filter(|(_, got, floor)| got < floor)
        .map(|(what, got, floor)| format!("{what} {got:.1}% < {floor}%"))
        .collect();
    if failed.is_empty() {
        Ok(())
    } else {
        Err(failed.join(", "))
    }
}

fn redactor(names: Vec<String>, keep: &[String]) -> Redactor {
    let opts = RedactorOptions {
        keep: keep.to_vec(),
        redact_conditions: false,
    };
    Redactor::with_options(
        &RedactorConfig {
            names,
            patterns: vec![],
        },
        &opts,
    )
    .expect("builds")
}

/// Checks the set `generate` makes (sane, and the same when made again), prints the tables
/// with the roster and without it, and holds both to `floors`. `name` is the set's, for the
/// panic message.
pub fn evaluate(name: &str, generate: &dyn Fn() -> Set, sanity: &Sanity, bounds: &Floors) {
    let set = generate();
    check_sane(&set.docs, sanity);
    // Reproducible: the same seed gives the same documents.
    let again = generate();
    assert!(
        set.docs
            .iter()
            .zip(&again.docs)
            .all(|(a, b)| a.text == b.text && a.labels == b.labels)
    );
    let show = std::env::var("OPSDESK_SHOW_MISSES").is_ok_and(|v| v == "1");
    if std::env::var("OPSDESK_SHOW_DOCS").is_ok_and(|v| v == "1") {
        for d in &set.docs {
            println!("--- {} ---\n{}", d.family, d.text);
        }
    }
    let with_roster = redactor(set.roster.clone(), &set.keep);
    let scores = measure(
        &format!(
            "with a roster ({} names), {} documents",
            set.roster.len(),
            set.docs.len()
        ),
        &|text| with_roster.find(text).expect("find"),
        &set.docs,
        show,
    );
    if let Err(e) = floors(&scores, bounds) {
        panic!("{name}, with roster: {e}");
    }
    let without = redactor(Vec::new(), &set.keep);
    let scores = measure(
        &format!("without a roster, {} documents", set.docs.len()),
        &|text| without.find(text).expect("find"),
        &set.docs,
        show,
    );
    if let Err(e) = floors(&scores, bounds) {
        panic!("{name}, no roster: {e}");
    }
}

/// The floors are not vacuous: a redactor that finds nothing and one that redacts every line
/// whole both fail them on `docs`.
pub fn floors_fail_a_broken_redactor(docs: &[Doc], bounds: &Floors) {
    let nothing = measure("redacts nothing", &|_| Vec::new(), docs, false);
    assert!(floors(&nothing, bounds).is_err(), "{nothing:?}");
    let lines = |text: &str| {
        let mut spans = Vec::new();
        let mut start = 0;
        for line in text.split_inclusive('\n') {
            let body = line.trim_end_matches(['\n', '\r']);
            if !body.is_empty() {
                spans.push(Span {
                    kind: Kind::Person,
                    start,
                    end: start + body.len(),
                });
            }
            start += line.len();
        }
        spans
    };
    let everything = measure("redacts every line", &lines, docs, false);
    assert!(everything.all > 99.0, "{everything:?}");
    assert!(floors(&everything, bounds).is_err(), "{everything:?}");
}
