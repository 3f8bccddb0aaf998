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
    /// "Patient", "Pt": the patient's name in a list, or their number in an export; the cell
    /// says which (letters alone are a name).
    Patient,
}

/// The column a header cell names, if it is one of identifiers.
fn column(header: &str) -> Option<Column> {
    let h: String = header
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || c == '#' {
                c
            } else {
                ' '
            }
        })
        .collect::<String>()
        .to_lowercase();
    // A header in another language names the same columns: read in English words.
    let words: Vec<&str> = h.split_whitespace().flat_map(in_english).collect();
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
        "id" => return id(Kind::Mrn),
        "patient" | "pt" | "patient name" | "pt name" | "resident" | "inmate" | "infant"
        | "baby" => {
            return Some(Column::Patient);
        }
        "patient number" | "patient no" | "patient #" => return id(Kind::Mrn),
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
    if has("account")
        || has("acct")
        || has("claim")
        || has("rx")
        || has("case") && ["id", "#", "number", "no"].iter().any(|w| has(w))
    {
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
    if ["address", "street", "addr", "city", "town"]
        .iter()
        .any(|w| {
            words
                .iter()
                .any(|x| x.starts_with(w) && x[w.len()..].bytes().all(|b| b.is_ascii_digit()))
        })
    {
        return id(Kind::Address);
    }
    // Where the patient is lodged, as the header names it ("Room", "Bed #", "Pod", "Cell" when
    // its cells are short numbers: see `columns`).
    if [
        "chair",
        "bed",
        "station",
        "bay",
        "room",
        "rm",
        "pod",
        "isolette",
        "incubator",
        "bassinet",
        "crib",
        "bunk",
        "berth",
        "cot",
        "stretcher",
        "space",
        "cubicle",
    ]
    .iter()
    .any(|w| has(w))
        && ![
            "exam",
            "consult",
            "conference",
            "procedure",
            "waiting",
            "parking",
        ]
        .iter()
        .any(|w| has(w))
    {
        return id(Kind::Room);
    }
    if has("serial")
        || has("device")
        || [
            "transmitter",
            "sensor",
            "receiver",
            "pump",
            "implant",
            "generator",
            "pacemaker",
        ]
        .iter()
        .any(|w| has(w))
            && ["id", "#", "sn", "number", "no", "s n"]
                .iter()
                .any(|w| has(w))
    {
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
        || words.iter().any(|w| super::words::foreign_name_field(w))
    {
        return id(Kind::Person);
    }
    None
}

/// A header word of another language as the English word(s) [`column`] reads ("nachname" →
/// "last", "geboortedatum" → "birth date", "patiëntnr" → "patient number"); an English word as
/// it is. A compound that ends in a number's or a date's word is split there first.
fn in_english(w: &str) -> Vec<&str> {
    let mut out = Vec::with_capacity(2);
    let (stem, tail) = split_compound(w);
    if !stem.is_empty() {
        out.push(word_in_english(stem));
    }
    if let Some(t) = tail {
        out.push(t);
    }
    out
}

/// A compound's stem and the English word its tail says ("fallnummer" → ("fall", number)).
fn split_compound(w: &str) -> (&str, Option<&'static str>) {
    for (suffix, english) in [
        ("nummer", "number"),
        ("numero", "number"),
        ("número", "number"),
        ("nr", "number"),
        ("datum", "date"),
        ("dato", "date"),
        ("tarihi", "date"),
    ] {
        if let Some(stem) = w.strip_suffix(suffix) {
            // The word itself ("nummer", "datum") is the tail alone; a short stem is a word
            // of its own ("dato" is one).
            if stem.is_empty() || stem.chars().count() >= 3 {
                return (stem, Some(english));
            }
        }
    }
    (w, None)
}

fn word_in_english(w: &str) -> &str {
    match w {
        "nachname" | "familienname" | "achternaam" | "familienaam" | "cognome" | "apellido"
        | "apellidos" | "sobrenome" | "efternavn" | "efternamn" | "etternavn" | "soyadı"
        | "soyadi" | "sukunimi" | "nazwisko" => "last",
        "vorname" | "voornaam" | "prénom" | "prenom" | "nombre" | "fornavn" | "förnamn"
        | "fornamn" | "etunimi" | "imię" | "imie" | "adı" | "adi" => "first",
        "naam" | "nom" | "nome" | "navn" | "namn" | "nimi" | "isim" | "jina" => "name",
        "geburts" | "geburt" | "geb" | "geboorte" | "geboren" | "naissance" | "nascita"
        | "nacimiento" | "nascimento" | "fødsels" | "fødsel" | "födelse" | "fodsels" | "doğum"
        | "dogum" | "urodzenia" => "birth",
        "aufnahme" | "opname" | "ingreso" | "ricovero" | "indlæggelse" | "innleggelse"
        | "inskrivning" | "yatış" | "yatis" => "admit",
        "entlassung" | "entlass" | "ontslag" | "dimissione" | "udskrivelse" | "utskrivning" => {
            "discharge"
        }
        "fecha" | "tarih" | "päivämäärä" => "date",
        "zimmer" | "kamer" | "chambre" | "stanza" | "habitación" | "habitacion" | "quarto"
        | "værelse" | "vaerelse" | "stue" | "oda" | "sala" => "room",
        "bett" | "lit" | "letto" | "cama" | "leito" | "seng" | "säng" | "yatak" => "bed",
        "telefon" | "telefoon" | "téléphone" | "telefono" | "teléfono" | "telefone" | "tlf"
        | "handy" | "mobil" | "mobiel" | "gsm" | "cellulare" | "celular" | "móvil" | "movil"
        | "puhelin" | "cep" | "simu" => "phone",
        "courriel" | "correo" | "eposta" => "email",
        "adresse" | "anschrift" | "adres" | "indirizzo" | "dirección" | "direccion"
        | "endereço" | "endereco" | "straße" | "strasse" | "straat" | "rue" | "calle" | "ulica"
        | "osoite" | "anwani" => "address",
        "ort" | "wohnort" | "stadt" | "woonplaats" | "plaats" | "ville" | "città" | "citta"
        | "ciudad" | "cidade" | "stad" | "şehir" | "sehir" | "kaupunki" | "miasto" => "city",
        "plz" | "postleitzahl" | "postcode" | "postnummer" | "pocztowy" => "zip",
        "alter" | "leeftijd" | "âge" | "età" | "edad" | "idade" | "alder" | "ålder" | "yaş"
        | "ikä" | "wiek" | "umri" => "age",
        "patiënt" | "patienten" | "patiënten" | "pat" | "paciente" | "paziente" | "pasient"
        | "patiente" | "hasta" => "patient",
        "nº" | "núm" | "num" | "nummer" | "numero" | "número" => "number",
        "dossier" | "cartella" | "expediente" | "prontuario" | "prontuário" | "journal" => {
            "record"
        }
        "fall" | "caso" | "konto" | "rekening" | "cuenta" | "conto" | "compte" => "account",
        "versicherung" | "verzekering" | "krankenkasse" | "assurance" | "assicurazione"
        | "seguro" | "forsikring" | "försäkring" | "sigorta" => "insurance",
        "versicherten" | "verzekerde" => "member",
        "arzt" | "hausarzt" | "huisarts" | "médecin" | "medecin" | "medico" | "médico" | "læge"
        | "läkare" | "doktor" => "doctor",
        _ => w,
    }
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

/// The delimiter a header line uses: the most frequent of `,` tab `|` `;` (at least two), else
/// [`ALIGNED`] when two gaps of two blanks or more part its words (a plain-text table lined up
/// with blanks: `Patient      DOB        Room`).
fn delimiter(line: &str) -> Option<u8> {
    [b',', b'\t', b'|', b';']
        .into_iter()
        .map(|d| (line.bytes().filter(|&c| c == d).count(), d))
        .filter(|(n, _)| *n >= 2)
        .max_by_key(|(n, _)| *n)
        .map(|(_, d)| d)
        .or_else(|| (line.trim().matches("  ").count() >= 2).then_some(ALIGNED))
}

/// The "delimiter" of a table lined up with blanks: a gap of two blanks or more.
const ALIGNED: u8 = 0;

/// The cells of one line of a table: [`cells`], or the runs between gaps of an aligned table;
/// in a markdown table (`markdown`: its header opens with a pipe) the outer pipes of a row
/// (`| a | b |`) open and close no cell (elsewhere a row's last cell may be empty: `a | b | `).
fn row(line: &str, delim: u8, markdown: bool) -> Vec<(usize, usize)> {
    if delim == ALIGNED {
        let mut out = Vec::new();
        let b = line.as_bytes();
        let mut i = 0;
        while i < b.len() {
            while i < b.len() && (b[i] == b' ' || b[i] == b'\t') {
                i += 1;
            }
            let start = i;
            // A cell ends at a tab or at two blanks.
            while i < b.len()
                && b[i] != b'\t'
                && !(b[i] == b' ' && matches!(b.get(i + 1), Some(b' ' | b'\t') | None))
            {
                i += 1;
            }
            if i > start {
                out.push((start, i));
            }
        }
        return out;
    }
    let mut c = cells(line, delim);
    if markdown {
        let t = line.trim();
        if t.ends_with('|') && c.len() > 1 && c.last().is_some_and(|&(s, e)| s == e) {
            c.pop();
        }
        if t.starts_with('|') && c.len() > 1 && c[0].0 == c[0].1 {
            c.remove(0);
        }
    }
    c
}

/// The cells of a comma-separated row with each date written in words and left unquoted
/// ("May 7, 2023": an export's comma inside a value) joined back into one cell, so the
/// columns after it line up with the header again.
fn joined_dates(line: &str, rc: Vec<(usize, usize)>) -> Vec<(usize, usize)> {
    let mut out = Vec::with_capacity(rc.len());
    let mut k = 0;
    while k < rc.len() {
        let (s, e) = rc[k];
        if let Some(&(s2, e2)) = rc.get(k + 1) {
            let year = &line[s2..e2];
            if year.len() == 4 && year.bytes().all(|b| b.is_ascii_digit()) && month_day(&line[s..e])
            {
                out.push((s, e2));
                k += 2;
                continue;
            }
        }
        out.push((s, e));
        k += 1;
    }
    out
}

/// Whether a cell is a month's name and a day: "May 7", "Sept. 21", "December 3rd".
fn month_day(cell: &str) -> bool {
    let mut w = cell.split_whitespace();
    let (Some(m), Some(d), None) = (w.next(), w.next(), w.next()) else {
        return false;
    };
    let m = m.trim_end_matches('.').to_ascii_lowercase();
    let d = ["st", "nd", "rd", "th"]
        .iter()
        .find_map(|x| d.strip_suffix(x))
        .unwrap_or(d);
    m.len() >= 3
        && m.bytes().all(|b| b.is_ascii_lowercase())
        && [
            "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
        ]
        .contains(&&m[..3])
        && (1..=2).contains(&d.len())
        && d.bytes().all(|b| b.is_ascii_digit())
}

/// Whether a line only rules a table off: `|---|:---:|`, `+----+----+`, `-----  ------`.
fn rule_line(line: &str) -> bool {
    let t = line.trim();
    t.contains("---")
        && t.chars()
            .all(|c| matches!(c, '-' | ':' | '|' | '+' | '=' | ' ' | '\t'))
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
    // Cheap refusal: no table without a delimited line (or blanks lining up columns).
    if !text.contains([',', '\t', '|', ';']) && !text.contains("  ") {
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
        let markdown = d == b'|' && head.trim_start().starts_with('|');
        let hc = row(head, d, markdown);
        let named: Vec<Option<Column>> = hc.iter().map(|&(s, e)| column(&head[s..e])).collect();
        // An aligned header is words only: a form's line ("Study date: 3/4   Room 7") is none.
        let is_header = (d != ALIGNED
            || !head.contains(':') && !head.bytes().any(|b| b.is_ascii_digit()))
            && hc.len() >= 3
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
        // The rule under a markdown or aligned header.
        if j < lines.len() && rule_line(lines[j].1) {
            j += 1;
        }
        while j < lines.len() {
            let (off, mut line) = lines[j];
            let mut next = j + 1;
            let mut rc = row(line, d, markdown);
            if d == b',' && rc.len() > hc.len() {
                rc = joined_dates(line, rc);
            }
            // A quoted cell may hold line breaks (a CSV export's notes): a row that leaves its
            // quotes open runs on to the line that closes them, read as one record when that
            // has the header's cells (a bounded look: a stray quote does not swallow the rest
            // of the text).
            if matches!(d, b',' | b';' | b'\t')
                && line.bytes().filter(|&b| b == b'"').count() % 2 == 1
            {
                let mut open = true;
                let mut k = j + 1;
                while open && k < lines.len() && k <= j + 16 {
                    open ^= lines[k].1.bytes().filter(|&b| b == b'"').count() % 2 == 1;
                    k += 1;
                }
                let (last_off, last) = lines[k - 1];
                let record = &text[off..last_off + last.len()];
                let joined = row(record, d, markdown);
                if !open && joined.len() == hc.len() {
                    (line, rc, next) = (record, joined, k);
                }
            }
            if line.trim().is_empty() || rc.len() != hc.len() {
                break;
            }
            for ((&(s, e), col), &(hs, he)) in rc.iter().zip(&named).zip(&hc) {
                let Some(col) = col else { continue };
                let v = &line[s..e];
                // (A database export's NULL is no value.)
                if v.is_empty() || v == "NULL" || v == "null" {
                    continue;
                }
                // A place is a short number, with a letter or a bed's suffix at most ("none",
                // "TBD" are no place; a cell with its label, "Rm 412", is read by the room
                // rules, which take the number alone).
                let place = v.len() <= 6 && v.starts_with(|c: char| c.is_ascii_digit());
                let kind = match col {
                    Column::Id(Kind::Room) if !place => continue,
                    // A jail's "Cell" column holds cells, a contact list's phones.
                    Column::Id(Kind::Phone)
                        if place && head[hs..he].to_ascii_lowercase().contains("cell") =>
                    {
                        Kind::Room
                    }
                    Column::Id(k) => *k,
                    Column::Age => match v.parse::<u32>() {
                        Ok(n) if n >= 90 => Kind::Age,
                        _ => continue,
                    },
                    Column::Patient if v.bytes().any(|b| b.is_ascii_digit()) => Kind::Mrn,
                    Column::Patient => Kind::Person,
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
            j = next;
        }
        // A header over rows names columns and holds no identifier ("BED  PATIENT  LEGAL
        // OBS  ADMIT"): what the shape rules read in it as a name or a place goes. (Not a
        // line of data that only looks like one: JSON, `key: value`, `k=v`.)
        let first_row = if i + 1 < lines.len() && rule_line(lines[i + 1].1) {
            i + 2
        } else {
            i + 1
        };
        if j > first_row && !head.contains([':', '{', '=']) {
            let (h0, h1) = (lines[i].0, lines[i].0 + head.len());
            cands.retain(|(c, prio)| *prio >= PRIO || c.start < h0 || c.end > h1);
        }
        i = j.max(i + 1);
    }
}

/// The kind of a value under a named column or field, when its look fits (a number's kinds
/// need a digit, a name letters; ages count only over 89; a place is a short number).
fn value_kind(col: Column, name: &str, v: &str) -> Option<Kind> {
    let digit = v.bytes().any(|b| b.is_ascii_digit());
    let place = v.len() <= 6 && v.starts_with(|c: char| c.is_ascii_digit());
    match col {
        Column::Id(Kind::Room) => place.then_some(Kind::Room),
        Column::Id(Kind::Phone) if place && name.to_ascii_lowercase().contains("cell") => {
            Some(Kind::Room)
        }
        Column::Id(Kind::Person) => {
            (!digit && v.chars().any(char::is_alphabetic) && v.split_whitespace().count() <= 4)
                .then_some(Kind::Person)
        }
        Column::Id(Kind::Address | Kind::Email) => {
            v.chars().any(char::is_alphabetic).then_some(match col {
                Column::Id(k) => k,
                _ => unreachable!(),
            })
        }
        Column::Id(k) => digit.then_some(k),
        Column::Age => v
            .parse::<u32>()
            .ok()
            .filter(|&n| (90..130).contains(&n))
            .map(|_| Kind::Age),
        Column::Patient if digit => Some(Kind::Mrn),
        Column::Patient => Some(Kind::Person),
    }
}

/// The column a data field's name says (`first_name`, `lastName`, `patient-dob`, `addr1`):
/// snake, camel and kebab case split into words and read as a header. An id of a visit or an
/// appointment is no date.
fn field_column(key: &str) -> Option<Column> {
    let mut words = String::new();
    let mut prev_lower = false;
    for c in key.chars() {
        if c.is_uppercase() && prev_lower {
            words.push(' ');
        }
        prev_lower = c.is_lowercase() || c.is_ascii_digit();
        words.push(if c.is_alphanumeric() { c } else { ' ' });
    }
    let col = column(&words)?;
    let lower = words.to_ascii_lowercase();
    let ws: Vec<&str> = lower.split_whitespace().collect();
    if col == Column::Id(Kind::Date)
        && ws
            .iter()
            .any(|w| matches!(*w, "id" | "no" | "num" | "number" | "count" | "type"))
    {
        return None;
    }
    Some(col)
}

/// Whether a table's name says its rows are people (its `id` column is then their number;
/// elsewhere a row's `id` numbers a visit, an order, a message).
fn people_table(name: &str) -> bool {
    let n = name.to_ascii_lowercase();
    [
        "patient",
        "person",
        "people",
        "member",
        "resident",
        "client",
        "subscriber",
    ]
    .iter()
    .any(|w| n.contains(w))
}

/// Adds the values of SQL `INSERT INTO t (col, …) VALUES (…), (…);` statements by their
/// column's name: a dump pasted into a ticket is a table whose header is the column list.
pub(super) fn inserts(text: &str, cands: &mut Vec<(Span, u8)>) {
    let lower = text.to_ascii_lowercase();
    if !lower.contains("insert into") {
        return;
    }
    let b = text.as_bytes();
    let ws = |i: &mut usize| {
        while *i < b.len() && b[*i].is_ascii_whitespace() {
            *i += 1;
        }
    };
    let mut from = 0;
    while let Some(p) = lower[from..].find("insert into") {
        let at = from + p + "insert into".len();
        from = at;
        let Some(v) = lower[at..].find("values") else {
            break;
        };
        let vpos = at + v;
        let head = &text[at..vpos];
        let (Some(o), Some(c)) = (head.find('('), head.rfind(')')) else {
            continue;
        };
        if c < o || head[o..c].contains(';') {
            continue;
        }
        let people = people_table(&head[..o]);
        let names: Vec<&str> = head[o + 1..c]
            .split(',')
            .map(|n| n.trim().trim_matches(['"', '`', '[', ']']))
            .collect();
        let cols: Vec<Option<Column>> = names
            .iter()
            .map(|n| {
                if n.eq_ignore_ascii_case("id") && !people {
                    None
                } else {
                    field_column(n)
                }
            })
            .collect();
        let mut i = vpos + "values".len();
        'rows: loop {
            ws(&mut i);
            if i >= b.len() || b[i] != b'(' {
                break;
            }
            i += 1;
            let mut k = 0;
            loop {
                ws(&mut i);
                let (s, e, quoted);
                if i < b.len() && b[i] == b'\'' {
                    s = i + 1;
                    let mut j = s;
                    while j < b.len() {
                        if b[j] == b'\'' {
                            if b.get(j + 1) == Some(&b'\'') {
                                j += 2;
                                continue;
                            }
                            break;
                        }
                        j += 1;
                    }
                    e = j.min(b.len());
                    i = (j + 1).min(b.len());
                    quoted = true;
                } else {
                    s = i;
                    while i < b.len() && !matches!(b[i], b',' | b')' | b'\n') {
                        i += 1;
                    }
                    e = s + text[s..i].trim_end().len();
                    quoted = false;
                }
                let v = &text[s..e];
                if let Some(Some(col)) = cols.get(k) {
                    let null = !quoted && v.eq_ignore_ascii_case("null");
                    if !v.is_empty()
                        && !null
                        && let Some(kind) = value_kind(*col, names[k], v)
                    {
                        cands.push((
                            Span {
                                kind,
                                start: s,
                                end: e,
                            },
                            PRIO,
                        ));
                    }
                }
                ws(&mut i);
                match b.get(i) {
                    Some(b',') => {
                        i += 1;
                        k += 1;
                    }
                    Some(b')') => {
                        i += 1;
                        break;
                    }
                    _ => break 'rows,
                }
            }
            ws(&mut i);
            if b.get(i) == Some(&b',') {
                i += 1;
            } else {
                break;
            }
        }
        from = i.max(from);
    }
}

/// Adds the values of data fields by their key, in any of the formats logs and exports write
/// them: JSON and Python dicts (`"dob": "…"`, `'first_name': 'Ana'`), key=value logs
/// (`patient_dob=1970-01-02 zip=60361`), query strings (`?mrn=…&dob=…`). A key names what its
/// value is. Only keys written as data are read: quoted, joined to `=`, or snake/camel case
/// (a prose label, "Name: …", is left to the label rules).
pub(super) fn fields(text: &str, cands: &mut Vec<(Span, u8)>) {
    // A two-cell line of an export's preamble ("Transmitter ID,8DM663", "DOB\t1961-03-02"):
    // the first cell names the second.
    let mut at = 0;
    for l in text.split_inclusive('\n') {
        let line = l.trim_end_matches(['\n', '\r']);
        let off = at;
        at += l.len();
        let Some(d) = [b',', b'\t']
            .into_iter()
            .find(|&d| line.bytes().filter(|&c| c == d).count() == 1)
        else {
            continue;
        };
        let (k, v) = line.split_at(line.bytes().position(|c| c == d).unwrap_or(0));
        let (k, v) = (k.trim(), &v[1..]);
        if k.is_empty()
            || k.len() > 40
            || !k
                .chars()
                .all(|c| c.is_alphanumeric() || matches!(c, ' ' | '_' | '#' | '-'))
        {
            continue;
        }
        let vt = v.trim();
        let Some(col) = field_column(k) else { continue };
        if vt.is_empty()
            || vt.contains(' ')
                && col != Column::Id(Kind::Person)
                && col != Column::Id(Kind::Address)
        {
            continue;
        }
        if let Some(kind) = value_kind(col, k, vt) {
            let s = off + line.len() - v.len() + (v.len() - v.trim_start().len());
            cands.push((
                Span {
                    kind,
                    start: s,
                    end: s + vt.len(),
                },
                PRIO,
            ));
        }
    }
    let b = text.as_bytes();
    for (at, &sep) in b.iter().enumerate() {
        if sep != b':' && sep != b'=' {
            continue;
        }
        // The key before the separator, in its quotes if any.
        let mut k_end = at;
        while k_end > 0 && b[k_end - 1] == b' ' {
            k_end -= 1;
        }
        let mut quote = None;
        if k_end > 0 && matches!(b[k_end - 1], b'"' | b'\'') {
            quote = Some(b[k_end - 1]);
            k_end -= 1;
        }
        let mut k_start = k_end;
        while k_start > 0
            && (b[k_start - 1].is_ascii_alphanumeric()
                || matches!(b[k_start - 1], b'_' | b'-' | b'.'))
            && k_end - k_start < 40
        {
            k_start -= 1;
        }
        if k_start == k_end {
            continue;
        }
        if let Some(q) = quote
            && (k_start == 0 || b[k_start - 1] != q)
        {
            continue;
        }
        let key = &text[k_start..k_end];
        // A link's query is the link's (the URL rule takes it whole: a patient's link is one
        // identifier); a request path without a host is read piece by piece.
        if sep == b'=' {
            let from = k_start.saturating_sub(300);
            let t0 = b[from..k_start]
                .iter()
                .rposition(|c| c.is_ascii_whitespace() || matches!(c, b'"' | b'\'' | b'<' | b'('))
                .map_or(from, |p| from + p + 1);
            let token = &b[t0..k_start];
            if token.windows(3).any(|w| w == b"://") || token.starts_with(b"www.") {
                continue;
            }
        }
        let joined =
            sep == b'=' && k_end == at && b.get(at + 1).is_some_and(|c| !c.is_ascii_whitespace());
        let coded = key.contains('_')
            || key
                .bytes()
                .zip(key.bytes().skip(1))
                .any(|(a, c)| a.is_ascii_lowercase() && c.is_ascii_uppercase());
        // A YAML or TOML line: a bare key opening its line, its value quoted (`mrn: "821-5"`,
        // `account = "A7171"`).
        let line_key = {
            // Only blanks and list dashes before the key on its line.
            super::lead_start(text, k_start, |c| matches!(c, ' ' | '\t' | '-')).is_some()
                && b[at + 1..]
                    .iter()
                    .find(|&&c| c != b' ')
                    .is_some_and(|&c| c == b'"' || c == b'\'')
        };
        if quote.is_none() && !joined && !coded && !line_key {
            continue;
        }
        // `://` of a link, `::` of a path.
        if sep == b':' && matches!(b.get(at + 1), Some(b'/' | b':')) {
            continue;
        }
        let Some(col) = field_column(key) else {
            continue;
        };
        // The value: quoted, a call's arguments (`datetime.date(1975, 2, 2)`), or a bare run.
        let mut i = at + 1;
        while i < b.len() && b[i] == b' ' {
            i += 1;
        }
        let (s, e) = if i < b.len() && matches!(b[i], b'"' | b'\'') {
            let q = b[i];
            let s = i + 1;
            let mut j = s;
            while j < b.len() && b[j] != q && b[j] != b'\n' && j - s < 120 {
                j += if b[j] == b'\\' { 2 } else { 1 };
            }
            if j >= b.len() || b[j] != q {
                continue;
            }
            (s, j)
        } else {
            let mut j = i;
            while j < b.len() && (b[j].is_ascii_alphanumeric() || matches!(b[j], b'_' | b'.')) {
                j += 1;
            }
            if b.get(j) == Some(&b'(') && text[i..j].to_ascii_lowercase().contains("date") {
                let s = j + 1;
                let Some(close) = text[s..].find(')') else {
                    continue;
                };
                (s, s + close)
            } else {
                let mut j = i;
                while j < b.len()
                    && !matches!(
                        b[j],
                        b' ' | b'\t'
                            | b'\n'
                            | b'\r'
                            | b','
                            | b';'
                            | b'&'
                            | b'}'
                            | b')'
                            | b']'
                            | b'"'
                            | b'\''
                    )
                {
                    j += 1;
                }
                (i, j)
            }
        };
        if s >= e || e - s > 120 {
            continue;
        }
        let v = &text[s..e];
        if v.eq_ignore_ascii_case("null")
            || v.eq_ignore_ascii_case("none")
            || v == "true"
            || v == "false"
        {
            continue;
        }
        let Some(kind) = value_kind(col, key, v) else {
            continue;
        };
        // A name field holds a name as typed (`"name":"claims-worker"` names a process).
        if kind == Kind::Person
            && !(v.starts_with(char::is_uppercase)
                && v.chars()
                    .all(|c| c.is_alphabetic() || matches!(c, ' ' | '\'' | '-' | ',' | '.' | '\\'))
                && (!v.contains('.') || v.contains(". ")))
        {
            continue;
        }
        cands.push((
            Span {
                kind,
                start: s,
                end: e,
            },
            PRIO,
        ));
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
    fn a_quoted_cell_over_lines_keeps_the_rows_in_line() {
        // RFC 4180 lets a quoted cell hold line breaks (and "" for a quote): the rows after
        // such a cell still line up with the header.
        let csv = "\"name\",\"member\",\"comment\",\"birth date\"\r\n\"Ola Berg\",\"52-881-07\",\"rang twice\r\nsaid \"\"later\"\"\",\"1958-02-11\"\r\n\"Ivo Rask\",\"63-190-42\",\"no answer\",\"1961-09-30\"\r\n";
        let f = found(csv);
        for v in [
            "Ola Berg",
            "52-881-07",
            "1958-02-11",
            "Ivo Rask",
            "63-190-42",
        ] {
            assert!(f.iter().any(|(_, x)| x == v), "{v} {f:?}");
        }
        assert!(!f.iter().any(|(_, v)| v.contains("later")), "{f:?}");
    }

    #[test]
    fn an_unquoted_date_in_words_keeps_the_columns_in_line() {
        let csv = "patient_name,mrn,sex,dob,visit_date,wt_kg\n\"Mara Lind\",512-77120,F,May 7, 2019,2024-01-02,18.2\n";
        let f = found(csv);
        assert!(f.contains(&(Kind::Mrn, "512-77120".into())), "{f:?}");
        assert!(f.contains(&(Kind::Person, "Mara Lind".into())), "{f:?}");
        assert!(!f.iter().any(|(_, v)| v == "18.2"), "{f:?}");
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
    fn markdown_and_aligned_tables_and_their_places() {
        // A markdown table pasted in a chat: outer pipes, a rule under the header, names
        // under "Patient", rooms under "Room".
        let md = "list:\n\n| Patient | DOB | MRN | Room |\n|:---|---|---|---:|\n| J. Moreau | 4/5/61 | 20331 | 412 |\n| Okafor, Ada | 1 May 1950 | 88123 | 7B |\n\nthanks\n";
        let f = found(md);
        for v in ["J. Moreau", "Okafor, Ada"] {
            assert!(f.contains(&(Kind::Person, v.into())), "{f:?}");
        }
        for v in ["412", "7B"] {
            assert!(f.contains(&(Kind::Room, v.into())), "{f:?}");
        }
        assert!(f.contains(&(Kind::Mrn, "20331".into())), "{f:?}");
        // A plain-text table lined up with blanks: a cell may hold one blank, a gap two.
        // The header's words are no one's, whatever read them.
        let mut c = vec![(
            Span {
                kind: Kind::Person,
                start: 6,
                end: 20,
            },
            1,
        )];
        columns(
            "BED  PATIENT   LEGAL   OBS    ADMIT\n217  Ada Obi  CONS  1:1  5/9\n",
            &mut c,
        );
        assert!(!c.iter().any(|(s, _)| s.start == 6), "{c:?}");
        let aligned = "Resident         Bed    Phone\n---------------  -----  ------------\nRuth Ann Tobin   14-A   555-201-3344\nLeo Ma           9      555-201-7788\n";
        let f = found(aligned);
        assert!(
            f.contains(&(Kind::Person, "Ruth Ann Tobin".into())),
            "{f:?}"
        );
        assert!(f.contains(&(Kind::Room, "14-A".into())), "{f:?}");
        assert!(f.contains(&(Kind::Room, "9".into())), "{f:?}");
        assert!(f.contains(&(Kind::Phone, "555-201-7788".into())), "{f:?}");
        // A jail's roster: "Cell" holds cells, not phones; a pod or isolette column too.
        let roster = "Inmate,Cell,Pod,Booking\nDAVIS K,214,C,2419\n";
        let f = found(roster);
        assert!(f.contains(&(Kind::Room, "214".into())), "{f:?}");
        // A row that closes on an empty cell still belongs to a table without outer pipes.
        let trailing = "Cycle | Date | Chair | Notes\nC1D1 | 5.17.2025 | 13 | \n";
        assert!(found(trailing).contains(&(Kind::Room, "13".into())));
        // A form's lines spaced out with blanks are no aligned table.
        assert!(
            found("Study date: 3/4/25   Room 7   Tech: RL\nAHI 31   SpO2 84%   CPAP 9\n")
                .is_empty()
        );
    }

    #[test]
    fn headers_in_other_languages() {
        // A German ward export and a Dutch one, semicolons and European dates.
        let de = "Pat-Nr;Nachname;Vorname;Geburtsdatum;Station;Bett;Telefon\n4471;Brandauer;Lotte;03.04.1941;C2;14;+49 30 1234567\n";
        let f = found(de);
        for (k, v) in [
            (Kind::Mrn, "4471"),
            (Kind::Person, "Brandauer"),
            (Kind::Person, "Lotte"),
            (Kind::Date, "03.04.1941"),
            (Kind::Room, "14"),
            (Kind::Phone, "+49 30 1234567"),
        ] {
            assert!(f.contains(&(k, v.into())), "{k:?} {v} {f:?}");
        }
        // The ward is no bed.
        assert!(!f.iter().any(|(_, v)| v == "C2"), "{f:?}");
        let nl = "patiëntnummer;achternaam;voornaam;geboortedatum;kamer;leeftijd;huisarts\n88120;de Wit;Sanne;12-01-1930;3.14;95;Bakker\n";
        let f = found(nl);
        for (k, v) in [
            (Kind::Mrn, "88120"),
            (Kind::Person, "de Wit"),
            (Kind::Room, "3.14"),
            (Kind::Age, "95"),
            (Kind::Date, "12-01-1930"),
        ] {
            assert!(f.contains(&(k, v.into())), "{k:?} {v} {f:?}");
        }
        // The family doctor stays.
        assert!(!f.iter().any(|(_, v)| v == "Bakker"), "{f:?}");
        let it = "cognome,nome,data di nascita,indirizzo,città,numero pratica\nEsposito,Gino,1950-02-03,Via Roma 4,Napoli,P-7781\n";
        let f = found(it);
        for (k, v) in [
            (Kind::Person, "Esposito"),
            (Kind::Date, "1950-02-03"),
            (Kind::Address, "Napoli"),
        ] {
            assert!(f.contains(&(k, v.into())), "{k:?} {v} {f:?}");
        }
    }

    #[test]
    fn prose_and_hl7_are_no_tables() {
        assert!(
            found("Hi, I called, twice, about the refill, name and date.\nok, fine, thanks, bye\n")
                .is_empty()
        );
        assert!(found("PID|1||123^^^MR||DOE^JANE|\nPV1|1|I|4W^613|\n").is_empty());
    }

    fn found_in(f: fn(&str, &mut Vec<(Span, u8)>), text: &str) -> Vec<(Kind, String)> {
        let mut c = Vec::new();
        f(text, &mut c);
        c.iter()
            .map(|(s, _)| (s.kind, text[s.start..s.end].to_string()))
            .collect()
    }

    #[test]
    fn sql_inserts_read_by_their_column_list() {
        let sql = "INSERT INTO patients (id, chart_no, last_name, first_name, birth_date, ssn, home_phone, street_addr, town, postal_code) VALUES\n  (4411, 'QX88123', 'O''Hara', 'Lucía', '1961-03-02', NULL, '555-201-3344', '12 Elm Row', 'Tupelo', '38801'),\n  (4412, 'QX88124', 'Ng', 'Bo', '1970-01-09', '123456789', '555-201-7788', '9 Oak Ct', 'Laurel', '39440');\nINSERT INTO visits (id, patient_id, bed, npi) VALUES (99812, 4411, '12B', '1234567890');\n";
        let f = found_in(inserts, sql);
        for v in ["O''Hara", "Lucía", "Ng", "Bo"] {
            assert!(f.contains(&(Kind::Person, v.into())), "{f:?}");
        }
        for (k, v) in [
            (Kind::Mrn, "4411"),
            (Kind::Mrn, "QX88124"),
            (Kind::Date, "1961-03-02"),
            (Kind::Ssn, "123456789"),
            (Kind::Address, "12 Elm Row"),
            (Kind::Address, "Tupelo"),
            (Kind::Zip, "39440"),
            (Kind::Room, "12B"),
        ] {
            assert!(f.contains(&(k, v.into())), "{k:?} {v} {f:?}");
        }
        // A visit's own row id is no patient's number; NULL is no value.
        assert!(!f.iter().any(|(_, v)| v == "99812" || v == "NULL"), "{f:?}");
    }

    #[test]
    fn data_fields_read_by_their_key() {
        let yaml = "patient:\n  name: \"Ana Sá\"\n  mrn: \"821-53325\"\n  note: \"call back\"\n[patient]\naccount = \"A71715220\"\n";
        let f = found_in(fields, yaml);
        for (k, v) in [
            (Kind::Person, "Ana Sá"),
            (Kind::Mrn, "821-53325"),
            (Kind::Account, "A71715220"),
        ] {
            assert!(f.contains(&(k, v.into())), "{k:?} {v} {f:?}");
        }
        assert!(!f.iter().any(|(_, v)| v == "call back"), "{f:?}");
        let log = "failed for {'first_name': 'Ana', 'lastName': 'Sá', 'dob': datetime.date(1975, 2, 2), 'zip': '60361'}\nlevel=warn patient_zip=90210 name=claims-worker msg=\"retry\"\nGET /r?mrn=A55123&dob=1970-01-02 HTTP/1.1\n{\"patient_name\":\"Ana Sá\",\"contact_method\":\"sms\"}\nName: pending review\nTransmitter ID,8DM663\n";
        let f = found_in(fields, log);
        for (k, v) in [
            (Kind::Person, "Ana"),
            (Kind::Person, "Sá"),
            (Kind::Date, "1975, 2, 2"),
            (Kind::Zip, "60361"),
            (Kind::Zip, "90210"),
            (Kind::Mrn, "A55123"),
            (Kind::Date, "1970-01-02"),
            (Kind::Person, "Ana Sá"),
            (Kind::Device, "8DM663"),
        ] {
            assert!(f.contains(&(k, v.into())), "{k:?} {v} {f:?}");
        }
        assert!(
            !f.iter()
                .any(|(_, v)| ["claims-worker", "sms", "retry", "pending"]
                    .iter()
                    .any(|w| v.contains(w))),
            "{f:?}"
        );
    }
}
