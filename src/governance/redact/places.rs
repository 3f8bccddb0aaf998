//! What follows a street line on the same line, read word by word: the city written without
//! the comma ("7869 3rd Way, Unit 15 Lowell MA 65182", "7629 Riverside Street Minneapolis"),
//! and a ZIP after the city with no state ("Columbus 19554", "Chicago 76996-2806"). And a
//! payer's or organisation's remittance box ("Medicaid\nP.O. Box 14079") is not a patient's.

use super::lexicon::LEXICON;
use super::words::{STATE_NAMES, STATES, TITLE_CASE_TERMS, not_a_name};
use super::{Kind, Span};

/// Rank of a city or ZIP read after a street: with the street rules.
const PRIO: u8 = 39;

/// Adds the city and ZIP after every street line among `cands`; drops the address candidates
/// of a post office box whose line follows an organisation's name.
pub(super) fn after_streets(text: &str, cands: &mut Vec<(Span, u8)>) {
    let mut ends: Vec<usize> = cands
        .iter()
        .filter(|(s, _)| {
            // A street line has a number somewhere ("12 Elm St", "W4747 Saltgrass Way",
            // "County Road 437", "Schillerstraße 118", "ul. Polna 77/10"); a city has none.
            s.kind == Kind::Address
                && s.end > s.start
                && text[s.start..s.end].bytes().any(|b| b.is_ascii_digit())
        })
        .map(|(s, _)| s.end)
        .collect();
    ends.sort_unstable();
    ends.dedup();
    for end in ends {
        follow(text, end, cands);
    }
    // A state is no identifier (Safe Harbor keeps it): an address that ends with one ends
    // before it ("8320 Sycamore Ln, Dayton, OH" → "8320 Sycamore Ln, Dayton").
    for (s, _) in cands.iter_mut() {
        if s.kind == Kind::Address {
            s.end = s.start + without_state(&text[s.start..s.end]).len();
        }
    }
    // Line starts looked up, not scanned for once per candidate (a one-line text has many).
    let breaks: Vec<usize> = memchr::memchr2_iter(b'\n', b'\r', text.as_bytes()).collect();
    let line_of = |at: usize| match breaks.partition_point(|&b| b < at) {
        0 => 0,
        i => breaks[i - 1] + 1,
    };
    cands.retain(|(s, _)| {
        // (A name on that line is its town's: a roster's "Hill" in "Camp Hill, PA".)
        !(matches!(s.kind, Kind::Address | Kind::Zip | Kind::Person)
            && payer_box(text, line_of(s.start)))
    });
}

/// Adds the other rooms of a list a plural label heads ("Dirty beds: 10A, 14B", "Rooms 412,
/// 414 and 3-16", "beds 4/5"): the room rules take the first number after the label, each
/// number after it joined by a comma, "and", "&" or a slash is a room too. A bounded look
/// after each room found, no scan of the text.
pub(super) fn room_lists(text: &str, cands: &mut Vec<(Span, u8)>) {
    let mut firsts: Vec<(usize, u8)> = cands
        .iter()
        .filter(|(s, _)| s.kind == Kind::Room && plural_room_label(text, s.start))
        .map(|(s, p)| (s.end, *p))
        .collect();
    firsts.sort_unstable();
    firsts.dedup_by_key(|f| f.0);
    for (mut end, prio) in firsts {
        // (A long list is still bounded by its line: each step moves on past a room.)
        while let Some((start, stop)) = next_listed_room(text, end) {
            if super::rules::facility_room(text, start, stop) {
                break;
            }
            cands.push((
                Span {
                    kind: Kind::Room,
                    start,
                    end: stop,
                },
                prio,
            ));
            end = stop;
        }
    }
}

/// Whether the words right before `start` are a plural label of rooms or beds ("beds:",
/// "Rooms", "rms #").
fn plural_room_label(text: &str, start: usize) -> bool {
    let mut from = start.saturating_sub(12);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let before = text[from..start]
        .trim_end_matches([' ', '\t', ':', '#', '-'])
        .to_ascii_lowercase();
    ["beds", "rooms", "rms", "bays", "cells", "pods", "chairs"]
        .iter()
        .any(|w| {
            before.ends_with(w)
                && !before[..before.len() - w.len()].ends_with(|c: char| c.is_ascii_alphabetic())
        })
}

/// The room after `end` joined to it as a list joins: a comma, "and", "&" or "/" and a room's
/// number ("10A", "412", "3-16").
fn next_listed_room(text: &str, end: usize) -> Option<(usize, usize)> {
    let rest = &text[end..];
    let t = rest.trim_start_matches([' ', '\t']);
    let t = ["and ", "& ", ",", "/", "&"]
        .iter()
        .find_map(|j| t.strip_prefix(j))?;
    let t = t.trim_start_matches([' ', '\t']);
    let t = t
        .strip_prefix("and ")
        .unwrap_or(t)
        .trim_start_matches([' ', '\t']);
    let start = end + (rest.len() - t.len());
    let b = t.as_bytes();
    let mut n = b.iter().take_while(|c| c.is_ascii_digit()).count();
    if !(1..=4).contains(&n) {
        return None;
    }
    if b.get(n) == Some(&b'-') && b.get(n + 1).is_some_and(u8::is_ascii_digit) {
        let more = b[n + 1..].iter().take_while(|c| c.is_ascii_digit()).count();
        if more > 3 {
            return None;
        }
        n += 1 + more;
    }
    let digits_only = !t[..n].contains('-');
    if b.get(n).is_some_and(u8::is_ascii_alphabetic) {
        n += 1;
    } else if digits_only && n < 2 {
        // "Beds 12, 2 patients waiting": a single digit is a count more often than a bed.
        return None;
    }
    // A room ends at a blank, a stop or the line's end, not inside a word or a number.
    if b.get(n)
        .is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'-')
    {
        return None;
    }
    Some((start, start + n))
}

/// `v` without a state (its code or its name) that ends it after a blank or a comma, when
/// something is left before it.
fn without_state(v: &str) -> &str {
    let Some(at) = v.rfind([' ', ',', '\t']) else {
        return v;
    };
    let last = &v[at + 1..];
    let head = v[..at].trim_end_matches([' ', ',', '\t']);
    let is_state = STATES.split('|').any(|s| s == last)
        || STATE_NAMES
            .split('|')
            .any(|s| s == last || v.ends_with(&format!(" {s}")));
    if !is_state || head.is_empty() || !head.contains(' ') {
        return v;
    }
    // "1860 SYCAMORE CT", "40 ELK WY": a state's code that is also a street's type ends a
    // street line that has no type before it (a city between them has a comma or a type
    // before it: "12 Main St Hartford CT").
    if matches!(last, "CT" | "WY")
        && !head.contains(',')
        && !head
            .split_whitespace()
            .skip(1)
            .any(|w| STREET_TYPES.contains(&w.trim_end_matches('.').to_ascii_lowercase().as_str()))
    {
        return v;
    }
    match STATE_NAMES
        .split('|')
        .find(|s| s.contains(' ') && v.ends_with(&format!(" {s}")))
    {
        Some(s) => v[..v.len() - s.len()].trim_end_matches([' ', ',', '\t']),
        None => head,
    }
}

/// A street's type, written out or abbreviated (lower case).
const STREET_TYPES: &[&str] = &[
    "street",
    "st",
    "avenue",
    "ave",
    "av",
    "road",
    "rd",
    "boulevard",
    "blvd",
    "lane",
    "ln",
    "drive",
    "dr",
    "way",
    "wy",
    "court",
    "ct",
    "place",
    "pl",
    "terrace",
    "ter",
    "circle",
    "cir",
    "parkway",
    "pkwy",
    "highway",
    "hwy",
    "square",
    "sq",
    "trail",
    "trl",
    "loop",
    "row",
    "path",
    "pike",
    "alley",
    "aly",
    "plaza",
    "plz",
    "crescent",
    "close",
    "run",
    "ridge",
    "cove",
    "bend",
    "glen",
    "heights",
    "hts",
    "walk",
    "grove",
    "park",
    "pass",
    "landing",
    "route",
    "rte",
    "trace",
    "chase",
    "bluff",
    "spur",
];

/// The abbreviations that open a city's name: "St. Cloud", "Port St. Lucie", "Ft. Myers".
const CITY_ABBREVIATIONS: [&str; 5] = ["St.", "Ste.", "Mt.", "Ft.", "Pt."];

/// One word of a city: a capital, then letters (a hyphen or apostrophe inside), or one of
/// [`CITY_ABBREVIATIONS`].
fn city_word(r: &str) -> usize {
    if let Some(a) = CITY_ABBREVIATIONS.iter().find(|a| r.starts_with(*a)) {
        return a.len();
    }
    let mut cs = r.char_indices();
    if !cs.next().is_some_and(|(_, c)| c.is_uppercase()) {
        return 0;
    }
    let mut len = r.chars().next().map_or(0, char::len_utf8);
    for (i, c) in cs {
        if c.is_alphabetic() || c == '-' || c == '\'' || c == '’' {
            len = i + c.len_utf8();
        } else {
            break;
        }
    }
    len
}

fn follow(text: &str, end: usize, cands: &mut Vec<(Span, u8)>) {
    // The town and ZIP follow within a few words: a bounded look, not the rest of a possibly
    // one-line text (this runs once per street).
    let limit = text.floor_char_boundary(end + 256);
    let line_end =
        memchr::memchr2(b'\n', b'\r', &text.as_bytes()[end..limit]).map_or(limit, |p| end + p);
    let rest = &text[end..line_end];
    let mut at = rest.len() - rest.trim_start_matches([',', ' ', '\t']).len();
    if let Some((s, e)) = cue_city(rest) {
        cands.push((
            Span {
                kind: Kind::Address,
                start: end + s,
                end: end + e,
            },
            PRIO,
        ));
        return;
    }
    if at == 0 || rest[..at].matches(',').count() > 1 {
        return;
    }
    if let Some((city, zip)) = lower_city(rest, at) {
        for (kind, (s, e)) in [(Kind::Address, city), (Kind::Zip, zip)] {
            cands.push((
                Span {
                    kind,
                    start: end + s,
                    end: end + e,
                },
                PRIO,
            ));
        }
        return;
    }
    // A postcode before the city, as most of Europe writes it ("Schillerstraße 118, 10115
    // Berlin", "41 rue des Tanneurs, 75011 Paris"): the ZIP, then the city read as below.
    let mut pre_zip = None;
    let digits = rest[at..].bytes().take_while(u8::is_ascii_digit).count();
    if (4..=5).contains(&digits) && rest[..at].contains(',') {
        let z_end = plus_four(rest, at + digits);
        if rest[z_end..].starts_with(' ') && rest[z_end + 1..].starts_with(char::is_uppercase) {
            if digits == 5 {
                pre_zip = Some((at, z_end));
            }
            at = z_end + 1;
        }
    }
    // Up to three capitalised words, one blank between.
    let mut words: Vec<(usize, usize)> = Vec::new();
    while words.len() < 3 {
        let len = city_word(&rest[at..]);
        if len < 2 {
            break;
        }
        let w = &rest[at..at + len];
        if STATES.split('|').any(|s| s == w)
            || STATE_NAMES.split('|').any(|s| s == w)
            // A phone's label after the city ("OTTUMWA PH 555…").
            || ["PH", "Ph", "TEL", "Tel", "PHONE", "Phone", "FAX", "Fax", "CELL", "Cell"].contains(&w)
        {
            break;
        }
        words.push((at, at + len));
        at += len;
        // After a European postcode, a town's name may hold a lower-case joint between its
        // capitalised words ("79098 Freiburg im Breisgau", "60311 Frankfurt am Main").
        if pre_zip.is_some()
            && let Some(joint) = TOWN_JOINTS.iter().find(|j| {
                rest[at..]
                    .strip_prefix(**j)
                    .is_some_and(|r| r.starts_with(char::is_uppercase))
            })
        {
            at += joint.len();
            continue;
        }
        if !rest[at..].starts_with(' ') || !rest[at + 1..].starts_with(char::is_uppercase) {
            break;
        }
        at += 1;
    }
    let Some(&(c_start, _)) = words.first() else {
        return;
    };
    let c_end = words.last().map_or(c_start, |w| w.1);
    // What may close the city: a state, a ZIP, or both.
    let mut p = c_end;
    let skip =
        |p: usize| p + rest[p..].len() - rest[p..].trim_start_matches([',', ' ', '\t']).len();
    let mut state = false;
    let q = skip(p);
    if let Some(len) = STATES
        .split('|')
        .chain(STATE_NAMES.split('|'))
        .find(|s| {
            rest[q..].starts_with(*s) && !rest[q + s.len()..].starts_with(char::is_alphanumeric)
        })
        .map(str::len)
    {
        state = true;
        p = q + len;
    }
    let q = skip(p);
    let digits = rest[q..].bytes().take_while(u8::is_ascii_digit).count();
    let mut zip = None;
    if digits == 5 && q > p {
        let z_end = plus_four(rest, q + 5);
        if !rest[z_end..].starts_with(|c: char| c.is_alphanumeric()) {
            zip = Some((q, z_end));
        }
    }
    // Without a state or ZIP to close it, only words no dictionary knows (a city's name, not
    // "Please" or "Thanks"), at most two.
    let plain = |&(s, e): &(usize, usize)| {
        let w = &rest[s..e];
        if CITY_ABBREVIATIONS.contains(&w) {
            return false;
        }
        let i = LEXICON.info(w);
        i.common || i.stop || not_a_name(w) || TITLE_CASE_TERMS.contains(&w)
    };
    // A city after a comma that ends the line or opens a bracket ("…, Bowling Green
    // (roadway)") may be made of plain words, not of function words or non-names.
    let after = rest[c_end..].trim_start_matches([' ', '\t']);
    // (Or a sentence's end, "…, Lake Havasu City. Thanks", or a phone's label, as teletype
    // writes "…, OTTUMWA PH 555…".)
    let closed = rest[..at].contains(',')
        && (after.is_empty()
            || after.starts_with('(')
            || after.starts_with(['.', '!', ';'])
                && !after[1..].starts_with(|c: char| c.is_alphanumeric())
            || ["PH ", "PH:", "TEL ", "TEL:", "PHONE"]
                .iter()
                .any(|p| after.starts_with(p)));
    let function = |&(s, e): &(usize, usize)| {
        let w = &rest[s..e];
        !CITY_ABBREVIATIONS.contains(&w)
            && (LEXICON.info(w).stop || not_a_name(w) || TITLE_CASE_TERMS.contains(&w))
    };
    if pre_zip.is_some() && zip.is_none() {
        zip = pre_zip;
    }
    if !(state || zip.is_some())
        && (words.len() > 2 && !closed
            || if closed {
                words.iter().any(function)
            } else {
                words.iter().any(plain)
            })
    {
        return;
    }
    // A street closed by its abbreviation's stop and a blank ends a sentence ("Adresim: 7 Elm
    // Pkwy. Teşekkürler."): the next word opens the next one, unless a state or ZIP follows.
    if !(state || zip.is_some()) && text[..end].ends_with('.') && !rest[..c_start].contains(',') {
        return;
    }
    let span = |kind, s: usize, e: usize| {
        (
            Span {
                kind,
                start: end + s,
                end: end + e,
            },
            PRIO,
        )
    };
    cands.push(span(Kind::Address, c_start, c_end));
    if let Some((s, e)) = zip {
        cands.push(span(Kind::Zip, s, e));
    }
}

/// The lower-case joints inside a European town's name, blanks included: "Frankfurt am Main",
/// "Freiburg im Breisgau", "Neustadt an der Weinstraße", "Châlons en Champagne".
const TOWN_JOINTS: &[&str] = &[
    " am ", " im ", " an der ", " ob der ", " in der ", " bei ", " en ", " sur ",
];

/// Words that end a city's name and are common words too ("Lake Havasu City").
const CITY_TAILS: &[&str] = &[
    "city", "town", "falls", "springs", "beach", "heights", "village",
];

/// A town said after a street with a preposition, as speech and chat give it ("i live at 7277
/// quarry ridge cir in beaufort its the grey honda", "… out past escanaba", "near Dothan"): up
/// to three words up to a function word, at least one no dictionary knows (so "in bed", "in
/// pain", "near the door" are none); the town's range in `rest`.
fn cue_city(rest: &str) -> Option<(usize, usize)> {
    let t = rest.trim_start_matches([',', ' ', '\t']);
    let mut at = rest.len() - t.len();
    let lower = t.to_lowercase();
    let cue = [
        "out past ",
        "past ",
        "in ",
        "near ",
        "outside of ",
        "outside ",
    ]
    .iter()
    .find(|c| lower.starts_with(**c) && t.is_char_boundary(c.len()))?;
    at += cue.len();
    let mut words: Vec<(usize, usize)> = Vec::new();
    while words.len() < 3 {
        let len = rest[at..]
            .char_indices()
            .take_while(|&(_, c)| c.is_alphabetic() || c == '-' || c == '\'')
            .last()
            .map_or(0, |(i, c)| i + c.len_utf8());
        if len < 3 {
            break;
        }
        let w = &rest[at..at + len];
        let i = LEXICON.info(w);
        if i.stop || STATES.split('|').any(|s| s == w) {
            break;
        }
        words.push((at, at + len));
        at += len;
        if !rest[at..].starts_with(' ') {
            break;
        }
        at += 1;
    }
    while let Some(&(s, e)) = words.last() {
        let w = &rest[s..e];
        if LEXICON.info(w).common && !CITY_TAILS.contains(&w.to_lowercase().as_str()) {
            words.pop();
        } else {
            break;
        }
    }
    let (&(s, _), &(_, e)) = (words.first()?, words.last()?);
    // Not a word a dictionary knows nor a word that is no name ("in Spanish", "in January").
    let unknown = words.iter().any(|&(a, b)| {
        let w = &rest[a..b];
        let i = LEXICON.info(w);
        !i.common && !i.stop && !not_a_name(w)
    });
    unknown.then_some((s, e))
}

/// A city typed in lower case after a street typed so, closed by a state in any case and a ZIP
/// ("14881 persimmon st paducah, ky 42020"): the city's and the ZIP's ranges in `rest`. Without
/// the state and the ZIP, lower-case words after a street are prose.
fn lower_city(rest: &str, at: usize) -> Option<((usize, usize), (usize, usize))> {
    let mut p = at;
    for _ in 0..3 {
        let len = rest[p..]
            .char_indices()
            .take_while(|&(_, c)| c.is_lowercase() || c == '-' || c == '\'')
            .last()
            .map_or(0, |(i, c)| i + c.len_utf8());
        if len < 2 {
            return None;
        }
        let city_end = p + len;
        let q = city_end + rest[city_end..].len()
            - rest[city_end..].trim_start_matches([',', ' ', '\t']).len();
        let state = STATES.split('|').chain(STATE_NAMES.split('|')).find(|s| {
            rest.get(q..q + s.len())
                .is_some_and(|r| r.eq_ignore_ascii_case(s))
                && !rest[q + s.len()..].starts_with(char::is_alphanumeric)
        });
        if let Some(st) = state.filter(|_| q > city_end) {
            let z = q + st.len();
            let zs = z + rest[z..].len() - rest[z..].trim_start_matches([' ', '\t']).len();
            let five = rest[zs..].bytes().take_while(u8::is_ascii_digit).count();
            if five == 5 && zs > z {
                let ze = plus_four(rest, zs + 5);
                if !rest[ze..].starts_with(char::is_alphanumeric) {
                    return Some(((at, city_end), (zs, ze)));
                }
            }
        }
        if !rest[city_end..].starts_with(' ') {
            return None;
        }
        p = city_end + 1;
    }
    None
}

/// Whether the line at `start` is a post office box under a line naming a payer or an
/// organisation ("Medicaid\nP.O. Box 14079"): the payer's remittance address.
fn payer_box(text: &str, start: usize) -> bool {
    let start = start + text[start..].len() - text[start..].trim_start_matches([' ', '\t']).len();
    let head: String = text[start..]
        .chars()
        .filter(|c| c.is_alphabetic())
        .take(5)
        .collect::<String>()
        .to_lowercase();
    if !head.starts_with("pobox") {
        return false;
    }
    let line_start = super::line_start(text, start);
    if !text[line_start..start].trim().is_empty() || line_start == 0 {
        return false;
    }
    let before = text[..line_start].trim_end_matches(['\n', '\r']);
    let prev = before[before.rfind(['\n', '\r']).map_or(0, |p| p + 1)..].trim();
    !prev.is_empty()
        && (prev
            .split_whitespace()
            .all(|w| LEXICON.info(w.trim_end_matches([',', '.', ':'])).stop)
            || prev
                .split_whitespace()
                .next_back()
                .is_some_and(|w| ORGANISATION_WORDS.contains(&w.trim_end_matches([',', '.', ':']))))
}

/// The last words of an organisation's or a department's name ("Utilization Management
/// Department", "Claims Services", "Acme Health Plan, Inc.").
const ORGANISATION_WORDS: &[&str] = &[
    "Department",
    "Dept",
    "Services",
    "Center",
    "Centre",
    "Office",
    "Division",
    "Unit",
    "Plan",
    "Insurance",
    "Company",
    "Inc",
    "LLC",
    "Corp",
    "Corporation",
    "Administration",
    "Processing",
    "Claims",
    "Billing",
    "Remittance",
    "Payments",
];

/// The end of a ZIP code that ends at `end`, its "+4" ("-1234") included.
fn plus_four(rest: &str, end: usize) -> usize {
    let four = rest[end..]
        .strip_prefix('-')
        .is_some_and(|r| r.bytes().take_while(u8::is_ascii_digit).count() == 4);
    if four { end + 5 } else { end }
}
