//! Names found word by word with the lexicon (`lexicon.rs`), the way Philter fails closed but
//! with a dictionary so precision holds:
//!
//! - **Name positions.** After a cue (a title, "pt", "caller", a kin word, a greeting, a
//!   closing, a signature line) a word is a name unless the dictionary knows it as a common
//!   word that is not also a name; an unknown word is a name. Up to four words are taken.
//! - **Registry and HL7 orders** anywhere: `LAST, FIRST` and `LAST^FIRST`, in any case, when
//!   the lexicon backs one side and neither side is a plain word.
//! - **Pairs in lower case** ("rajesh patel"): a known name next to a word the dictionary does
//!   not know.
//! - **Known names alone** ("Soledad", "PRIYA", "okafor"... ) when the lexicon has them and the
//!   dictionary does not (so "Grace", "Will", "Rose" alone stay words).
//!
//! Words are runs of letters, so `_`, `^`, `|`, `/`, `.` and digits all end a word
//! (`Margaret_Okafor_123` has the words "Margaret" and "Okafor").

use super::keep::KeepList;
use super::lexicon::{CHAT_CUES, CUES, LEXICON, TITLES, WordInfo};
use super::words::{ABBREVIATIONS, STATES, TITLE_CASE_TERMS, not_a_name};
use super::{Kind, Span};

/// Rank of these candidates: with the other cue-based name rules.
const PRIO: u8 = 31;

/// At most this many words make one name.
const MAX_WORDS: usize = 4;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Shape {
    Lower,
    Title,
    Caps,
    /// "iPhone", "eGFR": never a name.
    Mixed,
}

#[derive(Debug, Clone, Copy)]
struct Tok<'a> {
    start: usize,
    end: usize,
    w: &'a str,
    shape: Shape,
    info: WordInfo,
    /// A contraction ("don't", "I'm"): never a name.
    contraction: bool,
}

impl Tok<'_> {
    fn letters(&self) -> usize {
        self.w.chars().filter(|c| c.is_alphabetic()).count()
    }

    fn key(&self) -> String {
        self.w.to_lowercase()
    }

    /// Never part of a name, in any position.
    fn blocked(&self) -> bool {
        if self.contraction || self.shape == Shape::Mixed || self.info.stop || self.letters() < 2 {
            return true;
        }
        if not_a_name(self.w) {
            return true;
        }
        let title = title_case(self.w);
        if TITLE_CASE_TERMS.contains(&title.as_str()) && !self.info.known_name() {
            return true;
        }
        // An acronym has no vowel ("LLM", "CVS"); a short name in capitals has ("IWU").
        self.shape == Shape::Caps
            && (ABBREVIATIONS.contains(&self.w)
                || self.letters() < 3
                || (self.letters() <= 4
                    && !self
                        .w
                        .chars()
                        .any(|c| "AEIOUY".contains(c) || !c.is_ascii())))
    }

    /// A name wherever it stands: known to the lexicon, unknown to the dictionary.
    fn lone(&self) -> bool {
        // The cheap look-ups first: most words are common ones.
        if self.info.common || self.info.stop || !self.info.known_name() {
            return false;
        }
        let letters = self.letters();
        let shaped = match self.shape {
            Shape::Title | Shape::Caps => letters >= 3,
            // Lower case alone: no three-letter ones ("min", "tom"); a surname from five
            // letters ("vargas", "nakamura": no common word, so a chat's name).
            Shape::Lower => {
                (self.info.first && letters >= 4)
                    || (self.info.sur && letters >= 5 && !self.w.contains('-'))
            }
            Shape::Mixed => false,
        };
        shaped && !self.blocked()
    }

    /// A name in a name position (right after a cue): fail closed.
    fn in_position(&self, after_title: bool) -> bool {
        self.in_position_after(after_title, false)
    }

    /// [`Tok::in_position`]; after a kin word or a title (`personal`) a short unknown word in
    /// lower case is a name too ("my husband yui", "caller iwu"), where after "pt" it is an
    /// abbreviation ("pt bmi 32").
    fn in_position_after(&self, after_title: bool, personal: bool) -> bool {
        if self.blocked() {
            return false;
        }
        if !self.info.common {
            // An unknown short word in lower case is an abbreviation ("soc. sec.").
            return self.shape != Shape::Lower
                || self.info.known_name()
                || self.letters() > 3
                || (personal
                    && self.letters() == 3
                    && !ABBREVIATIONS.contains(&self.w.to_uppercase().as_str()));
        }
        match self.shape {
            Shape::Lower => self.info.first || (after_title && self.info.sur),
            Shape::Title | Shape::Caps => self.info.first || (after_title && self.info.sur),
            Shape::Mixed => false,
        }
    }

    /// The first word of a name that a person predicate follows ("Olu prefers", "IWU seen
    /// today", "rose asked"): a word the dictionary does not know, or a first name that is
    /// also a word when the verb is one only people do (`strong`).
    fn subject(&self, strong: bool) -> bool {
        if self.blocked() {
            return false;
        }
        if !self.info.common {
            return match self.shape {
                Shape::Lower | Shape::Title => self.letters() >= 3,
                // An acronym has no vowel ("LLM calls", "CVS called"); "IWU seen" has.
                Shape::Caps => {
                    self.letters() >= 3
                        && self
                            .w
                            .chars()
                            .any(|c| matches!(c.to_ascii_uppercase(), 'A' | 'E' | 'I' | 'O' | 'U'))
                }
                Shape::Mixed => false,
            };
        }
        strong && self.info.first && self.shape != Shape::Mixed
    }

    /// The next word of a name already started.
    fn continues(&self) -> bool {
        if self.blocked() {
            // An eponym's word that is a surname ("April Bell", "Maria Foley").
            return self.shape == Shape::Title && eponym_surname(self);
        }
        if !self.info.common {
            return true;
        }
        match self.shape {
            Shape::Lower => false,
            Shape::Title | Shape::Caps => self.info.known_name(),
            Shape::Mixed => false,
        }
    }
}

fn title_case(w: &str) -> String {
    let mut cs = w.chars();
    cs.next()
        .into_iter()
        .flat_map(char::to_uppercase)
        .chain(cs.flat_map(char::to_lowercase))
        .collect()
}

fn shape_of(w: &str) -> Shape {
    // "al-Hakim", "el-Sayed", "ter-Haar": a lower-case particle and a capitalised name.
    if let Some((p, rest)) = w.split_once('-')
        && matches!(
            p,
            "al" | "el"
                | "bin"
                | "ibn"
                | "abu"
                | "ter"
                | "van"
                | "de"
                | "da"
                | "di"
                | "du"
                | "le"
                | "la"
        )
        && rest.starts_with(char::is_uppercase)
    {
        return shape_of(rest);
    }
    // A product's name: camel case ("ResMed", "MyChart") or a hyphen between a part in
    // capitals and a part in small letters ("CADD-Solis"); a name's parts share a case
    // ("Jean-Baptiste", "AL-MASRI").
    if super::names::camel_brand(w) {
        return Shape::Mixed;
    }
    if let Some((a, b)) = w.split_once('-') {
        let caps = |p: &str| {
            p.chars().filter(|c| c.is_alphabetic()).count() >= 2
                && !p.chars().any(char::is_lowercase)
        };
        let small = |p: &str| p.chars().any(char::is_lowercase);
        if (caps(a) && small(b)) || (small(a) && caps(b)) {
            return Shape::Mixed;
        }
    }
    // Letters without a case (the Hawaiian ʻokina of "Kaʻanapu", "KEʻALOHILANI") say nothing
    // of the word's shape.
    let mut letters = w
        .chars()
        .filter(|c| c.is_alphabetic() && (c.is_lowercase() || c.is_uppercase()));
    let Some(first) = letters.next() else {
        return Shape::Mixed;
    };
    let rest: Vec<char> = letters.collect();
    if first.is_lowercase() {
        return if rest.iter().all(|c| c.is_lowercase()) {
            Shape::Lower
        } else {
            Shape::Mixed
        };
    }
    if rest.iter().all(|c| c.is_uppercase()) && !rest.is_empty() {
        return Shape::Caps;
    }
    // "McDonald", "O'Brien", "DeShawn": an upper-case letter inside is fine after the first.
    if rest.iter().any(|c| c.is_lowercase()) {
        Shape::Title
    } else {
        Shape::Mixed
    }
}

fn is_joiner(c: char) -> bool {
    matches!(c, '\'' | '’' | '-')
}

/// The words of `text`: runs of letters, with an apostrophe or hyphen inside ("O'Brien",
/// "ANA-MARIA"); a possessive's "'s" is left out of the word.
fn tokens(text: &str) -> Vec<Tok<'_>> {
    let mut out = Vec::new();
    let mut it = text.char_indices().peekable();
    while let Some((i, c)) = it.next() {
        if !c.is_alphabetic() {
            continue;
        }
        // Dutch "van 't Hof": the apostrophe belongs to the particle "'t".
        let start = if matches!(c, 't' | 'T')
            && text[..i].ends_with(['\'', '’'])
            && text[..i]
                .trim_end_matches(['\'', '’'])
                .ends_with([' ', '\t'])
            && text[i + 1..].starts_with([' ', '\t'])
        {
            i - text[..i].chars().next_back().map_or(0, char::len_utf8)
        } else {
            i
        };
        let mut end = i + c.len_utf8();
        while let Some(&(j, d)) = it.peek() {
            // A combining accent belongs to the letter before it: Yoruba's tone marks over a
            // dotted vowel have no precomposed form ("Adébáyọ̀", "Abíọ́dún").
            if d.is_alphabetic() || ('\u{300}'..='\u{36f}').contains(&d) {
                end = j + d.len_utf8();
                it.next();
            } else if is_joiner(d)
                && text[j + d.len_utf8()..]
                    .chars()
                    .next()
                    .is_some_and(char::is_alphabetic)
            {
                it.next();
            } else {
                break;
            }
        }
        let mut w = &text[start..end];
        let mut contraction = false;
        if start < i {
            // The particle "'t": no contraction, no possessive.
        } else if let Some(at) = w.rfind(['\'', '’']) {
            let tail = &w[at..];
            let suffix: String = tail.chars().skip(1).collect::<String>().to_lowercase();
            match suffix.as_str() {
                "s" => w = &w[..at],
                "t" | "m" | "re" | "ve" | "ll" | "d" => contraction = true,
                _ => {}
            }
        }
        // A ZPL label's field data glued to its command ("^FDDE GROOT,ANA^FS"): a word in
        // capitals starts after "^FD" ("^FDColl:" stays one word).
        let start = if text[..start].ends_with('^')
            && w.len() > 3
            && w.starts_with("FD")
            && !w.chars().any(char::is_lowercase)
        {
            w = &w[2..];
            start + 2
        } else {
            start
        };
        let end = start + w.len();
        let shape = shape_of(w);
        let mut info = LEXICON.info(w);
        // A capitalised given name of short parts joined by a hyphen ("Sung-min", "Jae-won")
        // is a name even when each part is an English word; an English compound has a
        // longer part ("Follow-up", "Check-in" stays: "check" has five letters).
        if info.common
            && shape == Shape::Title
            && w.contains('-')
            && !w
                .split('-')
                .next()
                .is_some_and(|p| p.chars().all(char::is_uppercase))
            && w.split('-').count() == 2
            && !w.split('-').next().is_some_and(|p| {
                matches!(
                    p.to_lowercase().as_str(),
                    "co" | "pre"
                        | "re"
                        | "non"
                        | "post"
                        | "self"
                        | "anti"
                        | "sub"
                        | "de"
                        | "un"
                        | "ex"
                        | "mid"
                        | "semi"
                        | "tri"
                        | "bi"
                        | "mini"
                        | "multi"
                        | "over"
                        | "out"
                        | "off"
                        | "up"
                        | "in"
                        | "on"
                        | "by"
                )
            })
            && w.split('-').all(|p| (2..=4).contains(&p.chars().count()))
            && w.split('-')
                .nth(1)
                .is_some_and(|p| p.starts_with(char::is_lowercase))
            && !LEXICON.is_common_whole(w)
            // Both parts English words: a compound ("Long-term", "Walk-in"), not "Sung-min".
            && !w.split('-').all(|p| LEXICON.info(p).common)
        {
            info.common = false;
        }
        out.push(Tok {
            start,
            end,
            w,
            shape,
            info,
            contraction,
        });
    }
    out
}

/// Extensions of the files scanners, fax servers and exports name after a patient.
const FILE_EXTENSIONS: &[&str] = &[
    "pdf", "tif", "tiff", "jpg", "jpeg", "png", "heic", "gif", "bmp", "doc", "docx", "dcm", "txt",
    "csv", "xls", "xlsx", "rtf", "eml", "msg", "zip", "hl7", "xml", "json", "odt",
];

/// Words of file names that are no one's name, beyond the dictionary's.
const FILE_WORDS: &[&str] = &[
    "img", "dsc", "pxl", "cxr", "ekg", "ecg", "mri", "polst", "molst", "ins", "dob", "mrn", "ssn",
    "pt", "rx", "dx", "hx", "misc", "scan", "scanned", "fax", "rpt", "dcm", "heic", "docx", "xlsx",
    "pdf", "tif", "jpg", "png", "doc", "txt", "csv", "hipaa", "dnr", "id", "cv", "ct", "us", "xr",
    "ed", "er", "icu", "lab", "labs", "pcp", "ref", "req", "echo", "copy", "final",
    // billing and language codes in exports' names ("EOB_4XU3MJ6HT41_Pham.pdf",
    // "Holter_instructions_ENG-SPA.pdf", "CPT_2025_fee_schedule.pdf")
    "eob", "cpt", "icd", "hcpcs", "eng", "spa", "esp", "fra", "vie", "kor", "rus", "chi",
];

/// Where a word glued in camel case starts at byte `k` of `w` (`w[k]` a capital): after a
/// small letter ("BaoOkonjo"; not after "Mc"/"Mac": "McGillicuddy") or as the last capital of
/// a run before a small letter ("MRNOkonjo").
fn camel_cut(w: &str, k: usize) -> bool {
    let b = w.as_bytes();
    if k == 0 || k >= b.len() || !b[k].is_ascii_uppercase() {
        return false;
    }
    let head = &w[..k];
    // "McGillicuddy", "NgocMacDonald": no cut after the prefix.
    if let Some(h) = head.strip_suffix("Mc").or_else(|| head.strip_suffix("Mac"))
        && h.chars().next_back().is_none_or(|c| !c.is_uppercase())
    {
        return false;
    }
    let prev = head.chars().next_back();
    if prev.is_some_and(char::is_lowercase) {
        return true;
    }
    // The last capital of a run of two or more: where the run's word starts is looked for only
    // here (a scan back per letter would make a long stem quadratic).
    prev.is_some_and(char::is_uppercase)
        && w[k + 1..].chars().next().is_some_and(char::is_lowercase)
        && k - head
            .char_indices()
            .rev()
            .find(|&(_, c)| !c.is_alphabetic())
            .map_or(0, |(p, c)| p + c.len_utf8())
            >= 2
}

/// A file stem cut as `split_inclusive` on every non-letter would, and also where a word
/// glued in camel case starts.
fn file_parts(stem: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut from = 0;
    for (k, c) in stem.char_indices() {
        if c.is_alphabetic() {
            if camel_cut(stem, k) && k > from {
                out.push(&stem[from..k]);
                from = k;
            }
        } else {
            let end = k + c.len_utf8();
            out.push(&stem[from..end]);
            from = end;
        }
    }
    if from < stem.len() {
        out.push(&stem[from..]);
    }
    out
}

/// A name glued in camel case, as subjects and exports write one ("pt RustyKealoha
/// callback", "NgocMcGillicuddy"): two or three capitalised words of three letters or more,
/// each a name or a word no dictionary knows, one of them a name.
fn camel_name(w: &str) -> bool {
    if !w.is_ascii() && !w.chars().all(char::is_alphabetic) {
        return false;
    }
    let mut pieces = Vec::new();
    let mut from = 0;
    for (k, _) in w.char_indices() {
        if camel_cut(w, k) {
            pieces.push(&w[from..k]);
            from = k;
        }
    }
    pieces.push(&w[from..]);
    // Two words: three glued are a company's ("GlaxoSmithKline").
    pieces.len() == 2
        && pieces.iter().all(|p| {
            let info = LEXICON.info(p);
            // "McGillicuddy": its capital after the prefix.
            let body = p
                .strip_prefix("Mc")
                .or_else(|| p.strip_prefix("Mac"))
                .filter(|b| b.starts_with(char::is_uppercase))
                .unwrap_or(p);
            let mut cs = body.chars();
            cs.next().is_some_and(char::is_uppercase)
                && p.chars().count() >= 3
                && cs.all(char::is_lowercase)
                && !info.stop
                && (!info.common || info.known_name())
                && !FILE_WORDS.contains(&p.to_lowercase().as_str())
        })
        // Two words no dictionary knows and no lexicon either are a brand's as often, unless
        // long.
        && (pieces.iter().any(|p| LEXICON.info(p).known_name())
            || pieces.iter().all(|p| p.chars().count() >= 4))
}

/// File names of scans and exports ("CXR_HRYTSENKO.O_9231024.dcm",
/// "scan_20240603_oleksandr.hrytsenko_ins_card.jpg"): there a word the dictionary does not
/// know is a name (fail closed), with an initial glued to one.
fn file_names(text: &str, keep: &KeepList, cands: &mut Vec<(Span, u8)>) {
    let mut at = 0;
    for chunk in text.split_inclusive(|c: char| c.is_whitespace() || "\"'()[]<>,;".contains(c)) {
        let start = at;
        at += chunk.len();
        let name = chunk.trim_end_matches(|c: char| c.is_whitespace() || "\"'()[]<>,;".contains(c));
        let Some((stem, ext)) = name.rsplit_once('.') else {
            continue;
        };
        if !FILE_EXTENSIONS.contains(&ext.to_ascii_lowercase().as_str()) {
            continue;
        }
        let parts = file_parts(stem);
        // Words apart by marks or glued in camel case ("LabsForOkonjoMRN6699305.xlsx").
        if !stem.contains(['_', '-', '.']) && parts.len() < 3 {
            continue;
        }
        // The stem's words (runs of letters) and whether each is a name.
        let mut words: Vec<(usize, usize, bool)> = Vec::new();
        let mut particles: Vec<usize> = Vec::new();
        let mut i = 0;
        for part in parts {
            let w = part.trim_end_matches(|c: char| !c.is_alphabetic());
            let (s, e) = (start + i, start + i + w.len());
            i += part.len();
            if w.is_empty() {
                continue;
            }
            let lower = w.to_lowercase();
            let info = LEXICON.info(w);
            let letters = w.chars().count();
            let named = letters >= 3
                && !info.stop
                && !FILE_WORDS.contains(&lower.as_str())
                && !ABBREVIATIONS.contains(&w.to_uppercase().as_str())
                && !info.common;
            // "GILL.A_00436898": a word in capitals with an initial glued by a dot is a
            // surname, whatever the dictionary says.
            let rest = &stem[i.min(stem.len())..];
            let mut after = rest.chars();
            let initial_after = part.ends_with('.')
                && letters >= 2
                && w.chars().all(|c| !c.is_lowercase())
                && after.next().is_some_and(char::is_uppercase)
                && after.next().is_none_or(|c| !c.is_alphabetic());
            // "Li_46350024_20260420_heel.jpg", "RIVERS_48949964.pdf": a capitalised word
            // glued to a record number is the surname it is filed under, also a short one or
            // one that is also a word.
            let number_after = part.ends_with(['_', '-'])
                && rest.bytes().take_while(u8::is_ascii_digit).count() >= 6;
            let filed = number_after
                && letters >= 2
                && w.starts_with(char::is_uppercase)
                && (info.known_name() || !info.common);
            let named = named
                || (filed
                    && !info.stop
                    && !FILE_WORDS.contains(&lower.as_str())
                    && !ABBREVIATIONS.contains(&w.to_uppercase().as_str()))
                || (initial_after
                    && !info.stop
                    && !FILE_WORDS.contains(&lower.as_str())
                    && !ABBREVIATIONS.contains(&w.to_uppercase().as_str()));
            // A particle is joined to the name after it ("bin-rashid").
            let particle_word = matches!(
                lower.as_str(),
                "bin"
                    | "ibn"
                    | "al"
                    | "el"
                    | "van"
                    | "von"
                    | "de"
                    | "del"
                    | "da"
                    | "di"
                    | "la"
                    | "le"
            );
            words.push((s, e, named));
            if particle_word {
                particles.push(words.len() - 1);
            }
        }
        // A surname that is also a word ("brown", "baker", "hill") beside a name word or an
        // initial is named too: "scan-2026-06-23-brown-z-M477.tif", "referral_hill-spyridon".
        let n = words.len();
        let promote: Vec<usize> = (0..n)
            .filter(|&k| {
                let (s, e, named) = words[k];
                let w = &text[s..e];
                let beside = |j: usize| words[j].2 || words[j].1 - words[j].0 == 1;
                !named
                    && w.chars().count() >= 3
                    && LEXICON.info(w).sur
                    && !LEXICON.info(w).stop
                    && !FILE_WORDS.contains(&w.to_lowercase().as_str())
                    && ((k > 0 && beside(k - 1)) || (k + 1 < n && beside(k + 1)))
                    && (k > 0 && words[k - 1].2
                        || k + 1 < n && words[k + 1].2
                        || (k + 1 < n && words[k + 1].1 - words[k + 1].0 == 1))
            })
            .collect();
        for k in promote {
            words[k].2 = true;
        }
        // Initials beside a name are part of it; runs of name words are one name.
        let mut k = 0;
        while k < n {
            let is_initial = |j: usize| words[j].1 - words[j].0 == 1;
            if !words[k].2 {
                k += 1;
                continue;
            }
            let mut from = k;
            while from > 0
                && (words[from - 1].2 || is_initial(from - 1) || particles.contains(&(from - 1)))
            {
                from -= 1;
            }
            let mut to = k;
            while to + 1 < n && (words[to + 1].2 || is_initial(to + 1)) {
                to += 1;
            }
            let (s, e) = (words[from].0, words[to].1);
            if !keep.keeps(&text[s..e]) {
                cands.push((
                    Span {
                        kind: Kind::Person,
                        start: s,
                        end: e,
                    },
                    PRIO,
                ));
            }
            k = to + 1;
        }
    }
}

/// Labels of form fields whose value is a person's name, lower case with blanks and marks left
/// out (so an OCR'd "Pa tient Name" or "Resp onsibl e part y" reads as written).
const PERSON_FIELDS: &[&str] = &[
    "patient",
    "pt",
    "client",
    "resident",
    "member",
    "insured",
    "subscriber",
    "responsibleparty",
    "guarantor",
    "emergencycontact",
    "nextofkin",
    "nok",
    "poa",
    "guardian",
    "parentguardian",
    "caregiver",
    "policyholder",
    "signature",
    "signedby",
    // providers are redacted too (a provider's name narrows a patient down)
    "ordering",
    "orderingprovider",
    "orderingphysician",
    "referring",
    "referringprovider",
    "referringphysician",
    "attending",
    "attendingphysician",
    // school nurse logs, card authorisations
    "student",
    "cardholder",
    // whom a record is about outside a clinic chart: corrections, death certificates,
    // transplant and donor lists, appeals, court forms, NICU parent sheets
    "inmate",
    "detainee",
    "offender",
    "decedent",
    "deceased",
    "recipient",
    "donor",
    "beneficiary",
    "enrollee",
    "claimant",
    "appellant",
    "applicant",
    "petitioner",
    "respondent",
    "defendant",
    // whom an advance directive or a power of attorney names: the principal who signs it,
    // the health care agent or surrogate it appoints ("Agent:" alone is a chat's speaker)
    "principal",
    "healthcareagent",
    "attorneyinfact",
    "surrogate",
    "conservatee",
    "conservator",
    // a photo's or a document's metadata: whom the file names as its maker or owner (EXIF
    // "Artist", "Owner Name", a PDF's "Author")
    "artist",
    "author",
    "creator",
    "photographer",
    "owner",
    "infant",
    "newborn",
    "mother",
    "father",
    "parent",
    "parents",
    "informant",
    "spouse",
    // genetics pedigrees, VA consults, foster and school records
    "proband",
    "veteran",
    "child",
    // whom a form or a chat log is about: a DOT physical's driver, a MedWatch report's
    // patient identifier (initials), a web chat's visitor
    "driver",
    "patientidentifier",
    "patientinitials",
    "initials",
    "visitor",
    // whom contact tracing, partner notification, a collections note or a device claim is
    // about ("Index: IYER, Hlib", "Partner 2: Lorcan", "Wearer: …")
    "index",
    "indexcase",
    "indexpatient",
    "partner",
    "debtor",
    "wearer",
    // a workers' compensation report's injured worker
    "employee",
    "injuredworker",
    "injuredemployee",
    // whom a dispatch, a pickup list, a consent log, a witness page or an alarm call names:
    // the rider, the ride home, a legally authorised representative, a witness, a responder
    "rider",
    "passenger",
    "ride",
    "pickup",
    "escort",
    "lar",
    "witness",
    "responder",
    // a delivery's or a message's addressee ("To: Ana Ruiz, Room 4"); a mailbox or a
    // department is no name value
    "to",
    // a bed board's isolation line names whom it isolates ("Isolation: OKAFOR (C. diff)");
    // an organism or a precaution is no name value (see `form_fields`)
    "isolation",
];

/// What a field label ending in "name" names when it is no person: "Pharmacy name", "Plan
/// name", "User name".
const THING_NAMES: &[&str] = &[
    "pharmacy",
    "clinic",
    "practice",
    "facility",
    "hospital",
    "plan",
    "insurance",
    "insurer",
    "payer",
    "employer",
    "company",
    "business",
    "drug",
    "medication",
    "product",
    "brand",
    "file",
    "user",
    "host",
    "device",
    "program",
    "programme",
    "school",
    "street",
    "agency",
    "group",
    "test",
    "study",
    "template",
    "form",
    "document",
    "account",
    "display",
    "screen",
    "domain",
    "organization",
    "org",
];

/// Whether a form label (the text before its colon) is a person's name field.
fn person_label(label: &str) -> bool {
    // A bilingual form's label, one language each side of a slash ("Family name / Nom de
    // famille", "Given name(s) / Prénom(s)"): either side says it.
    if let Some((a, b)) = label.split_once('/')
        && !a.trim().is_empty()
        && !b.trim().is_empty()
        && (person_label(a.trim()) || person_label(b.trim()))
    {
        return true;
    }
    // The format hint in brackets goes: "Name (Last, First, MI)".
    let mut key = String::new();
    let mut depth = 0usize;
    for c in label.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            // OCR reads an "o" as a zero.
            '0' if depth == 0 => key.push('o'),
            c if depth == 0 && c.is_alphabetic() => key.extend(c.to_lowercase()),
            _ => {}
        }
    }
    // OCR reads an "m" as "rn" ("Patient Narne:").
    if let Some(head) = key.strip_suffix("narne") {
        key = format!("{head}name");
    }
    if PERSON_FIELDS.contains(&key.as_str()) {
        return true;
    }
    if let Some(head) = key.strip_suffix("name") {
        return !THING_NAMES.iter().any(|t| head.ends_with(t));
    }
    [
        "responsibleparty",
        "guarantor",
        "emergencycontact",
        "nextofkin",
        "guardian",
        "caregiver",
        "policyholder",
    ]
    .iter()
    .any(|f| key.ends_with(f))
}

/// The value of a field on one line: up to the line's end, a bar, a tab, a bracket, a wide
/// gap (three blanks) or a gap of two before the next label ("KALANI 0K0NKWO   Date of B
/// irth:"). OCR splits words with single and double blanks, so those stay inside.
fn field_value(rest: &str) -> &str {
    let mut end = rest.len();
    let b = rest.as_bytes();
    let mut k = 0;
    while k < b.len() {
        match b[k] {
            b'\n' | b'\r' | b'|' | b'\t' | b'(' | b';' | b'[' => {
                end = k;
                break;
            }
            // A dash between blanks closes the value ("summer iwu — 912.381.8894").
            // A comma before a number or a room closes the value ("Wren, 640-866-5841",
            // "ABERNETHY-LOWE, BIRDIE, Room 682"); a registry's comma stays inside.
            b',' if rest[k + 1..].starts_with(' ') && {
                let next = &rest[k + 2..];
                next.starts_with(|c: char| c.is_ascii_digit() || c == '+')
                    || [
                        "Room ", "Rm ", "Bed ", "Unit ", "Apt ", "room ", "rm ", "bed ",
                    ]
                    .iter()
                    .any(|w| next.starts_with(w))
            } =>
            {
                end = k;
                break;
            }
            b' ' if rest[k + 1..].starts_with("— ")
                || rest[k + 1..].starts_with("– ")
                || rest[k + 1..].starts_with("- ") =>
            {
                end = k;
                break;
            }
            b' ' => {
                let run = b[k..].iter().take_while(|&&c| c == b' ').count();
                if run >= 3 {
                    end = k;
                    break;
                }
                if run == 2 {
                    let next = &rest[k + run..];
                    let seg_end = next.find("  ").unwrap_or(next.len());
                    let seg = &next[..seg_end];
                    let seg = &seg[..seg.find(['\n', '\r']).unwrap_or(seg.len())];
                    // The next field's label: "Inmate: O. Okonkwo  Booking # 25125053", or
                    // one without a colon before its number: "Rider: Ann Lee  DOB 1/2/50",
                    // "Patient: Ann Lee  MRN 12345".
                    let mut ws = seg.split(' ');
                    let unlabelled = ws
                        .next()
                        .is_some_and(|w| !w.is_empty() && w.chars().all(char::is_alphabetic))
                        && ws.any(|w| w.starts_with(|c: char| c.is_ascii_digit()));
                    if seg.contains([':', '#', '=']) || unlabelled {
                        end = k;
                        break;
                    }
                }
                k += run;
                continue;
            }
            _ => {}
        }
        k += 1;
    }
    let mut v = rest[..end].trim_end_matches([' ', ',', '.', '-']);
    // A credential ends the name, and what follows it is a department ("Anneliese Brandt,
    // MD, Endocrinology").
    const CREDENTIALS: &[&str] = &[
        "MD", "DO", "RN", "NP", "PA-C", "PA", "DDS", "PhD", "LCSW", "MSW", "PT", "LPN", "FNP",
        "Au.D", "AuD", "Ph.D", "PharmD", "Pharm.D", "PsyD", "Psy.D", "DPM", "OD", "DNP",
    ];
    if let Some(at) = v.match_indices(", ").map(|(k, _)| k).find(|&k| {
        let r = &v[k + 2..];
        CREDENTIALS.iter().any(|c| {
            r.strip_prefix(c)
                .is_some_and(|t| t.is_empty() || t.starts_with([',', ' ', '.']))
        })
    }) {
        v = &v[..at];
    }
    // A credential after the name is not the name ("XU, DARNELL MD").
    for c in [" MD", " DO", " RN", " NP", " PA-C", " PA", " DDS", " PhD"] {
        if let Some(h) = v.strip_suffix(c) {
            return h.trim_end_matches([' ', ',']);
        }
    }
    v
}

/// Whether a field's value reads as a name: words of letters (OCR's 0 and 1 inside them
/// allowed), at least one of them no plain dictionary word, none a function word ("see
/// above", "on file") or a word never in a name.
fn field_name_value(v: &str) -> bool {
    // An HL7-style "FAMILY^GIVEN" typed into a report's field ("PATIENT: KAUR^SAVITRI").
    let words: Vec<&str> = v
        .split(|c: char| c.is_whitespace() || c == '^')
        .filter(|w| !w.is_empty())
        .collect();
    if words.is_empty() || words.len() > 7 || v.chars().filter(|c| c.is_alphabetic()).count() < 2 {
        return false;
    }
    // A name typed in lower case in its field, every word a name the lexicon knows, also
    // those that are words too ("Student: tariq sterling", "Full name: rose fox"): a given
    // name (or a word the dictionary does not know), then a surname.
    if (2..=3).contains(&words.len())
        && words.iter().all(|w| {
            w.chars().all(|c| c.is_lowercase()) && w.chars().count() >= 3 && !LEXICON.info(w).stop
        })
        && (LEXICON.info(words[0]).first
            || !LEXICON.info(words[0]).common
            // "ride: wren vasilescu": a word-name before a surname no dictionary holds
            || !LEXICON.info(words[words.len() - 1]).common)
        && (LEXICON.info(words[words.len() - 1]).sur
            || !LEXICON.info(words[words.len() - 1]).common
                && words[words.len() - 1].chars().count() >= 4)
    {
        return true;
    }
    let mut named = false;
    for (k, w) in words.iter().enumerate() {
        let bare = w.trim_end_matches([',', '.']);
        if bare.is_empty()
            || !bare.chars().all(|c| {
                c.is_alphabetic()
                    // a tone mark over a dotted vowel ("Adébáyọ̀")
                    || ('\u{300}'..='\u{36f}').contains(&c)
                    || matches!(c, '0' | '1' | '-' | '\'' | '’' | '.' | '"' | '“' | '”')
            })
            || !bare.chars().any(char::is_alphabetic) && bare.chars().count() > 1
        {
            return false;
        }
        let fixed: String = bare
            .chars()
            .map(|c| match c {
                '0' => 'o',
                '1' => 'l',
                c => c,
            })
            .collect();
        let info = LEXICON.info(&fixed);
        let lower = fixed
            .chars()
            .all(|c| !c.is_alphabetic() || c.is_lowercase());
        let part = particle_word(&fixed.to_lowercase());
        // A given name that is also a word stays a name capitalised here ("Will", "JUNE"),
        // and so do an initial and OCR's short pieces of a word ("EM RE H AL L").
        let word_name = info.first && !lower;
        let piece = !lower && fixed.chars().filter(|c| c.is_alphabetic()).count() <= 3;
        if (not_a_name(&fixed) || info.stop) && !part && !word_name && !piece {
            return false;
        }
        if part || fixed.chars().filter(|c| c.is_alphabetic()).count() < 3 {
            continue;
        }
        // In lower case a dictionary word rules the value out ("see above", "self"), but for
        // a given name that opens it ("summer iwu": a word the dictionary does not know
        // must follow).
        if lower && info.common && !(k == 0 && info.first && words.len() >= 2) {
            return false;
        }
        named |= !info.common || info.known_name();
    }
    named
        || words
            .iter()
            .all(|w| w.chars().filter(|c| c.is_alphabetic()).count() <= 2)
}

/// Form fields that hold a person's name ("Patient Name:", "Responsible party:", "Name (Last,
/// First, MI):", "Pt:"), also as OCR writes them: the whole value is the name, in any case,
/// whatever the dictionary says of its words ("HOPE STR0NG", "WILL LO NG").
fn form_fields(text: &str, keep: &KeepList, cands: &mut Vec<(Span, u8)>) {
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let base = line_start;
        line_start += line.len();
        let mut from = 0;
        while let Some(c) = line[from..].find(':') {
            let colon = from + c;
            from = colon + 1;
            // The label: back to the line's start or the gap before it. A label is short: the
            // look back is bounded (a one-line text has a colon every few words).
            let lb = line.ceil_char_boundary(colon.saturating_sub(256));
            let head = &line[lb..colon];
            // The label starts after the gap before it; OCR also splits a label with two
            // blanks ("Responsible  party"), so after a wider gap (or the line's start) too.
            // After a tab, a bar or a dash between blanks ("* Ann from 4B — ride: Bo Li").
            let bar = head
                .rfind(['\t', '|'])
                .map(|p| p + 1)
                .into_iter()
                .chain(head.rfind(" — ").map(|p| p + " — ".len()))
                .chain(head.rfind(" – ").map(|p| p + " – ".len()))
                .max()
                .unwrap_or(0);
            let near = head.rfind("  ").map_or(0, |p| p + 1).max(bar);
            let far = head.rfind("   ").map_or(0, |p| p + 1).max(bar);
            let is_label = |l: &str| {
                // A reStructuredText or AsciiDoc field opens with a colon (":patient: …").
                let l = l.strip_prefix(':').unwrap_or(l);
                !l.is_empty()
                    && l.len() <= 40
                    && l.chars().all(|c| {
                        c.is_alphabetic() || matches!(c, ' ' | '(' | ')' | ',' | '/' | '\'' | '0')
                    })
                    && person_label(l)
            };
            // A label numbered after its word: "Witness 1:", "Responder 2:".
            let numbered_after = |l: &str| {
                let t = l.trim_end_matches(|c: char| c.is_ascii_digit());
                t.len() < l.len() && is_label(t.trim())
            };
            // A form's name split in fields on one line, "Last name: X   First: Y   MI: Z":
            // after the surname's label, "First" and "MI" alone name the same person.
            let part_label = head[near..].trim();
            let split_name = matches!(
                part_label,
                "First" | "FIRST" | "Given" | "MI" | "M.I." | "Middle" | "Middle initial"
            ) && {
                let before = line[..lb + near].to_ascii_lowercase();
                ["last name:", "surname:", "family name:", "last:"]
                    .iter()
                    .any(|l| before.contains(l))
            };
            // A web form's fields one a line, in any order: a middle initial's own line in a
            // form that asks for a name elsewhere ("First Name: Faith\nMI: Q"). A lone "MI:"
            // elsewhere is a history's myocardial infarction ("MI: N").
            let initial_line = !split_name
                && matches!(
                    part_label,
                    "MI" | "M.I." | "Middle initial" | "Middle Initial"
                )
                && line[..lb + near].trim().is_empty()
                && {
                    let r = line[colon + 1..].trim();
                    r.len() == 1 && r.bytes().all(|b| b.is_ascii_uppercase())
                }
                && {
                    let lower = text.to_ascii_lowercase();
                    ["first name:", "last name:", "given name:", "surname:"]
                        .iter()
                        .any(|l| lower.contains(l))
                };
            let split_name = split_name || initial_line;
            if !split_name
                && !is_label(head[near..].trim())
                && !is_label(head[far..].trim())
                && !numbered_label(&head[far..]).is_some_and(is_label)
                && !numbered_after(head[near..].trim())
            {
                continue;
            }
            let rest = &line[colon + 1..];
            let lead = rest.len() - rest.trim_start_matches([' ', '\t']).len();
            if rest[lead..].starts_with(['\t']) {
                continue;
            }
            let v = field_value(&rest[lead..]);
            // The middle initial alone: one capital.
            if split_name && v.len() == 1 && v.bytes().all(|b| b.is_ascii_uppercase()) {
                let s = base + colon + 1 + lead;
                cands.push((
                    Span {
                        kind: Kind::Person,
                        start: s,
                        end: s + 1,
                    },
                    PRIO,
                ));
                continue;
            }
            // Staff keep their name also with a department after it ("Dr. Anneliese Brandt,
            // Physical Therapy").
            let head = v.split(", ").next().unwrap_or(v);
            if v.is_empty() || !field_name_value(v) || keep.keeps(v) || keep.keeps(head) {
                continue;
            }
            // An isolation line's patient comes with the organism in brackets; the organism
            // or the precaution alone is no name ("Isolation: MRSA", "Isolation: COVID").
            if head_label_is(&line[..colon], "isolation")
                && (!rest[lead + v.len()..].starts_with(" (")
                    || v.split(' ')
                        .any(|w| ORGANISMS.contains(&w.to_lowercase().as_str())))
            {
                continue;
            }
            let s = base + colon + 1 + lead;
            cands.push((
                Span {
                    kind: Kind::Person,
                    start: s,
                    end: s + v.len(),
                },
                PRIO,
            ));
            from = colon + 1 + lead + v.len();
        }
    }
}

/// A printed form's fields set off by dot leaders instead of a colon ("Patient ........
/// Macaraeg, Marites", "Patient ........... Honor St. Pierre (Dependent)"): the value of a
/// person's label is read as `form_fields` reads it.
fn leader_fields(text: &str, keep: &KeepList, cands: &mut Vec<(Span, u8)>) {
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let base = line_start;
        line_start += line.len();
        let Some(dots) = line.find(" ....") else {
            continue;
        };
        let label = line[..dots].trim();
        if label.is_empty()
            || label.len() > 40
            || !label.chars().all(|c| c.is_alphabetic() || c == ' ')
            || !person_label(label)
        {
            continue;
        }
        let after = &line[dots + 1..];
        let rest = after.trim_start_matches('.');
        if !rest.starts_with(' ') {
            continue;
        }
        let lead = rest.len() - rest.trim_start_matches(' ').len();
        let v = field_value(&rest[lead..]);
        let head = v.split(", ").next().unwrap_or(v);
        if v.is_empty() || !field_name_value(v) || keep.keeps(v) || keep.keeps(head) {
            continue;
        }
        let s = base + line.len() - rest.len() + lead;
        cands.push((
            Span {
                kind: Kind::Person,
                start: s,
                end: s + v.len(),
            },
            PRIO,
        ));
    }
}

/// A mail header's display name before its own address ("To: Will Rose
/// <will.rose@icloud.com>", "export for Joy Lane <joylane@icloud.com>"): one to three
/// capitalised words, one of them spelled in the address's local part. A department's name
/// before a shared mailbox ("Billing <billing@…>") is left alone by that test, and staff
/// before a department's address ("Marisol Quintero <billing@…>") too.
fn display_names(text: &str, keep: &KeepList, cands: &mut Vec<(Span, u8)>) {
    for (lt, _) in text.match_indices(" <") {
        let r = &text[lt + 2..];
        let Some(close) = r.find('>') else {
            continue;
        };
        let addr = &r[..close];
        let Some((local, _)) = addr.split_once('@') else {
            continue;
        };
        if close > 80 || addr.contains([' ', '\n']) {
            continue;
        }
        let local = local.to_lowercase();
        let line = &text[super::line_start(text, lt)..lt];
        let mut s = lt;
        let mut words = 0;
        let mut spelled = false;
        for w in line.rsplit(' ') {
            let bare = w.trim_matches('"');
            if words == 3
                || bare.chars().count() < 2
                || !bare.starts_with(char::is_uppercase)
                || !bare
                    .chars()
                    .all(|c| c.is_alphabetic() || matches!(c, '-' | '\'' | '’' | '.'))
            {
                break;
            }
            let info = LEXICON.info(bare);
            // A given name that is also a word stays ("Will Rose").
            if info.stop && !info.first {
                break;
            }
            // Every word a name or no plain word: "Care Coordination <carecoord@…>" is a
            // department's.
            if info.common && !info.known_name() {
                words = 0;
                break;
            }
            let key = bare.to_lowercase();
            spelled |= key.chars().count() >= 3 && local.contains(&key);
            s -= w.len() + usize::from(s < lt);
            words += 1;
        }
        let v = text[s..lt].trim_matches('"');
        if words == 0 || !spelled || keep.keeps(v) {
            continue;
        }
        let s = s + text[s..lt].find(|c: char| c != '"').unwrap_or(0);
        cands.push((
            Span {
                kind: Kind::Person,
                start: s,
                end: s + v.len(),
            },
            PRIO,
        ));
    }
}

/// A court paper's caption: the party's name on its own line before its role ("TADHG PAGE,
/// Respondent.", "Ana Ruiz, Petitioner"): two to four capitalised words, whatever the
/// dictionary says of them.
fn captions(text: &str, cands: &mut Vec<(Span, u8)>) {
    const ROLES: &[&str] = &[
        "Respondent",
        "Petitioner",
        "Defendant",
        "Plaintiff",
        "Decedent",
        "Appellant",
        "Appellee",
        "Claimant",
        "Protected Person",
        "Ward",
        "RESPONDENT",
        "PETITIONER",
        "DEFENDANT",
        "PLAINTIFF",
    ];
    let mut line_start = 0;
    for line in text.split_inclusive('\n') {
        let base = line_start;
        line_start += line.len();
        let Some(comma) = line.find(", ") else {
            continue;
        };
        let role = line[comma + 2..].trim_end().trim_end_matches(['.', ',']);
        if !ROLES.contains(&role) {
            continue;
        }
        let v = line[..comma].trim_end();
        let lead = v.len() - v.trim_start().len();
        let words: Vec<&str> = v[lead..].split(' ').collect();
        if !(2..=4).contains(&words.len())
            || !words.iter().all(|w| {
                w.starts_with(char::is_uppercase)
                    && w.chars()
                        .all(|c| c.is_alphabetic() || matches!(c, '\'' | '’' | '-' | '.'))
                    && !LEXICON.info(w).stop
            })
        {
            continue;
        }
        cands.push((
            Span {
                kind: Kind::Person,
                start: base + lead,
                end: base + v.len(),
            },
            PRIO,
        ));
    }
}

/// Organisms and precautions an isolation line names, never a person.
const ORGANISMS: &[&str] = &[
    "mrsa",
    "vre",
    "esbl",
    "cre",
    "cdiff",
    "diff",
    "covid",
    "rsv",
    "tb",
    "flu",
    "influenza",
    "norovirus",
    "measles",
    "varicella",
    "mpox",
    "auris",
    "contact",
    "droplet",
    "airborne",
];

/// Whether the text before a colon ends in `label` as a word (any case).
fn head_label_is(head: &str, label: &str) -> bool {
    let h = head.trim_end();
    h.len() >= label.len()
        && h.is_char_boundary(h.len() - label.len())
        && h[h.len() - label.len()..].eq_ignore_ascii_case(label)
        && !h[..h.len() - label.len()].ends_with(|c: char| c.is_alphabetic())
}

/// The label of a numbered form item or a timed chat line, its number or time left out
/// ("Part 1. 1.a Family Name", "A1. Patient identifier", "16:47 Visitor"): the words after
/// the last one that holds a digit.
fn numbered_label(head: &str) -> Option<&str> {
    let head = head.trim_end();
    let at = head
        .split(' ')
        .scan(0usize, |pos, w| {
            let start = *pos;
            *pos += w.len() + 1;
            Some((start, w))
        })
        .filter(|(_, w)| w.contains(|c: char| c.is_ascii_digit()))
        .last()
        .map(|(start, w)| start + w.len())?;
    let label = head[at..].trim();
    (!label.is_empty()).then_some(label)
}

/// Names that head a line by the line's shape: a list's item about a person ("• Femke
/// Kaʻanapu — starting chemo", "• Mbali, who turns 92"), a board's row after its room ("Rm
/// 315 – kaʻiulani brightwater – no visitors"), and the line under a memorial's heading ("IN
/// MEMORIAM\nFAITH KEALOHA").
fn list_heads(text: &str, cands: &mut Vec<(Span, u8)>) {
    let mut base = 0;
    let mut memorial = false;
    for line in text.split_inclusive('\n') {
        let at = base;
        base += line.len();
        let body = line.trim_end();
        let after_memorial = std::mem::replace(&mut memorial, {
            let l = body.trim().to_lowercase();
            matches!(
                l.as_str(),
                "in memoriam" | "in loving memory" | "in loving memory of" | "obituary"
            ) || l.starts_with("celebrating the life of")
        });
        let lead = body.len() - body.trim_start().len();
        let rest = &body[lead..];
        let mut push = |s: usize, e: usize| {
            cands.push((
                Span {
                    kind: Kind::Person,
                    start: at + s,
                    end: at + e,
                },
                PRIO,
            ));
        };
        if after_memorial {
            let words: Vec<&str> = rest.split(' ').collect();
            if (2..=4).contains(&words.len())
                && words.iter().all(|w| {
                    let info = LEXICON.info(w);
                    w.chars()
                        .all(|c| c.is_alphabetic() || matches!(c, '-' | '\'' | '’'))
                        && (!info.stop || info.first || word_first_name_str(w))
                        && (!not_a_name(w) || word_first_name_str(w))
                })
                && words.iter().any(|w| shaped_name(&title_case(w)))
            {
                push(lead, body.len());
            }
            continue;
        }
        // A shelf tag or a bin label: "[R5] stone m — 2 bags", "[B2] abernethy-lowe t —":
        // a surname and its initial in lower case, as pharmacy and lab systems print them.
        if let Some(r) = rest
            .strip_prefix('[')
            .and_then(|r| r.split_once("] "))
            .filter(|(tag, _)| {
                tag.len() <= 8 && tag.chars().all(|c| c.is_ascii_alphanumeric() || c == '-')
            })
            .map(|(_, r)| r)
            && let Some((sur, tail)) = r.split_once(' ')
            && let Some(after) = tail.strip_prefix(|c: char| c.is_lowercase())
            && (after.starts_with(" — ") || after.starts_with(" – ") || after.starts_with(" - "))
            && sur.chars().filter(|c| c.is_alphabetic()).count() >= 3
            && sur
                .chars()
                .all(|c| c.is_lowercase() || matches!(c, '-' | '\'' | '’'))
            && !LEXICON.info(sur).stop
            && !not_a_name(sur)
        {
            let s = body.len() - r.len();
            push(s, s + sur.len() + 2);
            continue;
        }
        // The item's head: after a bullet, or after a room ("Rm 315 – ").
        let (head_at, room) = if let Some(r) = ["• ", "· ", "* ", "- ", "– "]
            .iter()
            .find_map(|b| rest.strip_prefix(b))
        {
            (body.len() - r.len(), false)
        } else {
            let lower = rest.to_lowercase();
            let Some(r) = ["rm ", "room ", "bed "]
                .iter()
                .find_map(|p| lower.strip_prefix(p))
            else {
                continue;
            };
            let num = r
                .find(|c: char| !c.is_ascii_alphanumeric())
                .unwrap_or(r.len());
            if num == 0 || !r.starts_with(|c: char| c.is_ascii_digit()) {
                continue;
            }
            let Some(r2) = ["– ", "— ", "- "]
                .iter()
                .find_map(|d| r[num..].trim_start_matches(' ').strip_prefix(d))
            else {
                continue;
            };
            (body.len() - r2.len(), true)
        };
        let item = &body[head_at..];
        // A pickup or transfer list's "who from where": "• Ann Lee from 4-58 — ride: …".
        let from_room = item
            .find(" from ")
            .filter(|&p| item[p + 6..].starts_with(|c: char| c.is_ascii_digit()));
        let (end, who) = match [" — ", " – ", " - ", ", who "]
            .iter()
            .filter_map(|d| item.find(d).map(|p| (p, *d == ", who ")))
            .chain(from_room.map(|p| (p, true)))
            .min()
        {
            Some(x) => x,
            None => continue,
        };
        let head = &item[..end];
        let words: Vec<&str> = head.split([' ', ',']).filter(|w| !w.is_empty()).collect();
        if words.is_empty() || words.len() > 4 {
            continue;
        }
        let particle_w = |w: &str| {
            matches!(
                w,
                "den"
                    | "ten"
                    | "ter"
                    | "VAN"
                    | "DEN"
                    | "DE"
                    | "DER"
                    | "de"
                    | "la"
                    | "del"
                    | "van"
                    | "von"
                    | "der"
                    | "du"
                    | "da"
                    | "le"
                    | "ibn"
                    | "bin"
                    | "al"
                    | "di"
                    | "dos"
                    | "Ó"
                    | "Ní"
                    | "Mac"
                    | "Mc"
                    | "St."
            )
        };
        let name_like = |w: &str| {
            let info = LEXICON.info(w);
            // A given name that is also a word, capitalised ("Will Summers", "Hope Ó …").
            let word_name =
                (info.first || word_first_name_str(w)) && w.starts_with(char::is_uppercase);
            w.chars()
                .all(|c| c.is_alphabetic() || matches!(c, '-' | '\'' | '’' | '.'))
                && (!info.stop || word_name)
                && (!not_a_name(w) || word_name)
                && (particle_w(w)
                    || shaped_name(w)
                    || word_name
                    || (room || w.chars().all(|c| !c.is_lowercase()))
                        && (info.known_name() || !info.common)
                        && w.chars().filter(|c| c.is_alphabetic()).count() >= 2)
        };
        // Before "from <room>" a name may be typed in lower case or be a word too ("* forrest
        // stone from 5-36", "* Honor Penhallow from 8B", "* B. Okafor from 9A"): no stop word,
        // one word at least a name or no dictionary word.
        let from_head = from_room == Some(end)
            && words.iter().all(|w| {
                let info = LEXICON.info(w.trim_end_matches('.'));
                let initial = w.len() == 2 && w.ends_with('.') && w.starts_with(char::is_uppercase);
                initial
                    || particle_w(&w.to_lowercase())
                    || w.chars()
                        .all(|c| c.is_alphabetic() || matches!(c, '-' | '\'' | '’'))
                        && !info.stop
                        && !not_a_name(w)
            })
            && words.iter().any(|w| {
                let info = LEXICON.info(w);
                w.len() > 2 && (info.known_name() || !info.common)
            });
        if !from_head
            && (!words.iter().all(|w| name_like(w)) || words.iter().all(|w| particle_w(w)))
        {
            continue;
        }
        // Without a room or "who", a known given name or two name words make it (a
        // medication list's "• Metformin — 500 mg" is no person's).
        let first = LEXICON.info(words[0]);
        let named = words.iter().filter(|w| !particle_w(w)).count();
        if !(room || who || first.first || named >= 2) {
            continue;
        }
        push(head_at, head_at + end);
    }
}

/// Relatives an obituary, a prayer list or a history lists after a plural kin word, each
/// with a spouse in brackets ("survived by her sons Emeka (Adaeze) and Paulo; grandchildren
/// Zara, Kwame and Liesl"), and a spouse after the years of a marriage ("his wife of 52
/// years, Dorota").
fn kin_lists(text: &str, toks: &[Tok<'_>], cands: &mut Vec<(Span, u8)>) {
    const PLURAL: &[&str] = &[
        "sons",
        "daughters",
        "children",
        "grandchildren",
        "grandsons",
        "granddaughters",
        "brothers",
        "sisters",
        "siblings",
        "nieces",
        "nephews",
        "stepchildren",
        "stepsons",
        "stepdaughters",
        "great-grandchildren",
        "cousins",
    ];
    const SPOUSE: &[&str] = &["wife", "husband", "partner", "companion"];
    let gap = |a: &Tok<'_>, b: &Tok<'_>| &text[a.end..b.start];
    let name_tok = |t: &Tok<'_>| {
        matches!(t.shape, Shape::Title | Shape::Caps)
            && t.letters() >= 2
            && !t.contraction
            && !not_a_name(t.w)
            && (!t.blocked() || t.info.first)
            && (t.info.known_name() || !t.info.common)
    };
    // The name at `j` with its surname words and particles: the index of its last word.
    let run = |j: usize| -> usize {
        let mut last = j;
        while last + 1 < toks.len()
            && last < j + 3
            && gap(&toks[last], &toks[last + 1]) == " "
            && (name_tok(&toks[last + 1])
                || particle(&toks[last + 1]) && last + 2 < toks.len() && name_tok(&toks[last + 2]))
        {
            last += 1;
        }
        while last > j && particle(&toks[last]) {
            last -= 1;
        }
        last
    };
    let mut push = |s: usize, e: usize| {
        cands.push((
            Span {
                kind: Kind::Person,
                start: s,
                end: e,
            },
            PRIO,
        ));
    };
    let mut i = 0;
    while i < toks.len() {
        let key = toks[i].key();
        // "his wife of 52 years, Dorota"
        if SPOUSE.contains(&key.as_str())
            && i + 3 < toks.len()
            && toks[i + 1].key() == "of"
            && toks[i + 2].key() == "years"
        {
            let between = &text[toks[i + 1].end..toks[i + 2].start];
            let n = &toks[i + 3];
            if between.trim().bytes().all(|b| b.is_ascii_digit())
                && !between.trim().is_empty()
                && gap(&toks[i + 2], n) == ", "
                && name_tok(n)
            {
                let last = run(i + 3);
                push(n.start, toks[last].end);
                i = last + 1;
                continue;
            }
        }
        if !PLURAL.contains(&key.as_str()) || toks[i].shape != Shape::Lower {
            i += 1;
            continue;
        }
        let mut j = i + 1;
        let mut found = 0;
        while j < toks.len() && found < 12 {
            let g = gap(&toks[j - 1], &toks[j]);
            if found > 0 && toks[j].key() == "and" && matches!(g, " " | ", " | ") " | "), ") {
                j += 1;
                continue;
            }
            let sep_ok = if found == 0 {
                matches!(g, " " | ", " | ": ")
            } else {
                matches!(g, ", " | " & " | "), ") || g == " " && toks[j - 1].key() == "and"
            };
            if !sep_ok || !name_tok(&toks[j]) {
                break;
            }
            let last = run(j);
            push(toks[j].start, toks[last].end);
            found += 1;
            j = last + 1;
            // A spouse in brackets, and the couple's surname after it: "Ingrid (Tomasz)
            // Wojcik".
            if let Some(sp) = toks.get(j)
                && gap(&toks[j - 1], sp) == " ("
                && name_tok(sp)
            {
                let sl = run(j);
                if text[toks[sl].end..].starts_with(')') {
                    push(sp.start, toks[sl].end);
                    j = sl + 1;
                    if let Some(sur) = toks.get(j)
                        && gap(&toks[sl], sur) == ") "
                        && name_tok(sur)
                    {
                        let su = run(j);
                        push(sur.start, toks[su].end);
                        j = su + 1;
                    }
                }
            }
        }
        i = j.max(i + 1);
    }
}

/// A surname before a word for a family ("love, the Okafor family", "from all of the de
/// Groot gang", "the MENSAH household"): after "the", one to three capitalised name words
/// (a particle in lower case among them).
fn family_names(text: &str, toks: &[Tok<'_>], keep: &KeepList, cands: &mut Vec<(Span, u8)>) {
    for i in 0..toks.len() {
        if !toks[i].w.eq_ignore_ascii_case("the") {
            continue;
        }
        let mut j = i + 1;
        while j < toks.len()
            && j <= i + 3
            && text[toks[j - 1].end..toks[j].start] == *" "
            && (particle(&toks[j])
                || matches!(toks[j].shape, Shape::Title | Shape::Caps) && !toks[j].blocked())
        {
            j += 1;
        }
        if j == i + 1
            || j >= toks.len()
            || text[toks[j - 1].end..toks[j].start] != *" "
            || particle(&toks[j - 1])
            || !matches!(
                toks[j].key().as_str(),
                "family" | "gang" | "clan" | "household" | "crew" | "bunch" | "kids" | "famiglia"
            )
        {
            continue;
        }
        let (s, e) = (toks[i + 1].start, toks[j - 1].end);
        // Every word capitalised a plain word is a kind of family ("the Whole family").
        if (i + 1..j).all(|k| toks[k].info.common && !toks[k].info.known_name())
            || keep.keeps(&text[s..e])
        {
            continue;
        }
        cands.push((
            Span {
                kind: Kind::Person,
                start: s,
                end: e,
            },
            PRIO,
        ));
    }
}

/// Whom a shift note hands the client over to, typed in lower case too ("handing over to
/// tupac next shift", "handed off to Makoa"): one or two name words after the phrase.
fn handoffs(text: &str, cands: &mut Vec<(Span, u8)>) {
    const PHRASES: &[&str] = &[
        "handing over to ",
        "handed over to ",
        "handing off to ",
        "handed off to ",
        "hand off to ",
        "handoff to ",
        "hand-off to ",
        "report given to ",
        "relieved by ",
    ];
    for p in PHRASES {
        for (k, _) in text.match_indices(p) {
            let s = k + p.len();
            let toks = tokens(&text[s..text.len().min(s + 60)]);
            let mut end = None;
            for (n, t) in toks.iter().take(2).enumerate() {
                let gap_ok = n == 0 && t.start == 0
                    || n == 1
                        && toks[0].end + 1 == t.start
                        && text[s + toks[0].end..].starts_with(' ');
                let ok = !t.blocked()
                    && t.letters() >= 3
                    && (t.info.first || t.info.sur || !t.info.common);
                if !(gap_ok && ok) {
                    break;
                }
                end = Some(t.end);
            }
            if let Some(e) = end {
                cands.push((
                    Span {
                        kind: Kind::Person,
                        start: s,
                        end: s + e,
                    },
                    PRIO,
                ));
            }
        }
    }
}

/// Names broken over two lines by a PDF's hyphenation ("Pt. Aber-\nnethy", "Adeyemi-\n-Clarke"):
/// a name that ends at a hyphen and a line break takes the word the next line starts with.
fn join_hyphenated(text: &str, cands: &mut [(Span, u8)]) {
    for (sp, _) in cands.iter_mut() {
        if sp.kind != Kind::Person {
            continue;
        }
        let after = &text[sp.end..];
        let Some(r) = after
            .strip_prefix("-\r\n")
            .or_else(|| after.strip_prefix("-\n"))
        else {
            continue;
        };
        let r2 = r.strip_prefix('-').unwrap_or(r);
        let word = r2
            .find(|c: char| !(c.is_alphabetic() || matches!(c, '-' | '\'' | '’')))
            .unwrap_or(r2.len());
        if word >= 2 && r2.starts_with(char::is_alphabetic) {
            sp.end = text.len() - r2.len() + word;
        }
    }
}

/// Whether a word is a given name that is also a word ("Will", "WILL", "Hope").
fn word_first_name_str(w: &str) -> bool {
    super::rules::WORD_FIRST_NAMES.contains(&title_case(w).as_str())
}

/// Whether a word may be one of the names a line's own shape points at (a greeting's pair, a
/// heading's couple): capitalised, no stop word, a name the lexicon knows or no dictionary
/// word.
fn shaped_name(w: &str) -> bool {
    let info = LEXICON.info(w);
    w.starts_with(|c: char| c.is_uppercase())
        && w.chars().filter(|c| c.is_alphabetic()).count() >= 2
        && w.chars()
            .all(|c| c.is_alphabetic() || matches!(c, '-' | '\'' | '’'))
        && !info.stop
        && !not_a_name(w)
        && (info.known_name() || !info.common)
}

/// Names a line's shape points at: a greeting to two people ("Hi Rusty and Precious,", "Dear
/// Ana & Luis:"), and a couple in a heading's end, joined by a slash ("Cycle 2 calendar –
/// Frost/Baek", "Re: Mensah/Fifita"), as a clinic writes to partners.
fn couples(text: &str, cands: &mut Vec<(Span, u8)>) {
    let mut base = 0;
    for line in text.split_inclusive('\n') {
        let at = base;
        base += line.len();
        let body = line.trim_end();
        let mut push = |s: usize, e: usize| {
            cands.push((
                Span {
                    kind: Kind::Person,
                    start: at + s,
                    end: at + e,
                },
                PRIO,
            ));
        };
        // The greeting's pair.
        let lead = body.len() - body.trim_start().len();
        let words: Vec<&str> = body[lead..].splitn(5, ' ').collect();
        if words.len() >= 4
            && matches!(
                words[0].to_lowercase().as_str(),
                "hi" | "hello" | "hey" | "dear" | "greetings"
            )
            && matches!(words[2], "and" | "&")
        {
            let a = words[1];
            let b = words[3].trim_end_matches([',', '!', ':']);
            // After one name, the second is capitalised and no stop word: a given name
            // that is also a word ("Hi Wendeline and Journey,").
            let second = b.starts_with(|c: char| c.is_uppercase())
                && b.chars().all(char::is_alphabetic)
                && !LEXICON.info(b).stop
                && !not_a_name(b);
            if words[3].len() > b.len() && shaped_name(a) && (shaped_name(b) || second) {
                let s = lead + words[0].len() + 1;
                push(s, s + a.len());
                let s = s + a.len() + 1 + words[2].len() + 1;
                push(s, s + b.len());
            }
        }
        // The heading's couple: the line's end after a dash or a colon, each side a surname
        // with its particles ("St. Clair/Kerimov", "Fitzwilliam/de la Cruz").
        let side = |x: &str| {
            let mut named = false;
            for w in x.split(' ') {
                if matches!(
                    w,
                    "de" | "la"
                        | "del"
                        | "van"
                        | "der"
                        | "von"
                        | "da"
                        | "di"
                        | "le"
                        | "St."
                        | "Ste."
                ) {
                    continue;
                }
                if !shaped_name(w) {
                    return false;
                }
                named = true;
            }
            named && x.split(' ').count() <= 4
        };
        if let Some(sp) = ["– ", "— ", " - ", ": "]
            .iter()
            .filter_map(|d| body.rfind(d).map(|k| k + d.len()))
            .max()
        {
            let pair = &body[sp..];
            if let Some((a, b)) = pair.split_once('/')
                && !b.contains('/')
                && side(a)
                && side(b)
            {
                push(sp, sp + a.len());
                push(sp + a.len() + 1, sp + pair.len());
            }
        }
    }
}

/// The name a person gives when asked for it in a chat or a call ("counselor: what should i
/// call you" / "visitor: wendeline iwu i guess", "what is your name" / "caller farrukh day my
/// number is …"): the answer's first words, in any case.
fn answered_name(text: &str, cands: &mut Vec<(Span, u8)>) {
    let lower = text.to_ascii_lowercase();
    for q in ["call you", "your name"] {
        for (k, _) in lower.match_indices(q) {
            let Some(nl) = lower[k..].find('\n').map(|n| k + n + 1) else {
                continue;
            };
            let line_end = lower[nl..].find('\n').map_or(lower.len(), |n| nl + n);
            // The answer's speaker: a time stamp, then a role and a colon or a role word.
            let mut s = nl;
            if lower[s..].starts_with('[')
                && let Some(c) = lower[s..line_end].find("] ")
            {
                s += c + 2;
            }
            let role_end = lower[s..line_end].find(": ").map(|c| s + c + 2);
            s = match role_end {
                Some(r) if r - s <= 16 => r,
                _ => {
                    let w = lower[s..line_end].split(' ').next().unwrap_or("");
                    if matches!(w, "caller" | "visitor" | "client" | "texter" | "patient") {
                        s + w.len() + 1
                    } else {
                        continue;
                    }
                }
            };
            let mut words = text[s..line_end].split(' ');
            let Some(first) = words.next() else { continue };
            let f = first.trim_end_matches([',', '.', '!']);
            let fi = LEXICON.info(f);
            // A given name that is also a word counts before a surname no word is ("journey
            // halvorsen").
            let then_surname = text[s + f.len()..line_end]
                .strip_prefix(' ')
                .and_then(|r| r.split([' ', ',', '.']).next())
                .is_some_and(|g| {
                    let gi = LEXICON.info(g);
                    g.len() >= 3 && gi.sur && !gi.common && !gi.stop
                });
            if f.chars().count() < 3
                || !f.chars().all(char::is_alphabetic)
                || fi.stop
                || not_a_name(f)
                || fi.common && !fi.first && !then_surname
            {
                continue;
            }
            let mut e = s + f.len();
            if f.len() == first.len()
                && let Some(second) = words.next()
            {
                let g = second.trim_end_matches([',', '.', '!']);
                let gi = LEXICON.info(g);
                if g.chars().count() >= 2
                    && g.chars().all(char::is_alphabetic)
                    && !gi.stop
                    && !not_a_name(g)
                    && (gi.sur || !gi.common)
                {
                    e += 1 + g.len();
                }
            }
            cands.push((
                Span {
                    kind: Kind::Person,
                    start: s,
                    end: e,
                },
                PRIO,
            ));
        }
    }
}

/// A quoted value from `at` (its opening quote there): the text inside, an SQL doubled quote
/// ("'O''Donoghue'") kept inside; `None` without a closing quote on the same line.
fn quoted_at(text: &str, at: usize) -> Option<(usize, usize)> {
    let q = *text.as_bytes().get(at)?;
    if q != b'\'' && q != b'"' {
        return None;
    }
    let b = text.as_bytes();
    let mut k = at + 1;
    while k < b.len() && k - at <= 80 {
        match b[k] {
            b'\n' | b'\r' => return None,
            c if c == q => {
                if b.get(k + 1) == Some(&q) {
                    k += 2;
                    continue;
                }
                return Some((at + 1, k));
            }
            _ => k += 1,
        }
    }
    None
}

/// Whether a data field's value can be a name: a few words of letters (a hyphen, an
/// apostrophe, a dot of an initial inside), no placeholder.
fn data_name_value(v: &str) -> bool {
    let words = v.split_whitespace().count();
    (1..=4).contains(&words)
        && v.starts_with(|c: char| c.is_alphabetic())
        && v.chars().filter(|c| c.is_alphabetic()).count() >= 2
        && v.chars()
            .all(|c| c.is_alphabetic() || matches!(c, ' ' | '-' | '\'' | '’' | '.'))
        && !matches!(
            v.to_lowercase().as_str(),
            "null" | "none" | "nil" | "unknown" | "n/a" | "na" | "redacted" | "test" | "self"
        )
}

/// Names a table's cell holds by its shape, whatever its column: a registry's "Okafor, Ada"
/// alone in a cell (tab- or bar-separated), and a name in the cell before a record number or
/// a birth date ("Site 10 | T. Okafor | MRN 123 | …").
fn table_cells(text: &str, keep: &KeepList, cands: &mut Vec<(Span, u8)>) {
    // One word of a name in a cell: letters (an initial's dot, a hyphen, an apostrophe), no
    // function word, no word never in a name; how it must be capitalised is the caller's.
    let name_word = |w: &str| {
        let bare = w.trim_end_matches('.');
        !bare.is_empty()
            && w.chars()
                .all(|c| c.is_alphabetic() || matches!(c, '-' | '\'' | '’' | '.'))
            && (particle_word(&w.to_lowercase()) || (!LEXICON.info(bare).stop && !not_a_name(bare)))
    };
    let unknown_or_name = |w: &str| {
        let info = LEXICON.info(w);
        w.chars().filter(|c| c.is_alphabetic()).count() >= 3 && (info.known_name() || !info.common)
    };
    let mut push = |s: usize, e: usize| {
        if !keep.keeps(&text[s..e]) {
            cands.push((
                Span {
                    kind: Kind::Person,
                    start: s,
                    end: e,
                },
                PRIO,
            ));
        }
    };
    let mut base = 0;
    for line in text.split_inclusive('\n') {
        let at = base;
        base += line.len();
        let body = line.trim_end();
        if body.matches(['|', '\t']).count() < 2 {
            continue;
        }
        let mut cells: Vec<(usize, &str)> = Vec::new();
        let mut from = 0;
        for (k, _) in body.match_indices(['|', '\t']).chain([(body.len(), "")]) {
            let raw = &body[from..k];
            let lead = raw.len() - raw.trim_start().len();
            cells.push((at + from + lead, raw.trim()));
            from = k + 1;
        }
        for (n, &(s, cell)) in cells.iter().enumerate() {
            let words: Vec<&str> = cell.split([' ', ',']).filter(|w| !w.is_empty()).collect();
            if words.is_empty() || words.len() > 4 || !words.iter().all(|w| name_word(w)) {
                continue;
            }
            let capitalised = words
                .iter()
                .all(|w| particle_word(&w.to_lowercase()) || w.starts_with(char::is_uppercase));
            // The next cell a record number or a birth date.
            // The next cell a record number or a birth date (a value, not a header's "DOB").
            let before_id = cells.get(n + 1).is_some_and(|&(_, next)| {
                ["MRN", "MR#", "DOB", "D.O.B"]
                    .iter()
                    .any(|p| next.starts_with(p))
                    && next.contains(|c: char| c.is_ascii_digit())
            });
            if before_id && capitalised && words.iter().any(|w| unknown_or_name(w)) {
                match cell.split_once(", ") {
                    Some((a, _)) => {
                        push(s, s + a.len());
                        push(s + a.len() + 2, s + cell.len());
                    }
                    None => push(s, s + cell.len()),
                }
                continue;
            }
            // "Okafor, Ada": both sides capitalised name words, none a plain word or a state.
            if let Some((a, b)) = cell.split_once(", ")
                && capitalised
                && !b.contains(',')
                && [a, b].iter().all(|p| {
                    let ws: Vec<&str> = p.split(' ').collect();
                    ws.len() <= 3
                        && ws.iter().any(|w| unknown_or_name(w))
                        && ws.iter().all(|w| {
                            let i = LEXICON.info(w);
                            particle_word(&w.to_lowercase()) || !i.common || i.known_name()
                        })
                })
                && !super::words::STATE_NAMES.split('|').any(|st| st == b)
            {
                push(s, s + a.len());
                push(s + a.len() + 2, s + cell.len());
            }
        }
    }
}

/// The declarant of a legal form: "I, Ann Lee, born 1/2/50, residing at …", "I, PATIENCE
/// OKAFOR, hereby appoint": one to four name words between "I, " (at a line's or a sentence's
/// head) and a comma.
fn declarant(text: &str, keep: &KeepList, cands: &mut Vec<(Span, u8)>) {
    for (at, _) in text.match_indices("I, ") {
        let before = text[..at].trim_end_matches([' ', '\t']);
        if !(before.is_empty() || before.ends_with(['\n', '.', '!', '?', ':'])) {
            continue;
        }
        let s = at + 3;
        // A name is short: the look for its comma is bounded.
        let near = &text[s..text.ceil_char_boundary((s + 48).min(text.len()))];
        let Some(len) = near.find(", ") else { continue };
        let v = &near[..len];
        let words: Vec<&str> = v.split(' ').collect();
        let after = near[len + 2..].trim_start();
        if !(1..=4).contains(&words.len())
            || !after.starts_with(|c: char| c.is_lowercase() || c.is_ascii_digit())
            || !words.iter().all(|w| {
                let info = LEXICON.info(w.trim_end_matches('.'));
                w.starts_with(char::is_uppercase)
                    && w.chars()
                        .all(|c| c.is_alphabetic() || matches!(c, '-' | '\'' | '’' | '.'))
                    && !not_a_name(w)
                    && (!info.stop || info.first)
            })
            || !words.iter().any(|w| {
                let info = LEXICON.info(w);
                info.known_name() || !info.common
            })
            || keep.keeps(v)
        {
            continue;
        }
        cands.push((
            Span {
                kind: Kind::Person,
                start: s,
                end: s + len,
            },
            PRIO,
        ));
    }
}

/// Where a bare key=value's value ends: at a field separator, a line's end, two blanks or a
/// blank before the next `key=` (a bounded look: a name is short).
fn unquoted_end(text: &str, v: usize) -> usize {
    let b = text.as_bytes();
    let limit = b.len().min(v + 64);
    let mut k = v;
    while k < limit {
        match b[k] {
            // An apostrophe inside a name stays ("O'Driscoll").
            b'\''
                if k > v
                    && b[k - 1].is_ascii_alphabetic()
                    && b.get(k + 1).is_some_and(u8::is_ascii_alphabetic) => {}
            b'|' | b'&' | b';' | b',' | b'\t' | b'\n' | b'\r' | b'"' | b'\'' | b'=' => break,
            b' ' if b.get(k + 1) == Some(&b' ') => break,
            b' ' => {
                let word = &b[k + 1
                    ..b[k + 1..limit]
                        .iter()
                        .position(|&c| c == b' ')
                        .map_or(limit, |p| k + 1 + p)];
                if word.contains(&b'=') {
                    break;
                }
            }
            _ => {}
        }
        k += 1;
    }
    if k == limit && limit < b.len() {
        return v;
    }
    while !text.is_char_boundary(k) {
        k -= 1;
    }
    k
}

/// A value after its label in brackets, as certificates and templates print them ("This is
/// to certify that [name] RANIA VIRTANEN", "[patient] Will Fifita").
fn bracket_labels(text: &str, keep: &KeepList, cands: &mut Vec<(Span, u8)>) {
    for (k, _) in text.match_indices('[') {
        // A label is short: only the next few bytes are read for its bracket.
        let near = &text.as_bytes()[k..text.len().min(k + 32)];
        let Some(close) = near.iter().position(|&c| c == b']').map(|c| k + c) else {
            continue;
        };
        let label = &text[k + 1..close];
        if label.len() > 30
            || !person_label(label)
            || !label
                .chars()
                .all(|c| c.is_alphabetic() || matches!(c, ' ' | '_'))
        {
            continue;
        }
        let Some(rest) = text[close + 1..].strip_prefix(' ') else {
            continue;
        };
        let v = field_value(rest);
        if v.is_empty() || !field_name_value(v) || keep.keeps(v) {
            continue;
        }
        let s = close + 2;
        cands.push((
            Span {
                kind: Kind::Person,
                start: s,
                end: s + v.len(),
            },
            PRIO,
        ));
    }
}

/// Values of data-format fields named for a person, in any format: JSON and dict keys
/// (`'first_name': 'Aigerim'`, `"patient_name":"Will Fifita"`), key=value logs
/// (`pt="Will Fifita"`) and the columns of an SQL INSERT (`INSERT INTO patients (id,
/// last_name, first_name) VALUES (1, 'Okafor', 'Ada')`). The field's name says what its
/// value is, whatever the dictionary says of the value's words ("Will", "Fields").
fn data_fields(text: &str, keep: &KeepList, cands: &mut Vec<(Span, u8)>) {
    let mut push_one = |s: usize, e: usize| {
        let v = &text[s..e];
        if data_name_value(v) && !keep.keeps(v) {
            cands.push((
                Span {
                    kind: Kind::Person,
                    start: s,
                    end: e,
                },
                PRIO,
            ));
        }
    };
    // "IWU, TYRESE": a registry's order, one name on each side of the comma.
    let mut push = |s: usize, e: usize| match text[s..e].split_once(", ") {
        Some((a, _)) if !text[s..e][a.len() + 2..].contains(',') => {
            push_one(s, s + a.len());
            push_one(s + a.len() + 2, e);
        }
        _ => push_one(s, e),
    };
    let b = text.as_bytes();
    for (at, _) in text.match_indices([':', '=']) {
        // The key before the separator: quoted (any separator) or bare before "=".
        let mut k = at;
        while k > 0 && b[k - 1] == b' ' {
            k -= 1;
        }
        let quoted = k > 0 && matches!(b[k - 1], b'\'' | b'"');
        if quoted {
            k -= 1;
        } else if b[at] != b'=' {
            continue;
        }
        let key_end = k;
        let key_byte = |c: u8| c.is_ascii_alphanumeric() || matches!(c, b'_' | b'-');
        // A key is short: the look-back stops after 40 bytes (a long token before "=" is
        // no field name, and no text is read twice over).
        while k > 0 && key_end - k < 40 && key_byte(b[k - 1]) {
            k -= 1;
        }
        if k == key_end
            || k > 0 && key_byte(b[k - 1])
            || quoted && (k == 0 || b[k - 1] != b[key_end])
        {
            continue;
        }
        let key = &text[k..key_end];
        // A chat export's sender (`"from": "Bo"`, `"author": "Ann Lee"`): quoted only (a
        // link's `from=` is no person).
        let sender = quoted
            && matches!(
                key.to_ascii_lowercase().as_str(),
                "from" | "sender" | "author" | "sender_name" | "from_name" | "display_name"
            );
        if !person_label(key) && !sender {
            continue;
        }
        let mut v = at + 1;
        while v < b.len() && b[v] == b' ' {
            v += 1;
        }
        if let Some((s, e)) = quoted_at(text, v) {
            push(s, e);
        } else if !quoted && b[at] == b'=' && v == at + 1 {
            // A bare value (`name=Ann Lee  dob=…`, `client=Lee^Ann|svc=…`): up to a field
            // separator, two blanks or the next key; an HL7 caret splits the name's parts.
            let e = unquoted_end(text, v);
            let mut s = v;
            for (p, _) in text[v..e].match_indices('^').chain([(e - v, "")]) {
                push(s, v + p);
                s = v + p + 1;
            }
        }
    }
    // SQL: the column list names each value of every row after VALUES.
    let lower = text.to_ascii_lowercase();
    for (at, _) in lower.match_indices("insert into ") {
        let head = &text[at..];
        let Some(open) = head.find('(') else { continue };
        let Some(close) = head[open..].find(')').map(|c| open + c) else {
            continue;
        };
        let after = lower[at + close + 1..].trim_start();
        if !after.starts_with("values") {
            continue;
        }
        let cols: Vec<bool> = head[open + 1..close]
            .split(',')
            .map(|c| person_label(c.trim().trim_matches(['"', '`'])))
            .collect();
        if !cols.contains(&true) {
            continue;
        }
        let mut k = at + close + 1;
        let mut col = usize::MAX;
        while k < b.len() {
            match b[k] {
                b'(' if col == usize::MAX => {
                    col = 0;
                    k += 1;
                }
                b')' if col != usize::MAX => {
                    col = usize::MAX;
                    k += 1;
                }
                b',' if col != usize::MAX => {
                    col += 1;
                    k += 1;
                }
                b';' if col == usize::MAX => break,
                b'\'' | b'"' if col != usize::MAX => match quoted_at(text, k) {
                    Some((s, e)) => {
                        if cols.get(col) == Some(&true) {
                            push(s, e);
                        }
                        k = e + 1;
                    }
                    None => break,
                },
                _ => k += 1,
            }
        }
    }
}

/// Whether a line is a mailing block's last: a city, a state's code and a ZIP ("BANGOR ME
/// 14501", "Lowell, MA 01852-1234").
fn city_state_zip(line: &str) -> bool {
    let words: Vec<&str> = line.split_whitespace().collect();
    let n = words.len();
    if n < 3 {
        return false;
    }
    let zip = words[n - 1];
    let five = zip.len() >= 5 && zip.as_bytes()[..5].iter().all(u8::is_ascii_digit);
    let tail = &zip[5.min(zip.len())..];
    let zip_ok = five
        && (tail.is_empty()
            || (tail.len() == 5
                && tail.starts_with('-')
                && tail[1..].bytes().all(|b| b.is_ascii_digit())));
    let state = words[n - 2];
    zip_ok && state.len() == 2 && STATES.split('|').any(|s| s == state)
}

/// A mailing block's name line: the line above a street line ("8477 N LINCOLN BLVD") that
/// the city, state and ZIP line follows, as statements, notices and envelopes print the
/// addressee ("BILL BAKER", "Kateryna Dela Peña", "R. Al-Masri").
/// Whether a line is a mailing block's street line: a house number and a word ("12 Elm
/// St"), a grid number ("W6691 HICKORY KNOLL WAY", "N1234 County Rd"), or a rural route or
/// box ("COUNTY ROAD 943", "RR 2 Box 5", "PO Box 118", "HC 61 Box 7").
fn street_line(street: &str) -> bool {
    let grid = street.starts_with(['N', 'S', 'E', 'W'])
        && street[1..].starts_with(|c: char| c.is_ascii_digit());
    let from = usize::from(grid);
    let digits = street[from..]
        .bytes()
        .take_while(u8::is_ascii_digit)
        .count();
    if (1..=6).contains(&digits)
        && street[from + digits..].starts_with(' ')
        && street[from + digits + 1..].starts_with(char::is_alphabetic)
    {
        return true;
    }
    let upper = street.to_ascii_uppercase();
    [
        "COUNTY ROAD ",
        "COUNTY RD ",
        "CR ",
        "RR ",
        "HC ",
        "PO BOX ",
        "P.O. BOX ",
        "STATE ROUTE ",
        "ROUTE ",
        "HWY ",
        "HIGHWAY ",
    ]
    .iter()
    .any(|p| {
        upper
            .strip_prefix(p)
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
    })
}

fn mailing_blocks(text: &str, keep: &KeepList, cands: &mut Vec<(Span, u8)>) {
    let mut lines: Vec<(usize, &str)> = Vec::new();
    let mut at = 0;
    for l in text.split_inclusive('\n') {
        lines.push((at, l.trim_end_matches(['\n', '\r'])));
        at += l.len();
    }
    for k in 0..lines.len().saturating_sub(1) {
        let (start, line) = lines[k];
        // The city, state and ZIP on their own line, or closing the street's ("4507 Old
        // Mill Pike, Port Ainsley, ME 26000").
        let street = lines[k + 1].1.trim_start();
        if !street_line(street)
            || !(city_state_zip(street) && street.contains(", ")
                || lines.get(k + 2).is_some_and(|l| city_state_zip(l.1)))
        {
            continue;
        }
        let name = line.trim();
        if name.is_empty() || name.chars().count() > 40 {
            continue;
        }
        let toks = tokens(name);
        let initial = |t: &Tok<'_>| t.letters() == 1 && t.w.chars().all(char::is_uppercase);
        let words = toks.iter().filter(|t| !initial(t) && !particle(t)).count();
        let only_words = name
            .chars()
            .all(|c| c.is_alphabetic() || matches!(c, ' ' | '.' | '-' | '\'' | '’' | ','));
        // One word when the lexicon knows it as a name or the dictionary does not know it
        // ("SELVARAJ"), in capitals as a mailing block prints it.
        let one = words == 1
            && toks.len() == 1
            && toks[0].shape == Shape::Caps
            && toks[0].letters() >= 4
            && !toks[0].info.common;
        if !only_words
            || !((2..=4).contains(&words) || one)
            || !toks
                .iter()
                .all(|t| initial(t) || particle(t) || !t.blocked())
            || !toks
                .iter()
                .any(|t| !initial(t) && (!t.info.common || t.info.known_name()))
            || keep.keeps(name)
        {
            continue;
        }
        let s = start + (line.len() - line.trim_start().len());
        if organisation(text, s) || institution(text, s) {
            continue;
        }
        cands.push((
            Span {
                kind: Kind::Person,
                start: s,
                end: s + name.len(),
            },
            PRIO,
        ));
    }
}

/// Where a given name's initial starts when one stands right before `s` at a line's or a
/// field's head ("K. Dela Peña, adult", "Inmate: R. van der Berg"); in prose a capital and a
/// dot may end a sentence ("vitamin D. Maria called").
fn initial_before(text: &str, s: usize) -> Option<usize> {
    let head = text[..s].strip_suffix(". ")?;
    let mut cs = head.chars();
    let c = cs.next_back()?;
    if !c.is_uppercase() {
        return None;
    }
    let before = cs.as_str();
    let led = before.is_empty()
        || before.ends_with(['\n', '\r'])
        || [": ", "| ", "— ", "- ", "(", "\t"]
            .iter()
            .any(|p| before.ends_with(p))
        // After a function word in small letters, where no sentence ended: "also R. ap
        // Gwilym called", "with J. Okafor" ("vitamin D. Maria" ends one).
        || before.strip_suffix(' ').is_some_and(|b| {
            let w = b.rsplit(|c: char| !c.is_alphabetic()).next().unwrap_or("");
            w.len() >= 2 && w.bytes().all(|c| c.is_ascii_lowercase()) && LEXICON.info(w).stop
        });
    led.then(|| s - 2 - c.len_utf8())
}

/// Adds the lexicon's name candidates of `text` to `cands` (names the keep list keeps are
/// left out).
pub(super) fn lexicon_names(text: &str, keep: &KeepList, cands: &mut Vec<(Span, u8)>) {
    if text.contains('.') {
        file_names(text, keep, cands);
    }
    if text.contains(':') {
        form_fields(text, keep, cands);
    }
    if text.contains(" ....") {
        leader_fields(text, keep, cands);
    }
    if text.contains(" <") && text.contains('@') {
        display_names(text, keep, cands);
    }
    if text.contains(['\'', '"', '=']) {
        data_fields(text, keep, cands);
    }
    if text.contains("I, ") {
        declarant(text, keep, cands);
    }
    if text.contains(['|', '\t']) {
        table_cells(text, keep, cands);
    }
    if text.contains('[') {
        bracket_labels(text, keep, cands);
    }
    if text.contains(", R") || text.contains(", P") || text.contains(", D") {
        captions(text, cands);
    }
    couples(text, cands);
    list_heads(text, cands);
    handoffs(text, cands);
    answered_name(text, cands);
    mailing_blocks(text, keep, cands);
    let toks = tokens(text);
    kin_lists(text, &toks, cands);
    family_names(text, &toks, keep, cands);
    let gap = |a: &Tok<'_>, b: &Tok<'_>| &text[a.end..b.start];
    let mut push = |s: usize, e: usize| {
        // A romanised Urdu/Hindi or Swahili function word capitalised at a sentence's head
        // is no part of the name after it ("Kal Zubair sahib ne call kiya").
        let s = function_word_capitalised(text, s, e).unwrap_or(s);
        if s >= e {
            return;
        }
        // A month that is also a given name before a surname: "Jun PANGILINAN".
        let s = month_first_at(text, s).unwrap_or(s);
        let s = initial_before(text, s).unwrap_or(s);
        // A surname in capitals and a bare initial, as a subject shortens a name: "New
        // referral - QUIGLEY E - dob 1/25/91".
        let e = {
            let v = &text[s..e];
            let tail = &text.as_bytes()[e..];
            if v.len() >= 3
                && v.chars().all(|c| !c.is_lowercase())
                && tail.len() >= 2
                && tail[0] == b' '
                && tail[1].is_ascii_uppercase()
                && tail
                    .get(2)
                    .is_none_or(|c| matches!(c, b' ' | b',' | b'\n' | b'\r'))
                && text[e + 2..]
                    .trim_start_matches(' ')
                    .starts_with(['-', '—', ',', '\n', '\r'])
            {
                e + 2
            } else {
                e
            }
        };
        // An initial's dot belongs to it: "TUILAGI, Thiago Z.".
        let e = if text[e..].starts_with('.')
            && text[..e]
                .rsplit(|c: char| !c.is_alphabetic())
                .next()
                .is_some_and(|w| w.len() == 1 && w.chars().all(|c| c.is_ascii_uppercase()))
            && text[..e].len() >= 2
            && !text[..e - 1].ends_with(|c: char| c.is_alphabetic())
        {
            e + 1
        } else {
            e
        };
        let v = &text[s..e];
        if !keep.keeps(v)
            && !eponym(&text[e..])
            && !structure_of(text, s)
            && !street_name_after(&text[e..])
            && !business_at(text, s)
            && !thing_after(&text[e..])
            && !after_determiner(text, s)
            && !itinerary(text, s, e)
            && !institution(text, s)
            && !organisation(text, s)
            && !segment_id(text, s, e)
            && !ocr_piece(text, s, e)
            && !saint_place(text, s, e)
            && !street_then_city(text, s, e)
            && !place_of(text, s)
        {
            cands.push((
                Span {
                    kind: Kind::Person,
                    start: s,
                    end: e,
                },
                PRIO,
            ));
        }
    };
    // The words after a name's first word, while they continue it: blanks between, or an
    // initial ("Margaret A. Okafor"); returns the end of the name.
    let extend = |from: usize, toks: &[Tok<'_>]| -> usize {
        let mut last = from;
        let mut n = 1;
        let mut j = from + 1;
        while j < toks.len() && n < MAX_WORDS {
            let g = gap(&toks[j - 1], &toks[j]);
            // A surname particle or prefix and the word after it: "Rose St. Clair",
            // "ST._CLAIR", "Anneliese van der Berg".
            if particle(&toks[j]) && blank(g) {
                let mut k = j;
                while k + 1 < toks.len()
                    && particle(&toks[k])
                    && matches!(gap(&toks[k], &toks[k + 1]), " " | "_" | ". " | "._" | ".")
                {
                    k += 1;
                }
                // After a conjunction or a patronymic ("Vilaró i Bosch", "binti Rahmat") the
                // surname is capitalised: "Selvaraj i vaig néixer" is a sentence going on.
                let joined = toks[j..k].iter().any(|p| {
                    matches!(
                        p.key().as_str(),
                        "i" | "y" | "an" | "binti" | "binte" | "bint"
                    )
                });
                if k > j
                    && (toks[k].continues() || eclipsed(&toks[k - 1], &toks[k]))
                    && !(joined && toks[k].shape == Shape::Lower)
                    && n + (k - j) < MAX_WORDS + 2
                {
                    last = k;
                    n += k - j + 1;
                    j = k + 1;
                    continue;
                }
                break;
            }
            if !blank(g) {
                break;
            }
            // A single-letter initial between name words.
            if toks[j].letters() == 1 && toks[j].w.chars().all(char::is_uppercase) {
                if j + 1 < toks.len()
                    && matches!(gap(&toks[j], &toks[j + 1]), ". " | " ")
                    && toks[j + 1].continues()
                {
                    last = j + 1;
                    n += 1;
                    j += 2;
                    continue;
                }
                // A trailing initial: "Mi-kyung J. to Saturday", "TUILAGI, Thiago Z. | DOB",
                // "Ana M.\n".
                let tail = &text[toks[j].end..];
                if (tail.starts_with(". ")
                    && (toks
                        .get(j + 1)
                        .is_none_or(|t| t.shape == Shape::Lower || t.info.stop)
                        || !tail[2..].starts_with(char::is_alphabetic)))
                    || tail == "."
                    || tail.starts_with(".\n")
                    || tail.starts_with(".\r")
                {
                    last = j;
                }
                break;
            }
            // A double surname joined by "i" or "y" whose first part is also a word:
            // "Meritxell Cases i Roig", "MERITXELL CASES I ROIG".
            if conj_surname(toks, j, text) {
                last = j + 2;
                n += 3;
                j += 3;
                continue;
            }
            // A capitalised name does not go on into a lower-case word ("Swan-Ganz catheter").
            if !toks[j].continues()
                || (toks[j].shape == Shape::Lower && toks[from].shape != Shape::Lower)
            {
                break;
            }
            last = j;
            n += 1;
            j += 1;
        }
        last
    };
    // A title's initial as a chat's subject ("mr s in 3C"), added after the word loop.
    let mut initials: Vec<(usize, usize)> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        // 0a. A name spelled out letter by letter: "last name spelled P I E R R E L O U I S",
        //     "spelled S-M-I-T-H"; a run of four or more hyphened capitals anywhere.
        if let Some(last) = spelled(&toks, i, text) {
            push(toks[i + 1].start.min(toks[last].start), toks[last].end);
            i = last + 1;
            continue;
        }
        // A surname cut to its initial after a title, as staff chats shorten a patient:
        // "move mrs l's 3:00", "Mr K's results".
        if let Some(n) = toks.get(i + 1)
            && n.w.len() == 1
            && ["mr", "mrs", "ms"]
                .iter()
                .any(|k| t.w.eq_ignore_ascii_case(k))
            && gap(t, n) == " "
            && (text[n.end..].starts_with("'s ") || text[n.end..].starts_with("’s "))
        {
            push(n.start, n.end);
            i += 2;
            continue;
        }
        if spelled_run(t) >= 4 || spelled_after_name(&toks, i, text) {
            push(t.start, t.end);
            i += 1;
            continue;
        }
        // A name spelled out in a lower-case transcript, wherever it stands: "last name is
        // s h a r m a", "it's l-a-n-e", "m. a. c. a. r. a. e. g".
        if let Some(last) = spelled_lower(&toks, i, text) {
            push(t.start, toks[last].end);
            i = last + 1;
            continue;
        }
        // A surname cut to its initial after a title, then the sentence goes on: "mr m in
        // 104 is asking", "Mrs K, bed 2". "a" and "i" are words ("ms a lot").
        if let Some(n) = toks.get(i + 1)
            && n.w.len() == 1
            && !matches!(n.w, "a" | "i" | "A" | "I")
            && ["mr", "mrs", "ms"]
                .iter()
                .any(|k| t.w.eq_ignore_ascii_case(k))
            && matches!(gap(t, n), " " | ". ")
            && initial_ends_clause(&text[n.end..])
        {
            // Kept as it stands: after a title, "s in" is no scanner's broken "sin"
            // (`ocr_piece`).
            initials.push((n.start, n.end));
            i += 2;
            continue;
        }
        // A given name, then the surname in brackets, as chats add whom they mean: "violet
        // (Bishop) no-showed", "zoë (Hope)".
        // Not after capitals: a credential and its speciality ("FRCS (Orth)").
        if let Some(sur) = toks.get(i + 1)
            && t.shape != Shape::Caps
            && !t.info.stop
            && t.letters() >= 3
            && gap(t, sur) == " ("
            && text[sur.end..].starts_with(')')
            && sur.shape == Shape::Title
            && sur.letters() >= 3
            && !sur.info.stop
            // A given name the lexicon knows before a surname or a word no dictionary holds;
            // a word it does not know only before a known surname that is no word:
            // "empagliflozin (Jardiance)" is a drug and its brand, "Ngozi (Guest)" a role.
            && (t.info.first && (sur.info.sur || !sur.info.common)
                || !t.info.common && t.letters() >= 4 && sur.info.sur && !sur.info.common)
            // A nickname between a given name and a surname is read whole by 0d.
            && nickname_between(&toks, i, text).is_none()
        {
            push(t.start, t.end);
            push(sur.start, sur.end);
            i += 2;
            continue;
        }
        // 0b. Dictation: a cue, up to three lower-case words and a spoken mark ("patient
        //     aroha rice period", "neighbor june rich period"): the words are the name, also
        //     those that are words too.
        if let Some(last) = dictated_name(&toks, i, text) {
            push(toks[i + 1].start, toks[last].end);
            i = last + 1;
            continue;
        }
        // 0b'. Shortened and clipped names of subjects and chats: an initial and a surname
        //     where a field or a clause starts ("Prior auth needed: J. Miller / Humira",
        //     "also R. ap Gwilym called"), a name after "call back" ("call back Liesel re:
        //     bill"), a surname after an age and sex ("Fall at home - 94F Park, bed 4B"), a
        //     romanised Korean name before the honorific "hwanjanim" (patient).
        if let Some(j) = clipped_name(&toks, i, text) {
            let last = extend(j, &toks);
            let s = if toks[i].letters() == 1 {
                toks[i].start
            } else {
                toks[j].start
            };
            push(s, toks[last].end);
            i = last + 1;
            continue;
        }
        if let Some((a, b)) = korean_honorific(&toks, i, text) {
            push(toks[a].start, toks[b].end);
            i = b + 1;
            continue;
        }
        // 0c. A surname with its initial as registries and handoffs shorten it: "Subject: TOC
        //     - Chaudhry, A.", "S: Phạm J, 71 M"; a first name in brackets before an age:
        //     "S: Bishop (Björn), 82 M".
        if let Some((last, split)) = surname_initial(&toks, i, text) {
            let from = particles_before(&toks, i, text);
            if split {
                push(toks[from].start, t.end);
                push(toks[last].start, toks[last].end);
            } else {
                // The initial's dot belongs to it ("Chaudhry, A.").
                let dot = usize::from(text[toks[last].end..].starts_with('.'));
                push(toks[from].start, toks[last].end + dot);
            }
            i = last + 1;
            continue;
        }
        // 0d. A nickname in quotes or brackets between a first name and a surname: `Elif
        //     "Eli" Chaudhry`, "Oluwaseun (Olu) Adeyemi".
        if let Some(sur) = nickname_between(&toks, i, text) {
            let last = extend(sur, &toks);
            push(t.start, t.end);
            push(toks[i + 1].start, toks[i + 1].end);
            push(toks[sur].start, toks[last].end);
            i = last + 1;
            continue;
        }
        // 0o. A subject line that ends on whom it is about after a dash: "Subject: Payment
        //     plan set up — Asante": capitalised words no dictionary knows, or names.
        if matches!(t.shape, Shape::Title | Shape::Caps)
            && !t.blocked()
            && (!t.info.common || t.info.known_name())
            && t.letters() >= 3
            && [" — ", " – ", " - "]
                .iter()
                .any(|d| text[..t.start].ends_with(d))
            && subject_line(text, t.start)
        {
            let last = extend(i, &toks);
            if text[toks[last].end..]
                .split(['\n', '\r'])
                .next()
                .is_some_and(|r| r.trim().is_empty())
            {
                push(t.start, toks[last].end);
                i = last + 1;
                continue;
            }
        }
        // 0p. Two lower-case words before a possessive, as chats type a name: "anyone know
        //     why tallulah jeannot's portal login fails?" — neither a word of the dictionary,
        //     one of them a name.
        if t.shape == Shape::Lower
            && i + 1 < toks.len()
            && gap(t, &toks[i + 1]) == " "
            && toks[i + 1].shape == Shape::Lower
            && text[toks[i + 1].end..].starts_with(['\'', '’'])
            && [t, &toks[i + 1]]
                .iter()
                .all(|w| !w.blocked() && !w.contraction && w.letters() >= 3)
            && (t.info.first || !t.info.common)
            && !toks[i + 1].info.common
            && (t.info.known_name()
                || toks[i + 1].info.known_name()
                || (t.letters() >= 4 && toks[i + 1].letters() >= 4))
        {
            push(t.start, toks[i + 1].end);
            i += 2;
            continue;
        }
        // 0l. A name glued in camel case: "URGENT pt RustyKealoha callback".
        if t.shape == Shape::Mixed && t.letters() >= 6 && camel_name(t.w) {
            push(t.start, t.end);
            i += 1;
            continue;
        }
        // 0m. A name right before its bearer's age and sex, as notes and subjects write it:
        //     "SUBJ - M. Baek, 96M", "question — Eze aged 99", "gurpreet kaur sandhu, 34F w/
        //     hx": capitalised words a dictionary does not know (or names), or one to three
        //     lower-case words opening a line, the first a given name or no word.
        {
            // The token's own fields first: `blocked` looks words up (on nearly every word).
            let capital = matches!(t.shape, Shape::Title | Shape::Caps)
                && (!t.info.common || t.info.known_name());
            let lower_head = t.shape == Shape::Lower
                && (t.info.first || !t.info.common)
                && at_line_head(text, t.start);
            if (capital || lower_head) && !t.blocked() {
                let mut last = i;
                if capital {
                    last = extend(i, &toks);
                } else {
                    while last + 1 < toks.len()
                        && last < i + 2
                        && gap(&toks[last], &toks[last + 1]) == " "
                        && toks[last + 1].shape == Shape::Lower
                        && !toks[last + 1].blocked()
                        && (toks[last + 1].info.known_name() || !toks[last + 1].info.common)
                    {
                        last += 1;
                    }
                }
                if age_after(&text[toks[last].end..]) && (capital || last > i) {
                    push(t.start, toks[last].end);
                    i = last + 1;
                    continue;
                }
            }
        }
        // 0k. "spoke w/ Chiamaka", "talked w/ mr lee": the shorthand of "with" after a talk
        //     verb.
        if t.w == "w"
            && i > 0
            && i + 1 < toks.len()
            && gap(&toks[i - 1], t) == " "
            && matches!(
                toks[i - 1].key().as_str(),
                "spoke" | "spoken" | "speaking" | "talked" | "talking" | "met"
            )
            && matches!(gap(t, &toks[i + 1]), "/ " | "/")
            && toks[i + 1].in_position_after(false, true)
        {
            let last = extend(i + 1, &toks);
            push(toks[i + 1].start, toks[last].end);
            i = last + 1;
            continue;
        }
        // 0e. Whom a chat line speaks to, after a word of reply or greeting and before a
        //     comma: "yes Emre, she called", "Hi April, reminder", "Hi JB,".
        if i > 0 && addressed(&toks[i - 1], t, gap(&toks[i - 1], t), text) {
            let last = if t.blocked() { i } else { extend(i, &toks) };
            push(t.start, toks[last].end);
            i = last + 1;
            continue;
        }
        // 0f. A name in brackets after a room or a bed ("room 19b (kofi) pulled his iv"), and a
        //     chat transcript's speaker after the time ("[15:27] Will: February 13th").
        let speaker = chat_speaker(text, t.start);
        // A nickname's adjective before the speaker's name ("[06:32] big o'donoghue: …").
        if speaker
            && NICK_ADJECTIVES.contains(&t.key().as_str())
            && i + 1 < toks.len()
            && gap(t, &toks[i + 1]) == " "
            && !toks[i + 1].blocked()
            && (!toks[i + 1].info.common || toks[i + 1].info.known_name())
        {
            let last = extend(i + 1, &toks);
            if text[toks[last].end..].starts_with(':') {
                push(toks[i + 1].start, toks[last].end);
                i = last + 1;
                continue;
            }
        }
        if (after_room_bracket(text, t.start) || speaker || after_cue_bracket(text, t.start))
            && ((!t.blocked() && (!t.info.common || t.info.first))
                // A surname that is also a word, in brackets after "patient" ("patient
                // (Winter) developed angioedema").
                || (t.shape == Shape::Title
                    && !t.blocked()
                    && t.info.sur
                    && after_cue_bracket(text, t.start))
                || (t.shape == Shape::Title && t.info.first)
                // A chat's speaker whose name is also a word ("[5/15/24, 14:50] Wren: …").
                || (speaker && t.shape == Shape::Title && !t.blocked() && t.info.known_name())
                // A speaker's given name that is also a word, in a chat typed in lower
                // case ("[10:50] will: lol thank u all").
                || (speaker && t.info.first && !t.contraction && t.letters() >= 3))
        {
            let last = if t.blocked() { i } else { extend(i, &toks) };
            let close = &text[toks[last].end..];
            if close.starts_with(')') || close.starts_with(':') {
                push(t.start, toks[last].end);
                i = last + 1;
                continue;
            }
        }
        // 0i. A lower-case self-introduction in a chat: "yamamoto aiko here btw".
        if t.shape == Shape::Lower
            && sentence_start(text, t.start)
            && let Some(last) = here_intro(&toks, i, text)
        {
            push(t.start, toks[last].end);
            i = last + 1;
            continue;
        }
        // 0h. Two lower-case words before a birth date, as portal messages and transcripts
        //     write a name ("(dorothy love, born march 16", "its theodore young dob 12/12/78",
        //     "patient wilhelmina rivers date of birth"): a given name, then a surname or a
        //     word the dictionary does not know.
        if t.shape == Shape::Lower
            && i + 1 < toks.len()
            && gap(t, &toks[i + 1]) == " "
            && lower_name_pair(t, &toks[i + 1])
            && (dob_after(&text[toks[i + 1].end..]) || record_after(&text[toks[i + 1].end..]))
        {
            push(t.start, toks[i + 1].end);
            i += 2;
            continue;
        }
        // 0n. A chat's question back about whom: "which one, stavroula? dob 8/26/47?" — one
        //     lower-case word, a given name or no word, asked about before a birth date.
        if t.shape == Shape::Lower
            && !t.blocked()
            && !t.contraction
            && t.letters() >= 3
            && (t.info.first || !t.info.common)
            && text[..t.start].ends_with(", ")
            && text[t.end..]
                .strip_prefix('?')
                .is_some_and(|r| dob_after(r) && r.starts_with(' '))
        {
            push(t.start, t.end);
            i += 1;
            continue;
        }
        // 0j. A name right before its birth date, as lists and letters write it ("#1 Thida,
        //     DOB 26-Nov-1938", "the son of the decedent, Selvaraj, born 1939"): capitalised
        //     words the dictionary does not know. Before a record number ("Nilar MRN …") one
        //     word only when the lexicon knows it (a system's name: "Meditech MRN").
        if matches!(t.shape, Shape::Title | Shape::Caps)
            && !t.blocked()
            && !t.info.common
            && t.letters() >= 3
        {
            let last = extend(i, &toks);
            let after = &text[toks[last].end..];
            let mrn = after
                .trim_start_matches([' ', ','])
                .get(..3)
                .is_some_and(|w| w.eq_ignore_ascii_case("mrn"));
            // A record number glued to its label right after: "CT read BENHAIM MRN4431696".
            let glued_mrn = after
                .strip_prefix(' ')
                .map(str::as_bytes)
                .and_then(|r| r.get(..4))
                .is_some_and(|w| w[..3].eq_ignore_ascii_case(b"mrn") && w[3].is_ascii_digit())
                && t.letters() >= 4;
            // A name and its street address after a comma ("From: Nur Aisyah binti Rahmat,
            // 9503 Pemberton Close", "named in the instrument: Murugesan, 2415 Elm St"): one
            // word only as a field's value.
            let street = after.strip_prefix(", ").is_some_and(|r| {
                let d = r.bytes().take_while(u8::is_ascii_digit).count();
                (1..=6).contains(&d)
                    && r[d..].starts_with(' ')
                    && r[d + 1..].starts_with(char::is_uppercase)
            }) && (last > i || text[..t.start].ends_with(": "));
            if (dob_after(after) && (!mrn || last > i || t.info.known_name()))
                || street
                || glued_mrn
            {
                push(toks[particles_before(&toks, i, text)].start, toks[last].end);
                i = last + 1;
                continue;
            }
        }
        // 0g. A given name that is also a word before a surname ("Will Okonkwo", "June
        //     Hossain", "Hope Okonkwo"): a word the dictionary does not know, or a surname
        //     that is no word, follows. At a sentence's start a modal ("Will", "May") needs a
        //     known surname ("Will Medicaid cover it?" stays).
        //     In capitals ("WILL CASTELLANOS 🚑 DOB …") only a birth date after the surname
        //     tells the name from a heading's words.
        let caps_word_name = t.shape == Shape::Caps
            && t.info.first
            && (t.info.common || t.info.stop)
            && t.letters() >= 3
            && !t.contraction;
        if (word_first_name(t) || caps_word_name)
            && i + 1 < toks.len()
            && gap(t, &toks[i + 1]) == " "
        {
            let strict = t.info.stop && sentence_start(text, t.start);
            // "Will C. Santos": a middle initial before the surname.
            let mut sur = i + 1;
            if toks[sur].letters() == 1
                && toks[sur].w.chars().all(char::is_uppercase)
                && sur + 1 < toks.len()
                && gap(&toks[sur], &toks[sur + 1]) == ". "
            {
                sur += 1;
            }
            let after_initial = sur > i + 1;
            // A surname led by its particle: "Rose Ó Súilleabháin", "Hope de la Cruz" (not in
            // capitals: "VAN DER BERG, ANNEKE" is a surname first).
            while !caps_word_name
                && particle(&toks[sur])
                && sur + 1 < toks.len()
                && sur < i + 3
                && gap(&toks[sur], &toks[sur + 1]) == " "
            {
                sur += 1;
            }
            let n = &toks[sur];
            let known_sur = matches!(n.shape, Shape::Title | Shape::Caps)
                && n.info.sur
                && !n.blocked()
                && (after_initial || dob_after(&text[n.end..]));
            let named = if caps_word_name {
                n.shape == Shape::Caps
                    && (known_sur
                        || (surname_after_word_name(n, false) && dob_after(&text[n.end..])))
            } else {
                surname_after_word_name(n, strict) || known_sur
            };
            if named {
                let last = extend(sur, &toks);
                push(t.start, toks[last].end);
                i = last + 1;
                continue;
            }
        }
        // 1. Name positions after a cue (cue words are stop words: checked only for those).
        // A closing "love," ("love, Bo & the kids"): a cue, though "Love" is a surname too.
        let love = t.shape != Shape::Mixed
            && t.w.eq_ignore_ascii_case("love")
            && text[t.end..].starts_with(',');
        let key = if t.info.stop || love {
            t.key()
        } else {
            String::new()
        };
        let spoke = i > 0
            && t.info.stop
            && (spoke_cue(&toks[i - 1], &key, gap(&toks[i - 1], t))
                // An alias: "Shai Hale, a/k/a S. Hale" (a bounded look back).
                || key == "a" && text[..t.start].ends_with("a/k/")
                || key == "aka");
        if (t.info.stop || love)
            && (spoke
                || love
                || CUES.contains(&key.as_str())
                || (t.shape == Shape::Lower && CHAT_CUES.contains(&key.as_str())))
            && i + 1 < toks.len()
            && cue_fits(&toks, i, &key)
        {
            // A greeting's "this is", "it's", "I'm" stands between the cue and the name ("hi
            // its emeka nwosu again").
            let mut at = i + 1;
            // "patient here, ann lee, dob …": the cue's "here" before the name.
            if toks.get(at).is_some_and(|h| h.key() == "here")
                && at + 1 < toks.len()
                && gap(&toks[at], &toks[at + 1]) == ", "
            {
                at += 1;
            }
            // A possessive after the kin word: Norwegian or Swedish "bestefaren min, Ola",
            // Swahili "bibi yangu Amina", Malay "anak saya Dewi", Tagalog "anak ko si …".
            if is_kin(&key)
                && toks.get(at).is_some_and(|m| {
                    matches!(
                        m.key().as_str(),
                        "min"
                            | "mitt"
                            | "yangu"
                            | "wangu"
                            | "saya"
                            | "ko"
                            // Haitian Creole "manman m X", Vietnamese "mẹ tôi X", Greek
                            // "giagia mou X", "μητέρα μου X".
                            | "m"
                            | "mwen"
                            | "tôi"
                            | "mou"
                            | "μου"
                            // Yoruba "bàbá mi X", "ìyá mi X".
                            | "mi"
                    )
                })
                && at + 1 < toks.len()
                && matches!(gap(&toks[at], &toks[at + 1]), " " | ", ")
            {
                at += 1;
            }
            while at + 1 < toks.len()
                && at <= i + 2
                // "hi i am X", not "Hello! I see the EOB".
                && !(toks[at].key() == "i" && toks[at + 1].key() != "am")
                && matches!(
                    toks[at].key().as_str(),
                    "this" | "is" | "its" | "it" | "im" | "i" | "am" | "me"
                )
                // "it's" is read as "it" with a possessive's "'s" after it.
                && (blank(gap(&toks[at], &toks[at + 1]))
                    || matches!(gap(&toks[at], &toks[at + 1]), "'s " | "’s "))
            {
                at += 1;
            }
            let n = &toks[at];
            let g = if at == i + 1 { gap(t, n) } else { " " };
            let closing = matches!(
                key.as_str(),
                "grüßen"
                    | "grüsse"
                    | "grüße"
                    | "cordialement"
                    | "pozdrawiam"
                    | "thanks"
                    | "thx"
                    | "regards"
                    | "sincerely"
                    | "cheers"
                    | "gracias"
                    | "bendiciones"
                    | "saludos"
                    | "atentamente"
                    | "love"
                    | "groet"
                    | "groeten"
                    | "hilsen"
                    | "ευχαριστώ"
                    | "mahadsanid"
                    | "mèsi"
            );
            // After a title (or "caller"), a surname that is also a word is a name
            // ("Dr. Cook", "caller finch").
            // So does a closing's signature in capitals ("love, Wren", "Thanks, Bishop").
            let title = TITLES.contains(&key.as_str())
                || key == "caller"
                || (closing && n.shape == Shape::Title)
                // "last name marsh": the surname, also a word.
                || (spoke && key == "name");
            if cue_gap(g, closing) {
                // A Spanish closing or "me llamo"/"soy" puts a name in lower case after it ("Gracias,
                // bill", "me llamo cash ibarra").
                let spanish = matches!(
                    key.as_str(),
                    "gracias"
                        | "bendiciones"
                        | "atentamente"
                        | "llamo"
                        | "soy"
                        | "rele"
                        | "chamo"
                        | "si"
                        | "kay"
                        | "chiamo"
                        | "sono"
                        | "naam"
                        | "naitwa"
                        | "hedder"
                        | "saya"
                        | "dic"
                );
                let personal = title
                    || spoke
                    // "hi this is yusra shepherd", "hey its chip": a self-introduction.
                    || at > i + 1
                    || spanish
                    || is_kin(&key)
                    || matches!(key.as_str(), "its" | "agent" | "proxy" | "visitor");
                let word_name = personal
                    && n.shape == Shape::Title
                    && super::rules::WORD_FIRST_NAMES.contains(&n.w);
                // A surname that starts with its particle: "caller st. clair".
                if particle(n)
                    && at + 1 < toks.len()
                    && matches!(gap(n, &toks[at + 1]), " " | ". " | "." | "_" | "._")
                    && toks[at + 1].in_position_after(title, personal)
                {
                    let last = extend(at + 1, &toks);
                    push(n.start, toks[last].end);
                    i = last + 1;
                    continue;
                }
                // An initial and a surname: "his son, M. Tuilagi".
                if n.letters() == 1
                    && n.w.chars().all(char::is_uppercase)
                    && at + 1 < toks.len()
                    && matches!(gap(n, &toks[at + 1]), ". " | ".")
                    && (toks[at + 1].in_position_after(title, personal)
                        // After a kin word a surname that is also a word: "your father, R.
                        // Strong".
                        || (personal
                            && toks[at + 1].shape != Shape::Lower
                            && toks[at + 1].info.sur
                            && !toks[at + 1].blocked()))
                {
                    let last = extend(at + 1, &toks);
                    push(n.start, toks[last].end);
                    i = last + 1;
                    continue;
                }
                // `Pt Bill "Billy" Oyelaran`: the nickname and the surname too.
                if let Some(sur) = nickname_between(&toks, at, text) {
                    let last = extend(sur, &toks);
                    push(n.start, n.end);
                    push(toks[at + 1].start, toks[at + 1].end);
                    push(toks[sur].start, toks[last].end);
                    i = last + 1;
                    continue;
                }
                if word_name
                    || n.in_position_after(title, personal)
                    || (personal && conj_surname(&toks, at, text))
                    || month_first_before_name(&toks, at, text)
                    || (is_kin(&key) && word_as_name(&toks, at, text))
                {
                    let mut last = extend(at, &toks);
                    // Registry order after the cue, the given name also a word: "Pt
                    // Lindqvist, Will, 54 y/o".
                    if let Some(f) = toks.get(last + 1)
                        && gap(&toks[last], f) == ", "
                        && (f.shape == toks[last].shape
                            // "pt: SAKAMOTO, Kenji  Medical record no. …"
                            || (toks[last].shape == Shape::Caps && f.shape == Shape::Title))
                        && f.shape != Shape::Lower
                        && (f.info.first || (!f.info.common && !f.blocked()))
                        && f.letters() >= 2
                        && (text[f.end..].starts_with([',', ';', '.', '(', '\n', '\r'])
                            || text[f.end..].starts_with(" and ")
                            || text[f.end..].starts_with("  ")
                            || text[f.end..].starts_with('\t')
                            || f.end == text.len())
                    {
                        last += 1;
                    }
                    // A lower-case surname that is also a word, before a birth date: "its
                    // theodore young dob 12/12/78"; after a kin word or an introduction, a
                    // surname after a given name no dictionary knows ("my mother adebayo
                    // carpenter shes…", "hi this is yusra shepherd um").
                    if let Some(f) = toks.get(last + 1)
                        && last == at
                        && gap(&toks[last], f) == " "
                        && ((lower_name_pair(&toks[last], f)
                            && (dob_after(&text[f.end..]) || text[f.end..].starts_with(", ")))
                            || (n.shape == Shape::Lower
                                && f.shape == Shape::Lower
                                && !n.info.common
                                && f.info.sur
                                && f.letters() >= 4
                                && !f.blocked()
                                && !f.contraction))
                    {
                        last += 1;
                    }
                    push(n.start, toks[last].end);
                    i = last + 1;
                    continue;
                }
            }
        }
        // 1a. A name told by what follows it: a relation in brackets ("Grzegorz (wojciech's
        //     nephew)", "Marijke bin Rashid, wife)"), a credential ("Lagi Fa'amausili, MD"),
        //     a room in brackets at a handoff line's head ("Bienvenido (739B) - 96 years old").
        let may_start = match t.shape {
            Shape::Title | Shape::Caps => t.in_position(false) || month_first(t),
            Shape::Lower => !t.blocked() && !t.info.common && t.letters() >= 3,
            Shape::Mixed => false,
        };
        // A given name that is also a word ("Journey", "WILL", "BISHOP") is a name when a
        // relation follows it ("II-1  Journey (mother)", "W/ WILL BELL (DTR)").
        let word_name = matches!(t.shape, Shape::Title | Shape::Caps)
            && (t.info.first || !t.info.stop)
            && !t.contraction
            && t.letters() >= 3
            && !not_a_name(t.w);
        if may_start || word_name {
            let last = extend(i, &toks);
            let after = &text[toks[last].end..];
            let head = at_line_head(text, t.start);
            if relation_after(after)
                || may_start
                    && ((t.shape != Shape::Lower && (credential_after(after) && last > i))
                        || (head && t.shape != Shape::Lower && room_in_brackets(after)))
            {
                push(toks[particles_before(&toks, i, text)].start, toks[last].end);
                i = last + 1;
                continue;
            }
        }
        // 1c. A given name and a surname in capitals, as handoffs and lists write them ("Jun
        //     PANGILINAN", "Maria GONZÁLEZ"): a known given name, then a word in capitals the
        //     dictionary does not know.
        if t.shape == Shape::Title
            && ((t.info.first && !t.info.common && !t.blocked()) || month_first(t))
            && i + 1 < toks.len()
            && gap(t, &toks[i + 1]) == " "
            && toks[i + 1].shape == Shape::Caps
            && toks[i + 1].letters() >= 3
            && !toks[i + 1].info.common
            && !toks[i + 1].blocked()
        {
            let last = extend(i + 1, &toks);
            push(t.start, toks[last].end);
            i = last + 1;
            continue;
        }
        // 1b. A salutation without "Dear": a name alone at the head of a line, before a
        //     comma ("Meenakshi, The thyroid panel…").
        if t.shape == Shape::Title
            && !t.info.common
            && !t.blocked()
            && t.letters() >= 3
            && text[t.end..].starts_with(',')
            // A greeting before a self-introduction: "Selam, sime Yusuf new", "Hei, dette er
            // Ola", "Halo, nama saya Dewi".
            && !toks.get(i + 1).is_some_and(|n| {
                matches!(
                    n.key().as_str(),
                    "sime" | "heter" | "hedder" | "jag" | "jeg" | "ik" | "ich" | "je" | "dette"
                        | "det" | "this" | "its" | "my" | "me" | "mi" | "naitwa" | "mwen"
                        | "nama" | "saya" | "jsem" | "mene"
                )
            })
            // "Choi, Kwame - consent.pdf": registry order, read whole by rule 3.
            && !toks
                .get(i + 1)
                .is_some_and(|n| gap(t, n) == ", " && same_case(t, n) && registry(t, n))
            && at_line_head(text, t.start)
        {
            let last = extend(i, &toks);
            push(t.start, toks[last].end);
            i = last + 1;
            continue;
        }
        // 2. A signature: the first words of the line after a closing line or a dash.
        if signature_before(text, t.start)
            && (t.in_position(false) || word_then_surname(&toks, i, text))
        {
            let last = extend(i, &toks);
            // A dash-led line is a signature only when no words follow the name ("- rosa",
            // "- rosa, RN"), not a list's item ("- furosemide (Lasix) 40 mg daily").
            let rest = text[toks[last].end..]
                .split(['\n', '\r'])
                .next()
                .unwrap_or("");
            if !dash_led(text, t.start)
                || !rest.trim_end().contains(char::is_whitespace)
                || rest.starts_with(',')
            {
                push(t.start, toks[last].end);
                i = last + 1;
                continue;
            }
        }
        // 2b. A name signing a line after a dash, at the line's end: "please call me
        //     555-0100 — Will Winter", "it was fine -- M. Ferreira". Two words at least (a
        //     heading's one word stays: "Encounter — Marshallese", "handoff 1500 - MICU";
        //     so does "— Will Call").
        if let Some(from) = dash_signed(&toks, i, text) {
            let last = extend(from, &toks);
            let rest = text[toks[last].end..]
                .split(['\n', '\r'])
                .next()
                .unwrap_or("");
            let words = last + 1 - from;
            // One word signs a line after a phone number ("call me 555-0100 — Ngozi\""), not
            // after a heading's words or its time ("handoff 1500 - MICU").
            let signed_one = [" — ", " -- ", " - ", " – "]
                .iter()
                .find_map(|d| text[..t.start].strip_suffix(d))
                .is_some_and(|l| {
                    let tail = &l[l.floor_char_boundary(l.len().saturating_sub(16))..];
                    l.ends_with(|c: char| c.is_ascii_digit())
                        && tail.bytes().filter(u8::is_ascii_digit).count() >= 7
                })
                && (!t.info.common || t.info.first);
            if rest
                .trim_end_matches([' ', '.', '!', '"', '”', '\''])
                .is_empty()
                && (words >= 2 || from > i || signed_one)
                && (from == i || !toks[from].info.common || toks[from].info.sur)
            {
                push(t.start, toks[last].end);
                i = last + 1;
                continue;
            }
        }
        // 3. Registry order "LAST, FIRST" and HL7 order "LAST^FIRST".
        if i + 1 < toks.len() {
            let n = &toks[i + 1];
            let g = gap(t, n);
            // Also a surname in capitals before a given name as typed ("I/M OKAFOR,
            // Marcus", "SMITH, John"), as rosters and jail slips write them.
            // A fixed-width form pads the surname before its comma ("LITTLE , IVY").
            let comma = matches!(g.trim_end_matches([' ', '\t']), "," | " ,")
                && (same_case(t, n) || (t.shape == Shape::Caps && n.shape == Shape::Title));
            let caret = g == "^";
            // A given name that is also a month before its initial: "BEN-AMI, June X.".
            let month_given = comma
                && t.shape == Shape::Caps
                && !t.blocked()
                && (t.info.known_name() || !t.info.common)
                && t.letters() >= 3
                && month_first_before_name(&toks, i + 1, text);
            if (comma && registry(t, n) && !dotted_credential(&text[n.end..]))
                || month_given
                || (caret && (hl7_pair(t, n) || hl7_name_field(text, t, n)))
            {
                let from = particles_before(&toks, i, text);
                let mut last = if caret { i + 1 } else { extend(i + 1, &toks) };
                // A middle name after another caret.
                if caret
                    && last + 1 < toks.len()
                    && gap(&toks[last], &toks[last + 1]) == "^"
                    && toks[last + 1].continues()
                {
                    last += 1;
                }
                // HL7's further components of the name: a middle initial and a suffix
                // ("OKONJO^BAO^W^JR", "Trịnh^Siobhan^^II").
                let mut end = toks[i + 1].end.max(toks[last].end);
                if caret {
                    let mut k = last + 1;
                    while k < toks.len() && k <= last + 2 {
                        let g = gap(&toks[k - 1], &toks[k]);
                        let w = toks[k].w;
                        let part =
                            (g == "^" && w.len() == 1 && w.chars().all(|c| c.is_ascii_uppercase()))
                                || (matches!(g, "^" | "^^")
                                    && matches!(
                                        w.to_ascii_uppercase().as_str(),
                                        "JR" | "SR" | "II" | "III" | "IV"
                                    ));
                        if !part || text[toks[k].end..].starts_with(|c: char| c.is_alphanumeric()) {
                            break;
                        }
                        end = toks[k].end;
                        k += 1;
                    }
                    last = k - 1;
                    // Empty components up to the field's end belong to the name
                    // ("JEANNOT^TALLULAH^^|").
                    let carets = text[end..].bytes().take_while(|&b| b == b'^').count();
                    if carets > 0 && text[end + carets..].starts_with(['|', '\n', '\r', '~']) {
                        end += carets;
                    }
                }
                push(toks[from].start, end);
                i = last + 1;
                continue;
            }
        }
        // 4. A lower-case pair: a known name beside a word the dictionary does not know.
        if t.shape == Shape::Lower && i + 1 < toks.len() {
            let n = &toks[i + 1];
            if n.shape == Shape::Lower && gap(t, n) == " " && lower_pair(t, n) {
                let last = extend(i + 1, &toks).max(i + 1);
                push(t.start, toks[last].end);
                i = last + 1;
                continue;
            }
        }
        // 5. A possessive before a relation or a record word: "kuznetsova's pharmacy",
        //    "OBI'S daughter" (an unknown word or a known name, not a plain word).
        if possessive_of_person(text, t)
            && (t.in_position(false)
                // A given name that is also a word, before a relative ("Family of Marigold's
                // roommate", "Hope's daughter"), also a surname typed in capitals ("fyi
                // MOODY's son called"), longer than an acronym.
                || (matches!(t.shape, Shape::Title | Shape::Caps)
                    && !t.blocked()
                    && t.letters() >= if t.shape == Shape::Caps { 4 } else { 3 }
                    && kin_after_possessive(text, t))
                // "Bishop's bp 88/50": a surname that is also a word, before vitals.
                || (t.shape == Shape::Title && t.info.sur && !t.blocked() && vitals_after(text, t)))
        {
            // With its particles: "de Vries's bp", "st. pierre's bp".
            push(toks[particles_before(&toks, i, text)].start, t.end);
            i += 1;
            continue;
        }
        // 5b. A first name and an initial ("Mi-kyung J.", "Krzysztof S."): a name the way
        //     staff chats write it.
        if matches!(t.shape, Shape::Title)
            && (!t.info.common || t.info.first)
            && (!t.blocked() || month_first(t))
            && i + 1 < toks.len()
            && gap(t, &toks[i + 1]) == " "
            && toks[i + 1].letters() == 1
            && toks[i + 1].w.chars().all(char::is_uppercase)
            && text[toks[i + 1].end..].starts_with('.')
        {
            push(t.start, toks[i + 1].end);
            i += 2;
            continue;
        }
        // A capitalised word right after a number is a unit or a ward ("4 West"), not a person.
        let after_number = text[..t.start]
            .strip_suffix(' ')
            .is_some_and(|b| b.ends_with(|c: char| c.is_ascii_digit()));
        if after_number && t.shape == Shape::Title {
            i += 1;
            continue;
        }
        // 6. The subject of a verb only people are ("Olu prefers mornings", "IWU seen
        //    today", "Kuznetsova to return", "rose asked"), in prose.
        // A board's item led by a surname in capitals that is also a word ("- BISHOP d/c
        // today"): the person the item is about.
        let caps_head = t.shape == Shape::Caps
            && t.info.sur
            && !t.blocked()
            && t.letters() >= 3
            && dash_led(text, t.start);
        if t.subject(true) || caps_head {
            let mut last = extend(i, &toks);
            // A lower-case surname that is also a word before the verb: "aroha love in rm
            // 452-2", "oluwaseun stone is in the er".
            if t.shape == Shape::Lower
                && last == i
                && toks.get(i + 1).is_some_and(|n| {
                    gap(t, n) == " " && lower_name_pair(t, n) && n.info.sur && n.info.common
                })
                && person_predicate(&toks, i + 1, text).is_none()
                && person_predicate(&toks, i + 2, text).is_some()
            {
                last = i + 1;
            }
            if let Some(strong) = person_predicate(&toks, last + 1, text)
                && (t.subject(strong) || caps_head)
                && (t.shape != Shape::Lower || prose_word(text, t))
            {
                push(toks[particles_before(&toks, i, text)].start, toks[last].end);
                i = last + 1;
                continue;
            }
        }
        // 7. A known name alone (in lower case only as a word of prose, not a login or a
        //    code: "`mallory`", "mallory@", "/mallory"), with a surname's particles before
        //    it ("ST._CLAIR").
        if t.lone() && (t.shape != Shape::Lower || prose_word(text, t)) {
            let last = extend(i, &toks);
            let mut from = particles_before(&toks, i, text);
            // The surname before a first name in a file name or a list, in the same case
            // and unknown to the dictionary ("9475758_OIKONOMOU_ELENI").
            if from == i
                && i > 0
                && blank(gap(&toks[i - 1], t))
                && toks[i - 1].shape == t.shape
                && !toks[i - 1].info.common
                && !toks[i - 1].blocked()
                && toks[i - 1].letters() >= 3
            {
                from = i - 1;
            }
            push(toks[from].start, toks[last].end);
            i = last + 1;
            continue;
        }
        i += 1;
    }
    // 8. A message signed with a name alone on its last line, in any case ("sorry for the
    //    long message\nmataio tuilagi"): two or three words the dictionary does not know.
    if let Some((s, e)) = last_line_name(text, &toks) {
        push(s, e);
    }
    // 9. A reply signed with a given name alone on its line, right before the quoted mail's
    //    header ("dawn\n\nOn Mon, Dec 15, 2025 at 4:07 PM Yuki Tanabe wrote:").
    if let Some((s, e)) = signed_before_quote(text, &toks) {
        push(s, e);
    }
    for (start, end) in initials {
        cands.push((
            Span {
                kind: Kind::Person,
                start,
                end,
            },
            PRIO,
        ));
    }
}

/// A romanised Urdu/Hindi or Swahili function word capitalised at a sentence's head ("Meri
/// walida …", "Mera number … hai", "Kal Zubair …"): a name elsewhere ("Meri", "Mera"), a
/// word here when the rest of its sentence holds another such word in lower case (a bounded
/// look ahead). Where the name starts after it, if anywhere.
fn function_word_capitalised(text: &str, s: usize, e: usize) -> Option<usize> {
    let v = &text[s..e];
    let w = v.split(' ').next().unwrap_or(v);
    if !w.starts_with(char::is_uppercase) || !super::lexicon::lower_function_word(&w.to_lowercase())
    {
        return None;
    }
    let rest = &text[e..text.floor_char_boundary((e + 120).min(text.len()))];
    let rest = &rest[..rest.find(['.', '!', '?', '\n']).unwrap_or(rest.len())];
    rest.split(|c: char| !c.is_alphabetic())
        .any(|x| {
            !x.is_empty()
                && x.chars().all(char::is_lowercase)
                && super::lexicon::lower_function_word(x)
        })
        .then(|| (s + w.len() + 1).min(e))
}

/// A saint's name that names a parish, a church or a hospital ("St. Brendan's parish hall",
/// "Saint Jude's Hospital"): a place, not a person.
fn saint_place(text: &str, s: usize, e: usize) -> bool {
    let v = &text[s..e];
    if !["St. ", "St ", "Saint ", "ST. ", "SAINT "]
        .iter()
        .any(|p| v.starts_with(p))
    {
        return false;
    }
    let Some(after) = ["'s ", "’s ", "'S ", "’S "]
        .iter()
        .find_map(|p| text[e..].strip_prefix(p))
    else {
        return false;
    };
    let next: String = after
        .chars()
        .take_while(|c| c.is_alphabetic())
        .flat_map(char::to_lowercase)
        .collect();
    matches!(
        next.as_str(),
        "parish"
            | "church"
            | "chapel"
            | "cathedral"
            | "hall"
            | "hospital"
            | "school"
            | "academy"
            | "college"
            | "cemetery"
            | "clinic"
            | "medical"
            | "center"
            | "centre"
            | "home"
            | "hospice"
            | "episcopal"
            | "catholic"
            | "shelter"
            | "pantry"
    )
}

/// A street's type word and the city after its comma, read as "Last, First" ("4610
/// Larchmont Way, Ashgrove", "9503 Pemberton Close, Marlowe"): the street's name stands
/// before it.
fn street_then_city(text: &str, s: usize, e: usize) -> bool {
    let Some((head, _)) = text[s..e].split_once(", ") else {
        return false;
    };
    let street_type = matches!(
        head.to_ascii_lowercase().as_str(),
        "way"
            | "close"
            | "lane"
            | "ln"
            | "street"
            | "st"
            | "avenue"
            | "ave"
            | "road"
            | "rd"
            | "drive"
            | "dr"
            | "boulevard"
            | "blvd"
            | "pike"
            | "row"
            | "terrace"
            | "ter"
            | "square"
            | "sq"
            | "court"
            | "ct"
            | "place"
            | "pl"
            | "circle"
            | "cir"
            | "parkway"
            | "pkwy"
            | "highway"
            | "hwy"
            | "trail"
            | "loop"
            | "path"
            | "crescent"
            | "plaza"
            | "cove"
            | "bend"
            | "glen"
            | "heights"
            | "walk"
            | "grove"
            | "mews"
            | "point"
            | "hill"
            | "ridge"
            | "run"
            | "trace"
            | "chase"
            | "landing"
    );
    // The word before it is the street's name ("Larchmont") or its number.
    street_type
        && text[text.floor_char_boundary(s.saturating_sub(40))..s]
            .strip_suffix(' ')
            .is_some_and(|b| {
                b.chars().next_back().is_some_and(|c| c.is_alphanumeric())
                    && b.rsplit(' ').next().is_some_and(|w| {
                        w.starts_with(|c: char| c.is_uppercase() || c.is_ascii_digit())
                    })
            })
}

/// A word after "County of", "City of" (a court's or a registry's caption: "PROBATE COURT,
/// COUNTY OF ASHGROVE"): a place.
fn place_of(text: &str, s: usize) -> bool {
    let head = &text[text.floor_char_boundary(s.saturating_sub(16))..s];
    let head = head.to_ascii_lowercase();
    // Whole words only ("capacity of", "estate of" name no place).
    [
        "county of ",
        "city of ",
        "town of ",
        "parish of ",
        "borough of ",
        "township of ",
        "village of ",
    ]
    .iter()
    .any(|p| {
        head.strip_suffix(p)
            .is_some_and(|b| !b.ends_with(char::is_alphabetic))
    })
}

/// The one word of a reply's signature line before "On … wrote:": a given name the lexicon
/// knows, also one that is a word ("dawn", "April"), or a word it does not know.
fn signed_before_quote(text: &str, toks: &[Tok<'_>]) -> Option<(usize, usize)> {
    let wrote = text.find(" wrote:")?;
    let head = text[..wrote].rfind('\n')? + 1;
    if !text[head..].starts_with("On ") {
        return None;
    }
    let body = text[..head].trim_end();
    let line_start = body.rfind('\n').map_or(0, |p| p + 1);
    let line = body[line_start..].trim();
    if line.is_empty() || line.contains(|c: char| !c.is_alphabetic()) {
        return None;
    }
    let t = toks
        .iter()
        .find(|t| t.start >= line_start && t.end <= body.len())?;
    let ok = !t.blocked() && t.letters() >= 3 && (t.info.first || !t.info.common);
    ok.then_some((t.start, t.end))
}

/// Whether `text[s..e]` is a piece of a word OCR broke ("Hom e Phone", "REGISTRATI0N", "Na
/// me:", "Famil y"): with the short piece glued before or after it, the dictionary knows the
/// word.
pub(super) fn ocr_piece(text: &str, s: usize, e: usize) -> bool {
    let letters = |w: &str| -> Option<String> {
        w.chars()
            .map(|c| match c {
                '0' => Some('o'),
                '1' => Some('l'),
                c if c.is_alphabetic() => Some(c),
                _ => None,
            })
            .collect::<Option<String>>()
    };
    let span = &text[s..e];
    // A name spelled out letter by letter ("m a r s h") is no scanner's broken word.
    if span.len() >= 5 && span.split(' ').all(|w| w.chars().count() == 1) {
        return false;
    }
    let last = span.rsplit(' ').next().unwrap_or(span);
    let first = span.split(' ').next().unwrap_or(span);
    // The piece after: glued by a 0/1 ("REGISTRATI0N") or after one blank ("Hom e").
    let rest = &text[e..];
    let after = rest.strip_prefix(' ').unwrap_or(rest);
    let piece: &str = &after[..after
        .find(|c: char| !(c.is_alphabetic() || c == '0' || c == '1'))
        .unwrap_or(after.len())];
    let glued = !rest.starts_with(' ') && rest.starts_with(['0', '1']);
    // A name before a short word is no piece ("Jo in the lobby").
    let loose = |p: &str, w: &str| !LEXICON.info(p).stop || !LEXICON.info(w).known_name();
    if !piece.is_empty()
        && piece.chars().count() <= 3
        && (glued || (rest.starts_with(' ') && loose(piece, last)))
        && let Some(b) = letters(piece)
    {
        // The last word alone or the whole span is the word's head ("REGIS TRAT I0N").
        let whole: String = span.split(' ').collect();
        if [last, whole.as_str()]
            .iter()
            .filter_map(|w| letters(w))
            .any(|a| LEXICON.info(&format!("{a}{b}")).common)
        {
            return true;
        }
    }
    // The piece before, after one blank: "RE GISTRATION".
    let before = &text[..s];
    if let Some(b) = before.strip_suffix(' ') {
        let p_start = b
            .char_indices()
            .rev()
            .find(|&(_, c)| !(c.is_alphabetic() || c == '0' || c == '1'))
            .map_or(0, |(p, c)| p + c.len_utf8());
        let piece = &b[p_start..];
        if !piece.is_empty()
            && piece.chars().count() <= 3
            && loose(piece, first)
            && let (Some(a), Some(b)) = (letters(piece), letters(first))
        {
            return LEXICON.info(&format!("{a}{b}")).common;
        }
    }
    false
}

/// A surname the stop list holds as an eponym ("Bell's palsy", "Foley catheter"): a name
/// again beside a given name or an initial.
fn eponym_surname(t: &Tok<'_>) -> bool {
    t.info.sur
        && matches!(
            t.key().as_str(),
            "bell" | "foley" | "holter" | "braden" | "morse" | "parkinson" | "hodgkin" | "crohn"
        )
}

/// A token of single capitals joined by hyphens ("S-M-I-T-H"): how many letters, else 0.
fn spelled_run(t: &Tok<'_>) -> usize {
    let parts: Vec<&str> = t.w.split('-').collect();
    if parts.len() >= 2
        && parts
            .iter()
            .all(|p| p.chars().count() == 1 && p.chars().all(char::is_uppercase))
    {
        parts.len()
    } else {
        0
    }
}

/// The first name word of a clipped name at token `i` (see `lexicon_names`, 0b'): `i + 1`
/// after a led initial or "back" of "call back", `i` after an age and sex.
fn clipped_name(toks: &[Tok<'_>], i: usize, text: &str) -> Option<usize> {
    let t = &toks[i];
    let name_like = |n: &Tok<'_>| {
        matches!(n.shape, Shape::Title | Shape::Caps)
            && n.letters() >= 2
            && !n.blocked()
            && (!n.info.common || n.info.sur)
    };
    // Cheap tests first: this runs for every word.
    if t.w.len() == 1 {
        let n = toks.get(i + 1)?;
        return (t.shape == Shape::Caps || t.w.chars().all(char::is_uppercase))
            .then_some(())
            .filter(|()| text[t.end..n.start] == *". " && name_like(n))
            .filter(|()| initial_before(text, n.start).is_some())
            .map(|()| i + 1);
    }
    if t.w.len() == 4 && t.key() == "back" {
        let (c, n) = (toks.get(i.checked_sub(1)?)?, toks.get(i + 1)?);
        let follows_digit = text[n.end..]
            .strip_prefix(' ')
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()));
        return (matches!(c.key().as_str(), "call" | "calling" | "ring" | "phone")
            && gap_is(text, c, t, " ")
            && gap_is(text, t, n, " ")
            && n.shape == Shape::Title
            && name_like(n)
            && !follows_digit)
            .then_some(i + 1);
    }
    // "94F Park", "72M SMITH": digits and the sex glued, a blank, the surname.
    let b = &text.as_bytes()[..t.start];
    if b.len() >= 3
        && b[b.len() - 1] == b' '
        && matches!(b[b.len() - 2], b'F' | b'M')
        && b[b.len() - 3].is_ascii_digit()
        && name_like(t)
    {
        let digits = b[..b.len() - 2]
            .iter()
            .rev()
            .take_while(|c| c.is_ascii_digit())
            .count();
        let at = b.len() - 2 - digits;
        if digits <= 3 && (at == 0 || matches!(b[at - 1], b' ' | b'\n' | b'(' | b',')) {
            return Some(i);
        }
    }
    None
}

fn gap_is(text: &str, a: &Tok<'_>, b: &Tok<'_>, g: &str) -> bool {
    text[a.end..b.start] == *g
}

/// A romanised Korean name, family name first, before the honorific of a patient: "CHOI
/// MIN-JUN hwanjanim", "Park Ji-hoon hwanjanim": the first and last token of the name.
fn korean_honorific(toks: &[Tok<'_>], i: usize, text: &str) -> Option<(usize, usize)> {
    // Cheap test first (no allocation): this runs for every word.
    let honorific = |k: usize| {
        toks.get(k).is_some_and(|h| {
            h.w.eq_ignore_ascii_case("hwanjanim") || h.w.eq_ignore_ascii_case("hwanja")
        }) && gap_is(text, &toks[k - 1], &toks[k], " ")
    };
    let (one, two) = (honorific(i + 1), honorific(i + 2));
    if !one && !two {
        return None;
    }
    let t = &toks[i];
    if t.shape == Shape::Lower || t.blocked() {
        return None;
    }
    if one {
        return Some((i, i));
    }
    let n = toks.get(i + 1)?;
    // The honorific says it is a name: the given name's syllables may be words or months
    // elsewhere ("MIN-JUN").
    (same_case(t, n) && n.letters() >= 2 && gap_is(text, t, n, " ")).then_some((i, i + 1))
}

/// A surname spelled in small letters right after its form's words, as a transcript writes
/// a caller's spelling: "last name w-a-r-s-a-m-e", "surname, o-k-a-f-o-r".
fn spelled_after_name(toks: &[Tok<'_>], i: usize, text: &str) -> bool {
    let t = &toks[i];
    // Cheap test first: this runs for every word.
    if t.w.len() < 5 || t.w.as_bytes()[1] != b'-' || i < 1 {
        return false;
    }
    let parts = t.w.split('-');
    if !parts
        .clone()
        .all(|p| p.chars().count() == 1 && p.chars().all(char::is_lowercase))
        || parts.count() < 3
    {
        return false;
    }
    let cue = &toks[i - 1];
    if !matches!(
        text[cue.end..t.start].trim_matches(' '),
        "" | "," | ":" | "is"
    ) {
        return false;
    }
    match cue.key().as_str() {
        "surname" | "spelled" | "spelling" => true,
        "name" => {
            i >= 2
                && matches!(
                    toks[i - 2].key().as_str(),
                    "last" | "first" | "family" | "middle" | "maiden" | "sur"
                )
        }
        _ => false,
    }
}

/// A name spelled out in a transcript typed in lower case: four or more single letters apart
/// by one blank or a dot and a blank ("s h a r m a", "m. a. c. a. r. a. e. g"), or joined by
/// hyphens ("l-a-n-e"); the index of its last token. No word is written so.
fn spelled_lower(toks: &[Tok<'_>], i: usize, text: &str) -> Option<usize> {
    let t = &toks[i];
    // Cheap tests first: this runs for every word.
    let b = t.w.as_bytes();
    if !b[0].is_ascii_lowercase() {
        return None;
    }
    if b.len() >= 7 && b[1] == b'-' {
        let mut parts = 0;
        for p in t.w.split('-') {
            if p.len() != 1 || !p.as_bytes()[0].is_ascii_lowercase() {
                return None;
            }
            parts += 1;
        }
        return (parts >= 4).then_some(i);
    }
    if b.len() != 1 {
        return None;
    }
    let next = toks.get(i + 1)?;
    let sep = &text[t.end..next.start];
    if !matches!(sep, " " | ". ") {
        return None;
    }
    let mut last = i;
    while let Some(n) = toks.get(last + 1) {
        if n.w.len() != 1
            || !n.w.as_bytes()[0].is_ascii_lowercase()
            || &text[toks[last].end..n.start] != sep
        {
            break;
        }
        last += 1;
    }
    (last >= i + 3).then_some(last)
}

/// Whether the text after a title's initial goes on as a sentence does, not as a name does:
/// a lower-case word, a comma, a bracket or a stop ("mr m in 104", "Mrs K, bed 2"), not a
/// surname ("Mr J Smith") or another initial.
fn initial_ends_clause(after: &str) -> bool {
    if after.is_empty() || after.starts_with([',', ')', '?', '!', ';', '\n', '\r']) {
        return true;
    }
    let Some(r) = after.strip_prefix(' ') else {
        return false;
    };
    let w: &str = r.split(|c: char| !c.is_alphabetic()).next().unwrap_or("");
    w.chars().count() >= 2 && w.chars().all(char::is_lowercase) && {
        // Short function words are also names somewhere ("In", "On"): read as words here.
        matches!(
            w,
            "in" | "on" | "at" | "is" | "was" | "has" | "and" | "to" | "from"
        ) || {
            let info = LEXICON.info(w);
            info.common || info.stop || !info.known_name()
        }
    } || w.is_empty() && r.starts_with(|c: char| c.is_ascii_digit())
}

/// After "spelled" (or "spelling", "spell"), the letters of a spelled name: single letters
/// apart by blanks, hyphens or dots ("P I E R R E L O U I S", "S-M-I-T-H", "B. R. O. W. N.");
/// the index of the last one.
fn spelled(toks: &[Tok<'_>], i: usize, text: &str) -> Option<usize> {
    let t = &toks[i];
    // Cheap test first: this runs for every word.
    let spell = t.w.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("spel"))
        && matches!(
            t.key().as_str(),
            "spell" | "spelled" | "spelt" | "spelling" | "spells"
        );
    // A transcript's "last name kealoha thats k e a l o h a": three letters at least.
    let thats = !spell
        && t.w.get(..4).is_some_and(|p| p.eq_ignore_ascii_case("that"))
        && (t.key() == "thats" || (t.key() == "that" && text[t.end..].starts_with("'s ")));
    if !spell && !thats {
        return None;
    }
    let mut j = i + 1;
    // "spelled as", "spelling is".
    if toks
        .get(j)
        .is_some_and(|n| matches!(n.key().as_str(), "as" | "is" | "its"))
    {
        j += 1;
    }
    let first = toks.get(j)?;
    let g = &text[toks[j - 1].end..first.start];
    if g.len() > 3 || !g.chars().all(|c| matches!(c, ' ' | ':' | ',' | '-')) {
        return None;
    }
    if spelled_run(first) >= 2 {
        return Some(j);
    }
    let single = |k: usize| {
        toks.get(k)
            .is_some_and(|n| n.w.chars().count() == 1 && n.w.chars().all(char::is_alphabetic))
    };
    let mut last = j;
    if !single(j) {
        return None;
    }
    while single(last + 1) {
        let g = &text[toks[last].end..toks[last + 1].start];
        if g.is_empty() || g.len() > 3 || !g.chars().all(|c| matches!(c, ' ' | '-' | '.')) {
            break;
        }
        last += 1;
    }
    (last > j + usize::from(thats)).then_some(last)
}

/// Spoken marks of a dictation: the name before one ends there.
fn dictated_mark(t: &Tok<'_>) -> bool {
    matches!(t.key().as_str(), "period" | "comma" | "colon" | "semicolon")
}

/// A dictated name after a cue: one to three lower-case words before a spoken mark, every
/// one of them a possible name word, at least one a given name or a word the dictionary does
/// not know; the index of its last word.
fn dictated_name(toks: &[Tok<'_>], i: usize, text: &str) -> Option<usize> {
    let t = &toks[i];
    if !t.info.stop || !(CUES.contains(&t.key().as_str()) || is_kin(&t.key())) {
        return None;
    }
    let mut last = None;
    for k in i + 1..(i + 4).min(toks.len()) {
        let n = &toks[k];
        if text[toks[k - 1].end..n.start] != *" " || n.shape != Shape::Lower {
            return None;
        }
        if k > i + 1 && dictated_mark(n) {
            last = Some(k - 1);
            break;
        }
        let word_name = n.info.first && n.info.stop;
        if n.contraction || n.letters() < 2 || (n.blocked() && !word_name) {
            return None;
        }
    }
    let last = last?;
    let words = &toks[i + 1..=last];
    words
        .iter()
        .any(|w| w.info.first || !w.info.common)
        .then_some(last)
}

/// Whether `after` (the text right after a word) gives a person's age and sex as notes and
/// subjects write them after a name: ", 96M", ", 83F w/", " aged 99", " 90 y/o", " 99yo",
/// " 102-year-old".
fn age_after(after: &str) -> bool {
    let rest = after
        .strip_prefix(", ")
        .or_else(|| after.strip_prefix(' '))
        .unwrap_or("");
    // " aged 99" (not ", aged 99") needs no unit after the number.
    let (rest, aged) = match rest.strip_prefix("aged ") {
        Some(r) => (r, after.starts_with(' ')),
        None => (rest, false),
    };
    let d = rest.bytes().take_while(u8::is_ascii_digit).count();
    if !(1..=3).contains(&d) {
        return false;
    }
    let unit = &rest[d..];
    if aged {
        return unit.is_empty() || !unit.starts_with(|c: char| c.is_alphanumeric());
    }
    let sexed = |u: &str| {
        u.strip_prefix(['M', 'F'])
            .is_some_and(|r| !r.starts_with(|c: char| c.is_alphanumeric()))
    };
    sexed(unit)
        || sexed(unit.strip_prefix(' ').unwrap_or(""))
        || [
            "y/o",
            "y.o",
            " y/o",
            " y.o",
            " yo ",
            " yo,",
            "-year-old",
            " years old",
            " year old",
            " yrs",
            "yo",
        ]
        .iter()
        .any(|u| unit.starts_with(u) && !unit[u.len()..].starts_with(char::is_alphabetic))
}

/// "Chaudhry, A." and "Phạm J, 71" (a surname and its initial), "Bishop (Björn), 82" (a
/// surname and the given name in brackets before an age): the index of the initial or given
/// name, and whether the two are apart (brackets between).
fn surname_initial(toks: &[Tok<'_>], i: usize, text: &str) -> Option<(usize, bool)> {
    let t = &toks[i];
    let n = toks.get(i + 1)?;
    // An eponym's word that is a surname stays one before an initial ("Bell, T.", "Foley, M.").
    let eponym_sur = eponym_surname(t);
    if t.shape == Shape::Lower
        || t.shape == Shape::Mixed
        || t.letters() < 2
        || (t.blocked() && !eponym_sur)
        || (t.info.common && !t.info.sur)
    {
        return None;
    }
    let g = &text[t.end..n.start];
    let after = &text[n.end..];
    let initial = n.letters() == 1 && n.w.chars().all(char::is_uppercase);
    let age_after = |r: &str| {
        r.strip_prefix(", ")
            .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
    };
    if initial && g == ", " && after.starts_with('.') {
        // Not a list of initials ("A, B. and C.").
        let next = after[1..].chars().next();
        return next
            .is_none_or(|c| !c.is_alphabetic())
            .then_some((i + 1, false));
    }
    if initial && g == " " && age_after(after) {
        return Some((i + 1, false));
    }
    if g == " ("
        && n.shape == Shape::Title
        && !n.blocked()
        && (!n.info.common || n.info.first)
        && after.strip_prefix(')').is_some_and(age_after)
    {
        return Some((i + 1, true));
    }
    None
}

/// `Elif "Eli" Chaudhry`: the index of the surname when a nickname in quotes or brackets
/// stands between a first name and it.
fn nickname_between(toks: &[Tok<'_>], i: usize, text: &str) -> Option<usize> {
    let (t, n, m) = (&toks[i], toks.get(i + 1)?, toks.get(i + 2)?);
    let open = &text[t.end..n.start];
    let close = &text[n.end..m.start];
    let quoted = matches!(
        (open, close),
        (" \"", "\" ") | (" “", "” ") | (" (", ") ") | (" '", "' ")
    );
    let name_word = |x: &Tok<'_>| {
        x.shape != Shape::Lower
            && x.shape != Shape::Mixed
            && x.letters() >= 2
            && ((!x.blocked() && (!x.info.common || x.info.known_name()))
                || (x.info.first && x.shape == Shape::Title))
    };
    // Between a capitalised word and a surname, the quotes tell a nickname, and so a given
    // name, even where both are words ("Honor \"Pip\" Marsh").
    let word =
        |x: &Tok<'_>| x.shape == Shape::Title && !x.info.stop && !x.contraction && !not_a_name(x.w);
    let strong_sur = !m.blocked() && m.shape != Shape::Lower && (m.info.sur || !m.info.common);
    (quoted
        && (name_word(t) && (t.info.first || !t.info.common) || word(t) && strong_sur)
        && (name_word(n) || word(n) && strong_sur)
        && name_word(m)
        && (m.info.sur || !m.info.common))
        .then_some(i + 2)
}

/// A capitalised word that is also a dictionary word ("Marigold", "Honor") and a surname
/// after it that is no dictionary word ("Marigold MacAskill", "Honor Penhallow").
fn word_then_surname(toks: &[Tok<'_>], i: usize, text: &str) -> bool {
    let t = &toks[i];
    t.shape == Shape::Title
        && !t.blocked()
        && t.letters() >= 3
        && toks.get(i + 1).is_some_and(|n| {
            text[t.end..n.start] == *" "
                && matches!(n.shape, Shape::Title | Shape::Caps)
                && !n.blocked()
                && n.letters() >= 3
                && !n.info.common
        })
}

/// After a kin word, a capitalised dictionary word is the relative's given name ("my mom
/// Marigold Vasilescu", "returned to wife Honor next day", "call her daughter Honor at …")
/// when a surname or the clause's end follows it, not more words of a phrase.
fn word_as_name(toks: &[Tok<'_>], at: usize, text: &str) -> bool {
    let n = &toks[at];
    if n.shape != Shape::Title || n.blocked() || n.letters() < 3 {
        return false;
    }
    let after = &text[n.end..];
    word_then_surname(toks, at, text)
        || after.is_empty()
        || after.starts_with([',', '.', ';', '!', '?', ')', '\n', '\r'])
        || [
            " at ", " next ", " and ", " will ", " is ", " has ", " (", " on ",
        ]
        .iter()
        .any(|w| after.starts_with(w))
        // A verb in lower case after it, the kin word right before it: "spouse Honor signs
        // if …", "my wife Honor join?" (not "with patient and son. Next appointment …").
        || toks.get(at + 1).is_some_and(|v| {
            text[..n.start]
                .strip_suffix(' ')
                .is_some_and(|b| b.ends_with(char::is_alphabetic))
                && text[n.end..v.start] == *" "
                && v.shape == Shape::Lower
                && !v.info.stop
                && v.letters() >= 3
        })
}

/// Whether a cue word that is also an everyday word cues a name here: "soon" only in a wish
/// ("get well soon Ann").
fn cue_fits(toks: &[Tok<'_>], i: usize, key: &str) -> bool {
    match key {
        "soon" => i > 0 && toks[i - 1].key() == "well",
        _ => true,
    }
}

/// Whether `t` is the person a chat line speaks to: after a reply or greeting word and
/// before a comma or a "!" ("yes Emre,", "Hi April,", "Hi JB!").
fn addressed(prev: &Tok<'_>, t: &Tok<'_>, g: &str, text: &str) -> bool {
    if !matches!(g, " " | ", ") || !text[t.end..].starts_with([',', '!']) {
        return false;
    }
    let greeting = matches!(
        prev.key().as_str(),
        "hi" | "hello" | "hey" | "dear" | "morning" | "afternoon" | "evening"
    );
    let reply = matches!(
        prev.key().as_str(),
        "yes"
            | "yeah"
            | "yep"
            | "no"
            | "nope"
            | "ok"
            | "okay"
            | "k"
            | "sure"
            | "thanks"
            | "thx"
            | "sorry"
            | "bye"
            | "great"
            | "perfect"
    );
    if !(greeting || reply) || !text[t.end..].starts_with([',', '!']) {
        return false;
    }
    match t.shape {
        Shape::Title => {
            (!t.blocked() && (!t.info.common || t.info.first)) || (t.info.first && greeting)
        }
        // "Hi JB,": initials a greeting uses.
        Shape::Caps => {
            greeting
                && (2..=3).contains(&t.letters())
                && !ABBREVIATIONS.contains(&t.w)
                && !t.info.stop
        }
        Shape::Lower => !t.blocked() && !t.info.common && t.letters() >= 3,
        Shape::Mixed => false,
    }
}

/// Whether `at` follows "room 19b (", "rm 437-2 (", "bed 5 (": a name in brackets after a
/// room or a bed.
fn after_room_bracket(text: &str, at: usize) -> bool {
    let Some(b) = text[..at].strip_suffix('(') else {
        return false;
    };
    let Some(b) = b.strip_suffix(' ') else {
        return false;
    };
    let num_start = b
        .char_indices()
        .rev()
        .find(|&(_, c)| !(c.is_ascii_alphanumeric() || c == '-'))
        .map_or(0, |(p, c)| p + c.len_utf8());
    let num = &b[num_start..];
    if num.is_empty() || !num.starts_with(|c: char| c.is_ascii_digit()) {
        return false;
    }
    let Some(b) = b[..num_start].strip_suffix(' ') else {
        return false;
    };
    let w_start = b
        .char_indices()
        .rev()
        .find(|&(_, c)| !c.is_alphabetic())
        .map_or(0, |(p, c)| p + c.len_utf8());
    matches!(
        b[w_start..].to_lowercase().as_str(),
        "room" | "rm" | "bed" | "bay"
    )
}

/// Whether `at` follows "patient (", "pt (", "client (" or a kin word and a bracket: a name in
/// brackets after the person it names ("patient (Winter) developed", "son (Kofi) called").
fn after_cue_bracket(text: &str, at: usize) -> bool {
    let Some(b) = text[..at].strip_suffix(" (") else {
        return false;
    };
    let w_start = b
        .char_indices()
        .rev()
        .find(|&(_, c)| !c.is_alphabetic())
        .map_or(0, |(p, c)| p + c.len_utf8());
    let w = b[w_start..].to_lowercase();
    if matches!(
        w.as_str(),
        "patient" | "pt" | "client" | "resident" | "member"
    ) || is_kin(&w)
    {
        return true;
    }
    // A transcript's numbered speaker: "Speaker 2 (Jolanta):".
    let Some(b) = b.strip_suffix(|c: char| c.is_ascii_digit()) else {
        return false;
    };
    let b = b.trim_end_matches(|c: char| c.is_ascii_digit());
    b.to_lowercase().ends_with("speaker ")
}

/// Whether `at` is a chat transcript's speaker: right after a time in brackets at the start
/// of a line ("[15:27] Will: ...").
fn chat_speaker(text: &str, at: usize) -> bool {
    // Cheap test first: this runs for every word.
    if !text[..at].ends_with("] ") {
        return false;
    }
    let line_start = super::line_start(text, at);
    let lead = &text[line_start..at];
    let Some(inner) = lead
        .trim_end_matches(' ')
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
    else {
        return false;
    };
    lead.ends_with(' ')
        && inner.contains(':')
        // A chat export's date too: "[7/21/25, 14:35]", "[21.07.25, 14:35:02]".
        && inner.chars().all(|c| {
            c.is_ascii_digit()
                || matches!(
                    c,
                    ':' | ' ' | 'A' | 'P' | 'M' | 'a' | 'p' | 'm' | '/' | ',' | '.' | '-'
                )
        })
}

/// Words a chat's nickname puts before a name ("big o'donoghue", "lil tran").
const NICK_ADJECTIVES: &[&str] = &["big", "lil", "little", "auntie", "uncle", "papa", "mama"];

/// A lower-case self-introduction at a sentence's start in a chat: one to three name words and
/// "here" ("yamamoto aiko here btw", "idris lindqvist here,"); the index of the last word.
fn here_intro(toks: &[Tok<'_>], i: usize, text: &str) -> Option<usize> {
    let ok = |t: &Tok<'_>| {
        t.shape == Shape::Lower
            && !t.contraction
            && t.letters() >= 2
            && !t.blocked()
            && !not_a_name(t.w)
            && (t.info.known_name() || !t.info.common)
    };
    let mut j = i;
    // A particle inside the name: "sunny ó súilleabháin here".
    while j < toks.len() && j < i + 4 && (ok(&toks[j]) || j > i && particle(&toks[j])) {
        let after = &text[toks[j].end..];
        if let Some(r) = after.strip_prefix(" here")
            && !r.starts_with(char::is_alphanumeric)
            && !r.starts_with(" is")
            && !r.starts_with(" are")
        {
            // One word alone must be no dictionary word at all ("emeric here").
            return (j > i || !toks[i].info.common).then_some(j);
        }
        if j + 1 < toks.len() && text[toks[j].end..toks[j + 1].start] != *" " {
            return None;
        }
        j += 1;
    }
    None
}

/// A lower-case given name and surname where the surname may be a word too ("dorothy love",
/// "theodore young", "eero dlamini"): only before a birth date.
fn lower_name_pair(a: &Tok<'_>, b: &Tok<'_>) -> bool {
    let word_ok = |t: &Tok<'_>| {
        t.shape == Shape::Lower
            && !t.contraction
            && t.letters() >= 2
            && !t.info.stop
            && !not_a_name(t.w)
    };
    word_ok(a)
        && word_ok(b)
        // A given name that is also a word before a surname no dictionary holds ("marigold
        // kurniawan, dob …").
        && (a.info.first || !a.info.common || (!b.info.common && !b.info.known_name() && b.letters() >= 4))
        && (b.info.sur || !b.info.common)
        && !(a.info.common && b.info.common && !a.info.first)
}

/// Whether the line holding `at` is a mail's subject ("Subject: …").
fn subject_line(text: &str, at: usize) -> bool {
    let line = &text[super::line_start(text, at)..at];
    line.get(..8)
        .is_some_and(|h| h.eq_ignore_ascii_case("subject:"))
}

/// Whether `after` opens with a record number's label written out in lower case, as chats
/// put it after a name ("sunita chaturvedi medical record no. …", "… med rec # …", "… ehr#").
fn record_after(after: &str) -> bool {
    let r = after.strip_prefix(' ').unwrap_or("");
    r.starts_with("med rec")
        || r.starts_with("medical record")
        || r.starts_with("ehr#")
        || r.starts_with("ehr #")
}

/// Whether a date of birth or a record number follows a name: " (DOB", ", MRN", " born".
fn dob_after(after: &str) -> bool {
    // A chat's emoji may stand between ("jasper stone 🚑 DOB 1930-11-11").
    let r = after.trim_start_matches(|c: char| {
        matches!(c, ' ' | '(' | ',')
            || (!c.is_ascii() && !c.is_alphanumeric() && !c.is_whitespace())
    });
    let skipped = after[..after.len() - r.len()]
        .chars()
        .filter(char::is_ascii)
        .count();
    let w: String = r
        .chars()
        .take_while(|c| c.is_alphabetic() || *c == '.')
        .collect::<String>()
        .to_lowercase();
    // An age in brackets: "(100 yo)", "(82 y/o)".
    let digits = r.bytes().take_while(u8::is_ascii_digit).count();
    let age = after.starts_with(" (")
        && (1..=3).contains(&digits)
        && [" yo", " y/o", " y.o.", "yo", " years"]
            .iter()
            .any(|u| r[digits..].starts_with(u));
    skipped <= 3
        && (age
            || matches!(
                w.as_str(),
                "dob" | "d.o.b." | "born" | "mrn" | "b." | "adult" | "child" | "minor" | "infant"
            )
            // A bounded look: the rest of the text is not lower-cased per call (this runs
            // for every capitalised word the dictionary does not know).
            || r.get(..13).is_some_and(|h| h.eq_ignore_ascii_case("date of birth")))
}

/// A given name that is also a word or a month ("Will", "June", "Hope", "April").
fn word_first_name(t: &Tok<'_>) -> bool {
    t.shape == Shape::Title
        && t.info.first
        && (t.info.common || t.info.stop)
        && t.letters() >= 3
        && !t.contraction
}

/// The word after a given name that is also a word, when it is a surname: one the dictionary
/// does not know, or a known surname that is no word; only the latter when `strict`.
fn surname_after_word_name(n: &Tok<'_>, strict: bool) -> bool {
    matches!(n.shape, Shape::Title | Shape::Caps)
        && n.letters() >= 3
        && !n.blocked()
        && !n.info.common
        && (!strict || n.info.sur)
}

/// Whether only blanks lie between the start of `at`'s line and `at`.
fn at_line_head(text: &str, at: usize) -> bool {
    super::lead_start(text, at, char::is_whitespace).is_some()
}

/// Whether the word at `at` starts a sentence or a line.
fn sentence_start(text: &str, at: usize) -> bool {
    text[..at]
        .trim_end_matches([' ', '\t'])
        .chars()
        .next_back()
        .is_none_or(|c| matches!(c, '.' | '!' | '?' | '\n' | '\r' | '"'))
}

/// The last line of `text` when it is a name alone: two or three words (a particle between
/// them allowed), none a common or blocked word, no digits or other marks.
fn last_line_name(text: &str, toks: &[Tok<'_>]) -> Option<(usize, usize)> {
    let body = text.trim_end();
    let line_start = body.rfind(['\n', '\r']).map_or(0, |p| p + 1);
    if line_start == 0 {
        return None;
    }
    let line = &body[line_start..];
    if line.contains(|c: char| !(c.is_alphabetic() || matches!(c, ' ' | '-' | '\'' | '’'))) {
        return None;
    }
    let words: Vec<&Tok<'_>> = toks
        .iter()
        .filter(|t| t.start >= line_start && t.end <= body.len())
        .collect();
    let names = words.iter().filter(|t| !particle(t)).count();
    let ok = (2..=3).contains(&names)
        && words.iter().all(|t| {
            particle(t)
                || (!t.blocked()
                    && t.letters() >= 2
                    && (!t.info.common || (t.shape != Shape::Lower && t.info.known_name())))
        })
        && !words.first().is_some_and(|t| particle(t));
    ok.then(|| (words[0].start, words[words.len() - 1].end))
}

/// "spoke with", "message from", "on behalf of": two words that put a name after them, the
/// second a stop word (`key`), the first `before` it with one blank between.
fn spoke_cue(before: &Tok<'_>, key: &str, g: &str) -> bool {
    if g != " " {
        return false;
    }
    let first = before.key();
    match key {
        "with" | "to" => matches!(
            first.as_str(),
            "spoke" | "spoken" | "speaking" | "talked" | "talking" | "met" | "meeting"
        ),
        "from" => matches!(
            first.as_str(),
            "message"
                | "msg"
                // "gets a ride from Ngozi"
                | "ride"
                | "lift"
                | "call"
                | "voicemail"
                | "vm"
                | "text"
                | "note"
                | "letter"
                | "referral"
        ),
        // "license in name of Ann Lee", "chart of Ann Lee", "on behalf of Ann Lee".
        // A court's caption: "In re the Guardianship of ANN LEE", "Estate of Ann Lee".
        "of" => {
            first == "behalf"
                || first == "chart"
                || first == "name"
                || is_kin(&first)
                || matches!(
                    first.as_str(),
                    "guardianship" | "conservatorship" | "estate" | "matter" | "custody"
                )
        }
        // "this is dieuseul from Nephrology", "my name is Rania bin Rashid"
        "is" => matches!(first.as_str(), "this" | "name"),
        // Swahili "mimi ni Amina", "jina langu ni Amina" (I am, my name is).
        // Yoruba "Orúkọ mi ni X" (my name is).
        "ni" => matches!(first.as_str(), "mimi" | "langu" | "mi"),
        // "mi nombre es Oksana Vu", "meu nome é Chidi Chowdhury", "tôi tên là Anaïs Santos".
        // "aqui é Gonçalo Two Bulls" (Portuguese: here is).
        "es" | "é" => first == "nombre" || first == "nome" || (key == "é" && first == "aqui"),
        // Somali "magacaygu waa X" (my name is).
        "waa" => first == "magacaygu",
        // "last name marsh", "first name Ana": a form read aloud.
        "name" => matches!(
            first.as_str(),
            "last" | "first" | "middle" | "maiden" | "sur"
        ),
        "là" => first == "tên" || first == "tôi",
        // Who wrote or sent it: "Dictated by Lagi Fa'amausili", "Sent by Thảo van den Broek".
        "by" => matches!(
            first.as_str(),
            "dictated"
                | "transcribed"
                | "signed"
                | "cosigned"
                | "sent"
                | "written"
                | "authored"
                | "completed"
                | "submitted"
        ),
        // Whom a call is about: "calling about mataio tuilagi".
        "about" => matches!(first.as_str(), "calling" | "called" | "call" | "asking"),
        _ => false,
    }
}

/// Whether the words from `at` on say what a person does ("prefers", "asked", "seen",
/// "to return"): `Some(strong)`, strong when only a person does it (so a first name that is
/// also a word, "rose asked", is the name).
fn person_predicate(toks: &[Tok<'_>], at: usize, text: &str) -> Option<bool> {
    let v = toks.get(at)?;
    let before = &text[toks[at - 1].end..v.start];
    if before != " " || v.shape != Shape::Lower {
        return None;
    }
    // "Janet from Aetna called", "obi from next door says hi": where the person is from,
    // in up to three words, between the name and its verb.
    if v.w == "from" {
        return (at + 2..=at + 4)
            .take_while(|&k| k < toks.len() && &text[toks[k - 1].end..toks[k].start] == " ")
            .find_map(|k| verb(toks, k, text));
    }
    verb(toks, at, text)
}

/// [`person_predicate`] without a "from" phrase.
fn verb(toks: &[Tok<'_>], at: usize, text: &str) -> Option<bool> {
    let v = toks.get(at)?;
    if &text[toks[at - 1].end..v.start] != " " || v.shape != Shape::Lower {
        return None;
    }
    let key = v.w;
    const STRONG: &[&str] = &[
        "asked",
        "asks",
        "said",
        "says",
        "wants",
        "wanted",
        "prefers",
        "preferred",
        "agreed",
        "agrees",
        "declined",
        "declines",
        "confirmed",
        "confirms",
        "complains",
        "complained",
        "texted",
        "emailed",
        "messaged",
        "phoned",
        "mentioned",
        "verbalized",
        "verbalizes",
        "understands",
        "thinks",
        "requested",
        "requests",
        "denies",
        "denied",
        "endorses",
        "endorsed",
        "reports",
        "reported",
        "states",
        "stated",
        // Hungarian's "I am" after the name ("Jó napot! Kovács Anna vagyok").
        "vagyok",
        // A front desk's shorthand: "also Faith cxl'd", "Mowlid no-showed".
        "cxl'd",
        "cx'd",
        "cxld",
        "no-showed",
    ];
    const WEAK: &[&str] = &[
        "called",
        "calls",
        "tolerated",
        "tolerates",
        "seen",
        "arrived",
        "missed",
        "cancelled",
        "canceled",
        "rescheduled",
        "lives",
        "works",
        "feels",
        "felt",
        "returned",
        "returns",
        "discharged",
        "admitted",
        "transferred",
        "boarding",
    ];
    if STRONG.contains(&key) {
        return Some(true);
    }
    let rest = &text[v.end..];
    // "Aga is here early", "Cel is 92", "Wojtek in 235B is a fall risk".
    if matches!(key, "is" | "was") {
        let next = toks.get(at + 1).filter(|n| text[v.end..n.start] == *" ");
        if next.is_some_and(|n| {
            matches!(
                n.w,
                "here"
                    // "emre dvořák is in the er"
                    | "in"
                    | "coming"
                    | "calling"
                    | "asking"
                    | "upset"
                    | "confused"
                    | "requesting"
                    | "refusing"
                    | "complaining"
                    | "admitted"
                    | "discharged"
                    | "allergic"
            )
        }) || rest.strip_prefix(' ').is_some_and(|r| {
            // An age: two or three digits and no more ("Cel is 92", not "is 7869 3rd Way").
            let n = r.bytes().take_while(u8::is_ascii_digit).count();
            (2..=3).contains(&n) && !r[n..].starts_with(['/', ':', '.', '-'])
        }) {
            return Some(false);
        }
    }
    if key == "in"
        && rest
            .strip_prefix(' ')
            .is_some_and(|r| r.len() >= 3 && r.as_bytes()[..3].iter().all(u8::is_ascii_digit))
    {
        return Some(false);
    }
    // "ximena in room 17 needs a sitter", "tsehay in bed 2b": where a patient lies.
    if key == "in"
        && rest.strip_prefix(' ').is_some_and(|r| {
            let lower = r.get(..r.len().min(8)).unwrap_or("").to_ascii_lowercase();
            ["room ", "rm ", "bed ", "bay "].iter().any(|w| {
                lower
                    .strip_prefix(w)
                    .is_some_and(|n| n.starts_with(|c: char| c.is_ascii_digit()))
            })
        })
    {
        return Some(false);
    }
    if WEAK.contains(&key) {
        return Some(false);
    }
    // A board's shorthand: "IWU d/c today", "Okafor d/c'd".
    if key == "d" && rest.starts_with("/c") {
        return Some(false);
    }
    // "also Mowlid no showed again".
    if key == "no" && (rest.starts_with(" showed") || rest.starts_with(" show again")) {
        return Some(true);
    }
    // "also Tito moved to 127 on the rehab side": a patient moved to a room.
    if key == "moved"
        && rest.strip_prefix(" to ").is_some_and(|r| {
            let n = r.bytes().take_while(u8::is_ascii_digit).count();
            (2..=4).contains(&n) && !r[n..].starts_with(['/', ':', '.'])
        })
    {
        return Some(false);
    }
    // "Wojciech has had afib since May": a history is a person's.
    if key == "has" && rest.starts_with(" had ") {
        return Some(false);
    }
    // "Kuznetsova to return on May 2", "iwu to call back".
    if key == "to" {
        let n = toks.get(at + 1)?;
        if text[v.end..n.start] == *" "
            && matches!(
                n.w,
                "return" | "call" | "come" | "follow" | "schedule" | "reschedule" | "bring"
            )
        {
            return Some(false);
        }
    }
    None
}

/// Whether the text after a name makes it an eponym ("Cushing syndrome", "Hashimoto's
/// thyroiditis", "Foley catheter"), not a person.
fn eponym(after: &str) -> bool {
    // A possessive that ends a list's item names a condition ("CKD3, Hashimoto's."), a
    // person's is followed by what is theirs.
    if ["'s", "’s"].iter().any(|p| {
        after
            .strip_prefix(p)
            .is_some_and(|r| r.starts_with(['.', ',', ';', ')']))
    }) {
        return true;
    }
    if eponym_sign(after) {
        return true;
    }
    let rest = after
        .strip_prefix("'s")
        .or_else(|| after.strip_prefix("’s"))
        .unwrap_or(after)
        .trim_start_matches([' ', '\t']);
    let next: String = rest
        .chars()
        .take_while(|c| c.is_alphabetic())
        .collect::<String>()
        .to_lowercase();
    matches!(
        next.as_str(),
        "disease"
            | "syndrome"
            | "thyroiditis"
            | "palsy"
            | "sign"
            | "signs"
            | "test"
            | "catheter"
            | "monitor"
            | "scale"
            | "score"
            | "criteria"
            | "procedure"
            | "maneuver"
            | "manoeuvre"
            | "fracture"
            | "tumor"
            | "tumour"
            | "lymphoma"
            | "sarcoma"
            | "disorder"
            | "phenomenon"
            | "reflex"
            | "triad"
            | "ulcer"
            | "classification"
            | "esophagus"
            | "ulcers"
            | "contracture"
            | "node"
            | "nodes"
            | "line"
            | "drain"
            // a breathing pattern ("Cheyne-Stokes breathing", "Kussmaul respirations")
            | "breathing"
            | "respiration"
            | "respirations"
    )
}

/// The word (letters only, lower-cased) right before `joint` when `text[..s]` ends with it:
/// "circle" of "Circle of Willis" for `" of "`; `None` without the joint.
fn word_before(text: &str, s: usize, joint: &str) -> Option<String> {
    let before = text[..s].strip_suffix(joint)?;
    Some(
        before
            .rsplit(|c: char| !c.is_alphabetic())
            .next()
            .unwrap_or("")
            .to_lowercase(),
    )
}

/// Whether an anatomical structure named "of" its describer stands before `s` ("Circle of
/// Willis", "loop of Henle", "sphincter of Oddi", "tetralogy of Fallot"): an eponym.
fn structure_of(text: &str, s: usize) -> bool {
    let Some(w) = word_before(text, s, " of ") else {
        return false;
    };
    matches!(
        w.as_str(),
        "circle"
            | "loop"
            | "loops"
            | "islets"
            | "islet"
            | "canal"
            | "canals"
            | "ampulla"
            | "sphincter"
            | "ligament"
            | "tetralogy"
            | "pouch"
            | "bundle"
            | "triangle"
            | "node"
            | "nodes"
            | "organ"
            | "space"
            | "foramen"
            | "duct"
            | "crypts"
            | "glands"
            | "capsule"
            | "tract"
    )
}

/// Whether a street's type follows the span: it is the street's name ("on sandy boulevard",
/// "Martin Luther King Blvd"). "St" and "Lane" are left out: a saint, a surname.
fn street_name_after(after: &str) -> bool {
    let Some(r) = after.strip_prefix(' ') else {
        return false;
    };
    let w: String = r
        .chars()
        .take_while(|c| c.is_alphabetic())
        .take(10)
        .collect::<String>()
        .to_lowercase();
    matches!(
        w.as_str(),
        "boulevard"
            | "blvd"
            | "avenue"
            | "ave"
            | "street"
            | "road"
            | "parkway"
            | "pkwy"
            | "highway"
            | "hwy"
    )
}

/// Whether a shop's or a service's "at" stands before `s`: what follows is the business, named
/// for its founder as many are ("the pharmacy at fred meyer", "the store at Walgreens").
fn business_at(text: &str, s: usize) -> bool {
    let Some(w) = word_before(text, s, " at ") else {
        return false;
    };
    matches!(
        w.as_str(),
        "pharmacy" | "store" | "shop" | "supermarket" | "grocery" | "counter" | "branch"
    )
}

/// Whether what follows a capitalised run says it is a thing: a product's NDC code ("Typhim
/// Vi (NDC 49281-790-20)"), an operating system ("Mac OS X"), a building's room or floor
/// ("Hollister Hall room 465", "Marston Tower, floor 3").
fn thing_after(after: &str) -> bool {
    let a = after.trim_start_matches([' ', ',']);
    let lower: String = a.chars().take(8).collect::<String>().to_lowercase();
    if after.starts_with(' ') && (a.starts_with("(NDC") || a.starts_with("NDC ")) {
        return true;
    }
    if after.starts_with(" OS") && !after[3..].starts_with(char::is_alphabetic) {
        return true;
    }
    // Right after the building's name, no comma: "Teacher: Mrs. Short, room 33" is a
    // person's room.
    ["room ", "rm ", "floor ", "suite ", "wing "]
        .iter()
        .any(|w| {
            lower
                .strip_prefix(w)
                .is_some_and(|r| r.starts_with(|c: char| c.is_ascii_digit()))
        })
        && after.starts_with(' ')
        && !after.starts_with("  ")
}

/// Whether the word before `s` is a determiner of the languages that capitalise or precede
/// nouns with one ("Meine Adresse", "Ihre Versichertennummer", "une Ordonnance"): what
/// follows is a noun, no name.
fn after_determiner(text: &str, s: usize) -> bool {
    let Some(w) = word_before(text, s, " ") else {
        return false;
    };
    matches!(
        w.as_str(),
        "mein"
            | "meine"
            | "meinen"
            | "meinem"
            | "meiner"
            | "ihr"
            | "ihre"
            | "ihren"
            | "ihrem"
            | "eine"
            | "einen"
            | "einem"
            | "einer"
            | "unsere"
            | "keine"
            | "mon"
            | "mes"
            | "votre"
            | "vos"
            | "une"
            | "notre"
    )
}

/// Person candidates of every rule that what surrounds them shows to be things: a product
/// (NDC), an operating system, a building before its room, a school, an itinerary's stop, a
/// noun after a determiner, an examination's sign ("Kemp's +"), a run of acronyms without a
/// vowel ("MMR IHC"), an acronym heading title-case words ("ADA Dental Claim Form").
pub(super) fn drop_things(text: &str, cands: &mut Vec<(Span, u8)>) {
    if text.contains("-\n") {
        join_hyphenated(text, cands);
    }
    // A name that ran on over a wide gap into the next field's key ("PT: ABEBE WOLDE  PRI=HIGH"):
    // the key is no part of it.
    for (sp, _) in cands.iter_mut() {
        // "Kal Zubair sahib ne call kiya": the capitalised function word is no part of it.
        if sp.kind == Kind::Person
            && let Some(s) = function_word_capitalised(text, sp.start, sp.end)
        {
            sp.start = s;
        }
        if sp.kind == Kind::Person
            && sp.start < sp.end
            && text[sp.end..].starts_with('=')
            && let Some(gap) = text[sp.start..sp.end].rfind("  ")
        {
            sp.end = sp.start + text[sp.start..sp.start + gap].trim_end().len();
        }
    }
    cands.retain(|(sp, _)| {
        if sp.kind != Kind::Person {
            return true;
        }
        let (s, e) = (sp.start, sp.end);
        if s >= e {
            return false;
        }
        let v = &text[s..e];
        let acronyms = v
            .split(' ')
            .all(|w| w.len() <= 4 && w.chars().all(|c| c.is_ascii_uppercase()))
            && v.split(' ')
                .any(|w| w.len() >= 3 && !w.contains(['A', 'E', 'I', 'O', 'U', 'Y']));
        // A hospital's emergency code is a colour ("Code Gray called", "code Silver").
        let code = text[..s]
            .strip_suffix(' ')
            .is_some_and(|b| b.ends_with("Code") || b.ends_with("code") || b.ends_with("CODE"));
        !(acronyms
            || code
            || korean_particle(v)
            || eponym_thing(v, &text[e..])
            || thing_after(&text[e..])
            || itinerary(text, s, e)
            || after_determiner(text, s)
            || eponym_sign(&text[e..])
            || acronym_heading(text, s, e)
            || instrument_after(&text[e..])
            || instrument_label_before(text, s)
            // "Quarry Hollow Rd, Ashgrove" read as "Last, First" by any rule: its city would
            // be redacted as a name wherever else it stands ("COUNTY OF ASHGROVE").
            || street_then_city(text, s, e)
            // prose only: a segment's fields ("NM1*IL*1*OKONKWO*CHIDI****MI…") are no words
            || text[e..].starts_with(' ') && organisation(text, s))
    });
}

/// A romanised Korean word with its particle hyphened on ("geumyoil-eun", "abeonim-eun",
/// "byeongwon-e"): a noun marked as topic, subject or place, no name. A given name's
/// syllables are short ("Ji-eun", "Seong-eun"), the noun before a particle longer.
fn korean_particle(v: &str) -> bool {
    let Some((stem, particle)) = v.rsplit_once('-') else {
        return false;
    };
    stem.chars().count() >= 6
        && stem.chars().all(|c| c.is_ascii_lowercase())
        && matches!(
            particle,
            "eun"
                | "neun"
                | "i"
                | "ga"
                | "eul"
                | "reul"
                | "ui"
                | "e"
                | "ege"
                | "eseo"
                | "ro"
                | "euro"
                | "do"
                | "man"
                | "kkaji"
                | "buteo"
        )
}

/// A surname an instrument or a disease is named after, standing for the thing: the
/// possessive before a noun ("Parkinson's medications"), or the device's noun after it ("a
/// Zimmer frame"); a person's possessive goes on to kin ("Mr. Parkinson's daughter").
fn eponym_thing(v: &str, after: &str) -> bool {
    const EPONYMS: &[&str] = &[
        "parkinson",
        "alzheimer",
        "hodgkin",
        "crohn",
        "hashimoto",
        "huntington",
        "addison",
        "cushing",
        "raynaud",
        "meniere",
        "zimmer",
        "foley",
        "holter",
        "bell",
        "graves",
    ];
    const DEVICES: &[&str] = &["frame", "walker", "catheter", "monitor", "splint", "brace"];
    if !EPONYMS.contains(&v.to_lowercase().as_str()) {
        return false;
    }
    let next = |r: &str| -> String {
        r.chars()
            .take_while(|c| c.is_alphabetic())
            .collect::<String>()
            .to_lowercase()
    };
    if let Some(r) = after
        .strip_prefix("'s ")
        .or_else(|| after.strip_prefix("’s "))
    {
        let w = next(r);
        return r.starts_with(char::is_lowercase) && !is_kin(&w) && !CUES.contains(&w.as_str());
    }
    after
        .strip_prefix(' ')
        .is_some_and(|r| DEVICES.contains(&next(r).as_str()))
}

/// Whether a capitalised noun of a form, a log or a clinical instrument follows a span: it
/// is then that thing's name ("In-Home Aide Daily Log", "Berg Balance 41/56", "Braden
/// Scale"), not a person's.
fn instrument_after(after: &str) -> bool {
    let Some(r) = after.strip_prefix(' ') else {
        return false;
    };
    let w: String = r.chars().take_while(|c| c.is_alphabetic()).collect();
    matches!(
        w.as_str(),
        "Log"
            | "Report"
            | "Form"
            | "Worksheet"
            | "Checklist"
            | "Flowsheet"
            | "Scale"
            | "Score"
            | "Balance"
            | "Protocol"
            | "Protocols"
            | "Criteria"
            | "Questionnaire"
            | "Inventory"
            | "Maneuver"
            | "Manoeuvre"
    ) && !r[w.len()..].starts_with(char::is_alphanumeric)
}

/// Whether a span is the value of a field that names a thing or a place: a protocol, a scale,
/// a guideline ("Protocol: Schmitt-Thompson 'Chest Pain'", "scale: Braden": an eponym), a
/// country or a language ("Country of birth: Kenya", "Nationality: Jordan").
fn instrument_label_before(text: &str, s: usize) -> bool {
    let before = text[..s].trim_end_matches([' ', '\t']);
    let Some(before) = before.strip_suffix(':') else {
        return false;
    };
    let line = &before[before.rfind('\n').map_or(0, |p| p + 1)..];
    let tail = &line[line.floor_char_boundary(line.len().saturating_sub(24))..];
    let tail = tail.to_lowercase();
    [
        "protocol",
        "protocols",
        "scale",
        "guideline",
        "guidelines",
        "algorithm",
        "country",
        "country of birth",
        "place of birth",
        "birthplace",
        "nationality",
        "citizenship",
        "language",
    ]
    .iter()
    .any(|w| {
        tail.strip_suffix(w)
            .is_some_and(|h| !h.ends_with(char::is_alphabetic))
    })
}

/// Whether a span is one short word in capitals that heads title-case dictionary words ("ADA
/// Dental Claim Form", "CMS Billing"): an organisation's acronym.
fn acronym_heading(text: &str, s: usize, e: usize) -> bool {
    let v = &text[s..e];
    if !(2..=4).contains(&v.len()) || !v.bytes().all(|b| b.is_ascii_uppercase()) {
        return false;
    }
    let Some(next) = text[e..].strip_prefix(' ') else {
        return false;
    };
    let w: String = next.chars().take_while(|c| c.is_alphabetic()).collect();
    let info = LEXICON.info(&w);
    w.chars().next().is_some_and(char::is_uppercase)
        && w.chars().skip(1).all(char::is_lowercase)
        && w.chars().count() >= 3
        && info.common
        && !info.known_name()
}

/// Whether a capitalised run is a stop of an itinerary ("Trip: Lima → Cusco → Iquitos"): an
/// arrow on either side joins places, not people.
fn itinerary(text: &str, s: usize, e: usize) -> bool {
    text[e..].trim_start_matches(' ').starts_with('→')
        || text[..s].trim_end_matches(' ').ends_with('→')
}

/// An examination's sign read positive or negative after an eponym: "Kemp's + R", "Tinel's
/// -", "Phalen's positive".
fn eponym_sign(after: &str) -> bool {
    let Some(r) = ["'s ", "’s "].iter().find_map(|p| after.strip_prefix(p)) else {
        return false;
    };
    // Only the sign's few words are read: the rest of the text need not be folded.
    let r: String = r.chars().take(12).collect::<String>().to_lowercase();
    r.starts_with(['+', '−'])
        || r.starts_with("- ")
        || r.starts_with("-\n")
        || ["pos", "neg", "positive", "negative", "equivocal"]
            .iter()
            .any(|w| {
                r.strip_prefix(w)
                    .is_some_and(|t| !t.starts_with(char::is_alphabetic))
            })
}

/// Months that are also given names ("Jun", "May", "April"): a stop word, except right
/// before a name word or an initial.
fn month_first(t: &Tok<'_>) -> bool {
    matches!(t.shape, Shape::Title | Shape::Lower)
        && matches!(
            t.key().as_str(),
            "jun" | "june" | "may" | "april" | "august"
        )
}

/// Whether the month-name token at `at` starts a name: a name word or an initial follows
/// ("moved Jun M. to Saturday", "its jun pangilinan").
fn month_first_before_name(toks: &[Tok<'_>], at: usize, text: &str) -> bool {
    let (Some(t), Some(n)) = (toks.get(at), toks.get(at + 1)) else {
        return false;
    };
    if !month_first(t) || &text[t.end..n.start] != " " {
        return false;
    }
    let initial =
        n.letters() == 1 && n.w.chars().all(char::is_uppercase) && text[n.end..].starts_with('.');
    initial || (n.shape == t.shape && !n.info.common && !n.blocked() && n.letters() >= 3)
}

/// The start of a capitalised month-name given name right before `s` ("Jun PANGILINAN").
fn month_first_at(text: &str, s: usize) -> Option<usize> {
    let before = text[..s].strip_suffix(' ')?;
    let w_start = before.rfind(|c: char| !c.is_alphabetic()).map_or(0, |p| {
        p + before[p..].chars().next().map_or(1, char::len_utf8)
    });
    let w = &before[w_start..];
    matches!(w, "Jun" | "June" | "May" | "April" | "August").then_some(w_start)
}

/// Whether a name at `s` is a saint's institution: "at saint vincent", "to St. Luke".
fn institution(text: &str, s: usize) -> bool {
    let head: String = text[s..].chars().take(6).collect::<String>().to_lowercase();
    if !(head.starts_with("saint ") || head.starts_with("st. ") || head.starts_with("st ")) {
        return false;
    }
    let before = text[..s].trim_end_matches([' ', '\t']);
    let tail = &before[before.floor_char_boundary(before.len().saturating_sub(5))..];
    let tail = tail.to_lowercase();
    tail.ends_with(" at") || tail.ends_with(" to") || tail.ends_with(" from")
}

/// Whether `text[s..e]` is an X12 segment's identifier ("~LIN**N4*…"): led by a segment
/// terminator or a line start, followed by an element separator.
fn segment_id(text: &str, s: usize, e: usize) -> bool {
    text[e..].starts_with('*')
        && (s == 0 || text[..s].ends_with(['~', '\n', '\r']))
        && text[s..e]
            .chars()
            .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit())
}

/// Whether the capitalised words from `s` on (a few, on one line) end in a word only a
/// business's name ends in: "Hawthorne Steel Fabricators", "Kessler Grain Co-op", "CORWIN &
/// VALE LLP", "Ashby Lane Legal Group", "Lincoln Middle School" (an employer, a firm, a
/// school: not the patient's name).
pub(super) fn organisation(text: &str, s: usize) -> bool {
    const ENDS: &[&str] = &[
        "llp",
        "llc",
        "inc",
        "corp",
        "co-op",
        "coop",
        "group",
        "logistics",
        "transit",
        "fabricators",
        "school",
        "academy",
        "partners",
        "associates",
        "legal",
        "law",
        "insurance",
        "bank",
        "trucking",
        "freight",
        "manufacturing",
        "industries",
        "foods",
        "construction",
        "roofing",
        "services",
        "solutions",
        "systems",
        "company",
        // a practice's own desks ("Billing Department", "Bariatric Program")
        "department",
        "dept",
        // schools by their level ("Foxhollow Elementary")
        "elementary",
        "college",
        "university",
        "preschool",
        "kindergarten",
        "daycare",
        "program",
        "programme",
        "agency",
    ];
    // Five words are read: a bounded look, not the rest of a possibly one-line text.
    let cut = text.floor_char_boundary(s + 256);
    let line = text[s..cut].split(['\n', '\r']).next().unwrap_or("");
    for (n, w) in line
        .split([' ', '\t'])
        .filter(|w| !w.is_empty())
        .enumerate()
    {
        if n >= 5 {
            break;
        }
        let bare = w.trim_end_matches(['.', ',', ';', ':', ')']);
        if ENDS.contains(&bare.to_lowercase().as_str()) {
            return true;
        }
        // The name of a business is capitalised throughout ("&" joins partners).
        if !(bare == "&" || bare.starts_with(|c: char| c.is_uppercase())) || bare.len() < w.len() {
            return false;
        }
    }
    false
}

/// Whether the text after a name says whose relation it is: "(wojciech's nephew)",
/// ", wife)", " (daughter)".
fn relation_after(after: &str) -> bool {
    // An honorific after the name: romanised Urdu and Hindi "Farooq sahib", "Sharma ji",
    // "Nasreen begum".
    if let Some(r) = after.strip_prefix(' ')
        && ["sahib", "sahiba", "saheb", "begum", "ji"].iter().any(|h| {
            r.get(..h.len()).is_some_and(|x| x.eq_ignore_ascii_case(h))
                && !r[h.len()..].starts_with(char::is_alphabetic)
        })
    {
        return true;
    }
    let kin_then = |r: &str| {
        // "(maternal aunt)", "(paternal grandfather)"
        let r = ["maternal ", "paternal ", "Maternal ", "Paternal "]
            .iter()
            .find_map(|p| r.strip_prefix(p))
            .unwrap_or(r);
        let w: String = r.chars().take_while(|c| c.is_alphabetic()).collect();
        is_kin(&w.to_lowercase()) && r[w.len()..].starts_with([')', ','])
    };
    if let Some(r) = after.strip_prefix(", ") {
        return kin_then(r);
    }
    let Some(r) = after.strip_prefix(" (") else {
        return false;
    };
    if kin_then(r) {
        return true;
    }
    // One word, its possessive, and a kin word.
    let owner = r
        .char_indices()
        .find(|(_, c)| !(c.is_alphabetic() || *c == '-'))
        .map_or(r.len(), |(k, _)| k);
    owner >= 2
        && ["'s ", "’s "]
            .iter()
            .find_map(|p| r[owner..].strip_prefix(p))
            .is_some_and(kin_then)
}

/// Whether a word's end is the head of a dotted degree ("Au" of "Au.D.", "Ph" of "Ph.D.",
/// "Psy" of "Psy.D."): a dot, a capital and a dot. After "Marchand, " that is the
/// audiologist's credential, not a given name.
pub(super) fn dotted_credential(after: &str) -> bool {
    let b = after.as_bytes();
    b.len() >= 3 && b[0] == b'.' && b[1].is_ascii_uppercase() && b[2] == b'.'
}

/// Whether a credential follows a name: ", MD", " RN".
fn credential_after(after: &str) -> bool {
    let r = after
        .strip_prefix(", ")
        .or_else(|| after.strip_prefix(' '))
        .unwrap_or("");
    let w: String = r
        .chars()
        .take_while(|c| c.is_ascii_alphabetic() || *c == '-')
        .collect();
    matches!(
        w.as_str(),
        "MD" | "DO"
            | "RN"
            | "NP"
            | "PA-C"
            | "PharmD"
            | "PhD"
            | "LPN"
            | "LCSW"
            | "DPM"
            | "DDS"
            | "FNP"
            | "APRN"
            | "CRNA"
    ) && !r[w.len()..].starts_with(|c: char| c.is_alphanumeric())
}

/// Whether a room in brackets follows: " (739B)", " (930)".
fn room_in_brackets(after: &str) -> bool {
    let Some(r) = after.strip_prefix(" (") else {
        return false;
    };
    let digits = r.bytes().take_while(u8::is_ascii_digit).count();
    let rest = r[digits..].trim_start_matches('-');
    let rest = rest
        .strip_prefix(|c: char| c.is_ascii_uppercase())
        .unwrap_or(rest);
    (3..=4).contains(&digits) && rest.starts_with(')')
}

fn is_kin(key: &str) -> bool {
    matches!(
        key,
        "daughter"
            | "son"
            | "wife"
            | "husband"
            | "mother"
            | "father"
            | "mom"
            | "dad"
            | "sister"
            | "brother"
            | "spouse"
            | "partner"
            | "niece"
            | "nephew"
            | "aunt"
            | "uncle"
            | "cousin"
            | "grandson"
            | "granddaughter"
            | "child"
            // Spanish: "mi hija Nkechi", "mi papá Cash".
            | "hija"
            | "hijo"
            | "esposa"
            | "esposo"
            | "mamá"
            | "papá"
            | "madre"
            | "padre"
            | "hermana"
            | "hermano"
            | "abuela"
            | "abuelo"
            | "nieta"
            | "nieto"
            // the other languages' ("Ma fille Anselm", "Ibni Lasse") and a chart's
            // abbreviations ("W/ JOY MENSAH (DTR)")
            | "fille"
            | "fils"
            | "tochter"
            | "sohn"
            | "corka"
            | "córka"
            | "syn"
            | "ibni"
            | "ibnati"
            | "binti"
            | "eomeoni"
            | "abeoji"
            | "adeul"
            | "dtr"
            | "dau"
            | "grandmother"
            | "grandfather"
            | "stepmother"
            | "stepfather"
            | "apám"
            | "anyám"
            | "baba"
            // Yoruba: "bàbá mi X" (my father), "ìyá mi X" (my mother).
            | "bàbá"
            | "ìyá"
            | "iya"
            | "bestefaren"
            | "bestemoren"
            // Italian and Catalan ("mio marito X", "el meu marit X"), Malay and Tagalog
            // ("anak saya X", "asawa ko si X"), romanised Urdu ("meri walida X") and Swahili
            // ("bibi yangu X", "mume wangu X").
            | "marito"
            | "moglie"
            | "figlia"
            | "figlio"
            | "fratello"
            | "sorella"
            | "nonna"
            | "nonno"
            | "marit"
            | "filla"
            | "germana"
            | "germà"
            | "anak"
            | "suami"
            | "isteri"
            | "asawa"
            | "walida"
            | "walidah"
            | "beti"
            | "shohar"
            | "biwi"
            | "bibi"
            | "mume"
            | "mke"
            | "mtoto"
            // Haitian Creole, Portuguese, Vietnamese, Greek and Somali ("Manman m X", "Minha
            // avó X", "Mẹ tôi X", "I giagia mou X", "Hooyaday X").
            | "manman"
            | "pitit"
            | "madanm"
            | "grann"
            | "avó"
            | "avô"
            | "mãe"
            | "filha"
            | "filho"
            | "marido"
            | "irmã"
            | "irmão"
            | "mẹ"
            | "bố"
            | "vợ"
            | "chồng"
            | "giagia"
            | "pappous"
            | "mitera"
            | "pateras"
            | "μητέρα"
            | "πατέρας"
            | "γιαγιά"
            | "παππούς"
            | "κόρη"
            | "γιος"
            | "σύζυγος"
            | "hooyaday"
            | "aabahay"
            | "ayeeyaday"
            | "gabadhayda"
            | "wiilkayga"
            | "ninkayga"
            | "xaaskayga"
    )
}

/// Whether tokens `j..j + 3` are a double surname joined by the Catalan "i" or the Spanish
/// "y" ("Cases i Roig", "Ortega y Gasset", "CASES I ROIG"): two capitalised words in one
/// case around the conjunction, written in that case too; the first may be a word.
fn conj_surname(toks: &[Tok<'_>], j: usize, text: &str) -> bool {
    let (Some(a), Some(c), Some(b)) = (toks.get(j), toks.get(j + 1), toks.get(j + 2)) else {
        return false;
    };
    let conj = match a.shape {
        Shape::Title => matches!(c.w, "i" | "y"),
        Shape::Caps => matches!(c.w, "I" | "Y"),
        _ => false,
    };
    conj && b.shape == a.shape
        && &text[a.end..c.start] == " "
        && &text[c.end..b.start] == " "
        && a.letters() >= 3
        && !a.blocked()
        && !b.blocked()
        && (b.continues() || !b.info.common)
}

/// An Irish surname's word after its particle, its first letter mutated in lower case before
/// the capital ("Nic an tSaoi", "Ó hAodha", "Uí bhFlannagáin").
fn eclipsed(before: &Tok<'_>, t: &Tok<'_>) -> bool {
    if !matches!(
        before.key().as_str(),
        "an" | "ó" | "ní" | "uí" | "nic" | "mhic"
    ) {
        return false;
    }
    let mut cs = t.w.chars();
    let lead: String = cs.by_ref().take_while(|c| c.is_lowercase()).collect();
    let rest: Vec<char> = t.w.chars().skip(lead.chars().count()).collect();
    matches!(
        lead.as_str(),
        "t" | "h" | "n" | "bh" | "b" | "d" | "dt" | "g" | "gc" | "m" | "mb" | "ng" | "bp"
    ) && rest.first().is_some_and(|c| c.is_uppercase())
        && rest.len() >= 3
        && rest[1..].iter().all(|c| c.is_lowercase())
}

/// Whether `t` is followed by "'s" and a word saying whose relation or record this is; a
/// capitalised word the dictionary does not know (or a first name) is a person's before any
/// word ("Maarten's new number", "Tuấn's sugars") unless it is an eponym's.
fn possessive_of_person(text: &str, t: &Tok<'_>) -> bool {
    let after = &text[t.end..];
    let Some(rest) = ["'s ", "’s ", "'S ", "’S "]
        .iter()
        .find_map(|p| after.strip_prefix(p))
    else {
        return false;
    };
    if t.shape == Shape::Title
        && (!t.info.common || t.info.first)
        && !t.info.stop
        && rest.starts_with(|c: char| c.is_lowercase())
    {
        return true;
    }
    let next: String = rest
        .chars()
        .take_while(|c| c.is_alphabetic())
        .collect::<String>()
        .to_lowercase();
    matches!(
        next.as_str(),
        "daughter"
            | "son"
            | "wife"
            | "husband"
            | "mother"
            | "father"
            | "mom"
            | "dad"
            | "sister"
            | "brother"
            | "spouse"
            | "partner"
            | "caregiver"
            | "niece"
            | "nephew"
            | "grandson"
            | "granddaughter"
            | "child"
            | "roommate"
            | "neighbor"
            | "neighbour"
            | "friend"
            | "aunt"
            | "uncle"
            | "cousin"
            | "phone"
            | "cell"
            | "wallet"
            | "pharmacy"
            | "appointment"
            | "appt"
            | "chart"
            | "labs"
            | "meds"
            | "medications"
            | "refill"
            | "prescription"
            | "insurance"
            | "results"
            | "referral"
            | "mri"
            | "ct"
            | "biopsy"
            | "surgery"
            | "visit"
            | "balance"
            | "statement"
            | "account"
            | "claim"
            | "copay"
            | "dob"
            | "birthday"
            // a chat's vitals: "dlamini's bp 88/50"
            | "bp"
            | "sats"
            | "sugar"
            | "sugars"
            | "vitals"
            | "temp"
            | "hr"
    )
}

/// Whether "'s" and a relative follow `t` ("Marigold's roommate", "Hope's son").
fn kin_after_possessive(text: &str, t: &Tok<'_>) -> bool {
    let Some(rest) = ["'s ", "’s "]
        .iter()
        .find_map(|p| text[t.end..].strip_prefix(p))
    else {
        return false;
    };
    let next: String = rest
        .chars()
        .take_while(|c| c.is_alphabetic())
        .collect::<String>()
        .to_lowercase();
    is_kin(&next) || matches!(next.as_str(), "roommate" | "neighbor" | "neighbour")
}

/// Whether "'s" and a vital sign follow `t` ("Bishop's bp", "Love's sats").
fn vitals_after(text: &str, t: &Tok<'_>) -> bool {
    let after = &text[t.end..];
    ["'s ", "’s "]
        .iter()
        .find_map(|p| after.strip_prefix(p))
        .is_some_and(|r| {
            let w: String = r.chars().take_while(|c| c.is_alphabetic()).collect();
            matches!(
                w.to_lowercase().as_str(),
                "bp" | "sats" | "sugar" | "sugars" | "vitals" | "temp" | "hr"
            )
        })
}

/// Whether `t` stands in prose: blanks or sentence punctuation on both sides.
fn prose_word(text: &str, t: &Tok<'_>) -> bool {
    let before = text[..t.start].chars().next_back();
    let after = text[t.end..].chars().next();
    before.is_none_or(|c| c.is_whitespace() || matches!(c, '(' | ','))
        && after.is_none_or(|c| {
            c.is_whitespace() || matches!(c, ',' | '.' | '!' | '?' | ')' | ':' | ';' | '\'' | '’')
        })
}

/// Surname particles and prefixes written as words of their own.
fn particle(t: &Tok<'_>) -> bool {
    particle_word(&t.key())
}

/// Whether a lower-case word is a surname particle or prefix ("van", "de", "st", "ó").
fn particle_word(w: &str) -> bool {
    matches!(
        w,
        "st" | "ste"
            | "saint"
            | "van"
            | "von"
            | "der"
            | "den"
            | "de"
            | "del"
            | "della"
            | "da"
            | "di"
            | "du"
            | "le"
            | "la"
            | "al"
            | "el"
            | "bin"
            | "ibn"
            | "mac"
            | "ten"
            | "ter"
            | "dos"
            | "das"
            | "dela"
            // Filipino: "delos Reyes", "delos Santos"
            | "delos"
            // Irish: "Ó Briain", "Ní Dhuibhir", "Mac an Bhaird", "Nic an tSaoi", "Uí Néill".
            | "ó"
            | "ní"
            | "nic"
            | "mhic"
            | "uí"
            | "an"
            // Catalan and Spanish join two surnames with "and" ("Vilaró i Bosch", "Ortega y
            // Gasset"); Malay and Arabic name the father ("Nur binti Rahmat", "bint Salem").
            | "i"
            | "y"
            | "binti"
            | "binte"
            | "bint"
            // Italian: "Lo Russo", "Li Causi" ("La Rosa" above).
            | "lo"
            | "li"
            // Welsh "son of": "Rhys ap Gwilym", "Dafydd ab Owain".
            | "ap"
            | "'t"
            | "’t"
    )
}

/// The first token of a surname ending at token `i`, its particles included ("ST. CLAIR,",
/// "van der BERG,").
fn particles_before(toks: &[Tok<'_>], i: usize, text: &str) -> usize {
    let mut from = i;
    while from > 0 {
        let p = &toks[from - 1];
        let g = &text[p.end..toks[from].start];
        if particle(p) && matches!(g, " " | "_" | ". " | "._" | ".") {
            from -= 1;
        } else {
            break;
        }
    }
    from
}

/// Only blanks (no line break); an underscore is one (file names: "Margaret_Okafor").
fn blank(g: &str) -> bool {
    !g.is_empty() && g.chars().all(|c| matches!(c, ' ' | '\t' | '_'))
}

/// What may stand between a cue and its name: blanks with at most one `.`, `:` or `,`
/// ("Mr. ", "pt: ", "Hi, "); after a closing also a line break ("Thanks,\nRosa").
fn cue_gap(g: &str, closing: bool) -> bool {
    // A note's wiki-link opens between the cue and the name ("sister [[Dawn]]").
    let g = g.strip_suffix("[[").unwrap_or(g);
    let mut punct = 0;
    let mut breaks = 0;
    for c in g.chars() {
        match c {
            ' ' | '\t' | '_' => {}
            '.' | ':' | ',' | '-' => punct += 1,
            '\n' | '\r' => breaks += 1,
            _ => return false,
        }
    }
    !g.is_empty() && punct <= 1 && (breaks == 0 || (closing && breaks <= 2))
}

/// Whether the line holding `at` leads with a dash before the word at `at`.
fn dash_led(text: &str, at: usize) -> bool {
    let line_start = super::line_start(text, at);
    matches!(text[line_start..at].trim(), "-" | "--" | "—" | "~")
}

/// Where the name starts when the word at `i` follows a dash inside a line (" — ", " -- ",
/// " - ", " – ") with words before it: the word itself, or the surname after an initial
/// ("— M. Ferreira").
fn dash_signed(toks: &[Tok<'_>], i: usize, text: &str) -> Option<usize> {
    let t = &toks[i];
    // Only the dash and the words right before it are read (not back to the line's start:
    // this runs for every word).
    let lead = [" — ", " -- ", " - ", " – "]
        .iter()
        .find_map(|d| text[..t.start].strip_suffix(d))?;
    let lead = lead.trim_end_matches([' ', '\t']);
    if lead.is_empty() || lead.ends_with(['\n', '\r']) {
        return None;
    }
    let name_word = |n: &Tok<'_>| {
        n.in_position(false)
            || word_first_name(n)
            || (n.shape == Shape::Caps && n.info.first && !n.blocked())
    };
    if t.letters() == 1 && t.w.chars().all(char::is_uppercase) {
        let n = toks.get(i + 1)?;
        return (&text[t.end..n.start] == ". " && n.shape != Shape::Lower && !n.blocked())
            .then_some(i + 1);
    }
    name_word(t).then_some(i)
}

/// Whether the line holding `at` starts with the word at `at` and follows a closing line
/// ("Best,", "-- ") or starts with a dash ("- rosa").
fn signature_before(text: &str, at: usize) -> bool {
    // Only blanks and dashes may lead the word.
    let Some(line_start) = super::lead_start(text, at, |c| {
        matches!(c, ' ' | '\t' | '-' | '—' | '~' | '>')
    }) else {
        return false;
    };
    let lead = text[line_start..at].trim();
    if matches!(lead, "-" | "--" | "—" | "~") {
        return true;
    }
    // A quoted reply's signature: "> Thanks,\n> Takis".
    let quoted = !lead.is_empty() && lead.chars().all(|c| c == '>' || c == ' ');
    if (!lead.is_empty() && !quoted) || line_start == 0 {
        return false;
    }
    let before = text[..line_start].trim_end_matches(['\n', '\r']);
    let prev = before[super::line_start(before, before.len())..].trim();
    let prev = if quoted {
        prev.trim_start_matches(['>', ' '])
    } else {
        prev
    };
    let prev = prev.trim_end_matches([',', '.', '!']).to_lowercase();
    matches!(
        prev.as_str(),
        "thanks"
            | "thank you"
            | "thanks so much"
            | "many thanks"
            | "thx"
            | "best"
            | "best regards"
            | "kind regards"
            | "warm regards"
            | "regards"
            | "sincerely"
            | "cheers"
            | "respectfully"
            | "take care"
            | "--"
            | "—"
    )
}

fn same_case(a: &Tok<'_>, b: &Tok<'_>) -> bool {
    a.shape == b.shape
}

/// "OKAFOR, MARGARET", "vargas, consuelo": the lexicon backs one side, neither is a plain word.
fn registry(last: &Tok<'_>, first: &Tok<'_>) -> bool {
    // A two-letter surname in capitals with a letter no acronym has: "VÕ, BẢO", "LÊ, AN".
    let short =
        last.shape == Shape::Caps && last.letters() == 2 && !last.info.stop && !last.w.is_ascii();
    if short {
        return first.shape == Shape::Caps
            && first.letters() >= 2
            && !first.blocked()
            && !first.info.common;
    }
    if last.blocked() || first.blocked() {
        return false;
    }
    let plain = |t: &Tok<'_>| t.info.common && !t.info.known_name();
    if plain(last) || plain(first) {
        return false;
    }
    match last.shape {
        // Lower case: both known names, one of them no common word.
        Shape::Lower => {
            last.info.known_name()
                && first.info.known_name()
                && !(last.info.common && first.info.common)
        }
        // Capitalised or in capitals: the lexicon backs one side ("YOUNG, NGUYEN"); in
        // capitals two words it does not know are a registry's too ("TUILAGI, MATAIO"), and
        // so is a surname in capitals before a capitalised given name ("TKACHENKO, Aušra").
        _ => {
            last.info.known_name()
                || first.info.known_name()
                || (last.shape == Shape::Caps
                    && matches!(first.shape, Shape::Caps | Shape::Title)
                    && last.letters() >= 4
                    && first.letters() >= 3
                    && !last.info.common
                    && !first.info.common)
        }
    }
}

/// `a^b` as a whole HL7 field of a person's name holds it ("|Yellowhorse^Folasade|",
/// "|LINDQVIST^KEONI^E^SR|"): the field has letters, blanks, hyphens, apostrophes and carets
/// only, both words capitalised alike, neither a plain word nor blocked.
fn hl7_name_field(text: &str, a: &Tok<'_>, b: &Tok<'_>) -> bool {
    let name_char = |c: char| c.is_alphabetic() || matches!(c, ' ' | '-' | '\'' | '’' | '.');
    // The field's opening bar lies on the same line (a line break is no name character).
    let ls = super::line_start(text, a.start);
    let Some(open) = text[ls..a.start].rfind('|').map(|p| ls + p) else {
        return false;
    };
    if !text[open + 1..a.start].chars().all(name_char) {
        return false;
    }
    let rest = &text[b.end..];
    let Some(close) = rest.find(['|', '\n', '\r']) else {
        return false;
    };
    if !rest[..close].chars().all(|c| name_char(c) || c == '^') || !rest[close..].starts_with('|') {
        return false;
    }
    let plain = |t: &Tok<'_>| t.info.common && !t.info.known_name();
    a.shape == b.shape
        && matches!(a.shape, Shape::Title | Shape::Caps)
        && a.letters() >= 3
        && b.letters() >= 3
        && !a.blocked()
        && !b.blocked()
        && !plain(a)
        && !plain(b)
}

/// "ABERNATHY^RUTH", "ZHOU^MEI-LING": no plain word on either side; a known name on one side,
/// or two words the dictionary does not know (HL7 names are mostly in capitals).
fn hl7_pair(a: &Tok<'_>, b: &Tok<'_>) -> bool {
    if a.blocked() || b.blocked() {
        return false;
    }
    let plain = |t: &Tok<'_>| t.info.common && !t.info.known_name();
    if plain(a) || plain(b) {
        return false;
    }
    // Two unknown words only in capitals, as HL7 names are written ("ZHOU^MEI-LING"), never
    // a code beside a title-case word ("LKS^Lakeside").
    a.info.known_name()
        || b.info.known_name()
        || (a.shape == Shape::Caps
            && b.shape == Shape::Caps
            && a.letters() >= 4
            && b.letters() >= 3
            && !a.info.common
            && !b.info.common)
}

/// "rajesh patel", "fatima zahra": a known name (not a common word) beside an unknown word or
/// another known name.
fn lower_pair(a: &Tok<'_>, b: &Tok<'_>) -> bool {
    // Two particles are no name ("paciente de la Dra. Voss"); a particle leads a surname only.
    if a.blocked() || b.blocked() || a.info.common || b.info.common || particle(b) {
        return false;
    }
    (a.info.first && (b.info.sur || !b.info.known_name()))
        || (b.info.sur && (a.info.first || !a.info.known_name()))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The names found, in order; a span inside another one found is left out (the
    /// resolution merges them).
    fn names(text: &str) -> Vec<String> {
        let mut c = Vec::new();
        lexicon_names(text, &KeepList::new(&[]), &mut c);
        c.sort_by_key(|(s, _)| (s.start, std::cmp::Reverse(s.end)));
        c.dedup_by_key(|(s, _)| (s.start, s.end));
        c.iter()
            .filter(|(s, _)| {
                !c.iter().any(|(o, _)| {
                    (o.start, o.end) != (s.start, s.end) && o.start <= s.start && s.end <= o.end
                })
            })
            .map(|(s, _)| text[s.start..s.end].to_string())
            .collect()
    }

    #[test]
    fn spanish_messages_businesses_and_signed_replies() {
        assert_eq!(
            names(
                "Hola, me llamo Dmitri Parks, mi fecha de nacimiento es el 13 de noviembre. Soy paciente de la Dra. Voss.\nNecesito cancelar mi cita del sábado a las 14:00, mañana le llamo otra vez.\nMi hija Nkechi me ayuda con el portal.\nBendiciones, faith\n"
            ),
            ["Dmitri Parks", "Voss", "Nkechi", "faith"]
        );
        assert_eq!(
            names(
                "Employer: Hawthorne Steel Fabricators (supervisor)\nPt reports she is back at Kessler Grain Co-op.\nCORWIN & VALE LLP\nStudent: tariq sterling   Grade 2\nMr. Ó Briain will call"
            ),
            ["tariq sterling", "Ó Briain"]
        );
        assert!(
            names("DTP*472*D8*20250408~\nLIN**N4*47638450258~\nGTT passed; Tdap declined.")
                .is_empty()
        );
        assert_eq!(
            names(
                "My husband will drive.\n\ndawn\n\nOn Mon, Dec 15, 2025 at 4:07 PM Clinic wrote:\n> ok"
            ),
            ["dawn"]
        );
    }

    #[test]
    fn form_fields_take_their_value_also_as_ocr_reads_it() {
        assert_eq!(
            names("Pa tient Name:  TOMAS  PRZYB0R   Date of B irth: 0l/02/l950"),
            ["TOMAS  PRZYB0R"]
        );
        assert_eq!(
            names("Resp onsibl e  party: HOPE L0NG  (aunt)"),
            ["HOPE L0NG"]
        );
        assert_eq!(
            names("Name (Last, First, MI): Vasquez, Will R\nPreferred name: Billy"),
            ["Vasquez, Will R", "Billy"]
        );
        assert_eq!(names("Ordering: KIM, DARA MD"), ["KIM, DARA"]);
        assert!(names("Subscriber (if not self): self").is_empty());
        assert!(names("Patient: stable, ambulating\nMember: see above").is_empty());
        assert!(names("Pharmacy name: Corner Drug").is_empty());
        // OCR's pieces of a word are no names.
        assert!(names("PATIENT  REGISTRATI0N  F0RM\nHom e Phone: 555").is_empty());
    }

    #[test]
    fn registries_handoffs_and_chats_shorten_names() {
        assert_eq!(names("Subject: TOC - Brannigan, Q."), ["Brannigan, Q."]);
        assert_eq!(names("S: Ferreira K, 64 F, Bed 9"), ["Ferreira K"]);
        assert_eq!(names("S: Ferreira (Lucía), 64 F"), ["Ferreira", "Lucía"]);
        assert_eq!(
            names("Forwarding for Oluwatobi \"Tobi\" Adewale (DOB"),
            ["Oluwatobi", "Tobi", "Adewale"]
        );
        assert_eq!(names("yes Zdenek, he called twice"), ["Zdenek"]);
        assert_eq!(names("bed 4 (ketevan) pulled her iv"), ["ketevan"]);
        assert_eq!(names("[09:12] June: the rash is worse"), ["June"]);
        assert_eq!(names("cc: June Abernathy (POA)"), ["June Abernathy"]);
        assert_eq!(names("Pt Kowalski, Hope, 80 y/o"), ["Kowalski, Hope"]);
        assert!(names("Will Medicaid cover it?").is_empty());
        assert!(names("- furosemide (Lasix) 40 mg daily").is_empty());
    }

    #[test]
    fn dictated_and_spelled_names() {
        assert_eq!(
            names("on patient tamsin rice period date of birth"),
            ["tamsin rice"]
        );
        assert_eq!(names("last name spelled R I C E period"), ["R I C E"]);
        assert_eq!(names("that is S-M-Y-T-H-E"), ["S-M-Y-T-H-E"]);
        assert_eq!(
            names("files: referral_hill-oyelowo_2024.pdf"),
            ["hill-oyelowo"]
        );
        assert_eq!(names("um tadeusz wrona is in the er"), ["tadeusz wrona"]);
        assert_eq!(names("she (ottilie young, born may 2"), ["ottilie young"]);
    }

    #[test]
    fn name_positions_fail_closed() {
        assert_eq!(names("pt Zyxwvu called back"), ["Zyxwvu"]);
        assert_eq!(names("Hi Grace, see you Friday"), ["Grace"]);
        assert_eq!(names("daughter grace called"), ["grace"]);
        assert_eq!(names("Dr. Cook reviewed it"), ["Cook"]);
        assert!(names("pt will call back end of day Friday").is_empty());
        assert!(names("Patient reports pain. Caller asked about the bill.").is_empty());
        assert_eq!(names("Thanks,\nSoledad"), ["Soledad"]);
        assert_eq!(names("thanks\nOlu"), ["Olu"]);
        assert_eq!(names("thanks\nsoledad"), ["soledad"]);
    }

    #[test]
    fn orders_and_cases() {
        assert_eq!(names("POPESCU, ANA-MARIA  DOB"), ["POPESCU, ANA-MARIA"]);
        assert_eq!(names("CASTILLO, MARÍA JOSÉ"), ["CASTILLO, MARÍA JOSÉ"]);
        // HL7's further components belong to the name: the middle initial too.
        assert_eq!(names("x|ABERNATHY^RUTH^L|y"), ["ABERNATHY^RUTH^L"]);
        assert_eq!(names("vargas, consuelo"), ["vargas, consuelo"]);
        assert_eq!(names("spoke w rajesh patel today"), ["rajesh patel"]);
        assert_eq!(
            names("Margaret_Okafor_123-45-6789.txt"),
            ["Margaret_Okafor"]
        );
        assert!(names("CBC, BMP and GLU^Glucose").is_empty());
        assert!(names("Grace period ends May 3; Will is a word").is_empty());
        assert_eq!(names("thanks for asking about vargas today"), ["vargas"]);
    }

    #[test]
    fn a_person_predicate_makes_its_subject_a_name() {
        assert_eq!(names("Per family, Olu prefers mornings."), ["Olu"]);
        assert_eq!(names("Nursing note: IWU seen today."), ["IWU"]);
        assert_eq!(names("Kuznetsova to return on May 2."), ["Kuznetsova"]);
        assert_eq!(names("ok, and rose asked if she can come"), ["rose"]);
        assert_eq!(names("caller obi wants a callback"), ["obi"]);
        assert_eq!(names("also petrakis from next door says hi"), ["petrakis"]);
        assert_eq!(names("Janet from Aetna called."), ["Janet"]);
        assert_eq!(names("Rosalind: Aga is here early"), ["Rosalind", "Aga"]);
        assert_eq!(names("Wojtek in 235B is a fall risk"), ["Wojtek"]);
        assert_eq!(names("fyi Maarten's new number"), ["Maarten"]);
        assert!(names("Parkinson's disease and Barrett's esophagus").is_empty());
        // The initial's dot belongs to it.
        assert_eq!(names("moved Mi-kyung J. to Saturday"), ["Mi-kyung J."]);
        assert_eq!(names("TUILAGI, MATAIO     06/13/1980"), ["TUILAGI, MATAIO"]);
        let f = names(
            "- CXR_HRYTSENKO.O_9231024.dcm\n- scan_20240603_oleksandr.hrytsenko_ins_card.jpg",
        );
        assert!(f.contains(&"HRYTSENKO.O".to_string()), "{f:?}");
        assert!(f.contains(&"oleksandr.hrytsenko".to_string()), "{f:?}");
        assert!(
            !f.iter()
                .any(|n| n.contains("CXR") || n.contains("scan") || n.contains("card")),
            "{f:?}"
        );
        assert!(
            names("Attending: Dr. Brandt, 4 West")
                .iter()
                .all(|n| n != "West")
        );
        // Plain words stay: a pharmacy calls, a lesion is seen, a rose is no person here.
        assert!(names("Pharmacy called about the refill.").is_empty());
        assert!(names("Lesion seen on CT, plan to return in May.").is_empty());
        assert!(names("the rose garden called to us").is_empty());
        assert!(names("its LLM calls will fail; chmod -R go-rwx dir").is_empty());
    }

    #[test]
    fn kin_titles_and_talk_put_names_after_them() {
        assert_eq!(names("calling about my husband yui, her dob"), ["yui"]);
        assert_eq!(names("caller st. clair wants a callback"), ["st. clair"]);
        assert_eq!(names("Spoke with iwu about the refill"), ["iwu"]);
        assert_eq!(
            names("scan_ST._CLAIR_GWENDOLYN_MRN_77.tif"),
            ["ST._CLAIR_GWENDOLYN"]
        );
        assert!(names("pt bmi 32, spoke with pharmacy").is_empty());
        assert_eq!(
            names("this is tunde the son of funmilayo nwosu"),
            ["tunde", "funmilayo nwosu"]
        );
        assert_eq!(names("hi its phúc huỳnh my new address"), ["phúc huỳnh"]);
        assert_eq!(
            names("Discussed with his son, M. Tuilagi, at bedside"),
            ["M. Tuilagi"]
        );
        assert_eq!(names("confirmed with Mr. al-Hakim today"), ["al-Hakim"]);
        assert_eq!(
            names("x\nMeenakshi, The thyroid panel is normal"),
            ["Meenakshi"]
        );
    }

    #[test]
    fn other_languages_function_words_and_introductions() {
        // Vietnamese, Portuguese, Haitian Creole, Tagalog: greetings and pronouns are no
        // names; the person after "tên là", "meu nome é", "mwen rele", "si" is.
        assert_eq!(
            names(
                "Xin chào, tôi tên là Minh Okafor. Số điện thoại của tôi là 555. Tôi cần gọi lại."
            ),
            ["Minh Okafor"]
        );
        assert_eq!(
            names("Olá, meu nome é Rosa Whitcombe, preciso remarcar a consulta. Obrigada!"),
            ["Rosa Whitcombe"]
        );
        assert_eq!(
            names("Bonjou, mwen rele J. Strong. Mèsi anpil!"),
            ["J. Strong"]
        );
        assert_eq!(
            names("Magandang hapon po. Ako po si Dalisay Okafor. Salamat po!"),
            ["Dalisay Okafor"]
        );
    }

    #[test]
    fn signed_after_a_dash_mailing_blocks_and_filed_photos() {
        assert_eq!(
            names("Q: Comments? A: all good, call me 555-201-0000 — Will Ostrander\nQ: next"),
            ["Will Ostrander"]
        );
        assert_eq!(names("loved the staff -- M. Ferreira"), ["M. Ferreira"]);
        // A heading's one word after a dash is no signature.
        assert!(names("Interpreter Services Encounter — Marshallese\nDate: 1/2").is_empty());
        assert!(names("Status — Will Call").is_empty());
        assert_eq!(
            names(
                "Explanation of Benefits\nDESMOND OYELARAN\n1200 W 14TH ST APT 3\nDUBUQUE IA 52001-1234\n"
            ),
            ["DESMOND OYELARAN"]
        );
        assert!(
            !names("Remit to\nBilling Department\n1200 W 14th St\nDubuque, IA 52001\n")
                .contains(&"Billing Department".to_string())
        );
        assert_eq!(
            names("- Li_46350024_20260420_heel.jpg taken 04/20/2026\nsee RIVERS_48949964_heel.png"),
            ["Li", "RIVERS"]
        );
        assert_eq!(
            names("incoming: WILL OSTRANDER 🚑 DOB 1953-03-01"),
            ["WILL OSTRANDER"]
        );
        assert_eq!(
            names("transfer: jasper ostrander 🚑 DOB 1930-11-11"),
            ["jasper ostrander"]
        );
        assert_eq!(
            names("Hearing Clinic\nK. Dela Peña, adult, seen 05/03/2025."),
            ["K. Dela Peña"]
        );
        assert_eq!(
            names("I, the patient, appoint Will Ostrander as my agent."),
            ["Will Ostrander"]
        );
    }

    #[test]
    fn record_subject_fields_outside_the_chart() {
        assert_eq!(
            names("Inmate: O. Okonkwo  Booking # 25125053\nHousing: unit V"),
            ["O. Okonkwo"]
        );
        assert_eq!(
            names("Decedent: HALE, MARGUERITE\nAge: 88"),
            ["HALE, MARGUERITE"]
        );
        assert_eq!(names("Recipient: WILL FARROW (MRN 123)"), ["WILL FARROW"]);
        assert_eq!(
            names("Sick call slip — I/M OKAFOR, Marcus #2291734, pod C"),
            ["OKAFOR, Marcus"]
        );
        assert_eq!(names("Donor: deceased donor, DCD"), Vec::<String>::new());
    }

    #[test]
    fn data_fields_named_for_a_person_in_any_format() {
        // Dict and JSON keys, key="value", an SQL INSERT's columns (a doubled quote inside).
        assert_eq!(
            names("render failed for {'first_name': 'Will', 'last_name': 'Fields', 'dob': '1970'}"),
            ["Will", "Fields"]
        );
        assert_eq!(
            names(r#"{"event":"sent","patient_name":"Ada Okafor","username":"Deploy Bot"}"#),
            ["Ada Okafor"]
        );
        assert_eq!(
            names(r#"msg="send failed" pt="June Moss" guardian_name='REYES, ROSA' host="Web Two""#),
            ["June Moss", "REYES, ROSA"]
        );
        assert_eq!(
            names(
                "INSERT INTO people (id, mrn, surname_name, given_name, dob) VALUES\n  (1, 'A1', 'O''Brien', 'Hope', '1970-01-02'),\n  (2, 'A2', 'Day', 'Joy', NULL);\n"
            ),
            ["O''Brien", "Hope", "Day", "Joy"]
        );
        // A column that names no person keeps its values ("patient_id", "city").
        let mut c = vec![];
        data_fields(
            "INSERT INTO visits (id, patient_id, city) VALUES (3, 'Cook', 'Lima');",
            &KeepList::new(&[]),
            &mut c,
        );
        assert!(c.is_empty());
    }

    #[test]
    fn couples_answers_and_bracketed_labels() {
        assert_eq!(
            names("Re: transfer plan – Bakker/de la Cruz\n\nHi Sterling and Journey,\nsee below"),
            ["Bakker", "de la Cruz", "Sterling", "Journey"]
        );
        assert_eq!(
            names(
                "[03:10] counselor: what should i call you\n[03:11] texter: odalys small i guess\n"
            ),
            ["odalys small"]
        );
        assert_eq!(
            names("This certifies that [name] MARISOL TEAGUE was vaccinated."),
            ["MARISOL TEAGUE"]
        );
        // A relation after a given name that is also a word: a pedigree, a teletype.
        assert_eq!(
            names("  II-1  Journey (mother), 58\nDISPO: HOME W/ JOY MENSAH (DTR), 12 ELM ST"),
            ["Journey", "JOY MENSAH"]
        );
    }

    #[test]
    fn mailing_blocks_on_rural_routes() {
        assert_eq!(
            names("12-16-2025\n\nROSA MARSH\nCOUNTY ROAD 573\nOPELOUSAS LA  38300\n"),
            ["ROSA MARSH"]
        );
        // (the city is the places rules' to take)
        assert_eq!(
            names("Hope Day\nW6691 Hickory Knoll Way\nLompoc, CA 93436\n")[0],
            "Hope Day"
        );
    }

    #[test]
    fn things_told_by_their_context() {
        let keep = |text: &str| {
            let mut c = vec![];
            lexicon_names(text, &KeepList::new(&[]), &mut c);
            drop_things(text, &mut c);
            c.iter()
                .map(|(s, _)| text[s.start..s.end].to_string())
                .collect::<Vec<_>>()
        };
        for text in [
            "Also given today: Typhim Vi (NDC 49281-790-20).",
            "Trip: Lima → Cusco → Iquitos.",
            "Please confirm the cleaning crew: Hollister Hall room 465.",
            "Teacher at Foxhollow Elementary says so.",
            "SLR neg; Kemp's + R; Phalen's negative.",
            "Meine Adresse: Schillerstraße 9.",
        ] {
            assert!(keep(text).is_empty(), "{text}: {:?}", keep(text));
        }
        // A person's room after a comma stays a person's.
        assert_eq!(keep("Teacher: Mrs. Short, room 33"), ["Short"]);
    }

    #[test]
    fn surname_particles_of_other_languages() {
        assert_eq!(
            names("Patient: Pere Soler i Vidal   DOB: 1/2/1950"),
            ["Pere Soler i Vidal"]
        );
        assert_eq!(
            names("Spoke with daughter Aminah binti Yusof today."),
            ["Aminah binti Yusof"]
        );
        assert_eq!(
            names("sister Orlaith Nic an tSionnaigh called back"),
            ["Orlaith Nic an tSionnaigh"]
        );
        // A double surname whose first part is a word; the conjunction before a word in
        // lower case is the sentence going on.
        assert_eq!(names("Mrs. Cases i Font arrived late."), ["Cases i Font"]);
        assert_eq!(
            names("In re the Estate of ROSER CASES I FONT, deceased"),
            ["ROSER CASES I FONT"]
        );
        assert_eq!(names("Bon dia, em dic Pau i visc a Girona."), ["Pau"]);
    }

    #[test]
    fn how_other_languages_introduce_a_person() {
        assert_eq!(names("Anak saya Wulandari boleh hantar."), ["Wulandari"]);
        assert_eq!(names("Mio marito Gianfranco può venire."), ["Gianfranco"]);
        assert_eq!(
            names("Meri walida Zubaida ki umar 80 saal hai. Mera number 0300-1234567 hai."),
            ["Zubaida"]
        );
        assert_eq!(
            names("Habari, mimi ni Baraka Otieno. Bibi yangu Mwanaisha ana miaka 90."),
            ["Baraka Otieno", "Mwanaisha"]
        );
        assert!(
            names("Pwede po ba i-resched yung appointment? Hindi ako makakapunta kasi may work. Text niyo na lang po ako.")
                .is_empty()
        );
    }

    #[test]
    fn captions_roles_and_places_of_courts_and_parishes() {
        assert_eq!(
            names(
                "SUPERIOR COURT, COUNTY OF MARLBROOK\nIn re the Guardianship of TEODORA VASILIU, an Adult\nRespondent resides at 12 Elm St.\nDecedent's vehicle was towed."
            ),
            ["TEODORA VASILIU"]
        );
        assert!(names("Tradition: Sunni Muslim\nMeet at St. Agnes's parish hall.").is_empty());
        assert!(names("Moved to 4610 Larkspur Way, Ashby, MN 55001.").is_empty());
    }

    #[test]
    fn names_before_a_birth_date_or_an_address() {
        assert_eq!(
            names("Donor Registry\nAUGUSTINE OKONJO\n12 Quarry Rd, Ashby, MN 55001\n"),
            ["AUGUSTINE OKONJO"]
        );
        assert_eq!(
            names("Notice\nZUBEYDE\n12 Quarry Rd, Ashby, MN 55001\n"),
            ["ZUBEYDE"]
        );
        assert_eq!(names("#2 Wanjiru, DOB 3/4/51, BP 120/80"), ["Wanjiru"]);
        assert_eq!(
            names("Agent named: Obiageli, 12 Quarry Rd, Ashby"),
            ["Obiageli"]
        );
        // A system before a record number is no name.
        assert!(names("Meditech MRN 5551234").is_empty());
    }

    #[test]
    fn titles_honorifics_and_metadata_of_other_languages() {
        assert_eq!(
            names("Ho parlato con il signor Fabbri. Bwana Mwangi alipiga simu."),
            ["Fabbri", "Mwangi"]
        );
        assert_eq!(names("Kal Zubair sahib ne call kiya."), ["Zubair"]);
        assert_eq!(
            names("Artist: Wanjiku Kamau\nOwner: Pharmacy\nAuthor: billing team"),
            ["Wanjiku Kamau"]
        );
    }

    #[test]
    fn kin_words_and_closings_of_more_languages() {
        // Haitian Creole, Portuguese, Vietnamese, romanised Greek: the kin word, its
        // possessive, the name.
        assert_eq!(names("Manman m Oreste gen 91 an."), ["Oreste"]);
        assert_eq!(names("Meu filho Teodoro tem consulta."), ["Teodoro"]);
        assert_eq!(names("Vợ tôi Hương bị ốm."), ["Hương"]);
        assert_eq!(names("O pappous mou Stelios einai edw."), ["Stelios"]);
        // Greek in its own script: "my name is" and a signed closing.
        assert_eq!(
            names("Γεια σας, ονομάζομαι Νίκος Βλάχος.\nΕυχαριστώ,\nΝίκος"),
            ["Νίκος Βλάχος", "Νίκος"]
        );
        // Somali greetings and function words are no names; its kin word leads one.
        assert_eq!(
            names("Salaan, magacaygu waa Hodan Warsame."),
            ["Hodan Warsame"]
        );
        assert!(names("Gabadhayda ayaa xanuunsan.").is_empty());
    }

    #[test]
    fn names_told_by_how_they_are_written() {
        // Spelled out after "thats", and the surname after "last name".
        assert_eq!(
            names("hi its oren, last name okwuosa thats o k w u o s a um"),
            ["oren", "okwuosa", "o k w u o s a"]
        );
        // Shorthand of "spoke with"; a lower-case surname after a kin word.
        assert_eq!(names("spoke w/ Ifeanyi re balance"), ["Ifeanyi"]);
        assert_eq!(
            names("calling for my father oyelaran baker hes unwell"),
            ["oyelaran baker"]
        );
        // Before an age and sex; a subject's trailing name after a dash.
        assert_eq!(names("SUBJ - R. Okwuosa, 93F, dizzy"), ["R. Okwuosa"]);
        assert_eq!(
            names("Walk-in note\nzubair okonjo, 71M w/ hx CHF"),
            ["zubair okonjo"]
        );
        assert_eq!(names("Subject: Statement ready — Oyelowo"), ["Oyelowo"]);
        assert!(names("Subject: Lab results — Friday").is_empty());
        // Glued in camel case, in a subject and a file name; not a company's three words.
        assert_eq!(
            names("URGENT pt TeodoroOkwuosa callback"),
            ["TeodoroOkwuosa"]
        );
        assert_eq!(names("NotesForOkwuosaMRN1234567.pdf"), ["Okwuosa"]);
        assert!(names("SKB^GlaxoSmithKline^MVX").is_empty());
        // Registry order with the initial's dot; HL7 components to the field's end.
        assert_eq!(
            names("RE: OKWUOSA, Teodoro Q. | DOB"),
            ["OKWUOSA, Teodoro Q."]
        );
        assert_eq!(
            names("PID|1||123^^^X^MR||OKWUOSA^TEODORO^Q^JR||19400101|M"),
            ["OKWUOSA^TEODORO^Q^JR"]
        );
        assert_eq!(
            names("PID|1||123||Okwuosa^Teodoro^^||19400101|M"),
            ["Okwuosa^Teodoro^^"]
        );
        // Two lower-case words before a possessive in a chat.
        assert_eq!(
            names("anyone know why teodoro okwuosa's login fails"),
            ["teodoro okwuosa"]
        );
    }

    /// The names left after [`drop_things`] has dropped the things among the candidates.
    fn names_kept(text: &str) -> Vec<String> {
        let mut c = Vec::new();
        lexicon_names(text, &KeepList::new(&[]), &mut c);
        drop_things(text, &mut c);
        let mut v: Vec<String> = c
            .iter()
            .map(|(s, _)| text[s.start..s.end].to_string())
            .collect();
        v.sort();
        v.dedup();
        v
    }

    #[test]
    fn a_combining_tone_mark_stays_in_its_word() {
        // Yoruba marks a dotted vowel's tone with a combining accent (no precomposed form).
        assert_eq!(
            names("Orúkọ mi ni Abíọ́dún Akínwándé. Mo ń kọ̀wé nípa bàbá mi Adébáyọ̀ Ọlátúnjí."),
            ["Abíọ́dún Akínwándé", "Adébáyọ̀ Ọlátúnjí"]
        );
    }

    #[test]
    fn a_form_line_split_in_last_first_and_middle_initial_names_one_person() {
        assert_eq!(
            names("Last name: Whitcombe      First: Grace      MI: L\nPreferred name: Gracie"),
            ["Whitcombe", "Grace", "L", "Gracie"]
        );
        // "First" alone is no name's label.
        assert!(names("First: take the pills. MI: none").is_empty());
    }

    #[test]
    fn spelled_small_letters_after_the_name_asked_for_are_the_name() {
        assert_eq!(
            names("hi um this is Zbigniew last name w-r-o-b-l-e-w-s-k-i calling about my refill"),
            ["Zbigniew", "w-r-o-b-l-e-w-s-k-i"]
        );
    }

    #[test]
    fn a_title_before_an_initial_and_a_possessive_is_a_clipped_surname() {
        assert_eq!(
            names("can someone move mrs l's 3:00 AM to Thursday?"),
            ["l"]
        );
    }

    #[test]
    fn clipped_names_of_subjects_and_chats() {
        assert_eq!(
            names("Subject: Prior auth needed: J. Miller / Humira / member 123"),
            ["J. Miller"]
        );
        assert_eq!(
            names("also R. ap Gwilym called, wants his inr result"),
            ["R. ap Gwilym"]
        );
        assert_eq!(names("Subject: call back Liesel re: bill"), ["Liesel"]);
        assert_eq!(names("Subject: Fall at home - 94F Park, bed 4B"), ["Park"]);
        assert_eq!(
            names("annyeonghaseyo, CHOI MIN-JUN hwanjanim."),
            ["CHOI MIN-JUN"]
        );
        // A sentence ends at a vitamin's letter; a call back is to a day or a date.
        assert!(names("take vitamin D. Continue meds. Please call back Monday.").is_empty());
        assert!(names("Dx: C. Diff positive.").is_empty());
    }

    #[test]
    fn eponyms_korean_particles_and_letter_words_are_no_names() {
        assert!(
            names_kept("Parkinson's medications continued; he walks with a Zimmer frame.")
                .is_empty()
        );
        // A person of that name keeps it: the possessive goes on to kin.
        let text = "Mr. Parkinson's daughter called.";
        let span = Span {
            kind: Kind::Person,
            start: 4,
            end: 14,
        };
        let mut c = vec![(span, PRIO)];
        drop_things(text, &mut c);
        assert_eq!(c.len(), 1);
        assert!(names_kept("Reply: ne, geumyoil-eun an dwaeyo. abeonim-eun 95-se").is_empty());
        assert!(
            names_kept("Letzte Vorstellung: 26.10.2025, nächster Termin am Donnerstag.").is_empty()
        );
        assert_eq!(
            names_kept("Sehr geehrte Frau Dr. Oberländer,"),
            ["Oberländer"]
        );
    }

    #[test]
    fn a_middle_initial_on_its_own_line_of_a_form_that_asks_for_a_name() {
        assert_eq!(
            names("Last Name: Castillo\nFirst Name: Violet\nMI: Q\nDOB: 08/07/1928\n"),
            ["Castillo", "Violet", "Q"]
        );
        assert_eq!(
            names("MI: E\nDOB: 09/27/1955\nFirst Name: Zbigniew\n"),
            ["E", "Zbigniew"]
        );
        // A history's checklist: "MI" is a myocardial infarction.
        assert_eq!(
            names("Cardiac history\nMI: N\nCHF: Y\n"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn a_workers_compensation_reports_employee_field() {
        assert_eq!(
            names("Employee: Rose J MacLeod\nHome address: 2496 Pioneer Pkwy"),
            ["Rose J MacLeod"]
        );
    }

    #[test]
    fn a_name_spelled_letter_by_letter_in_a_lower_case_transcript() {
        assert_eq!(
            names("refill. last name is s h a r m a. not getting any younger"),
            ["s h a r m a"]
        );
        assert_eq!(names("ok it's l-a-n-e. ok thanks"), ["l-a-n-e"]);
        assert_eq!(
            names("my name is ... m. a. c. a. r. a. e. g ... and i got a bill"),
            ["m. a. c. a. r. a. e. g"]
        );
        // Three letters are an abbreviation as often as a name.
        assert_eq!(names("the b p m was low, a-b-c done"), Vec::<String>::new());
    }

    #[test]
    fn a_titles_initial_as_the_subject_of_a_chat_line() {
        assert_eq!(
            names("mr s in 3C is asking for a blanket\nmrs k, bed 2, wants tea"),
            ["s", "k"]
        );
        // "ms a lot": a word, not an initial.
        assert_eq!(names("thank you ms a lot"), Vec::<String>::new());
    }

    #[test]
    fn a_given_name_with_its_surname_in_brackets() {
        assert_eq!(
            names(
                "violet (Bishop) no-showed again\nzoë (Hope) called\nzbigniew (Dąbrowski) no-showed"
            ),
            ["violet", "Bishop", "zoë", "Hope", "zbigniew", "Dąbrowski"]
        );
        // A drug and its brand, a credential and its speciality.
        assert_eq!(
            names("Medication: empagliflozin (Jardiance) 10 mg daily"),
            Vec::<String>::new()
        );
        assert_eq!(
            names("Yours sincerely,\n\nFRCS (Orth)\n"),
            Vec::<String>::new()
        );
        // A nickname between the given name and the surname stays one name's parts.
        assert_eq!(
            names("Oluwaseun (Olu) Adeyemi called"),
            ["Oluwaseun", "Olu", "Adeyemi"]
        );
    }

    #[test]
    fn a_surname_in_capitals_before_a_relatives_possessive() {
        assert_eq!(names("fyi MOODY's son called, wants the slot"), ["MOODY"]);
        assert_eq!(names("fyi BISHOP's niece called"), ["BISHOP"]);
    }

    #[test]
    fn a_court_captions_party_before_its_role() {
        assert_eq!(
            names("In the Matter of the Guardianship of\nTADHG PAGE, Respondent.\nCase No. 26"),
            ["TADHG PAGE"]
        );
    }

    #[test]
    fn eponyms_streets_and_businesses_named_for_people() {
        assert_eq!(
            names("PRN. Cheyne-Stokes breathing noted. Circle of Willis unremarkable."),
            Vec::<String>::new()
        );
        assert_eq!(
            names("hi this is the pharmacy at fred meyer on sandy boulevard calling"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn greetings_and_pronouns_of_polish_and_arabizi_messages() {
        assert_eq!(
            names("Szanowni Państwo,\n\nMama przyjmuje gabapentin.\n"),
            Vec::<String>::new()
        );
        assert_eq!(
            names("bas huwa ta3ban ktir.\nShukran jazeelan\ncaller said: hi"),
            Vec::<String>::new()
        );
    }

    #[test]
    fn a_printed_forms_field_set_off_by_dot_leaders() {
        assert_eq!(
            names(
                "Urgency: routine\nPatient ........ Macaraeg, Marites\nBorn ........... 1943-07-20\n"
            ),
            ["Macaraeg, Marites"]
        );
        assert_eq!(
            names(
                "Patient ........... Honor St. Pierre (Dependent)\nClaim # ........... NR72335\n"
            ),
            ["Honor St. Pierre"]
        );
    }

    #[test]
    fn registry_order_padded_before_its_comma_and_a_caret_typed_in_a_field() {
        assert_eq!(
            names("PATIENT  LITTLE , IVY   SEX F   DOB 2012-06-24\n"),
            ["LITTLE , IVY"]
        );
        assert_eq!(
            names("PATIENT: KAUR^SAVITRI   MRN: 7422552   DOB: 04/12/1951\n"),
            ["KAUR^SAVITRI"]
        );
    }

    #[test]
    fn a_mail_headers_display_name_spelled_in_its_own_address() {
        assert_eq!(
            names("To: Will Rose <will.rose@icloud.com>\n"),
            ["Will Rose"]
        );
        // A shared mailbox's own name.
        assert_eq!(
            names("From: Billing Office <billing@cedarridgefh.org>\n"),
            Vec::<String>::new()
        );
        assert_eq!(
            names("To: Care Coordination <carecoord@stadalbert.org>\n"),
            Vec::<String>::new()
        );
        assert_eq!(
            names("# export for Joy Lane <joylane@icloud.com>\n"),
            ["Joy Lane"]
        );
    }
}
