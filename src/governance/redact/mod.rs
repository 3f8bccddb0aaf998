//! PHI / PII redaction before text leaves the process (DESIGN "LLM router", principle 5).
//!
//! For a profile with `phi_auto_redact`, every message of every hop (first choice, retries,
//! fallbacks) goes through [`Redactor::redact`] before it is sent. Identifiers are replaced by
//! stable placeholders (`<PERSON_1>`, `<MRN_1>`, …) recorded in a [`RedactionSession`] that
//! lives for one job; the answer is turned back with [`RedactionSession::reidentify`] locally.
//!
//! Design choices, and why:
//! - **Conservative.** Safe Harbor asks for every element of a date (except the year) tied to
//!   an individual; a detector cannot know what a date is tied to, so every day-precision date
//!   is redacted, and month/year only next to a person-date context word. Provider names
//!   ("Dr. Patel") are redacted too: a wrong placeholder costs a little answer quality, a
//!   missed name is a disclosure.
//! - **Fail closed.** A configured pattern that does not compile is an error at construction;
//!   any inconsistency while redacting is an error, never a partly redacted string. The router
//!   blocks the call on any [`RedactError`].
//! - **The mapping never leaves the process.** [`RedactionSession`] is not `Serialize`, not
//!   `Clone`, and its `Debug` shows only counts per kind. [`RedactError`] never carries input
//!   text.
//! - **Overlaps.** Candidates are ranked by how specific their detector is (a context-anchored
//!   MRN beats a bare number shape, an email beats the URL-ish text around it), then by length.
//!   A lower-ranked candidate that sticks out of an accepted span widens that span instead of
//!   being dropped, so a partial overlap never leaves a fragment of an identifier behind.
//! - **Placeholders are keyed by the exact surface text**, so `reidentify(redact(x)) == x`
//!   holds exactly. "Maria Lopez" and a later bare "Lopez" therefore get two placeholders; a
//!   name found once (by a field or title heuristic) is remembered by the session and redacted
//!   wherever it appears later in the job, also on later hops.

use std::fmt;

mod cache;
mod cards;
mod keep;
mod lexicon;
mod markup;
mod names;
mod pattern;
mod places;
mod positions;
mod rules;
mod session;
mod structured;
mod table;
mod words;
mod x12;

use session::KnownNames;
pub use session::RedactionSession;

use names::{person_runs, trim_name};
use rules::{builtin_rules, has_context, is_fax, luhn_ok, near, roster_regex};
use words::not_a_name;

/// Kinds of identifiers (HIPAA Safe Harbor identifiers that plain text can carry).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    Person,
    Phone,
    Fax,
    Email,
    Ssn,
    Mrn,
    HealthPlan,
    Account,
    Date,
    Age,
    Address,
    Zip,
    Url,
    Ip,
    License,
    Card,
    Device,
    Vehicle,
    /// Room and bed numbers (always redacted, Ted seed section 7.3).
    Room,
    /// Diagnoses and conditions: only when the profile opts in (`redact_conditions`).
    Condition,
}

impl Kind {
    pub const ALL: [Kind; 20] = [
        Kind::Person,
        Kind::Phone,
        Kind::Fax,
        Kind::Email,
        Kind::Ssn,
        Kind::Mrn,
        Kind::HealthPlan,
        Kind::Account,
        Kind::Date,
        Kind::Age,
        Kind::Address,
        Kind::Zip,
        Kind::Url,
        Kind::Ip,
        Kind::License,
        Kind::Card,
        Kind::Device,
        Kind::Vehicle,
        Kind::Room,
        Kind::Condition,
    ];

    /// The word used inside placeholders: `<PERSON_1>`.
    pub fn tag(self) -> &'static str {
        match self {
            Kind::Person => "PERSON",
            Kind::Phone => "PHONE",
            Kind::Fax => "FAX",
            Kind::Email => "EMAIL",
            Kind::Ssn => "SSN",
            Kind::Mrn => "MRN",
            Kind::HealthPlan => "HEALTH_PLAN",
            Kind::Account => "ACCOUNT",
            Kind::Date => "DATE",
            Kind::Age => "AGE",
            Kind::Address => "ADDRESS",
            Kind::Zip => "ZIP",
            Kind::Url => "URL",
            Kind::Ip => "IP",
            Kind::License => "LICENSE",
            Kind::Card => "CARD",
            Kind::Device => "DEVICE",
            Kind::Vehicle => "VEHICLE",
            Kind::Room => "ROOM",
            Kind::Condition => "CONDITION",
        }
    }

    /// Inverse of [`Kind::tag`], also accepting the snake_case names used in config
    /// (`health_plan`).
    pub fn from_name(name: &str) -> Option<Kind> {
        let up = name.trim().to_ascii_uppercase();
        Kind::ALL.into_iter().find(|k| k.tag() == up)
    }
}

/// Errors of the redactor. The router blocks the call on any of them (fail closed). On purpose
/// none of them carries the text being redacted.
#[derive(Debug, thiserror::Error)]
pub enum RedactError {
    #[error("redaction pattern #{index} for {kind:?} does not compile: {reason}")]
    BadPattern {
        kind: Kind,
        index: usize,
        reason: String,
    },
    #[error("redaction roster name #{index} is empty")]
    EmptyName { index: usize },
    #[error("internal redaction failure: {0}")]
    Internal(&'static str),
}

/// An extra detector from configuration, e.g. a site's MRN format.
#[derive(Clone, PartialEq, Eq)]
pub struct PatternConfig {
    pub kind: Kind,
    /// Regular expression (`regex` crate syntax). A capture group named `v` marks the part to
    /// redact; without it the whole match is redacted.
    pub regex: String,
    /// When not empty, a match counts only if one of these words (case-insensitive) occurs in
    /// the [`CONTEXT_WINDOW`] bytes before it, e.g. `["mrn", "chart"]` for a bare 8-digit MRN.
    pub context: Vec<String>,
}

impl fmt::Debug for PatternConfig {
    // Patterns are configuration, not PHI, but a site pattern may embed a literal identifier;
    // keep it out of debug output like the rest of this module.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("PatternConfig")
            .field("kind", &self.kind)
            .field("context_words", &self.context.len())
            .finish_non_exhaustive()
    }
}

/// How many bytes before a configured pattern's match are searched for its context words.
pub const CONTEXT_WINDOW: usize = 32;

/// Everything a [`Redactor`] is built from.
#[derive(Clone, Default, PartialEq, Eq)]
pub struct RedactorConfig {
    /// Roster of names to redact (a profile's `phi_names`): matched case-insensitively as a
    /// whole ("Maria Lopez"), reversed ("Lopez, Maria"), and by surname alone ("Lopez").
    pub names: Vec<String>,
    /// Site-specific detectors added to the built-in ones.
    pub patterns: Vec<PatternConfig>,
}

impl fmt::Debug for RedactorConfig {
    // The roster is PHI: show only its size.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedactorConfig")
            .field("names", &self.names.len())
            .field("patterns", &self.patterns)
            .finish()
    }
}

/// Per-profile redaction settings beyond the roster and the patterns (kept apart from
/// [`RedactorConfig`] so its existing struct literals keep compiling).
#[derive(Clone, Default, PartialEq, Eq)]
pub struct RedactorOptions {
    /// Names of the practice itself and its staff (a profile's `phi_keep`): never redacted as
    /// names, in any case, whole or by their words ("Lakeside Clinic", "Priya Raman" also keeps
    /// "Dr. Raman").
    pub keep: Vec<String>,
    /// Redact diagnoses and conditions too (a profile's `redact_conditions`; Ted seed 7.3
    /// lists "medical conditions" among the fields a profile may choose).
    pub redact_conditions: bool,
}

impl fmt::Debug for RedactorOptions {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("RedactorOptions")
            .field("keep", &self.keep.len())
            .field("redact_conditions", &self.redact_conditions)
            .finish()
    }
}

/// A resolved identifier in a text: byte offsets into the text given to [`Redactor::find`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Span {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

/// Extra validation of a regex match, for shapes a regex alone cannot pin down.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Check {
    None,
    /// Identifier values must contain a digit ("account for" is not an account number).
    HasDigit,
    /// 13–19 digits passing the Luhn check.
    Luhn,
    /// Capitalised words that are not common non-name words ("Patient Portal").
    PersonWords,
    /// Like `PersonWords`, but every word must pass (for the broad "Two Capitalised" rule).
    PersonAll,
    /// Phone shape; becomes [`Kind::Fax`] when the nearest label before it says fax.
    PhoneOrFax,
    /// Vehicle identification number: 17 chars with letters and digits.
    Vin,
    /// Configured pattern with context words (index into `Redactor::contexts`).
    Context(usize),
    /// Built-in shape that is only an identifier of its kind next to one of these words
    /// (lowercase) in the [`NEAR_WINDOW`] bytes before it, e.g. a dotted 3-2-4 number after
    /// "SSN on W-9:" (why: the label is often a few words away from the value).
    Near(&'static [&'static str]),
    /// International phone ("+44 20 7946 0958"): 8–15 digits, else like `PhoneOrFax`.
    IntlPhone,
    /// Place names (a city after "lives in"): every word must pass the non-name lists.
    PlaceWords,
    /// A name in any case: every word must pass the non-name lists (case-insensitively), and a
    /// word in capitals must be longer than three letters ("CBC, BMP" is not a name).
    NameStrict,
    /// A name typed in lower case: no word may be a function word or a number word.
    SpokenName,
    /// An identifier with no label of its own ("W947306423", "GF-8400212", "RNL802095"):
    /// capitals and at least five digits, not a quantity with its unit; its kind is the one
    /// the words before it name (insurance → health plan, meter or serial → device, Rx or
    /// claim → account), a record number otherwise.
    AlnumId,
    /// A month and day, unless an expiry word stands right before it ("exp 09/27", "valid
    /// thru 04/26": a card's month and year).
    NotExpiry,
    /// A bare run of digits with no label: a record number, unless the words before it make
    /// it a product's code or it is an HL7 message's control id.
    BareNumber,
    /// A value after a label as a scanner reads it ("Soc. Sec. #: 2703l8934"): kept when, read
    /// with `l`/`O` as digits and stray blanks left out, it has its kind's shape (`rules.rs`).
    Ocr,
}

/// How many bytes before a [`Check::Near`] match are searched for its words.
pub(super) const NEAR_WINDOW: usize = 48;

/// Words that make a 3-2-4 digit group without dashes (or a bare 9 digits) an SSN.
pub(super) const SSN_WORDS: &[&str] = &[
    "ssn",
    "ss#",
    "social security",
    "soc. sec",
    "soc sec",
    "tax id",
    // "my social, it is 015 02 7878": the noun alone, after a possessive.
    "my social",
    "your social",
    "his social",
    "her social",
    "their social",
];

/// Words that make a compact yyyymmdd number a date tied to a person.
pub(super) const DATE_WORDS: &[&str] = &[
    "dob", "d.o.b", "birth", "born", "b.", "admi", "discharg", "date", "dos", "died", "death",
    "deceased", "seen", "visit",
];

pub(super) struct Rule {
    pub(super) kind: Kind,
    re: pattern::Pattern,
    /// Rank of the detector: higher wins an overlap.
    pub(super) prio: u8,
    pub(super) check: Check,
}

/// The PHI detector and replacer. Build once per profile (compiling the patterns is the
/// expensive part) and share it; per-job state lives in [`RedactionSession`].
pub struct Redactor {
    rules: Vec<Rule>,
    contexts: Vec<Vec<String>>,
    keep: keep::KeepList,
    /// The candidates of texts already read (`cache.rs`).
    cache: cache::SpanCache,
    /// The variants of names already met (`cache.rs`).
    variants: cache::Variants,
}

impl fmt::Debug for Redactor {
    // The roster regex holds PHI (the names): never print the rules themselves.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Redactor")
            .field("rules", &self.rules.len())
            .field("cached_texts", &self.cache.len())
            .finish_non_exhaustive()
    }
}

impl Redactor {
    /// Compile the built-in detectors, the roster and the configured patterns. A configured
    /// pattern that does not compile is an error (the profile cannot be redacted, so nothing of
    /// it may be sent).
    pub fn new(cfg: &RedactorConfig) -> Result<Redactor, RedactError> {
        Redactor::with_options(cfg, &RedactorOptions::default())
    }

    /// Like [`Redactor::new`], with a keep list and the opt-in condition detector.
    pub fn with_options(
        cfg: &RedactorConfig,
        opts: &RedactorOptions,
    ) -> Result<Redactor, RedactError> {
        let mut rules = builtin_rules()?;
        if opts.redact_conditions {
            rules.push(rules::condition_rule()?);
        }
        if let Some(re) = roster_regex(&cfg.names)? {
            rules.push(Rule {
                kind: Kind::Person,
                re,
                prio: 35,
                check: Check::None,
            });
        }
        let mut contexts = Vec::new();
        for (index, p) in cfg.patterns.iter().enumerate() {
            // The default size limit of `regex::Regex::new`.
            let re = pattern::Pattern::new(&p.regex, false, 10 << 20).map_err(|reason| {
                RedactError::BadPattern {
                    kind: p.kind,
                    index,
                    reason,
                }
            })?;
            let check = if p.context.is_empty() {
                Check::None
            } else {
                contexts.push(p.context.iter().map(|w| w.to_lowercase()).collect());
                Check::Context(contexts.len() - 1)
            };
            // Site patterns are deliberate: rank them above the generic shapes.
            rules.push(Rule {
                kind: p.kind,
                re,
                prio: 88,
                check,
            });
        }
        Ok(Redactor {
            rules,
            contexts,
            keep: keep::KeepList::new(&opts.keep),
            cache: cache::SpanCache::new(cache::DEFAULT_BUDGET),
            variants: cache::Variants::default(),
        })
    }

    /// This redactor without its cache of texts already read: every call scans its text
    /// afresh (measurement of the detectors themselves; the results are the same).
    pub fn without_cache(mut self) -> Redactor {
        self.cache = cache::SpanCache::new(0);
        self.variants = cache::Variants::off();
        self
    }

    /// Scan `text` now and keep what the detectors found in the cache of texts already read,
    /// so its first view costs what a repeat does (ingestion primes the texts it stores). A
    /// text already cached is not scanned again.
    pub fn prime(&self, text: &str) -> Result<(), RedactError> {
        if text.is_empty() || self.cache.get(text).is_some() {
            return Ok(());
        }
        let c = self.scanned(text)?;
        self.cache.put(text, c);
        Ok(())
    }

    /// The redactor of a profile: its `phi_names` roster plus the built-in detectors. Whether to
    /// redact at all (`phi_auto_redact`) is the caller's decision.
    pub fn for_profile(profile: &crate::config::Profile) -> Result<Redactor, RedactError> {
        Redactor::with_options(
            &RedactorConfig {
                names: profile.phi_names.clone(),
                patterns: Vec::new(),
            },
            &RedactorOptions {
                keep: profile.phi_keep.clone(),
                redact_conditions: profile.redact_conditions,
            },
        )
    }

    /// Replace every identifier in `text` by its placeholder, recording the mapping in
    /// `session`. Names the session learned on earlier calls are redacted here too.
    pub fn redact(
        &self,
        text: &str,
        session: &mut RedactionSession,
    ) -> Result<String, RedactError> {
        let spans = self.find_with(text, &session.known_names)?;
        let mut out = String::with_capacity(text.len() + 16 * spans.len());
        let mut last = 0;
        for sp in &spans {
            let (Some(before), Some(value)) =
                (text.get(last..sp.start), text.get(sp.start..sp.end))
            else {
                return Err(RedactError::Internal("span outside the text"));
            };
            out.push_str(before);
            out.push_str(session.placeholder(sp.kind, value));
            if sp.kind == Kind::Person {
                session.learn_name(value, |n| self.variants.of(n));
            }
            last = sp.end;
        }
        out.push_str(
            text.get(last..)
                .ok_or(RedactError::Internal("span outside the text"))?,
        );
        Ok(out)
    }

    /// Replace only the names `session` has learned (on this call's earlier texts or before)
    /// in `text`: the cheap second pass that makes every field of one answer agree, e.g. a
    /// subject redacted before the message text taught the session its patient's name.
    /// Placeholders already in `text` are left as they are.
    pub fn redact_learned(
        &self,
        text: &str,
        session: &mut RedactionSession,
    ) -> Result<String, RedactError> {
        self.redact_learned_since(text, session, 0)
    }

    /// [`Redactor::redact_learned`] with only the names learned after the session's first
    /// `since` (those a view's first pass taught it: the older ones that pass applied itself).
    pub fn redact_learned_since(
        &self,
        text: &str,
        session: &mut RedactionSession,
        since: usize,
    ) -> Result<String, RedactError> {
        if Redactor::learned_names(session) <= since {
            return Ok(text.to_string());
        }
        let mut cands: Vec<(Span, u8)> = Vec::new();
        let words = word_hashes(text);
        let known: Vec<String> = session
            .known_names
            .led_by_since(&words, since)
            .cloned()
            .collect();
        for name in &known {
            if self.keep.keeps(name) {
                continue;
            }
            for (i, _) in text.match_indices(name.as_str()) {
                let end = i + name.len();
                if word_boundary(text, i, end) && !inside_placeholder(text, i) {
                    cands.push((
                        Span {
                            kind: Kind::Person,
                            start: i,
                            end,
                        },
                        30,
                    ));
                }
            }
        }
        if cands.is_empty() {
            return Ok(text.to_string());
        }
        let spans = resolve(cands, text)?;
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        for sp in &spans {
            out.push_str(&text[last..sp.start]);
            out.push_str(session.placeholder(sp.kind, &text[sp.start..sp.end]));
            last = sp.end;
        }
        out.push_str(&text[last..]);
        Ok(out)
    }

    /// How many names the session has learned (a caller sees whether a pass taught it more).
    pub fn learned_names(session: &RedactionSession) -> usize {
        session.known_names.len()
    }

    /// The identifiers found in `text`, sorted, non-overlapping (what [`Redactor::redact`]
    /// replaces on a fresh session). Used by measurement and by callers that only need to know
    /// whether a text carries PHI.
    pub fn find(&self, text: &str) -> Result<Vec<Span>, RedactError> {
        self.find_with(text, &KnownNames::default())
    }

    fn find_with(&self, raw: &str, known: &KnownNames) -> Result<Vec<Span>, RedactError> {
        let base = match self.cache.get(raw) {
            Some(c) => c,
            None => {
                let c = self.scanned(raw)?;
                self.cache.put(raw, c.clone());
                c
            }
        };
        let text = raw;
        let mut cands = base.cands.to_vec();
        // Names learned earlier in the job: exact, whole-word occurrences. A job learns
        // hundreds; only those whose first word the text holds are searched.
        if known.len() > 0 {
            let learned: Vec<&String> = known
                .led_by(&base.words)
                .filter(|n| !self.keep.keeps(n))
                .collect();
            occurrences(text, learned.iter().map(|n| n.as_str()), &mut cands);
        }
        resolve(cands, text)
    }

    /// What the cache keeps of a text, a pure function of the redactor and the text: every
    /// detector's candidates, and the other occurrences of the names among them in any of
    /// their forms (a name found once in a text is redacted wherever the text repeats it).
    fn scanned(&self, raw: &str) -> Result<cache::Scan, RedactError> {
        let mut cands = self.candidates(raw)?;
        // Each name once (why: a long thread repeats a name hundreds of times, and searching
        // the text once per repeat made the scan quadratic in the text's length).
        let mut own: Vec<String> = cands
            .iter()
            .filter(|(s, _)| s.kind == Kind::Person)
            .map(|(s, _)| &raw[s.start..s.end])
            .collect::<std::collections::BTreeSet<&str>>()
            .into_iter()
            .flat_map(name_variants)
            .filter(|n| !self.keep.keeps(n))
            .collect();
        own.sort_unstable();
        own.dedup();
        occurrences(raw, own.iter().map(String::as_str), &mut cands);
        // In the order `resolve` reads them (a stable sort: appending the learned names'
        // candidates and sorting again gives the order sorting everything at once gives).
        rank_order(&mut cands);
        Ok(cache::Scan {
            cands: cands.into(),
            words: word_hashes(raw).into(),
        })
    }

    /// Every detector's candidates in `raw`, on one line each, the kept ones left out: what
    /// depends on the text alone (cached), before learned names and overlaps.
    fn candidates(&self, raw: &str) -> Result<Vec<(Span, u8)>, RedactError> {
        // Identifiers are glued with underscores in file names and exports
        // (`Margaret_Okafor_123-45-6789_MRN00442211.txt`) and a regex `\b` takes `_` for a
        // letter: the shape rules read a copy with `_` as a blank (same length, so every
        // offset holds for `raw`). Addresses of mail and the web keep theirs.
        // So is the markup mail leaves in plain text (`&nbsp;`, `<br>`) and a label printer's
        // field markers: see `markup::shape_copy`.
        let copy = markup::shape_copy(raw);
        let text = copy.as_deref().unwrap_or(raw);
        let mut cands: Vec<(Span, u8)> = Vec::new();
        for rule in &self.rules {
            let text = if matches!(rule.kind, Kind::Email | Kind::Url) {
                raw
            } else {
                text
            };
            if rule.check == Check::PersonAll {
                person_runs(&rule.re, text, rule.prio, &mut cands);
                continue;
            }
            // A rejected match must not hide a later one that overlaps it ("Medicare policy
            // no. 1AB…": "Medicare policy" fails, "policy no. 1AB…" is the identifier), so the
            // search resumes one character after a rejected match's start.
            let mut caps = rule.re.captures();
            for window in rule.re.windows(text) {
                let mut pos = window.start;
                while pos <= window.end {
                    let Some(hit) = rule.re.next_before(text, pos, window.end, &mut caps) else {
                        break;
                    };
                    pos = match self.judge(rule, text, hit)? {
                        Some(span) => {
                            cands.push((span, rule.prio));
                            hit.end.max(hit.start + 1)
                        }
                        None => hit.start + 1,
                    };
                    while pos < window.end && !text.is_char_boundary(pos) {
                        pos += 1;
                    }
                }
            }
        }
        places::after_streets(text, &mut cands);
        places::room_lists(text, &mut cands);
        structured::hl7(raw, &mut cands);
        table::columns(raw, &mut cands);
        table::inserts(raw, &mut cands);
        table::fields(raw, &mut cands);
        positions::lexicon_names(raw, &self.keep, &mut cands);
        x12::edi(raw, &mut cands);
        markup::cda(raw, &mut cands);
        cards::cards(raw, &mut cands);
        if raw.contains('|') {
            structured::drop_non_personal(raw, &mut cands);
        }
        rules::drop_role_senders(raw, &mut cands);
        positions::drop_things(raw, &mut cands);
        rules::repeated_ids(text, &mut cands);
        let mut cands = one_line_each(cands, raw);
        self.keep.filter(raw, &mut cands);
        Ok(cands)
    }

    /// The span a rule's match stands for, or `None` when its check rejects it.
    fn judge(
        &self,
        rule: &Rule,
        text: &str,
        hit: pattern::Hit,
    ) -> Result<Option<Span>, RedactError> {
        let (mut start, mut end) = (hit.v_start, hit.v_end);
        let value = text
            .get(start..end)
            .ok_or(RedactError::Internal("match outside the text"))?;
        let mut kind = rule.kind;
        match rule.check {
            Check::None => {}
            Check::HasDigit => {
                if !value.bytes().any(|b| b.is_ascii_digit()) {
                    return Ok(None);
                }
            }
            Check::Luhn => {
                if !luhn_ok(value) {
                    return Ok(None);
                }
            }
            Check::Vin => {
                let s = value;
                if !(s.bytes().any(|b| b.is_ascii_digit())
                    && s.bytes().any(|b| b.is_ascii_uppercase()))
                    || rules::hcpcs(s)
                {
                    return Ok(None);
                }
            }
            // Matched by `person_runs` above.
            Check::PersonAll => return Ok(None),
            Check::NameStrict => {
                if !names::strict_name(value)
                    || positions::ocr_piece(text, start, end)
                    || positions::dotted_credential(&text[end..])
                    // A retry inside a rejected word ("ILL CASTELLANOS" of "WILL …"), or a
                    // match that ends inside one ("TELEPHONE TRI" of "TRIAGE").
                    || text[..start].ends_with(char::is_alphanumeric)
                    || text[end..].starts_with(char::is_alphanumeric)
                {
                    return Ok(None);
                }
            }
            Check::SpokenName => {
                if !names::spoken_name(value) {
                    return Ok(None);
                }
            }
            Check::PersonWords => match trim_name(value, &text[end..]) {
                Some(len) => end = start + len,
                None => return Ok(None),
            },
            Check::PhoneOrFax => {
                if rules::order_or_lot(text, start, value) {
                    return Ok(None);
                }
                if is_fax(text, start) {
                    kind = Kind::Fax;
                }
            }
            Check::IntlPhone => {
                let digits = value.bytes().filter(u8::is_ascii_digit).count();
                if !(8..=15).contains(&digits) {
                    return Ok(None);
                }
                if is_fax(text, start) {
                    kind = Kind::Fax;
                }
            }
            Check::Near(words) => {
                if !near(text, start, words) {
                    return Ok(None);
                }
            }
            Check::NotExpiry => {
                let mut from = start.saturating_sub(16);
                while !text.is_char_boundary(from) {
                    from -= 1;
                }
                let before = text[from..start].to_lowercase();
                if ["exp", "valid thru", "valid through", "good thru"]
                    .iter()
                    .any(|w| before.contains(w))
                {
                    return Ok(None);
                }
            }
            Check::BareNumber => {
                if rules::hl7_control_id(text, start)
                    || fraction_of_a_second(text, start)
                    || rules::thing_code_near(text, start)
                    || rules::order_or_lot(text, start, value)
                {
                    return Ok(None);
                }
            }
            Check::Ocr => {
                let Some(len) = rules::ocr_value(kind, value) else {
                    return Ok(None);
                };
                end = start + len;
                if kind == Kind::Mrn {
                    kind = rules::id_kind_near(text, start);
                } else if kind == Kind::Phone && is_fax(text, start) {
                    kind = Kind::Fax;
                }
            }
            Check::AlnumId => {
                let digits = value.bytes().filter(u8::is_ascii_digit).count();
                let letters = value.bytes().filter(u8::is_ascii_alphabetic).count();
                if digits < 5
                    || letters == 0
                    || value.bytes().any(|b| b.is_ascii_lowercase())
                    || fraction_of_a_second(text, start)
                    || rules::hl7_control_id(text, start)
                    || rules::thing_code_near(text, start)
                    || rules::order_or_lot(text, start, value)
                {
                    return Ok(None);
                }
                kind = rules::id_kind_near(text, start);
            }
            Check::PlaceWords => {
                // "County" itself is a Title Case term; judge the name before it.
                let name = ["County", "Parish", "Borough"]
                    .iter()
                    .find_map(|w| value.strip_suffix(w))
                    .unwrap_or(value);
                // Only the non-name list: many Title Case terms are place words too
                // ("Silver Spring", "Cleveland").
                if name.split_whitespace().any(not_a_name) {
                    return Ok(None);
                }
            }
            Check::Context(i) => {
                let words = self
                    .contexts
                    .get(i)
                    .ok_or(RedactError::Internal("context index"))?;
                if !has_context(text, start, words) {
                    return Ok(None);
                }
            }
        }
        if kind == Kind::Room && rules::facility_room(text, start, end) {
            return Ok(None);
        }
        if rules::not_personal(kind, text, start, end)
            || kind == Kind::Url && rules::shared_url(text, start, end)
            || kind == Kind::Vehicle && rules::model_year(&text[start..end])
            || kind == Kind::Zip && rules::id_label_zip(text, start)
        {
            return Ok(None);
        }
        if kind == Kind::Url {
            // URLs end before trailing sentence punctuation.
            let s = &text[start..end];
            let trimmed = s.trim_end_matches(['.', ',', ';', ':', '!', '?', ')', ']']);
            end = start + trimmed.len();
        }
        if kind == Kind::Person {
            // Leading/trailing whitespace is not part of a name.
            let s = &text[start..end];
            start += s.len() - s.trim_start().len();
            end = start + s.trim().len();
        }
        Ok((start < end).then_some(Span { kind, start, end }))
    }
}

/// Spans never cross a line break (why: a name rule running on into the next line swallows
/// its header word). A name is cut at its first line break; any other identifier (an address
/// wrapped over two lines) becomes one candidate per line.
fn one_line_each(cands: Vec<(Span, u8)>, text: &str) -> Vec<(Span, u8)> {
    let mut out = Vec::with_capacity(cands.len());
    for (s, prio) in cands {
        let v = &text[s.start..s.end];
        if !v.contains(['\n', '\r']) {
            out.push((s, prio));
            continue;
        }
        let mut at = s.start;
        for piece in v.split_inclusive(['\n', '\r']) {
            let body = piece.trim_end_matches(['\n', '\r']);
            let lead = body.len() - body.trim_start().len();
            let t = body.trim();
            if !t.is_empty() {
                let start = at + lead;
                out.push((
                    Span {
                        kind: s.kind,
                        start,
                        end: start + t.len(),
                    },
                    prio,
                ));
                // A name goes on past a line only where a hyphen broke it ("Aber-\nnethy").
                if s.kind == Kind::Person && !t.ends_with('-') {
                    break;
                }
            }
            at += piece.len();
        }
    }
    out
}

/// Accept candidates by rank; a candidate sticking out of accepted spans widens them (why: a
/// partial overlap must not leave part of an identifier in the clear).
fn resolve(mut cands: Vec<(Span, u8)>, text: &str) -> Result<Vec<Span>, RedactError> {
    rank_order(&mut cands);
    // A candidate equal to the one before it is inside what that one left accepted.
    cands.dedup();
    let mut acc: Vec<Span> = Vec::new();
    for (c, _) in cands {
        let overlapping: Vec<usize> = acc
            .iter()
            .enumerate()
            .filter(|(_, a)| a.start < c.end && c.start < a.end)
            .map(|(i, _)| i)
            .collect();
        if overlapping.is_empty() {
            acc.push(c);
            continue;
        }
        let contained = overlapping
            .iter()
            .any(|&i| acc[i].start <= c.start && c.end <= acc[i].end);
        if contained {
            continue;
        }
        // Merge into the first (highest-ranked) overlapping span, keeping its kind.
        let first = overlapping[0];
        let mut merged = acc[first];
        merged.start = merged.start.min(c.start);
        merged.end = merged.end.max(c.end);
        for &i in &overlapping {
            merged.start = merged.start.min(acc[i].start);
            merged.end = merged.end.max(acc[i].end);
        }
        let mut k = 0;
        acc.retain(|_| {
            let keep = !overlapping.contains(&k);
            k += 1;
            keep
        });
        acc.push(merged);
        // The widened span may now touch others: merge until stable.
        acc = merge_touching(acc);
    }
    acc.sort_by_key(|s| s.start);
    for s in &acc {
        if !(text.is_char_boundary(s.start) && text.is_char_boundary(s.end)) {
            return Err(RedactError::Internal("span not on a character boundary"));
        }
    }
    Ok(acc)
}

/// Higher rank first, then longer, then earlier (stable).
fn rank_order(cands: &mut [(Span, u8)]) {
    cands.sort_by(|(a, pa), (b, pb)| {
        pb.cmp(pa)
            .then((b.end - b.start).cmp(&(a.end - a.start)))
            .then(a.start.cmp(&b.start))
    });
}

fn merge_touching(mut v: Vec<Span>) -> Vec<Span> {
    v.sort_by_key(|s| s.start);
    let mut out: Vec<Span> = Vec::with_capacity(v.len());
    for s in v {
        match out.last_mut() {
            Some(last) if s.start < last.end => last.end = last.end.max(s.end),
            _ => out.push(s),
        }
    }
    out
}

/// Whether `c` belongs to a word as learned names are looked up: letters only, as
/// [`word_boundary`] reads a name's edges ("Okafor" in "Okafor123" or "Okafor-Smith").
fn in_word(c: char) -> bool {
    c.is_alphabetic()
}

/// The words of `text` (see [`in_word`]).
/// Every whole-word occurrence of each of `names` in `text`, as a person candidate (the rank
/// of learned names).
/// Where the line holding byte `at` starts (just after its `\n` or `\r`). Rules ask this per
/// word: a SIMD scan, where a char-by-char one made a one-line text quadratic.
pub(super) fn line_start(text: &str, at: usize) -> usize {
    memchr::memrchr2(b'\n', b'\r', &text.as_bytes()[..at]).map_or(0, |p| p + 1)
}

/// Where the line holding byte `at` starts, when only characters that `lead` accepts lie
/// between that start and `at`; `None` when anything else does. Rules ask per word whether a
/// word opens its line (after blanks, a dash…): looking back over those characters alone
/// keeps a one-line text from being walked once per word.
pub(super) fn lead_start(text: &str, at: usize, lead: impl Fn(char) -> bool) -> Option<usize> {
    let mut from = at;
    for c in text[..at].chars().rev() {
        if matches!(c, '\n' | '\r') {
            return Some(from);
        }
        if !lead(c) {
            return None;
        }
        from -= c.len_utf8();
    }
    Some(0)
}

fn occurrences<'n>(text: &str, names: impl Iterator<Item = &'n str>, cands: &mut Vec<(Span, u8)>) {
    let mut push = |start: usize, end: usize| {
        if word_boundary(text, start, end) {
            cands.push((
                Span {
                    kind: Kind::Person,
                    start,
                    end,
                },
                30,
            ));
        }
    };
    let names: Vec<&str> = names.filter(|n| !n.is_empty()).collect();
    // Many names (a long thread, a roster-sized answer): one pass over the text for all of
    // them instead of one per name.
    if names.len() > 16
        && let Ok(ac) = aho_corasick::AhoCorasick::new(&names)
    {
        for m in ac.find_overlapping_iter(text) {
            push(m.start(), m.end());
        }
        return;
    }
    for name in names {
        for (i, _) in text.match_indices(name) {
            push(i, i + name.len());
        }
    }
}

/// The hash of a word as learned names are looked up by their first word. A fixed seed, so a
/// text's word hashes can be kept with its candidates (`cache.rs`) and matched against any
/// session's index. A collision costs only a search that finds nothing: a name occurs as a
/// whole word only where its first word is a word of the text.
pub(super) fn word_hash(w: &str) -> u64 {
    use std::hash::BuildHasher;
    foldhash::fast::FixedState::with_seed(0x6f70_7364_6573_6b29).hash_one(w)
}

/// The hashes of `text`'s distinct words (see [`in_word`]), sorted.
fn word_hashes(text: &str) -> Vec<u64> {
    let mut v: Vec<u64> = text
        .split(|c: char| !in_word(c))
        .filter(|w| !w.is_empty())
        .map(word_hash)
        .collect();
    v.sort_unstable();
    v.dedup();
    v
}

/// The first word of a learned name: a text holding the name holds this word.
pub(super) fn lead_word(name: &str) -> &str {
    name.split(|c: char| !in_word(c)).next().unwrap_or(name)
}

/// Whether byte `at` lies inside a placeholder (`<PERSON_1>`) already in the text.
fn inside_placeholder(text: &str, at: usize) -> bool {
    let before = &text[..at];
    match (before.rfind('<'), before.rfind('>')) {
        (Some(open), close) => {
            close.is_none_or(|c| c < open)
                && at - open <= 24
                && text[open + 1..at]
                    .bytes()
                    .all(|b| b.is_ascii_uppercase() || b == b'_' || b.is_ascii_digit())
        }
        _ => false,
    }
}

pub(super) fn word_boundary(text: &str, start: usize, end: usize) -> bool {
    let before = text[..start].chars().next_back();
    let after = text[end..].chars().next();
    // Letters only: a name glued to digits ("Okafor1961", "Okafor_123") is still a word.
    !before.is_some_and(char::is_alphabetic) && !after.is_some_and(char::is_alphabetic)
}

/// What to remember of a detected name for the rest of the job: the full form and its
/// capitalised parts long enough not to be initials or particles.
pub(super) fn name_variants(name: &str) -> Vec<String> {
    // An HL7 name field (`VANG^NNAMDI^Z^III^DR`) by its family, given and middle names: a
    // suffix or prefix ("III", "DR") is no name to look for elsewhere.
    let name = name
        .match_indices('^')
        .nth(2)
        .map_or(name, |(cut, _)| &name[..cut]);
    let words: Vec<&str> = name
        .split(|c: char| c.is_whitespace() || c == ',' || c == '^' || c == '_')
        .map(|w| w.trim_end_matches('.'))
        .filter(|w| !w.is_empty())
        .collect();
    if words.len() == 1 && (not_a_name(words[0]) || words[0].chars().count() < 2) {
        return Vec::new();
    }
    let mut v = vec![name.to_string()];
    // A surname of several words, from its particle or prefix on: "van der Berg", "St. Clair".
    let mut at = 0;
    for (i, w) in name.split(' ').enumerate() {
        let bare = w.trim_end_matches('.');
        if i > 0
            && (bare.chars().next().is_some_and(char::is_lowercase)
                || matches!(bare, "St" | "Saint" | "Ste" | "ST" | "SAINT"))
        {
            let tail = &name[at..];
            if tail.contains(' ') && !v.iter().any(|x| x == tail) {
                v.push(tail.to_string());
            }
            break;
        }
        at += w.len() + 1;
    }
    for w in words {
        let w = w.trim_end_matches(['\'', '’']);
        let capitalised = w.chars().next().is_some_and(char::is_uppercase);
        let plain_word = lexicon::LEXICON.is_common(w);
        if w.chars().count() >= 3 && !not_a_name(w) && (capitalised || !plain_word) {
            // The same word in the other cases: "OKAFOR" in a feed, "Okafor" in a note,
            // "okafor" in a chat (lower case only when it is not also a common word: a
            // "Grace" found after "Hi" leaves "grace period" alone).
            let mut cs = w.chars();
            let title: String = cs
                .next()
                .into_iter()
                .flat_map(char::to_uppercase)
                .chain(cs.flat_map(char::to_lowercase))
                .collect();
            let lower = (!plain_word).then(|| w.to_lowercase());
            for form in [
                Some(w.to_string()),
                Some(title),
                Some(w.to_uppercase()),
                lower,
            ]
            .into_iter()
            .flatten()
            {
                if !v.contains(&form) {
                    v.push(form);
                }
            }
        }
    }
    v
}

/// Whether the digits at `start` are the fraction of a clock time ("08:00:47.123456789", as
/// ISO timestamps write it): a clock's digits, never a record number.
fn fraction_of_a_second(text: &str, start: usize) -> bool {
    let b = text.as_bytes();
    start >= 9
        && b[start - 1] == b'.'
        && b[start - 4] == b':'
        && b[start - 7] == b':'
        && [2, 3, 5, 6, 8, 9]
            .iter()
            .all(|k| b[start - k].is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn red(text: &str) -> String {
        let r = Redactor::new(&RedactorConfig {
            names: vec!["Maria Lopez".into()],
            patterns: vec![],
        })
        .unwrap();
        r.redact(text, &mut RedactionSession::new()).unwrap()
    }

    #[test]
    fn basics() {
        assert_eq!(red("SSN 123-45-6789."), "SSN <SSN_1>.");
        assert_eq!(red("Call (555) 555-0142 today"), "Call <PHONE_1> today");
        assert_eq!(red("Fax: 555-555-0199"), "Fax: <FAX_1>");
        assert_eq!(red("maria.lopez@example.org"), "<EMAIL_1>");
        assert_eq!(red("Lopez, Maria was seen"), "<PERSON_1> was seen");
        assert_eq!(red("MRN: 00482913"), "MRN: <MRN_1>");
        assert_eq!(red("a 92-year-old woman"), "a <AGE_1> woman");
        assert_eq!(red("a 67-year-old woman"), "a 67-year-old woman");
        assert_eq!(red("DOB 03/14/1931"), "DOB <DATE_1>");
        assert_eq!(
            red("Metformin 500 mg, HbA1c 7.9% in 2024"),
            "Metformin 500 mg, HbA1c 7.9% in 2024"
        );
    }

    /// A text on one long line (a thread pasted whole, a minified export) is redacted as its
    /// lines would be: a labelled field's value does not run to the end of the text, and a
    /// name repeated throughout is each time redacted.
    #[test]
    fn a_text_on_one_long_line_is_read_like_its_lines() {
        let unit = "Residence: 6839 Old Ferry Landing, Dayton, OH 45402. Pt Maria Lopez called; \
                    the shower bench is fine and the rail is on the left side of the tub, as the \
                    therapist asked her to check last week.";
        // A number near the end: "the rest of the line" after the first label reached it.
        let text = vec![unit; 40].join(" ") + " Ref 12.";
        let out = red(&text);
        assert_eq!(out.matches("<PERSON_1>").count(), 40, "{out}");
        assert!(!out.contains("Maria") && !out.contains("6839"), "{out}");
        assert_eq!(out.matches("the shower bench is fine").count(), 40, "{out}");
    }

    #[test]
    fn shapes_the_held_out_fixture_found_missing() {
        assert_eq!(
            red("email: jane dot doe at example dot com."),
            "email: <EMAIL_1>."
        );
        assert_eq!(red("jane.doe [at] example [dot] net"), "<EMAIL_1>");
        assert_eq!(red("seen at home at 10 am"), "seen at home at 10 am");
        assert_eq!(red("work +44 20 7946 0958 ok"), "work <PHONE_1> ok");
        assert_eq!(red("Fax no. +13245550166 ext 7"), "Fax no. <FAX_1>");
        assert_eq!(red("call 555-555-0100, Ext. 12."), "call <PHONE_1>.");
        assert_eq!(red("SSN on W-9: 903.56.5034"), "SSN on W-9: <SSN_1>");
        assert_eq!(red("version 903.56.5034"), "version 903.56.5034");
        assert_eq!(red("mrn: 6234"), "mrn: <MRN_1>");
        assert_eq!(red("DOB:08-Oct-1952"), "DOB:<DATE_1>");
        assert_eq!(red("(b. 19450101)"), "(b. <DATE_1>)");
        assert_eq!(
            red("Lives with her son in Elkhorn."),
            "Lives with her son in <ADDRESS_1>."
        );
        assert_eq!(red("covers Essex County only"), "covers <ADDRESS_1> only");
        assert_eq!(red("BP 120/80 on 1/15"), "BP 120/80 on <DATE_1>");
        // Shapes from a second, unlabelled probe written after the held-out fixture was used
        // for tuning.
        assert_eq!(red("SSN: 912 - 34 - 5678"), "SSN: <SSN_1>");
        assert_eq!(red("phone: 555/010-2345"), "phone: <PHONE_1>");
        assert_eq!(red("chart 12345678"), "chart <MRN_1>");
        assert_eq!(red("Birth date: Mar-04-1952."), "Birth date: <DATE_1>.");
        assert_eq!(red("b. Mar '52"), "b. <DATE_1>");
        assert_eq!(red("a ninety-three-year-old"), "a <AGE_1>");
        assert_eq!(red("a sixty-three-year-old"), "a sixty-three-year-old");
    }

    #[test]
    fn names_the_held_out_fixture_found_missing_or_invented() {
        assert_eq!(
            red("Family notified by Anneliese Van der Berg."),
            "Family notified by <PERSON_1>."
        );
        assert_eq!(
            red("PATIENT: HALVORSEN, NOOR  ROOM 412"),
            "PATIENT: <PERSON_1>  ROOM <ROOM_1>"
        );
        assert_eq!(
            red("Per Okonkwo, Quentin: no change."),
            "Per <PERSON_1>: no change."
        );
        for clean in [
            "Increase Lasix to 40 mg BID.",
            "Dose reduced per Renal Dosing Guidelines.",
            "Med Rec No: reviewed.",
        ] {
            assert_eq!(red(clean), clean);
        }
        assert_eq!(
            red("Thanks,\nAnneliese Okonkwo, RN\nDirect: ext. 4412"),
            "Thanks,\n<PERSON_1>, RN\nDirect: <PHONE_1>"
        );
    }

    /// Every identifier of `text` (by its exact surface) is inside a redacted span.
    fn hides(r: &Redactor, text: &str, values: &[&str]) {
        let spans = r.find(text).unwrap();
        for v in values {
            let at = text.find(v).unwrap_or_else(|| panic!("{v} not in {text}"));
            let end = at + v.len();
            let mut pos = at;
            for s in &spans {
                if s.start <= pos && pos < s.end {
                    pos = s.end;
                }
            }
            assert!(pos >= end, "{v:?} not redacted in {text:?}: {spans:?}");
        }
    }

    #[test]
    fn the_fraction_of_a_second_in_a_timestamp_is_no_record_number() {
        let r = clinic();
        let out = r
            .redact(
                "received 2026-12-07T08:00:47.123456789Z from the portal",
                &mut RedactionSession::new(),
            )
            .unwrap();
        assert!(!out.contains("<MRN"), "{out}");
        // A run of digits after a dot that is no clock time is still a record number.
        let out = r
            .redact("see v.4471229 in the chart", &mut RedactionSession::new())
            .unwrap();
        assert!(out.contains("<MRN"), "{out}");
    }

    fn clinic() -> Redactor {
        Redactor::with_options(
            &RedactorConfig {
                names: vec!["Margaret Okafor".into()],
                patterns: vec![],
            },
            &RedactorOptions {
                keep: vec!["Lakeside Clinic".into(), "Priya Raman".into()],
                redact_conditions: false,
            },
        )
        .unwrap()
    }

    #[test]
    fn identifiers_by_short_labels() {
        let r = clinic();
        for (text, v) in [
            ("acct 4471-2290 is overdue", "4471-2290"),
            ("pay on a/c 88231 today", "88231"),
            ("concentrator sn: PX4471Z", "PX4471Z"),
            ("pump S/N 20931-A replaced", "20931-A"),
            ("serial XK-88213 on the label", "XK-88213"),
            ("she parked: 5TRW882, level 2", "5TRW882"),
            ("tag ABC 1234 in the lot", "ABC 1234"),
            ("Group #: 449120", "449120"),
            ("policy 1AB2345678 lapsed", "1AB2345678"),
            ("MR# 4829131", "4829131"),
            ("chart #A123456", "A123456"),
            ("Claim 88A7712934 denied", "88A7712934"),
            ("DEA AB1234563", "AB1234563"),
            ("NPI 1234567893", "1234567893"),
            ("moved to Room 412 at noon", "412"),
            ("rm 12B", "12B"),
            ("last 4 of SSN 6789 on file", "6789"),
            ("DOB Mar 14 '58", "Mar 14 '58"),
            ("1428 Birchwood Ave, Apt 3B", "1428 Birchwood Ave, Apt 3B"),
            ("Springfield, IL 62704-1180", "62704-1180"),
        ] {
            hides(&r, text, &[v]);
        }
    }

    /// The forms issue 29 found passing, each in a context clinic text writes it in; the
    /// roster knows only "Margaret Okafor" (and "Thomas Reed", for a short form).
    #[test]
    fn names_issue_29_found_passing() {
        let r = Redactor::with_options(
            &RedactorConfig {
                names: vec![
                    "Margaret Okafor".into(),
                    "Thomas Reed".into(),
                    "Oluwaseun \"Olu\" Adeyemi".into(),
                ],
                patterns: vec![],
            },
            &RedactorOptions {
                keep: vec!["Lakeside Clinic".into(), "Priya Raman".into()],
                redact_conditions: false,
            },
        )
        .unwrap();
        for (text, v) in [
            ("PID|1||123^^^RVC^MR||ABERNATHY^RUTH||", "ABERNATHY^RUTH"),
            ("NK1|1|ZHOU^MEI-LING|DTR", "ZHOU^MEI-LING"),
            (
                "1. POPESCU, ANA-MARIA  DOB 01/02/1950",
                "POPESCU, ANA-MARIA",
            ),
            ("CASTILLO, MARÍA JOSÉ - follow up", "CASTILLO, MARÍA JOSÉ"),
            ("AL-FARSI, ABDULLAH   A1c 7.2", "AL-FARSI, ABDULLAH"),
            ("FINCH, HAROLD (bed 2)", "FINCH, HAROLD"),
            ("OKAFOR labs are back", "OKAFOR"),
            ("told okafor to fast", "okafor"),
            ("vargas, consuelo called", "vargas, consuelo"),
            ("spoke to rajesh patel re refill", "rajesh patel"),
            ("caller fatima zahra benali asked", "fatima zahra benali"),
            ("hi its emeka nwosu again", "emeka nwosu"),
            ("pt wiśniewski no show", "wiśniewski"),
            ("Soledad called about the forms", "Soledad"),
            ("Hi Grace, the forms are ready", "Grace"),
            ("Brandon will pick them up", "Brandon"),
            ("Per family, Olu prefers mornings", "Olu"),
            ("left msg for tom, no answer", "tom"),
            ("Thanks,\nLuz", "Luz"),
            ("Dear Ms. Achterberg,", "Achterberg"),
            ("her daughter rosa will drive", "rosa"),
        ] {
            hides(&r, text, &[v]);
        }
        // Kept: the practice's staff, words that are also names, deadlines.
        for clean in [
            "Dr. Raman reviewed it; Priya will call.",
            "Grace period ends Friday; will call by end of day.",
            "Rose 2 points on the pain scale; May follow up in June.",
        ] {
            assert_eq!(r.find(clean).unwrap(), vec![], "{clean}");
        }
    }

    /// Classes of writing the first blind set showed passing (as development set), each in
    /// forms of its own, and what must stay readable beside them.
    #[test]
    fn forms_of_rooms_places_dates_and_names() {
        let r = Redactor::with_options(
            &RedactorConfig::default(),
            &RedactorOptions {
                keep: vec!["Lakeside Clinic".into(), "Priya Raman".into()],
                redact_conditions: false,
            },
        )
        .unwrap();
        for (text, v) in [
            // Rooms leading a handoff's entry, in prose or before a name in capitals.
            ("Voided at 0600. 418: 91yo F Tan, CHF", "418"),
            ("Tele on. 602B HALVARD OSTBERG (MRN 5512) NPO", "602B"),
            ("Halvard (714) - 95 years old, fall risk", "714"),
            ("moved to rm612 overnight", "612"),
            // A city and ZIP after a street with no comma; a state written out.
            (
                "send it to 14 Quarry Rd Apt 3 Ridgefield CT 06877",
                "Ridgefield",
            ),
            ("my adress is 55 Tamarack Ln Duluth - thx", "Duluth"),
            ("to 901 Alder Pkwy #4, Dayton 45402-1180 soon", "Dayton"),
            ("mail to 2 Birch Hollow Ct, Fresno 93650 please", "93650"),
            ("Lowell, Massachusetts 01852", "01852"),
            ("Post Office Box 4410", "Post Office Box 4410"),
            // Month and day after an event word or a weekday; zero-padded; a dateline.
            ("last refilled 03/11 at CVS", "03/11"),
            ("Specimen collected: 7/19 08:10", "7/19"),
            ("see you Thurs 2/6", "2/6"),
            ("11/3\n\nDr. Ilse Marsh\nNephrology", "11/3"),
            ("results from 14-Mar are in", "14-Mar"),
            (
                "appointment on nine twelve twenty six",
                "nine twelve twenty six",
            ),
            // Record numbers written 3-4, EMPI labels; a device's code after the device.
            ("PATIENT: DOE, JANE | 1 Jan 1990 | 482-1193", "482-1193"),
            ("EMPI 00918273", "00918273"),
            ("insulin pump 7QX91B paired", "7QX91B"),
            // Names told by what stands around them.
            ("Dictated by Teuila Fa'asavalu, MD", "Teuila Fa'asavalu"),
            ("thanks - Kazimierz (halina's grandson)", "Kazimierz"),
            ("Family (Noor bin Zayed, wife) visited", "Noor bin Zayed"),
            ("Calloway (518A) - 94 years old", "Calloway"),
            ("records for Liesbeth van 't Hoff", "Liesbeth van 't Hoff"),
            ("pls call back\nteuila fa'asavalu", "teuila fa'asavalu"),
            ("Rm 4: Jun MAGSAYSAY, 90 y/o", "Jun MAGSAYSAY"),
            ("moved June K. to 2pm", "June K"),
            ("TRÂN, BÍCH   03/04/1950", "TRÂN, BÍCH"),
            ("ĐỖ, LAN      03/04/1950", "ĐỖ, LAN"),
            ("Jae-won is here early", "Jae-won"),
            (
                "From: \"Amal bin Saleh\" <amal@example.org>",
                "Amal bin Saleh",
            ),
            ("CXR_MOSS.T_00918273.dcm", "MOSS.T"),
            ("scan.al-amin-omar.2024-01-02.pdf", "al-amin-omar"),
        ] {
            hides(&r, text, &[v]);
        }
        for clean in [
            // A card's expiry, a saint's hospital, an attending's staff number and the feed's
            // own header, an eponym device, a place of two plain words.
            "Card on file, exp 09/27.",
            "from Nephrology at saint vincent calling",
            "MSH|^~\\&|EPIC|SIU^S12|MSG1|P|2.5.1",
            "s/p a Swan-Ganz catheter, presenting",
            "Follow-up is here; Check-in is due",
            "Evaluated by 4 West on the ward.",
        ] {
            assert_eq!(r.find(clean).unwrap(), vec![], "{clean}");
        }
        // The attending's staff number in PV1-7 is no record number (the name stays a name).
        let pv1 = "PV1|1|I|||||4417820^HALE^ROSA^^^MD|||CAR";
        assert!(r.find(pv1).unwrap().iter().all(|s| s.kind != Kind::Mrn));
    }

    #[test]
    fn glued_identifiers_lose_every_part() {
        let r = clinic();
        let name = "Margaret_Okafor_123-45-6789_MRN00442211_DOB_1961-03-14.txt";
        hides(
            &r,
            name,
            &[
                "Margaret",
                "Okafor",
                "123-45-6789",
                "00442211",
                "1961-03-14",
            ],
        );
        // A preview folds the feed's line breaks: segments are read mid-line too.
        let preview = "MSH|^~\\&|LAB|RVC|||202601011200||ADT^A04|9|P|2.5 PID|1||7110489^^^RVC^MR||ABERNATHY^RUTH^L||19521103|F PV1|1|O";
        hides(&r, preview, &["7110489", "ABERNATHY", "RUTH", "19521103"]);
        hides(&r, "pt 7110489 called about labs", &["7110489"]);
        assert!(r.find("order of 1200000 gloves").unwrap().len() <= 1);
    }

    #[test]
    fn dates_of_birth_said_in_words_deadlines_stay() {
        let r = clinic();
        hides(
            &r,
            "dob is twelve twenty eight nineteen sixty one ok",
            &["twelve twenty eight nineteen sixty one"],
        );
        hides(
            &r,
            "born March fourteenth, nineteen sixty-one.",
            &["March fourteenth, nineteen sixty-one"],
        );
        hides(
            &r,
            "birthday fourteen march nineteen sixty one",
            &["fourteen march nineteen sixty one"],
        );
        for clean in [
            "Please send it by Friday, end of day.",
            "call back next Tuesday or tomorrow morning",
            "we need twelve boxes by the end of the week",
        ] {
            assert_eq!(r.find(clean).unwrap(), vec![], "{clean}");
        }
    }

    #[test]
    fn dates_and_ages_in_words() {
        let r = clinic();
        hides(
            &r,
            "born june third nineteen thirty two, ok",
            &["june third nineteen thirty two"],
        );
        hides(
            &r,
            "dob the ninth of october nineteen forty-one.",
            &["the ninth of october nineteen forty-one"],
        );
        hides(&r, "she is ninety-three and sharp", &["ninety-three"]);
        hides(&r, "aged 91, lives alone", &["91"]);
        assert_eq!(r.find("she is sixty-three").unwrap(), vec![]);
    }

    #[test]
    fn hl7_fields_by_position() {
        let r = clinic();
        let msg = "MSH|^~\\&|LAB|LKS|EPIC|LKS|202601011200||ORU^R01|1|P|2.5.1\rPID|1||00482913^^^LKS^MR||DUBOIS^RENÉE^Q||19320603|F|||12 Elm St^Apt 4^Bel Air^MD^21014||(410)555-0142^PRN^PH|||||A77120934|912345678\rPV1|1|I|4W^412^B\rOBX|1|NM|GLU^Glucose||98|mg/dL\r";
        hides(
            &r,
            msg,
            &[
                "00482913",
                "DUBOIS",
                "RENÉE",
                "19320603",
                "12 Elm St",
                "Apt 4",
                "Bel Air",
                "21014",
                "(410)555-0142",
                "A77120934",
                "912345678",
                "412",
            ],
        );
        // Of the MSH segment only its time is taken (the event's date is the patient's: a
        // date of service); nothing of the systems, nor of the OBX test names.
        let spans = r.find(msg).unwrap();
        let pid = msg.find("PID").unwrap();
        let before: Vec<&str> = spans
            .iter()
            .filter(|s| s.start < pid)
            .map(|s| &msg[s.start..s.end])
            .collect();
        assert!(
            before
                .iter()
                .all(|v| v.len() >= 8 && v.bytes().all(|b| b.is_ascii_digit())),
            "{before:?}"
        );
        assert!(
            !spans
                .iter()
                .any(|s| msg[s.start..s.end].contains("Glucose"))
        );
    }

    /// A relationship code shifted into IN1-16 (the insured's name) is no name; the insured's
    /// name shifted into IN1-15 is still found, and a name in IN1-16 too.
    #[test]
    fn a_relationship_code_in_a_name_field_is_no_name() {
        let r = clinic();
        let shifted = "MSH|^~\\&|REG|LKS|EPIC|LKS|202601011200||ADT^A04|7|P|2.5.1\rPID|1||00482913^^^LKS^MR||DUBOIS^RENÉE\rIN1|1|BCBS01|0042|BLUE CROSS|PO BOX 1||||GRP77||||||DUBOIS^RENÉE|SEL|19320603\r";
        let spans = r.find(shifted).unwrap();
        assert!(
            !spans
                .iter()
                .any(|s| shifted[s.start..s.end].contains("SEL")),
            "{:?}",
            spans
                .iter()
                .map(|s| &shifted[s.start..s.end])
                .collect::<Vec<_>>()
        );
        hides(&r, shifted, &["DUBOIS", "RENÉE", "19320603"]);
        let proper = "PID|1||00482913^^^LKS^MR||DUBOIS^RENÉE\rIN1|1|BCBS01|0042|BLUE CROSS|PO BOX 1|||||||||||OKAFOR^MARGARET|SPO^Spouse|19320603\r";
        hides(&r, proper, &["OKAFOR", "MARGARET"]);
    }

    #[test]
    fn fhir_fields_by_key() {
        let r = clinic();
        let json = r#"{"resourceType": "Patient", "identifier": [{"system": "urn:oid:1.2.3", "value": "V1091985"}], "name": [{"family": "Łukasiewicz", "given": ["Zoë", "Ann"]}], "birthDate": "1941-10-09", "address": [{"line": ["9 Cedar Ln"], "city": "Eau Claire", "postalCode": "54701"}]}"#;
        hides(
            &r,
            json,
            &[
                "V1091985",
                "Łukasiewicz",
                "Zoë",
                "Ann",
                "1941-10-09",
                "9 Cedar Ln",
                "Eau Claire",
                "54701",
            ],
        );
    }

    #[test]
    fn names_in_every_written_form() {
        let r = clinic();
        for (text, v) in [
            ("Dear OKAFOR, MARGARET,", "OKAFOR, MARGARET"),
            (
                "Seen: Okafor, Margaret A. (DOB 1/2/1950)",
                "Okafor, Margaret A.",
            ),
            ("Mrs. Okafor called", "Okafor"),
            ("per M. Okafor", "M. Okafor"),
            ("Margaret's daughter called", "Margaret"),
            (
                "Thank you for seeing José Ibáñez (DOB 3/4/1940)",
                "José Ibáñez",
            ),
            ("Ms. van der Berg has a history", "van der Berg"),
            ("Patient: Siobhan O'Brien-Walsh", "Siobhan O'Brien-Walsh"),
            (
                "hi this is declan fitzgerald calling about",
                "declan fitzgerald",
            ),
            ("Thanks,\nAnh St. Clair\n", "Anh St. Clair"),
            ("Bjorn Achterberg's labs are back", "Bjorn Achterberg"),
        ] {
            hides(&r, text, &[v]);
        }
    }

    #[test]
    fn precision_pronouns_headers_and_kept_names() {
        let r = clinic();
        for clean in [
            "She reports no pain. Pt tolerated the visit.",
            "Interface: LAB-IN v2.5.1\nLine 2 of 3",
            "Lakeside Clinic, Dr. Priya Raman and Dr. Raman agree.",
            "RAMAN^PRIYA reviewed the results.",
            "CBC, BMP within normal limits.",
            "this is the pharmacy calling about a refill.",
        ] {
            let spans = r.find(clean).unwrap();
            assert!(spans.is_empty(), "{clean:?}: {spans:?}");
        }
        // No span crosses a line break.
        let text = "Seen by Margaret Okafor\nInterface: LAB\n12 Elm St\nBel Air, MD 21014";
        for s in r.find(text).unwrap() {
            assert!(!text[s.start..s.end].contains('\n'), "{s:?}");
        }
    }

    #[test]
    fn conditions_only_when_opted_in() {
        let text = "History of type 2 diabetes and CHF.";
        assert!(clinic().find(text).unwrap().is_empty());
        let on = Redactor::with_options(
            &RedactorConfig::default(),
            &RedactorOptions {
                keep: vec![],
                redact_conditions: true,
            },
        )
        .unwrap();
        hides(&on, text, &["type 2 diabetes", "CHF"]);
    }

    #[test]
    fn bad_pattern_is_an_error() {
        let cfg = RedactorConfig {
            names: vec![],
            patterns: vec![PatternConfig {
                kind: Kind::Mrn,
                regex: "(unclosed".into(),
                context: vec![],
            }],
        };
        assert!(matches!(
            Redactor::new(&cfg),
            Err(RedactError::BadPattern { .. })
        ));
    }
}
