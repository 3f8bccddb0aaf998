//! What is never a patient identifier: the practice's own names (the profile's `phi_keep`)
//! and organisation names in general ("Lakeside Family Clinic", "Mercy Imaging Center").

use std::sync::LazyLock;

use super::lexicon::LEXICON;
use super::pattern::Pattern;
use super::words::NAME_W;
use super::{Kind, Span};

/// The keep list, lower-cased: whole entries and their words (so "Priya Raman" also keeps
/// "Dr. Raman", "RAMAN^PRIYA" and "Priya").
#[derive(Default)]
pub(super) struct KeepList {
    phrases: Vec<String>,
    words: Vec<String>,
}

/// Words too common to keep on their own even when a keep entry holds them.
const GENERIC: &[&str] = &[
    "dr", "dr.", "the", "of", "and", "clinic", "family", "medical", "center", "centre", "health",
    "group", "hospital", "care", "st", "st.", "saint", "md", "rn", "np",
];

impl KeepList {
    pub(super) fn new(entries: &[String]) -> KeepList {
        let mut k = KeepList::default();
        for e in entries {
            let e = e.trim().to_lowercase();
            if e.is_empty() {
                continue;
            }
            // A place's name ("Hope House", "Little Sprouts", "Magnolia Wing") has a dictionary
            // word in it: its words that are also given names or words are not kept alone
            // (why: "Hope Little" is a patient's neighbour, not the house or the day care).
            // A person's entry keeps every word ("Priya Raman" keeps "Dr. Raman").
            let place = e.split_whitespace().any(|w| {
                let i = LEXICON.info(w);
                i.common && !i.known_name() && !GENERIC.contains(&w)
            });
            for w in e.split(|c: char| c.is_whitespace() || c == ',') {
                let w = w.trim_matches(|c: char| !c.is_alphanumeric());
                if place && {
                    let i = LEXICON.info(w);
                    i.common || i.known_name()
                } {
                    continue;
                }
                if w.chars().count() >= 2
                    && !GENERIC.contains(&w)
                    && !k.words.iter().any(|x| x == w)
                {
                    k.words.push(w.to_string());
                }
            }
            k.phrases.push(e);
        }
        k
    }

    fn keeps_name(&self, name: &str) -> bool {
        let lower = name.to_lowercase();
        if self.phrases.contains(&lower) {
            return true;
        }
        // An initial goes with the kept word beside it: "P. Whitacre" for "Paul Whitacre".
        let words: Vec<&str> = lower
            .split(|c: char| !c.is_alphanumeric() && c != '\'' && c != '-')
            .filter(|w| w.chars().count() > 1)
            .collect();
        !words.is_empty()
            && words
                .iter()
                .all(|w| self.words.iter().any(|k| k == w) || GENERIC.contains(w))
    }

    /// Drops candidates that are kept: names made only of keep words, and any candidate lying
    /// inside a kept phrase or an organisation name.
    pub(super) fn filter(&self, text: &str, cands: &mut Vec<(Span, u8)>) {
        let mut zones: Vec<(usize, usize)> = ORG.find_iter(text);
        if !self.phrases.is_empty() {
            let lower = text.to_lowercase();
            // Lower-casing can change byte lengths outside ASCII; only use it when it did not.
            if lower.len() == text.len() {
                for p in &self.phrases {
                    zones.extend(
                        lower
                            .match_indices(p.as_str())
                            .map(|(i, _)| (i, i + p.len())),
                    );
                }
            }
        }
        let squashed: Vec<String> = self.phrases.iter().map(|p| p.replace(' ', "")).collect();
        cands.retain(|(s, _)| {
            if s.kind == Kind::Email {
                // The practice's own mailboxes ("billing@lakesideclinic.example") are not PHI.
                let domain = text[s.start..s.end]
                    .rsplit_once('@')
                    .map(|(_, d)| d.to_lowercase())
                    .unwrap_or_default();
                return !squashed.iter().any(|p| domain.contains(p.as_str()));
            }
            let inside = zones.iter().any(|&(a, b)| a <= s.start && s.end <= b);
            if inside && matches!(s.kind, Kind::Person | Kind::Address) {
                return false;
            }
            !(s.kind == Kind::Person && self.keeps_name(&text[s.start..s.end]))
        });
    }

    pub(super) fn keeps(&self, name: &str) -> bool {
        !self.words.is_empty() && self.keeps_name(name)
    }
}

/// A Title Case run ending in an organisation word is an organisation, not a person; a
/// program or a department is one too ("From: Bariatric Program <…>").
static ORG: LazyLock<Pattern> = LazyLock::new(|| {
    Pattern::new(&format!(
        r"\b(?:{NAME_W}[ \t]+){{1,3}}(?:Clinic|Hospital|Medical Center|Center|Centre|Associates|Pharmacy|Health|Healthcare|Labs?|Laboratory|Laboratories|Imaging|Partners|Group|Practice|Institute|University|College|Foundation|Inc|LLC|Insurance|Pediatrics|Orthopedics|Cardiology|Radiology|Urgent Care|Home Health|Hospice|Program|Programme|Department|Dept|Services|Agency|Association|Society|Network|Funeral Home|Mortuary|Ambulance)\b"
    ), false, 10 << 20)
    .expect("constant pattern compiles")
});
