//! XML clinical documents (HL7 C-CDA / CCD) read by their structure: an element's place says
//! whose it is. Inside `<recordTarget>/<patientRole>`, a `<guardian>`, a participant's
//! `<associatedEntity>` or an informant's `<relatedEntity>`, the given and family names, the
//! street, city and postal code, the telecoms, the birth time and the ids are the patient's
//! (or a relative's) identifiers; the prefix, the state and the country stay. The `<author>`,
//! `<custodian>`, `<legalAuthenticator>` … blocks and the organisations are staff and the
//! practice: what the shape rules find there stays, as does everything inside a tag's markup
//! that is not read here (OIDs, codes, template versions). Times of the document, of the
//! encounter and of the care (`effectiveTime`, `time`) are dates of the patient's care.
//!
//! There is no XML crate among the dependencies, and the text may be a fragment, folded onto
//! one line or cut: a small tolerant reader of tags, one pass, keeps a stack of open elements
//! (a close tag pops to its opener when there is one and is ignored otherwise).

use super::structured::{PRIO, drop_inside};
use super::{Kind, Span};

/// Elements whose content is a person of the patient's side.
const PERSON: &[&str] = &[
    "recordTarget",
    "patientRole",
    "patient",
    "guardian",
    "guardianPerson",
    "relatedEntity",
    "relatedPerson",
    "associatedEntity",
    "associatedPerson",
    "relatedSubject",
    "birthplace",
    // An HL7 v3 query's parameters are the patient's, each in a `<value>`.
    "patientPerson",
    "livingSubjectName",
    "livingSubjectId",
    "livingSubjectBirthTime",
    "livingSubjectDeceasedTime",
    "livingSubjectAddress",
    "patientAddress",
    "patientTelecom",
    "mothersMaidenName",
];

/// Elements whose content is staff, the practice, another organisation or a product.
const STAFF: &[&str] = &[
    "author",
    "assignedAuthor",
    "assignedPerson",
    "assignedAuthoringDevice",
    "custodian",
    "assignedCustodian",
    "representedCustodianOrganization",
    "legalAuthenticator",
    "authenticator",
    "dataEnterer",
    "assignedEntity",
    "representedOrganization",
    "providerOrganization",
    "serviceProviderOrganization",
    "scopingOrganization",
    "wholeOrganization",
    "manufacturerOrganization",
    "informationRecipient",
    "intendedRecipient",
    "receivedOrganization",
    "responsibleParty",
    "encounterParticipant",
    "performer",
    "healthCareFacility",
    "location",
    "manufacturedMaterial",
    "manufacturedProduct",
    "playingEntity",
    "playingDevice",
];

/// The OIDs of an id's root: the SSN (2.16.840.1.113883.4.1) and the NPI (…4.6).
const SSN_ROOT: &str = "2.16.840.1.113883.4.1";
const NPI_ROOT: &str = "2.16.840.1.113883.4.6";

/// Whose an element is, by the innermost element of the stack that says it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Whose {
    Person,
    Staff,
    Unknown,
}

/// Whose an element is: its own name says it, or it is its parent's (the innermost element
/// that says it decides; kept with each open element, so no stack is walked).
fn level(name: &str, class: &str, parent: Whose) -> Whose {
    if name == "guardianOrganization" {
        // A guardian that is an institution: an organisation's name.
        Whose::Staff
    } else if name == "participantRole" {
        // A participant's role says whom it is by its class: the covered party (PAT) or a
        // person (IND), a service delivery location (SDLOC), a product's maker …
        match class {
            "PAT" | "IND" => Whose::Person,
            "" => parent,
            _ => Whose::Staff,
        }
    } else if name == "playingEntity" && parent == Whose::Person {
        // The policy holder a person's role plays.
        Whose::Person
    } else if PERSON.contains(&name) {
        Whose::Person
    } else if STAFF.contains(&name) {
        Whose::Staff
    } else {
        parent
    }
}

/// Whose the innermost open element is.
fn whose(stack: &[(&str, Whose)]) -> Whose {
    stack.last().map_or(Whose::Unknown, |e| e.1)
}

/// The local name of a tag (`cda:given` → `given`).
fn local(name: &str) -> &str {
    name.rsplit(':').next().unwrap_or(name)
}

/// Adds the identifiers of a C-CDA document (or a fragment of one) in `text` to `cands`, and
/// drops what the shape rules found inside tag markup and in the staff's blocks.
pub(super) fn cda(text: &str, cands: &mut Vec<(Span, u8)>) {
    if !text.contains('<')
        || ![
            "recordTarget",
            "patientRole",
            "ClinicalDocument",
            "guardianPerson",
            "relatedEntity",
            "assignedAuthor",
            "birthTime",
            "streetAddressLine",
            "<given",
            "<family",
            "livingSubject",
            "patientTelecom",
        ]
        .iter()
        .any(|m| text.contains(m))
    {
        return;
    }
    let b = text.as_bytes();
    let mut stack: Vec<(&str, Whose)> = Vec::new();
    let mut zones: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while let Some(rel) = text[i..].find('<') {
        let lt = i + rel;
        // Comments, CDATA and declarations are skipped whole.
        let skip_to = |end: &str| text[lt..].find(end).map(|k| lt + k + end.len());
        if text[lt..].starts_with("<!--") || text[lt..].starts_with("<![CDATA[") {
            let end = if text[lt..].starts_with("<!--") {
                "-->"
            } else {
                "]]>"
            };
            match skip_to(end) {
                Some(e) => {
                    i = e;
                    continue;
                }
                None => break,
            }
        }
        let Some(gt) = text[lt + 1..].find(['>', '<']).map(|k| lt + 1 + k) else {
            break;
        };
        if b[gt] == b'<' {
            // A cut tag: the reader resumes at the next one.
            i = gt;
            continue;
        }
        let inner = &text[lt + 1..gt];
        let closing = inner.starts_with('/');
        if inner.starts_with(['!', '?']) {
            i = gt + 1;
            continue;
        }
        let name_start = lt + 1 + usize::from(closing);
        let raw_name = text[name_start..gt]
            .split(|c: char| c.is_whitespace() || c == '/')
            .next()
            .unwrap_or("");
        let name = local(raw_name);
        if name.is_empty() {
            i = gt + 1;
            continue;
        }
        // A tag's markup stays (OIDs, codes, template versions, the staff's numbers), but for
        // a telecom outside the staff's blocks: one in a cut fragment may be the patient's.
        if closing || name != "telecom" || whose(&stack) == Whose::Staff {
            zones.push((lt, gt + 1));
        }
        if closing {
            if let Some(k) = stack.iter().rposition(|(n, _)| *n == name) {
                stack.truncate(k);
            }
        } else {
            let attrs = attributes(text, name_start + raw_name.len(), gt);
            read_tag(name, &stack, &attrs, cands);
            if !inner.ends_with('/') {
                let class = attr(&attrs, "classCode").map_or("", |(_, c)| c.trim());
                let ctx = level(name, class, whose(&stack));
                stack.push((name, ctx));
            }
        }
        // The text up to the next tag is the content of the element now innermost.
        let t_start = gt + 1;
        let t_end = text[t_start..]
            .find('<')
            .map_or(text.len(), |k| t_start + k);
        if let Some(&(top, _)) = stack.last()
            && t_end > t_start
        {
            let content = &text[t_start..t_end];
            if !content.trim().is_empty() {
                read_text(top, &stack, content, t_start, cands, &mut zones);
            }
        }
        i = t_end;
    }
    // No kind spared: a tag's markup is read by `read_tag` itself (a date there that it does
    // not take is a template's version), and the staff's blocks are named outright.
    drop_inside(zones, cands, &[]);
}

/// The attributes of a tag whose name ends at `from` and whose `>` is at `to`: (name, value
/// start, value).
fn attributes(text: &str, from: usize, to: usize) -> Vec<(&str, usize, &str)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = from;
    while i < to {
        while i < to && (b[i].is_ascii_whitespace() || b[i] == b'/') {
            i += 1;
        }
        let n0 = i;
        while i < to && !(b[i].is_ascii_whitespace() || b[i] == b'=' || b[i] == b'/') {
            i += 1;
        }
        let name = local(&text[n0..i]);
        while i < to && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= to || b[i] != b'=' {
            if i == n0 {
                i += 1;
            }
            continue;
        }
        i += 1;
        while i < to && b[i].is_ascii_whitespace() {
            i += 1;
        }
        if i >= to {
            break;
        }
        let q = b[i];
        if q == b'"' || q == b'\'' {
            let v0 = i + 1;
            let v1 = text[v0..to].find(q as char).map_or(to, |k| v0 + k);
            out.push((name, v0, &text[v0..v1]));
            i = v1 + 1;
        } else {
            let v0 = i;
            while i < to && !b[i].is_ascii_whitespace() {
                i += 1;
            }
            out.push((name, v0, &text[v0..i]));
        }
    }
    out
}

fn attr<'a>(attrs: &[(&str, usize, &'a str)], name: &str) -> Option<(usize, &'a str)> {
    attrs
        .iter()
        .find(|(n, _, _)| *n == name)
        .map(|&(_, p, v)| (p, v))
}

/// What a tag's attributes hold: times, telecoms and ids.
fn read_tag(
    name: &str,
    stack: &[(&str, Whose)],
    attrs: &[(&str, usize, &str)],
    cands: &mut Vec<(Span, u8)>,
) {
    let parent = stack.last().map_or("", |e| e.0);
    let ctx = whose(stack);
    // An HL7 v3 query's parameter holds its value in a `<value>` the parameter names.
    let name = match (name, parent) {
        ("value", "livingSubjectBirthTime") => "birthTime",
        ("value", "livingSubjectDeceasedTime") => "deceasedTime",
        ("value", "livingSubjectId" | "patientIdentifier") => "id",
        ("value", "patientTelecom") => "telecom",
        _ => name,
    };
    match name {
        // A birth (or death) time is a person's wherever it is, unless staff's.
        "birthTime" | "deceasedTime" if ctx != Whose::Staff => time(attrs, cands),
        // Times of the document, the encounter, the care and the signatures: dates of care.
        "effectiveTime" | "time" => time(attrs, cands),
        "low" | "high" | "center" if matches!(parent, "effectiveTime" | "time") => {
            time(attrs, cands)
        }
        // An observation's value that is a point in time (`xsi:type="TS"`).
        "value" if attr(attrs, "type").is_some_and(|(_, t)| t.ends_with("TS")) => {
            time(attrs, cands)
        }
        "telecom" if ctx == Whose::Person => {
            if let Some((p, v)) = attr(attrs, "value") {
                let lower = v.to_ascii_lowercase();
                let (kind, skip) = if lower.starts_with("tel:") {
                    (Kind::Phone, 4)
                } else if lower.starts_with("fax:") {
                    (Kind::Fax, 4)
                } else if lower.starts_with("mailto:") {
                    (Kind::Email, 7)
                } else if lower.starts_with("http") {
                    (Kind::Url, 0)
                } else if v.bytes().any(|b| b.is_ascii_digit()) {
                    (Kind::Phone, 0)
                } else {
                    return;
                };
                push(cands, kind, p + skip, &v[skip..]);
            }
        }
        "id" => {
            let Some((p, ext)) = attr(attrs, "extension") else {
                return;
            };
            if !ext.bytes().any(|b| b.is_ascii_digit()) {
                return;
            }
            let root = attr(attrs, "root").map_or("", |(_, r)| r.trim());
            let kind = if parent == "encompassingEncounter" {
                // The encounter's number: the visit's account (as HL7's PV1-19).
                Kind::Account
            } else if ctx != Whose::Person || root == NPI_ROOT {
                return;
            } else if root == SSN_ROOT {
                Kind::Ssn
            } else if parent == "participantRole" {
                // The covered party's member id (a coverage participant's).
                Kind::HealthPlan
            } else {
                Kind::Mrn
            };
            push(cands, kind, p, ext);
        }
        _ => {}
    }
}

/// A time value's date part (`YYYYMMDD`, or `YYYYMM`); a year alone is no identifier.
fn time(attrs: &[(&str, usize, &str)], cands: &mut Vec<(Span, u8)>) {
    if let Some((p, v)) = attr(attrs, "value") {
        let digits = v.bytes().take_while(u8::is_ascii_digit).count();
        if digits >= 6 {
            push(cands, Kind::Date, p, &v[..digits.min(8)]);
        }
    }
}

/// What an element's text holds: name parts, address parts. In the staff's blocks, nothing,
/// and what the shape rules found stays.
fn read_text(
    name: &str,
    stack: &[(&str, Whose)],
    content: &str,
    at: usize,
    cands: &mut Vec<(Span, u8)>,
    zones: &mut Vec<(usize, usize)>,
) {
    let ctx = whose(stack);
    if ctx == Whose::Staff {
        if matches!(
            name,
            "name"
                | "given"
                | "family"
                | "prefix"
                | "suffix"
                | "addr"
                | "streetAddressLine"
                | "city"
                | "county"
                | "postalCode"
                | "state"
                | "country"
        ) {
            zones.push((at, at + content.len()));
        }
        return;
    }
    let kind = match name {
        // Name parts are a person's even in a fragment whose context is cut off.
        "given" | "family" => Kind::Person,
        // An unstructured name (`<name>Ada Obi</name>`), a person's only in a person's block
        // (a product's or a place's `<name>` is no one's).
        "name" if ctx == Whose::Person => Kind::Person,
        // An address written as text (`<addr>12 Elm St, Dover</addr>`) or by its parts.
        "addr"
        | "streetAddressLine"
        | "city"
        | "county"
        | "houseNumber"
        | "streetName"
        | "unitID"
        | "additionalLocator"
        | "deliveryAddressLine"
        | "postBox"
        | "censusTract"
            if ctx == Whose::Person =>
        {
            Kind::Address
        }
        "postalCode" if ctx == Whose::Person => Kind::Zip,
        _ => return,
    };
    if kind == Kind::Person && !content.chars().any(char::is_alphabetic) {
        return;
    }
    push(cands, kind, at, content);
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

/// Tags of mail and web pages whose place is a break between lines.
const HTML_BREAKS: &[&str] = &[
    "br", "div", "p", "tr", "li", "table", "tbody", "ul", "ol", "h1", "h2", "h3", "hr",
];
/// Tags of mail and web pages that sit inside a line (a cell is a column: a blank).
const HTML_INLINE: &[&str] = &[
    "span", "td", "th", "b", "i", "u", "a", "font", "strong", "em", "small",
];

/// A copy of `text` for the shape rules in which the markup that mail and web pages leave in
/// plain text reads as what it stands for: `&nbsp;` (and `&#160;`) as blanks, `&amp;` as `&`,
/// `<br>`, `<div>`, `<p>`, `<tr>` … as a line break and inline tags (`<span …>`, `<td>`) as
/// blanks, each the same length (every offset holds for `text`). Other tags (an XML
/// document's own) stay. `None` when there is none of it.
pub(super) fn html_blanked(text: &str) -> Option<String> {
    let b = text.as_bytes();
    let mut out: Option<Vec<u8>> = None;
    for i in memchr::memchr2_iter(b'<', b'&', b) {
        if b[i] == b'&' {
            let ent = [
                ("&nbsp;", b' '),
                ("&#160;", b' '),
                ("&#xa0;", b' '),
                ("&amp;", b'&'),
            ]
            .into_iter()
            .find(|(e, _)| {
                b[i..].len() >= e.len() && b[i..i + e.len()].eq_ignore_ascii_case(e.as_bytes())
            });
            if let Some((e, first)) = ent {
                let o = out.get_or_insert_with(|| b.to_vec());
                o[i] = first;
                o[i + 1..i + e.len()].fill(b' ');
            }
            continue;
        }
        // A tag: its name, then its end within a bounded look on the same line.
        let s = i + 1 + usize::from(b.get(i + 1) == Some(&b'/'));
        let n = b[s..]
            .iter()
            .take(12)
            .take_while(|c| c.is_ascii_alphanumeric())
            .count();
        if n == 0 || n == 12 {
            continue;
        }
        let name = text[s..s + n].to_ascii_lowercase();
        let brk = HTML_BREAKS.contains(&name.as_str());
        if !brk && !HTML_INLINE.contains(&name.as_str()) {
            continue;
        }
        let Some(gt) = b[s + n..]
            .iter()
            .take(240)
            .take_while(|&&c| c != b'<' && c != b'\n')
            .position(|&c| c == b'>')
        else {
            continue;
        };
        let o = out.get_or_insert_with(|| b.to_vec());
        o[i..=s + n + gt].fill(b' ');
        if brk {
            o[i] = b'\n';
        }
    }
    out.and_then(|o| String::from_utf8(o).ok())
}

/// The copy of `raw` the shape rules read, the same length so every offset holds for `raw`:
/// HTML remnants (`html_blanked`), `_` (glued identifiers: a regex `\b` takes it for a letter)
/// and ZPL field markers (`zpl_blanked`) as blanks. `None` when there is nothing to blank.
pub(super) fn shape_copy(raw: &str) -> Option<String> {
    let mut copy = html_blanked(raw);
    let base = copy.as_deref().unwrap_or(raw);
    if base.contains('_') {
        copy = Some(base.replace('_', " "));
    }
    let base = copy.as_deref().unwrap_or(raw);
    if let Some(z) = zpl_blanked(base) {
        copy = Some(z);
    }
    copy
}

/// A copy of `text` for the shape rules in which a label printer's field commands (ZPL:
/// `^XA^FO30,55^FDMRN:646-74469^FS`) read as blanks: `^FD` opens a field's data and glues it
/// to the command ("FDMRN", "FDDE GROOT"), so the label or the name after it starts no word.
/// Same length (every offset holds). `None` when `text` is no ZPL label (no `^XA` and `^FD`).
fn zpl_blanked(text: &str) -> Option<String> {
    let b = text.as_bytes();
    if memchr::memmem::find(b, b"^XA").is_none() || memchr::memmem::find(b, b"^FD").is_none() {
        return None;
    }
    let mut o = b.to_vec();
    for i in memchr::memmem::find_iter(b, b"^FD") {
        o[i + 1..i + 3].fill(b' ');
    }
    String::from_utf8(o).ok()
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

    // A CCD header as C-CDA R2.1 lays it out: patient with a guardian, an author, a custodian,
    // a legal authenticator, the encounter.
    const CCD: &str = r#"<?xml version="1.0" encoding="UTF-8"?>
<ClinicalDocument xmlns="urn:hl7-org:v3" xmlns:sdtc="urn:hl7-org:sdtc">
  <realmCode code="US"/>
  <templateId root="2.16.840.1.113883.10.20.22.1.1" extension="2015-08-01"/>
  <templateId root="2.16.840.1.113883.10.20.22.1.2" extension="2015-08-01"/>
  <id extension="TT988" root="2.16.840.1.113883.19.5.99999.1"/>
  <code code="34133-9" codeSystem="2.16.840.1.113883.6.1" displayName="Summarization of Episode Note"/>
  <title>Continuity of Care Document</title>
  <effectiveTime value="20240312104500-0500"/>
  <recordTarget>
    <patientRole>
      <id extension="998991" root="2.16.840.1.113883.19.5.99999.2"/>
      <id extension="111-00-2330" root="2.16.840.1.113883.4.1"/>
      <addr use="HP">
        <streetAddressLine>1357 Amber Drive</streetAddressLine>
        <city>Beaverton</city>
        <state>OR</state>
        <postalCode>97867</postalCode>
        <country>US</country>
      </addr>
      <telecom value="tel:+1(555)555-2003" use="HP"/>
      <telecom value="mailto:eve.everywoman@example.com"/>
      <patient>
        <name use="L">
          <prefix>Mrs.</prefix>
          <given>Eve</given>
          <given>Marie</given>
          <family>Everywoman</family>
        </name>
        <administrativeGenderCode code="F" codeSystem="2.16.840.1.113883.5.1"/>
        <birthTime value="19750501"/>
        <guardian>
          <code code="POWATT" codeSystem="2.16.840.1.113883.1.11.19830"/>
          <addr><streetAddressLine>2222 Home Street</streetAddressLine><city>Beaverton</city><state>OR</state><postalCode>97867</postalCode></addr>
          <telecom value="tel:+1(555)555-2008" use="MC"/>
          <guardianPerson><name><given>Boris</given><family>Betterhalf</family></name></guardianPerson>
        </guardian>
      </patient>
      <providerOrganization>
        <id extension="219BX" root="2.16.840.1.113883.4.6"/>
        <name>Good Health Clinic</name>
        <telecom use="WP" value="tel:+1(555)555-5000"/>
        <addr><streetAddressLine>1001 Village Avenue</streetAddressLine><city>Portland</city><state>OR</state><postalCode>99123</postalCode></addr>
      </providerOrganization>
    </patientRole>
  </recordTarget>
  <author>
    <time value="20240312104500-0500"/>
    <assignedAuthor>
      <id extension="5555555555" root="2.16.840.1.113883.4.6"/>
      <addr><streetAddressLine>1004 Healthcare Drive</streetAddressLine><city>Portland</city><state>OR</state><postalCode>99123</postalCode></addr>
      <telecom use="WP" value="tel:+1(555)555-1004"/>
      <assignedPerson><name><prefix>Dr.</prefix><given>Henry</given><family>Seven</family></name></assignedPerson>
    </assignedAuthor>
  </author>
  <custodian><assignedCustodian><representedCustodianOrganization>
    <id extension="99999999" root="2.16.840.1.113883.4.6"/>
    <name>Community Health and Hospitals</name>
    <telecom value="tel:+1(555)555-5000" use="WP"/>
  </representedCustodianOrganization></assignedCustodian></custodian>
  <legalAuthenticator><time value="20240312"/><signatureCode code="S"/>
    <assignedEntity><id extension="5555555555" root="2.16.840.1.113883.4.6"/>
      <assignedPerson><name><given>Henry</given><family>Seven</family></name></assignedPerson>
    </assignedEntity>
  </legalAuthenticator>
  <participant typeCode="IND"><associatedEntity classCode="NOK">
    <telecom value="tel:(555)555-9191"/>
    <associatedPerson><name><given>Adam</given><family>Everyman</family></name></associatedPerson>
  </associatedEntity></participant>
  <componentOf><encompassingEncounter>
    <id extension="9937012" root="2.16.840.1.113883.19"/>
    <effectiveTime><low value="20240301"/><high value="20240305"/></effectiveTime>
  </encompassingEncounter></componentOf>
</ClinicalDocument>"#;

    #[test]
    fn ccd_header_patient_guardian_go_staff_stay() {
        let r = clinic();
        let spans = redacted(&r, CCD);
        for v in [
            "998991",
            "111-00-2330",
            "1357 Amber Drive",
            "97867",
            "+1(555)555-2003",
            "eve.everywoman@example.com",
            "Eve",
            "Marie",
            "Everywoman",
            "19750501",
            "2222 Home Street",
            "+1(555)555-2008",
            "Boris",
            "Betterhalf",
            "(555)555-9191",
            "Adam",
            "Everyman",
            "9937012",
            "20240301",
            "20240305",
            "20240312",
        ] {
            assert!(
                spans.iter().any(|s| s.contains(v)),
                "{v} not redacted: {spans:?}"
            );
        }
        assert!(spans.iter().filter(|s| *s == "Beaverton").count() >= 2);
        for v in [
            "2015-08-01",
            "TT988",
            "34133-9",
            "2.16.840",
            "Mrs.",
            "OR",
            "US",
            "219BX",
            "5555555555",
            "99999999",
            "Good Health",
            "1001 Village",
            "1004 Healthcare",
            "Portland",
            "99123",
            "555-5000",
            "555-1004",
            "Henry",
            "Seven",
            "Community Health",
            "POWATT",
        ] {
            assert!(
                !spans.iter().any(|s| s.contains(v)),
                "{v} redacted: {spans:?}"
            );
        }
    }

    #[test]
    fn hl7_v3_query_parameters() {
        let r = clinic();
        // A patient query (PRPA_IN201305UV02): each parameter's `<value>` is the patient's;
        // an id under the SSN's root is an SSN.
        let q = r#"<queryByParameter><parameterList><livingSubjectName><value><given>Oona</given><family>Lindgren</family></value></livingSubjectName><livingSubjectBirthTime><value value="19480217"/></livingSubjectBirthTime><livingSubjectId><value root="2.16.840.1.113883.4.1" extension="219094433"/></livingSubjectId><livingSubjectId><value root="1.2.840.114350" extension="E77120"/></livingSubjectId><patientAddress><value><streetAddressLine>12 Harrow Ln</streetAddressLine><city>Keswick</city></value></patientAddress><patientTelecom><value value="tel:+1-802-555-0147"/></patientTelecom></parameterList></queryByParameter>"#;
        let spans = redacted(&r, q);
        for v in [
            "Oona",
            "Lindgren",
            "19480217",
            "219094433",
            "E77120",
            "12 Harrow Ln",
            "Keswick",
            "802-555-0147",
        ] {
            assert!(
                spans.iter().any(|s| s.contains(v)),
                "{v} not redacted: {spans:?}"
            );
        }
        assert!(!spans.iter().any(|s| s.contains("114350")), "{spans:?}");
    }

    #[test]
    fn fragment_on_one_line_and_cut() {
        let r = clinic();
        // Folded onto one line with a namespace prefix, cut before its end.
        let frag = r#"see below <cda:patient><cda:name><cda:given>Tomasz</cda:given><cda:family>Wiśniewski</cda:family></cda:name><cda:birthTime value="196803"/><cda:guardian><cda:addr><cda:city>Nowa Sól"#;
        let spans = redacted(&r, frag);
        for v in ["Tomasz", "Wiśniewski", "196803", "Nowa Sól"] {
            assert!(
                spans.iter().any(|s| s.contains(v)),
                "{v} not redacted: {spans:?}"
            );
        }
        // A product's name is no one's; a kept name stays even in the patient's block.
        let meds = r#"<manufacturedProduct><manufacturedMaterial><name>Amoxicillin Clavulanate</name></manufacturedMaterial></manufacturedProduct><patient><name><given>Priya</given><family>Raman</family></name></patient>"#;
        let spans = redacted(&r, meds);
        assert!(spans.is_empty(), "{spans:?}");
        let flat = r#"<guardian><addr use="HP">40 Quarry Rd, Apt 2, Barre</addr></guardian>"#;
        assert!(redacted(&r, flat).iter().any(|s| s.contains("Quarry")));
        // A coverage participant (the covered party, by its role's class) and a service
        // delivery location (the practice's).
        let cov = r#"<participant typeCode="COV"><participantRole classCode="PAT"><id root="4ff51570-83a9-47b7-91f2-93ba30373141" extension="M229911003"/><addr><streetAddressLine>9 Elm Ct</streetAddressLine><city>Dover</city></addr><playingEntity><name><given>Rui</given><family>Costa</family></name></playingEntity></participantRole></participant><participant typeCode="LOC"><participantRole classCode="SDLOC"><addr><streetAddressLine>17 Daws Rd.</streetAddressLine><city>Blue Bell</city></addr></participantRole></participant>"#;
        let spans = redacted(&r, cov);
        for v in ["M229911003", "9 Elm Ct", "Dover", "Rui", "Costa"] {
            assert!(
                spans.iter().any(|s| s.contains(v)),
                "{v} not redacted: {spans:?}"
            );
        }
        assert!(
            !spans
                .iter()
                .any(|s| s.contains("Daws") || s.contains("Blue Bell")),
            "{spans:?}"
        );
    }

    #[test]
    fn mail_markup_reads_as_blanks_and_breaks() {
        let r = super::super::Redactor::new(&super::super::RedactorConfig::default()).unwrap();
        let text = "<div>My new address is 41 Juniper Hollow Rd,&nbsp;Bemidji 56601<br>cell&nbsp;(218) 555-0143</div><table><tr><td>Account</td><td>44-1902-7731</td></tr></table>";
        let found: Vec<&str> = r
            .find(text)
            .unwrap()
            .iter()
            .map(|s| &text[s.start..s.end])
            .collect();
        for v in ["Bemidji", "56601", "555-0143", "44-1902-7731"] {
            assert!(found.iter().any(|s| s.contains(v)), "{v}: {found:?}");
        }
        // Same length, and an XML document's own tags stay.
        let x = "<given>Ada</given>&amp;<br/>";
        let b = super::html_blanked(x).unwrap();
        assert_eq!(b.len(), x.len());
        assert!(b.starts_with("<given>Ada</given>&    \n"));
        assert_eq!(super::html_blanked("<given>Ada</given>"), None);
    }
}
