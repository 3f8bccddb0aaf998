//! The built-in detectors (regular expressions with a check each) and the roster matcher.

use super::pattern::{Gate, Pattern};

use super::words::*;
use super::{CONTEXT_WINDOW, Check, DATE_WORDS, Kind, NEAR_WINDOW, RedactError, Rule, SSN_WORDS};

pub(super) fn is_fax(text: &str, start: usize) -> bool {
    let mut from = start.saturating_sub(40);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let before = text[from..start].to_ascii_lowercase();
    let fax = before.rfind("fax");
    let phone = ["phone", "tel", "call", "cell", "mobile", "ph:", "text"]
        .iter()
        .filter_map(|w| before.rfind(w))
        .max();
    match (fax, phone) {
        (Some(f), Some(p)) => f > p,
        (Some(_), None) => true,
        _ => false,
    }
}

pub(super) fn near(text: &str, start: usize, words: &[&str]) -> bool {
    let mut from = start.saturating_sub(NEAR_WINDOW);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let before = text[from..start].to_lowercase();
    words.iter().any(|w| before.contains(w))
}

/// Whether one of [`NOT_PERSONAL_CODES`] opens a word shortly before `start` (why a word's
/// start: "icd" inside the surname "NicDhòmhnaill", "cpt" inside "accepted", "model" inside
/// "remodel" say nothing of the number after them).
pub(super) fn thing_code_near(text: &str, start: usize) -> bool {
    let mut from = start.saturating_sub(NEAR_WINDOW);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let before = text[from..start].to_lowercase();
    NOT_PERSONAL_CODES.iter().any(|w| {
        before
            .match_indices(w)
            .any(|(i, _)| !before[..i].ends_with(char::is_alphanumeric))
    })
}

/// Words before a code that make it a thing's, not a person's ("product code CH654321", "NDC
/// 0002-1433-80", "firmware 4.2.1"): an unlabelled identifier after one is left alone.
pub(super) const NOT_PERSONAL_CODES: &[&str] = &[
    "product",
    "model",
    "part no",
    "part #",
    "sku",
    "catalog",
    "version",
    "firmware",
    "build",
    "ndc",
    "loinc",
    "cpt",
    "icd",
    "hcpcs",
    // Terminologies' concept codes ("MedDRA PT 10098812", "SNOMED 44054006", "RxNorm 197361").
    "meddra",
    "snomed",
    "rxnorm",
    "rxcui",
    "order code",
    "tracking",
    "session",
    "confirmation",
    "mfr report",
    // A delivery's or a pick list's ticket ("DELIVERY TICKET DT-924893"): the shipper's.
    "delivery ticket",
    "pick ticket",
    "manufacturer report",
];

/// Whether the label right before `start` names an order, a purchase order or a lot, or the
/// value itself opens with a purchase or sales order's prefix ("PO 58021664", "Order
/// #5822665", "lot S21967", "order SO-6482923", "supply_order_PO4500130217"), or a carrier
/// before it ("FedEx 047878257628"): a thing's number, nobody's.
pub(super) fn order_or_lot(text: &str, start: usize, value: &str) -> bool {
    let v = value.as_bytes();
    if v.len() > 3
        && (v.starts_with(b"PO") || v.starts_with(b"SO"))
        && (v[2].is_ascii_digit() || v[2] == b'-')
    {
        return true;
    }
    // A trial's public registry number ("NCT01537301"): the study's, not a participant's.
    if v.len() == 11 && v.starts_with(b"NCT") && v[3..].iter().all(u8::is_ascii_digit) {
        return true;
    }
    // An HL7 table's name as a coded field's coding system ("MTH^Mother^HL70063",
    // "Y^Yes^HL70136"): the standard's, nobody's.
    if v.len() == 7 && v.starts_with(b"HL7") && v[3..].iter().all(u8::is_ascii_digit) {
        return true;
    }
    if bare_npi(v) {
        return true;
    }
    // A UPS tracking number ("1Z" and sixteen capitals and digits): the parcel's.
    if v.len() == 18
        && v.starts_with(b"1Z")
        && v.iter()
            .all(|b| b.is_ascii_digit() || b.is_ascii_uppercase())
    {
        return true;
    }
    let glued = text[..start]
        .strip_suffix("PO-")
        .or_else(|| text[..start].strip_suffix("SO-"));
    if glued.is_some_and(|t| !t.ends_with(|c: char| c.is_alphanumeric())) {
        return true;
    }
    let mut from = start.saturating_sub(24);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let before = text[from..start].to_ascii_lowercase();
    // A lot in markup: C-CDA's `<lotNumberText>9E4640</lotNumberText>`.
    if before.ends_with("lotnumbertext>") || before.ends_with("lotnumber>") {
        return true;
    }
    let mut b = before.trim_end_matches([' ', '\t', '#', ':', '.', '-', '_', '(']);
    for w in ["number", "num", "no"] {
        if let Some(x) = b.strip_suffix(w)
            && !x.ends_with(|c: char| c.is_ascii_alphabetic())
        {
            b = x.trim_end_matches([' ', '\t', '#', ':', '.', '-', '_', '(']);
            break;
        }
    }
    let word = b
        .rsplit(|c: char| !c.is_ascii_alphabetic() && c != '.')
        .next()
        .unwrap_or("");
    // A carrier's name before a number: the parcel's tracking number ("FedEx 047878257628").
    // A shipment's manifest or a case report form's query ("MANIFEST M-2563-07", "Query
    // Q-57681"): the courier's and the study's.
    matches!(
        word,
        "po" | "p.o" | "order" | "lot" | "fedex" | "ups" | "usps" | "dhl" | "manifest" | "query"
    )
}

/// Whether the room at `start..end` is the practice's, not a patient's: an exam, consult or
/// conference room ("exam room 3"), one to use ("use room 5"), or a room named for its
/// equipment ("Room 3 scale is broken", "room 12 printer"); or no room at all, the first
/// digits of a phone number after "cell" ("cell 555-201-3344", "cell 555 2013").
pub(super) fn facility_room(text: &str, start: usize, end: usize) -> bool {
    let rest = &text.as_bytes()[end..];
    let digits_from = |i: usize| {
        rest.iter()
            .skip(i)
            .take_while(|b| b.is_ascii_digit())
            .count()
    };
    if text[start..end].ends_with('-')
        || digits_from(0) > 0
        // "5/hpf", "3%", "3-5/hpf": a count, a share or a range.
        || matches!(rest.first(), Some(b'/' | b'%'))
        || rest.first() == Some(&b'-') && digits_from(1) > 0
        || matches!(rest.first(), Some(b' ' | b'.' | b'-' | b')'))
            && digits_from(1) >= 3
            // Six digits or more after a blank are no phone's next group but a field of their
            // own: a file name's date after its room ("…_rm294_05242026.HEIC", read with `_`
            // as a blank).
            && !(rest.first() == Some(&b' ') && digits_from(1) >= 6)
    {
        return true;
    }
    let mut from = start.saturating_sub(24);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let before = text[from..start].to_ascii_lowercase();
    let before = before.trim_end_matches([' ', '\t', '#', ':', '.']);
    // (Past the whole of a letter that is not ASCII: "habitación 305".)
    let label_start = before
        .char_indices()
        .rev()
        .find(|&(_, c)| !c.is_ascii_alphabetic())
        .map_or(0, |(p, c)| p + c.len_utf8());
    let before_label = before[..label_start].trim_end_matches([' ', '\t', '\'', '’']);
    let kind_word = before_label
        .rsplit(|c: char| !c.is_ascii_alphabetic())
        .next()
        .unwrap_or("");
    let label = &before[label_start..];
    // A number placed by a preposition only ("in 345,", "from 4-58 —") is a vital sign's or
    // a quantity's after such a word: "HR in 120, BP …", "down from 160 — better".
    if matches!(label, "in" | "from" | "to" | "into")
        && (QUANTITY_WORDS.contains(&kind_word) || dash_range(&text[end..]))
    {
        return true;
    }
    // A station is a patient's in a dialysis or infusion unit only ("Station 20" on a run
    // sheet); elsewhere it is a fire or EMS station ("Medic 12  Station 9"), the staff's.
    if label == "station" {
        let mut from = start.saturating_sub(240);
        while !text.is_char_boundary(from) {
            from -= 1;
        }
        let near = text[from..start].to_ascii_lowercase();
        if !["dialysis", "infusion", "chair", "run sheet"]
            .iter()
            .any(|w| near.contains(w))
        {
            return true;
        }
    }
    // "nurses station 2": the staff's; "up in chair 2 hours", "ICU 3 days": a quantity.
    if matches!(label, "chair" | "station")
        && matches!(
            kind_word,
            "nurses" | "nursing" | "charge" | "work" | "docking"
        )
        || matches!(
            next_word(text, end).as_str(),
            "min"
                | "mins"
                | "minutes"
                | "h"
                | "hr"
                | "hrs"
                | "hour"
                | "hours"
                | "x"
                | "times"
                | "day"
                | "days"
                | "wk"
                | "wks"
                | "week"
                | "weeks"
                | "months"
                | "visits"
        )
    {
        return true;
    }
    if matches!(
        kind_word,
        "exam"
            | "consult"
            | "procedure"
            | "conference"
            | "waiting"
            | "break"
            | "supply"
            | "storage"
            // "use room 5": a room as a resource of the practice.
            | "use"
    ) {
        return true;
    }
    matches!(
        next_word(text, end).as_str(),
        "scale"
            | "printer"
            | "computer"
            | "sink"
            | "fridge"
            | "refrigerator"
            | "thermostat"
            | "door"
            | "lock"
            | "lights"
            | "tv"
            | "heater"
            | "toilet"
            | "blinds"
            | "keyboard"
            | "cart"
            | "monitor"
            | "fax"
            | "copier"
            | "ac"
    )
}

/// Whether a number's text goes on as the second end of a range, blanks and a dash between
/// ("120 – 140", "100 —150"): a quantity's range, no place.
fn dash_range(rest: &str) -> bool {
    let r = rest.trim_start_matches([' ', '\t']);
    let Some(r) = ["—", "–", "-"].iter().find_map(|d| r.strip_prefix(d)) else {
        return false;
    };
    r.trim_start_matches([' ', '\t'])
        .starts_with(|c: char| c.is_ascii_digit())
}

/// Words before a preposition and a number that make the number a measure: a vital sign, a
/// count, or a value that went up or down ("HR in 120", "weaned from 100").
const QUANTITY_WORDS: &[&str] = &[
    "hr",
    "pulse",
    "bp",
    "sbp",
    "dbp",
    "map",
    "rr",
    "sats",
    "sat",
    "spo",
    "glucose",
    "sugar",
    "sugars",
    "bg",
    "bs",
    "temp",
    "weight",
    "wt",
    "pain",
    "score",
    "down",
    "up",
    "went",
    "go",
    "dropped",
    "drop",
    "fell",
    "climbed",
    "increased",
    "decreased",
    "titrated",
    "weaned",
    "tapered",
    "changed",
    "reduced",
    "lowered",
    "raised",
    "range",
    "ranging",
    "numbers",
    "readings",
    "reading",
];

/// Whether the URL at `start..end` names no one: a code system's or an identifier's namespace
/// (a FHIR `"system": "http://loinc.org"`, `http://hl7.org/fhir/sid/us-ssn`: the value beside
/// it is the identifier, the system says whose), or a video meeting's join link (the
/// practice's meeting room, as exam rooms are).
pub(super) fn shared_url(text: &str, start: usize, end: usize) -> bool {
    let before = text[..start].trim_end_matches([' ', '\t', '"', '\\', ':']);
    if before.ends_with("\"system") {
        return true;
    }
    let url = text[start..end].to_ascii_lowercase();
    let rest = url
        .trim_start_matches("https://")
        .trim_start_matches("http://");
    // A site's page ("https://portal.clinic.org/", "…/terms", "…/billing/pay-online"): no
    // query, no fragment, no number or token in its path says whose it is (a patient's link
    // carries one: "…/results?patient=…", "…/r/8812…", "…/chart?mrn=…").
    let rest_t = rest.trim_end_matches(['.', ',', ';', ':', '!', '?', ')', ']']);
    if let Some((host, path)) = rest_t.split_once('/').or(Some((rest_t, ""))) {
        // A government's site serves public pages, its numbered articles too
        // ("medlineplus.gov/ency/article/000077.htm").
        let gov = host.ends_with(".gov") || host.contains(".gov.") || host.ends_with(".nhs.uk");
        let page = !host.is_empty()
            && !host.contains('@')
            && !path.contains(['?', '#', '=', '&', '%', '@', '~'])
            && (gov || !path.bytes().any(|b| b.is_ascii_digit()))
            && path.split('/').count() <= 3
            && path
                .split('/')
                .all(|seg| seg.len() <= 24 && public_segment(seg, gov));
        if page {
            return true;
        }
    }
    // (The bare-domain rule may start inside the link: "teams.[microsoft.com/l/…]".)
    [
        "hl7.org/fhir",
        "terminology.hl7.org/",
        "microsoft.com/l/meetup-join/",
    ]
    .iter()
    .any(|p| rest.starts_with(p) || rest.starts_with("teams.") && rest[6..].starts_with(p))
}

/// Whether a segment of a link's path is a public page's: each word a dictionary's and no name
/// ("/u/ellingsworth" is a person's), or a title's slug of two words or more none of which is a
/// name ("/health-topics/atrial-fibrillation"), a language's code ("/en/"), a file's type
/// ("index.html"), a government site's words and article numbers.
fn public_segment(seg: &str, gov: bool) -> bool {
    const FILE_TYPES: &[&str] = &["html", "htm", "php", "asp", "aspx", "pdf"];
    if seg.len() == 2 && seg.bytes().all(|b| b.is_ascii_lowercase()) {
        return true;
    }
    let words: Vec<&str> = seg
        .split(['-', '_', '.'])
        .filter(|w| !w.is_empty())
        .collect();
    let slug = seg.split('-').filter(|w| !w.is_empty()).count() >= 2;
    words.iter().all(|w| {
        let i = super::lexicon::LEXICON.info(w);
        let lower = w.bytes().all(|b| b.is_ascii_lowercase());
        FILE_TYPES.contains(w)
            || gov && w.bytes().all(|b| b.is_ascii_digit())
            || w.len() > 2 && !i.known_name() && (i.common || i.stop || (slug || gov) && lower)
    })
}

/// Whether a ZIP candidate follows "ID" used as a label, not as Idaho: "(ID 41470)", "ID:
/// 08466" opening a bracket or a line (Idaho's code follows a city: "Boise, ID 83702").
pub(super) fn id_label_zip(text: &str, start: usize) -> bool {
    let before = text[..start].trim_end_matches([' ', '\t', ':', '#']);
    let Some(head) = before.strip_suffix("ID") else {
        return false;
    };
    head.trim_end_matches([' ', '\t']).is_empty()
        || head.ends_with(['(', '[', '\n', '\r'])
        || head
            .trim_end_matches([' ', '\t'])
            .ends_with(['(', '[', '\n', '\r'])
}

/// Whether a vehicle candidate is a model year ("Vehicle involved: 2018 Freightliner"): the
/// year of a make is no plate.
pub(super) fn model_year(value: &str) -> bool {
    value.len() == 4
        && value.bytes().all(|b| b.is_ascii_digit())
        && (value.starts_with("19") || value.starts_with("20"))
}

/// The word right after `end`, lowercased ("" when none).
fn next_word(text: &str, end: usize) -> String {
    text[end..]
        .trim_start_matches([' ', '\t'])
        .split(|c: char| !c.is_ascii_alphabetic())
        .next()
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// Whether the candidate of `kind` at `start..end` is the practice's or a thing's, not a
/// patient's: a role or department mailbox, a bare extension the staff are paged at, an
/// ambulance's unit.
pub(super) fn not_personal(kind: Kind, text: &str, start: usize, end: usize) -> bool {
    let v = &text[start..end];
    match kind {
        Kind::Email => role_mailbox(v) || word_at_site(v) || machine_id(text, start),
        // A registry's or a board's number for the examiner ("National Registry no.
        // 1234567890"), no phone; "2 x 500 mg" is a dose times a count, no extension.
        Kind::Phone
            if label_before(text, start, &["registry no", "registry number", "registry"])
                || v.starts_with(['x', 'X'])
                    && text[..start]
                        .trim_end()
                        .ends_with(|c: char| c.is_ascii_digit()) =>
        {
            true
        }
        // A manufacturer's report number ("mfr report 1852273-2026-07990") is no card.
        Kind::Card => label_before(text, start, &["report", "report no", "report number"]),
        // "Coordinator Obinna Eze paged x4126", "nurse line ext 2210": an extension alone,
        // no number before it, reached inside the practice.
        Kind::Phone | Kind::Fax => {
            v.starts_with(|c: char| c.is_ascii_alphabetic())
                && near(
                    text,
                    start,
                    &[
                        "page",
                        "beep",
                        "vocera",
                        "coordinator",
                        "nurse",
                        "desk",
                        "station",
                        "office",
                        "clinic",
                        "charge",
                        "on-call",
                        "on call",
                        "operator",
                        "dr.",
                    ],
                )
        }
        // "Unit M23 from 961 Sycamore Ct": an ambulance's or fire crew's unit, no flat; "Unit
        // 2 West census": a hospital's unit, a ward.
        Kind::Address => {
            let lower = v.to_ascii_lowercase();
            lower.starts_with("unit")
                && (ward_after(text, end)
                    || ward_code(&lower[4..])
                    || near(
                        text,
                        start,
                        &[
                            "ambulance",
                            "ems",
                            "medic",
                            "dispatch",
                            "crew",
                            "mileage",
                            "rescue",
                            "paramedic",
                            "fire",
                            "engine",
                        ],
                    )
                    || matches!(
                        next_word(text, end).as_str(),
                        "from"
                            | "responded"
                            | "responding"
                            | "dispatched"
                            | "arrived"
                            | "en"
                            | "transported"
                            | "enroute"
                            | "cleared"
                    ))
        }
        // A software build or version is no date ("build 4.5.21", `"app":"4.4.14"`), nor a
        // measurement's numbers ("8.8-36.8mm").
        Kind::Date => {
            label_before(
                text,
                start,
                &["build", "version", "release", "firmware", "v"],
            ) || version_key_before(text, start)
                || decimal_after(text, end)
        }
        // A number's kinds need a digit: a SQL dump's NULL under "ssn" is no SSN.
        Kind::Ssn if !v.bytes().any(|b| b.is_ascii_digit()) => true,
        Kind::Mrn | Kind::HealthPlan | Kind::Account | Kind::Ssn => {
            count_with_unit(v)
                || code_name(v)
                || thing_label_before(text, start)
                || in_meeting_link(text, start)
        }
        _ => false,
    }
}

/// Whether a data key right before `start` names a piece of software's version
/// (`"app":"4.4.14"`, `app_version=4.4.14`, `'sdk': '3.1.20'`): a bounded look back.
fn version_key_before(text: &str, start: usize) -> bool {
    let mut from = start.saturating_sub(32);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let before = text[from..start].trim_end_matches([' ', '\t', ':', '=', '"', '\'']);
    let key = before
        .rsplit(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .next()
        .unwrap_or("")
        .to_ascii_lowercase();
    matches!(
        key.as_str(),
        "app" | "ver" | "sdk" | "os" | "client" | "agent"
    ) || key.ends_with("version")
        || key.ends_with("_ver")
}

/// Whether a number's decimals go on right after `end` ("8.8-36" of "8.8-36.8mm"): the date
/// shape is a measurement's piece.
fn decimal_after(text: &str, end: usize) -> bool {
    let rest = text.as_bytes().get(end..).unwrap_or(&[]);
    rest.len() >= 2 && rest[0] == b'.' && rest[1].is_ascii_digit()
}

/// Whether the word(s) right before `start` (past blanks, `:`, `#`, `.`) are one of `labels`.
/// Whether a value sits in a video meeting's join link ("…/meetup-join/19%3ameeting_<id>",
/// "zoom.us/j/<id>"): the meeting's id, nobody's record. A bounded look back over the link.
fn in_meeting_link(text: &str, start: usize) -> bool {
    let mut from = start.saturating_sub(48);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let before = &text[from..start];
    // Underscores read as blanks: "19%3ameeting_<id>" is scanned as "19%3ameeting <id>".
    let before = before
        .strip_suffix("meeting_")
        .or_else(|| before.strip_suffix("meeting "))
        .unwrap_or(before);
    let link = before
        .rfind(char::is_whitespace)
        .map_or(before, |p| &before[p + 1..]);
    ["meetup-join/", "zoom.us/j/", "webex.com/meet/"]
        .iter()
        .any(|w| link.contains(w))
}

/// Whether an address-shaped value is an event's or a message's id: a calendar's `UID:`, a
/// mail header's `Message-ID: <…>` and the headers that quote it. Nobody's mailbox.
fn machine_id(text: &str, start: usize) -> bool {
    let mut from = start.saturating_sub(16);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let before = text[from..start]
        .trim_end_matches([' ', '\t', '<'])
        .to_ascii_lowercase();
    [
        "uid:",
        "message-id:",
        "in-reply-to:",
        "references:",
        "content-id:",
    ]
    .iter()
    .any(|w| {
        before.ends_with(w)
            && !before[..before.len() - w.len()].ends_with(|c: char| c.is_ascii_alphanumeric())
    })
}

fn label_before(text: &str, start: usize, labels: &[&str]) -> bool {
    let mut from = start.saturating_sub(24);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let before = text[from..start]
        .trim_end_matches([' ', '\t', ':', '#', '.'])
        .to_ascii_lowercase();
    labels.iter().any(|w| {
        before.ends_with(w)
            && !before[..before.len() - w.len()].ends_with(|c: char| c.is_ascii_alphanumeric())
    })
}

/// Whether a unit's number is followed by a ward's words ("Unit 2 West census", "Unit 4
/// North"): a hospital's unit, no flat.
fn ward_after(text: &str, end: usize) -> bool {
    matches!(
        next_word(text, end).as_str(),
        "west" | "east" | "north" | "south" | "census" | "nursing" | "staff" | "charge"
    )
}

/// Whether a unit's designation is a ward's, a floor and a wing's compass letter ("unit 5W",
/// "Unit 4E": a hospital's unit, as "4 West" is; a flat is lettered A, B, C…).
fn ward_code(after_unit: &str) -> bool {
    let t = after_unit
        .trim_start_matches([' ', '\t', '#', '.', ':'])
        .as_bytes();
    let n = t.iter().take_while(|b| b.is_ascii_digit()).count();
    (1..=2).contains(&n) && t.len() == n + 1 && matches!(t[n], b'n' | b's' | b'e' | b'w')
}

/// Whether a value is a code system's or an organisation's short code, letters, a dash and one
/// or two digits ("ICD-10" after "Plan:", a lab's client code "CRFH-01" after "Acct:",
/// "PHQ-9", "COVID-19"): two digits number no person among thousands.
fn code_name(v: &str) -> bool {
    let Some((letters, digits)) = v.split_once('-') else {
        return false;
    };
    (2..=6).contains(&letters.len())
        && letters.bytes().all(|b| b.is_ascii_alphabetic())
        && (1..=2).contains(&digits.len())
        && digits.bytes().all(|b| b.is_ascii_digit())
}

/// Whether a value is a count glued to its unit ("84-gene panel", "12-lead", "3-day"): a
/// number and a lower-case word, no identifier.
fn count_with_unit(v: &str) -> bool {
    let Some((n, w)) = v.split_once('-') else {
        return false;
    };
    (1..=3).contains(&n.len())
        && n.bytes().all(|b| b.is_ascii_digit())
        && w.len() >= 2
        && w.bytes().all(|b| b.is_ascii_lowercase())
}

/// Whether the label right before a number names a thing's or an organisation's number: a
/// lab requisition (a request, as an order is), a business's tax id ("TIN 23-6809049",
/// "EIN: 12-3456789": a practice's or employer's, an individual's is an SSN).
fn thing_label_before(text: &str, start: usize) -> bool {
    let mut from = start.saturating_sub(24);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let before = text[from..start]
        .trim_end_matches(|c: char| {
            // A key's quotes and `=` too: `'appt_id': 6488993`, `appt_id=6488993`.
            c.is_ascii_digit() || matches!(c, ' ' | '\t' | ':' | '#' | '.' | '-' | '\'' | '"' | '=')
        })
        .to_ascii_lowercase();
    let word_end = |w: &str| {
        before.ends_with(w)
            && !before[..before.len() - w.len()].ends_with(|c: char| c.is_ascii_alphanumeric())
    };
    [
        "requisition",
        "requisition no",
        "req",
        "tin",
        "ein",
        "tax id",
        "fein",
        // A research study's or protocol's code ("Study CRI-24-778 consent log"), a security
        // or safety incident's report ("INCIDENT REPORT IR-25-9879"): the institution's.
        "study",
        "study id",
        "protocol",
        "protocol no",
        "irb",
        "incident",
        "incident report",
        "incident no",
        // An examiner's certification ("National Registry no. 1234567890").
        "registry",
        "registry no",
        "registry number",
        // An appointment's number in a scheduler's log or export: the booking's.
        "appt id",
        "appt_id",
        "appointment",
        "appointment id",
        "appointment_id",
    ]
    .iter()
    .any(|w| word_end(w))
}

/// Drops the name candidates that are a mail's display name before a department's or an
/// office's mailbox ("From: Bariatric Program <bariatrics@…>", "Cardiology Scheduling
/// <cardiology.scheduling@…>"): the sender is the department (its staff are no patient).
pub(super) fn drop_role_senders(text: &str, cands: &mut Vec<(super::Span, u8)>) {
    if !text.contains('@') {
        return;
    }
    cands.retain(|(s, _)| {
        if s.kind != Kind::Person {
            return true;
        }
        // The rest of the display name (words only), then the address in angle brackets.
        let rest = &text[s.end..];
        let Some(lt) = rest.find('<') else {
            return true;
        };
        if lt > 40
            || !rest[..lt]
                .chars()
                .all(|c| c.is_alphabetic() || matches!(c, ' ' | '\t' | '"' | '.' | '-' | '&'))
        {
            return true;
        }
        let Some(addr) = rest[lt + 1..].split('>').next() else {
            return true;
        };
        !(addr.contains('@') && !addr.contains(char::is_whitespace) && role_mailbox(addr))
    });
}

/// Words that name a department, an office or a service of an organisation, not a person, in
/// a mailbox's local part. Not the practice's own front-line mailboxes (billing@, frontdesk@,
/// noreply@, results@): the development sets label those as identifiers ("a detector cannot
/// tell whose it is") while issue 29's brief calls them no patient's; that is the lead's call.
const ROLE_WORDS: &[&str] = &[
    "admissions",
    "alerts",
    "appeals",
    "appointments",
    "appts",
    "arrangements",
    "benefits",
    "care",
    "careteam",
    "claims",
    "compliance",
    "customerservice",
    "dispatch",
    "enroll",
    "enrollment",
    "feedback",
    "helpdesk",
    "hr",
    "imaging",
    "intake",
    "medical",
    "medicalrecords",
    "nurse",
    "nurses",
    "nurseline",
    "member",
    "members",
    "memberservices",
    "news",
    "newsletter",
    "notifications",
    "nursing",
    // A hospital's service desks: "parking@", "security@", "giftshop@".
    "parking",
    "security",
    "facilities",
    "pharmacy",
    "volunteer",
    "volunteers",
    "giftshop",
    "lostandfound",
    "valet",
    "postmaster",
    "privacy",
    "radiology",
    "records",
    "referral",
    "referrals",
    "registration",
    "scheduling",
    "service",
    "services",
    "survey",
    "surveys",
    "team",
    "transport",
    "triage",
    "vital",
    "webmaster",
    "mailer",
    "daemon",
    "noreply",
    "donotreply",
    "reply",
    "bounce",
    "bounces",
];

/// Adds every other occurrence of a record, plan or account number or an SSN already found in
/// `text` ("MRN:646-74469" and the same number again under a label's barcode, in a file name,
/// in a reply's quote): the number is the patient's wherever the text repeats it. One pass
/// over the text for all of them (an automaton of the values found), linear in its length.
pub(super) fn repeated_ids(text: &str, cands: &mut Vec<(super::Span, u8)>) {
    let mut found: Vec<(&str, Kind)> = cands
        .iter()
        .filter(|(s, _)| {
            matches!(
                s.kind,
                Kind::Mrn | Kind::Ssn | Kind::HealthPlan | Kind::Account
            )
        })
        // (A value read on past a blank: its first piece is the number too.)
        .flat_map(|(s, _)| {
            let v = &text[s.start..s.end];
            let head = v.split([' ', '\t']).next().unwrap_or(v);
            [(v, s.kind), (head, s.kind)]
        })
        .filter(|(v, _)| v.bytes().filter(u8::is_ascii_digit).count() >= 6)
        .collect();
    if found.is_empty() {
        return;
    }
    found.sort_unstable();
    found.dedup_by_key(|f| f.0);
    let Ok(ac) = aho_corasick::AhoCorasick::builder()
        .match_kind(aho_corasick::MatchKind::LeftmostLongest)
        .build(found.iter().map(|f| f.0))
    else {
        return;
    };
    let b = text.as_bytes();
    for m in ac.find_iter(text) {
        let (start, end) = (m.start(), m.end());
        // A whole token: no letter or digit glued on either side ("…74469" inside a longer
        // number is another number).
        if start > 0 && b[start - 1].is_ascii_alphanumeric()
            || b.get(end).is_some_and(u8::is_ascii_alphanumeric)
        {
            continue;
        }
        cands.push((
            super::Span {
                kind: found[m.pattern().as_usize()].1,
                start,
                end,
            },
            30,
        ));
    }
}

/// Whether a mail address is a department's or an office's ("vital.records@county.example",
/// "bariatrics@…", "cardiology.scheduling@…", "arrangements@…"): every word of its local part
/// names one, or a specialty ("-ology", "-iatrics", "-iatry", "-ics"). A person's address has
/// a name or a number in it.
fn role_mailbox(v: &str) -> bool {
    let local = v.split('@').next().unwrap_or("").to_ascii_lowercase();
    // (An address spelled out has no `@`: "jane dot doe at example dot com".)
    if !v.contains('@') || local.is_empty() {
        return false;
    }
    let role = |w: &str| {
        ROLE_WORDS.contains(&w)
            || w.len() >= 6
                && ["ology", "iatrics", "iatry", "ics", "surgery", "medicine"]
                    .iter()
                    .any(|e| w.ends_with(e))
    };
    let words: Vec<&str> = local
        .split(['.', '_', '-', '+'])
        .filter(|w| !w.is_empty())
        .collect();
    // (An office's initials beside a role word: "shs-nurse@", "ed.triage@"; initials have
    // no vowel or are two letters, a name has more.)
    words.iter().any(|w| role(w))
        && words.iter().all(|w| {
            role(w)
                || w.len() <= 3
                    && w.bytes().all(|b| b.is_ascii_lowercase())
                    && (w.len() <= 2 || !w.bytes().any(|b| b"aeiouy".contains(&b)))
        })
}

/// Whether a spelled-out address is a word before " at " and a site ("Log in at
/// medicare.gov", "sign up at …", "available at cms.gov"): a dictionary word that is no name
/// is no mailbox's.
fn word_at_site(v: &str) -> bool {
    if v.contains('@') {
        return false;
    }
    let mut words = v.split_whitespace();
    let (Some(local), Some("at" | "AT" | "At")) = (words.next(), words.next()) else {
        return false;
    };
    // (A function word may be a surname too: "In", "On".)
    let i = super::lexicon::LEXICON.info(local);
    i.stop || i.common && !i.known_name()
}

/// A HCPCS level II code ("E0601", "E1390"): a billed item's code, not a device's serial.
pub(super) fn hcpcs(value: &str) -> bool {
    let b = value.as_bytes();
    b.len() == 5 && b[0].is_ascii_uppercase() && b[1..].iter().all(u8::is_ascii_digit)
}

/// Whether `start` is in an HL7 MSH segment's tenth field, the message control id: the
/// interface's number for the message, not anyone's identifier.
pub(super) fn hl7_control_id(text: &str, start: usize) -> bool {
    let line_from = super::line_start(text, start);
    let Some(msh) = text[line_from..start].rfind("MSH|") else {
        return false;
    };
    text[line_from + msh..start].matches('|').count() == 9
}

/// The kind of an unlabelled identifier by the words in the [`NEAR_WINDOW`] bytes before it.
pub(super) fn id_kind_near(text: &str, start: usize) -> Kind {
    const KINDS: &[(Kind, &[&str])] = &[
        (
            Kind::Device,
            &[
                "serial",
                "s/n",
                "sn:",
                "meter",
                "transmitter",
                "sensor",
                "pump",
                "device",
                "implant",
            ],
        ),
        (
            Kind::HealthPlan,
            &[
                "member",
                "insurance",
                "insured",
                "medicare",
                "medicaid",
                "policy",
                "plan",
                "beneficiary",
                "subscriber",
                "ins:",
                "ins ",
                "coverage",
                "aetna",
                "cigna",
                "humana",
                "molina",
                "tricare",
                "kaiser",
                "healthcare",
                "blue cross",
                "bcbs",
                "in1|",
            ],
        ),
        (
            Kind::Account,
            &[
                "rx",
                "claim",
                "account",
                "acct",
                "invoice",
                "statement",
                "billing",
            ],
        ),
    ];
    let mut from = start.saturating_sub(NEAR_WINDOW);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let before = text[from..start].to_lowercase();
    // The nearest label wins: "Ins: Aetna ID … Rx #…" is an account after "Rx".
    KINDS
        .iter()
        .filter_map(|(k, words)| {
            words
                .iter()
                .filter_map(|w| before.rfind(w))
                .max()
                .map(|at| (at, *k))
        })
        .max_by_key(|(at, _)| *at)
        .map_or(Kind::Mrn, |(_, k)| k)
}

pub(super) fn has_context(text: &str, start: usize, words: &[String]) -> bool {
    let mut from = start.saturating_sub(CONTEXT_WINDOW);
    while !text.is_char_boundary(from) {
        from -= 1;
    }
    let before = text[from..start].to_lowercase();
    words.iter().any(|w| before.contains(w.as_str()))
}

/// Whether ten digits run together are an NPI, not a phone: they pass the NPI's check digit
/// (Luhn over "80840" and the number) and cannot be a North American number, whose area code
/// and exchange open with 2-9 (a FHIR identifier's value, an OCR'd "NPl 1706344403").
fn bare_npi(v: &[u8]) -> bool {
    if v.len() != 10 || !v.iter().all(u8::is_ascii_digit) || !matches!(v[0], b'1' | b'2') {
        return false;
    }
    if v[0] != b'1' && v[3] > b'1' {
        return false;
    }
    let mut with_prefix = String::from("80840");
    with_prefix.push_str(std::str::from_utf8(v).unwrap_or_default());
    luhn_ok(&with_prefix)
}

pub(super) fn luhn_ok(s: &str) -> bool {
    let digits: Vec<u32> = s.chars().filter_map(|c| c.to_digit(10)).collect();
    if !(13..=19).contains(&digits.len()) {
        return false;
    }
    let sum: u32 = digits
        .iter()
        .rev()
        .enumerate()
        .map(|(i, &d)| {
            if i % 2 == 1 {
                let d2 = d * 2;
                if d2 > 9 { d2 - 9 } else { d2 }
            } else {
                d
            }
        })
        .sum();
    sum.is_multiple_of(10)
}

pub(super) fn roster_regex(names: &[String]) -> Result<Option<Pattern>, RedactError> {
    let mut alts: Vec<String> = Vec::new();
    // Every form is made of these words (`roster_forms`): the lines to search (`Gate`).
    let mut gate_words: Vec<String> = Vec::new();
    for (index, raw) in names.iter().enumerate() {
        if raw.split_whitespace().next().is_none() {
            return Err(RedactError::EmptyName { index });
        }
        let (name, nicks) = roster_entry(raw);
        if name.split_whitespace().next().is_none() {
            return Err(RedactError::EmptyName { index });
        }
        let words: Vec<&str> = name.split_whitespace().collect();
        let mut forms = vec![name.clone()];
        // The short forms the entry lists, and the usual ones of its first name: each alone
        // and with the surname ("Olu", "Olu Adeyemi"; "Tom Reed" for "Thomas Reed").
        let mut shorts = nicks;
        shorts.extend(nicknames(words[0]));
        for nick in shorts {
            if words.len() > 1 {
                forms.push(format!("{nick} {}", words[1..].join(" ")));
            } else {
                forms.push(nick);
            }
        }
        for form in forms {
            let folded = fold_ascii(&form);
            roster_forms(&form, &mut alts);
            gate_words.extend(form.split_whitespace().map(str::to_string));
            if folded != form {
                roster_forms(&folded, &mut alts);
                gate_words.extend(folded.split_whitespace().map(str::to_string));
            }
        }
    }
    if alts.is_empty() {
        return Ok(None);
    }
    alts.sort();
    alts.dedup();
    // Longest first so "Maria Lopez" wins over "Lopez" inside the alternation.
    alts.sort_by_key(|a| std::cmp::Reverse(a.len()));
    let pat = format!(r"\b(?:{})\b", alts.join("|"));
    Pattern::new(&pat, true, 64 << 20)
        .and_then(|p| {
            Ok(Some(
                p.gated(Gate::new(gate_words.iter().map(String::as_str))?),
            ))
        })
        .map_err(|reason| RedactError::BadPattern {
            kind: Kind::Person,
            index: usize::MAX,
            reason,
        })
}

/// A roster entry without its short forms, and those: `Oluwaseun "Olu" Adeyemi` and
/// `Oluwaseun (Olu) Adeyemi` list "Olu".
fn roster_entry(raw: &str) -> (String, Vec<String>) {
    let mut name = String::new();
    let mut nicks = Vec::new();
    let mut rest = raw;
    while let Some(open) = rest.find(['"', '(', '“']) {
        name.push_str(&rest[..open]);
        let after = &rest[open..];
        let close = match after.chars().next() {
            Some('(') => ')',
            Some('“') => '”',
            _ => '"',
        };
        let body = &after[after.chars().next().map_or(1, char::len_utf8)..];
        match body.find(close) {
            Some(end) => {
                let nick = body[..end].trim();
                if !nick.is_empty() {
                    nicks.push(nick.to_string());
                }
                rest = &body[end + close.len_utf8()..];
            }
            None => {
                rest = body;
            }
        }
    }
    name.push_str(rest);
    (name.split_whitespace().collect::<Vec<_>>().join(" "), nicks)
}

/// Usual short forms of common English first names (why: a roster lists "Thomas Reed", the
/// voicemail says "tom"). Short forms that are words ("Will", "Bill") match only as the
/// roster's other words do (capitalised, not alone).
const NICKNAMES: &[(&str, &[&str])] = &[
    ("alexander", &["alex", "sasha"]),
    ("andrew", &["andy", "drew"]),
    ("anthony", &["tony"]),
    ("benjamin", &["ben", "benny"]),
    ("catherine", &["cathy", "kate", "katie"]),
    ("charles", &["charlie", "chuck"]),
    ("christopher", &["chris"]),
    ("daniel", &["dan", "danny"]),
    ("david", &["dave"]),
    ("deborah", &["deb", "debbie"]),
    ("donald", &["don", "donnie"]),
    ("edward", &["ed", "eddie", "ted"]),
    ("elizabeth", &["liz", "beth", "betty", "eliza", "lizzie"]),
    ("gregory", &["greg"]),
    ("harold", &["hal", "harry"]),
    ("henry", &["hank", "harry"]),
    ("james", &["jim", "jimmy", "jamie"]),
    ("jennifer", &["jen", "jenny"]),
    ("john", &["jack", "johnny"]),
    ("jonathan", &["jon"]),
    ("joseph", &["joe", "joey"]),
    ("katherine", &["kathy", "kate", "katie"]),
    ("kenneth", &["ken", "kenny"]),
    ("lawrence", &["larry"]),
    ("margaret", &["maggie", "peggy", "meg"]),
    ("matthew", &["matt"]),
    ("michael", &["mike", "mikey"]),
    ("nicholas", &["nick"]),
    ("patricia", &["pat", "patty", "trish"]),
    ("rebecca", &["becky"]),
    ("richard", &["rick", "rich", "dick"]),
    ("robert", &["rob", "bob", "bobby"]),
    ("ronald", &["ron"]),
    ("samuel", &["sam"]),
    ("stephen", &["steve"]),
    ("steven", &["steve"]),
    ("susan", &["sue", "susie"]),
    ("thomas", &["tom", "tommy"]),
    ("timothy", &["tim"]),
    ("william", &["will", "bill", "billy", "liam"]),
];

fn nicknames(first: &str) -> Vec<String> {
    let key = first.to_lowercase();
    let cap = |n: &str| {
        let mut cs = n.chars();
        cs.next()
            .into_iter()
            .flat_map(char::to_uppercase)
            .chain(cs)
            .collect::<String>()
    };
    NICKNAMES
        .iter()
        .find(|(full, _)| *full == key)
        .map(|(_, shorts)| shorts.iter().map(|s| cap(s)).collect())
        .unwrap_or_default()
}

/// First names that are also common English words: on their own they are matched only
/// after a title ("Ms. June"), never bare.
pub(super) const WORD_FIRST_NAMES: &[&str] = &[
    "June", "May", "April", "August", "Rose", "Will", "Faith", "Hope", "Grace", "Joy", "Mark",
    "Bill", "Art", "Sue", "Pat", "Amber", "Summer", "Iris", "Ivy", "Lily", "Dawn", "Sky", "Page",
    "Hunter", "Chase", "Bob", "Rob", "Don", "Jack", "Frank", "Ray", "Guy", "Gene", "Max", "Sandy",
    "Holly", "Melody", "Crystal", "Destiny", "Precious", "Young", "Ward", "Case",
];

/// The regex alternatives that match one roster name in its written forms: whole (with an
/// optional middle initial), "Last, First", initial + surname, the surname alone and the
/// first name alone (each only capitalised or in capitals: "Will", "Rose" are words too).
fn roster_forms(name: &str, alts: &mut Vec<String>) {
    let words: Vec<&str> = name.split_whitespace().collect();
    let esc: Vec<String> = words.iter().map(|w| regex::escape(w)).collect();
    if words.len() == 1 {
        alts.push(esc[0].clone());
        return;
    }
    let first = &esc[0];
    let sur = esc[1..].join(r"[ \t]+");
    let init = words[0]
        .chars()
        .next()
        .map(|c| regex::escape(&c.to_string()));
    alts.push(format!(r"{first}(?:[ \t]+[A-Za-z]\.?)?[ \t]+{sur}"));
    alts.push(format!(r"{sur},[ \t]*{first}(?:[ \t]+[A-Za-z]\.?)?"));
    if let Some(i) = init {
        alts.push(format!(r"{i}\.[ \t]*{sur}"));
        alts.push(format!(r"{sur},[ \t]*{i}\."));
    }
    // Alone: in any case when the word is no common word ("okafor" in a chat), else exactly
    // capitalised or in capitals (why: "Will", "Rose", "Young" are also words).
    let cased = |w: &str| {
        if w.chars().count() >= 3 && !super::lexicon::LEXICON.is_common(w) {
            return regex::escape(w);
        }
        let mut cs = w.chars();
        let title: String = cs
            .next()
            .into_iter()
            .flat_map(char::to_uppercase)
            .chain(cs)
            .collect();
        format!(
            "(?-i:{}|{})",
            regex::escape(&title),
            regex::escape(&w.to_uppercase())
        )
    };
    // A surname of several words alone ("van der Berg"): in any case unless its last word is
    // a common one.
    if words.len() > 2 {
        if super::lexicon::LEXICON.is_common(words[words.len() - 1]) {
            alts.push(format!(r"(?-i:{sur})"));
        } else {
            alts.push(sur.clone());
        }
    }
    if words[words.len() - 1].chars().count() >= 2 {
        alts.push(cased(words[words.len() - 1]));
    }
    if words[0].chars().count() >= 3
        && !WORD_FIRST_NAMES.contains(&words[0])
        && !super::words::not_a_name(words[0])
    {
        alts.push(cased(words[0]));
    }
}

/// `s` with the Latin accents people leave out when typing ("Ibáñez" → "Ibanez").
pub(super) fn fold_ascii(s: &str) -> String {
    s.chars()
        .map(|c| match c {
            'à'..='å' | 'ā' | 'ă' | 'ą' => 'a',
            'À'..='Å' | 'Ā' | 'Ă' | 'Ą' => 'A',
            'ç' | 'ć' | 'č' => 'c',
            'Ç' | 'Ć' | 'Č' => 'C',
            'è'..='ë' | 'ē' | 'ę' | 'ě' => 'e',
            'È'..='Ë' | 'Ē' | 'Ę' | 'Ě' => 'E',
            'ì'..='ï' | 'ī' => 'i',
            'Ì'..='Ï' | 'Ī' => 'I',
            'ñ' | 'ń' | 'ň' => 'n',
            'Ñ' | 'Ń' | 'Ň' => 'N',
            'ò'..='ö' | 'ø' | 'ō' | 'ő' => 'o',
            'Ò'..='Ö' | 'Ø' | 'Ō' | 'Ő' => 'O',
            'ù'..='ü' | 'ū' | 'ů' | 'ű' => 'u',
            'Ù'..='Ü' | 'Ū' | 'Ů' | 'Ű' => 'U',
            'ý' | 'ÿ' => 'y',
            'Ý' => 'Y',
            'ł' => 'l',
            'Ł' => 'L',
            'ś' | 'š' | 'ş' => 's',
            'Ś' | 'Š' | 'Ş' => 'S',
            'ź' | 'ż' | 'ž' => 'z',
            'Ź' | 'Ż' | 'Ž' => 'Z',
            c => c,
        })
        .collect()
}

/// Labels as a scanner reads them: a stray blank may follow any character, `o` may be a zero
/// and `l` or `i` a one ("D ate of  Birth", "S oc. Sec. #", "Acc ount  No."). Matched at a word
/// start only.
fn ocr_label(labels: &[&str]) -> String {
    let alts: Vec<String> = labels
        .iter()
        .map(|l| {
            let mut s = String::new();
            for c in l.chars() {
                match c {
                    ' ' => s.push_str("[ ]{1,3}"),
                    'o' => s.push_str("[oO0][ ]?"),
                    'l' | 'i' => s.push_str(&format!("[{c}{}1l|][ ]?", c.to_ascii_uppercase())),
                    c if c.is_ascii_alphabetic() => {
                        s.push_str(&format!("[{c}{}][ ]?", c.to_ascii_uppercase()));
                    }
                    c => {
                        s.push_str(&regex::escape(&c.to_string()));
                        s.push_str("[ ]?");
                    }
                }
            }
            s
        })
        .collect();
    format!(r"\b(?:{})", alts.join("|"))
}

/// The separator a form prints after a label: "#:", ".", ":", "No.:", "(home):", or none
/// (with stray blanks).
const OCR_SEP: &str = r"(?:[ ]?\([A-Za-z ]{1,12}\))?(?:[ ]{0,2}(?:[nN][ ]?[oO0]\b|[nN][uU][mM][bB][eE][rR]|[:#.])){0,4}[ \t]{0,4}";

/// How long a prefix of `value` (whole blank-separated pieces) has the shape of `kind`'s
/// identifier once read as a scanner misreads digits (`l`, `I`, `|` for 1; `O`, `o` for 0; `S`
/// for 5, `B` for 8 outside an identifier of capitals) and
/// without its stray blanks; `None` when none has. A digit misread is only read as a digit
/// when the label says what the value is and at least a third of its digits are real ones.
pub(super) fn ocr_value(kind: Kind, value: &str) -> Option<usize> {
    // The next field's label read on after the value ("MRN:646-74469 DOB:…"): a piece of
    // letters only, one of them no misread digit, is a word, and the value ends before it.
    let value = match value.match_indices(' ').find(|&(i, _)| {
        let w = value[i + 1..].split(' ').next().unwrap_or("");
        w.len() >= 2
            && w.bytes().all(|b| b.is_ascii_alphabetic())
            && w.bytes().any(|b| !b"lIOo".contains(&b))
    }) {
        Some((i, _)) => value[..i].trim_end(),
        None => value,
    };
    let mut ends: Vec<usize> = value
        .match_indices(' ')
        .map(|(i, _)| i)
        .filter(|&i| i > 0 && value.as_bytes()[i - 1] != b' ')
        .collect();
    ends.push(value.len());
    // Trailing pieces may be left out only when they hold no real digit (why: the first ten
    // digits of a longer number are no phone number).
    let last_digit = value.rfind(|c: char| c.is_ascii_digit()).unwrap_or(0);
    // A sentence's full stop or a dangling separator is not part of the value.
    ends.into_iter()
        .rev()
        .take_while(|&e| e > last_digit)
        .map(|e| {
            let v = value[..e].trim_end_matches([' ', '.', '-', '/', '+', '(']);
            // A closing bracket is the value's only when it opened one: "(cell 938-555-0147)".
            match v.strip_suffix(')') {
                Some(x) if x.matches('(').count() <= x.matches(')').count() => x.len(),
                _ => v.len(),
            }
        })
        .find(|&e| e > 0 && ocr_shape(kind, &value[..e]))
}

fn ocr_shape(kind: Kind, v: &str) -> bool {
    let id = matches!(kind, Kind::Mrn | Kind::HealthPlan | Kind::Account);
    let (mut real, mut read) = (0usize, 0usize);
    let mut s = String::with_capacity(v.len());
    for c in v.chars() {
        match c {
            ' ' => {}
            '0'..='9' => {
                real += 1;
                s.push(c);
            }
            'l' | '|' => {
                read += 1;
                s.push('1');
            }
            // In an identifier of capitals, a capital I or O is a letter.
            'I' if !id => {
                read += 1;
                s.push('1');
            }
            'O' | 'o' if !id => {
                read += 1;
                s.push('0');
            }
            // An S for a 5 and a B for an 8, as a fax's font misreads them ("67B9", "l9S8").
            'S' if !id => {
                read += 1;
                s.push('5');
            }
            'B' if !id => {
                read += 1;
                s.push('8');
            }
            c => s.push(c),
        }
    }
    if real == 0 || real * 2 < read {
        return false;
    }
    let digits = real + read;
    let only = |extra: &str| s.chars().all(|c| c.is_ascii_digit() || extra.contains(c));
    match kind {
        Kind::Date => {
            let parts: Vec<&str> = s.split(['/', '-', '.']).collect();
            only("/-.")
                && parts.len() == 3
                && parts[0].len() <= 2
                && parts[1].len() <= 2
                && matches!(parts[2].len(), 2 | 4)
                && parts[0].parse::<u32>().is_ok_and(|m| (1..=12).contains(&m))
                && parts[1].parse::<u32>().is_ok_and(|d| (1..=31).contains(&d))
        }
        Kind::Phone | Kind::Fax => {
            only("()+.-/")
                && (digits == 10
                    || digits == 11 && s.trim_start_matches(['+', '(']).starts_with('1'))
        }
        Kind::Ssn => only("-") && digits == 9,
        Kind::Zip => only("-") && (digits == 5 || digits == 9),
        _ => {
            // Five digits, or three among letters in a long code ("3XN2-DL7-BC5O", an MBI's
            // shape): "Account 2024" is a year.
            let letters = s.chars().filter(char::is_ascii_uppercase).count();
            s.len() <= 24
                && (digits >= 5 || digits >= 3 && letters >= 2 && s.len() >= 8)
                && s.chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '-')
        }
    }
}

/// Months named in the languages patients write to a clinic in besides English and Spanish:
/// Tagalog, Portuguese, French, Italian, German, Haitian Creole, Polish, Russian, Malay and
/// Indonesian, Romanian, Czech, Finnish and Ukrainian (in the genitive or partitive a date uses:
/// "5 marca", "5 марта", "5. března", "5. maaliskuuta"; lower case, matched in any).
const FOREIGN_MONTHS: &str = "(?:enero|pebrero|marso|abril|mayo|hunyo|hulyo|agosto|setyembre|oktubre|nobyembre|disyembre|janeiro|fevereiro|março|maio|junho|julho|setembro|outubro|novembro|dezembro|janvier|février|fevrier|mars|avril|mai|juin|juillet|août|aout|septembre|octobre|novembre|décembre|decembre|gennaio|febbraio|marzo|aprile|maggio|giugno|luglio|settembre|ottobre|dicembre|januar|februar|märz|maerz|juni|juli|oktober|dezember|janvye|fevriye|jiyè|jiye|septanm|oktòb|oktob|novanm|desanm|stycznia|lutego|marca|kwietnia|maja|czerwca|lipca|sierpnia|września|wrzesnia|października|pazdziernika|listopada|grudnia|января|февраля|марта|апреля|мая|июня|июля|августа|сентября|октября|ноября|декабря|januari|februari|maart|mei|augustus|augusti|marts|maj|ocak|şubat|subat|mart|nisan|mayıs|mayis|haziran|temmuz|ağustos|agustos|eylül|eylul|ekim|kasım|kasim|aralık|aralik|machi|aprili|julai|agosti|septemba|oktoba|novemba|desemba|mac|ogos|disember|maret|agustus|desember|nopember|pebruari|ianuarie|februarie|martie|aprilie|iunie|iulie|septembrie|octombrie|noiembrie|decembrie|ledna|února|unora|března|brezna|dubna|května|kvetna|června|cervna|července|cervence|srpna|září|zari|října|rijna|listopadu|prosince|tammikuuta|helmikuuta|maaliskuuta|huhtikuuta|toukokuuta|kesäkuuta|heinäkuuta|elokuuta|syyskuuta|lokakuuta|marraskuuta|joulukuuta|січня|лютого|березня|квітня|травня|червня|липня|серпня|вересня|жовтня|листопада|грудня)";

pub(super) fn builtin_rules() -> Result<Vec<Rule>, RedactError> {
    let n = NAME_W;
    let month = r"(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\.?";
    let day = r"(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?";
    let year = r"(?:1[89]\d{2}|20\d{2})";
    let p = PARTICLES;
    let name2 = format!(r"{SUR_PREFIX}{p}{n}(?:[ \t]+(?:{INIT}|{SUR_PREFIX}{p}{n})){{0,2}}");
    let age = r"(?:9\d|1[0-2]\d)";
    let caps = CAPS_W;
    // A surname: "Okafor", "van der Berg", "St. Clair", "García-López".
    let sur = format!(r"{SUR_PREFIX}{p}{n}");
    // Every written form of a full name: "Margaret Okafor", "Margaret A. Okafor", "M. Okafor",
    // "Okafor, Margaret A.", "OKAFOR, MARGARET", "MARGARET OKAFOR".
    let full = format!(
        r"(?:{n}(?:[ \t]+{INIT})?[ \t]+{sur}|{INIT}[ \t]*{sur}|{sur},[ \t]*{n}(?:[ \t]+{INIT})?|(?:{caps}[ \t]+){{0,2}}{caps},[ \t]*{caps}(?:[ \t]+(?:[A-Z]\.|[A-Z]\b))?|{caps}(?:[ \t]+(?:[A-Z]\.|[A-Z]\b))?(?:[ \t]+{caps}){{1,3}})"
    );
    let ordw = r"(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|thirtieth|(?:twenty|thirty)[- ]?(?:first|second|third|fourth|fifth|sixth|seventh|eighth|ninth))";
    let unit_w = r"(?:one|two|three|four|five|six|seven|eight|nine)";
    let yearw = format!(
        r"(?:nineteen|eighteen)[- ]?(?:hundred|oh[- ]{unit_w}|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ]{unit_w})?)|two[- ]thousand(?:(?:[- ]and)?[- ](?:{unit_w}|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty(?:[- ]{unit_w})?))?|twenty[- ](?:oh[- ]{unit_w}|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty(?:[- ]{unit_w})?)"
    );
    // A day and a month as cardinal number words ("twenty eight", "oh three").
    let dayw = format!(
        r"(?:thirty(?:[- ]one)?|twenty(?:[- ]{unit_w})?|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|(?:oh|zero)[- ]?{unit_w}|{unit_w})"
    );
    let monthnw = format!(r"(?:ten|eleven|twelve|(?:oh|zero)[- ]?{unit_w}|{unit_w})");
    let monthw = r"(?:january|february|march|april|may|june|july|august|september|october|november|december)";
    let agew = format!(
        r"(?:ninety(?:[- ]{unit_w})?|(?:a|one)[- ]hundred(?:(?:[- ]and)?[- ](?:{unit_w}|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty(?:[- ]{unit_w})?))?)"
    );
    // A city's name, also opened by an abbreviation ("St. Cloud", "Port St. Lucie").
    let abbr = r"(?:St|Ste|Mt|Ft|Pt)\.";
    let city = format!(
        r"(?:{abbr}[ \t]+)?{n}(?:[ \t]+(?:{abbr}[ \t]+)?(?:{n}|[a-z]['’]{n}|de|la|du|del|des|sur|or|upon|am)){{0,3}}"
    );
    // A digit said alone, as a house number is read out.
    let sd = "(?:zero|oh|one|two|three|four|five|six|seven|eight|nine)";
    // A house number said as a cardinal, up to ninety-nine ("seventeen", "forty five").
    let house_w = format!(
        r"(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ]{unit_w})?|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|{unit_w})"
    );
    let street_w = "(?:street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|way|place|pl|circle|cir|trail|trl|loop|plaza|square|pike|parkway|pkwy|highway|hwy|terrace|ter|court|ct|crescent|alley|grove|cove|glen|trace|crossing|landing|ridge|row|path|bend)";
    let specs: Vec<(Kind, u8, Check, String)> = vec![
        // --- streets named type first, cities in a form's field, numbers and dates said aloud ---
        (
            Kind::Address,
            40,
            Check::None,
            // A street whose type comes first, as Spanish, French, Italian and Portuguese
            // addresses write it: "9303 Calle Luna", "944 Rue Cartier #3", "12 Rua das Flores";
            // also printed in capitals, as a mailing block is ("2748 CALLE ESPERANZA").
            format!(r"\b\d{{1,6}}[ \t]+(?:Calle|Callejón|Calzada|Camino|Carrera|Carrer|Avenida|Avda\.?|Av\.|Paseo|Rue|Avenue|Boulevard|Chemin|Allée|Via|Viale|Piazza|Strada|Rua|Travessa|Largo)[ ](?:(?:de|del|la|las|los|da|das|do|dos|des|du|di|della|le|les)[ ])*(?:[ld]['’])?{n}(?:[ ]{n}){{0,2}}(?:,?[ \t]*(?:Apt|Apartment|Unit|Suite|Ste|Lot|Bldg|Building|Rm|Room|Fl|Floor|#)\.?[ \t]*#?[A-Za-z0-9-]+)?|\b\d{{1,6}}[ \t]+(?:CALLE|CALLEJÓN|CALZADA|CAMINO|CARRERA|CARRER|AVENIDA|AVDA\.?|AV\.|PASEO|RUE|AVENUE|BOULEVARD|CHEMIN|ALLÉE|VIA|VIALE|PIAZZA|STRADA|RUA|TRAVESSA|LARGO)[ ](?:(?:DE|DEL|LA|LAS|LOS|DA|DAS|DO|DOS|DES|DU|DI|DELLA|LE|LES)[ ])*(?:[LD]['’])?{CAPS_W}(?:[ ]{CAPS_W}){{0,2}}(?:,?[ \t]*(?:APT|UNIT|STE|LOT|BLDG|RM|FL|#)\.?[ \t]*#?[A-Z0-9-]+)?"),
        ),
        (
            Kind::Address,
            40,
            Check::None,
            // A form's city field: "City: Pueblo   State: CO", "Town: St. Cloud".
            format!(r"(?m)\b(?i:city|town|county)[ \t]*:[ \t]*(?P<v>(?:(?:St|Ste|Mt|Ft|Pt)\.?[ ])?{n}(?:[ ](?:(?:St|Ste|Mt|Ft|Pt)\.?[ ])?{n}){{0,2}})"),
        ),
        (
            Kind::Phone,
            44,
            Check::None,
            // A number read out in groups, the last ones as pairs ("five zero nine ... eight
            // two two ... thirty seven sixty six"): three digits said one by one first.
            r"(?i)\b(?:(?:zero|oh|o|one|two|three|four|five|six|seven|eight|nine)(?:[ \t]*(?:,|\.\.\.|…)[ \t]*|[ \t]+|-)){2}(?:zero|oh|o|one|two|three|four|five|six|seven|eight|nine)(?:(?:[ \t]*(?:,|\.\.\.|…)[ \t]*|[ \t]+|-)(?:zero|oh|o|one|two|three|four|five|six|seven|eight|nine|(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)){3,10}\b".into(),
        ),
        (
            Kind::Date,
            48,
            Check::None,
            // A month and day before a time: "moved … to 3/22 at 2:15 PM" (no fraction is).
            r"(?i)\b(?P<v>(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01]))[ \t]+(?:at|@)[ \t]+\d{1,2}(?::[0-5]\d[ \t]*(?:[ap]\.?m\b\.?)?|[ \t]*[ap]\.?m\b\.?)".into(),
        ),
        (
            Kind::Age,
            55,
            Check::None,
            // An age and a sex after a name, as a handoff's header lists them: "Dlamini C, 92
            // M, Room 417", "(94 F)".
            r"[,(][ \t]*(?P<v>9\d|1[0-2]\d)[ \t]*[MF][ \t]*[,;)]".into(),
        ),
        (
            Kind::Age,
            55,
            Check::None,
            // An age and a sex as a header pairs them: "Age/Sex: 92/F", "94 / M".
            r"\b(?P<v>9\d|1[0-2]\d)[ \t]*/[ \t]*(?:M|F|male|female)\b".into(),
        ),
        (
            Kind::Address,
            39,
            Check::None,
            // A rural route's or a highway contract's box: "RR 2 Box 45", "HC 61 Box 12".
            r"\b(?:RR|R\.R\.|HC|(?i:rural[ \t]+route|star[ \t]+route))[ \t]*#?\d{1,4},?[ \t]+(?i:box)[ \t]+#?\d{1,6}\b".into(),
        ),
        (
            Kind::Device,
            70,
            Check::None,
            // A network card's hardware address: "00:1A:2B:3C:4D:5E".
            r"\b[0-9A-Fa-f]{2}(?:[:-][0-9A-Fa-f]{2}){5}\b".into(),
        ),
        (
            Kind::Phone,
            59,
            Check::Near(&["phone", "tel", "call", "cell", "mobile", "fax", "whatsapp"]),
            // Dialled from abroad with 00 for the plus, next to a phone word ("Tel.: 0044 20
            // 7946 0958"; without the word a ZIP of Puerto Rico opens so).
            r"\b00[1-9]\d{0,2}(?:[ .-]?\d{1,5}){2,6}\b".into(),
        ),
        (
            Kind::Date,
            52,
            Check::None,
            // A day of a month without a year: "on the 5th of January".
            format!(r"(?i)\bthe[ \t]+(?:{ordw}|{day})[ \t]+of[ \t]+{monthw}\b"),
        ),
        (
            Kind::Age,
            55,
            Check::None,
            // A decade over 89 in words: "in her nineties", "in his early hundreds".
            r"(?i)\bin[ \t]+(?:his|her|their)[ \t]+(?:(?:early|mid|late)[ \t-]+)?(?P<v>nineties|hundreds)\b".into(),
        ),
        (
            Kind::Zip,
            44,
            Check::None,
            // Canada's and the United Kingdom's postcodes: "M5V 2T6", "NW1 6XE", "SW1A 1AA".
            r"\b(?:[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z][ -]?\d[ABCEGHJ-NPRSTV-Z]\d|[A-Z]{1,2}\d[A-Z\d]?[ ]\d[ABD-HJLNP-UW-Z]{2})\b".into(),
        ),
        (
            Kind::Address,
            38,
            Check::None,
            // A flat, as British addresses number it: "Flat 3, 12 Baker Street".
            r"\bFlat[ \t]+\d{1,4}[A-Z]?\b".into(),
        ),
        (
            Kind::Zip,
            46,
            Check::None,
            // A ZIP code read out digit by digit: "zip is nine oh two one oh".
            r"(?i)\bzip(?:[ \t]*code)?[ \t]*(?:is|:)?[ \t]+(?P<v>(?:(?:zero|oh|o|one|two|three|four|five|six|seven|eight|nine)(?:[ \t]*,[ \t]*|[ \t]+|-)){4}(?:zero|oh|o|one|two|three|four|five|six|seven|eight|nine))\b".into(),
        ),
        (
            Kind::Room,
            45,
            Check::None,
            // A room or bed said in words: "room four twelve", "bed two".
            r"(?i)\b(?:room|rm|bed)[ \t]+(?:number[ \t]+)?(?P<v>(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[ \t-]+(?:zero|oh|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)){0,2})\b".into(),
        ),
        // --- labelled fields of a scanned form, read through the scanner's misreadings ---
        (
            Kind::Date,
            53,
            Check::Ocr,
            format!(
                r"{}{OCR_SEP}(?P<v>[0-9lIOSB|](?:[0-9lIOSB|/.-]|[ ][0-9lIOSB|/.-]){{3,14}})",
                ocr_label(&[
                    "date of birth", "birth date", "birthdate", "dob", "d.o.b", "date of service",
                    "service date", "visit date", "admission date", "admit date", "discharge date",
                    "dos", "date",
                ])
            ),
        ),
        (
            Kind::Phone,
            60,
            Check::Ocr,
            format!(
                r"{}{OCR_SEP}(?P<v>[0-9lIOSB|(+](?:[0-9lIOSB|()/.+-]|[ ]{{1,2}}[0-9lIOSB|()/.+-]){{6,24}})",
                ocr_label(&[
                    "home phone", "work phone", "cell phone", "telephone", "phone", "tel", "cell",
                    "mobile", "fax",
                ])
            ),
        ),
        (
            Kind::Ssn,
            81,
            Check::Ocr,
            format!(
                r"{}{OCR_SEP}(?P<v>[0-9lIOSB|](?:[0-9lIOSB|-]|[ ]{{1,2}}[0-9lIOSB|-]){{6,16}})",
                ocr_label(&["social security number", "social security no", "social security", "soc. sec", "soc sec", "ssn"])
            ),
        ),
        (
            Kind::Account,
            76,
            Check::Ocr,
            format!(
                r"{}{OCR_SEP}(?P<v>[A-Z0-9l|](?:[A-Z0-9l|-]|[ ]{{1,2}}[A-Z0-9l|-]){{3,28}})",
                ocr_label(&["account number", "account no", "account", "acct no", "acct"])
            ),
        ),
        (
            // Its kind is read from the words before it (insurance → health plan).
            Kind::Mrn,
            77,
            Check::Ocr,
            // A form's mark after the label is required ("ID #:"; "Boise, ID 83702" is a state).
            format!(
                r"{}[ ]?(?:[:#][ ]?){{1,3}}[ \t]{{0,4}}(?P<v>[A-Z0-9l|](?:[A-Z0-9l|-]|[ ]{{1,2}}[A-Z0-9l|-]){{3,28}})",
                ocr_label(&[
                    "member id", "subscriber id", "policy no", "policy", "medicaid id", "medicare id",
                    "mrn", "med rec no", "chart no", "id",
                ])
            ),
        ),
        (
            Kind::Zip,
            46,
            Check::Ocr,
            format!(
                r"{}{OCR_SEP}(?P<v>[0-9lIOSB|](?:[0-9lIOSB|-]|[ ][0-9lIOSB|-]){{3,10}})",
                ocr_label(&["zip code", "zip", "postal code"])
            ),
        ),
        (
            Kind::Address,
            41,
            Check::HasDigit,
            format!(
                // Bounded: on a text of one long line, "the rest of the line" was the rest of
                // the text (a street alone is still found by its shape).
                r"(?m){}[ ]?:[ \t]*(?P<v>[^\n\r]{{0,100}}[0-9][^\n\r]{{0,78}}?)[ \t]*\r?$",
                ocr_label(&["address", "addr", "street", "residence"])
            ),
        ),
        // --- contact ---
        (
            Kind::Email,
            90,
            Check::None,
            r"(?i)\b[a-z0-9à-öø-ÿā-ž._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}\b".into(),
        ),
        (
            Kind::Email,
            89,
            Check::None,
            // Spelled-out or obfuscated addresses: "jane dot doe at example dot com",
            // "jane.doe [at] example [dot] net", "jdoe(at)example.org". A known top-level
            // domain must end it (why: "seen at home" is not an address).
            r"(?i)\b[a-z0-9_%+-]+(?:(?:\.|\s+dot\s+|\s*[\[(]dot[\])]\s*)[a-z0-9_%+-]+)*(?:\s*[\[({]at[\])}]\s*|\s+at\s+)[a-z0-9-]+(?:(?:\.|\s+dot\s+|\s*[\[(]dot[\])]\s*)[a-z0-9-]+)*(?:\.|\s+dot\s+|\s*[\[(]dot[\])]\s*)(?:com|org|net|edu|gov|mil|io|us|uk|ca|info|biz|health|care|me)\b".into(),
        ),
        (
            Kind::Url,
            85,
            Check::None,
            r#"(?i)\b(?:https?://|ftp://|www\.)[^\s<>"']+"#.into(),
        ),
        (
            Kind::Url,
            84,
            Check::None,
            r"(?i)\b[a-z0-9-]+(?:\.[a-z0-9-]+)*\.(?:com|org|net|edu|gov|io|health|care)/[^\s<>]*".into(),
        ),
        (
            Kind::Ip,
            70,
            Check::None,
            r"\b(?:(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\.){3}(?:25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)\b".into(),
        ),
        (
            Kind::Ip,
            70,
            Check::None,
            r"(?i)\b(?:[0-9a-f]{1,4}:){7}[0-9a-f]{1,4}\b|(?i)\b(?:[0-9a-f]{1,4}:){1,6}:(?:[0-9a-f]{1,4}(?::[0-9a-f]{1,4}){0,5})?\b".into(),
        ),
        (
            Kind::Phone,
            60,
            Check::PhoneOrFax,
            // Extensions in any case and after a comma ("555-0100, Ext. 12"): the label
            // convention keeps the extension with its number.
            // A word processor's dashes too: en dash, non-breaking hyphen, figure dash.
            r"(?:\+?1[\s.\-–‑‒]?)?(?:\(\d{3}\)\s?\d{3}[\s.\-–‑‒]?|\b\d{3}[\s./\-–‑‒]\d{3}[\s.\-–‑‒])\d{4}\b(?:,?\s*(?i:x|ext\.?|extension)\s*\d{1,6})?".into(),
        ),
        (
            Kind::Phone,
            60,
            Check::PhoneOrFax,
            // Ten digits run together, also with the country code ("+13245550166").
            r"(?:\+1|\b1?)\d{10}\b(?:,?\s*(?i:x|ext\.?|extension)\s*\d{1,6})?".into(),
        ),
        (
            Kind::Phone,
            59,
            Check::IntlPhone,
            // International: "+44 20 7946 0958", "+44 (0)161 496 0591", "+353 1 555 2249".
            // Groups are separated by a space, dot or dash only (not a newline: the next line
            // may start with an unrelated number).
            r"\+\d{1,3}(?:[ .-]?\(\d{1,4}\)|[ .-]?\d{1,5}){2,6}\b(?:,?\s*(?i:x|ext\.?|extension)\s*\d{1,6})?".into(),
        ),
        (
            Kind::Phone,
            59,
            Check::PhoneOrFax,
            // A number dialled at home abroad, its trunk 0 first and eleven digits in all:
            // "0917 182 7973" (the Philippines), "0300-7443945" (Pakistan), "0161 496 0591",
            // "020 7946 0958", "07700 900123" (the United Kingdom).
            r"\b0\d{3}[ -]\d{3}[ -]\d{4}\b|\b0\d{3}-\d{7}\b|\b0\d{2}[ -]\d{4}[ -]\d{4}\b|\b0\d{4}[ ]\d{6}\b".into(),
        ),
        (
            Kind::Phone,
            59,
            Check::PhoneOrFax,
            // Ten digits with the trunk 0, grouped as East Africa, France and Italy print them:
            // "0712 345 678" (Kenya, Tanzania), "06 12 34 56 78", "06 1234 5678".
            r"\b0[1-9]\d{2}[ -]\d{3}[ -]\d{3}\b|\b0[1-9](?:[ .]\d{2}){4}\b|\b0\d[ ]\d{4}[ ]\d{4}\b".into(),
        ),
        (
            Kind::Phone,
            58,
            Check::Near(&["phone", "tel", "móvil", "movil", "mobile", "cell", "whatsapp", "número", "numero", "number", "llama", "call"]),
            // Nine digits in threes, as Spain writes a mobile ("Móvil 612 345 678"), next to a
            // phone word (alone, three groups of three are anything).
            r"\b[6-9]\d{2}[ ]\d{3}[ ]\d{3}\b".into(),
        ),
        (
            Kind::Phone,
            58,
            Check::PhoneOrFax,
            r"(?i)(?:phone|tel|call|cell|mobile|fax|ph|pager|ext)\.?\s*(?:at|:|#|number|no\.?)?\s*(?P<v>\d{3}[\s.-]\d{4}\b(?:\s*(?:x|ext\.?)\s*\d{1,6})?)".into(),
        ),
        (
            Kind::Phone,
            58,
            Check::PhoneOrFax,
            // A German-speaking country's number after its label: the area code with its
            // trunk 0, a blank or a slash, then the subscriber's digits ("Tel.: 0550 4505440",
            // "Telefon 030/1234567", "Handy 0171 2345678").
            r"(?i)\b(?:tel|telefon|phone|fax|telefax|handy|mobil|mobile)\.?[ \t]*:?[ \t]*(?P<v>0[1-9]\d{1,4}(?:[ ]|[ ]?/[ ]?)\d{4,8})\b".into(),
        ),
        (
            Kind::Phone,
            58,
            Check::PhoneOrFax,
            r"(?i)\b(?:ext\.?|extension|(?-i:x))\s*\d{3,6}\b".into(),
        ),
        // --- government / record numbers ---
        (
            Kind::Ssn,
            80,
            Check::None,
            r"\b\d{3}[\-–‑‒]\d{2}[\-–‑‒]\d{4}\b".into(),
        ),
        (
            Kind::Ssn,
            81,
            Check::None,
            r"(?i)\b(?:ssn|ss#|soc(?:ial)?\.?\s*sec(?:urity)?\.?(?:\s*(?:number|no\.?|#))?)\s*(?:is|:|#)?\s*(?P<v>\d{3}[\s.-]?\d{2}[\s.-]?\d{4}|x{3}-x{2}-\d{4}|\*{3}-\*{2}-\d{4})\b".into(),
        ),
        (
            Kind::Ssn,
            81,
            Check::None,
            // A national identity number as other countries label it, the SSN's peer:
            // Swedish "personnummer 19461231-1234", Danish "CPR-nummer er 311246-1234",
            // Norwegian "fødselsnummer", Dutch "BSN", Czech "rodné číslo 461231/1234",
            // Romanian "CNP", Indonesian "NIK", Finnish "henkilötunnus", Polish "PESEL".
            r"(?i)\b(?:personnummer|personnr\.?|person-?nr\.?|cpr(?:-?(?:nummer|nr\.?|no\.?))?|f[øo]dselsnummer|f[øo]dselsnr\.?|burgerservicenummer|bsn|sofinummer|rodn[ée][ \t]+[čc][íi]slo|cnp|cod(?:ul)?[ \t]+numeric[ \t]+personal|nik|henkil[öo]tunnus|hetu|pesel)(?:[ \t]+(?:er|är|is|je|ist|este|adalah|on|mitt|min|mit|saya))?[ \t]*[:#=]?[ \t]*(?P<v>\d{6}[-+/ ]?\d{3,4}[0-9A-Z]?|\d{8}[- ]?\d{4}|\d{9,16})\b".into(),
        ),
        (
            Kind::Ssn,
            80,
            Check::None,
            // A Malaysian identity card's number (MyKad "870612-10-5543"): the holder's birth
            // date as YYMMDD, a place code, four digits. The shape alone says what it is.
            r"\b\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])-\d{2}-\d{4}\b".into(),
        ),
        (
            Kind::Ssn,
            80,
            Check::None,
            // A national number that ends in one check digit after a dash: Pakistan's CNIC
            // "35202-1234567-1", the Philippines' SSS "34-1234567-8" and PhilHealth
            // "12-345678901-2"; Tanzania's NIDA "19900512-12345-00001-25" (a birth date, then
            // groups). Read whole (a record rule takes only the middle run of digits).
            r"\b\d{2,5}-\d{7,9}-\d\b|\b\d{8}-\d{5}-\d{5}-\d{2}\b".into(),
        ),
        (
            Kind::Ssn,
            80,
            Check::None,
            // India's Aadhaar, twelve digits in fours ("2345 6789 0123", never opening with 0
            // or 1); no three groups of a card's four (no group of digits before or after).
            r"(?m)(?:^|[^ \d]|[^\d][ ])(?P<v>[2-9]\d{3}[ ]\d{4}[ ]\d{4})(?:$|[^ \d]|[ ][^\d])".into(),
        ),
        (
            Kind::Ssn,
            81,
            Check::None,
            // Canada's social insurance number by its label (SIN, French NAS): three threes.
            r"\b(?:SIN|NAS|(?i:social[ \t]+insurance[ \t]+(?:number|no\.?)|num[ée]ro[ \t]+d['’]assurance[ \t]+sociale))[ \t]*(?:#|:|no\.?)?[ \t]*(?P<v>\d{3}[ -]?\d{3}[ -]?\d{3})\b".into(),
        ),
        (
            Kind::Ssn,
            80,
            Check::Near(SSN_WORDS),
            // Dots, spaces or nothing between the groups, with an SSN word a few words before
            // ("SSN on W-9: 903.56.5034", "SSN ending; full 976139903").
            r"\b\d{3}(?:\s*-\s*|[ .])?\d{2}(?:\s*-\s*|[ .])?\d{4}\b".into(),
        ),
        (
            Kind::HealthPlan,
            82,
            Check::HasDigit,
            // A health insurance policy as Russian mail labels it ("Полис ОМС 9654503712239403").
            r"(?i)(?:полис(?:[ \t]+(?:омс|дмс))?|омс)[ \t]*(?:№|#|:|-)?[ \t]*(?P<v>\d(?:[ ]?\d){8,19})\b".into(),
        ),
        (
            Kind::Mrn,
            82,
            Check::HasDigit,
            // A record's number as other languages label it: French "numéro de dossier",
            // Spanish "número de expediente", "historia clínica", Portuguese "prontuário",
            // German "Patientennummer", "Fallnummer", Polish "numer karty", Russian "номер
            // карты", Greek "αριθμός φακέλου" (also in Latin letters), romanised Chinese
            // "bingli hao", Korean "hwanja beonho".
            r"(?i)\b(?:num[ée]ro[ \t]+de[ \t]+dossier(?:[ \t]+m[ée]dical)?|n[°º][ \t]*(?:de[ \t]+)?dossier|dossier[ \t]+n[°º]|n[úu]mero[ \t]+de[ \t]+(?:expediente|historia(?:[ \t]+cl[íi]nica)?|prontu[áa]rio|processo)|historia[ \t]+cl[íi]nica|prontu[áa]rio|patientennummer|patienten-?id|fallnummer|numer[ \t]+(?:karty|pacjenta|historii[ \t]+choroby)|nr[ \t]+(?:karty|pacjenta)|номер[ \t]+(?:медицинской[ \t]+)?карты|(?:arithm[oó]s|αριθμός|αρ\.)[ \t]+(?:fak[eé]lou|φακέλου|mitr[oó]ou|μητρώου)|bingli[ \t]*hao|binglihao|hwanja[ \t]+beonho|chateu[ \t]+beonho)[ \t]*(?:est|ist|es|é|to|jest|shi|:|#|-|=)?[ \t:]*(?P<v>[A-Za-z]{0,3}-?\d[A-Za-z0-9-]{2,20}[A-Za-z0-9])\b".into(),
        ),
        (
            Kind::Mrn,
            82,
            Check::HasDigit,
            // The label may say where the record is kept before its colon ("Record no. at
            // site: …", "MRN (legacy): …").
            format!(r"(?i)\b(?:mrn|mr\s*#|mr\s*no\.?|med(?:ical)?\s*rec(?:ord)?(?:\s*(?:number|no\.?|num|#))?|chart(?:\s*(?:number|no\.?|#|id))?|patient\s*(?:id|#|number)|pt\s*(?:id|#)|hospital\s*(?:number|no\.?|#)|encounter\s*(?:id|#|number)|accession\s*(?:number|no\.?|#)|specimen\s*(?:id|#)|unit\s*(?:number|no\.?|#)|(?-i:EMPI|CSN|FIN|HAR|MPI)|(?:ehr|emr)[ \t]*(?:#|id\b|number|no\.)|person\s*id|enterprise\s*id|record\s*(?:number|no\.?|#))(?:[ \t]+(?:at|in|from|of)[ \t]+[A-Za-z]{{2,12}}[ \t]*:|[ \t]*\([A-Za-z ]{{1,16}}\)[ \t]*:)?{SEP}(?P<v>[A-Za-z0-9][A-Za-z0-9-]{{2,24}}[A-Za-z0-9])"),
        ),
        (
            Kind::HealthPlan,
            78,
            Check::HasDigit,
            format!(r"(?i)\b(?:member\s*(?:id|#|no\.?|number)|subscriber\s*(?:id|#|no\.?|number)|policy(?:\s*(?:id|#|no\.?|number))?|plan\s*(?:id|#|no\.?|number)|health\s*plan\s*(?:id|#|no\.?|number)?|beneficiary\s*(?:id|#|no\.?|number)|medicaid(?:\s*(?:id|#|no\.?|number))?|medicare(?:\s*(?:id|#|no\.?|number|mbi))?|mbi|insurance\s*(?:id|#|no\.?|number)|group(?:\s*(?:id|#|no\.?|number))?|ins\.?\s*id){SEP}{ID_V}"),
        ),
        (
            Kind::Account,
            76,
            Check::HasDigit,
            format!(r"(?i)\b(?:acct\.?(?:\s*(?:no\.?|number|#))?|encounter|visit\s*(?:number|no\.?|#|id)|account\s*(?:number|no\.?|#|id|:)|billing\s*(?:account|id|#)|invoice\s*(?:number|no\.?|#)|claim\s*(?:number|no\.?|#|id)|case\s*(?:number|no\.?|#|id)|routing\s*(?:number|no\.?|#)|guarantor\s*(?:id|#|number)|fallnummer|fall-nr\.?|aktenzeichen|kontonummer|kundennummer|klantnummer|rekeningnummer|sagsnummer|saksnummer|ärendenummer|numero\s+(?:di\s+)?pratica|n[uú]mero\s+de\s+(?:caso|expediente|cuenta|conta)|num[ée]ro\s+de\s+(?:dossier|compte)|dosya\s+numaras[ıi]|hesap\s+numaras[ıi]){SEP}{ID_V}"),
        ),
        (
            Kind::License,
            77,
            Check::HasDigit,
            format!(r"(?i)\b(?:(?-i:DL)|driver'?s?\s*licen[cs]e(?:\s*(?:number|no\.?|#))?|licen[cs]e\s*(?:number|no\.?|#|id)|state\s*licen[cs]e(?:\s*(?:number|no\.?|#))?|medical\s*licen[cs]e(?:\s*(?:number|no\.?|#))?|(?-i:NPI)|(?-i:DEA)(?:\s*(?:number|no\.?|#|registration))?|certificate\s*(?:number|no\.?|#)|passport(?:\s*(?:number|no\.?|#))?){SEP}(?P<v>\d{{1,3}}(?:[ ]\d{{3}}){{2}}\b|[A-Za-z0-9][A-Za-z0-9-]{{3,24}}[A-Za-z0-9])"),
        ),
        (
            Kind::License,
            77,
            Check::HasDigit,
            // A licence's digits in groups of three, as a state prints them ("licence 39 187
            // 557", "Driver's license #: 70 657 925"): after the bare word too, the groups
            // being no other number's form.
            r"(?i)\blicen[cs]e[ \t]+(?:(?:number|no\.?|#)[ \t]*)?(?:is[ \t]+|[:#][ \t]*)?(?P<v>\d{1,3}(?:[ ]\d{3}){2})\b".into(),
        ),
        (
            Kind::Device,
            77,
            Check::HasDigit,
            format!(r"(?i)\b(?:serial\s*(?:number|no\.?|#)|s/n|sn:|device\s*(?:id|serial|#|number)|(?-i:UDI)|implant\s*(?:id|serial|#)|pump\s*(?:id|serial|#)|pacemaker\s*(?:serial|id|#)|monitor\s*(?:id|serial|#)|IMEI){SEP}(?P<v>[A-Za-z0-9(][A-Za-z0-9()/-]{{3,60}}[A-Za-z0-9])"),
        ),
        (
            Kind::Vehicle,
            78,
            Check::HasDigit,
            // A plate after its state's code ("plate AR KNY-5804", "tag OH ABC 1234"): the
            // state is no identifier, the plate's characters after it are.
            format!(r"(?i)\b(?:licen[cs]e\s*plate|plate|tag)(?:\s*(?:number|no\.?|#))?[ \t:#]+(?-i:{STATES})[ \t]+(?P<v>(?-i:[A-Z0-9]{{1,4}}[ -]?[A-Z0-9]{{2,5}}))\b"),
        ),
        (
            Kind::Vehicle,
            77,
            Check::HasDigit,
            format!(r"(?i)\b(?:licen[cs]e\s*plate|plate|tag|vin)(?:\s*(?:number|no\.?|#))?[\s:#]{SEP}(?P<v>[A-Za-z0-9][A-Za-z0-9 -]{{1,8}}[A-Za-z0-9])\b"),
        ),
        (
            Kind::Vehicle,
            74,
            Check::Vin,
            r"\b[A-HJ-NPR-Z0-9]{17}\b".into(),
        ),
        (
            Kind::Card,
            79,
            Check::Luhn,
            r"\b(?:\d[ -]?){12,18}\d\b".into(),
        ),
        // --- dates and ages ---
        (
            Kind::Date,
            50,
            Check::None,
            r"\b(?:0?[1-9]|1[0-2])[/.\-–‑‒](?:0?[1-9]|[12]\d|3[01])[/.\-–‑‒](?:\d{4}|\d{2})\b".into(),
        ),
        (
            Kind::Date,
            50,
            Check::None,
            format!(r"\b{year}[/.-](?:0?[1-9]|1[0-2])[/.-](?:0?[1-9]|[12]\d|3[01])\b"),
        ),
        (
            Kind::Date,
            50,
            Check::None,
            // European day-first with a day > 12 is unambiguous: 25/12/2023.
            // Also with dashes: 14-03-1958.
            r"\b(?:1[3-9]|2\d|3[01])[/.\-–](?:0?[1-9]|1[0-2])[/.\-–](?:\d{4}|\d{2})\b".into(),
        ),
        (
            Kind::Date,
            52,
            Check::None,
            format!(r"(?i)\b{month}\s+{day}(?:,?\s+{year})?\b"),
        ),
        (
            Kind::Date,
            52,
            Check::None,
            format!(r"(?i)\b{day}(?:\s+of)?\s+{month},?\s+{year}\b"),
        ),
        (
            Kind::Date,
            52,
            Check::None,
            // Day-month-year run together or with dashes/slashes, the form many EHR exports
            // use: "04-Mar-1952", "04MAR1952", "4/Mar/1952".
            format!(r"(?i)\b{day}[-/.]?{month}[-/.]?{year}\b"),
        ),
        (
            Kind::Date,
            52,
            Check::None,
            // Day-month-year with a two-digit year and dashes, the form lab systems and
            // older EHRs print ("10-FEB-25", "8-Jun-26"): both dashes, so no count of a
            // month ("3-Mar") nor a range.
            r"(?i)\b(?:0?[1-9]|[12]\d|3[01])-(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)-\d{2}\b".into(),
        ),
        (
            Kind::Date,
            52,
            Check::None,
            // A Spanish or Portuguese date, the way patients write in those languages: "14 de
            // marzo de 1961", "el 16 de junio", "20 de julho de 1949" (a day is given with its
            // month, as in English "16 June"); Catalan too ("24 de març de 1957", "8 d'abril").
            r"(?i)\b(?:0?[1-9]|[12]\d|3[01])(?:º|°|o)?(?:[ \t]+de[ \t]+|[ \t]+d['’])(?:enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|setiembre|octubre|noviembre|diciembre|janeiro|fevereiro|março|marco|maio|junho|julho|setembro|outubro|novembro|dezembro|gener|febrer|març|maig|juny|juliol|agost|setembre|novembre|desembre)(?:[ \t]+(?:de|del)[ \t]+(?:1[89]|20)\d{2})?\b".into(),
        ),
        (
            Kind::Date,
            52,
            Check::None,
            // A date in the words of Vietnamese ("ngày 05 tháng 03 năm 1950", "12 tháng 4"):
            // the day, "month" and its number, "year" and its number.
            r"(?i)\b(?:0?[1-9]|[12]\d|3[01])[ \t]+tháng[ \t]+(?:0?[1-9]|1[0-2])(?:,?[ \t]+năm[ \t]+(?:1[89]|20)\d{2})?\b".into(),
        ),
        (
            Kind::Date,
            52,
            Check::None,
            // A date in Chinese, Japanese or Korean digits: "1950年3月5日", "1950년 3월 5일".
            r"(?:(?:1[89]|20)\d{2}[ \t]*(?:年|년)[ \t]*)?(?:0?[1-9]|1[0-2])[ \t]*(?:月|월)[ \t]*(?:0?[1-9]|[12]\d|3[01])[ \t]*(?:日|일)".into(),
        ),
        (
            Kind::Address,
            40,
            Check::None,
            // A mailing block's street line printed in capitals, alone on its line ("12 OAK
            // ST", "9 ELM CT APT 2", "4410 N LINCOLN BLVD"): any house number, the line itself
            // is the cue.
            format!(r"(?m)^[ \t]*(?P<v>(?:[NSEW]\d{{3,6}}|\d{{1,6}}(?:-?[A-Z])?)[ \t]+(?:(?:[NSEW]|NE|NW|SE|SW)\.?[ \t]+)?(?:(?:{CAPS_W}(?:[ʻ'’][A-Z]+)?|\d{{1,3}}(?:ST|ND|RD|TH))[ \t]+){{1,4}}(?:STREET|ST|AVENUE|AVE|ROAD|RD|BOULEVARD|BLVD|LANE|LN|DRIVE|DR|WAY|WY|COURT|CT|PLACE|PL|TERRACE|TER|CIRCLE|CIR|PARKWAY|PKWY|HIGHWAY|HWY|SQUARE|SQ|TRAIL|TRL|LOOP|ROW|PATH|PIKE|ALLEY|ALY|PLAZA|CRESCENT|CRES|RUN|RIDGE|CROSSING|XING|COVE|BEND|GLEN|HEIGHTS|HTS|WALK|GROVE|PASS|LANDING|MEWS|POINT|VIEW|HILL|TRACE|TRCE|CHASE|BLUFF|SPUR)\.?(?:[ \t]+(?:[NSEW]|NE|NW|SE|SW))?(?:,?[ \t]*(?:APT|UNIT|STE|SUITE|LOT|TRLR|SPC|BLDG|RM|FL|#)\.?[ \t]*#?[A-Z0-9-]+)?)[ \t]*\r?$"),
        ),
        (
            Kind::Date,
            52,
            Check::None,
            // A date with a month named in another language and a year, either order:
            // Tagalog "Abril 8, 1938", French "5 mars 1950", Italian "3 luglio 1944", German
            // "5. März 1950", Haitian Creole "12 desanm 1961" (the year makes a day of it, as
            // "May 3, 1950" is one in English).
            // ("1er mars", "1º de maio": the first of a month as French and Portuguese write it.)
            format!(r"(?i)\b(?:{fm}\.?[ \t]+{day},?[ \t]+{year}|{day}(?:\.|er|º|°)?[ \t]+(?:de[ \t]+)?(?:{fm}|{month})\.?,?[ \t]+{year}(?:[ \t]?г)?)\b", fm = FOREIGN_MONTHS),
        ),
        (
            Kind::Date,
            52,
            Check::None,
            // A date as a camera's metadata writes it, colons between year, month and day
            // ("Date/Time Original : 2025:11:26 18:54:20", EXIF's own format).
            r"\b(?:1[89]|20)\d{2}:(?:0[1-9]|1[0-2]):(?:0[1-9]|[12]\d|3[01])\b".into(),
        ),
        (
            Kind::Date,
            51,
            Check::Ocr,
            // A fax's or scan's date with misread digits and no label ("O2/O5/2O26",
            // "1l/12/2025"): a month, a day and a four-digit year, each a digit or a letter a
            // scanner reads for one (checked as a date once read back, a third of it digits).
            r"\b[0-3Ol]?[0-9Ol]/[0-3Ol]?[0-9Ol]/[12l][09O][0-9Ol]{2}\b".into(),
        ),
        (
            Kind::Phone,
            59,
            Check::Ocr,
            // A phone number with misread digits and no label ("callback (2l3) 555-O187",
            // "3l2.555.Ol99"): a North American number's punctuation, ten digits once read back.
            r"\([2-9lO][0-9lO]{2}\)[ ]?[0-9lO]{3}[-.][0-9lO]{4}\b|\b[2-9lO][0-9lO]{2}[-.][0-9lO]{3}[-.][0-9lO]{4}\b".into(),
        ),
        (
            Kind::Date,
            52,
            Check::None,
            // A timestamp's date (ISO 8601 with its time glued by a "T": "ts=2026-04-22T07:52:18Z").
            r"\b(?P<v>(?:1[89]|20)\d{2}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01]))T\d{1,2}:\d{2}".into(),
        ),
        (
            Kind::Date,
            52,
            Check::None,
            // A date as Chinese, Japanese and Korean write it, in their script or romanised:
            // "1982 nian 9 yue 7 ri", "1993nyeon 1wol 6il", "9wol 7il", "1982年9月7日", "9월 7일".
            r"(?i)\b(?P<v>(?:(?:1[89]|20)\d{2}[ \t]*(?:nian|nyeon|年|년)[ \t]*)?(?:0?[1-9]|1[0-2])[ \t]*(?:yue|wol|月|월)[ \t]*(?:0?[1-9]|[12]\d|3[01])[ \t]*(?:ri|hao|il|日|号|일))(?:[^a-z]|$)".into(),
        ),
        (
            Kind::Date,
            50,
            Check::None,
            // A day and a month without a year after a date's word in the languages that write
            // the day first with dots ("Termin am 7.8.", "vom 12.3. bis", "wizyty z 22.01",
            // "le 5.06"): a trailing dot or a two-digit month makes it a date, not a dose.
            r"(?i)\b(?:termin(?:[ \t]+am)?|am|vom|bis|ab|zum|le|du|au|dnia|z[ \t]+dnia|wizyt[a-ząęóśłżźćń]*[ \t]+z|na[ \t]+dzień|termin[ \t]+na)[ \t]+(?P<v>(?:0?[1-9]|[12]\d|3[01])\.(?:(?:0?[1-9]|1[0-2])\.|0[1-9]|1[0-2]))(?:[^0-9.]|\.(?:[^0-9]|$)|$)".into(),
        ),
        (
            Kind::Date,
            52,
            Check::None,
            // "Mar-04-1952", "Mar/4/1952".
            format!(r"(?i)\b{month}[-/]{day}[-/]{year}\b"),
        ),
        (
            Kind::Date,
            51,
            Check::Near(DATE_WORDS),
            // A month with a two-digit year after a person-date word: "b. Mar '52".
            format!(r"(?i)\b{month}\s*['’]\d{{2}}\b"),
        ),
        (
            Kind::Date,
            52,
            Check::Near(DATE_WORDS),
            // Compact yyyymmdd next to a person-date word: "(b. 19450101)", "Admission date:
            // 20240728". Needs the word (why: 8-digit numbers are also MRNs and accounts).
            r"\b(?:1[89]|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\b".into(),
        ),
        (
            Kind::Date,
            49,
            Check::None,
            // Month/day without a year after "on", "since", "until": "seen in clinic on 1/15".
            // Months 1-12 only, so blood pressures (120/80) do not match.
            r"(?i)\b(?:on|since|until|from|by)\s+(?P<v>(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01]))\b".into(),
        ),
        (
            Kind::Date,
            51,
            Check::None,
            format!(r"(?i)\b{DATE_CONTEXT}\s*(?:on|in|date|of|:|was|is|-)?\s*(?:on|in|:)?\s*(?P<v>{month}\s+{year}|(?:0?[1-9]|1[0-2])/{year})\b"),
        ),
        (
            Kind::Date,
            53,
            Check::None,
            // A compact DOB: "DOB 19470312" or "DOB: 031247".
            format!(r"(?i)\b(?:dob|d\.o\.b\.?|date of birth|born){SEP}(?P<v>\d{{6}}|\d{{8}})\b"),
        ),
        (
            Kind::Date,
            51,
            Check::None,
            // Month/day without a year next to a person-date word: "birthday 4/12".
            format!(r"(?i)\b{DATE_CONTEXT}\s*(?:on|is|was|:|-)?\s*(?P<v>(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01]))\b"),
        ),
        (
            Kind::Date,
            50,
            Check::None,
            // Day-month without a year, capitalised month only (why: "may" is also a verb); also
            // with a hyphen as exports write it ("14-Mar", "Mar-14").
            // On one line: "Day 10" closing a log's header and "Jan. 11, 2026" opening the next
            // line are no "10 Jan".
            r"\b(?:(?:0?[1-9]|[12]\d|3[01])-(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\b|(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)-(?:0?[1-9]|[12]\d|3[01])\b)|\b(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)?[ \t]+(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec|January|February|March|April|June|July|August|September|October|November|December)\b\.?".into(),
        ),
        (
            Kind::Age,
            54,
            Check::None,
            format!(r"(?i)\b(?:she|he|they|patient|pt|resident|who)\s+(?:is|was|turned|turns|turning|will be|will turn)\s+(?P<v>{age})\b"),
        ),
        (
            Kind::Age,
            60,
            Check::None,
            // The contracted forms chat and speech type, apostrophe or not ("hes 97 and",
            // "she's 93.", "im 91 now", "i'm 96 you know"), closed by a word or a stop, not a
            // decimal or a unit.
            format!(r"(?i)\b(?:(?:she|he)['’]?s|i['’]?m|(?:she|he|they)[ \t]+(?:just[ \t]+)?turned)[ \t]+(?P<v>{age})(?:[ \t]+(?:and|now|today|this|next|last|but|so|already|you|ya|years?|yrs?|y/?o)\b|[ \t]*[,;!?]|[ \t]*\.(?:[^0-9]|$)|[ \t]*\r?$)"),
        ),
        (
            Kind::Age,
            58,
            Check::None,
            // A relative's age over 89 as a caller gives it ("Mom is 92 now", "my grandfather
            // was 101,"), closed by a word or a stop, not a unit ("Dad is 95 kg").
            format!(r"(?i)\b(?:mom|mum|mother|mama|momma|dad|father|papa|grandma|granny|grandmother|nana|grandpa|grandfather|husband|wife|spouse|aunt|auntie|uncle)[ \t]+(?:is|was)[ \t]+(?:now[ \t]+|almost[ \t]+|nearly[ \t]+)?(?P<v>{age})(?:[ \t]+(?:and|now|today|this|next|last|but|so|already|years?|yrs?|y/?o)\b|[ \t]*[,;!?]|[ \t]*\.(?:[^0-9]|$)|[ \t]*\r?$)"),
        ),
        (
            Kind::Age,
            60,
            Check::None,
            // Haitian Creole's "she has 93 years": "li gen 93 an", "Manman m gen 96 an".
            format!(r"(?i)\b(?:gen|genyen)[ \t]+(?P<v>{age})[ \t]+(?:an|ane|lane)\b"),
        ),
        (
            Kind::Age,
            60,
            Check::None,
            // An age over 89 with the word for years of other languages: "93 Jahre alt",
            // "91 ans", "92 años", "95 lat", "94 года", "97 sui", "96 sal", "93 de ani", "95
            // tahun", "92 amet", "96 bochor", Somali "97 sano", Greek in Latin letters "93
            // xronon".
            format!(r"(?i)\b(?P<v>{age})[ \t-]*(?:jahre|jahren|jährige[nrs]?|jährig|ans|años|anos|anni|lat|lata|года|лет|год|sui|sal|saal|sai|seu|jaar|jarige|år|årig|årige|åring|ar|éves|yaşında|yasinda|tuổi|eton|etwn|etón|ετών|χρονών|chronon|chronwn|xronon|xronwn|xronia|chronia|sano|sanadood|vuotias|vuotiaana|vuotta|rokiv|rokiw|років|let|goda|shanim|(?:de[ \t]+)?ani|tahun|amet|ametu|ametun|odun|ọdún|bochor|bochhor|bachhar|baras|varsh|roků|roku)\b"),
        ),
        (
            Kind::Age,
            60,
            Check::None,
            // An age over 89 after the word for age of another language: Thai "ayu 98 pi",
            // Malay "umur 93", Ukrainian "vik 95", Hebrew "ba-gil 96", Finnish "ikä 91",
            // romanised Bengali "boyosh 97", Hindi "umar 92", Romanian "vârsta 93", Czech "věk
            // 94", Dutch "leeftijd 95", Swedish "ålder 91", Igbo "afọ 90", Yoruba "ọmọ ọdún 92" (a child
            // of years: aged).
            format!(r"(?i)\b(?:ọmọ[ \t]+ọdún|omo[ \t]+odun|ẹni[ \t]+ọdún|eni[ \t]+odun|ayu|a-yu|umur|usia|vik|віку?|ba-?gil|ikä|ika|idade|edad|età|wiek|boyosh|boyos|boyesh|bayas|umr|umra|varsh|vârsta|varsta|életkor|eletkor|věk|vek|leeftijd|ålder|alder|alter|edmie|edme|ọjọ́[ \t]+orí|ojo[ \t]+ori|afọ|afo)(?:[ \t]+(?:er|ist|is|je|este|e|hai|ache|adalah))?[ \t]*[:=]?[ \t]*(?P<v>{age})\b"),
        ),
        (
            Kind::Age,
            55,
            Check::None,
            format!(r"(?i)\b{age}(?:\s*|-)(?:years?|yrs?|y)(?:\s*|-)old\b"),
        ),
        (
            Kind::Age,
            55,
            Check::None,
            // "AGE: 92Y" as a report header writes it.
            // Also an age at an event, as case report forms label it ("Age at onset: 93").
            format!(r"(?i)\b(?:age[ds]?|aged)(?:[ \t]+at[ \t]+(?:onset|diagnosis|dx|death|admission|enrol?ment|consent|event|visit|injury|surgery))?\s*(?::|of|is|was)?\s*(?P<v>{age})(?:y(?:rs?)?)?\b"),
        ),
        (
            Kind::Age,
            55,
            Check::None,
            format!(r"(?i)\b{age}\s*(?:y/?o|y\.o\.|yo|yrs?|years?)\b(?:\s*(?:old|[MF])\b)?"),
        ),
        (
            Kind::Age,
            54,
            Check::None,
            // An age over 89 with a bare "y", as forms abbreviate it: "95 y F", "husband
            // Leandro (95 y).", "78 y/o" aside. The sex, a bracket, a comma or the line's end
            // after it (why: "y" alone is no unit elsewhere).
            format!(r"(?m)\b(?P<v>{age})[ \t]*y\b(?:[ \t]+[MF]\b|[ \t]*[),;.]|[ \t]*\r?$)"),
        ),
        (
            Kind::Age,
            55,
            Check::None,
            format!(r"\b{age}(?:M|F)\b|\b{age}-year-old\b|(?i)\b(?:in (?:his|her|their) )?(?P<v>(?:90|1[0-2]0)s)\b"),
        ),
        (
            Kind::Age,
            55,
            Check::None,
            // Spelled out: "a ninety-three-year-old", "one hundred and two years old".
            r"(?i)\b(?:ninety(?:[- ](?:one|two|three|four|five|six|seven|eight|nine))?|(?:one )?hundred(?:(?: and)?[- ](?:one|two|three|four|five|six|seven|eight|nine|ten))?)[- ](?:years?|yrs?)[- ]old\b".into(),
        ),
        // --- geography ---
        (
            Kind::Address,
            40,
            Check::None,
            // A rural road by its number, with or without a house number: "County Road 437",
            // "N1234 County Rd K", "4410 State Route 9".
            r"(?i)\b(?:(?:[nsew]\d{3,6}|\d{1,6})[ \t]+)?(?:county|state|township|farm[ \t]+to[ \t]+market|ranch)[ \t]+(?:road|rd|route|rte|highway|hwy)[ \t]+[a-z]{0,2}-?\d{1,4}[a-z]?\b".into(),
        ),
        (
            Kind::Address,
            40,
            Check::None,
            // A street as French, Belgian, Swiss and Québec mail write it: the number, the type,
            // then the name ("41 rue des Tanneurs", "8 impasse des Peupliers", "12 bis, avenue
            // Victor Hugo", "3 chemin de la Côte").
            format!(r"\b\d{{1,4}}(?:[ \t]?(?:bis|ter))?,?[ \t]+(?i:rue|avenue|av\.|boulevard|bd|allée|allee|impasse|chemin|quai|voie|sentier|promenade|faubourg|rond-point|montée|montee|résidence|cité|lotissement|hameau)(?:[ \t]+(?:de[ \t]+la|de[ \t]+l['’]|de|du|des|la|le|les|aux?|d['’]|l['’]|saint|sainte))?[ \t]*{n}(?:[ \t-]+(?:(?:de[ \t]+la|de|du|des|la|le|les|aux?|d['’])[ \t]*)?{n}){{0,2}}"),
        ),
        (
            Kind::Address,
            40,
            Check::None,
            // A street as German, Austrian, Dutch and Scandinavian mail write it: the name, its
            // type glued or apart, then the number ("Schillerstraße 118", "Kastanienweg 73",
            // "Hauptstr. 5a", "Berliner Allee 12", "Keizersgracht 12"); and as Polish mail
            // does, the type first ("ul. Polna 77/10", "al. Jana Pawła II 3").
            format!(r"(?:\b[A-ZÄÖÜØÅÆ][a-zäöüßøåæé]+(?:straße|strasse|str\.|weg|gasse|allee|platz|ring|damm|ufer|chaussee|pfad|gracht|laan|straat|gatan|gata|vägen|vej|veien|vei|gade|stræde)|\b{n}[ \t]+(?:Straße|Strasse|Str\.|Weg|Gasse|Allee|Platz|Ring|Damm|Ufer|Chaussee))[ \t]+\d{{1,4}}[a-z]?(?:[ \t]*[-/][ \t]*\d{{1,4}}[a-z]?)?\b|\b(?:ul\.|ulica|al\.|aleja|os\.|osiedle|pl\.|plac)[ \t]*{n}(?:[ \t]+(?:{n}|[IVX]{{1,4}})){{0,2}}[ \t]+\d{{1,4}}[A-Za-z]?(?:[ \t]*/[ \t]*\d{{1,4}}[A-Za-z]?)?\b"),
        ),
        (
            Kind::Address,
            40,
            Check::None,
            format!(r"\b(?:[NSEW]\d{{3,6}}|\d{{1,6}}(?:-?[A-Z])?)[ \t]+(?:(?:[NSEW]|NE|NW|SE|SW|North|South|East|West)\.?[ \t]+)?(?:(?:{n}(?:[ʻ'’][a-z]+)?|\d{{1,3}}(?:st|nd|rd|th))[ \t]+){{1,4}}(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Way|Court|Ct|Place|Pl|Terrace|Ter|Circle|Cir|Parkway|Pkwy|Highway|Hwy|Square|Sq|Trail|Trl|Loop|Row|Path|Pike|Alley|Aly|Plaza|Crescent|Cres|Close|Run|Ridge|Crossing|Xing|Cove|Bend|Glen|Heights|Hts|Commons|Walk|Grove|Park|Pass|Expressway|Expy|Freeway|Fwy|Turnpike|Tpke|Landing|Mews|Pointe?|View|Vista|Knoll|Gardens|Manor|Meadows?|Hill|Causeway|Trace|Trce|Chase|Bluff|Spur|Av)\b\.?(?:[ \t]+(?:[NSEW]|NE|NW|SE|SW)\b)?(?:,?[ \t]*(?:Apt|Apartment|Unit|Suite|Ste|Lot|Trlr|Trailer|Spc|Bldg|Building|Rm|Room|Fl|Floor|#)\.?[ \t]*#?[A-Za-z0-9-]+)?(?:,?[ \t]*{n}(?:[ \t]+{n}){{0,2}}(?:,[ \t]*|[ \t]+)(?-i:{STATES})\b|[ \t]+\({n}(?:[ \t]+{n})?\))?"),
        ),
        (
            Kind::Address,
            39,
            Check::None,
            format!(r"\b(?i:P\.?\s?O\.?\s*Box|Post\s+Office\s+Box|POB|PMB)\s+#?\d{{1,6}}(?:,\s*{n}(?:\s+{n}){{0,2}},\s*(?:{STATES})\b)?"),
        ),
        (
            Kind::Address,
            38,
            Check::None,
            // "City, ST 12345" without a street line: the city is a subdivision too.
            format!(r"\b(?P<v>(?:{abbr}[ \t]+)?{n}(?:\s+(?:{abbr}[ \t]+)?{n}){{0,2}}),\s*(?:{STATES})\s+\d{{5}}\b"),
        ),
        (
            Kind::Address,
            37,
            Check::None,
            format!(r"(?i)\b(?:lives in|resides in|resident of|from|moved to|city of|town of|near|in|around|outside(?:\s+of)?|close\s+to)\s+(?-i:(?P<v>{n}(?:\s+{n}){{0,2}})),\s*(?-i:{STATES}|Alabama|Alaska|Arizona|California|Colorado|Florida|Georgia|Illinois|Indiana|Ohio|Oregon|Texas|Washington|Maine|Vermont|Nevada|Utah|Iowa|Kansas|Michigan|Minnesota|Missouri|Montana|Virginia|Wisconsin)\b"),
        ),
        (
            Kind::Address,
            37,
            Check::PlaceWords,
            // A city without a state after a residence or birthplace cue: "lives with her son
            // in Elkhorn", "was born on 1/2/1950 in Silver Spring", "moved to Bel Air".
            format!(r"(?i)\b(?:lives|living|lived|resides|residing|moved|relocated|born|grew up|staying)\b[^.;:\n]{{0,32}}?\b(?:in|to)\s+(?-i:(?P<v>{n}(?:\s+{n})?))\b"),
        ),
        (
            Kind::Age,
            56,
            Check::None,
            // An age set off by commas after a name, as news, obituaries and prayer lists
            // write it: "Ada Obi, 97, of Hilo", "Rev. Lutz, 101, who served", and where she lies
            // ("my auntie Ada Obi, 97, 4th floor bed 22A", "Ada Obi, 97, room 4").
            format!(r"[\p{{L}}.)][ \t]*,[ \t]*(?P<v>{age})[ \t]*,[ \t]*(?:of|from|formerly|who|died|passed|beloved|longtime|late|a[ \t]+(?:resident|native|lifelong)|[Rr]oom|[Rr]m|[Bb]ed|[Ww]ard|[Uu]nit|in[ \t]+(?:room|bed|the)|now|still|lives|living|at[ \t]+home|\d{{1,2}}(?:st|nd|rd|th)[ \t]+(?:[Ff]loor|[Ff]l))\b"),
        ),
        (
            Kind::Age,
            55,
            Check::None,
            // An age in parentheses after a labelled person: "client: Mele (99)", "Resident:
            // A. Ruiz (101)".
            format!(r"(?i:client|patient|pt|resident|member|consumer|participant|elder|senior|mom|mum|dad|grandma|grandpa)[ \t]*:[ \t]*(?:{INIT}[ \t]*)?{n}(?:[ \t]+{n}){{0,2}}[ \t]*\([ \t]*(?P<v>{age})[ \t]*\)"),
        ),
        (
            Kind::Age,
            56,
            Check::None,
            // An age over 89 turned or to turn, closed by a time word or a stop ("Mom turned
            // 97 yesterday", "turns 100 on Sunday", Swahili "miaka 92"); not an angle ("turn 90
            // degrees").
            format!(r"(?i)\b(?:turned|turns|turning|will[ \t]+turn|celebrates|celebrated|celebrating|miaka)[ \t]+(?P<v>{age})(?:[ \t]+(?:on|in|this|next|last|today|yesterday|tomorrow|years?|and|na)\b|[ \t]*[,;!?)]|[ \t]*\.(?:[^0-9]|$)|[ \t]*\r?$)"),
        ),
        (
            Kind::Age,
            56,
            Check::None,
            // A birthday over 89 by its ordinal ("her 100th birthday").
            format!(r"(?i)\b(?P<v>{age})(?:st|nd|rd|th)[ \t]+(?:birthday|bday|b-day)\b"),
        ),
        (
            Kind::Room,
            60,
            Check::None,
            // A room or a bed labelled in another language: "Zimmer 12", "Bett 3", "kamer
            // 4.12", "chambre 214", "stanza 7", "habitación 305", "quarto 12", "værelse 4";
            // romanised Greek "dwmatio 517", Thai "hong 644", Hebrew "heder 12", Finnish "huone 3",
            // Romanian "în salonul 8-19", Hungarian "szoba 12", Czech "lůžko 3", Indonesian
            // "kamar 21", Swedish/Norwegian "rum 4"/"rom 4", Yoruba "yàrá 12", Hindi "kamra 5".
            r"(?i)\b(?:zimmer|bett|kamer|chambre|stanza|habitaci[oó]n|cuarto|quarto|leito|letto|cama|v[æa]e?relse|stue|säng|seng|oda|yatak|pokój|pokoj|łóżko|palata|chumba|kitanda|dwmatio|domatio|δωμάτιο|thalamos|thalamo|krevati|klini|hong|heder|cheder|huone|huoneessa|huoneen|sänky|sanky|kimnata|kimnati|кімната|lizhko|ліжко|tiang|phòng|phong|giường|giuong|salon|salonul|salonului|patul|szoba|szobában|szobaban|kórterem|korterem|kórteremben|lůžko|lůžku|luzko|kamar|ruang|ruangan|ranjang|rum|rom|yàrá|yara|kifil|kamra|kamre|ghor|kokkho)(?:[ \t]*(?:nr\.?|no\.?|n[º°]|#|numero|número|nomor|számú|szám|číslo|cislo))?[ \t]*[:#]?[ \t]*(?P<v>\d{1,4}(?:[./-]\d{1,3})?[A-Za-z]?)\b".into(),
        ),
        (
            Kind::Address,
            38,
            Check::PlaceWords,
            // A town after an age set off by commas ("Ada Obi, 97, of Hilo, died"), and where
            // a death happened ("died at home in Coos Bay", "passed away peacefully in Hilo").
            format!(r"(?:,[ \t]*\d{{1,3}}[ \t]*,[ \t]*(?:of|from|formerly[ \t]+of)|\b(?:died|passed[ \t]+away|passed)(?:[ \t]+peacefully)?(?:[ \t]+at[ \t]+(?:home|(?:his|her|their)[ \t]+home))?[ \t]+in)[ \t]+(?P<v>{city})(?:[ \t]*[,.;]|[ \t]+(?:at|on|after|surrounded|with|passed|died)\b)"),
        ),
        (
            Kind::Account,
            74,
            Check::None,
            // A case's number right after the word ("PCC case 12-9627611", "case 2025-00817"):
            // a dashed or a long number, no count ("case 2 of 3").
            r"(?i)\bcase[ \t]+(?P<v>\d{2,6}-\d{4,10}|\d{6,12})\b".into(),
        ),
        (
            Kind::Date,
            52,
            Check::None,
            // A date in romanised Japanese: "1961-nen 8-gatsu 14-nichi", "8 gatsu 14 nichi".
            r"(?i)\b(?:(?:1[89]|20)\d{2}[ -]?nen[ \t]+)?(?:0?[1-9]|1[0-2])[ -]?gatsu[ \t]+(?:0?[1-9]|[12]\d|3[01])[ -]?nichi\b".into(),
        ),
        (
            Kind::Mrn,
            79,
            Check::None,
            // A record number read out digit by digit, as a transcript writes it: "medical
            // record number 8 7 4 5 1 9 1", "MRN is 4 4 0 2 1 7".
            r"(?i)\b(?:mrn|medical[ \t]+record(?:[ \t]+(?:number|no\.?|#))?|chart[ \t]+(?:number|no\.?|#)|record[ \t]+(?:number|no\.?|#)|patient[ \t]+(?:id|number))[ \t]*(?:is[ \t]+|[:#,][ \t]*)?(?P<v>\d(?:[ \t]+\d){4,14})\b".into(),
        ),
        (
            Kind::Ssn,
            80,
            Check::None,
            // An SSN read out digit by digit: "social security number 2 1 9 0 9 4 4 3 3".
            r"(?i)\b(?:ssn|social[ \t]+security(?:[ \t]+(?:number|no\.?|#))?|social)[ \t]*(?:is[ \t]+|[:#,][ \t]*)?(?P<v>\d(?:[ \t-]+\d){8})\b".into(),
        ),
        (
            Kind::Mrn,
            78,
            Check::HasDigit,
            // A patient's number labelled in another language: "Mijn patiëntnummer is
            // 996-19406", "Patientennummer: 44120", "numero di cartella 8812", Indonesian
            // "Nomor rekam medis 125-52815", Hungarian "kórlapszám", Czech "číslo pacienta",
            // Romanian "numărul fișei", romanised Amharic "ye hakim kutir".
            format!(r"(?i)\b(?:pati[eë]nt(?:en)?nummer|pati[eë]ntnr\.?|pat\.?-?nr\.?|dossiernummer|numero\s+(?:di\s+)?(?:cartella|paziente)|n[uú]mero\s+de\s+(?:historia(?:\s+cl[ií]nica)?|paciente|prontu[aá]rio)|num[ée]ro\s+(?:de\s+)?(?:dossier\s+)?patient|hasta\s+numaras[ıi]|protokol\s+numaras[ıi]|(?:ye[ \t]*)?hakim\s+kutir|journalnummer|journalnr\.?|(?:nomor|no\.?)\s+(?:rekam\s+medis|rm|pasien)|rekam\s+medis|k[óo]rlapsz[áa]m|betegazonos[íi]t[óo]|[čc][íi]slo\s+(?:pacienta|karty|chorobopisu)|num[ăa]r(?:ul)?\s+(?:de\s+)?(?:fi[șşs][ăae]i?|dosar(?:ului)?|pacient(?:ului)?))(?:\s+(?:is|ist|est|è|es|é|er|är|ni|adalah|je|este|saya))?{SEP}{ID_V}"),
        ),
        (
            Kind::Address,
            40,
            Check::None,
            // A street as Italian, Spanish, Portuguese and Catalan mail write it, the type
            // first and the number last ("Via Garibaldi 12", "Calle Mayor 5", "Paseo de la
            // Castellana 89", "Rua das Flores, 27"); and as Turkish mail does, the type and
            // "No" after the name ("Atatürk Cad. No: 12/3", "Gül Sokak No 5").
            format!(r"\b(?:Via|Viale|Piazza|Piazzale|Corso|Vicolo|Calle|Avenida|Avda\.|Paseo|Rua|Travessa|Praça|Carrer|Rambla)[ \t]+(?:(?:de|del|la|las|los|da|das|do|dos|di|della|delle|dei|degli|San|Santa|Santo)[ \t]+)*{n}(?:[ \t]+{n}){{0,2}},?[ \t]+(?:n\.?[ºo°][ \t]*)?\d{{1,4}}[a-zA-Z]?\b|\b{n}[ \t]+(?:Sokak|Sokağı|Sokagi|Sk\.|Sok\.|Caddesi|Cad\.|Cd\.|Bulvarı|Blv\.)[ \t]*(?:,[ \t]*)?No[:.]?[ \t]*\d{{1,4}}(?:/\d{{1,3}})?"),
        ),
        (
            Kind::Address,
            40,
            Check::None,
            // The same street inside a sentence, its type in lower case after the word that
            // says where ("Visc al carrer de Provença 298", "abito in via Roma 12", "vivo en la
            // calle Mayor 5", "moro na rua das Flores 27"): the preposition makes it a place.
            format!(r"\b(?:al|en|in|na|em|no|a|nel|nella|sulla)(?:[ \t]+la)?[ \t]+(?P<v>(?:carrer|calle|via|viale|piazza|corso|vicolo|avenida|avinguda|paseo|passeig|plaça|rua|travessa|praça|rambla)[ \t]+(?:(?:de|del|la|las|los|da|das|do|dos|di|della|delle|dei|degli|San|Santa|Santo|Sant)[ \t]+|d['’])*{n}(?:[ \t]+{n}){{0,2}},?[ \t]+(?:n\.?[ºo°][ \t]*)?\d{{1,4}}[a-zA-Z]?)\b"),
        ),
        (
            Kind::Address,
            40,
            Check::None,
            // A place's coordinates, as a camera's metadata or a map writes them: degrees,
            // minutes and seconds ("40 deg 26' 46.30\" N", "40°26'46.3\"N").
            r#"\b\d{1,3}[ \t]*(?:°|º|deg\b)[ \t]*\d{1,2}[ \t]*['’′][ \t]*\d{1,2}(?:\.\d+)?[ \t]*(?:"|”|″|'')?[ \t]*[NSEW]\b"#.into(),
        ),
        (
            Kind::Address,
            40,
            Check::None,
            // Decimal coordinates after a field that names them ("GPS Latitude : 40.4462",
            // `"lat": 40.44619`, "coords 40.4462, -79.9489"), or a pair precise to a house
            // ("40.446195, -79.948862"; not two fractions below one, "0.45678, 0.12345").
            r#"(?i)\b(?:gps(?:[ \t]*(?:position|coordinates))?|lat(?:itude)?|lon(?:gitude)?|lng|coord(?:inate)?s)\b[ \t"':=]{0,6}(?P<v>-?\d{1,3}\.\d{3,}(?:[ \t]*,[ \t]*-?\d{1,3}\.\d{3,})?)|-?\b[1-8]\d?\.\d{5,},[ \t]?-?[1-9]\d{0,2}\.\d{5,}\b"#.into(),
        ),
        (
            Kind::Address,
            37,
            Check::PlaceWords,
            // Counties are geographic subdivisions smaller than a state.
            format!(r"\b(?P<v>(?:{n}\s+){{1,2}}(?:County|Parish|Borough))\b"),
        ),
        (
            Kind::Address,
            40,
            Check::None,
            // Numbered roads have no street-type word after the name: "1584 County Road 12",
            // "4758 Route 9 Apt 1107".
            // On one line: a number closing the line above is no house number ("M-2563-07"
            // over "Route 10").
            r"(?i)\b\d{1,6}[ \t]+(?:(?:State|County|US|U\.S\.|Old|Farm\s+to\s+Market)\s+)?(?:Route|Rte\.?|Road|Rd\.?|Highway|Hwy\.?|CR|SR)\s+\d{1,4}[A-Z]?\b(?:,?\s*(?:Apt|Apartment|Unit|Suite|Ste|Lot|Trlr|Trailer|Spc|Bldg|Building|Rm|Room|Fl|Floor|#)\.?\s*#?[A-Za-z0-9-]+)?".into(),
        ),
        (
            Kind::Zip,
            45,
            Check::None,
            format!(r"\b(?:{STATES}),?\s+(?P<v>\d{{5}}(?:-\d{{4}})?)\b"),
        ),
        (
            Kind::Zip,
            45,
            Check::None,
            // After a state written out: "Lowell, Massachusetts 01852".
            format!(r"\b(?:{STATE_NAMES}),?[ \t]+(?P<v>\d{{5}}(?:-\d{{4}})?)\b"),
        ),
        (
            Kind::Address,
            38,
            Check::None,
            format!(r"\b(?P<v>(?:{abbr}[ \t]+)?{n}(?:[ \t]+(?:{abbr}[ \t]+)?{n}){{0,2}}),[ \t]*(?:{STATE_NAMES}),?[ \t]+\d{{5}}\b"),
        ),
        (
            Kind::Zip,
            46,
            Check::None,
            r"(?i)\b(?:zip|zip\s*code|postal\s*code|zipcode)\s*(?:is|:|#)?\s*(?P<v>\d{5}(?:-\d{4})?)\b".into(),
        ),
        (
            Kind::Zip,
            44,
            Check::None,
            // Not the first two parts of a longer code ("NDC: 41618-4337-42").
            r"\b(?P<v>\d{5}-\d{4})(?:[^-0-9]|$)".into(),
        ),

        // --- structured snippets: FHIR-ish JSON and key/value pairs (the key is the label) ---
        (
            Kind::Person,
            86,
            Check::PersonWords,
            r#"(?i)"(?:family|given|patientName|patient_name|fullName|full_name|firstName|first_name|lastName|last_name|middleName|middle_name|maidenName)"\s*:\s*\[?\s*"(?P<v>[^"\n]{1,60})""#.into(),
        ),
        (
            Kind::Person,
            86,
            Check::PersonWords,
            // The second given name: "given": ["Margaret", "Ann"].
            r#"(?i)"given"\s*:\s*\[\s*"[^"\n]{1,60}"\s*,\s*"(?P<v>[^"\n]{1,60})""#.into(),
        ),
        (
            Kind::Date,
            86,
            Check::HasDigit,
            r#"(?i)"(?:birthDate|birth_date|dob|dateOfBirth|date_of_birth|deceasedDateTime|deceasedDate|admitDate|dischargeDate)"\s*:\s*"(?P<v>[^"\n]{4,30})""#.into(),
        ),
        (
            Kind::Address,
            86,
            Check::None,
            r#"(?i)"(?:line|street|address1|address2|addressLine|city|town|district)"\s*:\s*\[?\s*"(?P<v>[^"\n]{2,80})""#.into(),
        ),
        (
            Kind::Zip,
            86,
            Check::HasDigit,
            r#"(?i)"(?:postalCode|postal_code|zip|zipCode|zip_code)"\s*:\s*"(?P<v>[^"\n]{3,12})""#.into(),
        ),
        (
            Kind::Ssn,
            86,
            Check::HasDigit,
            r#"(?i)"(?:ssn|socialSecurityNumber|social_security)"\s*:\s*"(?P<v>[^"\n]{4,15})""#.into(),
        ),
        (
            Kind::Mrn,
            86,
            Check::HasDigit,
            // An identifier's value: in a Patient resource these are record numbers.
            r#"(?i)"(?:identifier|mrn|medicalRecordNumber)"\s*:\s*(?:\[[^\]]{0,300}?"value"\s*:\s*)?"?(?P<v>[A-Za-z0-9][A-Za-z0-9-]{2,30})"#.into(),
        ),
        (
            Kind::Date,
            52,
            Check::None,
            // A month and a day in words and a two-word year, as a date of birth is said
            // ("july seventeen sixty seven", "november seventeen oh one"): the month's name
            // makes the short year a date's.
            format!(r"(?i)\b{monthw}[ \t]+(?:the[ \t]+)?(?:{ordw}|{dayw}),?[ \t]+(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ]{unit_w})?|oh[- ]{unit_w}|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen)\b"),
        ),
        (
            Kind::Address,
            39,
            Check::None,
            // A street address typed in lower case or with lower-case particles ("9685
            // kościuszko blvd #22", "1133 n fenwick dr", "7783 Calle del Sol Blvd"): a house
            // number of three digits or more and a street word no count or duration ends with.
            r"(?i)\b(?:[nsew]\d{3,6}|\d{3,6})[ \t]+(?:(?:[nsew]|ne|nw|se|sw)\.?[ \t]+)?(?:(?:[a-zà-öø-ÿā-žạ-ỹʻ'’.-]+|\d{1,3}(?:st|nd|rd|th))[ \t]+){1,4}(?:street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|way|place|pl|circle|cir|trail|trl|loop|plaza|square|sq|pike|parkway|pkwy|highway|hwy|terrace|ter|court|ct|mews|crescent|alley|grove|cove|glen|trace|crossing|landing|ridge)\b\.?(?:,?[ \t]*(?:apt|apartment|unit|suite|ste|lot|trlr|trailer|spc|#)\.?[ \t]*#?[a-z0-9-]+)?".into(),
        ),
        (
            Kind::Address,
            39,
            Check::None,
            // A street line of any type, even one no list knows, when a city, a state and a
            // ZIP follow it ("4516 Cottonwood Hollow Lot 44, Quarry Hill, VT 16373"): the
            // line under it says it is an address.
            format!(r"\b(?P<v>\d{{1,6}}[ \t]+(?:(?:[NSEW]|North|South|East|West)\.?[ \t]+)?{n}(?:[ \t]+{n}){{0,3}}(?:[ \t]+(?:(?:Apt|Apartment|Unit|Suite|Ste|Lot|Trlr|Trailer|Spc|Bldg|Fl|Floor|Rm)\.?[ \t]*#?|#)[A-Za-z0-9-]+)?),[ \t]*{city},[ \t]*(?:{STATES})[ \t]+\d{{5}}(?:-\d{{4}})?\b"),
        ),
        (
            Kind::Address,
            39,
            Check::None,
            // A street said aloud, its house number digit by digit ("seven six five four
            // tamarack hollow ln", "three seven one one n sorrento blvd"); or any words after
            // such a number where a caller says where they are, up to the next clause ("we're
            // at eight one six seven cottonwood hollow please call").
            format!(r"(?i)\b(?P<v>(?:{sd}[ \t-]+){{2,5}}{sd}[ \t]+(?:(?:[nsew]|north|south|east|west)[ \t]+)?(?:[a-z'’-]+[ \t]+){{1,4}}?(?:street|st|avenue|ave|road|rd|boulevard|blvd|lane|ln|drive|dr|way|place|pl|circle|cir|trail|trl|loop|plaza|square|pike|parkway|pkwy|highway|hwy|terrace|ter|court|ct|crescent|alley|grove|cove|glen|trace|crossing|landing|ridge|row|path|bend)\b)"),
        ),
        (
            Kind::Address,
            39,
            Check::None,
            // A house number said as a cardinal ("we're at thirty seven tannery street so")
            // is taken with a street's type word only: "i'm at five o'clock" is no address.
            format!(r"(?i)\b(?:we['’]?re|we[ \t]+are|i['’]?m|i[ \t]+am|live|lives|living|stay|stays|staying)[ \t]+at[ \t]+(?P<v>(?:{sd}[ \t-]+){{2,5}}{sd}(?:[ \t]+[a-z'’-]+){{1,3}}?|{house_w}(?:[ \t]+[a-z'’-]+){{1,3}}?[ \t]+{street_w})(?:[ \t]*[,.;!?]|[ \t]+(?:please|and|so|call|if|can|but|thanks|we|i|you|near|by|off|in|on|for|with|to|out|past)\b)"),
        ),
        (
            Kind::Address,
            39,
            Check::None,
            // A "row" typed in lower case ("6865 mariner's row"): the word before it a name's
            // (three letters or more), so "100 in a row" stays.
            r"(?i)\b\d{3,6}[ \t]+(?:[a-zà-öø-ÿā-ž'’.-]+[ \t]+){0,2}[a-zà-öø-ÿā-ž]{3,}(?:['’]s)?[ \t]+row\b".into(),
        ),
        (
            Kind::Date,
            53,
            Check::None,
            // A date in number words with a short year after a date's cue: "an appointment on
            // seven eight twenty five" (7/8/25).
            // "d o b" as a transcript spells the letters out.
            format!(r"(?i)\b(?:on|appointment|appt|dob|d[ \t]o[ \t]b|born|birthday|date[ \t]+of[ \t]+birth|birth[ \t]*date)(?:[ \t]+(?:is|was))?[ \t]*:?[ \t]+(?P<v>{monthnw}[ \t,/-]+(?:the[ \t]+)?(?:{ordw}|{dayw})[ \t,/-]+(?:(?:twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)(?:[- ]{unit_w})?|oh[- ]{unit_w}|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen))\b"),
        ),
        // --- dates written in words ("june third nineteen thirty two") ---
        (
            Kind::Date,
            53,
            Check::None,
            // All in number words, as a date of birth is said on a call: "twelve twenty eight
            // nineteen sixty one", "oh three, fourteenth, nineteen sixty-one". The year in
            // words makes it a date (why: "twelve twenty" alone is a count).
            format!(r"(?i)\b{monthnw}[ \t,/-]+(?:the[ \t]+)?(?:{ordw}|{dayw})[ \t,/-]+{yearw}\b"),
        ),
        (
            Kind::Date,
            53,
            Check::None,
            // "fourteen march nineteen sixty one", "march fourteen, nineteen sixty-one".
            format!(r"(?i)\b(?:(?:the[ \t]+)?(?:{ordw}|{dayw})(?:[ \t]+of)?[ \t]+{monthw}|{monthw}[ \t]+(?:the[ \t]+)?(?:{ordw}|{dayw})),?[ \t]+(?:{yearw}|{year})\b"),
        ),
        (
            Kind::Date,
            53,
            Check::None,
            format!(r"(?i)\b(?:the[ \t]+)?(?:{ordw}|{day})[ \t]+of[ \t]+{monthw},?[ \t]+(?:{yearw}|{year})\b"),
        ),
        (
            Kind::Date,
            53,
            Check::None,
            format!(r"(?i)\b{monthw}[ \t]+(?:the[ \t]+)?(?:{ordw}|{day}),?[ \t]+(?:{yearw}|{year})\b"),
        ),
        (
            Kind::Date,
            52,
            Check::None,
            format!(r"(?i)\b{monthw}[ \t]+(?:the[ \t]+)?{ordw}\b"),
        ),
        (
            Kind::Age,
            55,
            Check::None,
            format!(r"(?i)\b(?:aged?|i'?m|i[ \t]+am|(?:she|he|they|mom|mum|mother|dad|father|grandma|granny|grandmother|grandpa|grandfather|husband|wife|aunt|auntie|uncle)[ \t]+(?:is|was|turned|turns)|(?:she|he)['’]?s|is[ \t]+now|turned|turns)[ \t]+(?:(?:uh|um|er|like)[ \t,]+)?(?P<v>{agew})\b"),
        ),
        (
            Kind::Age,
            55,
            Check::None,
            format!(r"(?i)\b(?P<v>{agew})[- ](?:years?|yrs?)(?:[- ]old)?\b"),
        ),
        (
            Kind::Age,
            56,
            Check::None,
            // Romanised Korean's age counter glued to the number ("abeonim-eun 96-se", 96세),
            // the copula glued after it as Hangul writes it ("96-seisimnida"): the counter goes
            // with the number (apart, "90 se" is Spanish or French; "90-second" runs on).
            format!(r"(?i)\b(?P<v>{age}-?se)(?:\b|isimnida|imnida|ipnida|ida|yeyo|eyo)"),
        ),
        // --- identifiers by short labels ---
        (
            Kind::Mrn,
            47,
            Check::BareNumber,
            // An unlabelled record number: a run of seven to twelve digits (in a HIPAA
            // profile's text every such run is somebody's record, claim or prescription
            // number). Ranked below dates and phones, which take their own shapes.
            r"\b\d{7,12}\b".into(),
        ),
        (
            Kind::Date,
            62,
            Check::None,
            // A date written without separators, as exports and file names write it:
            // YYYYMMDD (with a time: HL7's YYYYMMDDHHMM[SS]) and MMDDYYYY.
            r"\b(?:(?:19|20)\d{2}(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?:[01]\d|2[0-3])?(?:[0-5]\d){0,2}|(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])(?:19|20)\d{2})\b".into(),
        ),
        (
            Kind::Date,
            61,
            Check::None,
            // Day, month and year run together where a file name glues them to the patient's
            // name ("scan.PRICE.MAJOR.13102002.tif"): between dots, underscores or dashes.
            r"[._-](?P<v>(?:0[1-9]|[12]\d|3[01])(?:0[1-9]|1[0-2])(?:19|20)\d{2})[._-]".into(),
        ),
        (
            Kind::Mrn,
            80,
            Check::None,
            // A record number glued to its label, as subjects and file names write it
            // ("MRN8832265", "LabsForOkonjoMRN6699305.xlsx").
            r"(?:MRN|EHR|EMR)#?\d{6,12}\b".into(),
        ),
        (
            Kind::Mrn,
            46,
            Check::AlnumId,
            // An identifier of capitals and digits with no label ("W947306423",
            // "VL-6265644", "7R-53172-G"); its kind is read from the words before it.
            r"\b[A-Z0-9]{1,4}(?:-?[A-Z0-9]{1,12}){1,3}\b".into(),
        ),
        (
            Kind::Phone,
            44,
            Check::None,
            // A number read out in words, as voicemail transcripts write it ("five oh three,
            // two two two, eight four three seven"): seven digits or more.
            r"(?i)\b(?:(?:zero|oh|o|one|two|three|four|five|six|seven|eight|nine)(?:,?[ \t]+|-)){6,14}(?:zero|oh|o|one|two|three|four|five|six|seven|eight|nine)\b".into(),
        ),
        (
            Kind::Account,
            75,
            Check::HasDigit,
            format!(r"(?i)\b(?:acct|acc't|account|a/c|claim|invoice|statement|guarantor|billing)\b\.?{SEP}{ID_V}"),
        ),
        (
            Kind::Account,
            75,
            Check::HasDigit,
            // Short account numbers after "a/c" or "acct" (4+ digits).
            r"(?i)\b(?:acct|a/c)\b\.?\s*[:#]?\s*(?P<v>\d{4,})\b".into(),
        ),
        (
            Kind::Device,
            76,
            Check::HasDigit,
            format!(r"(?i)\b(?:s/?n|serial|ser\.?\s*no|device(?:\s*id)?|udi|model\s*/\s*serial|imei|mac)\b\.?{SEP}(?P<v>[A-Za-z0-9][A-Za-z0-9()/-]{{2,40}}[A-Za-z0-9])"),
        ),
        (
            Kind::Vehicle,
            76,
            Check::HasDigit,
            r"(?i)\b(?:plate|tag|parked|vehicle|car)\b[^\n.;]{0,24}?(?:#|:|\bplates?\b|\btag\b|\bis\b)?\s*(?P<v>(?-i:[A-Z0-9]{1,4}[ -]?[A-Z0-9]{2,5}))\b".into(),
        ),
        (
            Kind::HealthPlan,
            77,
            Check::HasDigit,
            format!(r"(?i)\b(?:member|subscriber|policy|group|plan|medicaid|medicare|insurance|ins|coverage)\b(?:\s*(?:id|#|no\.?|number))?{SEP}{ID_V}"),
        ),
        (
            Kind::HealthPlan,
            77,
            Check::HasDigit,
            // A plan's number as a JSON or form field in camel or snake case
            // ("subscriberId": "5E9J-PDA-4MCP", "member_id": …).
            format!(r#"(?i)"(?:subscriber|member|policy|medicaid|medicare)[_ ]?(?:id|number|no)"[ \t]*:[ \t]*"{ID_V}""#),
        ),
        (
            Kind::HealthPlan,
            77,
            Check::HasDigit,
            // A member's ID on the member's line ("Member: SZABO, NOOR   ID# 4FLP-RGN-JVBN").
            format!(r"(?im)^[ \t]*(?:member|subscriber|insured)\b[^\n]{{0,48}}?\bID[ \t]*[#:][ \t]*{ID_V}\b"),
        ),
        (
            Kind::HealthPlan,
            77,
            Check::HasDigit,
            // Spanish: "mi tarjeta de seguro dice 8ESL-1SE-UKS4", "número de Medicaid es …"
            // (not "seguro social", which the SSN rules read).
            format!(r"(?i)\b(?:tarjeta|n[uú]mero|id)[ \t]+del?[ \t]+(?:seguro(?:[ \t]+m[eé]dico)?|aseguranza|medicaid|medicare|plan)[ \t]+(?:dice|es|:)[ \t]*:?[ \t]*{ID_V}\b"),
        ),
        (
            Kind::Mrn,
            81,
            Check::HasDigit,
            r"(?i)\b(?:mrn|mr#|mr\s*no\.?|chart|record)\b\.?\s*(?:#|no\.?|number|:)?\s*[:#]?\s*(?P<v>[A-Za-z]{0,3}[- ]?\d[A-Za-z0-9-]{2,20})\b".into(),
        ),
        (
            Kind::Age,
            40,
            Check::None,
            // An age over 89 said in prose ("who is 92,", "Dwayne is 97 and"): ages under 90
            // are not identifiers (Safe Harbor keeps them).
            r"(?i)\b(?:who is|is|aged|age)[ \t]+(?P<v>9\d|1[0-2]\d)(?:[ \t]*(?:,|\.|;|and\b|years\b|yrs\b|y/?o\b)|[ \t]*$)".into(),
        ),
        (
            Kind::Room,
            40,
            Check::None,
            // A room named by its number alone in a handoff ("Also 438: …", "Wojtek in
            // 235B is…", "Ms Kim in 736 - cellulitis").
            r"\b(?:[Ii]n|[Aa]lso)[ \t]+(?P<v>\d{3}(?:-?[A-Z])?)(?:[ \t]*[:\-–]|[ \t]+is\b)".into(),
        ),
        (
            Kind::Room,
            40,
            Check::None,
            // A board's or a list's patient placed by a preposition and a bed's number alone:
            // "* Ada Obi from 4-58 — ride: …", "(MRN …) in 29A, boarding since …", "Obi in
            // 345 – tele". A three-digit number, one or two with a bed's letter, or a floor
            // and a room ("4-58"); a separating dash or a comma and a lower-case word after it
            // (a quantity's range or a vital sign is no bed: `facility_room`).
            r"\b(?:[Ii]n|[Ff]rom)[ \t]+(?P<v>[1-9]\d{2}(?:-?[A-D])?|[1-9]\d?[A-D]|[1-9]-[1-9]\d)(?:[ \t]+(?:—|–|--?)[ \t]*\p{L}|[ \t]*,[ \t]+\p{Ll})".into(),
        ),
        (
            Kind::Room,
            40,
            Check::None,
            // A bed a patient is moved or assigned to: "move to 281 if open", "transferred
            // to 33A.", "bedded in 4-37 at 14:00". The number closes a clause (a stop, a
            // dash, a time word), no dose or count runs on after it.
            r"(?m)\b(?i:mov(?:e|ed|es|ing)|transfer(?:s|red|ring)?|bump(?:ed)?|swap(?:ped)?|bedd?ed|roomed|assign(?:ed)?|admit(?:ted)?)[ \t]+(?:(?i:him|her|them|pt|patient)[ \t]+)?(?i:to|into|in)[ \t]+(?P<v>[1-9]\d{2}(?:-?[A-D])?|[1-9]\d?[A-D]|[1-9]-[1-9]\d)(?:[ \t]*(?:[,;:.!?)—–-]|\r?$)|[ \t]+(?i:if|when|once|after|at|by|today|tonight|now|and|for|on|asap|later|pending|tomorrow)\b)".into(),
        ),
        (
            Kind::Date,
            48,
            Check::NotExpiry,
            // A month and day with a leading zero ("last filled 04/27", "to 06/05"): no
            // fraction or ratio is written so. Not a card's expiry ("exp 09/27": a month and
            // a year, nobody's date).
            r"\b(?P<v>0[1-9]/(?:0[1-9]|[12]\d|3[01])|1[0-2]/0[1-9])\b".into(),
        ),
        (
            Kind::Date,
            48,
            Check::None,
            // A month and day after a word of a dated event: "Collected: 6/15", "Next
            // appointment 8/24", "rescheduled to 4/5", "filled 5/28", "recheck 6/20", "first
            // draft 8/14", "double booked 6/4", "anyone free 3/9?", "call back re 4/5".
            r"(?i)\b(?:filled|refilled|collected|drawn|received|dated|due|seen|appointment|appt|visit|surgery|procedure|effective|starting|through|thru|till|as[ \t]+of|recheck|re-check|follow[- ]?up|f/u|draft|booked|free|re|scheduled(?:[ \t]+for)?|(?:rescheduled|moved|pushed|changed)[ \t]+to|mon|monday|tue|tues|tuesday|wed|wednesday|thu|thur|thurs|thursday|fri|friday|sat|saturday|sun|sunday)\.?[ \t]*:?[ \t]+(?:on[ \t]+)?(?P<v>(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01]))\b".into(),
        ),
        (
            Kind::Date,
            48,
            Check::None,
            // A letter's dateline: a month and day alone on a line.
            r"(?m)^[ \t]*(?P<v>(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01]))[ \t]*\r?$".into(),
        ),
        (
            Kind::Mrn,
            46,
            Check::BareNumber,
            // Seven digits written 3-4 with no area code or phone word before them ("MRN
            // 281-7923" unlabelled, "330-7598_SHEVCHENKO_…tif"): a record number (a local
            // phone number when a phone word is near, which the phone rules take first).
            r"\b\d{3}-\d{4}\b".into(),
        ),
        (
            Kind::Device,
            76,
            Check::Vin,
            // A device's code right after the device ("glucose meter 6XTC42", "pump SN
            // 4471B"): capitals and digits, both.
            r"(?i)\b(?:meter|glucometer|pump|monitor|sensor|transmitter|cgm|pacemaker|defibrillator|icd|implant|inhaler|cpap|bipap|concentrator|nebulizer|hearing[ \t]+aid)\b[ \t]*(?:#|no\.?|id|serial)?[ \t]*[:#]?[ \t]*(?P<v>(?-i:[A-Z0-9][A-Z0-9-]{3,20}[A-Z0-9]))\b".into(),
        ),
        (
            Kind::Person,
            33,
            Check::NameStrict,
            // A display name before a mail address: "From: \"Rania bin Rashid\" <rania17@…>".
            r#""(?P<v>[^"\n<>@,]{2,60})"[ \t]*<[^<>\s@]+@"#.into(),
        ),
        (
            Kind::Date,
            40,
            Check::None,
            // A month and day after an admission or discharge label ("Adm 01/22 | Disch 5/23").
            r"(?i)\b(?:adm(?:itted)?|disch(?:arged)?|d/c|dos)\.?:?[ \t]+(?P<v>(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01]))\b".into(),
        ),
        (
            Kind::Room,
            41,
            Check::None,
            // A handoff's line led by the room ("335-A: 92yo M Farah", "Rm 516-B: …") or a
            // room in brackets after a name ("Beatriz (918B) - 93 years old").
            r"(?m)^[ \t]*(?:(?i:rm|room|bed)\.?[ \t]*)?(?P<v>\d{3}(?:-?[A-Z])?):".into(),
        ),
        (
            Kind::Room,
            41,
            Check::None,
            r"\((?P<v>\d{3}-?[A-Z])\)".into(),
        ),
        (
            Kind::Room,
            41,
            Check::None,
            // A handoff's entry led by its room inside a paragraph ("…by 0700. 320: 99yo M
            // al-Hakim", "Tele on. 238 VOLODYMYR BONDARENKO (MRN …"): the room, then an age
            // or a patient's name in capitals before an identifier or an age.
            format!(r"(?m)(?:^|[.!?;][ \t]+)[ \t]*(?P<v>\d{{3}}(?:-?[A-Z])?)(?::[ \t]+\d{{1,3}}[ \t]*(?i:yo|y/o|y\.o\.|-year|year)|:?[ \t]+{CAPS_W}(?:[ \t]+{CAPS_W}){{1,2}}[ \t]*(?:\(|,[ \t]*\d))"),
        ),
        (
            Kind::Room,
            41,
            Check::None,
            // A room in brackets after a name, digits only ("Arnel (930) - 96 years old"; not
            // an area code: a phone number's digits follow that).
            // A capitalised word before it (why: "with AM labs (1000)," is a time).
            r"\b\p{Lu}[\p{L}'’-]*[ \t]+\((?P<v>\d{3,4})\)(?:[ \t]+[-–]|[,:])".into(),
        ),
        (
            Kind::Person,
            35,
            Check::NameStrict,
            // The name after an age and a sex, as handoffs list patients ("92yo M Farah",
            // "104yo F GRABOWSKA").
            format!(r"\b\d{{1,3}}[ \t]*(?i:yo|y/o|y\.o\.|-year-old|year old)[ \t]+(?i:m|f|male|female|man|woman)[ \t,]+(?P<v>{NAME_W}|{CAPS_W})"),
        ),
        // --- rooms and beds (always, Ted seed 7.3) ---
        (
            Kind::Room,
            45,
            Check::HasDigit,
            r"(?i)\b(?:rooms?|rm|beds?|bays?|cubicle)\b\.?\s*(?:#|no\.?|number)?\s*[:#]?\s*(?P<v>\d{1,4}[A-Za-z]?(?:[-/]\d{0,2}[A-Za-z]?)?|[A-Za-z]-?\d{1,4}[A-Za-z]?)\b".into(),
        ),
        (
            Kind::Room,
            45,
            Check::HasDigit,
            // Every other place a patient is lodged and numbered, as a bed is: a NICU's pod,
            // isolette, incubator, warmer, bassinet or crib, a jail's cell, bunk or berth, an
            // ED's cot, stretcher or (capitalised) Space, a hall bed ("Pod 4, isolette 37",
            // "cell 269", "bunk 12B", "Space 14", "pod C-12"): a number and a letter at most (not
            // a range: "epithelial cell 3-5/hpf"); a phone number or a ratio running on after
            // it is no place (`facility_room`).
            r"\b(?:(?i:pods?|isolettes?|incubator|warmer|bassinet|crib|cell|bunks?|berth|cot|stretcher|gurney|recliner|cubby)|Space|SPACE)\b\.?[ \t]*(?:#|(?i:no)\.?)?[ \t]*[:#]?[ \t]*(?P<v>\d{1,4}[A-Za-z]?|[A-Z]-?\d{1,3}[A-Za-z]?)\b".into(),
        ),
        (
            Kind::Room,
            45,
            Check::None,
            // A room glued to its label ("rm412", "RM412B", "Bed12").
            r"(?i)\b(?:rm|room|bed)(?P<v>\d{2,4}[a-z]?)\b".into(),
        ),
        (
            Kind::Room,
            45,
            Check::None,
            // A treatment chair or station of an infusion or dialysis unit ("Chair 17",
            // "chair #15", "Station 20"): where the patient sits, as a bed is. A number of
            // minutes or hours after it ("up in chair 2 hours") is no chair's number
            // (`facility_room`).
            r"(?i)\b(?:chair|station)\b\.?[ \t]*(?:#|no\.?)?[ \t]*(?P<v>\d{1,3}[A-Za-z]?)\b".into(),
        ),
        (
            Kind::Room,
            45,
            Check::None,
            // A room named by its unit's abbreviation ("Mother in L&D 374", "moved to ICU 12",
            // "PACU 3."): a phone number's next digits after it are no room.
            r"(?m)\b(?:L&D|LDR|ICU|NICU|PICU|MICU|SICU|CCU|CVICU|PACU)[ \t]+#?[ \t]*(?P<v>\d{1,3}[A-Z]?)(?:[ \t]*(?:[.,;:)]|$)|[ \t]+[A-Za-z])".into(),
        ),
        // --- rooms, dates, records, plates and licences as chats, calls and other languages write them ---
        (
            Kind::Room,
            40,
            Check::None,
            // A patient placed by "in" and a room's number alone, then what the patient needs or
            // does, as rota and desk chats write it ("Marigold Page in 257-1 needs a sitter",
            // "Mr. Castillo in 24 waiting for transport", "mrs s in 282-1 is asking for a
            // blanket"): a name's capitalised word or a title's lone initial before "in", a
            // verb after the number (why: "in 2 weeks", "in 3 days" run on with a unit).
            r"(?:\b\p{Lu}[\p{L}'’-]+|\b(?i:mrs?|ms|miss)\.?[ \t]+\p{Ll})[ \t]+in[ \t]+(?P<v>[1-9]\d{0,2}(?:-[1-9]|[A-F])?)[ \t]+(?:is|was|needs?|wants?|still|waiting|asking|has|keeps|refusing|requesting|complaining|needing|getting|going|can|can't|cannot|won't|just|now)\b".into(),
        ),
        (
            Kind::Room,
            40,
            Check::None,
            // A room a nurse holds on a rota ("whoever has 287-1: that's ms. Fields", "who has
            // 4B, the fall risk?"): the number closes its clause.
            r"\b(?i:who(?:ever)?|anyone)[ \t]+(?i:has|had|took|takes|covers|got|is[ \t]+covering)[ \t]+(?P<v>[1-9]\d{0,2}(?:-[1-9]|[A-F])?)[ \t]*(?:[:,—–]|-[ \t])".into(),
        ),
        (
            Kind::Room,
            45,
            Check::None,
            // A paired label's second value ("Teacher/Room: Mr. Olsen / 180", "Unit/Bed: 4
            // West / 12"): the slash pairs the values as it pairs the label's words.
            r"(?i)\b[a-z]{2,12}[ \t]*/[ \t]*(?:room|rm|bed|classroom)[ \t]*:[ \t]*[^/\n]{1,40}?/[ \t]*(?P<v>[A-Z]?\d{1,4}[A-Z]?)\b".into(),
        ),
        (
            Kind::Room,
            45,
            Check::None,
            // A room's number said in words, as a transcript writes it ("room seven hundred
            // nine", "room seven hundred twenty four", "bed four oh eight").
            format!(r"(?i)\b(?:room|rm|bed)[ \t]+(?:number[ \t]+)?(?P<v>{unit_w}[ \t-]+hundred(?:[ \t-]+(?:and[ \t]+)?{house_w})?|{sd}[ \t-]+{sd}[ \t-]+{sd})\b"),
        ),
        (
            Kind::Date,
            50,
            Check::None,
            // An ordinal day "of" a month, no year ("re 23rd of September", "double booked
            // 27th of July"): the ordinal's suffix and "of" make it a day, not a count.
            r"(?i)\b(?:0?[1-9]|[12]\d|3[01])(?:st|nd|rd|th)[ \t]+of[ \t]+(?:Jan(?:uary)?|Feb(?:ruary)?|Mar(?:ch)?|Apr(?:il)?|May|June?|July?|Aug(?:ust)?|Sep(?:t(?:ember)?)?|Oct(?:ober)?|Nov(?:ember)?|Dec(?:ember)?)\b".into(),
        ),
        (
            Kind::Date,
            49,
            Check::None,
            // A month and day naming an event, a determiner before it and the event after it
            // ("the 1/15 visit", "my 9/28 evening", "wants the 2/23 slot"): a fraction or a
            // score is not said so.
            r"(?i)\b(?:the|my|your|his|her|our|their|this|that|next|last)[ \t]+(?P<v>(?:0?[1-9]|1[0-2])/(?:0?[1-9]|[12]\d|3[01]))[ \t]+(?:visits?|appt|appointment|slot|shift|session|call|class|evening|morning|afternoon|night|overnight|surgery|procedure|draft|payment|bill|charge|statement|service|draw|labs?|test|scan|meeting|deadline|deposit)\b".into(),
        ),
        (
            Kind::Date,
            50,
            Check::None,
            // A day and month without a year where a full date moves or runs to it ("z
            // 12.10.2025 na 27.08", "from 3/4/2025 to 3/9", "vom 1.2.2026 bis 4.2."): the year
            // written once covers both.
            r"(?i)\b\d{1,2}[./]\d{1,2}[./](?:\d{4}|\d{2})[ \t]+(?:na|do|to|until|till|through|thru|bis|au|al|a|->|→|-|–)[ \t]+(?P<v>(?:0?[1-9]|[12]\d|3[01])[./](?:0?[1-9]|[12]\d|3[01]))(?:[^0-9./]|[./](?:[^0-9]|$)|$)".into(),
        ),
        (
            Kind::Date,
            52,
            Check::None,
            // A month and its day as a cardinal number word, as callers say it ("since june
            // ten", "a bill for september twenty five"). Not "may": a verb before a number as
            // often as a month.
            format!(r"(?i)\b(?:january|february|march|april|june|july|august|september|october|november|december)[ \t]+(?:the[ \t]+)?(?:thirty(?:[- ]one)?|twenty(?:[- ]{unit_w})?|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|{unit_w})\b"),
        ),
        (
            Kind::Mrn,
            81,
            Check::HasDigit,
            // A record label, then a few small words of the writer's language before its colon
            // ("MRN niya po: 10147290", "MRN ko: CR886266", "chart no. de ella: …"): pronouns
            // and particles; the colon still closes the label.
            r"(?i)\b(?:mrn|mr#|chart(?:[ \t]+(?:no\.?|number|#))?|record[ \t]+(?:no\.?|number|#))(?:[ \t]+(?-i:\p{Ll}{1,5})){1,2}[ \t]*:[ \t]*(?P<v>[A-Za-z]{0,3}-?\d[A-Za-z0-9-]{3,20})\b".into(),
        ),
        (
            Kind::Vehicle,
            74,
            Check::Vin,
            // A plate after a car's colour and model, as a relative's ride is described
            // ("silver civic 658LZE)", "white Ford Escape 7ABC123,"): letters and digits both,
            // closing the clause.
            r"(?i)\b(?:white|black|silver|gr[ae]y|red|blue|green|gold|tan|beige|brown|maroon|navy|yellow|orange|purple|burgundy)[ \t]+(?:[a-z][a-z0-9-]{1,12}[ \t]+){1,2}(?P<v>(?-i:[A-Z0-9]{2,4}[ -]?[A-Z0-9]{2,4}))(?:[ \t]*[),.;]|[ \t]*$)".into(),
        ),
        (
            Kind::License,
            77,
            Check::None,
            // A driver's licence after its state's code ("Driver's licence WA WDLKSADYQPJK"):
            // the state is no identifier; the number may be letters only (Washington's
            // "WDL…"), so a long run of capitals passes without a digit.
            format!(r"(?i)\bdriver'?s?[ \t]+licen[cs]e(?:[ \t]*(?:number|no\.?|#))?[ \t]*[:#]?[ \t]*(?-i:{STATES})[ \t]+(?P<v>(?-i:[A-Z0-9]*\d[A-Z0-9]*|[A-Z]{{10,15}}))\b"),
        ),
        // --- more name forms ---
        (
            Kind::Person,
            34,
            Check::NameStrict,
            // A full name right before a DOB, MRN or age, in any written form, also with a
            // chat's emoji between ("R. Abubakar 🚑 DOB …") or an age group for the age
            // ("K. Dela Peña, adult, seen …").
            format!(r"(?P<v>{full})[ \t]*(?:\(|,|-|–|;)?[ \t]*(?:\p{{So}}[\x{{FE0F}}\x{{200D}}]?[ \t]*){{0,3}}(?i:(?:dob|born|mrn|aged?|ssn|adult|child|minor|infant|newborn|neonate|toddler|adolescent)\b|d\.o\.b|b\.|mr#|date of birth|\d{{1,3}}[ \t]*(?:y|yo|-year))"),
        ),
        (
            Kind::Person,
            33,
            Check::NameStrict,
            // After a cue that introduces a patient or a correspondent.
            format!(r"(?:\b(?i:seeing|see|for|re|regarding|dear|patient|pt|resident|client|member|caller|guarantor|subscriber|insured|patient name|name|attn|to|from|cc|move|schedule|reschedule|book)[ \t]*:?[ \t]+(?:(?i:my|our|the)[ \t]+(?i:patient|client|resident),?[ \t]+)?)(?P<v>{full})"),
        ),
        (
            Kind::Person,
            32,
            Check::NameStrict,
            // A possessive first name or surname before a relation or a record word:
            // "Ximena's daughter", "Okafor's labs".
            format!(r"\b(?P<v>{n})['’]s[ \t]+(?i:daughter|son|wife|husband|mother|father|mom|dad|sister|brother|spouse|partner|caregiver|niece|nephew|grand\w+|aunt|uncle|friend|neighbou?r|appointment|appt|chart|record|labs?|meds|medications?|insurance|refill|visit|prescription|results?|house|home|room)\b"),
        ),
        (
            Kind::Person,
            31,
            Check::SpokenName,
            // A name said in a call, typed in lower case: "hi this is margaret okafor calling".
            r"(?i)\b(?:this is|my name is|name is|name's|it's|calling for|message for|voicemail for|left for|speaking with|spoke (?:with|to)|(?:pls|please) (?:ask|tell|remind|call|text)|ask|remind)[ \t]+(?P<v>[a-zà-öø-ÿā-ž'’-]{2,}(?:[ \t]+[a-zà-öø-ÿā-ž'’.-]{2,}){0,3}?)[ \t]*(?:,|\.|@|\bcalling\b|\bhere\b|\bfrom\b|\bagain\b|\breturning\b|\band\b|\bat\b|\babout\b|\bregarding\b|\bto\b|\bi\b|$)".into(),
        ),
        (
            Kind::Person,
            30,
            Check::NameStrict,
            // "Last, First" anywhere, closed by punctuation or a line end.
            format!(r"\b(?P<v>{sur},[ \t]*{n}(?:[ \t]+{INIT})?|{caps},[ \t]*{caps}(?:[ \t]+(?:[A-Z]\.|[A-Z]\b))?)[ \t]*(?:[,.;:)(]|$)"),
        ),
        (
            Kind::Address,
            40,
            Check::None,
            // A city before ", ST 12345" also with particles: "Coeur d'Alene, ID 83814"; at a
            // line's or a field's start also without the comma ("Pueblo CO 81001" under a
            // street line).
            format!(r"(?m)(?:^|[,:][ \t]*)(?P<v>{city})(?:,[ \t]*|[ \t]+)(?:{STATES})[ \t]+\d{{5}}\b"),
        ),
        (
            Kind::Address,
            40,
            Check::None,
            // The last line of a mailing block printed in capitals ("CHILLICOTHE OH
            // 45655-1145", "ST. CLOUD MN  56311"): a city, a state and a ZIP alone on the line.
            format!(r"(?m)^[ \t]*(?P<v>(?:ST\.?[ \t]+|MT\.?[ \t]+|FT\.?[ \t]+)?{CAPS_W}(?:[ \t]+{CAPS_W}){{0,2}}),?[ \t]+(?:{STATES})[ \t]+\d{{5}}(?:-\d{{4}})?[ \t]*\r?$"),
        ),
        (
            Kind::Zip,
            44,
            Check::None,
            format!(r"\b(?:{STATES}),?[ \t]+(?P<v>\d{{5}}(?:-\d{{4}})?)\b"),
        ),
        (
            Kind::Person,
            31,
            Check::NameStrict,
            // A signature: the line after a closing ("Thanks,\nSiobhan", "-- \nAnh St. Clair").
            format!(r"(?im)^[ \t]*(?:thanks|thank you|thx|best|best regards|kind regards|warm regards|regards|sincerely|cheers|respectfully|take care|--|—|-)[ \t]*,?[ \t]*\r?\n[ \t]*(?P<v>{n}(?:[ \t]+(?:{INIT}|[a-z]\.|{sur}))*)[ \t]*\r?$"),
        ),
        (
            Kind::Address,
            41,
            Check::None,
            // A labelled address line: "Address line 2: Apt 4B", "Mailing address: …".
            r"(?im)\b(?:address(?:[ \t]*line[ \t]*\d)?|addr|street|mailing[ \t]+address|home[ \t]+address|residence)[ \t]*:[ \t]*(?P<v>[^\n\r]{0,100}[0-9#][^\n\r]{0,78}?)[ \t]*\r?$".into(),
        ),
        (
            Kind::Address,
            38,
            Check::None,
            // A unit on its own: "Apt 4B", "Unit 12", "Lot 22". Not a suite or a building: alone
            // those are an office's ("Ridgeline Cardiology suite 200"); after a street line the
            // street rules take them.
            // A lot only by digits ("Lot 22"): "Lot 3203L" is a specimen's or a vaccine's.
            r"(?i)\b(?:(?:apt|apartment|unit)\b\.?[ \t]*#?[ \t]*(?-i:\d{1,5}(?:-?[A-Z])?|[A-Z]-?\d{1,4})|lot\b\.?[ \t]*#?[ \t]*\d{1,4})\b".into(),
        ),
        (
            Kind::Ssn,
            80,
            Check::None,
            // A partial SSN is still an SSN: "last 4 of SSN 6789", "SSN ending in 6789".
            r"(?i)\b(?:last[ \t]*(?:4|four)(?:[ \t]*digits)?(?:[ \t]*of)?(?:[ \t]*(?:the[ \t]+)?(?:ssn|social(?:[ \t]+security)?))?|(?:ssn|social(?:[ \t]+security)?)[ \t]*(?:ending|ends)(?:[ \t]*(?:in|with))?)[ \t]*(?:is|:|#|-)?[ \t]*(?P<v>\d{4})\b".into(),
        ),
        (
            Kind::Date,
            52,
            Check::None,
            // A two-digit year after month and day: "Mar 14 '58".
            format!(r"(?i)\b{month}[ \t]+{day},?[ \t]*['’]\d{{2}}\b"),
        ),
        // --- names ---
        (
            Kind::Person,
            32,
            Check::PersonWords,
            // Not across a line break (why: "…, RN\nDirect: 555-0100" is a signature, not a name).
            format!(r"\b(?:Mr|Mrs|Ms|Mx|Miss|Dr|Prof|Rev|Sr|Sister|Nurse|RN|NP|PA)\.?[ \t]+(?P<v>(?:{INIT}\s*)?{name2})"),
        ),
        (
            Kind::Person,
            31,
            Check::PersonWords,
            format!(r"\b(?i:patient|pt\.?|resident|client|member|caller|guarantor|subscriber|insured)\s+(?P<v>{name2})"),
        ),
        (
            Kind::Person,
            33,
            Check::PersonWords,
            format!(r"(?i:patient\s*name|patient|pt\s*name|pt|name|full\s*name|referring(?:\s*(?:physician|provider|doctor|md))?|resident|member\s*name|guarantor|emergency\s*contact|next\s*of\s*kin|nok|contact|attending|pcp|provider|physician|caregiver|spouse|parent|guardian|signed|from|to|cc|re|subscriber|insured|mother|father)\s*:\s*(?P<v>{n},\s*{n}(?:\s+{INIT})?|[A-Z][A-Z'’-]+[A-Z],\s*[A-Z][A-Z'’-]+[A-Z]|(?:{INIT}\s*)?{name2})"),
        ),
        (
            Kind::Person,
            33,
            Check::PersonWords,
            format!(r"\b(?P<v>{n}(?:\s+{INIT})?\s+{n}(?:\s+{n})?|{n},\s*{n})\s*(?:\(|,)\s*(?i:dob|d\.o\.b|born|b\.|mrn|age|aged|date of birth|ssn|\d{{1,3}}\s*(?:y|yo|-year)|a\s+\d{{1,3}}-year)"),
        ),
        (
            Kind::Person,
            31,
            Check::PersonWords,
            format!(r"\b(?i:wife|husband|son|daughter|mother|father|sister|brother|spouse|partner|caregiver|niece|nephew|granddaughter|grandson|grandmother|grandfather|aunt|uncle|cousin|friend|neighbor|neighbour|roommate|employer|boss|guardian|POA)[ \t]*,?[ \t]+(?P<v>{n}(?:[ \t]+{INIT})?(?:[ \t]+{sur})?)"),
        ),
        (
            Kind::Person,
            31,
            Check::PersonWords,
            format!(r"(?:^|[\n.!?]\s*)(?i:hi|hello|hey|dear|thanks|thank you|good morning|good afternoon)\s*,?\s+(?P<v>{n}(?:\s+{n})?)"),
        ),
        (
            Kind::Person,
            31,
            Check::PersonAll,
            format!(r"(?i:regards|sincerely|thanks|best|cheers|signed|electronically signed by|dictated by|transcribed by|seen by|reviewed by|per|with|by)\s*,?\s+(?P<v>(?:{INIT}\s*)?{n}(?:\s+{INIT})?\s+{n})(?:,?\s*(?:MD|DO|RN|NP|PA-C|PA|LPN|CNA|PharmD|PhD)\b)?"),
        ),
        (
            Kind::Person,
            31,
            Check::PersonWords,
            format!(r"\b(?P<v>(?:{INIT}\s*)?{n}(?:\s+{INIT})?\s+{n}),?\s+(?:MD|DO|RN|NP|PA-C|LPN|CNA|PharmD|PhD|LCSW|MSW)\b"),
        ),
        (
            Kind::Person,
            31,
            Check::PersonWords,
            format!(r"\b(?P<v>{n}(?:[ \t]+{n})?)[ \t]+(?i:is a|is an|was admitted|was discharged|presented|presents|reports|called|was seen|arrived|\(\d{{2,3}}\s*(?:y|yo|M|F))\b"),
        ),
        (
            Kind::Person,
            31,
            Check::PersonAll,
            // "Per Okonkwo, Quentin: no change": "Last, First" after a reporting cue, closed by
            // punctuation (why: without it, "with Metformin, Lisinopril" reads the same).
            format!(r"(?i:per|by|from|with|signed)\s+(?P<v>{n},\s*{n}(?:\s+{INIT})?)\s*[:;)]"),
        ),
        (
            Kind::Person,
            29,
            Check::PersonAll,
            // Any "Firstname Lastname" pair anywhere: the broadest name rule, ranked lowest so
            // addresses, cities and labelled fields win their overlaps. Every word must pass
            // the non-name lists (why: clinical text is full of Title Case phrases).
            format!(r"\b(?P<v>{n}(?:[ \t]+{INIT})?[ \t]+{SUR_PREFIX}{p}{n}(?:[ \t]+{n})?)\b"),
        ),
    ];
    specs
        .into_iter()
        .enumerate()
        .map(|(index, (kind, prio, check, pat))| {
            Pattern::new(&pat, false, 32 << 20)
                .map(|re| Rule {
                    kind,
                    re,
                    prio,
                    check,
                })
                .map_err(|reason| RedactError::BadPattern {
                    kind,
                    index,
                    reason,
                })
        })
        .collect()
}

/// Diagnoses and conditions (opt-in per profile): common chronic and sensitive conditions by
/// name and by their usual abbreviations, case-sensitive for the abbreviations.
pub(super) fn condition_rule() -> Result<Rule, RedactError> {
    let pat = r"(?i)\b(?:(?:type\s*(?:1|2|i|ii)\s+)?diabetes(?:\s+mellitus)?|hypertension|dementia|alzheimer'?s(?:\s+disease)?|parkinson'?s(?:\s+disease)?|atrial\s+fibrillation|a-?fib|heart\s+failure|congestive\s+heart\s+failure|(?:breast|lung|prostate|colon|colorectal|pancreatic|ovarian|skin)\s+cancer|cancer|leukemia|lymphoma|melanoma|carcinoma|(?:major\s+)?depressi(?:on|ve\s+disorder)|bipolar(?:\s+disorder)?|schizophrenia|anxiety\s+disorder|ptsd|hepatitis\s*[abc]?|cirrhosis|asthma|emphysema|epilepsy|seizure\s+disorder|stroke|multiple\s+sclerosis|opioid\s+use\s+disorder|alcohol\s+use\s+disorder|substance\s+use\s+disorder|obesity|osteoporosis|rheumatoid\s+arthritis|lupus|sickle\s+cell(?:\s+disease)?|(?:chronic\s+kidney\s+disease|ckd)(?:\s+stage\s+\d[ab]?)?|end[- ]stage\s+renal\s+disease|(?-i:CHF|COPD|HIV|AIDS|ESRD|CAD|PAD|DVT|OUD|MDD|GAD|T2DM|T1DM|DM2|HTN|CVA|TBI))\b";
    Pattern::new(pat, false, 10 << 20)
        .map(|re| Rule {
            kind: Kind::Condition,
            re,
            prio: 20,
            check: Check::None,
        })
        .map_err(|reason| RedactError::BadPattern {
            kind: Kind::Condition,
            index: usize::MAX,
            reason,
        })
}

#[cfg(test)]
mod tests {
    use super::super::{Kind, Redactor, RedactorConfig};

    fn spans(text: &str) -> Vec<(Kind, String)> {
        let r = Redactor::new(&RedactorConfig::default()).unwrap();
        r.find(text)
            .unwrap()
            .into_iter()
            .map(|s| (s.kind, text[s.start..s.end].to_string()))
            .collect()
    }

    /// Every one of `values` lies inside a redacted span of `text`.
    fn hides(text: &str, values: &[&str]) {
        let r = Redactor::new(&RedactorConfig::default()).unwrap();
        let found = r.find(text).unwrap();
        for v in values {
            let at = text.find(v).unwrap();
            assert!(
                found.iter().any(|s| s.start <= at && at + v.len() <= s.end),
                "{v:?} not hidden in {text:?}: {:?}",
                spans(text)
            );
        }
    }

    fn clean(text: &str) {
        assert_eq!(spans(text), vec![], "{text:?}");
    }

    #[test]
    fn rooms_on_boards_lists_and_moves() {
        hides(
            "PICKUP\n* Mara Lind from 4-12 — ride: her son, cell on file",
            &["4-12"],
        );
        hides(
            "- Tovah Brandt (MRN 55120987) in 17B, waiting on echo",
            &["17B"],
        );
        hides(
            "Plan: move to 512 if it opens, else transferred to 22A.",
            &["512", "22A"],
        );
        hides(
            "Clean beds: 12A, 14B and 3-20\nEVS paged",
            &["12A", "14B", "3-20"],
        );
        hides("Rooms 604, 611 / 615 need linens", &["604", "611", "615"]);
        // A vital sign, a quantity's change, a range or a count is no bed.
        clean("HR in 120, improving; sugars down from 300 — better today.");
        clean("Titrated to 100 mg, recheck in 2-10 days.");
        let f = spans("Beds: 12, 2 patients still waiting");
        assert!(!f.contains(&(Kind::Room, "2".into())), "{f:?}");
    }

    #[test]
    fn national_ids_records_rooms_and_ages_as_other_languages_say_them() {
        hides(
            "Hej, jag heter Ebba och mitt personnummer 460101-1234.",
            &["460101-1234"],
        );
        hides(
            "Mit CPR-nummer er 010146-1234, ring venligst",
            &["010146-1234"],
        );
        hides("Nomor rekam medis 512-77120. Terima kasih", &["512-77120"]);
        hides("Mama mea este în salonul 4-17. Telefon", &["4-17"]);
        hides("Amar dadi boyosh 96. Ami Rina", &["96"]);
        hides("Bunica are 94 de ani si sta acasa", &["94"]);
        hides("caller: yes. i'm 93 you know, cant get up", &["93"]);
        hides(
            "PU: 412 Old Quarry Trace, Unit 4, Dover",
            &["412 Old Quarry Trace"],
        );
    }

    #[test]
    fn study_incident_card_tail_ward_and_service_desk_numbers_stay() {
        keeps("Study CRI-24-778 consent log (v3.1)", &["CRI-24-778"]);
        keeps("SECURITY INCIDENT REPORT IR-25-9879", &["IR-25-9879"]);
        keeps("Survey free text (unit 5W, discharged May)", &["5W"]);
        keeps("From: parking@bellwether-rmc.org", &["parking@"]);
        keeps("card on file ending 6931 declined", &["6931"]);
    }

    #[test]
    fn a_record_number_found_once_is_hidden_where_it_repeats() {
        // A label printer's fields (ZPL): the data glued to `^FD`, the number again as a barcode.
        let zpl = "^XA^FO30,20^A0N,28^FDLIND,MARA^FS\n^FO30,55^FDMRN:646-74469 DOB:3 May 1980^FS\n^FO30,90^BCN,60^FD646-74469^FS\n^XZ\n";
        let found = spans(zpl);
        assert_eq!(
            found
                .iter()
                .filter(|(k, v)| *k == Kind::Mrn && v == "646-74469")
                .count(),
            2,
            "{found:?}"
        );
        // Not inside a longer number.
        keeps("MRN 55120987; lot 551209871", &["551209871"]);
    }

    #[test]
    fn streets_dates_ages_and_records_of_other_countries_and_speech() {
        hides(
            "Meine Adresse: Lindenstraße 4, 10115 Berlin. J'habite au 12 bis, avenue des Acacias, 69003 Lyon.\nAdres: ul. Długa 5/3, Gdańsk\nmailed to N5512 Birchwood Rd, Ashland, WI 54806 or County Road 12, Elkton",
            &[
                "Lindenstraße 4",
                "10115",
                "Berlin",
                "avenue des Acacias",
                "69003",
                "Lyon",
                "ul. Długa 5/3",
                "N5512 Birchwood Rd",
                "County Road 12",
                "Elkton",
            ],
        );
        hides(
            "i stay with her at 880 willow bend rd out past tupelo\nHOME W/ SON, 1200 OAK ST, GREENVILLE PH 555-201-3344",
            &["880 willow bend rd", "tupelo", "GREENVILLE"],
        );
        hides(
            "ts=2025-03-04T10:00:00Z geboren am 3. Mai 1940, Termin am 7.8.\nchusheng riqi shi 1950 nian 3 yue 9 ri; 1961nyeon 2wol 3il; wizyty z 22.01 na\nдата рождения 5 марта 1941 г.",
            &[
                "2025-03-04",
                "3. Mai 1940",
                "7.8.",
                "1950 nian 3 yue 9 ri",
                "1961nyeon 2wol 3il",
                "22.01",
                "5 марта 1941",
            ],
        );
        hides(
            "its my grandma shes 96 and alone. Er ist 93 Jahre alt. Mon numéro de dossier est 981-77952. Wo de bingli hao shi 36247270. Полис ОМС 9654503712239403.",
            &["96", "93", "981-77952", "36247270", "9654503712239403"],
        );
        // A dose, a decimal, a weekday's time and the practice's pages stay.
        clean(
            "INR 2.5. Take 2.5 mg am and pm. He's 98.6 F? Terms: https://portal.clinic.org/terms and https://clinic.org/\n",
        );
    }

    #[test]
    fn scanned_form_fields_through_misreadings() {
        hides(
            "Patient Name:  JANE DOE   D ate of B irth: 1l/16/l931\nHome Phone: (3l7)900-l972    S oc. Sec. #: 46832 8528",
            &["1l/16/l931", "(3l7)900-l972", "46832 8528"],
        );
        hides(
            "Insurance Co: BCBS    I D  #: H MH3531l 124 5\nAcc ount  No. A023l718\nSig nature ____   D ate l2/5/2O25",
            &["H MH3531l 124 5", "A023l718", "l2/5/2O25"],
        );
        hides(
            "Ad dre ss:   10lO 0ld Mill Pike #38  Shawnee  KS  65858",
            &["10lO 0ld Mill Pike #38", "Shawnee", "65858"],
        );
        // The label's kind: a bare ID after an insurer is a plan's.
        assert!(
            spans("Insurance Co: Aetna    ID #: 96873 866D")
                .contains(&(Kind::HealthPlan, "96873 866D".into()))
        );
        // A value ends before a sentence's full stop or a bracket it did not open.
        assert!(
            spans("call her cell 938-555-0147.").contains(&(Kind::Phone, "938-555-0147".into()))
        );
        assert!(
            spans("daughter (cell 938-555-0147) drives")
                .contains(&(Kind::Phone, "938-555-0147".into()))
        );
        // Not read as digits: words, years, a state's code, counts.
        for text in [
            "Account 2024 summary attached.",
            "Boise, ID 83702",
            "Cell count was low; phone later.",
            "Date of birth: unknown",
        ] {
            assert!(
                spans(text)
                    .iter()
                    .all(|(k, _)| !matches!(k, Kind::Mrn | Kind::Account | Kind::HealthPlan)),
                "{text:?}: {:?}",
                spans(text)
            );
        }
    }

    #[test]
    fn streets_cities_and_zips_in_more_forms() {
        hides(
            "Location: 9303 Calle Luna, Eau Claire (parking lot)",
            &["9303 Calle Luna", "Eau Claire"],
        );
        hides(
            "the walgreens on 944 Rue Cartier #3. thanks",
            &["944 Rue Cartier #3"],
        );
        hides(
            "Ship to: 12 Avenida de la Paz, Laredo, TX 78040",
            &["12 Avenida de la Paz", "Laredo"],
        );
        hides(
            "Street: 9152 N Fairview St\nCity: St. Cloud   State: MN",
            &["St. Cloud"],
        );
        hides(
            "Location: 5812 Bramblewood Ct, St. Cloud (roadway)",
            &["St. Cloud"],
        );
        hides(
            "Location: 6472 N Fairview St, Bowling Green (roadway)",
            &["Bowling Green"],
        );
        hides(
            "living at 8713 Kensington Blvd Unit 9 in St. Cloud, MN 73677-9500",
            &["St. Cloud", "73677-9500"],
        );
        hides(
            "mailed to 10956 SE 14th Ave, Lot 49, Zanesville",
            &["10956 SE 14th Ave"],
        );
        hides(
            "my new adress is 14881 persimmon st paducah, ky 42020 and",
            &["paducah", "42020"],
        );
        // What stays: a practice's suite, an NDC's first parts, a payer's remittance box.
        clean("Ridgeline Cardiology suite 200, 2nd floor.");
        clean("NDC: 41618-4337-42");
        let payer = "Utilization Management Department\nPO Box 890062, Camp Hill, PA 17089";
        assert!(
            spans(payer)
                .iter()
                .all(|(k, _)| !matches!(k, Kind::Address | Kind::Zip)),
            "{:?}",
            spans(payer)
        );
        assert_eq!(
            spans("12 Elm St, Please call first."),
            vec![(Kind::Address, "12 Elm St".to_string())]
        );
    }

    #[test]
    fn numbers_dates_and_ages_said_or_headed() {
        hides(
            "call me back at five zero nine ... eight two two ... thirty seven sixty six thanks",
            &["five zero nine ... eight two two ... thirty seven sixty six"],
        );
        hides(
            "reach me at two oh eight five nine six fifty fourteen",
            &["two oh eight five nine six fifty fourteen"],
        );
        hides(
            "date of birth is three fifteen seventy five i'm calling",
            &["three fifteen seventy five"],
        );
        hides("moved from 03/20/2024 10:40 to 3/22 at 2:15 PM", &["3/22"]);
        hides("DOB: 26AUG1933    AGE: 92Y    SEX: M", &["92"]);
        hides("S: Dlamini C, 92 M, Room 417", &["92"]);
        hides("asked for my social, it is 015 02 7878.", &["015 02 7878"]);
        hides(
            "Ph: 555–555–0142, SSN 123–45–6789, DOB 03–14–1958",
            &["555–555–0142", "123–45–6789", "03–14–1958"],
        );
        hides("Age/Sex: 92/F", &["92"]);
        hides("RR 2 Box 45, Hazard, KY", &["RR 2 Box 45"]);
        // A card's last four digits name no one (the card is the holder's bank's).
        clean("Visa ending in 4242 declined");
        hides("MAC 00:1A:2B:3C:4D:5E", &["00:1A:2B:3C:4D:5E"]);
        hides("Tel.: 0044 20 7946 0958", &["0044 20 7946 0958"]);
        hides("Apt. 4-B", &["Apt. 4-B"]);
        // The first ten digits of a longer number are no phone number.
        assert!(
            !spans("Tel: 1234 5678 9012 3456 7")
                .iter()
                .any(|(k, v)| *k == Kind::Phone && v.len() < 20)
        );
        hides("zip is nine oh two one oh, thanks", &["nine oh two one oh"]);
        hides("moved to room four twelve overnight", &["four twelve"]);
        clean("room for two more chairs");
        clean("Room 3 scale is broken; pt roomed in exam room 4.");
        hides("Moved to Room 412 at noon", &["412"]);
        clean("take 2 tabs at 8 pm, then 1 at noon");
        clean("ages seventy and sixty");
    }

    #[test]
    fn order_lot_and_billing_codes_stay() {
        for text in [
            "PO 58021664 for Keystone",
            "Vaccines today: DTaP #4 lot S21967, Order #5822665",
            "Supplies: Lot 8L9729 (dressings)",
            "Subject: PO 4500152255 confirmation",
            "Your order SO-6482923 ships",
            "Item: CPAP E0601 w/ heated humidifier",
            "lot X73960 given",
            "with AM labs (1000), then",
        ] {
            clean(text);
        }
        // A lot in an address, a room after a name, an extension after a number stay found.
        hides("lives at Lot 22", &["Lot 22"]);
        hides("Arnel (930) - 96 years old", &["930"]);
        hides("call 555-555-0100 x1234", &["x1234"]);
    }

    #[test]
    fn ages_and_rooms_as_other_languages_write_them() {
        hides(
            "O pappous mou einai 96 eton, sto dwmatio 12B.\nMae khong chan ayu 102 pi, yoo hong 315.\nIsäni on 93-vuotias, huone 8.\nDidus mii 97 rokiv, palata 4.",
            &["96", "12B", "102", "315", "93", "8", "97", "4"],
        );
        hides(
            "please visit my uncle Ari Sela, 94, 3rd floor bed 12A",
            &["94"],
        );
        hides("Chana Levi, 99, room 210, asks for a visit", &["99"]);
        clean("The 95 pi digits were printed.");
        clean("Sold 2 units, 94, 3 and 7 remain.");
    }

    #[test]
    fn chairs_unit_rooms_and_their_look_alikes() {
        hides("Patient: Thuy Nguyen   chair #15     MR# 16064197", &["15"]);
        hides(
            "DIALYSIS RUN SHEET\nPatient: R. Church   Station 1     MRN 1695",
            &["1"],
        );
        hides("Delivered 16:28. Mother in L&D 374.", &["374"]);
        clean("Up in chair 2 hours after lunch.");
        clean("PATIENT CARE REPORT - Medic 12  Station 9");
        clean("Report given at nurses station 2.");
    }

    #[test]
    fn dates_with_months_of_other_languages() {
        hides(
            "Ipinanganak ako noong Hunyo 3, 1951. Nasci em 2 de outubro de 1948.",
            &["Hunyo 3, 1951", "2 de outubro de 1948"],
        );
        hides(
            "Née le 14 février 1939, nato il 3 luglio 1944, geboren am 5. März 1950, fèt 12 desanm 1961.",
            &[
                "14 février 1939",
                "3 luglio 1944",
                "5. März 1950",
                "12 desanm 1961",
            ],
        );
        hides(
            "Sinh ngày 05 tháng 03 năm 1950, hẹn ngày 12 tháng 4. 生日 1950年3月5日, 생일 1950년 3월 5일.",
            &[
                "05 tháng 03 năm 1950",
                "12 tháng 4",
                "1950年3月5日",
                "1950년 3월 5일",
            ],
        );
        hides(
            "né le 1er mars 1950; urodzony 5 marca 1950; родился 5 марта 1950 г.",
            &["1er mars 1950", "5 marca 1950", "5 марта 1950"],
        );
        // A month alone, or a day without a year, in another language is no date of anyone.
        clean("Le rendez-vous est en mars, merci.");
    }

    #[test]
    fn mail_blocks_in_capitals_and_their_street_types() {
        hides(
            "ALMA REYES\n77 AVENIDA DE LA PAZ APT 4\nEL PASO TX 79901\n",
            &["77 AVENIDA DE LA PAZ APT 4"],
        );
        hides(
            "OSCAR LUND\n409 BIRCH HOLLOW CT\nNEW BRITAIN CT 06051\n",
            &["409 BIRCH HOLLOW CT"],
        );
        hides(
            "JOHN OKAFOR\n12 OAK ST\nDAYTON OH 45402\n\nMARY LUND\n9 ELM CT APT 2\n",
            &["12 OAK ST", "9 ELM CT APT 2"],
        );
        // A line of capitals that is no street stays ("2 TABS PO BID").
        clean("SIG:\n2 TABS PO BID\n");
    }

    #[test]
    fn practice_mailboxes_paged_extensions_and_crew_units_stay() {
        clean("Questions? radiology.scheduling@mercy.example or vital.records@county.example");
        clean("From: oncology@lakeside.example");
        clean("From: Bariatric Program <bariatrics@riverbend.example>");
        hides(
            "From: Rosa Delgado <rdelgado77@gmail.com>",
            &["Rosa Delgado"],
        );
        clean("Log in at medicare.gov to see your claims.");
        hides(
            "write to oncology.kim77@gmail.com or jdoe at example dot com",
            &["oncology.kim77@gmail.com", "jdoe at example dot com"],
        );
        clean("Charge nurse paged x4410 twice.");
        hides("call me back at x4412", &["x4412"]);
        clean("A0427 ALS1 emergency; Unit M12 responded from Station 4.");
        hides("Lives at Unit 7, the back entrance.", &["Unit 7"]);
        assert_eq!(
            spans("NK1|1|DOE^ANA|MTH^Mother^HL70063"),
            vec![(Kind::Person, "DOE^ANA".into())]
        );
    }

    #[test]
    fn every_place_a_patient_is_lodged() {
        hides(
            "Twin A in Pod 2, isolette 14; twin B in bassinet 31, crib #6 by Friday.",
            &["2", "14", "31", "6"],
        );
        hides("Housing: 3 North, cell 118B, bunk 2", &["118B", "2"]);
        hides("Roomed to ED Space 14, then stretcher 3.", &["14", "3"]);
        hides("radiant warmer 4", &["4"]);
        hides(
            "Moved to pod C-12, then rooms 412 and 414.",
            &["C-12", "412"],
        );
        clean("UA: epithelial cell 3-5/hpf, squamous cell 2/hpf");
        // A cell phone is no cell; a space in lower case is no ED's.
        assert_eq!(
            spans("cell 555-201-3344"),
            vec![(Kind::Phone, "555-201-3344".into())]
        );
        clean("leave space 2 lines below");
    }

    #[test]
    fn short_year_spanish_dates_and_mail_blocks() {
        hides("DOB 14-JUL-46, seen 8-Jun-26", &["14-JUL-46", "8-Jun-26"]);
        hides(
            "nací el 14 de marzo de 1961 y mi cita es el 16 de junio",
            &["14 de marzo de 1961", "16 de junio"],
        );
        hides(
            "Mail to: IRIS WELLS\n5235 SW 14TH TER\nMUNCIE IN  47301-7903\n",
            &["5235 SW 14TH TER", "MUNCIE"],
        );
        hides("Home: 5520 Buckeye Ave, Trlr 30, Hilo, HI", &["Trlr 30"]);
        hides("Patient: Haddad, Oksana, 95 y F", &["95"]);
        hides("VIN 1FTDHXWYW5D37L8L7, plate AR KNY-5804", &["KNY-5804"]);
    }

    #[test]
    fn namespaces_meeting_links_and_model_years_stay() {
        clean(r#"{"coding": [{"system": "http://loinc.org", "code": "33914-3"}]}"#);
        clean("Join: https://teams.microsoft.com/l/meetup-join/19%3ameeting_VB2X2Z%40thread.v2/0");
        clean("Vehicle involved: 2018 pickup truck");
        clean("Interpreter (ID 75438) joined by video.");
        clean("Protocol GPC-HF-7417 (NCT01537301) - Screening Log");
        hides("Boise, ID 83702", &["83702"]);
        hides(
            "the portal is https://mychart.example.org/p/8842",
            &["https://mychart.example.org/p/8842"],
        );
    }

    #[test]
    fn obituary_ages_towns_case_numbers_and_read_out_records() {
        hides(
            "Inga Sorensen, 97, of Red Wing, passed away on 2 May. Her brother Olaf died at home in Lake City at the age of 91.",
            &["97", "Red Wing", "Lake City"],
        );
        hides(
            "Please pray for Thelma Ruiz, who turns 102 on Sunday.\nclient: Margit (96)\nEr ist 93-jahre alt; wo 92-sai desu; unki umar 95 saal hai",
            &["102", "96", "93", "92", "95"],
        );
        hides(
            "Case number: 4471-220918\nPCC case 12-9627611\nFallnummer 2024-00817",
            &["4471-220918", "12-9627611", "2024-00817"],
        );
        hides(
            "seinengappi wa 1961-nen 8-gatsu 14-nichi desu",
            &["1961-nen 8-gatsu 14-nichi"],
        );
        hides(
            "DR: medical record number 8 7 4 5 1 9 1, and my social is 2 1 9 0 9 4 4 3 3.\nMijn patiëntnummer is 996-19406.",
            &["8 7 4 5 1 9 1", "2 1 9 0 9 4 4 3 3", "996-19406"],
        );
        hides(
            "Home: 727 Mariner's Row, Keene\n4410 KALANIANAʻOLE HWY\nmeet at 264 cobblestone mews 7pm",
            &[
                "727 Mariner's Row",
                "4410 KALANIANAʻOLE HWY",
                "264 cobblestone mews",
            ],
        );
        hides(
            "Mom turned 97 yesterday and her sister celebrates her 101st birthday. Bibi ana miaka 93.\nDie 94-jährige Patientin liegt in Zimmer 12, Bett 2; la paciente está en la habitación 305.\nHome: 12 Elm St, Truth or Consequences, NM 87901",
            &[
                "97",
                "101",
                "93",
                "94",
                "12",
                "2",
                "305",
                "Truth or Consequences",
            ],
        );
        clean("Turn the wheel until it turns 90 degrees.");
        hides(
            "Indirizzo: Via Garibaldi 12, 00184 Roma. Vivo en Calle Mayor 5, Madrid. Adresim: Atatürk Cad. No: 12/3 Kadıköy. Jeg bor på Nørregade 14, 1165 København.",
            &[
                "Via Garibaldi 12",
                "Calle Mayor 5",
                "Atatürk Cad. No: 12/3",
                "Nørregade 14",
            ],
        );
        // Dutch, Danish, Turkish and Swahili months.
        hides(
            "geboren op 14 augustus 1961; født 3. marts 1950; doğum tarihi 9 Ağustos 1948; alizaliwa 5 Septemba 1977",
            &[
                "14 augustus 1961",
                "3. marts 1950",
                "9 Ağustos 1948",
                "5 Septemba 1977",
            ],
        );
        // Scores, doses and a count of days are no ages, towns or records.
        clean("Scores were 85, 92, of which the last is best.");
        clean("sober 100 days in a row, took 2 x 500 mg");
    }

    /// None of `values` is inside a redacted span of `text`.
    fn keeps(text: &str, values: &[&str]) {
        let found = spans(text);
        for v in values {
            assert!(
                !found.iter().any(|(_, s)| s.contains(v)),
                "{v:?} redacted in {text:?}: {found:?}"
            );
        }
    }

    #[test]
    fn builds_registries_wards_and_mailer_daemons_stay() {
        keeps("Environment: build 4.5.21, Chrome 131", &["4.5.21"]);
        keeps(
            "Examiner: Dana Roe, National Registry no. 1713641670",
            &["1713641670"],
        );
        keeps(
            "Pinecrest Behavioral Hospital — Unit 2 West census 06:40",
            &["Unit 2"],
        );
        keeps(
            "From: Mail Delivery Subsystem <mailer-daemon@harborlight.example>",
            &["mailer-daemon"],
        );
        keeps(
            "Bluewater Messenger · session 121221361 · confirmation PAY-84609586",
            &["121221361", "84609586"],
        );
        keeps(
            "Adresim: 7732 Tidewater Pkwy. Teşekkürler.",
            &["Teşekkürler"],
        );
        keeps(
            "MedWatch 3500A, mfr report 1852273-2026-07990; then 2 x 500 mg",
            &["1852273", "x 500"],
        );
    }

    #[test]
    fn machine_ids_in_calendars_and_links_stay() {
        // An event's or a message's id has an address's shape, nobody's mailbox.
        clean("BEGIN:VEVENT\nUID:7QK2M9XR4TBW8PLA@northfieldclinic.org\nEND:VEVENT");
        clean("Message-ID: <CAH4x9T2bQ@mail.example.net>\nSubject: refill");
        hides(
            "UID:7QK2M9XR4TBW8PLA@x.org\nATTENDEE:mailto:rosa.lind@gmail.com",
            &["rosa.lind@gmail.com"],
        );
        // A meeting link's id is the meeting's, however long.
        clean(
            "Join: https://teams.microsoft.com/l/meetup-join/19%3ameeting_7QK2M9XR4TBW8PLA2N6D5CZE%40thread.v2/0",
        );
    }

    #[test]
    fn a_bare_npi_is_no_phone() {
        // Ten digits that pass the NPI check and cannot be a North American number (area
        // code or exchange opening with 0 or 1): a prescriber's NPI, as a FHIR identifier
        // or an OCR'd "NPl" writes it.
        clean(r#"{"requester": {"identifier": {"value": "1234567893"}}}"#);
        clean("Prescriber NPl 1234567893, urgent");
        // A street typed in lower case in a chat, its type a less common one.
        hides(
            "meeting moved to 6865 mariner's row 7pm",
            &["6865 mariner's row"],
        );
        hides(
            "we moved, 412 willow crescent now",
            &["412 willow crescent"],
        );
        clean("she walked 100 laps in a row today");
        // A record label qualified by where the record is kept, before its colon.
        hides("Record no. at site: 482-55107", &["482-55107"]);
        hides("MRN (legacy): 55-2210943", &["55-2210943"]);
        // An appointment's number, as a log's key or a label writes it.
        clean("reminder failed {'appt_id': 6488993}");
        clean("level=warn appt_id=6488993 msg=retry");
        clean("Appointment #4471236 moved to the afternoon.");
        hides(
            "call me 2125550143 or 7135550110",
            &["2125550143", "7135550110"],
        );
    }

    #[test]
    fn national_shapes_of_phones_ids_and_dates() {
        // A mobile dialled at home, its trunk 0 first (Manila, Lahore, Manchester, London).
        hides(
            "pls text me at 0918 224 5190 or my kuya 0321-5566120",
            &["0918 224 5190", "0321-5566120"],
        );
        hides(
            "ring me on 0161 496 0732, or 020 7946 0311 at work",
            &["0161 496 0732", "020 7946 0311"],
        );
        // A Malaysian identity card: the birth date, a place code, four digits.
        hides(
            "Nombor kad pengenalan 650304-14-5521 ya",
            &["650304-14-5521"],
        );
        // A camera's date, and a fax's date read with an O for a 0 and an l for a 1.
        hides("CreateDate : 2024:03:09 11:02:44", &["2024:03:09"]);
        hides("Sent O4/l7/2O25 10:12 from the clinic", &["O4/l7/2O25"]);
        clean("Ratio l0/O1 measured");
        // Catalan and Malay months; a street in lower case after "al", "in", "en".
        hides(
            "Va néixer el 19 de juliol de 1948 i viu al carrer d'Aragó 211.",
            &["19 de juliol de 1948", "carrer d'Aragó 211"],
        );
        hides("Abito in via Garibaldi 14, scala B.", &["via Garibaldi 14"]);
        hides("saya lahir 3 Disember 1961 di Ipoh", &["3 Disember 1961"]);
    }

    #[test]
    fn things_numbered_like_people_are_left() {
        // A carrier's tracking number is the parcel's.
        clean("Shipped FedEx 771245098312 on Monday");
        clean("UPS 1Z4RX8930361234575 left at the desk");
        // A measurement's and a software version's numbers are no date.
        clean("Focal Length : 4.7-18.8mm f/2.0");
        clean(r#"{"event":"sync","app":"5.2.11"}"#);
        // A duration in seconds is no age, a decade is.
        clean("answered +94s after the call");
        hides("Mum is in her 90s and lives alone", &["90s"]);
        // A day closing a header line and a month opening the next are no date.
        clean("Week 3 — Day 12\nJanuary plan");
        // A code word inside a surname says nothing of the number after it.
        hides(
            "Name: Aoife NicDhonncha\nRef: A774-215-903",
            &["A774-215-903"],
        );
    }

    #[test]
    fn national_numbers_coordinates_and_misread_digits() {
        // Phones with the trunk 0 as East Africa, France, Italy and Spain group them.
        hides(
            "Nipigie 0722 410 385 au 0784-220-917 jioni",
            &["0722 410 385", "0784-220-917"],
        );
        hides(
            "Rappelez au 07 41 22 90 18 ou au 02 8841 2270",
            &["07 41 22 90 18", "02 8841 2270"],
        );
        hides("Mi móvil es 655 201 994, gracias", &["655 201 994"]);
        // National numbers: a check digit after a dash, Aadhaar's fours, a SIN by its label.
        hides(
            "CNIC 61101-4471203-5 aur SSS 02-7719302-4",
            &["61101-4471203-5", "02-7719302-4"],
        );
        hides("Aadhaar: 5521 9034 7718.", &["5521 9034 7718"]);
        hides("SIN 527 118 340 on file", &["527 118 340"]);
        // Coordinates in a photo's metadata, in JSON and as a bare pair.
        hides(
            "GPS Position : 41 deg 52' 55.20\" N, 87 deg 37' 40.10\" W",
            &["41 deg 52' 55.20\" N", "87 deg 37' 40.10\" W"],
        );
        hides(
            r#"{"lat": 41.88201, "lng": -87.62781}"#,
            &["41.88201", "-87.62781"],
        );
        clean("GPS Altitude : 181.4 m\nratio 0.45678, 0.12345");
        // A scanned form's S for a 5 and B for an 8 next to the label; an unlabelled phone.
        hides("S S N : 4B1-2S-7730", &["4B1-2S-7730"]);
        hides("callback (3l2) 555-O188 after 4", &["(3l2) 555-O188"]);
        // Dates in Czech, Romanian, Finnish, Indonesian and Ukrainian.
        hides(
            "nar. 7. května 1944; născută la 9 octombrie 1951; 2. joulukuuta 1938; 8 Agustus 1972; 5 березня 1950",
            &[
                "7. května 1944",
                "9 octombrie 1951",
                "2. joulukuuta 1938",
                "8 Agustus 1972",
                "5 березня 1950",
            ],
        );
    }

    #[test]
    fn round_ten_shapes() {
        // HL7: a name, a phone's area and local number, a room and its bed are one span each.
        hides(
            "PID|1||4410023^^^MHC^MR||DELACROIX^ODILE^M^III||19280304|F|||||^PRN^CP^^1^207^5550143\rPV1|1|I|3N^221^A",
            &["DELACROIX^ODILE^M^III", "207^5550143", "221^A"],
        );
        // Nor is a suffix learned as a name: "III" elsewhere stays.
        let r = Redactor::new(&RedactorConfig::default()).unwrap();
        let mut session = crate::governance::redact::RedactionSession::default();
        let text = "PID|1||4410023^^^MHC^MR||DELACROIX^ODILE^M^III||19280304|F\rNTE|1||Stage III, see DELACROIX";
        let out = r.redact(text, &mut session).unwrap();
        assert!(out.contains("Stage III"), "{out}");
        assert!(!out.contains("DELACROIX"), "{out}");
        // Order and document numbers, a payer's box and a relationship code are no patient's.
        clean("OBR|1|ORD551208|77310042|2345-7^GLUCOSE^LN");
        let spans = spans("IN1|1|PLN9|INS7|SUMMIT MUTUAL|PO BOX 4410^^DENTON^TX^76201||||||||||");
        assert!(spans.is_empty(), "{spans:?}");
        // Ages over 89: a relative's, at an event, in Creole, Somali, Greek in Latin letters,
        // and said in words after a contraction.
        hides("Dad is 94 now and can't drive.", &["94"]);
        hides("Age at onset: 91", &["91"]);
        hides("granmoun nan gen 97 an", &["97"]);
        hides("awoowahay waa 95 sano", &["95"]);
        hides("o pappous mou einai 92 xronon", &["92"]);
        hides(
            "hi its about my aunt shes ninety-four and dizzy",
            &["ninety-four"],
        );
        clean("Dad is 95 kg");
        hides(
            "my grandmother is ninety seven and lives alone",
            &["ninety seven"],
        );
        // Record numbers: an EHR label, glued to the label, a Greek file number.
        hides("pt lorna ehr# 41-552-7730 cxl", &["41-552-7730"]);
        hides(
            "Subject: MRI read KOWALCZYK MRN4471920 dob pending",
            &["MRN4471920"],
        );
        hides("Arithmos fakelou 61-204-5518", &["61-204-5518"]);
        // A date glued into a file name day first.
        hides("scan.DOE.JANE.27031948.tif", &["27031948"]);
        // A street of a type no list knows, before its city, state and ZIP; one said aloud.
        hides(
            "Mail to 3317 Juniper Coulee Lot 9, Grand Forks, ND 58201.",
            &["3317 Juniper Coulee Lot 9"],
        );
        hides(
            "were at four four one two willow creek ln please call",
            &["four four one two willow creek ln"],
        );
        hides(
            "we're at six zero two juniper coulee please call back",
            &["six zero two juniper coulee"],
        );
        // Not addresses: a route number on the line under another number, a specimen's lot;
        // nor a terminology's code.
        clean("Manifest 07\nRoute 10");
        clean("Cooler seal  Lot 5521K");
        clean("Term: nausea  MedDRA PT 10028813");
        clean("COURIER MANIFEST K-4410-12, query Q-20391 open");
    }

    #[test]
    fn a_licence_printed_in_groups_of_three_digits_is_hidden() {
        hides("Driver's license #: 70 657 925 (PA)", &["70 657 925"]);
        hides("my licence number is 22 423 102. thanks", &["22 423 102"]);
        hides(
            "DMV form completed for licence 39 187 557: VA 20/25",
            &["39 187 557"],
        );
        // Groups of three without the word are no licence.
        clean("Rx 12 345 678 units dispensed");
    }

    #[test]
    fn ages_over_89_in_yoruba_korean_and_a_hesitant_caller() {
        hides("Ó ti di ọmọ ọdún 92. Ìpàdé rẹ̀ ni", &["92"]);
        hides("abeonim-eun 96-seisimnida.", &["96-se"]);
        hides("abeonim-eun 96-se isimnida.", &["96-se"]);
        hides(
            "calling for my dad he's uh ninety eight now and",
            &["ninety eight"],
        );
        hides("my mom she's um one hundred one now", &["one hundred one"]);
        // Under 90 stays.
        assert!(
            !spans("abeonim-eun 76-se isimnida.")
                .iter()
                .any(|(k, _)| *k == Kind::Age)
        );
        clean("a 90-second video of the gait");
    }

    #[test]
    fn a_european_town_after_its_postcode_keeps_its_lower_case_joint() {
        hides(
            "wohnhaft Lindenstraße 35, 79098 Freiburg im Breisgau, zur Mitbeurteilung",
            &["Freiburg im Breisgau", "79098"],
        );
        hides(
            "Kirchweg 2, 60311 Frankfurt am Main.",
            &["Frankfurt am Main"],
        );
    }

    #[test]
    fn a_room_in_a_file_names_underscored_fields_is_hidden() {
        hides("wound_photo_ada_obi_rm294_05242026.HEIC", &["294"]);
        // A phone's next group after a blank still says the number is no room.
        assert!(!spans("cell 555 2013").iter().any(|(k, _)| *k == Kind::Room));
    }

    #[test]
    fn a_german_number_after_its_label_is_a_phone() {
        hides(
            "Versichertennummer: A659777930   Tel.: 0550 4505440\n",
            &["0550 4505440"],
        );
        hides("Telefon 030/1234567 (ab 9 Uhr)", &["030/1234567"]);
        // Without a phone's label the digits are no phone.
        assert!(
            !spans("Charge 0550 4505440 applied")
                .iter()
                .any(|(k, _)| *k == Kind::Phone)
        );
    }

    #[test]
    fn a_caller_says_a_street_number_as_a_cardinal_and_spells_d_o_b() {
        hides(
            "we're at thirty seven tannery street so you can call me back",
            &["thirty seven tannery street"],
        );
        hides(
            "we're at eight old mill street so call",
            &["eight old mill street"],
        );
        hides(
            "about my bill d o b seven nine fifty seven we're at",
            &["seven nine fifty seven"],
        );
        // A time is no street: the cardinal needs a street's type word.
        clean("i'm at five o'clock so call after");
    }

    /// One default redactor for the tests below (building one compiles every rule).
    fn shared() -> &'static Redactor {
        static R: std::sync::OnceLock<Redactor> = std::sync::OnceLock::new();
        R.get_or_init(|| Redactor::new(&RedactorConfig::default()).unwrap())
    }

    fn kinds_of(text: &str, kind: Kind) -> Vec<String> {
        shared()
            .find(text)
            .unwrap()
            .into_iter()
            .filter(|s| s.kind == kind)
            .map(|s| text[s.start..s.end].to_string())
            .collect()
    }

    /// Every one of `values` lies inside a span of the shared redactor.
    fn hidden(text: &str, values: &[&str]) {
        let found = shared().find(text).unwrap();
        for v in values {
            let at = text.find(v).unwrap();
            assert!(
                found.iter().any(|s| s.start <= at && at + v.len() <= s.end),
                "{v:?} not hidden in {text:?}: {found:?}"
            );
        }
    }

    #[test]
    fn a_patient_placed_in_a_room_by_a_chat_line_is_hidden() {
        hidden(
            "[3/2/25] Tomasz: anyone free 9 May? Marigold Page in 257-1 needs a 1:1 sitter",
            &["257-1"],
        );
        hidden("Mr. Castillo in 24 waiting for transport", &["24"]);
        hidden(
            "[7:30 am] Joaquín: mrs s in 3C is asking for a blanket lol",
            &["3C"],
        );
        hidden(
            "[8:45] Marisol: whoever has 287-1: that's ms. Fields",
            &["287-1"],
        );
        // A time or a count after "in" is no room.
        for text in [
            "Recheck in 2 weeks.",
            "Results in 3 days, call if worse.",
            "Dr. Lee in 2 hours",
            "who has 2 kids, asked",
        ] {
            assert_eq!(kinds_of(text, Kind::Room), Vec::<String>::new(), "{text:?}");
        }
    }

    #[test]
    fn a_paired_labels_second_value_and_a_room_said_in_words_are_hidden() {
        hidden(
            "Grade: 3   Teacher/Room: Mr. Olsen / 180\nMedication:",
            &["180"],
        );
        hidden(
            "rusty is in the hospital since june ten, room seven hundred twelve, and they want",
            &["seven hundred twelve", "june ten"],
        );
        hidden("she's in bed four oh eight now", &["four oh eight"]);
    }

    #[test]
    fn dates_without_a_year_in_chats_calls_and_moves() {
        hidden(
            "pls call back Miles re 19th of September, he said",
            &["19th of September"],
        );
        hidden("I was told the 1/15 visit was covered", &["1/15"]);
        hidden("first draft 8/14 from the card ending in 2124", &["8/14"]);
        hidden("Plan: recheck 6/20; device check", &["6/20"]);
        hidden("double booked 6/4 — two patients", &["6/4"]);
        hidden("can you swap my 9/28 evening?", &["9/28"]);
        hidden(
            "Proszę przełożyć wizytę z 12.10.2025 na 27.08? Dziękuję",
            &["27.08"],
        );
        hidden("moved from 3/4/2025 to 3/9 at her request", &["3/9"]);
        hidden(
            "i got a bill for september twenty five that",
            &["september twenty five"],
        );
        // Fractions, scores, doses and a modal verb stay.
        for text in [
            "take 1/2 tab twice daily",
            "strength 4/5 in the left leg",
            "pain 3/10 today",
            "the 1/2 strength saline",
            "we may two of us come",
        ] {
            assert_eq!(kinds_of(text, Kind::Date), Vec::<String>::new(), "{text:?}");
        }
    }

    #[test]
    fn a_record_label_with_small_words_before_its_colon_is_read() {
        hidden("Salamat po.\nMRN niya po: 10147290\n", &["10147290"]);
        hidden("MRN ko: CR886266", &["CR886266"]);
    }

    #[test]
    fn a_plate_after_a_cars_colour_and_model_and_a_licence_after_its_state() {
        hidden(
            "son picking him up (silver civic 658LZE), cell",
            &["658LZE"],
        );
        hidden(
            "son picking him up (silver civic MZH 073), cell",
            &["MZH 073"],
        );
        hidden("Driver's licence WA WDLKSADYQPJK\n", &["WDLKSADYQPJK"]);
        hidden("Driver's licence WA WDL8VMHRXRJB\n", &["WDL8VMHRXRJB"]);
        // A model year, a car without a plate and a licence's status stay.
        assert!(kinds_of("drives a silver honda 2019.", Kind::Vehicle).is_empty());
        assert!(kinds_of("Driver's license WA SUSPENDED", Kind::License).is_empty());
    }

    #[test]
    fn short_codes_and_public_guidance_pages_are_no_ones() {
        assert!(
            kinds_of(
                "X-ray negative. Plan: ICD-10 E11.9, PT twice weekly.",
                Kind::HealthPlan
            )
            .is_empty()
        );
        assert!(kinds_of("Ordering: Dr. Solberg   Acct: CRFH-01\n", Kind::Account).is_empty());
        for url in [
            "https://www.cdc.gov/flu/prevent/index.html",
            "https://medlineplus.gov/ency/article/000077.htm",
            "https://www.heart.org/en/health-topics/atrial-fibrillation",
        ] {
            let text = format!("To appeal see {url}\n");
            assert!(kinds_of(&text, Kind::Url).is_empty(), "{text:?}");
        }
        // A personal link keeps its token, a name or a number: still hidden.
        hidden(
            "photos: https://photos.app.goo.gl/Xk29QpL7mWz4 and",
            &["https://photos.app.goo.gl/Xk29QpL7mWz4"],
        );
        hidden(
            "see https://www.caringbridge.org/visit/marigold-page",
            &["https://www.caringbridge.org/visit/marigold-page"],
        );
        hidden("acct 4471-2290 is overdue", &["4471-2290"]);
    }

    #[test]
    fn an_hl7_schedules_place_and_a_shifted_licence_or_ssn_are_read_by_their_shape() {
        let siu = "AIL|1||EXAM^359^^Cedar Ridge Hospice\r";
        assert_eq!(kinds_of(siu, Kind::Room), vec!["359".to_string()]);
        // The practice's site and exam room in the same field are no one's bed.
        let site = "AIL|1||QH^Quarry Hill Clinic^EXAM 6\r";
        assert!(kinds_of(site, Kind::Room).is_empty());
        let pid =
            "PID|1||4471^^^CRFH^MR||DOE^ANA||||||||||||||0601642632|136-59-4787|WDLMRQXNDAJH^WA\r";
        assert!(kinds_of(pid, Kind::Ssn).contains(&"136-59-4787".to_string()));
        assert!(kinds_of(pid, Kind::License).contains(&"WDLMRQXNDAJH".to_string()));
    }
}
