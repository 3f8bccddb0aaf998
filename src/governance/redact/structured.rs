//! Structured snippets read by their structure rather than by shapes: HL7 v2 segments
//! (`PID|1||00482913^^^LKS^MR||OKAFOR^MARGARET^A||19580314|F|…`). A field's position says what
//! it holds, so a bare 9-digit PID-19 is an SSN and `YYYYMMDD` in PID-7 a date of birth with
//! no label in sight. (FHIR-ish JSON and key-value snippets are plain regex rules in
//! `rules.rs`: their keys are labels.)

use super::{Kind, Span};

/// Rank of structural findings: above every shape rule (the position is certain). Shared by
/// every reader of a format's structure (HL7 here, X12, C-CDA, vCard/iCalendar).
pub(super) const PRIO: u8 = 87;

/// What a field (or a component of it) holds.
#[derive(Clone, Copy)]
enum Field {
    /// Extended person name (XPN/XCN): family, given, middle components are names.
    Name,
    /// XCN (a provider: id^family^given…): components 2–4 are names.
    Provider,
    /// Extended identifiers (CX): component 1 is an identifier; the type code (component 5)
    /// says which kind ("SS" → SSN, "MR"/"PI"/… → MRN).
    Ids(Kind),
    /// A date (first 8 digits of a timestamp).
    Date,
    /// Extended address (XAD): street, other designation, city, ZIP (not the state).
    Address,
    /// Telecom (XTN): the number (component 1), area+local (6, 7), email (4).
    Phone,
    /// The whole field is an identifier of this kind.
    Whole(Kind),
    /// A person location (PL: PV1-3, PV1-6, PV1-11): room (component 2) and bed (component 3).
    Location,
    /// A scheduled resource's location (AIL-3): a room and a bed only where they are numbered
    /// as rooms are; senders also put the site's name and its "EXAM 6" there (the practice's
    /// exam rooms, no one's bed).
    ResourceLocation,
}

/// (segment, field number, what it holds). Field numbers as in the HL7 v2 tables
/// (MSH is not read: it names systems, not people).
const FIELDS: &[(&str, usize, Field)] = &[
    ("PID", 2, Field::Ids(Kind::Mrn)),
    ("PID", 3, Field::Ids(Kind::Mrn)),
    ("PID", 4, Field::Ids(Kind::Mrn)),
    ("PID", 5, Field::Name),
    ("PID", 6, Field::Name),
    ("PID", 7, Field::Date),
    ("PID", 9, Field::Name),
    ("PID", 11, Field::Address),
    ("PID", 13, Field::Phone),
    ("PID", 14, Field::Phone),
    ("PID", 18, Field::Ids(Kind::Account)),
    ("PID", 19, Field::Whole(Kind::Ssn)),
    ("PID", 20, Field::Ids(Kind::License)),
    ("PID", 21, Field::Ids(Kind::Mrn)),
    ("PID", 29, Field::Date),
    ("NK1", 2, Field::Name),
    ("NK1", 4, Field::Address),
    ("NK1", 5, Field::Phone),
    ("NK1", 6, Field::Phone),
    ("NK1", 16, Field::Date),
    ("NK1", 33, Field::Ids(Kind::Mrn)),
    ("NK1", 37, Field::Whole(Kind::Ssn)),
    ("PV1", 3, Field::Location),
    // The prior and the temporary location: a room and a bed as PV1-3's.
    ("PV1", 6, Field::Location),
    ("PV1", 11, Field::Location),
    ("PV1", 7, Field::Provider),
    ("PV1", 8, Field::Provider),
    ("PV1", 9, Field::Provider),
    ("PV1", 17, Field::Provider),
    ("PV1", 19, Field::Ids(Kind::Account)),
    ("PV1", 44, Field::Date),
    ("PV1", 45, Field::Date),
    ("GT1", 3, Field::Name),
    ("GT1", 5, Field::Address),
    ("GT1", 6, Field::Phone),
    ("GT1", 7, Field::Phone),
    ("GT1", 8, Field::Date),
    ("GT1", 12, Field::Whole(Kind::Ssn)),
    ("IN1", 16, Field::Name),
    ("IN1", 18, Field::Date),
    ("IN1", 19, Field::Address),
    ("IN1", 36, Field::Whole(Kind::HealthPlan)),
    ("IN1", 49, Field::Ids(Kind::HealthPlan)),
    ("IN2", 2, Field::Whole(Kind::Ssn)),
    ("MRG", 1, Field::Ids(Kind::Mrn)),
    ("MRG", 7, Field::Name),
    ("ORC", 12, Field::Provider),
    ("OBR", 16, Field::Provider),
    ("OBR", 32, Field::Provider),
    ("OBX", 16, Field::Provider),
    ("TXA", 9, Field::Provider),
    ("TXA", 22, Field::Provider),
    // A scheduled visit's staff (SIU): personnel id^family^given.
    ("AIP", 3, Field::Provider),
    // A scheduled visit's place (SIU): point of care^room^bed^facility, as PV1-3.
    ("AIL", 3, Field::ResourceLocation),
];

/// Adds the identifiers of every HL7 v2 segment line in `text` to `cands`.
pub(super) fn hl7(text: &str, cands: &mut Vec<(Span, u8)>) {
    // Segments end at \r (the standard) or \n (pasted into mail).
    let mut off = 0;
    for line in text.split_inclusive(['\r', '\n']) {
        let body = line.trim_end_matches(['\r', '\n']);
        // A segment may also start inside a line: a preview folds the feed's line breaks
        // into blanks, and mail may quote a segment after other text. Each runs to the next
        // segment's start.
        let starts = segment_starts(body);
        for (k, &at) in starts.iter().enumerate() {
            let end = starts.get(k + 1).copied().unwrap_or(body.len());
            segment(body[at..end].trim_end(), off + at, cands);
        }
        off += line.len();
    }
}

/// Where segments start in `line`: at its start, or after a blank or a quote mark, as three
/// capitals or digits (a capital first) and a `|`.
fn segment_starts(line: &str) -> Vec<usize> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    for (i, _) in line.match_indices('|') {
        if i < 3 {
            continue;
        }
        let at = i - 3;
        let id = &b[at..i];
        let head = id[0].is_ascii_uppercase()
            && id
                .iter()
                .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
        // Also after an escaped line break (`\rPID|` in JSON text).
        let fresh = at == 0
            || matches!(b[at - 1], b' ' | b'\t' | b'"' | b'\'' | b'>')
            || (at >= 2 && matches!(b[at - 1], b'r' | b'n') && b[at - 2] == b'\\');
        if head && fresh {
            out.push(at);
        }
    }
    out
}

/// Fields whose whole value is no patient's: order and filler numbers (`OBR|1|ORD708873|
/// 14726603|…`), a document's and an appointment's ids, the payer's name and mailing
/// address in IN1 (not its ids: senders put the member id there), and relationship codes
/// (`SEL`, `SON^Son`). (Order, document and appointment numbers are no identifiers anywhere
/// in this redactor.)
const NOT_PERSONAL: &[(&str, usize)] = &[
    ("ORC", 2),
    ("ORC", 3),
    ("OBR", 2),
    ("OBR", 3),
    ("TXA", 12),
    ("SCH", 1),
    ("SCH", 2),
    ("IN1", 4),
    ("IN1", 5),
    ("IN1", 17),
    ("NK1", 3),
    ("GT1", 11),
];

/// Drops the candidates that HL7 structure says are no patient's: any name inside an MSH
/// segment (it names sending systems and facilities, `SIU^S12` is a message type), any
/// shape found in a provider field's id component (`PV1|…|4417820^BRANDT^ANNELIESE`: the
/// attending's staff number, not a record number; the provider's name stays a name), and
/// the shapes found in a field of [`NOT_PERSONAL`] (not a phone, fax, email, SSN, card or
/// date: see [`SPARED`]).
pub(super) fn drop_non_personal(text: &str, cands: &mut Vec<(Span, u8)>) {
    let mut msh: Vec<(usize, usize)> = Vec::new();
    let mut ids: Vec<(usize, usize)> = Vec::new();
    let mut zones: Vec<(usize, usize)> = Vec::new();
    let mut off = 0;
    for line in text.split_inclusive(['\r', '\n']) {
        let body = line.trim_end_matches(['\r', '\n']);
        let starts = segment_starts(body);
        for (k, &at) in starts.iter().enumerate() {
            let end = starts.get(k + 1).copied().unwrap_or(body.len());
            let seg = &body[at..end];
            let name = &seg[..3];
            if name == "MSH" {
                msh.push((off + at, off + end));
                continue;
            }
            let mut pos = at + 4;
            for (i, field) in seg.get(4..).unwrap_or("").split('|').enumerate() {
                let provider = FIELDS.iter().any(|(s, f, what)| {
                    *s == name && *f == i + 1 && matches!(what, Field::Provider)
                });
                if NOT_PERSONAL.contains(&(name, i + 1)) && !field.is_empty() {
                    zones.push((off + pos, off + pos + field.len()));
                }
                if provider {
                    let mut rep = pos;
                    for r in field.split('~') {
                        let id = r.split('^').next().unwrap_or("");
                        if !id.is_empty() {
                            ids.push((off + rep, off + rep + id.len()));
                        }
                        rep += r.len() + 1;
                    }
                }
                pos += field.len() + 1;
            }
        }
        off += line.len();
    }
    // Nor a date: a sender who shifts a field by one puts the insured's birth date where
    // the relationship code belongs.
    drop_inside(
        zones,
        cands,
        &[
            Kind::Phone,
            Kind::Fax,
            Kind::Email,
            Kind::Ssn,
            Kind::Card,
            Kind::Date,
        ],
    );
    if msh.is_empty() && ids.is_empty() {
        return;
    }
    let inside =
        |rs: &[(usize, usize)], s: &Span| rs.iter().any(|&(a, b)| a <= s.start && s.end <= b);
    cands.retain(|(s, prio)| {
        !((s.kind == Kind::Person && inside(&msh, s)) || (*prio < PRIO && inside(&ids, s)))
    });
}

fn segment(line: &str, off: usize, cands: &mut Vec<(Span, u8)>) {
    let b = line.as_bytes();
    if b.len() < 5
        || b[3] != b'|'
        || !b[..3]
            .iter()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
        || !b[0].is_ascii_uppercase()
    {
        return;
    }
    let seg = &line[..3];
    if !FIELDS.iter().any(|(s, _, _)| *s == seg) {
        return;
    }
    let mut pos = 4;
    for (i, field) in line[4..].split('|').enumerate() {
        let n = i + 1;
        for (_, _, what) in FIELDS.iter().filter(|(s, f, _)| *s == seg && *f == n) {
            let mut rep_pos = pos;
            for rep in field.split('~') {
                read(rep, off + rep_pos, *what, cands);
                rep_pos += rep.len() + 1;
            }
        }
        pos += field.len() + 1;
    }
}

fn push(cands: &mut Vec<(Span, u8)>, kind: Kind, start: usize, v: &str) {
    // Subcomponents (&) and surrounding blanks are not part of the value.
    let t = v.trim();
    if t.is_empty() || t == "\"\"" {
        return;
    }
    let lead = v.len() - v.trim_start().len();
    cands.push((
        Span {
            kind,
            start: start + lead,
            end: start + lead + t.len(),
        },
        PRIO,
    ));
}

/// One span of `kind` from the first to the last of the components `range` of `c` that
/// `holds` (the components between them included, empty or not).
fn push_run(
    cands: &mut Vec<(Span, u8)>,
    kind: Kind,
    c: &[(usize, &str)],
    range: std::ops::Range<usize>,
    holds: impl Fn(&str) -> bool,
) {
    let part = c.get(range.start..range.end.min(c.len())).unwrap_or(&[]);
    let first = part.iter().find(|(_, s)| holds(s));
    let last = part.iter().rev().find(|(_, s)| holds(s));
    if let (Some(&(a, sa)), Some(&(b, sb))) = (first, last) {
        let lead = sa.len() - sa.trim_start().len();
        let end = b + sb.trim_end().len();
        if a + lead < end {
            cands.push((
                Span {
                    kind,
                    start: a + lead,
                    end,
                },
                PRIO,
            ));
        }
    }
}

/// Whether a field holds a relationship code of HL7 table 0063 (`SEL`, `SPO^Spouse`) rather
/// than a name: a sender who shifts a field by one puts the insured's relationship where the
/// insured's name belongs (IN1-16), and a code is no one's name.
fn relationship_code(c: &[(usize, &str)]) -> bool {
    const CODES: &[&str] = &[
        "ASC", "BRO", "CGV", "CHD", "DEP", "DOM", "EMC", "EME", "EMR", "EXF", "FCH", "FND", "FTH",
        "GCH", "GRD", "GRP", "MGR", "MTH", "NCH", "NON", "OAD", "OTH", "OWN", "PAR", "SCH", "SEL",
        "SIB", "SIS", "SPO", "TRA", "UNK", "WRD",
    ];
    c.len() <= 3
        && c.first().is_some_and(|(_, s)| CODES.contains(s))
        && c[1..]
            .iter()
            .all(|(_, s)| s.chars().all(|ch| ch.is_alphabetic() || ch == ' '))
}

/// Whether a value is written as an SSN is, 3-2-4 digits with dashes: no other identifier of a
/// PID takes that form, whichever field a sender put it in.
fn ssn_shape(s: &str) -> bool {
    let b = s.as_bytes();
    b.len() == 11
        && b.iter().enumerate().all(|(i, c)| {
            if i == 3 || i == 6 {
                *c == b'-'
            } else {
                c.is_ascii_digit()
            }
        })
}

/// Components of a field with their byte offsets.
fn comps(v: &str, at: usize) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut p = at;
    for c in v.split('^') {
        out.push((p, c));
        p += c.len() + 1;
    }
    out
}

fn read(v: &str, at: usize, what: Field, cands: &mut Vec<(Span, u8)>) {
    let c = comps(v, at);
    let get = |i: usize| c.get(i).copied();
    match what {
        // A name is one span, the whole field (`OKONJO^BAO^W^JR`, `JEANNOT^TALLULAH^^`): the
        // separators between its parts are part of the name as written, and a reader sees
        // one person, not three.
        Field::Name => {
            if c.iter()
                .take(3)
                .any(|(_, s)| s.chars().any(char::is_alphabetic))
                && !relationship_code(&c)
            {
                push(cands, Kind::Person, at, v);
            }
        }
        // A provider's name from the family name on (the id before it is a staff number).
        Field::Provider => {
            if let Some(&(p, _)) = c.get(1)
                && c.iter()
                    .skip(1)
                    .take(3)
                    .any(|(_, s)| s.chars().any(char::is_alphabetic))
            {
                push(cands, Kind::Person, p, &v[p - at..]);
            }
        }
        Field::Ids(default) => {
            if let Some((p, s)) = get(0) {
                let code = get(4).map(|(_, s)| s.trim()).unwrap_or("");
                // A driver's licence is number^issuing state (HL7's DLN); a CX's second
                // component is a check digit, never a state: a licence a sender shifted into
                // another identifier's field says what it is.
                let state = get(1).is_some_and(|(_, st)| {
                    st.len() == 2 && super::words::STATES.split('|').any(|x| x == st)
                });
                let kind = match code {
                    "SS" | "SSN" => Kind::Ssn,
                    "DL" => Kind::License,
                    "AN" | "VN" => Kind::Account,
                    "MR" | "PI" | "PT" | "MRN" | "MA" | "MC" | "PN" => Kind::Mrn,
                    _ if state => Kind::License,
                    _ if ssn_shape(s) => Kind::Ssn,
                    _ => default,
                };
                // A driver's licence may be letters only (Washington's "WDLMRQXNDAJH"): in
                // its own field a long run of capitals is one.
                let letters_licence = kind == Kind::License
                    && (8..=16).contains(&s.len())
                    && s.bytes().all(|b| b.is_ascii_uppercase());
                if s.chars().any(|c| c.is_ascii_digit()) || letters_licence {
                    push(cands, kind, p, s);
                }
            }
        }
        Field::Date => {
            if let Some((p, s)) = get(0) {
                let digits = s.bytes().take_while(u8::is_ascii_digit).count();
                if digits >= 8 {
                    push(cands, Kind::Date, p, &s[..8]);
                }
            }
        }
        Field::Address => {
            for i in [0, 1, 2, 4] {
                if let Some((p, s)) = get(i) {
                    let kind = if i == 4 { Kind::Zip } else { Kind::Address };
                    push(cands, kind, p, s);
                }
            }
        }
        Field::Phone => {
            // Area code and local number (`^PRN^CP^^1^478^5532427`) are one number.
            let area = get(5).is_some_and(|(_, s)| s.bytes().any(|b| b.is_ascii_digit()));
            let local = get(6).is_some_and(|(_, s)| s.bytes().any(|b| b.is_ascii_digit()));
            if area && local {
                push_run(cands, Kind::Phone, &c, 5..7, |s| {
                    s.bytes().any(|b| b.is_ascii_digit())
                });
            }
            for i in [0, 3, 5, 6] {
                if area && local && i >= 5 {
                    continue;
                }
                if let Some((p, s)) = get(i) {
                    let kind = if i == 3 { Kind::Email } else { Kind::Phone };
                    if s.chars().any(|c| c.is_ascii_digit()) || (i == 3 && s.contains('@')) {
                        push(cands, kind, p, s);
                    }
                }
            }
        }
        Field::Whole(kind) => {
            if let Some((p, s)) = get(0)
                && s.chars().any(|c| c.is_ascii_digit())
            {
                push(cands, kind, p, s);
            }
        }
        // Room and bed are one place (`4W^459^B`: the bed letter alone says nothing).
        Field::Location => push_run(cands, Kind::Room, &c, 1..3, |s| !s.trim().is_empty()),
        Field::ResourceLocation => push_run(cands, Kind::Room, &c, 1..3, |s| {
            (1..=6).contains(&s.len())
                && s.bytes().any(|b| b.is_ascii_digit())
                && s.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        }),
    }
}

/// Kinds a structure reader never drops from what the shape rules found, whoever's block they
/// sit in: losing a provider's phone number or address costs the reader little, keeping a
/// patient's costs the patient much, and a standard's "whose" is only as good as the sender
/// who followed it. (X12 spares dates as well, and not phones: see `x12::edi`.)
pub(super) const SPARED: &[Kind] = &[Kind::Phone, Kind::Fax, Kind::Email, Kind::Ssn, Kind::Card];

/// Drops the candidates below the structural rank that lie wholly inside one of `zones` (what
/// a standard says stays), but none of a kind in `spared`. Zones are sorted and overlapping
/// ones merged, so each candidate is one binary search (a batch file has thousands of
/// segments and of candidates).
pub(super) fn drop_inside(
    mut zones: Vec<(usize, usize)>,
    cands: &mut Vec<(Span, u8)>,
    spared: &[Kind],
) {
    if zones.is_empty() {
        return;
    }
    zones.sort_unstable();
    let mut merged: Vec<(usize, usize)> = Vec::with_capacity(zones.len());
    for (a, b) in zones {
        match merged.last_mut() {
            Some(last) if a < last.1 => last.1 = last.1.max(b),
            _ => merged.push((a, b)),
        }
    }
    cands.retain(|(c, prio)| {
        if *prio >= PRIO || spared.contains(&c.kind) {
            return true;
        }
        let k = merged.partition_point(|&(a, _)| a <= c.start);
        !(k > 0 && c.end <= merged[k - 1].1)
    });
}
