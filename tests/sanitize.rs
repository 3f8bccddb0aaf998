//! Inbound content is untrusted (DESIGN principle 4): whatever arrives, nothing that reaches
//! the inbox, a terminal, a toast or a log can drive a terminal, reorder or hide text, or
//! exceed its bounds.
//!
//! Driven by `tests/fixtures/hostile.json`, a corpus of hostile inputs, each
//! `{name, input, html?, keep?, drop?}`: `keep` strings must survive in the cleaned text (so
//! sanitizing removes the attack, not the message), `drop` strings must appear in no output.
//! The corpus is shared with the `watch` and console tests.

use std::collections::{BTreeMap, HashSet};

use opsdesk::domain::{Channel, NewMessage, Party, to_record};
use opsdesk::sanitize::{
    MAX_FIELD_CHARS, MAX_PREVIEW_CHARS, MAX_TEXT_CHARS, clean_text, escape_markup, for_terminal,
    html_to_text, one_line,
};
use serde::Deserialize;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct Case {
    name: String,
    input: String,
    #[serde(default)]
    html: bool,
    #[serde(default)]
    keep: Vec<String>,
    #[serde(default)]
    drop: Vec<String>,
}

fn corpus() -> Vec<Case> {
    serde_json::from_str(include_str!("fixtures/hostile.json")).expect("hostile.json parses")
}

/// Characters no sanitized output may contain. Written out independently of the
/// implementation's own tables, as the specification.
fn forbidden(c: char, layout_allowed: bool) -> bool {
    let layout = c == '\n' || c == '\t';
    c == '\u{1b}'
        || (c < ' ' && !(layout_allowed && layout))
        || c == '\u{7f}'
        || ('\u{80}'..='\u{9f}').contains(&c) // C1, as code points
        || matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{200e}' | '\u{200f}' | '\u{061c}') // bidi
        || matches!(c, '\u{200b}'..='\u{200d}' | '\u{2060}'..='\u{2064}' | '\u{feff}' | '\u{180e}' | '\u{00ad}') // invisible
        || ('\u{e0000}'..='\u{e007f}').contains(&c) // tag characters
}

#[track_caller]
fn assert_clean(what: &str, case: &str, s: &str, layout_allowed: bool) {
    if let Some((i, c)) = s
        .char_indices()
        .find(|&(_, c)| forbidden(c, layout_allowed))
    {
        panic!(
            "{case}: {what} contains U+{:04X} at byte {i}: {s:?}",
            c as u32
        );
    }
}

#[track_caller]
fn assert_chars_at_most(what: &str, case: &str, s: &str, max: usize) {
    let n = s.chars().count();
    assert!(n <= max, "{case}: {what} has {n} chars, more than {max}");
}

fn message(case: &Case) -> NewMessage {
    let mut meta = BTreeMap::new();
    meta.insert(
        "note".to_string(),
        serde_json::Value::String(case.input.clone()),
    );
    meta.insert(
        case.input.clone(),
        serde_json::json!({ "nested": [case.input.clone()] }),
    );
    NewMessage {
        id: format!("hostile:{}", case.name),
        profile: "work".into(),
        channel: Channel::Teams,
        thread_id: Some(case.input.clone()),
        from: Party::new(case.input.clone(), case.input.clone()),
        to: vec![Party::new(case.input.clone(), "ok@example.com")],
        subject: Some(case.input.clone()),
        ts: time::OffsetDateTime::now_utc(),
        body: case.input.clone(),
        html: case.html,
        meta,
        attachments: Vec::new(),
    }
}

/// Every string in a JSON value, keys included.
fn strings(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(a) => a.iter().for_each(|v| strings(v, out)),
        serde_json::Value::Object(m) => m.iter().for_each(|(k, v)| {
            out.push(k.clone());
            strings(v, out)
        }),
        _ => {}
    }
}

/// All outputs for one input, checked for cleanliness and bounds.
fn check(case: &Case) {
    let name = case.name.as_str();
    let text = if case.html {
        html_to_text(&case.input, MAX_TEXT_CHARS)
    } else {
        clean_text(&case.input, MAX_TEXT_CHARS)
    };
    assert_clean("clean text", name, &text, true);
    assert_chars_at_most("clean text", name, &text, MAX_TEXT_CHARS);
    assert_eq!(text, text.trim(), "{name}: clean text is trimmed");
    assert!(
        !text.contains("\n\n\n\n"),
        "{name}: at most two blank lines in a row"
    );

    let line = one_line(&case.input, MAX_PREVIEW_CHARS);
    assert_clean("one_line", name, &line, false);
    assert_chars_at_most("one_line", name, &line, MAX_PREVIEW_CHARS);
    assert!(
        !line.contains("  "),
        "{name}: one_line collapses whitespace: {line:?}"
    );

    let term = for_terminal(&case.input);
    assert_clean("for_terminal", name, &term, false);
    assert_eq!(
        for_terminal(&term),
        term,
        "{name}: for_terminal is idempotent"
    );
    assert_eq!(
        clean_text(&text, MAX_TEXT_CHARS),
        text,
        "{name}: clean_text is idempotent"
    );

    let toast = escape_markup(&term);
    assert!(
        !toast.contains(['<', '>', '"', '\'']),
        "{name}: markup escaped: {toast:?}"
    );

    let rec = to_record(message(case)).unwrap_or_else(|e| panic!("{name}: to_record failed: {e}"));
    assert!(rec.untrusted);
    assert_clean("record text", name, &rec.text, true);
    assert_chars_at_most("record text", name, &rec.text, MAX_TEXT_CHARS);
    assert_clean("record preview", name, &rec.preview, false);
    assert_chars_at_most("record preview", name, &rec.preview, MAX_PREVIEW_CHARS);
    let mut fields = vec![rec.from.name.clone(), rec.from.address.clone()];
    fields.extend(rec.subject.clone());
    fields.extend(rec.thread_id.clone());
    fields.extend(
        rec.to
            .iter()
            .flat_map(|p| [p.name.clone(), p.address.clone()]),
    );
    for (k, v) in &rec.meta {
        fields.push(k.clone());
        strings(v, &mut fields);
    }
    for f in &fields {
        assert_clean("record field", name, f, false);
        assert_chars_at_most("record field", name, f, MAX_FIELD_CHARS);
    }

    for k in &case.keep {
        assert!(
            text.contains(k.as_str()),
            "{name}: cleaned text lost {k:?}: {text:?}"
        );
        if !case.html {
            let flat = one_line(k, usize::MAX);
            assert!(
                one_line(&case.input, usize::MAX).contains(&flat),
                "{name}: one_line lost {flat:?}: {:?}",
                one_line(&case.input, usize::MAX)
            );
        }
    }
    for d in &case.drop {
        for (what, out) in [
            ("clean text", &text),
            ("record text", &rec.text),
            ("record preview", &rec.preview),
        ] {
            assert!(
                !out.contains(d.as_str()),
                "{name}: {what} still contains {d:?}: {out:?}"
            );
        }
        if !case.html {
            assert!(
                !term.contains(d.as_str()),
                "{name}: for_terminal still contains {d:?}: {term:?}"
            );
        }
    }
}

#[test]
fn the_corpus_is_substantial_and_well_formed() {
    let cases = corpus();
    assert!(cases.len() >= 20, "only {} cases", cases.len());
    let names: HashSet<_> = cases.iter().map(|c| c.name.as_str()).collect();
    assert_eq!(names.len(), cases.len(), "case names are unique");
    assert!(cases.iter().any(|c| c.html) && cases.iter().any(|c| !c.html));
    for c in cases.iter().filter(|c| !c.html) {
        assert_ne!(
            clean_text(&c.input, usize::MAX),
            c.input,
            "{}: every case has something to remove",
            c.name
        );
    }
}

#[test]
fn every_hostile_input_comes_out_clean_bounded_and_readable() {
    for case in corpus() {
        check(&case);
    }
}

#[test]
fn the_whole_corpus_as_plain_text_and_as_html_is_clean() {
    // Attacks combined, and HTML attacks read as text (a mislabelled body).
    let all: String = corpus()
        .iter()
        .map(|c| c.input.as_str())
        .collect::<Vec<_>>()
        .join("\n");
    for html in [false, true] {
        check(&Case {
            name: format!("everything (html: {html})"),
            input: all.clone(),
            html,
            keep: vec![],
            drop: vec![],
        });
    }
}

#[test]
fn a_megabyte_of_hostile_input_is_bounded() {
    let seed: String = corpus().iter().map(|c| c.input.as_str()).collect();
    let huge = seed.repeat(1_000_000 / seed.len() + 1);
    assert!(huge.len() >= 1_000_000);
    for html in [false, true] {
        check(&Case {
            name: format!("1 MB (html: {html})"),
            input: huge.clone(),
            html,
            keep: vec![],
            drop: vec![],
        });
    }
    let text = clean_text(&"a".repeat(1_000_000), MAX_TEXT_CHARS);
    assert_eq!(text.chars().count(), MAX_TEXT_CHARS);
    assert!(text.ends_with('…'), "a cut is marked");
}

#[test]
fn deeply_nested_html_is_converted_quickly_and_cleanly() {
    // The HTML converter's cost grows with the square of the depth; sanitizing must not.
    for open in [
        "<div>",
        "<ul><li>",
        "<table><tr><td>",
        "<font><i><u><s>",
        "<blockquote>",
    ] {
        let deep = format!(
            "{}deep \u{1b}[31mtext{}",
            open.repeat(20_000),
            "</div>".repeat(100)
        );
        let started = std::time::Instant::now();
        let text = html_to_text(&deep, MAX_TEXT_CHARS);
        assert!(text.contains("deep text"), "{open}: {text:?}");
        assert_clean("deep html", open, &text, true);
        // Generous for a debug build on a busy machine; unbounded conversion takes minutes.
        assert!(
            started.elapsed().as_secs() < 20,
            "{open}: took {:?}",
            started.elapsed()
        );
    }
}

#[test]
fn random_mixtures_of_dangerous_characters_never_escape() {
    // A small deterministic fuzzer over the characters escape parsing cares about.
    const ALPHABET: &[char] = &[
        '\u{1b}',
        '[',
        ']',
        '\\',
        ';',
        '?',
        '0',
        '1',
        '5',
        '2',
        '8',
        'm',
        'P',
        '_',
        '^',
        'X',
        'a',
        ' ',
        '\n',
        '\r',
        '\t',
        '\u{7}',
        '\u{18}',
        '\u{9b}',
        '\u{9c}',
        '\u{9d}',
        '\u{90}',
        '\u{85}',
        '\u{202e}',
        '\u{2066}',
        '\u{200b}',
        '\u{200d}',
        '\u{fe0f}',
        '\u{301}',
        '\u{e0041}',
        '\u{e0100}',
        '<',
        '>',
        '&',
        '#',
        'é',
        '😀',
    ];
    let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for i in 0..3_000 {
        let len = (next() % 64) as usize;
        let input: String = (0..len)
            .map(|_| ALPHABET[(next() % ALPHABET.len() as u64) as usize])
            .collect();
        check(&Case {
            name: format!("fuzz #{i}: {input:?}"),
            input,
            html: i % 5 == 0,
            keep: vec![],
            drop: vec![],
        });
    }
}

#[test]
fn invalid_utf8_read_lossily_is_clean_too() {
    // Raw 8-bit C1 bytes cannot live in a &str; read lossily they become U+FFFD, never CSI.
    let bytes = b"\x9b31mred\x1b[0m \xff\xfe \x9d8;;x\x9c";
    let s = String::from_utf8_lossy(bytes);
    let text = clean_text(&s, MAX_TEXT_CHARS);
    assert_clean("lossy", "lossy", &text, true);
    assert!(text.contains("red"));
}

mod outbound {
    use opsdesk::domain::Outbound;
    use opsdesk::domain::check_outbound;

    fn email(to: &str, subject: &str, body: &str) -> Outbound {
        Outbound::SendEmail {
            to: vec![to.into()],
            cc: vec![],
            subject: subject.into(),
            body: body.into(),
            attachments: Vec::new(),
            body_html: None,
        }
    }

    #[test]
    fn hidden_and_control_characters_are_refused_naming_the_field() {
        let cases = [
            (email("a@b.co", "hi\u{0}", "x"), "subject", "NUL"),
            (
                email("a@b.co", "hi", "x\u{1b}[2Jy"),
                "body",
                "terminal escape",
            ),
            (
                email("a@b.co", "pay \u{202e}kcab", "x"),
                "subject",
                "bidirectional",
            ),
            (
                email("a@b.co", "hi", "ap\u{200b}prove"),
                "body",
                "zero-width",
            ),
            (email("a\u{feff}@b.co", "hi", "x"), "to", "zero-width"),
            (
                email("a@b.co", "hi\r\nBcc: c@d.co", "x"),
                "subject",
                "line break",
            ),
            (
                Outbound::PostChat {
                    chat_id: "c1".into(),
                    body: "\u{2066}x\u{2069}".into(),
                },
                "body",
                "bidirectional",
            ),
        ];
        for (o, field, what) in cases {
            let e = check_outbound(&o).expect_err(field);
            assert_eq!(e.field, field, "{e}");
            assert!(e.to_string().contains(what), "{e}");
            assert!(e.to_string().starts_with(field), "{e}");
        }
    }

    #[test]
    fn ordinary_text_lines_tabs_and_emoji_pass() {
        let body = "Dear Ada,\r\n\tthanks — see you at 10:00.\n👨\u{200d}👩\u{200d}👧 ✔\u{fe0f}";
        check_outbound(&email("Ada <ada@b.co>", "Re: Über déjà vu", body)).unwrap();
        // A joiner not between emoji is still hidden text.
        assert!(check_outbound(&email("a@b.co", "x", "a\u{200d}b")).is_err());
    }
}
