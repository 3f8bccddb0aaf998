//! The PHI redactor against the fourth blind evaluation set (tests/redaction_blind4: 20
//! families — X12 837/835 segments, C-CDA XML, FHIR JSON, prenatal notes, infusion schedules,
//! dialysis run sheets, hospice visits, workers' comp letters, school nurse logs, records
//! requests, EOB statements, interpreter notes, trial screening logs, ophthalmology, physical
//! therapy, fax covers, vCards and contact cards, calendar invites, Spanish patient messages,
//! emails with quoted replies — written without reading the redactor's rules or the other
//! sets; the holdout for the round of rules written alongside it), with a roster of a third of
//! the patients and without one. Prints recall and precision per kind, recall per family and
//! a character precision; asserts that the generated set is sane and, loosely, that the
//! redactor finds most of it without redacting everything.
//! `cargo test --test redaction_blind4 -- --nocapture` shows the tables;
//! `OPSDESK_SHOW_MISSES=1` adds every miss and false positive in context,
//! `OPSDESK_SHOW_DOCS=1` every document.
//!
//! First figures (the redactor of main at bc11650, 2026-12-06; 600 documents, 7,965
//! labels, after the lead unlabelled the C-CDA template's version date): with a roster of 230
//! names all 92.2%, names 95.2%, precision 84.5%, character precision 79.8%; without a roster
//! all 90.5%, names 88.3%, precision 84.2%, character precision 79.6%. Weakest kinds: Room
//! 26.9% (infusion and dialysis chairs, bare numbers in tables), Zip 81.6%, Address 84.0%
//! (cities in XML/EDI/vCard fields, upper-case mail blocks), HealthPlan 91.7%, Date 92.7%
//! (`8-JUN-26`, Spanish `14 de marzo de 1961`, ISA `YYMMDD`); weakest families x12
//! 78.9/72.1%, spanish 78.4/73.8%, infusion 68.5%, ccda 86.0/74.2%. Lowest precision: Url
//! 28.6% (FHIR system and Teams links), Device 48.1% (lots), Ip 48.3% (OIDs), License 50.0%
//! (NPIs), Mrn 71.4% (control and PO numbers).

// The crate root shares the directory's name, so the module's file must be named outright.
#[path = "redaction_blind4/mod.rs"]
mod redaction_blind4;

use std::collections::{BTreeMap, BTreeSet};

use opsdesk::governance::redact::{Kind, Redactor, RedactorConfig, RedactorOptions, Span};
use redaction_blind4::{Doc, FAMILIES, generate};

const SEED: u64 = 0x4B11_D4A7_2026_1206;
const DOCS: usize = 600;

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

fn check_sane(docs: &[Doc]) {
    assert!(docs.len() >= 560, "{} documents", docs.len());
    let families: BTreeSet<&str> = docs.iter().map(|d| d.family).collect();
    assert!(families.len() >= 16, "{} families", families.len());
    assert_eq!(families.len(), FAMILIES.len());
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
    for f in FAMILIES {
        assert!(
            per_family.get(f).copied().unwrap_or(0) >= 20,
            "family {f} has too few identifiers"
        );
    }
    for k in [
        Kind::Person,
        Kind::Phone,
        Kind::Fax,
        Kind::Email,
        Kind::Ssn,
        Kind::Mrn,
        Kind::HealthPlan,
        Kind::Account,
        Kind::Date,
        Kind::Age,
        Kind::Address,
        Kind::Zip,
        Kind::Card,
        Kind::Device,
        Kind::Room,
        Kind::Vehicle,
        Kind::License,
        Kind::Ip,
        Kind::Url,
    ] {
        assert!(kinds.contains(&k), "no identifier of kind {k:?}");
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

/// Floors just under what the redactor measured once this set became a development set
/// (2026-12-06, with and without the roster): a rule that costs it recall or precision fails
/// here. A redactor that redacts nothing, or whole lines, fails them too.
fn floors(s: &Scores) -> Result<(), String> {
    let checks = [
        ("names", s.names, 98.0),
        ("all identifiers", s.all, 99.0),
        ("precision", s.precision, 97.0),
        ("character precision", s.char_precision, 92.0),
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

#[test]
fn redactor_on_the_fourth_blind_set() {
    let set = generate(SEED, DOCS);
    check_sane(&set.docs);
    // Reproducible: the same seed gives the same documents.
    let again = generate(SEED, DOCS);
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
    if let Err(e) = floors(&scores) {
        panic!("fourth blind set, with roster: {e}");
    }
    let without = redactor(Vec::new(), &set.keep);
    let scores = measure(
        &format!("without a roster, {} documents", set.docs.len()),
        &|text| without.find(text).expect("find"),
        &set.docs,
        show,
    );
    if let Err(e) = floors(&scores) {
        panic!("fourth blind set, no roster: {e}");
    }
}

/// The floors above are not vacuous: a redactor that finds nothing and one that redacts every
/// line whole both fail them.
#[test]
fn the_floors_fail_a_broken_redactor() {
    let set = generate(SEED, 64);
    let nothing = measure("redacts nothing", &|_| Vec::new(), &set.docs, false);
    assert!(floors(&nothing).is_err(), "{nothing:?}");
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
    let everything = measure("redacts every line", &lines, &set.docs, false);
    assert!(everything.all > 99.0, "{everything:?}");
    assert!(floors(&everything).is_err(), "{everything:?}");
}
