//! The words of each language as data: one table per language (`en.rs`, `de.rs`, `es.rs`,
//! `fr.rs`, `it.rs`, `nl.rs`, `pt.rs`),
//! each a list of (phrase, meaning). Phrases are written folded (lowercase, accents removed:
//! `manana` matches "mañana" and "Mañana") with their tokens separated by spaces, so a
//! punctuation token is its own item (`cut - off`, `p . m .`). Adding a language is a new
//! table and one line in [`ALL`]; the grammar does not change.

mod de;
mod en;
mod es;
mod fr;
mod it;
mod nl;
mod pt;

use serde::{Deserialize, Serialize};

/// A language the tables cover.
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    Serialize,
    Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum Lang {
    En,
    De,
    Es,
    Fr,
    It,
    Nl,
    Pt,
}

impl Lang {
    pub fn as_str(self) -> &'static str {
        match self {
            Lang::En => "en",
            Lang::De => "de",
            Lang::Es => "es",
            Lang::Fr => "fr",
            Lang::It => "it",
            Lang::Nl => "nl",
            Lang::Pt => "pt",
        }
    }
}

/// How a language writes an all-numeric date whose parts could be either day or month.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NumericOrder {
    /// The operator's `[operator] date_order` decides (English is written both ways).
    Operator,
    /// Day first (`03/12` is 3 December).
    DayFirst,
}

/// One language: the function words that tell it apart, and what its words mean.
pub struct LangData {
    pub lang: Lang,
    /// Frequent short words of the language and few others: the detector counts them.
    pub function_words: &'static [&'static str],
    pub numeric: NumericOrder,
    /// Words that join the two ends of a range ("Monday *to* Wednesday").
    pub range_to: &'static [&'static str],
    /// Words that join the ends after "between" ("between Monday *and* Wednesday").
    pub range_and: &'static [&'static str],
    /// Words before a bare time ("*at* 3", "*um* 15", "a *las* 3").
    pub time_lead: &'static [&'static str],
    /// Cue words after which a time alone is a limit on the received day ("*by* 3pm",
    /// "*by* noon"); not "until", which also gives opening hours ("open until 5pm").
    pub time_by: &'static [&'static str],
    /// Words that follow a verb used as an imperative ("send *me*", "submit *your*", "fill
    /// *out*"), not a noun ("pay stubs", "return shipping").
    pub objects: &'static [&'static str],
    /// Heads of compounds written as one word, read as the head when the whole word is in
    /// no entry ("Rückmeldefrist", "Zahlungsfrist" are a "Frist"; "Meldeschluss" is a
    /// "-schluss"), and the stems that make another word of the head right before it
    /// ("Beschluss", "Anschluss", "Abschluss" are no closing date).
    pub compound_heads: &'static [(&'static str, Sem, &'static [&'static str])],
    /// Object pronouns written onto an order ("envíelo" is "envíe" + "lo"): a word ending in
    /// one whose stem is an order in `words` is that order.
    pub enclitics: &'static [&'static str],
    /// Phrase → meaning.
    pub words: &'static [(&'static str, Sem)],
}

/// All languages, in detection order (the first wins a tie: a short Spanish line whose only
/// function word is "de" stays Spanish).
pub static ALL: &[&LangData] = &[
    &en::EN,
    &de::DE,
    &es::ES,
    &fr::FR,
    &it::IT,
    &nl::NL,
    &pt::PT,
];

/// What a word or phrase means to the grammar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Sem {
    /// 0 = Monday. `caps`: the word is also an ordinary word ("Sat", "Wed", "Do"), so it
    /// counts only when written with a capital.
    Weekday(u8, Caps),
    /// 1..=12.
    Month(u8, Caps),
    Number(u32),
    /// A day of the month written as a word: "fourth", "fifteenth", "twenty-first".
    Ordinal(u8),
    /// Days from the message's day: today 0, tomorrow 1.
    RelDay(i8),
    /// "next", "coming", "nächsten", "próximo": the first such day after today.
    Next,
    /// "this", "diesen", "este": the first such day from today on.
    This,
    /// "last", "letzten", "pasado": the latest such day before today.
    Last,
    /// After a weekday: "(el viernes) que viene".
    NextPost,
    /// "next week" (1), "this week" (0), "last week" (-1).
    WeekRel(i8),
    Unit(Unit),
    /// "end of", "close of", "Ende", "fin de": the end of what follows.
    EndOf,
    /// "the beginning of", "the start of": the first day of the month that follows.
    StartOf,
    /// A moveable feast, in days from Easter Sunday: Easter (0), Good Friday (-2).
    Feast(i8),
    /// A named end: EOD, COB, EOW, EOM, "Monatsende".
    Named(Period),
    /// Q1..Q4.
    Quarter(u8),
    /// A time of day by name: noon (12), midnight (24 = the end of the day).
    TimeWord(u8),
    /// morning, afternoon, "früh", "por la tarde": part of a date phrase, no date by itself.
    DayPart,
    /// am (false) / pm (true).
    AmPm(bool),
    /// "Uhr", "o'clock", "h".
    Oclock,
    Zone(Zone),
    /// "within", "innerhalb von", "dentro de": a span that is itself a limit.
    Within,
    /// "in", "en": a span from now.
    In,
    /// "from now", "ab heute": after a span.
    FromNow,
    /// "ago", "hace", "vor": a span back (the date is past).
    Ago,
    /// "between", "zwischen", "entre".
    Between,
    /// Words a date phrase may contain between its parts ("the", "on", "der", "el", ",").
    Filler,
    Cue(Cue),
    Block(Block),
    /// The recipient is asked to do something ("please", "need", "bitte", "por favor").
    Request,
    /// An action verb ("send", "submit", "mande"): a request when it opens its sentence
    /// (the imperative), a plain word elsewhere ("I'll send it tomorrow").
    Act,
    /// "for", "after", "since": a date after it is the object's ("confirm the booking for
    /// Friday"), not a limit set by an imperative.
    Attr,
    /// "but", "pero", "aber": a negation before it does not reach a date after it, nor
    /// one after it a date before.
    Contrast,
    /// A change of an amount ("went down", "increased"): a following "by 1/3" is a fraction.
    Change,
    /// A meeting or appointment: its time is when to be there, not a limit.
    Meeting,
    /// A meal ("lunch"): a meeting when met at, a time of day right after "by" or "before"
    /// ("need it tomorrow before lunch" is by noon): the hour it stands for.
    Meal(u8),
    /// The sender's own future act ("I'll send", "we will mail", "your refund will be
    /// issued"): a date after it in its clause is a promise, not the recipient's limit,
    /// unless a request comes between ("we'll need it by Friday").
    Promise,
    /// "the week of": the working week of the date after it, which ends on its Friday.
    WeekOf,
    /// "ends", "will end": after a window's act ("registration ends Friday", "the grace
    /// period ends 8/27") its date is a limit; alone it is not ("the sale ends Friday").
    Ends,
    /// Words that point back to a date said before them ("by then", "in that window",
    /// "bis dahin", "para entonces"): a request around them asks by that date.
    Back,
    /// Opening hours ("geöffnet", "erreichbar", "abierto"): a time alone near it ("bis 17
    /// Uhr") is when the place is open, not a limit.
    Hours,
    /// An act done in a window ("registration", "enrollment", "sign-ups", "voting",
    /// "Anmeldung", "inscripciones"): a range in its sentence ends a limit ("open
    /// enrollment runs June 21 - June 25").
    Window,
    /// "from" in "moved from Friday to Monday".
    From,
    /// A third party's wish ("the client wants to see it", "she wishes to"): next to a limit
    /// asked by an earlier date it explains that limit; alone it may be one ("wants your" and
    /// "wants you to" ask, and are `Request`).
    Wish,
    /// "otherwise", "sonst", "de lo contrario": what follows if the recipient does not act.
    Else,
    /// Right after a date, "instead", "stattdessen", "invece": the date replaces another
    /// one of its sentence ("can I send it Thursday instead?").
    Instead,
    /// A word that takes a proposed day ("Monday is fine", "Thursday works", "Montag
    /// passt", "el lunes está bien"): read only where a pointer asks about that day.
    Accept,
    /// "moved", "postponed", "extended", "verschoben", "aplazado".
    Moved,
    /// A compound holding another entry's word that means none of it ("on-call" is no
    /// call): read as a plain word.
    Plain,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Caps {
    Any,
    Capital,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Hour,
    Day,
    BusinessDay,
    Week,
    /// Two weeks.
    Fortnight,
    Month,
    Quarter,
    Year,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Period {
    Day,
    Week,
    Month,
    Quarter,
    Year,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Zone {
    /// A fixed offset in minutes east of UTC (EST, CEST, UTC).
    Fixed(i16),
    /// A zone that follows daylight saving (ET, CT, PT): its IANA name.
    Named(&'static str),
}

/// How a cue ties a date to an action.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Cue {
    /// Right before the date: "by", "before", "until", "bis", "antes del", "para el".
    Adjacent,
    /// A verb or adjective that may stand a few words before the date: "due", "closes",
    /// "fällig", "vence".
    Due,
    /// Like `Due`, for what runs out by itself: "expires", "runs out", "lapses", "caduca". Alone
    /// it is the limit; said next to an ask by an earlier date in another sentence ("your
    /// prescription runs out March 31. … place your order by 3/20") it is the reason for it.
    Lapse,
    /// A noun that names the limit, before or after the date: "deadline", "Frist", "plazo".
    Noun,
    /// Before or after the date: "at the latest", "spätestens", "a más tardar".
    Latest,
    /// A preference right before the date ("we'd prefer Dec 10 for the signed copy",
    /// "ideally Friday", "let's say Jan 5"): a limit when a thing or an act is asked, not a
    /// day chosen for a meeting. Unlike "by", it makes no bare number after it an hour
    /// ("ideally 2 CT tmrw" is two scans).
    Prefer,
}

/// Words that make a date in their sentence not a live deadline.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Block {
    /// "no need", "anymore", "cancelled", "ignore", "entfällt", "ya no".
    Negation,
    /// "was due", "expired", "war fällig", "venció": a report of the past.
    Past,
    /// "out of office", "im Urlaub", "de vacaciones": an absence, not a request.
    Absence,
    /// "Scratch the", "Forget the": strikes the date right after it ("Scratch the 12/4 due
    /// date"), not the rest of its sentence ("Forget the draft, send the final by Friday").
    Strike,
    /// "wait until", "not before", "no antes de": the date is when to start, not a limit.
    /// It takes the place of a cue right before the date; it blocks nothing else.
    Start,
}
