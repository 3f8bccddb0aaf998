//! Delimited tables read by their header: a CSV or TSV export, a pipe table pasted into a mail
//! (`mrn,last_name,first_name,dob,phone,zip`). The header names what each column holds, so
//! every cell under "last_name" is a name and every cell under "zip" a ZIP code, whatever the
//! cell looks like and with no label beside it. A header is a line of at least three cells,
//! none a number, at least two naming a column of identifiers; its table is the lines after it
//! with as many cells, up to the first that has not.

use super::{Kind, Span};

/// Rank of cells found under a header: with the structural findings (the column is certain).
const PRIO: u8 = 86;

/// What a column holds, by its header.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Column {
    Id(Kind),
    /// Ages: only those over 89 are identifiers.
    Age,
}

/// The column a header cell names, if it is one of identifiers.
fn column(header: &str) -> Option<Column> {
    let h: String = header
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '#' {
                c.to_ascii_lowercase()
            } else {
                ' '
            }
        })
        .collect();
    let words: Vec<&str> = h.split_whitespace().collect();
    let has = |w: &str| words.contains(&w);
    let joined = words.join(" ");
    // Who treats, pays or dispenses is no identifier of the patient's.
    if [
        "pcp",
        "provider",
        "doctor",
        "physician",
        "attending",
        "prescriber",
        "clinic",
    ]
    .iter()
    .any(|w| has(w))
        || [
            "insurance",
            "payer",
            "plan",
            "pharmacy",
            "drug",
            "med",
            "medication",
            "facility",
        ]
        .iter()
        .any(|w| has(w))
            && !["id", "#", "number", "no"].iter().any(|w| has(w))
    {
        return None;
    }
    let id = |k| Some(Column::Id(k));
    match joined.as_str() {
        "age" | "age yrs" | "age years" => return Some(Column::Age),
        "id" | "patient" | "pt" => return id(Kind::Mrn),
        _ => {}
    }
    if has("ssn") || has("social") {
        return id(Kind::Ssn);
    }
    if has("mrn") || has("mr#") || has("record") || has("chart") || joined == "patient id" {
        return id(Kind::Mrn);
    }
    if has("member")
        || has("policy")
        || has("subscriber") && (has("id") || has("#"))
        || has("mbi")
        || (has("insurance") || has("plan") || has("medicare") || has("medicaid"))
            && (has("id") || has("#") || has("number") || has("no"))
    {
        return id(Kind::HealthPlan);
    }
    if has("account") || has("acct") || has("claim") || has("rx") {
        return id(Kind::Account);
    }
    if has("dob")
        || has("birth")
        || has("birthdate")
        || has("date")
        || has("dos")
        || has("visit")
        || has("admit")
        || has("admission")
        || has("discharge")
        || has("appt")
    {
        return id(Kind::Date);
    }
    if has("fax") {
        return id(Kind::Fax);
    }
    if has("phone") || has("tel") || has("telephone") || has("mobile") || has("cell") {
        return id(Kind::Phone);
    }
    if has("email") || has("mail") {
        return id(Kind::Email);
    }
    if has("zip") || has("zipcode") || has("postal") {
        return id(Kind::Zip);
    }
    if has("address") || has("street") || has("addr") || has("city") || has("address1") {
        return id(Kind::Address);
    }
    // Where the patient is treated: an infusion or dialysis chair, a bed, a room (not the
    // practice's exam or consult rooms).
    if (has("chair") || has("bed") || has("station") || has("bay") || has("room"))
        && !["exam", "consult", "conference", "procedure"]
            .iter()
            .any(|w| has(w))
    {
        return id(Kind::Room);
    }
    if has("serial") || has("device") {
        return id(Kind::Device);
    }
    if has("name")
        || has("last")
        || has("first")
        || has("middle")
        || has("surname")
        || has("given")
        || has("lastname")
        || has("firstname")
        || has("guarantor")
        || has("kin")
        || has("contact")
        || has("caregiver")
    {
        return id(Kind::Person);
    }
    None
}

/// The cells of `line` split on `delim`, a double-quoted cell's quotes left out (`"Sandhu,
/// Lakshmi"` is one cell): (start, end) byte ranges into `line`, trimmed.
fn cells(line: &str, delim: u8) -> Vec<(usize, usize)> {
    let b = line.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    loop {
        while i < b.len() && b[i] == b' ' {
            i += 1;
        }
        let (start, end);
        if i < b.len() && b[i] == b'"' {
            start = i + 1;
            let mut j = start;
            while j < b.len() && !(b[j] == b'"' && b.get(j + 1) != Some(&b'"')) {
                j += if b[j] == b'"' { 2 } else { 1 };
            }
            end = j.min(b.len());
            i = (j + 1).min(b.len());
            while i < b.len() && b[i] != delim {
                i += 1;
            }
        } else {
            start = i;
            while i < b.len() && b[i] != delim {
                i += 1;
            }
            end = i;
        }
        let cell = &line[start..end];
        let trimmed_start = start + (cell.len() - cell.trim_start().len());
        let trimmed_end = end - (cell.len() - cell.trim_end().len());
        out.push((trimmed_start, trimmed_end.max(trimmed_start)));
        if i >= b.len() {
            break;
        }
        i += 1;
    }
    out
}

/// The delimiter a header line uses: the most frequent of `,` tab `|` `;` (at least two).
fn delimiter(line: &str) -> Option<u8> {
    [b',', b'\t', b'|', b';']
        .into_iter()
        .map(|d| (line.bytes().filter(|&c| c == d).count(), d))
        .filter(|(n, _)| *n >= 2)
        .max_by_key(|(n, _)| *n)
        .map(|(_, d)| d)
}

/// Whether the line's second `|` cell is a word (a column's name), not an HL7 set id.
fn hc_named(line: &str) -> bool {
    line.split('|').nth(1).is_some_and(|c| {
        c.len() > 1
            && c.chars()
                .all(|ch| ch.is_alphabetic() || ch == '_' || ch == ' ')
    })
}

/// Adds the cells of every headed table in `text` to `cands`.
pub(super) fn columns(text: &str, cands: &mut Vec<(Span, u8)>) {
    // Cheap refusal: no table without a delimited line.
    if !text.contains([',', '\t', '|', ';']) {
        return;
    }
    let mut lines: Vec<(usize, &str)> = Vec::new();
    let mut at = 0;
    for l in text.split_inclusive('\n') {
        let body = l.trim_end_matches(['\n', '\r']);
        lines.push((at, body));
        at += l.len();
    }
    let mut i = 0;
    while i < lines.len() {
        let (_, head) = lines[i];
        let Some(d) = delimiter(head) else {
            i += 1;
            continue;
        };
        // An HL7 segment is read by its own rules (`structured.rs`).
        // (A segment's second field is its set id or the encoding characters; a header's
        // second cell is a column's name: "MRN|LastName|…" is a table.)
        if d == b'|' && head.len() >= 4 && head.as_bytes()[3] == b'|' && !hc_named(head) {
            i += 1;
            continue;
        }
        let hc = cells(head, d);
        let named: Vec<Option<Column>> = hc.iter().map(|&(s, e)| column(&head[s..e])).collect();
        let is_header = hc.len() >= 3
            && named.iter().filter(|c| c.is_some()).count() >= 2
            && hc.iter().all(|&(s, e)| {
                let c = &head[s..e];
                !c.is_empty() && c.chars().any(char::is_alphabetic) && c.chars().count() <= 40
            })
            && !hc
                .iter()
                .any(|&(s, e)| head[s..e].chars().filter(char::is_ascii_digit).count() > 2);
        if !is_header {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        while j < lines.len() {
            let (off, row) = lines[j];
            let rc = cells(row, d);
            if row.trim().is_empty() || rc.len() != hc.len() {
                break;
            }
            for (&(s, e), col) in rc.iter().zip(&named) {
                let Some(col) = col else { continue };
                let v = &row[s..e];
                if v.is_empty() {
                    continue;
                }
                let kind = match col {
                    // A chair or bed is a short number ("none", "TBD" are no place; a cell
                    // with its label, "Rm 412", is read by the room rules, which take the
                    // number alone).
                    Column::Id(Kind::Room)
                        if v.len() > 6 || !v.starts_with(|c: char| c.is_ascii_digit()) =>
                    {
                        continue;
                    }
                    Column::Id(k) => *k,
                    Column::Age => match v.parse::<u32>() {
                        Ok(n) if n >= 90 => Kind::Age,
                        _ => continue,
                    },
                };
                cands.push((
                    Span {
                        kind,
                        start: off + s,
                        end: off + e,
                    },
                    PRIO,
                ));
            }
            j += 1;
        }
        i = j.max(i + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(text: &str) -> Vec<(Kind, String)> {
        let mut c = Vec::new();
        columns(text, &mut c);
        c.iter()
            .map(|(s, _)| (s.kind, text[s.start..s.end].to_string()))
            .collect()
    }

    #[test]
    fn cells_under_a_header_take_its_kind() {
        let csv = "mrn,last_name,first_name,dob,zip,pcp,a1c\n772-4708,HRYTSENKO,OLEKSANDR,1969-08-24,25057,Brandt,7.1\n";
        let f = found(csv);
        assert!(f.contains(&(Kind::Mrn, "772-4708".into())), "{f:?}");
        assert!(f.contains(&(Kind::Person, "HRYTSENKO".into())));
        assert!(f.contains(&(Kind::Person, "OLEKSANDR".into())));
        assert!(f.contains(&(Kind::Zip, "25057".into())));
        // The physician and the lab value stay.
        assert!(!f.iter().any(|(_, v)| v == "Brandt" || v == "7.1"), "{f:?}");
    }

    #[test]
    fn quoted_cells_and_ages_over_89() {
        let csv = "\"Name\",\"MRN\",\"DOB\",\"Age\",\"Insurance\",\"Member ID\"\n\"Sandhu, Lakshmi\",\"845-3655\",\"October 12, 1931\",\"94\",\"Kaiser Permanente\",\"ZGP735269703\"\n\"Eze, Ada\",\"331-7594\",\"06-10-1958\",\"67\",\"Cigna\",\"W419479727\"\n";
        let f = found(csv);
        assert!(
            f.contains(&(Kind::Person, "Sandhu, Lakshmi".into())),
            "{f:?}"
        );
        assert!(f.contains(&(Kind::Date, "October 12, 1931".into())));
        assert!(f.contains(&(Kind::Age, "94".into())));
        assert!(!f.iter().any(|(_, v)| v == "67" || v == "Cigna"), "{f:?}");
        assert!(f.contains(&(Kind::HealthPlan, "W419479727".into())));
    }

    #[test]
    fn prose_and_hl7_are_no_tables() {
        assert!(
            found("Hi, I called, twice, about the refill, name and date.\nok, fine, thanks, bye\n")
                .is_empty()
        );
        assert!(found("PID|1||123^^^MR||DOE^JANE|\nPV1|1|I|4W^613|\n").is_empty());
    }
}
