//! vCards (RFC 6350 4.0, RFC 2426 3.0, and 2.1) and iCalendar invitations (RFC 5545) read by
//! their properties: a property's name says what its value holds, with no label in the text.
//! A card's FN, N (family, given, additional; not the prefix or suffix), NICKNAME, ADR (not the
//! region or the country), LABEL, TEL, EMAIL, BDAY, ANNIVERSARY, RELATED, URL, GEO are its
//! person's; ORG, TITLE, NOTE stay (the last for the other rules, as free text). An event's
//! ATTENDEE (its CN and its address) is a person; its DTSTART, DTEND, RDATE, EXDATE and
//! RECURRENCE-ID are the appointment's dates (the date part: times stay). The ORGANIZER (the
//! clinic's scheduler, its name stays), SUMMARY, DESCRIPTION, LOCATION and the stamps
//! (DTSTAMP: the day the visit was booked) are left to the other rules; a to-do's DUE (a
//! deadline) and a time zone's DTSTART (its rule's onset) stay. What the other rules read as a
//! phone or fax number, an email address, an SSN or a card stays redacted wherever it is.
//! Folded lines (a line break and one blank or tab) are unfolded first.

use super::structured::{PRIO, SPARED, drop_inside};
use super::{Kind, Span};

/// A logical (unfolded) line and where its pieces lie in the text.
struct Line {
    text: String,
    /// (offset in `text`, offset in the raw text, length) of each physical piece.
    map: Vec<(usize, usize, usize)>,
}

impl Line {
    /// Pushes the raw pieces of `text[a..b]` (trimmed) as candidates of `kind`.
    fn push(&self, cands: &mut Vec<(Span, u8)>, kind: Kind, a: usize, b: usize) {
        let v = &self.text[a..b];
        let a = a + (v.len() - v.trim_start().len());
        let b = a + v.trim().len();
        if a >= b {
            return;
        }
        for &(l, r, len) in &self.map {
            let (s, e) = (a.max(l), b.min(l + len));
            if s < e {
                cands.push((
                    Span {
                        kind,
                        start: r + (s - l),
                        end: r + (e - l),
                    },
                    PRIO,
                ));
            }
        }
    }
}

impl Line {
    /// The raw ranges of `text[a..b]`, for dropping what the shape rules found there.
    fn zone(&self, zones: &mut Vec<(usize, usize)>, a: usize, b: usize) {
        for &(l, r, len) in &self.map {
            let (s, e) = (a.max(l), b.min(l + len));
            if s < e {
                zones.push((r + (s - l), r + (e - l)));
            }
        }
    }
}

/// Unfolds `text` into logical lines (RFC 6350 3.2, RFC 5545 3.1).
fn unfold(text: &str) -> Vec<Line> {
    let mut out: Vec<Line> = Vec::new();
    let mut off = 0;
    for phys in text.split_inclusive('\n') {
        let body = phys.trim_end_matches(['\n', '\r']);
        let folded = body.starts_with([' ', '\t']);
        match out.last_mut() {
            Some(line) if folded => {
                let piece = &body[1..];
                line.map.push((line.text.len(), off + 1, piece.len()));
                line.text.push_str(piece);
            }
            _ => out.push(Line {
                text: body.to_string(),
                map: vec![(0, off, body.len())],
            }),
        }
        off += phys.len();
    }
    out
}

/// A content line: `[group.]NAME *(;param) : value`, with the parameters' (name, value
/// start, value end) and the value's start.
struct Prop<'a> {
    name: String,
    /// (name, start of the `;`, value start, value end).
    params: Vec<(String, usize, usize, usize)>,
    value: usize,
    line: &'a str,
}

fn parse(line: &str) -> Option<Prop<'_>> {
    let b = line.as_bytes();
    let end = line.find([';', ':'])?;
    let full = &line[..end];
    let name = full.rsplit('.').next().unwrap_or(full).to_ascii_uppercase();
    if name.is_empty() || !name.bytes().all(|c| c.is_ascii_alphanumeric() || c == b'-') {
        return None;
    }
    let mut params = Vec::new();
    let mut i = end;
    while i < b.len() && b[i] == b';' {
        let semi = i;
        i += 1;
        let p0 = i;
        while i < b.len() && !matches!(b[i], b'=' | b';' | b':') {
            i += 1;
        }
        let pname = line[p0..i].to_ascii_uppercase();
        let (mut v0, mut v1) = (i, i);
        if i < b.len() && b[i] == b'=' {
            i += 1;
            v0 = i;
            let mut quoted = false;
            while i < b.len() && (quoted || !matches!(b[i], b';' | b':')) {
                if b[i] == b'"' {
                    quoted = !quoted;
                }
                i += 1;
            }
            v1 = i;
        }
        params.push((pname, semi, v0, v1));
    }
    if i >= b.len() || b[i] != b':' {
        return None;
    }
    Some(Prop {
        name,
        params,
        value: i + 1,
        line,
    })
}

impl Prop<'_> {
    fn param(&self, name: &str) -> Option<(usize, usize)> {
        self.params
            .iter()
            .find(|(n, _, _, _)| n == name)
            .map(|&(_, _, a, b)| {
                // Quotes are not part of the value.
                let v = &self.line[a..b];
                if v.len() >= 2 && v.starts_with('"') && v.ends_with('"') {
                    (a + 1, b - 1)
                } else {
                    (a, b)
                }
            })
    }

    /// The name and the parameters: they stay (`TZID=America/New_York`, `ROLE=…`), except
    /// those read here (CN, LABEL) and addresses (`SENT-BY`, `DELEGATED-FROM`, `MEMBER`).
    fn zone_head(&self, line: &Line, zones: &mut Vec<(usize, usize)>) {
        let name_end = self.params.first().map_or(self.value - 1, |p| p.1);
        line.zone(zones, 0, name_end);
        for (n, semi, a, b) in &self.params {
            // The organizer is the clinic's scheduler: its CN stays too.
            let read = (n == "CN" && self.name != "ORGANIZER") || n == "LABEL";
            if !read && !self.line[*a..*b].contains('@') {
                line.zone(zones, *semi, *b);
            }
        }
    }

    /// Whether any parameter says fax (`TYPE=fax`, 2.1's bare `FAX`).
    fn fax(&self) -> bool {
        self.params.iter().any(|(n, _, a, b)| {
            n.contains("FAX") || self.line[*a..*b].to_ascii_lowercase().contains("fax")
        })
    }
}

/// Components of a structured value split at unescaped `;`: (start, end) in the line.
fn components(line: &str, from: usize) -> Vec<(usize, usize)> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut s = from;
    let mut i = from;
    while i < b.len() {
        if b[i] == b'\\' {
            i += 2;
            continue;
        }
        if b[i] == b';' {
            out.push((s, i));
            s = i + 1;
        }
        i += 1;
    }
    out.push((s, b.len().max(s)));
    out
}

/// The date part of a date or date-time value (`19850412`, `1985-04-12`, `--0412`,
/// `20240115T093000Z`); a year alone is no identifier.
fn date_part(v: &str) -> Option<(usize, usize)> {
    let lead = v.len() - v.trim_start().len();
    let t = v.trim();
    let d = t.split(['T', 't']).next().unwrap_or(t);
    let digits = d.bytes().filter(u8::is_ascii_digit).count();
    (digits >= 4 && d.len() > 4 && d.bytes().all(|c| c.is_ascii_digit() || c == b'-'))
        .then_some((lead, lead + d.len()))
}

/// Adds the identifiers of the vCards and iCalendar events in `text` to `cands`.
pub(super) fn cards(text: &str, cands: &mut Vec<(Span, u8)>) {
    if !(text.contains("BEGIN:V") || text.contains("begin:v") || text.contains("Begin:V")) {
        return;
    }
    let lines = unfold(text);
    let mut stack: Vec<String> = Vec::new();
    // Whether the card being read is an organisation's (KIND:org, group, location).
    let mut org_card = false;
    let mut zones: Vec<(usize, usize)> = Vec::new();
    for (k, line) in lines.iter().enumerate() {
        let Some(p) = parse(&line.text) else {
            continue;
        };
        let upper = || line.text[p.value..].trim().to_ascii_uppercase();
        match p.name.as_str() {
            "BEGIN" => {
                let upper = upper();
                if upper == "VCARD" {
                    org_card = lines[k + 1..]
                        .iter()
                        .map(|l| l.text.trim().to_ascii_uppercase())
                        .take_while(|t| t != "END:VCARD")
                        .any(|t| t == "KIND:ORG" || t == "KIND:GROUP" || t == "KIND:LOCATION");
                }
                stack.push(upper);
                continue;
            }
            "END" => {
                let upper = upper();
                if let Some(i) = stack.iter().rposition(|c| *c == upper) {
                    stack.truncate(i);
                }
                continue;
            }
            _ => {}
        }
        let Some(comp) = stack.last() else {
            continue;
        };
        let v0 = p.value;
        let v1 = line.text.len();
        let name = p.name.as_str();
        match comp.as_str() {
            "VCARD" | "VEVENT" | "VTODO" | "VJOURNAL" | "VFREEBUSY" | "VALARM" | "VCALENDAR" => {
                p.zone_head(line, &mut zones);
                // The file's and the card's own data and a task's due date (a deadline stays
                // readable); a date property's whole value (its time stays, its date part is
                // read below). The stamps (DTSTAMP, CREATED, LAST-MODIFIED) are not zoned: an
                // invite's stamp is the day the patient's visit was booked, fail closed.
                if matches!(
                    name,
                    "VERSION"
                        | "PRODID"
                        | "REV"
                        | "KIND"
                        | "GENDER"
                        | "LANG"
                        | "TZ"
                        | "TZID"
                        | "METHOD"
                        | "CALSCALE"
                        | "SEQUENCE"
                        | "STATUS"
                        | "TRANSP"
                        | "CLASS"
                        | "PRIORITY"
                        | "UID"
                        | "DUE"
                        | "ORGANIZER"
                        | "BDAY"
                        | "ANNIVERSARY"
                        | "DEATHDATE"
                        | "X-ANNIVERSARY"
                        | "DTSTART"
                        | "DTEND"
                        | "RDATE"
                        | "EXDATE"
                        | "RECURRENCE-ID"
                ) {
                    line.zone(&mut zones, v0, v1);
                }
            }
            // A time zone's rules (their DTSTART is the rule's onset): all stays.
            _ => line.zone(&mut zones, 0, v1),
        }
        match comp.as_str() {
            // The practice's own card: its name, address and numbers stay.
            "VCARD" if org_card => {
                if matches!(
                    p.name.as_str(),
                    "FN" | "N" | "ADR" | "LABEL" | "TEL" | "EMAIL" | "URL" | "GEO"
                ) {
                    line.zone(&mut zones, v0, v1);
                }
            }
            "VCARD" => card_prop(line, &p, v0, v1, cands, &mut zones),
            "VEVENT" | "VTODO" | "VJOURNAL" | "VFREEBUSY" | "VALARM" => {
                event_prop(line, &p, comp == "VEVENT", v0, v1, cands)
            }
            _ => {}
        }
    }
    // Dates are not spared: the reader takes an event's dates itself, and those it zones (a
    // to-do's due date, a stamp, a time zone's rule) are no patient's.
    drop_inside(zones, cands, SPARED);
}

/// Strips a URI scheme (`tel:`, `mailto:`) from the value at `v0`.
fn after_scheme(line: &str, v0: usize, scheme: &str) -> usize {
    let v = &line[v0..];
    let t = v.trim_start();
    let lead = v.len() - t.len();
    if t.get(..scheme.len())
        .is_some_and(|h| h.eq_ignore_ascii_case(scheme))
    {
        v0 + lead + scheme.len()
    } else {
        v0
    }
}

fn card_prop(
    line: &Line,
    p: &Prop,
    v0: usize,
    v1: usize,
    cands: &mut Vec<(Span, u8)>,
    zones: &mut Vec<(usize, usize)>,
) {
    let text = &line.text;
    match p.name.as_str() {
        "FN" | "NICKNAME" | "X-ABRELATEDNAMES" => {
            line.push(cands, Kind::Person, v0, v1);
        }
        // Family; given; additional; prefix; suffix: the prefix and suffix stay.
        "N" => {
            for (i, (a, b)) in components(text, v0).into_iter().enumerate() {
                if i < 3 {
                    line.push(cands, Kind::Person, a, b);
                } else {
                    line.zone(zones, a, b);
                }
            }
        }
        // PO box; extended; street; locality; region; postal code; country.
        "ADR" => {
            for (i, (a, b)) in components(text, v0).into_iter().enumerate() {
                match i {
                    0..=3 => line.push(cands, Kind::Address, a, b),
                    5 => line.push(cands, Kind::Zip, a, b),
                    _ => line.zone(zones, a, b),
                }
            }
            if let Some((a, b)) = p.param("LABEL") {
                line.push(cands, Kind::Address, a, b);
            }
        }
        "LABEL" | "GEO" => line.push(cands, Kind::Address, v0, v1),
        "TEL" if text[v0..v1].bytes().any(|c| c.is_ascii_digit()) => {
            let kind = if p.fax() { Kind::Fax } else { Kind::Phone };
            line.push(cands, kind, after_scheme(text, v0, "tel:"), v1);
        }
        "EMAIL" => line.push(cands, Kind::Email, after_scheme(text, v0, "mailto:"), v1),
        "URL" | "IMPP" => line.push(cands, Kind::Url, v0, v1),
        "BDAY" | "ANNIVERSARY" | "DEATHDATE" | "X-ANNIVERSARY" => {
            if let Some((a, b)) = date_part(&text[v0..v1]) {
                line.push(cands, Kind::Date, v0 + a, v0 + b);
            }
        }
        // A related person: by name (text), or by address.
        "RELATED" => {
            let v = text[v0..v1].trim_start().to_ascii_lowercase();
            if v.starts_with("mailto:") {
                line.push(cands, Kind::Email, after_scheme(text, v0, "mailto:"), v1);
            } else if v.starts_with("tel:") {
                line.push(cands, Kind::Phone, after_scheme(text, v0, "tel:"), v1);
            } else if !v.starts_with("urn:") && !v.contains("://") {
                line.push(cands, Kind::Person, v0, v1);
            }
        }
        _ => {}
    }
}

fn event_prop(
    line: &Line,
    p: &Prop,
    appointment: bool,
    v0: usize,
    v1: usize,
    cands: &mut Vec<(Span, u8)>,
) {
    let text = &line.text;
    match p.name.as_str() {
        "ATTENDEE" => {
            if let Some((a, b)) = p.param("CN") {
                line.push(cands, Kind::Person, a, b);
            }
            let v = text[v0..v1].trim();
            let a = after_scheme(text, v0, "mailto:");
            // (A department's mailbox invited beside the patient is no patient's.)
            if v.contains('@') && !super::rules::not_personal(Kind::Email, text, a, v1) {
                line.push(cands, Kind::Email, a, v1);
            } else if v.to_ascii_lowercase().starts_with("tel:") {
                line.push(cands, Kind::Phone, after_scheme(text, v0, "tel:"), v1);
            }
        }
        // An appointment's dates (not a task's due date: a deadline stays readable).
        // Its stamp too: the day the patient's visit was booked (fail closed).
        "DTSTART" | "DTEND" | "RDATE" | "EXDATE" | "RECURRENCE-ID" | "DTSTAMP" | "CREATED"
        | "LAST-MODIFIED"
            if appointment =>
        {
            let mut at = v0;
            for d in text[v0..v1].split(',') {
                if let Some((a, b)) = date_part(d) {
                    line.push(cands, Kind::Date, at + a, at + b);
                }
                at += d.len() + 1;
            }
        }
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::super::{Redactor, RedactorConfig, RedactorOptions};

    fn clinic() -> Redactor {
        Redactor::with_options(
            &RedactorConfig::default(),
            &RedactorOptions {
                keep: vec!["Lakeside Clinic".into(), "Priya Raman".into()],
                redact_conditions: false,
            },
        )
        .unwrap()
    }

    fn redacted(r: &Redactor, text: &str) -> Vec<String> {
        r.find(text)
            .unwrap()
            .iter()
            .map(|s| text[s.start..s.end].to_string())
            .collect()
    }

    fn check(text: &str, gone: &[&str], stay: &[&str]) {
        let spans = redacted(&clinic(), text);
        for v in gone {
            assert!(
                spans.iter().any(|s| s.contains(v)),
                "{v} not redacted: {spans:?}"
            );
        }
        for v in stay {
            assert!(
                !spans.iter().any(|s| s.contains(v)),
                "{v} redacted: {spans:?}"
            );
        }
    }

    #[test]
    fn vcard_3_and_4() {
        // RFC 2426's example shape, with a folded note and a fax.
        let v3 = "BEGIN:VCARD\r\nVERSION:3.0\r\nN:Gumbel;Hedwig;Anne;Mrs.;\r\nFN:Hedwig Gumbel\r\nORG:Bubba Gump Shrimp Co.\r\nTITLE:Shrimp Man\r\nTEL;TYPE=WORK,VOICE:(111) 555-1212\r\nTEL;TYPE=HOME,FAX:(404) 555-1213\r\nADR;TYPE=HOME:;;42 Plantation St.;Baytown;LA;30314;United States of America\r\nEMAIL;TYPE=PREF,INTERNET:hedwig.gumbel@example.com\r\nBDAY:1961-03-11\r\nNOTE:Prefers morning\r\n  appointments\r\nREV:2008-04-24T19:52:43Z\r\nEND:VCARD\r\n";
        check(
            v3,
            &[
                "Gumbel",
                "Hedwig",
                "Anne",
                "(111) 555-1212",
                "(404) 555-1213",
                "42 Plantation St.",
                "Baytown",
                "30314",
                "hedwig.gumbel@example.com",
                "1961-03-11",
            ],
            &["Mrs.", "LA", "United States", "Shrimp Man", "VERSION"],
        );
        // RFC 6350's example, folded inside the family name and the label.
        let v4 = "BEGIN:VCARD\nVERSION:4.0\nFN:Simon Pe\n rrault\nN:Perrault;Simon;;;ing. jr,M.Sc.\nBDAY:--0203\nANNIVERSARY:20090808T1430-0500\nGENDER:M\nKIND:individual\nTEL;VALUE=uri;TYPE=\"voice,home\":tel:+1-555-555-5555;ext=5555\nEMAIL;TYPE=work:simon.perrault@example.com\nADR;TYPE=work;LABEL=\"Simon Perrault\\n7 rue des Lilas\\nParis\":;;7 rue des Lilas;Paris;;75001;France\nRELATED;TYPE=spouse;VALUE=text:Mathilde Perrault\nEND:VCARD\n";
        check(
            v4,
            &[
                "Simon Pe",
                "rrault",
                "Perrault",
                "--0203",
                "20090808",
                "+1-555-555-5555",
                "simon.perrault@example.com",
                "7 rue des Lilas",
                "75001",
                "Mathilde Perrault",
            ],
            &["ing. jr", "France", "1430", "individual"],
        );
        // The practice's own card (KIND:org) keeps its name and address.
        let org = "BEGIN:VCARD\nVERSION:4.0\nKIND:org\nFN:Lakeside Clinic\nADR:;;12 Harbor Rd;Lakeside;;04101;\nEND:VCARD\n";
        check(org, &[], &["Lakeside Clinic", "12 Harbor Rd"]);
    }

    #[test]
    fn invite_attendees_and_appointment_dates() {
        let ics = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Lakeside Clinic//Scheduler//EN\r\nBEGIN:VTIMEZONE\r\nTZID:America/New_York\r\nBEGIN:STANDARD\r\nDTSTART:19701101T020000\r\nTZOFFSETFROM:-0400\r\nTZOFFSETTO:-0500\r\nEND:STANDARD\r\nEND:VTIMEZONE\r\nBEGIN:VEVENT\r\nUID:appt-20240312-0930@lakesideclinic.example\r\nDTSTAMP:20240301T120000Z\r\nDTSTART;TZID=America/New_York:20240312T093000\r\nDTEND;TZID=America/New_York:20240312T100000\r\nSUMMARY:Follow-up visit\r\nORGANIZER;CN=Front Desk (Tomas Varga):mailto:scheduling@lakesideclinic.example\r\nATTENDEE;ROLE=REQ-PARTICIPANT;PARTSTAT=NEEDS-ACTION;CN=\"Okonjo, Ngozi\r\n  Adaeze\":mailto:ngozi.okonjo@example.net\r\nEND:VEVENT\r\nBEGIN:VTODO\r\nDUE:20240315\r\nSUMMARY:Send referral letter\r\nEND:VTODO\r\nEND:VCALENDAR\r\n";
        check(
            ics,
            &[
                "Okonjo, Ngozi",
                "Adaeze",
                "ngozi.okonjo@example.net",
                "20240312",
                // The stamp: the day the visit was booked.
                "20240301",
            ],
            &[
                "19701101",
                "093000",
                "Tomas Varga",
                // The practice's own mailbox (its name is in the keep list).
                "scheduling@lakesideclinic.example",
                "20240315",
                "Follow-up",
                "America/New_York",
            ],
        );
        let spans = redacted(&clinic(), ics);
        assert!(
            spans.iter().filter(|s| *s == "20240312").count() >= 2,
            "{spans:?}"
        );
    }

    #[test]
    fn an_invites_stamp_goes_its_uid_and_a_departments_mailbox_stay() {
        let ics = "BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nUID:55102938-4471\r\nDTSTAMP:20250402T081500Z\r\nDTSTART:20250409T140000\r\nATTENDEE;ROLE=REQ-PARTICIPANT:mailto:radiology.scheduling@mercyvale.example\r\nATTENDEE;CN=Ines Barros:mailto:ines.barros7@example.net\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n";
        check(
            ics,
            &[
                "20250402",
                "20250409",
                "Ines Barros",
                "ines.barros7@example.net",
            ],
            &["55102938", "radiology.scheduling@mercyvale.example"],
        );
    }
}
