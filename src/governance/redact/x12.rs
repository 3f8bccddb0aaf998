//! X12 EDI transactions (005010: 837P/837I claims, 835 remittance, 270/271 eligibility, 834
//! enrollment, 276/277 claim status) read by their structure. Segments end with `~` (or a line
//! break, as mail wraps them), elements with `*`; the ISA segment declares the separators and
//! they are read from it when it is there (the element separator and the terminator: no value
//! read here sits inside a composite, so components need no splitting). An NM1 loop's entity identifier code says whom it
//! names: a subscriber (`IL`), a patient (`QC`), a dependent (`03`) … are persons and their
//! names, member ids, addresses (the N3/N4 of their loop), birth dates (DMG) and contacts
//! (PER) are identifiers; a billing provider (`85`), a payer (`PR`), a submitter (`41`) … are
//! not, and what the shape rules find in their loops stays (an NPI, a practice's street, a
//! payer's name, a tax id), as do the envelope's control numbers. Fail closed: what the
//! shape rules read as a date, a fax number, an email address, an SSN or a card number stays
//! redacted wherever it is, so do the numbers of any contact (PER), and the envelope's dates
//! are redacted too.

use super::structured::{PRIO, drop_inside};
use super::{Kind, Span};

/// Entity identifier codes (NM101) of persons whose data is the patient's side: insured or
/// subscriber, patient, corrected insured, dependent, prior incorrect insured, the member's
/// mailing address, other insured, guardian, power of attorney, legal representative,
/// responsible party, custodial parent, person legally responsible for a child, executor,
/// ex-spouse. Every other code (85, 87, 82, 77, DN, DK, PR, 40, 41, PE, 36 …) is a provider,
/// payer, employer or trading partner.
const PERSONS: &[&str] = &[
    "IL", "QC", "74", "03", "70", "31", "GB", "GD", "J6", "LR", "QD", "S3", "E1", "EI", "EXS",
];

/// Segments of the envelope and the transaction headers (control numbers, the sender's
/// clock, the payer's bank and trace numbers): they stay.
const ENVELOPE: &[&str] = &[
    "ISA", "IEA", "GS", "GE", "ST", "SE", "BHT", "BGN", "BPR", "TRN",
];

/// Segments that belong to the NM1 loop before them (its address, contact, demographics,
/// references, dates); any other segment ends the loop.
const IN_LOOP: &[&str] = &[
    "N2", "N3", "N4", "PER", "REF", "DMG", "PRV", "DTP", "DTM", "HI", "MPI", "EC", "ICM", "AMT",
    "HLH", "LUI",
];

/// Segment ids that may start a segment in the middle of a line (a feed folded onto one line
/// without terminators): only these, so that `*` in prose starts nothing.
/// (`ST`, `SE` and `HI` are left out: "… MAIN ST*SUITE 5" is a street, not a segment.)
const KNOWN: &[&str] = &[
    "ISA", "IEA", "GS", "GE", "BHT", "BGN", "BPR", "TRN", "HL", "SBR", "PAT", "NM1", "N1", "N2",
    "N3", "N4", "REF", "PER", "DMG", "DTP", "DTM", "CLM", "CLP", "CAS", "SVC", "SV1", "SV2", "LX",
    "PRV", "INS", "HD", "EB", "EQ", "AMT", "QTY", "STC", "NTE",
];

/// REF01 qualifiers whose REF02 is the person's: SSN; member, insured, subscriber, identity
/// card, Medicare (HICN), Medicaid recipient, client and case numbers; the medical record
/// number; claim numbers (payer's claim control, clearinghouse trace, patient account),
/// prior authorisation and referral numbers of the claim.
fn ref_kind(qual: &str) -> Option<Kind> {
    Some(match qual {
        "SY" => Kind::Ssn,
        "1W" | "IG" | "0F" | "HJ" | "F6" | "NQ" | "Q4" | "ABB" | "3H" | "23" => Kind::HealthPlan,
        "EA" => Kind::Mrn,
        "F8" | "D9" | "EJ" | "1K" | "G1" | "9F" => Kind::Account,
        _ => return None,
    })
}

/// Separators: element, segment terminator.
struct Seps {
    elem: u8,
    seg: u8,
}

/// The separators the ISA segment declares: ISA's fourth byte is the element separator,
/// ISA16 (one byte) the component separator and the byte after it the segment terminator.
/// Without an ISA (a quoted loop), the usual `*` and `~`.
fn separators(text: &str) -> Seps {
    let mut seps = Seps {
        elem: b'*',
        seg: b'~',
    };
    let b = text.as_bytes();
    for (at, _) in text.match_indices("ISA") {
        let fresh = at == 0 || !b[at - 1].is_ascii_alphanumeric();
        let Some(&e) = b.get(at + 3) else { break };
        // ISA01 is a two-digit qualifier: `ISA*00*` (prose's "ISA." is no segment).
        let isa01 = b
            .get(at + 4..at + 7)
            .is_some_and(|q| q[0].is_ascii_digit() && q[1].is_ascii_digit() && q[2] == e);
        if !fresh || e.is_ascii_alphanumeric() || e.is_ascii_whitespace() || !isa01 {
            continue;
        }
        seps.elem = e;
        // Sixteen elements after the id: the component separator ends the last one.
        let mut n = 0;
        let mut i = at + 4;
        while i < b.len() && n < 15 {
            if b[i] == e {
                n += 1;
            }
            i += 1;
        }
        if n == 15
            && let Some(&t) = b.get(i + 1)
            && t.is_ascii()
            && !t.is_ascii_alphanumeric()
            && t != b' '
            && t != e
        {
            seps.seg = t;
        }
        break;
    }
    seps
}

/// Where segments lie in `text` (byte ranges, in order). A segment ends at the terminator or
/// a line break; inside one line a further segment starts only at a known id after a blank.
fn segments(text: &str, seps: &Seps) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut off = 0;
    for piece in text
        .split_inclusive(|c: char| c == '\n' || c == '\r' || (c.is_ascii() && c as u8 == seps.seg))
    {
        let end = off + piece.len();
        let mut body_end = end;
        while body_end > off
            && (matches!(b[body_end - 1], b'\n' | b'\r' | b'~' | b' ')
                || b[body_end - 1] == seps.seg)
        {
            body_end -= 1;
        }
        let mut starts = Vec::new();
        let first = off + (piece.len() - piece.trim_start().len());
        let mut i = off;
        while i < body_end {
            if b[i] == seps.elem {
                let mut j = i;
                while j > off && i - j < 3 && b[j - 1].is_ascii_alphanumeric() {
                    j -= 1;
                }
                let id = &text[j..i];
                let shaped = id.len() >= 2
                    && b[j].is_ascii_uppercase()
                    && id
                        .bytes()
                        .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit());
                let fresh = j == first
                    || (j > off
                        && matches!(b[j - 1], b' ' | b'\t' | b'"' | b'\'' | b'>')
                        && KNOWN.contains(&id));
                if shaped && fresh && (j == off || !b[j - 1].is_ascii_alphanumeric()) {
                    starts.push(j);
                }
            }
            i += 1;
        }
        for (k, &s) in starts.iter().enumerate() {
            let e = starts.get(k + 1).copied().unwrap_or(body_end);
            let mut e2 = e;
            while e2 > s && b[e2 - 1] == b' ' {
                e2 -= 1;
            }
            out.push((s, e2));
        }
        off = end;
    }
    out
}

/// Who the current NM1/N1 loop names.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Party {
    None,
    Person,
    Other,
}

/// Adds the identifiers of the X12 segments in `text` to `cands`, and drops what the shape
/// rules found in the envelope and in the loops of providers, payers and trading partners.
pub(super) fn edi(text: &str, cands: &mut Vec<(Span, u8)>) {
    // Cheap gate: no loop, claim or envelope segment, no X12.
    if !["NM1", "ISA", "CLM", "CLP", "DMG", "INS", "REF"]
        .iter()
        .any(|s| text.contains(s))
    {
        return;
    }
    let seps = separators(text);
    let mut zones: Vec<(usize, usize)> = Vec::new();
    let mut party = Party::None;
    for (s, e) in segments(text, &seps) {
        let els: Vec<(usize, &str)> = elements(&text[s..e], s, seps.elem);
        let id = els[0].1;
        let el = |i: usize| els.get(i).map(|&(_, v)| v.trim()).unwrap_or("");
        let at = |i: usize| els.get(i).copied();
        if !IN_LOOP.contains(&id) {
            party = Party::None;
        }
        if ENVELOPE.contains(&id) {
            // ISA09/ISA10, GS04/GS05 and BHT04/BHT05 are when the sender built the
            // interchange, group or transaction (X12 005010: "date of the interchange", "date
            // the transaction set was created"): the submitter's batch clock, shared by every
            // claim of the file, not a date of the individual (Safe Harbor's dates are birth,
            // admission, discharge, death and service: DMG, DTP, DTM carry them). With the
            // control numbers they stay. But in the file one claim is pasted in, that clock
            // is the day the patient's claim was made: fail closed, redact them as dates.
            let date_at = match id {
                "ISA" => Some(9),
                "GS" | "BHT" => Some(4),
                _ => None,
            };
            if let Some((p, v)) = date_at.and_then(at) {
                push_short_or_long_date(cands, p, v);
            }
            zones.push((s, e));
            continue;
        }
        match id {
            "NM1" => {
                let person = PERSONS.contains(&el(1));
                party = if person { Party::Person } else { Party::Other };
                if !person {
                    zones.push((s, e));
                    continue;
                }
                // NM102 = 2: a non-person entity in a person's role (an employer as the
                // insured of a liability claim): its name is an organisation's.
                if el(2) != "2" {
                    for i in 3..=5 {
                        if let Some((p, v)) = at(i)
                            && v.chars().any(char::is_alphabetic)
                        {
                            push(cands, Kind::Person, p, v);
                        }
                    }
                }
                let kind = match el(8) {
                    "34" => Some(Kind::Ssn),
                    // NPIs and tax ids in a person's loop: a provider's, they stay.
                    "XX" | "FI" | "24" => None,
                    _ => Some(Kind::HealthPlan),
                };
                if let (Some(kind), Some((p, v))) = (kind, at(9)) {
                    push_id(cands, kind, p, v);
                }
            }
            "N1" => {
                party = Party::Other;
                zones.push((s, e));
            }
            // The hierarchy's and the lines' counters, the subscriber's payer sequence,
            // relationship, group number and name (a group stays, as REF*6P).
            "HL" | "LX" | "SBR" => zones.push((s, e)),
            // Codes, not identifiers: a claim's diagnoses (HI, ICD-10 "S39012A") and a line's
            // product (LIN, an NDC).
            "HI" | "LIN" => zones.push((s, e)),
            "N2" | "N3" | "N4" | "PRV" if party == Party::Other => zones.push((s, e)),
            // A provider's or payer's contact: the name stays, its numbers are left to the
            // shape rules (fail closed: a phone number is redacted whoever's it is).
            "PER" if party == Party::Other => {
                let name_end = at(2).map_or(e, |(p, v)| p + v.len());
                zones.push((s, name_end));
            }
            "N2" if party == Party::Person => {
                for i in 1..=2 {
                    if let Some((p, v)) = at(i) {
                        push(cands, Kind::Person, p, v);
                    }
                }
            }
            "N3" if party == Party::Person => {
                for i in 1..=2 {
                    if let Some((p, v)) = at(i) {
                        push(cands, Kind::Address, p, v);
                    }
                }
            }
            // City and ZIP; the state (N402) and the country (N404) stay.
            "N4" if party == Party::Person => {
                if let Some((p, v)) = at(1) {
                    push(cands, Kind::Address, p, v);
                }
                if let Some((p, v)) = at(3) {
                    push(cands, Kind::Zip, p, v);
                }
            }
            "PER" if party == Party::Person => {
                if let Some((p, v)) = at(2)
                    && v.chars().any(char::is_alphabetic)
                {
                    push(cands, Kind::Person, p, v);
                }
                for q in [3, 5, 7] {
                    let kind = match el(q) {
                        "TE" | "HP" | "WP" | "CP" | "BN" | "EX" => Kind::Phone,
                        "FX" => Kind::Fax,
                        "EM" => Kind::Email,
                        "UR" => Kind::Url,
                        _ => continue,
                    };
                    if let Some((p, v)) = at(q + 1) {
                        push(cands, kind, p, v);
                    }
                }
            }
            "REF" => match ref_kind(el(1)) {
                Some(kind) => {
                    if let Some((p, v)) = at(2) {
                        push_id(cands, kind, p, v);
                    }
                }
                // The group number (6P) and a provider's or payer's references (tax id,
                // license, commercial numbers) stay.
                None if el(1) == "6P" || party == Party::Other => zones.push((s, e)),
                None => {}
            },
            // DMG*D8*CCYYMMDD: the person's date of birth.
            "DMG" => {
                if let Some((p, v)) = at(2) {
                    push_date(cands, p, v);
                }
            }
            // DTP*qualifier*D8|RD8|DT*value. The 834's file-level dates (007 effective, 090/091
            // report start and end) are the sponsor's; every other is the person's (service,
            // admission, discharge, eligibility …).
            "DTP" => {
                if !["007", "090", "091"].contains(&el(1))
                    && let Some((p, v)) = at(3)
                {
                    push_dates(cands, p, v);
                }
            }
            // DTM*qualifier*CCYYMMDD (835, 277): claim dates; 405 is the payer's production
            // date (its run), which stays.
            "DTM" => {
                if el(1) == "405" {
                    zones.push((s, e));
                } else if let Some((p, v)) = at(2) {
                    push_dates(cands, p, v);
                }
            }
            // CLM01: the patient control number (the provider's account for the claim).
            "CLM" => {
                if let Some((p, v)) = at(1) {
                    push_id(cands, Kind::Account, p, v);
                }
            }
            // CLP01 patient control number, CLP07 payer claim control number.
            "CLP" => {
                for i in [1, 7] {
                    if let Some((p, v)) = at(i) {
                        push_id(cands, Kind::Account, p, v);
                    }
                }
            }
            // PAT05 = D8, PAT06: the patient's date of death.
            "PAT" => {
                if el(5) == "D8"
                    && let Some((p, v)) = at(6)
                {
                    push_date(cands, p, v);
                }
            }
            // INS11 = D8, INS12: the member's date of death.
            "INS" => {
                if el(11) == "D8"
                    && let Some((p, v)) = at(12)
                {
                    push_date(cands, p, v);
                }
            }
            _ => {}
        }
    }
    // Not a phone: an NPI or a company id is ten digits too, and a provider's contact numbers
    // are left out of the zones above.
    drop_inside(
        zones,
        cands,
        &[Kind::Date, Kind::Fax, Kind::Email, Kind::Ssn, Kind::Card],
    );
}

/// Elements of a segment with their byte offsets (element 0 is the segment id).
fn elements(seg: &str, at: usize, sep: u8) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut p = at;
    for v in seg.split(sep as char) {
        out.push((p, v));
        p += v.len() + 1;
    }
    out
}

fn push(cands: &mut Vec<(Span, u8)>, kind: Kind, start: usize, v: &str) {
    let t = v.trim();
    if t.is_empty() {
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

/// An identifier holds a digit (a qualifier-only or placeholder element is none).
fn push_id(cands: &mut Vec<(Span, u8)>, kind: Kind, start: usize, v: &str) {
    if v.bytes().any(|b| b.is_ascii_digit()) {
        push(cands, kind, start, v);
    }
}

/// The date part (CCYYMMDD) of a date or date-time element.
fn push_date(cands: &mut Vec<(Span, u8)>, start: usize, v: &str) {
    let lead = v.len() - v.trim_start().len();
    let digits = v[lead..].bytes().take_while(u8::is_ascii_digit).count();
    if digits >= 8 {
        push(cands, Kind::Date, start + lead, &v[lead..lead + 8]);
    }
}

/// An envelope's date: `YYMMDD` (ISA09) or `CCYYMMDD` (GS04, BHT04).
fn push_short_or_long_date(cands: &mut Vec<(Span, u8)>, start: usize, v: &str) {
    let t = v.trim();
    if (t.len() == 6 || t.len() == 8) && t.bytes().all(|b| b.is_ascii_digit()) {
        push(cands, Kind::Date, start, v);
    }
}

/// A date or a range (`RD8`: `CCYYMMDD-CCYYMMDD`).
fn push_dates(cands: &mut Vec<(Span, u8)>, start: usize, v: &str) {
    let mut p = start;
    for d in v.split('-') {
        push_date(cands, p, d);
        p += d.len() + 1;
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

    /// The values redacted in `text`, in order.
    fn redacted(r: &Redactor, text: &str) -> Vec<String> {
        r.find(text)
            .unwrap()
            .iter()
            .map(|s| text[s.start..s.end].to_string())
            .collect()
    }

    fn covered(spans: &[String], v: &str) -> bool {
        spans.iter().any(|s| s.contains(v))
    }

    // An 837P as the 005010X222A1 guide lays it out: submitter, receiver, billing provider,
    // subscriber (not the patient), payer, patient, claim, service line.
    const P837: &str = "ISA*00*          *00*          *ZZ*SUBMITTERID    *ZZ*RECEIVERID     *240115*1253*^*00501*000004821*0*P*:~\
GS*HC*SUBMITTERID*RECEIVERID*20240115*1253*4821*X*005010X222A1~\
ST*837*0021*005010X222A1~\
BHT*0019*00*244579*20240115*1253*CH~\
NM1*41*2*LAKESIDE CLINIC BILLING*****46*TGJ23~\
PER*IC*JERRY BOWMAN*TE*3055552222*EX*231~\
NM1*40*2*KEY INSURANCE COMPANY*****46*66783JJT~\
HL*1**20*1~\
NM1*85*2*LAKESIDE CLINIC*****XX*1234567893~\
N3*234 SEAWAY ST~\
N4*MIAMI*FL*331111234~\
REF*EI*587654321~\
HL*2*1*22*1~\
SBR*P**2222-SJ******CI~\
NM1*IL*1*OKONKWO*CHIDI*A***MI*JS00111223333~\
N3*236 N MAIN ST~\
N4*MIAMI*FL*33413~\
DMG*D8*19430501*M~\
REF*SY*123456789~\
NM1*PR*2*KEY INSURANCE COMPANY*****PI*999996666~\
HL*3*2*23*0~\
PAT*19~\
NM1*QC*1*OKONKWO*ADAEZE~\
N3*236 N MAIN ST~\
N4*MIAMI*FL*33413~\
DMG*D8*19730501*F~\
CLM*26463774*100***11:B:1*Y*A*Y*I~\
REF*D9*17312345600006351~\
HI*ABK:J0300*ABF:J320~\
LX*1~\
SV1*HC:99213*40*UN*1***1~\
DTP*472*D8*20240106~\
NM1*82*1*KILDARE*BEN****XX*1234567804~\
SE*30*0021~\
GE*1*4821~\
IEA*1*000004821~";

    #[test]
    fn claim_837p_persons_go_providers_stay() {
        let r = clinic();
        let spans = redacted(&r, P837);
        for v in [
            "OKONKWO",
            "CHIDI",
            "ADAEZE",
            "JS00111223333",
            "236 N MAIN ST",
            "33413",
            "19430501",
            "19730501",
            "123456789",
            "26463774",
            "17312345600006351",
            "20240106",
            // Fail closed: the envelope's dates and a provider's phone number too.
            "240115",
            "20240115",
            "3055552222",
        ] {
            assert!(covered(&spans, v), "{v} not redacted: {spans:?}");
        }
        // Subscriber's city is an address part smaller than a state.
        assert!(
            spans.iter().filter(|s| *s == "MIAMI").count() >= 2,
            "{spans:?}"
        );
        for v in [
            "1234567893",
            "1234567804",
            "KEY INSURANCE",
            "999996666",
            "234 SEAWAY ST",
            "331111234",
            "587654321",
            "000004821",
            "4821",
            "0021",
            "244579",
            "TGJ23",
            "66783JJT",
            "JERRY BOWMAN",
            "2222-SJ",
            "KILDARE",
            "FL",
            "99213",
            "J0300",
        ] {
            assert!(
                !spans.iter().any(|s| s.contains(v)),
                "{v} redacted: {spans:?}"
            );
        }
    }

    #[test]
    fn remittance_835_patient_and_claim_numbers() {
        let r = clinic();
        let edi = "ST*835*1234~BPR*C*150000*C*ACH*CTX*01*999999992*DA*123456*1512345678**01*999988880*DA*98765*20240120~\
TRN*1*12345*1512345678~DTM*405*20240119~\
N1*PR*DELTA HEALTH PLAN~N3*100 INSURANCE WAY~N4*HARTFORD*CT*061560001~\
N1*PE*LAKESIDE CLINIC*XX*1234567893~\
LX*1~CLP*7722337*1*226*132**12*119932404007801*11*1~\
NM1*QC*1*NAVARRO*LUCIA*M***MI*XJU902133441~\
NM1*IL*1*NAVARRO*MATEO****MI*XJU902133440~\
NM1*82*1*RAMAN*PRIYA****XX*1234567804~\
DTM*232*20240103~DTM*233*20240103~\
SVC*HC:99214*226*132~DTM*472*20240103~CAS*CO*45*94~\
SE*18*1234~";
        let spans = redacted(&r, edi);
        for v in [
            "NAVARRO",
            "LUCIA",
            "MATEO",
            "XJU902133441",
            "XJU902133440",
            "7722337",
            "119932404007801",
            "20240103",
            // Fail closed: the payer's run and payment dates are dates too.
            "20240119",
            "20240120",
        ] {
            assert!(covered(&spans, v), "{v} not redacted: {spans:?}");
        }
        assert_eq!(spans.iter().filter(|s| *s == "20240103").count(), 3);
        for v in [
            "DELTA HEALTH",
            "100 INSURANCE WAY",
            "HARTFORD",
            "061560001",
            "1234567893",
            "1234567804",
            "999999992",
            "12345",
            "PRIYA",
        ] {
            assert!(
                !spans.iter().any(|s| s.contains(v)),
                "{v} redacted: {spans:?}"
            );
        }
    }

    #[test]
    fn eligibility_271_enrollment_834_folded_and_other_separators() {
        let r = clinic();
        // Separators declared by the ISA: `|` elements, `^` components? (`>` here), newline
        // segments; a 271 dependent with a range of plan dates.
        let edi = "ISA|00|          |00|          |ZZ|PAYER          |ZZ|CLINIC         |240201|0900|^|00501|000000777|0|P|>\n\
ST|271|0001|005010X279A1\n\
NM1|PR|2|ACME HEALTH|||||PI|842610001\n\
NM1|1P|2|LAKESIDE CLINIC|||||XX|1234567893\n\
NM1|IL|1|FERREIRA|JOAO||||MI|W19283746\n\
REF|6P|GRP0042|ACME GROUP PLAN\n\
NM1|03|1|FERREIRA|INES\n\
DMG|D8|20150922|F\n\
DTP|291|RD8|20240101-20241231\n\
SE|9|0001\n";
        let spans = redacted(&r, edi);
        for v in [
            "FERREIRA",
            "JOAO",
            "INES",
            "W19283746",
            "20150922",
            "20240101",
            "20241231",
            // The interchange's date (ISA09), fail closed.
            "240201",
        ] {
            assert!(covered(&spans, v), "{v} not redacted: {spans:?}");
        }
        for v in ["842610001", "1234567893", "GRP0042", "000000777"] {
            assert!(
                !spans.iter().any(|s| s.contains(v)),
                "{v} redacted: {spans:?}"
            );
        }
        // An 834 member loop folded onto one line (terminators lost): segments still start at
        // their ids.
        let line = "INS*Y*18*030*XN*A*E**FT REF*0F*152239999 NM1*IL*1*BLUTH*GEORGE*M***34*152239999 PER*IP**HP*2125551234 N3*1 PARK AVE N4*NEW YORK*NY*10021 DMG*D8*19400816*M";
        let spans = redacted(&r, line);
        for v in [
            "152239999",
            "BLUTH",
            "GEORGE",
            "2125551234",
            "1 PARK AVE",
            "NEW YORK",
            "10021",
            "19400816",
        ] {
            assert!(covered(&spans, v), "{v} not redacted: {spans:?}");
        }
        assert!(!spans.iter().any(|s| s == "NY"), "{spans:?}");
    }

    #[test]
    fn claim_status_277() {
        let r = clinic();
        let edi = "ST*277*0001*005010X212~BHT*0010*08*3920394930203*20240210*1635*DG~HL*1**20*1~NM1*PR*2*ABC INSURANCE*****PI*12345~HL*2*1*21*1~NM1*41*2*LAKESIDE CLINIC*****46*X67E~HL*3*2*19*1~NM1*1P*2*LAKESIDE CLINIC*****XX*1234567893~HL*4*3*PT~NM1*QC*1*HOLLOWAY*MAEVE****MI*AB98765432~TRN*2*ABCXYZ1~STC*F1:65*20240209**150*150~REF*1K*22144000121~REF*EJ*PA9912~DTP*472*RD8*20240115-20240116~SE*16*0001~";
        let spans = redacted(&r, edi);
        for v in [
            "HOLLOWAY",
            "MAEVE",
            "AB98765432",
            "22144000121",
            "PA9912",
            "20240115",
            "20240116",
            // The transaction's date (BHT04), fail closed.
            "20240210",
        ] {
            assert!(covered(&spans, v), "{v} not redacted: {spans:?}");
        }
        for v in ["3920394930203", "ABCXYZ1", "X67E", "1234567893", "12345"] {
            assert!(
                !spans.iter().any(|s| s.contains(v)),
                "{v} redacted: {spans:?}"
            );
        }
    }

    #[test]
    fn odd_text_never_breaks_a_reader() {
        let r = clinic();
        for t in [
            "ISA*00*          *00*          *ZZ*A*ZZ*B*240101*1200*^*00501*1*0*P*éNM1*IL*1*ÉLODIE*Ñ~",
            "ISA*00*x*00*x*ZZ*A*ZZ*B*240101*1200*^*00501*1*0*P*:",
            "NM1*",
            "NM1*IL*1*",
            "N4*€*",
            "DMG*D8*1980",
            "DTP*472*RD8*-",
            "<patient><name><given>Zoë</given><",
            "<telecom value=\"tel:é\"",
            "<id extension=\"é1\" root='",
            "<<<>>><!--",
            "BEGIN:VCARD\nTEL:téléphone 1\nN:\\é;;\nADR:;;\nATTENDEE;CN=\"é:mailto:x@y.z\nEND:VCARD",
            "BEGIN:VEVENT\nDTSTART:é\n é\nEXDATE:,,\nEND:VEVENT",
        ] {
            r.find(t).unwrap();
        }
    }

    #[test]
    fn kept_names_stay_in_person_loops() {
        let r = clinic();
        // A staff member enrolled as a subscriber is still on the keep list.
        let spans = redacted(&r, "NM1*IL*1*RAMAN*PRIYA****MI*ZX4400912~");
        assert!(
            !spans
                .iter()
                .any(|s| s.contains("RAMAN") || s.contains("PRIYA"))
        );
        assert!(covered(&spans, "ZX4400912"));
    }
}
