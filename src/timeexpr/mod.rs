//! Time expressions in messages, and which of them are deadlines: the one time understanding
//! of the product (the brief, triage urgency, the deadline job's rules and its check of the
//! model's answer all call it).
//!
//! - [`lexer`]: text → tokens with byte spans (words folded: lowercase, no accents).
//! - [`lang`]: per-language tables (English, German, Spanish, French, Italian, Dutch,
//!   Portuguese): weekday and month names, number words, units, named periods, zones, and the
//!   cue words of deadlines. A language is a table; the grammar does not know any word.
//! - [`grammar`]: tokens → expressions ("by 2pm ET Friday", "Wednesday next week", "in 10
//!   business days", "end of Q4", "between Monday and Wednesday", "3. Dezember"), resolved
//!   against the message's received time in the operator's zone.
//! - [`deadline`]: which expressions ask the recipient to act by them (a cue such as "by",
//!   "deadline", "spätestens", "a más tardar"; not past, quoted, signed, negated, a meeting).

mod deadline;
mod grammar;
pub(crate) mod lang;
mod lexer;

use std::ops::Range;
use std::sync::OnceLock;

use time::{Date, OffsetDateTime, Time, UtcOffset};

pub use crate::config::DateOrder;
pub use deadline::{Deadline, deadlines};
pub use lang::Lang;

/// `name` as a `&'static str` when it is a zone the database knows. Each distinct name is
/// leaked once and kept (an operator has one or a few zones), which keeps [`Context`] `Copy`.
fn intern_zone(name: &str) -> Option<&'static str> {
    use std::sync::{Mutex, OnceLock};
    static NAMES: OnceLock<Mutex<Vec<&'static str>>> = OnceLock::new();
    jiff::tz::TimeZone::get(name).ok()?;
    let mut names = NAMES
        .get_or_init(|| Mutex::new(Vec::new()))
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(known) = names.iter().find(|n| **n == name) {
        return Some(known);
    }
    let leaked: &'static str = Box::leak(name.to_owned().into_boxed_str());
    names.push(leaked);
    Some(leaked)
}

/// What expressions are resolved against: when the message was received, in the operator's
/// zone, and how the operator writes numeric dates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Context {
    /// The received time at the operator's offset: its date is "today" for the message.
    pub received: OffsetDateTime,
    pub order: DateOrder,
    /// The operator's named zone (`America/Chicago`), when known: a time stated in another
    /// zone lands on the operator's day at that instant, which the received offset alone
    /// cannot tell across a clock change ("11:30pm Mountain on Monday", said the Saturday
    /// before the US spring change, is Tuesday 00:30 in Chicago).
    pub zone: Option<&'static str>,
}

impl Context {
    pub fn new(received: OffsetDateTime, tz: UtcOffset) -> Context {
        Context {
            received: received.to_offset(tz),
            order: DateOrder::default(),
            zone: None,
        }
    }
    pub fn in_zone(mut self, name: &'static str) -> Context {
        self.zone = Some(name);
        self
    }
    /// [`Context::in_zone`] for a name known only at run time (the operator's configured
    /// zone), when the zone database knows it.
    pub fn in_named_zone(self, name: &str) -> Context {
        match intern_zone(name) {
            Some(name) => self.in_zone(name),
            None => self,
        }
    }
    /// The operator's offset at instant `t`: its named zone's, or the received offset.
    pub(crate) fn offset_at(&self, t: OffsetDateTime) -> UtcOffset {
        self.zone
            .and_then(|name| jiff::tz::TimeZone::get(name).ok())
            .and_then(|z| {
                let ts = jiff::Timestamp::from_second(t.unix_timestamp()).ok()?;
                UtcOffset::from_whole_seconds(z.to_offset(ts).seconds()).ok()
            })
            .unwrap_or(self.received.offset())
    }
    pub fn with_order(mut self, order: DateOrder) -> Context {
        self.order = order;
        self
    }
    /// A message of day `day` whose time is not known (noon UTC, so the day stays `day`).
    pub fn on_day(day: Date) -> Context {
        Context::new(
            day.with_time(time::macros::time!(12:00)).assume_utc(),
            UtcOffset::UTC,
        )
    }
    pub fn today(&self) -> Date {
        self.received.date()
    }
}

/// One time expression in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TimeExpr {
    /// Bytes of the text.
    pub span: Range<usize>,
    /// The date in the operator's zone; none when the words name an impossible date.
    pub date: Option<Date>,
    /// The time, when one is stated (in the operator's zone).
    pub time: Option<Time>,
}

/// Every time expression in `text`, deadline or not (the model check: does a quoted phrase
/// name the date the model gave?).
pub fn scan(text: &str, ctx: &Context) -> Vec<TimeExpr> {
    let toks = lexer::lex(text);
    let langs = languages(detect_tokens(&toks));
    let sems = grammar::annotate(&toks, &langs);
    let p = grammar::Parser {
        t: &toks,
        sems: &sems,
        ctx,
        langs: &langs,
        sender_dmy: Default::default(),
        in_event: Default::default(),
        full: None,
    };
    p.scan()
        .into_iter()
        .map(|e| TimeExpr {
            span: toks.toks[e.from].start..toks.toks[e.to - 1].end,
            date: e.date,
            time: e.time,
        })
        .collect()
}

/// The language of lexed text, from its function words; a line with none ("Einsendeschluss:
/// 4. Dezember.") by its month and weekday names and its limit words, which a language may
/// have to itself; English (the first language) when neither tells.
fn detect_tokens(t: &lexer::Tokens) -> Lang {
    type Masks = std::collections::HashMap<&'static str, (u8, u8)>;
    // Per word: the languages it is a function word of, and those it is a name or a limit
    // word of.
    static WORDS: OnceLock<Masks> = OnceLock::new();
    let words = WORDS.get_or_init(|| {
        let mut m: Masks = std::collections::HashMap::new();
        for (k, l) in lang::ALL.iter().enumerate() {
            for w in l.function_words {
                m.entry(*w).or_default().0 |= 1 << k;
            }
            for (w, sem) in l.words {
                if !w.contains(' ')
                    && matches!(
                        sem,
                        lang::Sem::Month(..) | lang::Sem::Weekday(..) | lang::Sem::Cue(_)
                    )
                {
                    m.entry(*w).or_default().1 |= 1 << k;
                }
            }
        }
        m
    });
    // Per language, its function words and its names among the first 400 tokens, in one pass.
    let (mut function, mut names) = ([0u32; 8], [0u32; 8]);
    for i in 0..t.len().min(400) {
        if let Some(&(f, n)) = words.get(t.norm(i)) {
            for k in 0..lang::ALL.len() {
                function[k] += u32::from(f >> k & 1);
                names[k] += u32::from(n >> k & 1);
            }
        }
    }
    // Names decide only a line with no function word; a tie goes to the first language.
    let counts = if function.iter().any(|&c| c > 0) {
        function
    } else {
        names
    };
    let mut best = 0;
    for k in 1..lang::ALL.len() {
        if counts[k] > counts[best] {
            best = k;
        }
    }
    lang::ALL[best].lang
}

/// The tables a message is read with: its own language, then English (business English
/// turns up in German and Spanish mail: "EOD", "Deadline").
fn languages(l: Lang) -> Vec<&'static lang::LangData> {
    let mut v: Vec<&'static lang::LangData> =
        lang::ALL.iter().copied().filter(|d| d.lang == l).collect();
    if l != Lang::En {
        v.extend(lang::ALL.iter().copied().filter(|d| d.lang == Lang::En));
    }
    v
}

#[cfg(test)]
mod tests;
