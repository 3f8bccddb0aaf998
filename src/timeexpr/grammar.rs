//! The grammar: tokens → time expressions. Each token is first given its meaning from the
//! language tables (the longest phrase that starts there wins), then expressions are read as
//! a *bag* of parts that may come in any order with fillers between them ("by 2pm ET Friday",
//! "Friday, December 11 at 5pm", "close of business Monday", "Wednesday next week"), and a
//! bag resolves by precedence: an explicit calendar date wins over a weekday, a weekday over a
//! named period, and a stated time with a zone moves the date into the operator's zone.
//! Ranges ("between Monday and Wednesday", "Dec 1-3", "del 1 al 3 de diciembre") resolve to
//! their end. The same shape as chrono-node's parsers + refiners and Duckling's rules over
//! typed tokens, with the words kept in per-language tables.

use std::collections::HashMap;
use std::sync::OnceLock;

use time::{Date, Duration, Month, PrimitiveDateTime, Time, UtcOffset, Weekday};

use super::lang::{self, Caps, Cue, LangData, NumericOrder, Period, Sem, Unit, Zone};
use super::lexer::{Kind, Tokens};
use super::{Context, DateOrder};

/// One language's phrases by their first token; longest first.
struct Lexicon {
    map: HashMap<&'static str, Vec<(Vec<&'static str>, Sem)>>,
}

fn lexicons() -> &'static Vec<Lexicon> {
    static L: OnceLock<Vec<Lexicon>> = OnceLock::new();
    L.get_or_init(|| {
        lang::ALL
            .iter()
            .map(|d| {
                let mut map: HashMap<&'static str, Vec<(Vec<&'static str>, Sem)>> = HashMap::new();
                for (phrase, sem) in d.words {
                    let mut parts = phrase.split(' ');
                    let first = parts.next().unwrap_or("");
                    map.entry(first).or_default().push((parts.collect(), *sem));
                }
                for v in map.values_mut() {
                    v.sort_by_key(|(rest, _)| std::cmp::Reverse(rest.len()));
                }
                Lexicon { map }
            })
            .collect()
    })
}

/// The meaning of every token: `(tokens the phrase takes, meaning)` where a phrase starts.
pub type Sems = Vec<Option<(u8, Sem)>>;

/// Give each token its meaning in `langs` (the first language that knows a phrase there wins
/// over the later ones only when its phrase is at least as long).
pub fn annotate(t: &Tokens, langs: &[&'static LangData]) -> Sems {
    let lex = lexicons();
    // Each language with its lexicon, found once for the whole text.
    let tables: Vec<(&'static LangData, &Lexicon)> = langs
        .iter()
        .filter_map(|l| {
            let li = lang::ALL.iter().position(|x| std::ptr::eq(*x, *l))?;
            Some((*l, &lex[li]))
        })
        .collect();
    let mut out: Sems = Vec::with_capacity(t.len());
    for i in 0..t.len() {
        let mut best: Option<(u8, Sem)> = None;
        // Numbers are read by the grammar itself; "q 4" style phrases start with a word,
        // except chat spellings glued to their letters ("2morrow").
        if t.toks[i].kind == Kind::Num
            && !t.toks[i].ordinal
            && !(t.glued(i + 1) && t.toks[i + 1].kind == Kind::Word)
        {
            out.push(None);
            continue;
        }
        // "due sun", "by wed": right after a cue a short weekday needs no capital; so after
        // "is" that follows a cue ("the deadline for it is sun").
        let after_cue = (i >= 1 && matches!(out[i - 1], Some((1, Sem::Cue(_)))))
            || (i >= 2 && matches!(out[i - 2], Some((2, Sem::Cue(_)))))
            || (i >= 2
                && t.norm(i - 1) == "is"
                && out[i.saturating_sub(8)..i - 1]
                    .iter()
                    .any(|x| matches!(x, Some((_, Sem::Cue(_))))));
        // "Friday's deadline", "tomorrow's cutoff": a possessive day is the day; "the
        // deadline's Friday" is "the deadline is".
        let word = t.norm(i);
        let stem = word.strip_suffix("'s").filter(|s| !s.is_empty());
        for (_, lexicon) in &tables {
            let (entries, possessive) = match lexicon.map.get(word) {
                Some(e) => (e, false),
                None => match stem.and_then(|s| lexicon.map.get(s)) {
                    Some(e) => (e, true),
                    None => continue,
                },
            };
            for (rest, sem) in entries {
                if possessive
                    && !(rest.is_empty()
                        && matches!(
                            sem,
                            Sem::Weekday(..) | Sem::Month(..) | Sem::RelDay(_) | Sem::Cue(_)
                        ))
                {
                    continue;
                }
                let n = rest.len() + 1;
                if best.is_some_and(|(b, _)| b as usize >= n) {
                    break;
                }
                if rest
                    .iter()
                    .enumerate()
                    .all(|(k, w)| t.norm(i + 1 + k) == *w)
                    && caps_ok(*sem, t.toks[i].capital, after_cue)
                {
                    best = Some((n as u8, *sem));
                    break;
                }
            }
        }
        // "Rückmeldefrist": a compound whose head is an entry (at least four letters
        // before it, so the head alone is no compound).
        if best.is_none() {
            best = langs
                .iter()
                .flat_map(|l| l.compound_heads)
                .find(|(h, _, not)| {
                    word.len() >= h.len() + 4
                        && word
                            .strip_suffix(h)
                            .is_some_and(|stem| !not.iter().any(|n| stem.ends_with(n)))
                })
                .map(|&(_, sem, _)| (1, sem));
        }
        // "envíelo", "inviatelo": an order with its pronouns written on.
        if best.is_none() {
            best = tables.iter().find_map(|(l, lexicon)| {
                l.enclitics.iter().find_map(|c| {
                    let stem = word.strip_suffix(c).filter(|s| s.len() >= 4)?;
                    lexicon
                        .map
                        .get(stem)?
                        .iter()
                        .any(|(rest, sem)| rest.is_empty() && *sem == Sem::Act)
                        .then_some((1, Sem::Act))
                })
            });
        }
        out.push(best);
    }
    out
}

fn caps_ok(sem: Sem, capital: bool, after_cue: bool) -> bool {
    match sem {
        Sem::Weekday(_, Caps::Capital) => capital || after_cue,
        Sem::Month(_, Caps::Capital) => capital,
        _ => true,
    }
}

/// What a found expression is, for the deadline rules.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Shape {
    /// "within 48 hours": the span is itself a limit.
    pub within: bool,
    /// "in two weeks", "48 hours from now".
    pub span: bool,
    /// "between Monday and Wednesday": the date is the end.
    pub range: bool,
    /// EOD, end of month, COB.
    pub named: bool,
    /// today, tomorrow.
    pub relday: bool,
    /// "two weeks ago", "last Friday": said of the past.
    pub past: bool,
    /// "by 3pm": a time alone, on the received day.
    pub bare_time: bool,
    /// "tomorrow before noon": a day whose time came after a cue of its own (a limit even
    /// in a sentence about an appointment: "confirm tomorrow's visit before noon").
    pub timed_by_cue: bool,
    /// "next week, by Wednesday at the latest": a week the weekday after it narrows to a day
    /// of it (that weekday is the date, resolved in this week).
    pub narrowed: bool,
}

/// One time expression: its tokens `[from, to)`, its date in the operator's zone (none when
/// the words name an impossible date such as 2025-02-30), and the time when one is stated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expr {
    pub from: usize,
    pub to: usize,
    pub date: Option<Date>,
    pub time: Option<Time>,
    pub shape: Shape,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Rel {
    Plain,
    Next,
    /// "the Friday after next": the one after next Friday.
    AfterNext,
    /// "Wednesday week" (British): a week after the plain Wednesday.
    WeekOn,
    This,
    Last,
}

#[derive(Debug, Clone, Copy)]
enum Comp {
    /// An explicit calendar date; none when impossible.
    Date(Option<Date>),
    /// "the 15th": the next such day of a month.
    DayOfMonth(u8),
    Weekday(u8, Rel),
    Week(i8),
    RelDay(i8),
    /// A named end, and by how many periods it is shifted (end of *next* month: 1).
    Named(Period, i32),
    /// A month with no day ("end of January"); only an "end of" uses it.
    EndOfMonth(u8),
    EndOfQuarter(u8),
    Span {
        n: u32,
        unit: Unit,
        within: bool,
        ago: bool,
    },
    Time(u8, u8),
    Zone(ZoneAt),
    /// "the week of July 12": that week's Friday (none when impossible).
    WeekOf(Option<Date>),
    /// "48 hours before your visit on June 3": counted back from a later date (none when
    /// impossible); a limit by itself.
    Before(Option<Date>),
}

impl Comp {
    /// The part names a day (not only a time or a zone).
    fn is_date(&self) -> bool {
        !matches!(self, Comp::Time(..) | Comp::Zone(_))
    }
}

#[derive(Debug, Clone, Copy)]
enum ZoneAt {
    Zone(Zone),
    Offset(i32),
}

#[derive(Default, Clone, Copy)]
struct Bag {
    date: Option<Option<Date>>,
    dom: Option<u8>,
    weekday: Option<(u8, Rel)>,
    week: Option<i8>,
    relday: Option<i8>,
    named: Option<(Period, i32)>,
    end_month: Option<u8>,
    end_quarter: Option<u8>,
    span: Option<(u32, Unit, bool, bool)>,
    time: Option<(u8, u8)>,
    zone: Option<ZoneAt>,
    /// The day is the received day only because a time stands alone after "by".
    bare_time: bool,
    /// The date is counted back from a later one ("2 days before the June 3 visit").
    before: bool,
    /// The date ends the week of another ("the week of July 12").
    week_of: bool,
}

impl Bag {
    /// Adds `c` unless its slot is taken (a second weekday is another expression).
    fn add(&mut self, c: Comp) -> bool {
        fn put<T>(slot: &mut Option<T>, v: T) -> bool {
            if slot.is_some() {
                return false;
            }
            *slot = Some(v);
            true
        }
        if self.span.is_some() && !matches!(c, Comp::Time(..) | Comp::Zone(_)) {
            return false;
        }
        match c {
            Comp::Date(d) => self.dom.is_none() && put(&mut self.date, d),
            Comp::Before(d) => {
                self.before = true;
                self.dom.is_none() && put(&mut self.date, d)
            }
            Comp::WeekOf(d) => {
                self.week_of = true;
                self.dom.is_none() && put(&mut self.date, d)
            }
            Comp::DayOfMonth(d) => self.date.is_none() && put(&mut self.dom, d),
            Comp::Weekday(w, r) => put(&mut self.weekday, (w, r)),
            Comp::Week(w) => put(&mut self.week, w),
            Comp::RelDay(n) => put(&mut self.relday, n),
            Comp::Named(p, s) => put(&mut self.named, (p, s)),
            Comp::EndOfMonth(m) => put(&mut self.end_month, m),
            Comp::EndOfQuarter(q) => put(&mut self.end_quarter, q),
            Comp::Span {
                n,
                unit,
                within,
                ago,
            } => self.is_empty_of_dates() && put(&mut self.span, (n, unit, within, ago)),
            Comp::Time(h, m) => put(&mut self.time, (h, m)),
            Comp::Zone(z) => self.time.is_some() && put(&mut self.zone, z),
        }
    }
    fn is_empty_of_dates(&self) -> bool {
        !self.has_date()
    }
    fn has_date(&self) -> bool {
        self.date.is_some()
            || self.dom.is_some()
            || self.weekday.is_some()
            || self.week.is_some()
            || self.relday.is_some()
            || self.named.is_some()
            || self.end_month.is_some()
            || self.end_quarter.is_some()
            || self.span.is_some()
    }
}

pub struct Parser<'a> {
    pub t: &'a Tokens,
    pub sems: &'a Sems,
    pub ctx: &'a Context,
    /// The message's language first, then English.
    pub langs: &'a [&'static LangData],
    /// Whether the sender writes numeric dates day first (see [`sender_day_first`]), worked
    /// out at the first date that needs it.
    pub sender_dmy: std::cell::OnceCell<bool>,
    /// The whole text when `t` is only its live part: the sender's signature, blanked for
    /// the deadline rules, tells where the sender writes from.
    pub full: Option<&'a str>,
    /// Set while an event's date is looked for: a limit counted back from another event
    /// inside that search is not followed (no search runs into itself).
    pub in_event: std::cell::Cell<bool>,
}

const FILLER_SKIP: usize = 3;

impl Parser<'_> {
    pub fn sem(&self, i: usize) -> Option<Sem> {
        self.sems.get(i).copied().flatten().map(|(_, s)| s)
    }
    /// The token after the phrase that starts at `i`.
    pub fn after(&self, i: usize) -> usize {
        i + self
            .sems
            .get(i)
            .copied()
            .flatten()
            .map_or(1, |(n, _)| n as usize)
    }
    fn word(&self, i: usize) -> &str {
        self.t.norm(i)
    }
    fn num(&self, i: usize) -> Option<(u32, u8, bool)> {
        let t = self.t.toks.get(i)?;
        (t.kind == Kind::Num).then_some((t.value, t.digits, t.ordinal))
    }
    fn listed(&self, i: usize, pick: fn(&LangData) -> &'static [&'static str]) -> bool {
        let w = self.word(i);
        self.langs.iter().any(|l| pick(l).contains(&w))
    }
    fn day_first(&self) -> bool {
        match self.langs.first().map(|l| l.numeric) {
            Some(NumericOrder::DayFirst) => true,
            _ => {
                self.ctx.order == DateOrder::Dmy
                    || *self.sender_dmy.get_or_init(|| match self.full {
                        Some(text) => sender_day_first(&super::lexer::lex(text)),
                        None => sender_day_first(self.t),
                    })
            }
        }
    }

    /// Every expression in the text, left to right, not overlapping.
    pub fn scan(&self) -> Vec<Expr> {
        let mut out: Vec<Expr> = Vec::new();
        let mut i = 0;
        while i < self.t.len() {
            // A plain phrase holds no date ("early next week").
            if self.sem(i) == Some(Sem::Plain) {
                i = self.after(i);
                continue;
            }
            match self.expr_at(i) {
                Some(e) => {
                    i = e.to.max(i + 1);
                    // "tomorrow before noon", "Friday by 3pm": the time belongs to the day
                    // just before its cue.
                    if e.shape.bare_time
                        && let Some(prev) = out.last_mut()
                        && self.time_by_before(e.from) == Some(prev.to)
                        && prev.time.is_none()
                    {
                        prev.to = e.to;
                        prev.time = e.time;
                        prev.shape.timed_by_cue = true;
                        continue;
                    }
                    out.push(e);
                }
                None => i += 1,
            }
        }
        for k in 1..out.len() {
            self.narrow_week(&mut out, k);
        }
        out
    }

    /// "next week, by Wednesday at the latest", "la próxima semana, a más tardar el
    /// miércoles": a week alone, then over a comma and a cue a plain weekday — the weekday
    /// is in that week and the week is no date of its own.
    fn narrow_week(&self, out: &mut [Expr], k: usize) {
        let (a, b) = (out[k - 1], out[k]);
        let Some(Sem::WeekRel(w)) = self.sem(a.from) else {
            return;
        };
        if a.to != self.after(a.from) || b.from - a.to > 6 || w < 0 {
            return;
        }
        let gap_ok = (a.to..b.from).all(|j| {
            self.t.is_punct(j, ",")
                || matches!(
                    self.sem(j),
                    Some(Sem::Filler | Sem::Cue(Cue::Adjacent | Cue::Prefer | Cue::Latest))
                )
                || (j > a.to && self.sems.get(j).is_none_or(|x| x.is_none()) && {
                    // Inside a phrase that started before (the rest of "a más tardar").
                    (a.to..j).any(|c| self.after(c) > j)
                })
        });
        if !gap_ok || !matches!(self.sem(b.from), Some(Sem::Weekday(..) | Sem::This)) {
            return;
        }
        let Some((end, mut bag)) = self.bag(b.from) else {
            return;
        };
        if end != b.to
            || bag.week.is_some()
            || bag.date.is_some()
            || bag.dom.is_some()
            || !bag
                .weekday
                .is_some_and(|(_, r)| matches!(r, Rel::Plain | Rel::This))
        {
            return;
        }
        bag.week = Some(w);
        let (date, time) = self.resolve(&bag);
        out[k].date = date;
        out[k].time = time;
        out[k - 1].shape.narrowed = true;
    }

    pub fn expr_at(&self, i: usize) -> Option<Expr> {
        if self.sem(i) == Some(Sem::Between) {
            let mut a = self.skip_fill(self.after(i));
            // "between now and Friday": the range starts now; its end is the date.
            if matches!(self.word(a), "now" | "jetzt" | "ahora") && self.listed(a + 1, lang_and) {
                let b = self.skip_fill(a + 2);
                if let Some((end, bag)) = self.bag(b) {
                    let (date, time) = self.resolve(&bag);
                    let mut shape = shape_of(&bag);
                    shape.range = true;
                    return Some(Expr {
                        from: i,
                        to: end,
                        date,
                        time,
                        shape,
                    });
                }
                a = b;
            }
            if let Some(e) = self.range_from(i, a, lang_and) {
                return Some(e);
            }
        }
        if let Some(e) = self.bare_day_range(i, i) {
            return Some(e);
        }
        let (end, bag) = self.bag(i)?;
        let (date, time) = self.resolve(&bag);
        let mut e = Expr {
            from: i,
            to: end,
            date,
            time,
            shape: shape_of(&bag),
        };
        // "this week and next", "esta semana y la próxima": the two weeks, ending with the
        // second (not "this week and next Monday", a second date).
        if let Some(Sem::WeekRel(w)) = self.sem(i)
            && end == self.after(i)
            && self.listed(end, lang_and)
        {
            let n = self.skip_fill(end + 1);
            if self.sem(n) == Some(Sem::Next) && self.bag(n).is_none() {
                // The window ends at the second week's end (its Friday).
                let mut two = bag;
                two.week = None;
                two.named = Some((Period::Week, i32::from(w) + 1));
                let (date, time) = self.resolve(&two);
                e.to = self.after(n);
                e.date = date;
                e.time = time;
                e.shape.range = true;
                return Some(e);
            }
        }
        // "Monday to Wednesday", "Dec 1-3": the end of the range.
        if bag.span.is_none()
            && self.listed(end, lang_to)
            && let Some(y) = self.range_end(end, &bag)
        {
            e.to = y.to;
            e.time = y.time;
            // "20. Dezember bis 12:00 Uhr", "Dec 20 until noon": a time alone after the date
            // is that day's hour, not a range's end on the received day.
            if !y.shape.bare_time {
                e.date = later_end(e.date, y.date);
                e.shape.range = true;
            }
        }
        Some(e)
    }

    /// "between X and Y" with X at `a`.
    fn range_from(
        &self,
        start: usize,
        a: usize,
        join: fn(&LangData) -> &'static [&'static str],
    ) -> Option<Expr> {
        if let Some(e) = self.bare_day_range(start, a) {
            return Some(e);
        }
        let (end, bag) = self.bag(a)?;
        if !self.listed(end, join) {
            return None;
        }
        let mut y = self.range_end(end, &bag)?;
        y.date = later_end(self.resolve(&bag).0, y.date);
        y.from = start;
        y.shape.range = true;
        Some(y)
    }

    /// After the connector at `conn`: the range's end, which may be a bare day of the first
    /// part's month ("Dec 1-3").
    fn range_end(&self, conn: usize, first: &Bag) -> Option<Expr> {
        let b = self.skip_fill(conn + 1);
        // "Dec 4 until 3pm", "am 4. Dezember bis 18 Uhr": an hour after the date, not a day
        // of its month (the caller keeps the first part's date).
        if first.has_date()
            && self.bag(b).is_none()
            && let Some((n, comps)) = self.time(b)
            && n > b + 1
        {
            let time = comps.iter().find_map(|c| match c {
                Comp::Time(h, m) => Time::from_hms(*h % 24, *m, 0).ok(),
                _ => None,
            });
            return Some(Expr {
                from: conn,
                to: n,
                date: None,
                time,
                shape: Shape {
                    bare_time: true,
                    ..Shape::default()
                },
            });
        }
        if let Some(Some(d0)) = first.date
            && let Some((v, digits, _)) = self.num(b)
            && digits <= 2
            && self.bag(b).is_none()
        {
            let day = u8::try_from(v).ok()?;
            let date = Date::from_calendar_date(d0.year(), d0.month(), day).ok();
            return Some(Expr {
                from: conn,
                to: b + 1,
                date,
                time: None,
                shape: Shape::default(),
            });
        }
        let (end, bag) = self.bag(b)?;
        let (mut date, time) = self.resolve(&bag);
        // "Jan 3rd–10th": a bare ordinal day is in the first part's month.
        if let (Some(Some(d0)), Some(day)) = (first.date, bag.dom)
            && bag.weekday.is_none()
            && bag.relday.is_none()
        {
            date = Date::from_calendar_date(d0.year(), d0.month(), day).ok();
        }
        Some(Expr {
            from: conn,
            to: end,
            date,
            time,
            shape: shape_of(&bag),
        })
    }

    /// "1-3 December", "del 1 al 3 de diciembre", "between 1 and 3 December": a bare day,
    /// a connector, then a date with a month.
    fn bare_day_range(&self, start: usize, a: usize) -> Option<Expr> {
        // "between the first and the fourth of February", "vom ersten bis zum dritten März":
        // a day as an ordinal word, joined by a word (not a dash: "First – March 3").
        let c = if let Some(Sem::Ordinal(_)) = self.sem(a) {
            let c = self.after(a);
            if self.t.toks.get(c).is_none_or(|t| t.kind != Kind::Word) {
                return None;
            }
            c
        } else {
            let (_, digits, _) = self.num(a)?;
            if digits > 2 {
                return None;
            }
            // "zwischen dem 5. und 9. Juli": the German day's dot.
            if self.t.is_punct(a + 1, ".") && self.t.glued(a + 1) {
                a + 2
            } else {
                a + 1
            }
        };
        if !(self.listed(c, lang_to) || self.listed(c, lang_and)) {
            return None;
        }
        // "3." of "1.–3. Dezember" is part of the number.
        let (end, bag) = self.bag(self.skip_fill(c + 1))?;
        let Some(Some(_)) = bag.date else {
            return None;
        };
        let (date, time) = self.resolve(&bag);
        Some(Expr {
            from: start,
            to: end,
            date,
            time,
            shape: Shape {
                range: true,
                ..Shape::default()
            },
        })
    }

    fn skip_fill(&self, mut j: usize) -> usize {
        for _ in 0..FILLER_SKIP {
            match self.sem(j) {
                Some(Sem::Filler | Sem::DayPart) => j = self.after(j),
                _ if self.word(j) == "dia" && self.num(j + 1).is_some() => j += 1,
                _ => break,
            }
        }
        j
    }

    /// The parts of one expression starting exactly at `i`.
    fn bag(&self, i: usize) -> Option<(usize, Bag)> {
        let mut b = Bag::default();
        let mut j = i;
        let mut end = i;
        loop {
            let k = if end == i { j } else { self.skip_fill(j) };
            let Some((n, comps)) = self.comp(k) else {
                break;
            };
            let mut copy = b;
            if !comps.iter().all(|c| copy.add(*c)) {
                break;
            }
            b = copy;
            end = n;
            j = n;
        }
        // "by 3pm", "By noon": a time alone after such a cue is on the received day.
        if end > i && !b.has_date() && b.time.is_some() && self.time_by_before(i).is_some() {
            b.relday = Some(0);
            b.bare_time = true;
        }
        (end > i && b.has_date()).then_some((end, b))
    }

    /// The start of a cue such as "by", "before", "antes de (las)" that ends right before
    /// token `i` (over a time's lead word: "antes de las 5").
    pub fn time_by_before(&self, i: usize) -> Option<usize> {
        let mut k = i.checked_sub(1)?;
        if self.listed(k, lang_time_lead) && !self.listed(k, lang_time_by) {
            k = k.checked_sub(1)?;
        }
        (k.saturating_sub(3)..=k).find(|&c| {
            self.listed(c, lang_time_by)
                && (c == k
                    || matches!(self.sems.get(c).copied().flatten(), Some((n, Sem::Cue(Cue::Adjacent))) if c + n as usize == k + 1))
        })
    }

    /// One part at `i`.
    fn comp(&self, i: usize) -> Option<(usize, Vec<Comp>)> {
        let tok = self.t.toks.get(i)?;
        // "the second Tuesday of March", "el último viernes del mes": a weekday counted in
        // a month.
        if let Some(n) = self.nth_weekday(i) {
            return Some(n);
        }
        // "half past 4", "quarter to 5", "halb fünf".
        if tok.kind == Kind::Word
            && matches!(self.sem(i), None | Some(Sem::Unit(Unit::Quarter)))
            && let Some(n) = self.clock_words(i)
        {
            return Some(n);
        }
        if tok.kind == Kind::Num {
            let n = self
                .iso(i)
                .or_else(|| self.numeric(i))
                .or_else(|| self.day_month(i))
                .or_else(|| self.time(i))
                .or_else(|| self.span(i))
                .or_else(|| self.day_of_month(i));
            if n.is_some() || self.sem(i).is_none() {
                return n;
            }
        }
        match self.sem(i)? {
            Sem::Month(..) => self.month_day(i),
            Sem::Weekday(..) | Sem::Next | Sem::This | Sem::Last => self.weekday(i),
            Sem::RelDay(n) => Some((self.after(i), vec![Comp::RelDay(n)])),
            Sem::WeekRel(n) => Some((self.after(i), vec![Comp::Week(n)])),
            Sem::Named(p) => Some((self.after(i), vec![Comp::Named(p, 0)])),
            Sem::EndOf => self.end_of(i),
            Sem::StartOf => self.start_of(i),
            Sem::Feast(off) => Some((
                self.after(i),
                vec![Comp::Date(feast(self.ctx.today(), off))],
            )),
            Sem::Number(d) => self.number_word_day(i, d).or_else(|| self.span(i)),
            Sem::Within | Sem::In | Sem::Ago | Sem::Unit(_) => self.span(i),
            Sem::TimeWord(_) => self.time(i),
            // "the week of July 12": a window that ends on that week's Friday.
            Sem::WeekOf => {
                let (end, bag) = self.bag(self.after(i))?;
                if bag.span.is_some() || bag.week_of || bag.before {
                    return None;
                }
                let d = self
                    .resolve(&bag)
                    .0
                    .map(|d| week_monday(d) + Duration::days(4));
                Some((end, vec![Comp::WeekOf(d)]))
            }
            // "before lunch": a meal right after "by"/"before" is its hour.
            Sem::Meal(_) if self.time_by_before(i).is_some() => self.time(i),
            Sem::Ordinal(d) => self.ordinal_word(i, d),
            Sem::Zone(z) => Some((self.after(i), vec![Comp::Zone(ZoneAt::Zone(z))])),
            _ => None,
        }
    }

    /// "the second Tuesday of March", "the 2nd Friday in June", "the last Friday of the
    /// month", "the last business day of the quarter", "zweiten Dienstag im Dezember",
    /// "último viernes del mes": an ordinal, a weekday or working day, a joining word and a
    /// period (a named month, or "the/this/next month/quarter/year").
    fn nth_weekday(&self, i: usize) -> Option<(usize, Vec<Comp>)> {
        let j = self.after(i);
        // None: a working day. Looked at first: most tokens have no weekday after them.
        let wd = match self.sem(j) {
            Some(Sem::Weekday(wd, _)) => Some(wd),
            Some(Sem::Unit(Unit::BusinessDay)) => None,
            _ => return None,
        };
        // 1..=5, or 0 for the last.
        let n: u8 = match (self.num(i), self.sem(i)) {
            (Some((v, d, true)), _) if d == 1 && (1..=5).contains(&v) => v as u8,
            (None, Some(Sem::Ordinal(v))) if (1..=5).contains(&v) => v,
            (None, Some(Sem::Last)) => 0,
            // Italian writes the article on: "entro l'ultimo venerdì".
            _ if matches!(
                self.word(i).trim_start_matches("l'"),
                "ultimo" | "ultima" | "dernier" | "derniere" | "laatste" | "letzte"
            ) =>
            {
                0
            }
            _ => return None,
        };
        let mut k = self.after(j);
        if !matches!(
            self.word(k),
            "of" | "in" | "im" | "del" | "de" | "du" | "di" | "van" | "do" | "da" | "des"
        ) {
            return None;
        }
        k += 1;
        let mut shift = None;
        for _ in 0..3 {
            match self.sem(k) {
                Some(Sem::Filler) if shift.is_none() => k = self.after(k),
                Some(Sem::This) if shift.is_none() => {
                    shift = Some(0);
                    k = self.after(k);
                }
                Some(Sem::Next) if shift.is_none() => {
                    shift = Some(1);
                    k = self.after(k);
                }
                _ => break,
            }
        }
        let today = self.ctx.today();
        let month1 = today.replace_day(1).ok()?;
        // The period's first day and its length in months.
        let (first, months) = match self.sem(k) {
            Some(Sem::Month(m, _)) if shift.is_none() => (yearless(today, m as u32, 1)?, 1),
            Some(Sem::Unit(Unit::Month)) => (month1, 1),
            Some(Sem::Unit(Unit::Quarter)) => {
                let back = (today.month() as i32 - 1) % 3;
                (add_months(month1, -back)?, 3)
            }
            Some(Sem::Unit(Unit::Year)) => (month1.replace_month(Month::January).ok()?, 12),
            _ => return None,
        };
        let end = self.after(k);
        let pick = |first: Date| {
            let last = add_months(first, months)? - Duration::days(1);
            nth_day_of(first, last, wd, n)
        };
        let unit = matches!(self.sem(k), Some(Sem::Unit(_)));
        let first = if unit {
            add_months(first, months * shift.unwrap_or(0))?
        } else {
            first
        };
        let mut date = pick(first);
        // "the first Monday of the month" said after it: the next one's.
        if unit && shift.is_none() && date.is_some_and(|d| d < today) {
            date = add_months(first, months).and_then(pick);
        }
        Some((end, vec![Comp::Date(date)]))
    }

    /// "half past 4", "quarter past 9", "quarter to 5" (the hour as in "at 4": afternoon up
    /// to 7 unless am/pm follows), German "halb fünf" (4:30).
    fn clock_words(&self, i: usize) -> Option<(usize, Vec<Comp>)> {
        let (h_at, minutes, back) = match (self.word(i), self.word(i + 1)) {
            ("half", "past") => (i + 2, 30, false),
            ("quarter", "past") => (i + 2, 15, false),
            ("quarter", "to") => (i + 2, 45, true),
            ("halb", _) => (i + 1, 30, true),
            _ => return None,
        };
        let (v, end) = match (self.num(h_at), self.sem(h_at)) {
            (Some((v, d, false)), _) if d <= 2 => (v, h_at + 1),
            (None, Some(Sem::Number(v))) => (v, self.after(h_at)),
            _ => return None,
        };
        if !(1..=12).contains(&v) {
            return None;
        }
        let mut h = if back { v - 1 } else { v } as u8;
        if h == 0 {
            h = 12;
        }
        match self.sem(end) {
            Some(Sem::AmPm(pm)) => {
                if pm && h < 12 {
                    h += 12;
                } else if !pm && h == 12 {
                    h = 0;
                }
                return self.zone_after(self.after(end), h, minutes);
            }
            _ if (1..=7).contains(&h) => h += 12,
            _ => {}
        }
        self.zone_after(end, h, minutes)
    }

    /// 2026-11-30, 2026-11-30T17:00-06:00, 2026/11/30.
    fn iso(&self, i: usize) -> Option<(usize, Vec<Comp>)> {
        let (y, yd, _) = self.num(i)?;
        if yd != 4 {
            return None;
        }
        let sep = self.word(i + 1);
        if !(sep == "-" || sep == "/") || !self.t.glued(i + 1) || !self.t.glued(i + 2) {
            return None;
        }
        let (m, _, _) = self.num(i + 2)?;
        if self.word(i + 3) != sep || !self.t.glued(i + 3) || !self.t.glued(i + 4) {
            return None;
        }
        let (d, dd, _) = self.num(i + 4)?;
        if dd > 2 {
            return None;
        }
        let date = ymd(y as i32, m, d);
        let mut out = vec![Comp::Date(date)];
        let mut end = i + 5;
        // 'T17:00' lexes as the word "t17"? No: letters and digits are separate tokens.
        if self.word(end) == "t"
            && self.t.glued(end)
            && self.t.glued(end + 1)
            && let Some((n, h, mi)) = self.clock(end + 1)
        {
            out.push(Comp::Time(h, mi));
            end = n;
            if let Some((n, z)) = self.offset(end, false) {
                out.push(Comp::Zone(z));
                end = n;
            }
        }
        Some((end, out))
    }

    /// `hh:mm` (and `:ss`) at `i`: (next, h, m).
    fn clock(&self, i: usize) -> Option<(usize, u8, u8)> {
        let (h, hd, ord) = self.num(i)?;
        // "14:00"; "17h00"; "5.30pm" (a dot only with am/pm after it: "13.50" is an amount).
        let sep = self.t.is_punct(i + 1, ":")
            || self.word(i + 1) == "h"
            || (self.t.is_punct(i + 1, ".") && matches!(self.sem(i + 3), Some(Sem::AmPm(_))));
        if ord || hd > 2 || h > 24 || !sep || !self.t.glued(i + 1) {
            return None;
        }
        let (m, md, _) = self.num(i + 2)?;
        if md != 2 || m > 59 || !self.t.glued(i + 2) {
            return None;
        }
        let mut end = i + 3;
        if self.t.is_punct(end, ":") && self.t.glued(end) && self.num(end + 1).is_some() {
            end += 2;
        }
        Some((end, h as u8, m as u8))
    }

    /// `Z`, `+01:00`, `-0600`, `-06` right after a time; `+2` too when `short` (after
    /// "UTC").
    fn offset(&self, i: usize, short: bool) -> Option<(usize, ZoneAt)> {
        // "UTC +1": after UTC a space may stand before a sign written onto its number.
        let spaced_sign = short && self.t.glued(i + 1) && matches!(self.word(i), "+" | "-" | "−");
        if !(self.t.glued(i) || spaced_sign) {
            return None;
        }
        if self.word(i) == "z" {
            return Some((i + 1, ZoneAt::Offset(0)));
        }
        let sign = match self.word(i) {
            "+" => 1,
            "-" | "−" => -1,
            _ => return None,
        };
        let (v, d, _) = self.num(i + 1)?;
        let (mins, end) = match d {
            2 if self.t.is_punct(i + 2, ":") => {
                let (m, _, _) = self.num(i + 3)?;
                (v * 60 + m, i + 4)
            }
            2 => (v * 60, i + 2),
            1 if short => (v * 60, i + 2),
            4 => ((v / 100) * 60 + v % 100, i + 2),
            _ => return None,
        };
        (mins <= 14 * 60).then_some((end, ZoneAt::Offset(sign * mins as i32)))
    }

    /// 11/30, 11/30/26, 30.11.2026, 3.12. — the order decided by a part over 12, else by the
    /// language (all but English write the day first), else by `[operator] date_order`, else
    /// by the sender (an English sender from a day-first country: [`sender_day_first`]).
    fn numeric(&self, i: usize) -> Option<(usize, Vec<Comp>)> {
        let (a, ad, ord) = self.num(i)?;
        if ord || ad > 2 {
            return None;
        }
        let sep = self.word(i + 1);
        // "08-20-2027": dashes only with a year (not "3-5 days", "Dec 1-3").
        if !(sep == "/" || sep == "." || sep == "-") || !self.t.glued(i + 1) || !self.t.glued(i + 2)
        {
            return None;
        }
        let (b, bd, _) = self.num(i + 2)?;
        if bd > 2 {
            return None;
        }
        let mut end = i + 3;
        let mut year = None;
        if self.word(end) == sep
            && self.t.glued(end)
            && self.t.glued(end + 1)
            && let Some((y, yd, _)) = self.num(end + 1)
            && (yd == 2 || yd == 4)
        {
            year = Some(if yd == 2 { 2000 + y as i32 } else { y as i32 });
            end += 2;
        }
        if sep == "-" && year.is_none() {
            return None;
        }
        if sep == "." {
            // "3.12" alone may be a decimal or a version; "3.12." and "3.12.2026" are dates,
            // "14.30 Uhr" is a time.
            if matches!(self.sem(end), Some(Sem::Oclock)) {
                return None;
            }
            if year.is_none() {
                // Only day-first languages write "3.12." without a year; in English mail
                // "room 4.12." is not a date.
                if !(self.t.is_punct(end, ".") && self.t.glued(end))
                    || self
                        .langs
                        .first()
                        .is_some_and(|l| l.numeric != NumericOrder::DayFirst)
                {
                    return None;
                }
                end += 1;
            }
        }
        if a > 31 || b > 31 || a == 0 || b == 0 {
            return None;
        }
        let (m, d) = if sep == "." || a > 12 {
            (b, a)
        } else if b > 12 {
            (a, b)
        } else if self.day_first() {
            (b, a)
        } else {
            (a, b)
        };
        let date = match year {
            Some(y) => ymd(y, m, d),
            None => yearless(self.ctx.today(), m, d),
        };
        Some((end, vec![Comp::Date(date)]))
    }

    /// "December 11", "Dec. 11th, 2026", "December the 11th".
    fn month_day(&self, i: usize) -> Option<(usize, Vec<Comp>)> {
        let Some(Sem::Month(m, _)) = self.sem(i) else {
            return None;
        };
        let mut j = self.after(i);
        if self.t.is_punct(j, ".") && self.t.glued(j) {
            j += 1;
        }
        if self.word(j) == "the" {
            j += 1;
        }
        let (d, mut end) = if let Some(Sem::Ordinal(d)) = self.sem(j) {
            (d as u32, self.after(j))
        } else {
            let (d, dd, _) = self.num(j)?;
            if dd > 2 || d == 0 || d > 31 || self.t.is_punct(j + 1, ":") {
                return None;
            }
            (d, j + 1)
        };
        let year = self.year_after(&mut end);
        let date = match year {
            Some(y) => ymd(y, m as u32, d),
            None => yearless(self.ctx.today(), m as u32, d),
        };
        Some((end, vec![Comp::Date(date)]))
    }

    /// ", 2026" / " 2026" / " de 2026" after a day and month.
    fn year_after(&self, end: &mut usize) -> Option<i32> {
        let mut k = *end;
        if self.t.is_punct(k, ",") || self.word(k) == "de" {
            k += 1;
        }
        let (y, yd, _) = self.num(k)?;
        if yd != 4 || self.t.is_punct(k + 1, ":") {
            return None;
        }
        *end = k + 1;
        Some(y as i32)
    }

    /// "11 December", "11th of December", "3. Dezember", "3 de diciembre".
    fn day_month(&self, i: usize) -> Option<(usize, Vec<Comp>)> {
        let (d, dd, _) = self.num(i)?;
        if dd > 2 || d == 0 || d > 31 {
            return None;
        }
        let mut j = i + 1;
        // "20-Aug-2027"
        let dashed = self.t.is_punct(j, "-") && self.t.glued(j) && self.t.glued(j + 1);
        if (self.t.is_punct(j, ".") && self.t.glued(j)) || dashed {
            j += 1;
        }
        if matches!(self.word(j), "of" | "de") {
            j += 1;
        }
        let Some(Sem::Month(m, _)) = self.sem(j) else {
            return None;
        };
        let mut end = self.after(j);
        if self.t.is_punct(end, ".") && self.t.glued(end) {
            end += 1;
        }
        if dashed
            && self.t.is_punct(end, "-")
            && self.t.glued(end)
            && self.t.glued(end + 1)
            && let Some((y, 4, _)) = self.num(end + 1)
        {
            return Some((end + 2, vec![Comp::Date(ymd(y as i32, m as u32, d))]));
        }
        let year = self.year_after(&mut end);
        let date = match year {
            Some(y) => ymd(y, m as u32, d),
            None => yearless(self.ctx.today(), m as u32, d),
        };
        Some((end, vec![Comp::Date(date)]))
    }

    /// A day as a word: "the fourth of January"; "by the fifth" alone (a cue, "the", and
    /// no noun after it: "by the first draft" is not a date).
    fn ordinal_word(&self, i: usize, d: u8) -> Option<(usize, Vec<Comp>)> {
        let mut j = self.after(i);
        // "the fourth of May", "el primero de mayo".
        if matches!(self.word(j), "of" | "de") {
            j += 1;
        }
        if let Some(Sem::Month(m, _)) = self.sem(j) {
            let mut end = self.after(j);
            let year = self.year_after(&mut end);
            let date = match year {
                Some(y) => ymd(y, m as u32, d as u32),
                None => yearless(self.ctx.today(), m as u32, d as u32),
            };
            return Some((end, vec![Comp::Date(date)]));
        }
        let end = self.after(i);
        // "by the fourth", "on the thirtieth".
        let cued = i >= 2
            && self.word(i - 1) == "the"
            && (matches!(
                self.sems.get(i - 2).copied().flatten(),
                Some((1, Sem::Cue(_)))
            ) || self.word(i - 2) == "on");
        let alone = self.t.toks.get(end).is_none_or(|t| t.kind != Kind::Word)
            || matches!(
                self.sem(end),
                Some(Sem::Filler | Sem::AmPm(_) | Sem::Cue(_) | Sem::Request)
            );
        (cued && alone).then(|| (end, vec![Comp::DayOfMonth(d)]))
    }

    /// A day written as a number word before its month: "el cuatro de febrero", "le quatre
    /// février", "il quattro giugno" (not "a March 3 deadline": from two on, and with "de"/"of"
    /// in English).
    fn number_word_day(&self, i: usize, d: u32) -> Option<(usize, Vec<Comp>)> {
        if !(2..=31).contains(&d) || self.t.toks[i].kind != Kind::Word {
            return None;
        }
        let mut j = self.after(i);
        let joined = matches!(self.word(j), "de" | "of");
        if joined {
            j += 1;
        }
        let Some(Sem::Month(m, _)) = self.sem(j) else {
            return None;
        };
        if !joined && self.langs.first().is_none_or(|l| l.lang == lang::Lang::En) {
            return None;
        }
        let mut end = self.after(j);
        let year = self.year_after(&mut end);
        let date = match year {
            Some(y) => ymd(y, m as u32, d),
            None => yearless(self.ctx.today(), m as u32, d),
        };
        Some((end, vec![Comp::Date(date)]))
    }

    /// "the 15th", "15th", German "den 3.", Spanish "el día 3".
    fn day_of_month(&self, i: usize) -> Option<(usize, Vec<Comp>)> {
        let (d, dd, ord) = self.num(i)?;
        if dd > 2 || d == 0 || d > 31 {
            return None;
        }
        let prev = if i > 0 { self.word(i - 1) } else { "" };
        let german = matches!(prev, "den" | "am" | "zum")
            && self.t.is_punct(i + 1, ".")
            && self.t.glued(i + 1);
        if ord {
            return Some((i + 1, vec![Comp::DayOfMonth(d as u8)]));
        }
        if german {
            return Some((i + 2, vec![Comp::DayOfMonth(d as u8)]));
        }
        if prev == "dia" {
            return Some((i + 1, vec![Comp::DayOfMonth(d as u8)]));
        }
        // Spanish "antes del 15", "a más tardar el 5", "vence el 20": a bare day after a
        // cue ending in the article (or the article right after a cue), alone at its end.
        let cued = matches!(prev, "el" | "del")
            && (i.saturating_sub(4)..i).any(|c| {
                matches!(self.sems.get(c).copied().flatten(), Some((n, Sem::Cue(_)))
                    if c + n as usize == i || c + n as usize == i - 1)
            });
        let alone = match self.t.toks.get(i + 1) {
            None => true,
            Some(t) if t.kind == Kind::Punct => {
                matches!(self.word(i + 1), "." | "," | "!" | "?" | ";" | "\n")
                    && !(self.t.glued(i + 2)
                        && self.t.toks.get(i + 2).is_some_and(|n| n.kind == Kind::Num))
            }
            Some(_) => matches!(self.sem(i + 1), Some(Sem::Filler | Sem::Request)),
        };
        if cued && alone {
            return Some((i + 1, vec![Comp::DayOfMonth(d as u8)]));
        }
        None
    }

    /// [next|this|last] Weekday [.] [que viene|pasado].
    fn weekday(&self, i: usize) -> Option<(usize, Vec<Comp>)> {
        let mut j = i;
        let mut rel = match self.sem(i)? {
            Sem::Next => Rel::Next,
            Sem::This => Rel::This,
            Sem::Last => Rel::Last,
            _ => Rel::Plain,
        };
        if rel != Rel::Plain {
            j = self.after(j);
        }
        let Some(Sem::Weekday(wd, _)) = self.sem(j) else {
            return None;
        };
        let mut end = self.after(j);
        if self.t.is_punct(end, ".") && self.t.glued(end) && self.word(j).len() <= 5 {
            end += 1;
        }
        match self.sem(end) {
            Some(Sem::NextPost) => {
                rel = Rel::Next;
                end = self.after(end);
            }
            Some(Sem::Last) if rel == Rel::Plain => {
                rel = Rel::Last;
                end = self.after(end);
            }
            // "the Friday after next" (not "Friday after next week's review").
            _ if rel == Rel::Plain
                && self.word(end) == "after"
                && matches!(self.sem(end + 1), Some(Sem::Next))
                && self
                    .t
                    .toks
                    .get(end + 2)
                    .is_none_or(|t| t.kind == Kind::Punct) =>
            {
                rel = Rel::AfterNext;
                end += 2;
            }
            // "the Friday before Easter", "the Monday after Palm Sunday": that weekday
            // nearest the feast on its side.
            _ if rel == Rel::Plain
                && matches!(self.word(end), "before" | "after")
                && let Some(Sem::Feast(off)) = self.sem(end + 1) =>
            {
                let base = feast(self.ctx.today(), off)?;
                let step = if self.word(end) == "before" { -1 } else { 1 };
                let mut d = base;
                for _ in 0..7 {
                    d = d.checked_add(Duration::days(step))?;
                    if d.weekday().number_days_from_monday() == wd {
                        break;
                    }
                }
                return Some((self.after(end + 1), vec![Comp::Date(Some(d))]));
            }
            // "by Wednesday week": a week after that Wednesday (not "Monday week 12", nor
            // "Friday week of …").
            _ if rel == Rel::Plain
                && self.word(end) == "week"
                && self
                    .t
                    .toks
                    .get(end + 1)
                    .is_none_or(|t| t.kind == Kind::Punct) =>
            {
                rel = Rel::WeekOn;
                end += 1;
            }
            _ => {}
        }
        Some((end, vec![Comp::Weekday(wd, rel)]))
    }

    /// "end of" + month / week / quarter / Q4 / next month / January.
    fn end_of(&self, i: usize) -> Option<(usize, Vec<Comp>)> {
        let mut j = self.after(i);
        for _ in 0..2 {
            if matches!(self.sem(j), Some(Sem::Filler)) {
                j = self.after(j);
            }
        }
        let (shift, k) = match self.sem(j) {
            Some(Sem::Next) => (1, self.after(j)),
            Some(Sem::This) => (0, self.after(j)),
            Some(Sem::Last) => (-1, self.after(j)),
            _ => (0, j),
        };
        let c = match self.sem(k)? {
            Sem::Unit(u) => {
                let p = match u {
                    Unit::Hour | Unit::Fortnight => return None,
                    Unit::Day | Unit::BusinessDay => Period::Day,
                    Unit::Week => Period::Week,
                    Unit::Month => Period::Month,
                    Unit::Quarter => Period::Quarter,
                    Unit::Year => Period::Year,
                };
                Comp::Named(p, shift)
            }
            Sem::WeekRel(n) if shift == 0 => Comp::Named(Period::Week, n as i32),
            Sem::Named(p) => Comp::Named(p, shift),
            Sem::Month(m, _) if shift == 0 => Comp::EndOfMonth(m),
            Sem::Quarter(q) if shift == 0 => Comp::EndOfQuarter(q),
            Sem::RelDay(n) if shift == 0 => {
                // "end of today", "end of tomorrow".
                return Some((
                    self.after(k),
                    vec![Comp::RelDay(n), Comp::Named(Period::Day, 0)],
                ));
            }
            Sem::Weekday(..) if shift == 0 => {
                let (n, mut v) = self.weekday(k)?;
                v.push(Comp::Named(Period::Day, 0));
                return Some((n, v));
            }
            _ => return None,
        };
        Some((self.after(k), vec![c]))
    }

    /// "the beginning of December", "the start of next month": the month's first day (only
    /// a month: "the start of the meeting" is no date).
    fn start_of(&self, i: usize) -> Option<(usize, Vec<Comp>)> {
        let j = self.skip_fill(self.after(i));
        let today = self.ctx.today();
        match self.sem(j)? {
            Sem::Month(m, _) => {
                let mut end = self.after(j);
                let date = match self.year_after(&mut end) {
                    Some(y) => ymd(y, m as u32, 1),
                    None => yearless(today, m as u32, 1),
                };
                Some((end, vec![Comp::Date(date)]))
            }
            Sem::Next if self.sem(self.after(j)) == Some(Sem::Unit(Unit::Month)) => {
                let first = today.replace_day(1).ok();
                let date = first.and_then(|d| add_months(d, 1));
                Some((self.after(self.after(j)), vec![Comp::Date(date)]))
            }
            _ => None,
        }
    }

    /// [within|in] [the next] N unit [from now|ago]; "hace N unit".
    fn span(&self, i: usize) -> Option<(usize, Vec<Comp>)> {
        let mut j = i;
        let mut within = false;
        let mut lead = false;
        let mut ago = false;
        let mut implied = false;
        match self.sem(j) {
            Some(Sem::Within) => {
                within = true;
                lead = true;
                j = self.after(j);
            }
            Some(Sem::In) => {
                lead = true;
                j = self.after(j);
            }
            Some(Sem::Ago) => {
                ago = true;
                lead = true;
                j = self.after(j);
            }
            _ => {}
        }
        // "within the next 3 days", "in den nächsten 3 Tagen", "innerhalb von".
        for _ in 0..2 {
            if let Some(Sem::Filler | Sem::Next) = self.sem(j) {
                j = self.after(j);
            }
        }
        let n = match (self.num(j), self.sem(j)) {
            (Some((v, d, false)), _) if d <= 3 => {
                j += 1;
                v
            }
            (_, Some(Sem::Number(v))) => {
                j = self.after(j);
                v
            }
            // "within the week", "innerhalb einer Woche" (the article is the number).
            _ if within => 1,
            // "the day before the meeting": one, counted back from an event (below).
            (None, Some(Sem::Unit(_)))
                if j == i
                    && i > 0
                    && matches!(self.word(i - 1), "the" | "a" | "am" | "el" | "le" | "il") =>
            {
                implied = true;
                1
            }
            _ => return None,
        };
        // "within ten (10) days": the figure repeated in brackets.
        if self.t.is_punct(j, "(") && self.num(j + 1).is_some() && self.t.is_punct(j + 2, ")") {
            j += 3;
        }
        let (unit, mut end) = match self.sem(j) {
            Some(Sem::Unit(unit)) => (unit, self.after(j)),
            // "within one week of receiving this": the unit, then "of".
            Some(Sem::WeekOf) if self.word(j) == "week" => (Unit::Week, j + 1),
            _ => return None,
        };
        // "a week from Friday", "two weeks from tomorrow": counted from that day.
        if !ago
            && self.sem(end) == Some(Sem::From)
            && unit != Unit::Hour
            && let Some((e, bag)) = self.bag(self.skip_fill(end + 1))
            && bag.span.is_none()
            && bag.time.is_none()
            && let (Some(base), _) = self.resolve(&bag)
        {
            return Some((
                e,
                vec![Comp::Date(span_from(self.ctx, base, n, unit, false))],
            ));
        }
        // "48 hours before your visit on June 3", "7 days prior to the procedure (June 10)":
        // counted back from the date a few words on.
        // Not a duration ("fast for 12 hours before your blood draw").
        let duration = i > 0 && self.word(i - 1) == "for";
        if !(ago || within || duration)
            && (self.listed(end, lang_time_by) || self.word(end) == "prior")
            && let Some((anchor_end, anchor)) = self
                .anchor_after(self.after(end))
                .or_else(|| self.event_anchor(i, self.after(end)))
        {
            let date = match unit {
                Unit::Hour => anchor.checked_sub(Duration::days(i64::from(n / 24))),
                _ => span_from(self.ctx, anchor, n, unit, true),
            };
            return Some((anchor_end, vec![Comp::Before(date)]));
        }
        if implied {
            return None;
        }
        match self.sem(end) {
            Some(Sem::FromNow) => {
                end = self.after(end);
                lead = true;
            }
            // "within 2 weeks of today": counted from the received day, as without it.
            _ if self.word(end) == "of" && self.sem(end + 1) == Some(Sem::RelDay(0)) => {
                end = self.after(end + 1);
            }
            Some(Sem::Ago) => {
                end = self.after(end);
                ago = true;
                lead = true;
            }
            // "within 30 days of the statement date", "within 90 days after service": counted
            // from a day the message does not give ("of this notice", "of receipt" is now).
            _ if matches!(self.word(end), "of" | "after")
                && !(end + 1..(end + 5).min(self.t.len()))
                    .any(|k| matches!(self.word(k), "this" | "receipt" | "now")) =>
            {
                return None;
            }
            _ => {}
        }
        // "You have 10 days to reply", "customers have 30 days from today to return it",
        // "tiene 5 días para": a span one has in which to act is a limit.
        // Not one's own time ("I have 2 days to finish my thesis", "we have 2 weeks to go").
        let own = (i >= 2 && matches!(self.word(i - 2), "i" | "we"))
            || (self.word(end) == "to" && self.word(end + 1) == "go");
        // "a deadline of 10 business days", "eine Frist von 14 Tagen", "dispone de un plazo
        // de 10 días hábiles": the limit noun's length is a span from now as well.
        let noun_of = i >= 2
            && matches!(self.word(i - 1), "of" | "von" | "de")
            && (matches!(self.sem(i - 2), Some(Sem::Cue(Cue::Noun)))
                || matches!(self.word(i - 2), "dispone" | "disponen" | "dispones"));
        if !ago
            && !own
            && i > 0
            && (noun_of
                || (matches!(
                    self.word(i - 1),
                    "have"
                        | "has"
                        | "get"
                        | "got"
                        | "tienes"
                        | "tiene"
                        | "tienen"
                        | "haben"
                        | "hast"
                        | "avez"
                        | "disposez"
                        | "ha"
                        | "hai"
                        | "avete"
                ) && (lead
                    || matches!(self.word(end), "to" | "para" | "zeit" | "pour" | "per"))))
        {
            lead = true;
            within = true;
        }
        if !lead || n == 0 || n > 400 {
            return None;
        }
        Some((
            end,
            vec![Comp::Span {
                n,
                unit,
                within,
                ago,
            }],
        ))
    }

    /// The first date within a few words from `k` in its sentence ("your visit on June 3"):
    /// (the token after it, its date).
    fn anchor_after(&self, k: usize) -> Option<(usize, Date)> {
        for j in k..(k + 8).min(self.t.len()) {
            if [".", "!", "?", ";", "\n"]
                .iter()
                .any(|c| self.t.is_punct(j, c))
            {
                return None;
            }
            if let Some((end, bag)) = self.bag(j)
                && bag.span.is_none()
                && !bag.before
                && let (Some(d), _) = self.resolve(&bag)
            {
                // "a week before the Dec 15 due date": the named limit is the date itself.
                if matches!(self.sem(self.skip_fill(end)), Some(Sem::Cue(Cue::Noun))) {
                    return None;
                }
                return Some((end, d));
            }
        }
        None
    }

    /// "two days before the hearing", "the day before the meeting": an event named with no
    /// date in its own sentence, dated where the message says when it is ("Your hearing is
    /// on the 14th", "The committee meets Thursday 11 January"): the same word (or its
    /// stem: "meets", "meeting") with a date after it in its sentence. `span` is the span's
    /// first token, `k` the token after "before".
    fn event_anchor(&self, span: usize, k: usize) -> Option<(usize, Date)> {
        let mut k = k;
        for _ in 0..2 {
            if matches!(
                self.word(k),
                "to" | "the"
                    | "your"
                    | "our"
                    | "their"
                    | "my"
                    | "this"
                    | "that"
                    | "der"
                    | "dem"
                    | "die"
                    | "ihrer"
                    | "ihrem"
                    | "de"
                    | "la"
                    | "el"
                    | "su"
                    | "le"
                    | "du"
                    | "votre"
                    | "il"
                    | "della"
                    | "del"
                    | "het"
                    | "uw"
                    | "o"
                    | "a"
                    | "do"
                    | "da"
            ) {
                k += 1;
            }
        }
        let noun_at = |k: usize| {
            self.t.toks.get(k).is_some_and(|t| t.kind == Kind::Word)
                // A word that names a thing ("the hearing", "your move-in"), not a date's or a
                // limit's ("the deadline", "the end of the month").
                && !matches!(
                    self.sem(k),
                    Some(
                        Sem::Cue(_)
                            | Sem::Block(_)
                            | Sem::Filler
                            | Sem::Weekday(..)
                            | Sem::Month(..)
                            | Sem::Unit(_)
                            | Sem::Named(_)
                            | Sem::RelDay(_)
                            | Sem::WeekRel(_)
                            | Sem::EndOf
                            | Sem::Quarter(_)
                            | Sem::TimeWord(_)
                            | Sem::Next
                            | Sem::This
                            | Sem::Last
                    )
                )
                && self.word(k).len() >= 4
        };
        if !noun_at(k) {
            return None;
        }
        // "the zoning hearing": the last of two words.
        let noun = if noun_at(k + 1) { k + 1 } else { k };
        let w = self.word(noun);
        let stem = |x: &str| {
            let common = w.bytes().zip(x.bytes()).take_while(|(a, b)| a == b).count();
            common >= 4 && common + 3 >= w.len().min(x.len())
        };
        if self.in_event.replace(true) {
            return None;
        }
        // The nearest mention before the span, then after the noun; not one whose date would
        // be this span ("We'll call you the day before the appointment").
        let start = (0..span)
            .rev()
            .find(|&c| {
                [".", "!", "?", ";", "\n"]
                    .iter()
                    .any(|p| self.t.is_punct(c, p))
            })
            .unwrap_or(0);
        let mentions = (0..start).rev().chain(noun + 1..self.t.len());
        let found = mentions
            .filter(|&c| {
                self.t.toks[c].kind == Kind::Word
                    && (stem(self.word(c))
                        || (self.sem(noun) == Some(Sem::Meeting)
                            && self.sem(c) == Some(Sem::Meeting)))
            })
            .find_map(|c| self.anchor_after(c + 1))
            .map(|(_, d)| (noun + 1, d));
        self.in_event.set(false);
        found
    }

    /// 2pm, 2:30 pm, 14:00, 17 Uhr, 14.30 Uhr, 17h, noon, "at 3" — with a zone after it.
    fn time(&self, i: usize) -> Option<(usize, Vec<Comp>)> {
        let (mut end, mut h, mut m) = if let Some(Sem::TimeWord(h) | Sem::Meal(h)) = self.sem(i) {
            (self.after(i), h, 0)
        } else if let Some((n, h, m)) = self.clock(i) {
            (n, h, m)
        } else if let Some((v, 4, false)) = self.num(i)
            && matches!(self.word(i + 1), "hrs" | "hr" | "h")
            && v / 100 <= 23
            && v % 100 <= 59
            && i > 0
            && (self.listed(i - 1, lang_time_by) || self.listed(i - 1, lang_time_lead))
        {
            // "by 1700 hrs", "at 0930h": a 24-hour time written as four digits.
            (i + 2, (v / 100) as u8, (v % 100) as u8)
        } else {
            let (v, d, ord) = self.num(i)?;
            if ord || d > 2 || v > 24 {
                return None;
            }
            let mut end = i + 1;
            let mut m = 0;
            // "14.30 Uhr"
            if self.t.is_punct(end, ".")
                && self.t.glued(end)
                && let Some((mm, 2, _)) = self.num(end + 1)
                && matches!(self.sem(end + 2), Some(Sem::Oclock))
            {
                m = mm.min(59) as u8;
                end += 2;
            }
            // "12 noon", "12 midnight": the word marks the hour.
            let mut marked = matches!(self.sem(end), Some(Sem::AmPm(_) | Sem::Oclock))
                || (v == 12 && matches!(self.sem(end), Some(Sem::TimeWord(12 | 24))));
            let led = i > 0 && self.listed(i - 1, lang_time_lead);
            // Right after a cue, a bare hour with a zone or a day after it is a time: "by 2
            // CT tmrw", "before 5 on the 19th" (not "by 5" alone, which may be an amount; nor
            // after a preference: "ideally 2 CT tmrw" counts scans).
            if !marked
                && !led
                && i > 0
                && matches!(
                    self.sems.get(i - 1).copied().flatten(),
                    Some((1, Sem::Cue(Cue::Adjacent)))
                )
                // "cut the price by 5 on Monday" is an amount.
                && !(i.saturating_sub(5)..i - 1).any(|k| self.sem(k) == Some(Sem::Change))
            {
                let k = self.skip_fill(end);
                // "can u get me the slides by 4?": an hour that ends its sentence after "by"
                // or "before" (not "2 by 4", "divide by 4.5").
                let ends_sentence = match self.t.toks.get(end) {
                    None => true,
                    // "need it by 4 pls", "by 3 at the latest"
                    Some(_)
                        if matches!(self.sem(end), Some(Sem::Request | Sem::Cue(Cue::Latest))) =>
                    {
                        true
                    }
                    Some(t) => {
                        t.kind == Kind::Punct
                            && matches!(self.word(end), "?" | "!" | "\n" | ".")
                            && !(self.t.glued(end + 1)
                                && self
                                    .t
                                    .toks
                                    .get(end + 1)
                                    .is_some_and(|n| n.kind == Kind::Num))
                    }
                };
                let hour_at_end = ends_sentence
                    && (1..=12).contains(&v)
                    && self.listed(i - 1, lang_time_by)
                    && !(i >= 2 && self.t.toks[i - 2].kind == Kind::Num);
                marked = hour_at_end
                    || matches!(self.sem(end), Some(Sem::Zone(_)))
                    || (self
                        .t
                        .toks
                        .get(k)
                        .is_some_and(|t| t.kind != Kind::Num || t.ordinal)
                        && self
                            .comp(k)
                            .is_some_and(|(_, c)| c.iter().any(|c| c.is_date())));
                if marked {
                    // The hour is not am/pm-marked: keep it bare for the rule below.
                    let mut h = v as u8;
                    if (1..=7).contains(&h) {
                        h += 12;
                    }
                    return self.zone_after(end, h, 0);
                }
            }
            if !marked && !led {
                return None;
            }
            let mut h = v as u8;
            // "at 3" with no am/pm in business mail is the afternoon.
            if !marked && (1..=7).contains(&h) {
                h += 12;
            }
            (end, h, m)
        };
        match self.sem(end) {
            Some(Sem::AmPm(pm)) => {
                if h > 12 {
                    return None;
                }
                if pm && h < 12 {
                    h += 12;
                } else if !pm && h == 12 {
                    h = 0;
                }
                end = self.after(end);
            }
            Some(Sem::Oclock) => end = self.after(end),
            // "12:00 noon", "12 midnight".
            Some(Sem::TimeWord(w @ (12 | 24))) if h == 12 && m == 0 => {
                h = w;
                end = self.after(end);
            }
            _ => {}
        }
        if h == 24 {
            // "midnight", "24:00": the last minute of the day it ends.
            h = 23;
            m = 59;
        }
        self.zone_after(end, h, m)
    }

    /// A time and the zone at `end` after it, if any.
    fn zone_after(&self, mut end: usize, h: u8, m: u8) -> Option<(usize, Vec<Comp>)> {
        // "23:59 (UTC+01:00)": a zone in parentheses.
        if self.t.is_punct(end, "(")
            && let Some((n, out)) = self.zone_after(end + 1, h, m)
            && out.len() == 2
            && self.t.is_punct(n, ")")
        {
            return Some((n + 1, out));
        }
        let mut out = vec![Comp::Time(h, m)];
        let z = match self.sem(end) {
            // "UTC+2", "GMT-5": an offset from UTC written after it.
            Some(Sem::Zone(Zone::Fixed(0))) => {
                let n = self.after(end);
                Some(
                    self.offset(n, true)
                        .unwrap_or((n, ZoneAt::Zone(Zone::Fixed(0)))),
                )
            }
            Some(Sem::Zone(z)) => Some((self.after(end), ZoneAt::Zone(z))),
            _ => self
                .offset(end, false)
                .or_else(|| self.word_zone(end).map(|z| (end + 1, ZoneAt::Zone(z)))),
        };
        if let Some((n, z)) = z {
            out.push(Comp::Zone(z));
            end = n;
        }
        Some((end, out))
    }

    /// "09:30 IST", "18:00 WEST": a zone abbreviation that is also a word ("ist", "west",
    /// "wet"), so no table lists it; it counts written with a capital right after a time (not
    /// "Cat", "Art", "Eat", which start sentences too often).
    fn word_zone(&self, i: usize) -> Option<Zone> {
        const ZONES: &[(&str, i16)] = &[
            ("ist", 330),
            ("west", 60),
            ("wet", 0),
            ("msk", 180),
            ("sast", 120),
            ("brt", -180),
            ("kst", 540),
            ("ict", 420),
            ("pht", 480),
            // "09:00 Z": Zulu, UTC.
            ("z", 0),
        ];
        let t = self.t.toks.get(i)?;
        if t.kind != Kind::Word || !t.capital {
            return None;
        }
        let w = self.word(i);
        ZONES
            .iter()
            .find(|(n, _)| *n == w)
            .map(|&(_, m)| Zone::Fixed(m))
    }

    /// The date and time a bag names, in the operator's zone.
    fn resolve(&self, b: &Bag) -> (Option<Date>, Option<Time>) {
        let ctx = self.ctx;
        let today = ctx.today();
        let date: Option<Date> = if let Some(d) = b.date {
            d
        } else if let Some(d) = b.dom {
            day_of_month(today, d)
        } else if let Some(n) = b.relday {
            today.checked_add(Duration::days(n as i64))
        } else if let Some((wd, rel)) = b.weekday {
            Some(weekday(today, wd, rel, b.week))
        } else if let Some((n, unit, _, ago)) = b.span {
            return (span(ctx, n, unit, ago), None);
        } else if let Some(m) = b.end_month {
            yearless(today, m as u32, 1).map(last_of_month)
        } else if let Some(q) = b.end_quarter {
            let end = quarter_end(today.year(), q);
            // "end of Q1" said in May is next year's.
            if end.is_some_and(|e| e < today - Duration::days(31)) {
                quarter_end(today.year() + 1, q)
            } else {
                end
            }
        } else if let Some((p, shift)) = b.named {
            period_end(today, p, shift)
        } else if let Some(w) = b.week {
            // "by next week": its Monday; "this week": its Friday.
            let monday = week_monday(today) + Duration::weeks(w as i64);
            Some(if w == 0 {
                monday + Duration::days(4)
            } else {
                monday
            })
        } else {
            None
        };
        let Some((h, m)) = b.time else {
            return (date, None);
        };
        let Ok(t) = Time::from_hms(h, m, 0) else {
            return (date, None);
        };
        let (Some(d), Some(z)) = (date, b.zone) else {
            return (date, Some(t));
        };
        // A stated zone: the operator's date and time of that instant.
        let at = PrimitiveDateTime::new(d, t);
        let off = match z {
            ZoneAt::Offset(min) => UtcOffset::from_whole_seconds(min * 60).ok(),
            ZoneAt::Zone(Zone::Fixed(min)) => UtcOffset::from_whole_seconds(min as i32 * 60).ok(),
            ZoneAt::Zone(Zone::Named(name)) => named_offset(name, at),
        };
        match off {
            Some(off) => {
                let instant = at.assume_offset(off);
                let local = instant.to_offset(ctx.offset_at(instant));
                (Some(local.date()), Some(local.time()))
            }
            None => (Some(d), Some(t)),
        }
    }
}

/// An English sender who writes dates day first, by what the message says of them: a
/// .uk/.ie/.au/.nz/.in address, a +44/+353/+61/+64/+91 phone number, a British, Irish,
/// Australian or New Zealand place or country written with its capital, or another
/// numeric date that reads only day first (25/12). A date that reads only month first
/// (12/25) says otherwise. One pass over the tokens, at the first ambiguous date.
fn sender_day_first(t: &Tokens) -> bool {
    let mut dmy = false;
    for i in 0..t.len() {
        let tok = t.toks[i];
        match tok.kind {
            Kind::Word => {
                let w = t.norm(i);
                let tld = matches!(w, "uk" | "ie" | "au" | "nz" | "in")
                    && t.is_punct(i.wrapping_sub(1), ".")
                    && t.glued(i)
                    && t.glued(i - 1)
                    && t.toks[i - 2].kind == Kind::Word
                    && !(t.glued(i + 1) && t.toks[i + 1].kind != Kind::Punct);
                // Where the sender is, not where someone goes ("flying to London").
                let goes = i > 0 && matches!(t.norm(i - 1), "to" | "via" | "visit" | "visiting");
                let place = tok.capital
                    && !goes
                    && matches!(
                        w,
                        "uk" | "britain"
                            | "england"
                            | "scotland"
                            | "wales"
                            | "ireland"
                            | "australia"
                            | "london"
                            | "edinburgh"
                            | "glasgow"
                            | "manchester"
                            | "birmingham"
                            | "leeds"
                            | "liverpool"
                            | "cardiff"
                            | "belfast"
                            | "aberdeen"
                            | "dublin"
                            | "galway"
                            | "cork"
                            | "limerick"
                            | "waterford"
                            | "kilkenny"
                            | "zealand"
                            | "perth"
                            | "adelaide"
                            | "hobart"
                            | "dunedin"
                            | "bristol"
                            | "sheffield"
                            | "nottingham"
                            | "newcastle"
                            | "queensland"
                            | "tasmania"
                            | "nsw"
                            | "qld"
                            | "sydney"
                            | "melbourne"
                            | "brisbane"
                            | "canberra"
                            | "auckland"
                            | "christchurch"
                    );
                dmy |= tld || place;
            }
            Kind::Num => {
                // "+44 20 7946 0958", "+61 (0)2 9999 0000", "0061 2 9999 0000".
                let code = matches!(tok.value, 44 | 353 | 61 | 64 | 91);
                let plus = t.is_punct(i.wrapping_sub(1), "+") && t.glued(i);
                let zeros = t.norm(i).starts_with("00")
                    && t.norm(i).trim_start_matches('0').len() + 2 == t.norm(i).len();
                let more = t.toks.get(i + 1).is_some_and(|n| n.kind == Kind::Num)
                    || (t.is_punct(i + 1, "(")
                        && t.toks
                            .get(i + 2)
                            .is_some_and(|n| n.kind == Kind::Num && n.value == 0));
                if code && (plus || zeros) && more {
                    dmy = true;
                }
                // A numeric date that reads one way only.
                if tok.digits <= 2
                    && (t.is_punct(i + 1, "/") || t.is_punct(i + 1, "."))
                    && t.glued(i + 1)
                    && t.glued(i + 2)
                    && let Some(b) = t.toks.get(i + 2).filter(|b| {
                        // "13.5 hours" is no date: a dotted one only with its year.
                        let year = t.is_punct(i + 3, t.norm(i + 1)) && t.glued(i + 3);
                        let more = t.glued(i + 3)
                            && (t.toks[i + 3].kind != Kind::Punct
                                || t.is_punct(i + 3, t.norm(i + 1)));
                        b.kind == Kind::Num
                            && b.digits <= 2
                            && (year || (t.is_punct(i + 1, "/") && !more))
                    })
                {
                    let (a, b) = (tok.value, b.value);
                    if (13..=31).contains(&a) && (1..=12).contains(&b) {
                        dmy = true;
                    } else if (1..=12).contains(&a) && (13..=31).contains(&b) {
                        return false;
                    }
                }
            }
            Kind::Punct => {}
        }
    }
    dmy
}

/// A range's end is not before its start: "between Monday and Wednesday" said on a Tuesday
/// ends on the Wednesday after that Monday.
fn later_end(start: Option<Date>, end: Option<Date>) -> Option<Date> {
    match (start, end) {
        (Some(a), Some(b)) if b < a && a - b < Duration::days(7) => Some(b + Duration::weeks(1)),
        _ => end,
    }
}

fn lang_to(l: &LangData) -> &'static [&'static str] {
    l.range_to
}
fn lang_and(l: &LangData) -> &'static [&'static str] {
    l.range_and
}
fn lang_time_lead(l: &LangData) -> &'static [&'static str] {
    l.time_lead
}
fn lang_time_by(l: &LangData) -> &'static [&'static str] {
    l.time_by
}

fn shape_of(b: &Bag) -> Shape {
    let past_week = b.week.is_some_and(|w| w < 0);
    Shape {
        within: b.span.is_some_and(|s| s.2) || b.before,
        span: b.span.is_some(),
        range: b.week_of,
        named: b.named.is_some() || b.end_month.is_some() || b.end_quarter.is_some(),
        relday: b.relday.is_some(),
        past: b.span.is_some_and(|s| s.3)
            || b.weekday.is_some_and(|(_, r)| r == Rel::Last)
            || b.relday.is_some_and(|n| n < 0)
            || past_week,
        bare_time: b.bare_time,
        timed_by_cue: false,
        narrowed: false,
    }
}

/// The offset of IANA zone `name` at local time `at`.
fn named_offset(name: &str, at: PrimitiveDateTime) -> Option<UtcOffset> {
    let tz = jiff::tz::TimeZone::get(name).ok()?;
    let civil = jiff::civil::DateTime::new(
        i16::try_from(at.year()).ok()?,
        at.month() as i8,
        at.day() as i8,
        at.hour() as i8,
        at.minute() as i8,
        0,
        0,
    )
    .ok()?;
    let zoned = civil.to_zoned(tz).ok()?;
    UtcOffset::from_whole_seconds(zoned.offset().seconds()).ok()
}

fn ymd(y: i32, m: u32, d: u32) -> Option<Date> {
    let month = Month::try_from(u8::try_from(m).ok()?).ok()?;
    Date::from_calendar_date(y, month, u8::try_from(d).ok()?).ok()
}

/// A day and month with no year: the first such date no more than two months back, so
/// "by 3 March" said in June is next year's, and "was due 11/15" said on 11/28 is this
/// year's (past, a report) rather than next year's.
pub fn yearless(today: Date, m: u32, d: u32) -> Option<Date> {
    let floor = today - Duration::days(62);
    (-1..=1)
        .filter_map(|k| ymd(today.year() + k, m, d))
        .find(|c| *c >= floor)
}

/// "the 15th": the first such day from today on.
fn day_of_month(today: Date, d: u8) -> Option<Date> {
    let mut y = today.year();
    let mut m = today.month();
    for _ in 0..13 {
        if let Ok(date) = Date::from_calendar_date(y, m, d)
            && date >= today
        {
            return Some(date);
        }
        if m == Month::December {
            y += 1;
        }
        m = m.next();
    }
    None
}

fn week_monday(d: Date) -> Date {
    d - Duration::days(d.weekday().number_days_from_monday() as i64)
}

fn weekday(today: Date, wd: u8, rel: Rel, week: Option<i8>) -> Date {
    if let Some(w) = week {
        return week_monday(today) + Duration::weeks(w as i64) + Duration::days(wd as i64);
    }
    let have = today.weekday().number_days_from_monday() as i64;
    let ahead = (wd as i64 - have).rem_euclid(7);
    match rel {
        Rel::Plain | Rel::This => today + Duration::days(ahead),
        Rel::Next => today + Duration::days(if ahead == 0 { 7 } else { ahead }),
        Rel::AfterNext => today + Duration::days(if ahead == 0 { 14 } else { ahead + 7 }),
        Rel::WeekOn => today + Duration::days(ahead + 7),
        Rel::Last => today - Duration::days(if ahead == 0 { 7 } else { 7 - ahead }),
    }
}

/// The `n`th weekday `wd` (a working day when none) from `first` to `last` (0: the last
/// one).
fn nth_day_of(first: Date, last: Date, wd: Option<u8>, n: u8) -> Option<Date> {
    let fits = |d: Date| {
        let w = d.weekday().number_days_from_monday();
        wd.map_or(w < 5, |wd| w == wd)
    };
    if n == 0 {
        let mut d = last;
        while !fits(d) {
            d = d.previous_day()?;
        }
        return Some(d);
    }
    let mut d = first;
    let mut seen = 0;
    while d <= last {
        if fits(d) {
            seen += 1;
            if seen == n {
                return Some(d);
            }
        }
        d = d.next_day()?;
    }
    None
}

fn last_of_month(d: Date) -> Date {
    let (y, m) = (d.year(), d.month());
    let next = if m == Month::December {
        Date::from_calendar_date(y + 1, Month::January, 1)
    } else {
        Date::from_calendar_date(y, m.next(), 1)
    };
    next.map(|n| n - Duration::days(1)).unwrap_or(d)
}

fn add_months(d: Date, n: i32) -> Option<Date> {
    let total = d.year() * 12 + (d.month() as i32 - 1) + n;
    let (y, m) = (total.div_euclid(12), total.rem_euclid(12) + 1);
    let first = ymd(y, m as u32, 1)?;
    let last = last_of_month(first).day();
    ymd(y, m as u32, d.day().min(last) as u32)
}

/// Easter Sunday of year `y` (the Gregorian computus).
fn easter(y: i32) -> Option<Date> {
    let (a, b, c) = (y % 19, y / 100, y % 100);
    let (d, e) = (b / 4, b % 4);
    let g = (b - (b + 8) / 25 + 1) / 3;
    let h = (19 * a + b - d - g + 15) % 30;
    let l = (32 + 2 * e + 2 * (c / 4) - h - c % 4) % 7;
    let m = (a + 11 * h + 22 * l) / 451;
    let n = h + l - 7 * m + 114;
    ymd(y, (n / 31) as u32, (n % 31 + 1) as u32)
}

/// The feast `off` days from Easter Sunday, this year's or, once past, next year's.
fn feast(today: Date, off: i8) -> Option<Date> {
    let at = |y: i32| easter(y)?.checked_add(Duration::days(i64::from(off)));
    let d = at(today.year())?;
    if d < today {
        at(today.year() + 1)
    } else {
        Some(d)
    }
}

fn quarter_end(y: i32, q: u8) -> Option<Date> {
    let m = (q as u32).clamp(1, 4) * 3;
    ymd(y, m, 1).map(last_of_month)
}

fn period_end(today: Date, p: Period, shift: i32) -> Option<Date> {
    match p {
        Period::Day => today.checked_add(Duration::days(shift as i64)),
        // The working week ends on Friday; said at the weekend, the coming one. "Next week"
        // is the following Monday–Sunday week even when said on a Sunday.
        Period::Week => {
            let friday = week_monday(today) + Duration::days(4);
            let friday = if today > friday && shift == 0 {
                friday + Duration::weeks(1)
            } else {
                friday
            };
            Some(friday + Duration::weeks(shift as i64))
        }
        Period::Month => {
            add_months(ymd(today.year(), today.month() as u32, 1)?, shift).map(last_of_month)
        }
        Period::Quarter => {
            let q = (today.month() as u8 - 1) / 3 + 1;
            let total = (q as i32 - 1) + shift;
            quarter_end(
                today.year() + total.div_euclid(4),
                (total.rem_euclid(4) + 1) as u8,
            )
        }
        Period::Year => ymd(today.year() + shift, 12, 31),
    }
}

fn span(ctx: &Context, n: u32, unit: Unit, ago: bool) -> Option<Date> {
    span_from(ctx, ctx.today(), n, unit, ago)
}

/// `n` units after (or before) `today`; hours count from the received time.
fn span_from(ctx: &Context, today: Date, n: u32, unit: Unit, ago: bool) -> Option<Date> {
    let k = if ago { -(n as i64) } else { n as i64 };
    match unit {
        Unit::Hour => Some((ctx.received + Duration::hours(k)).date()),
        Unit::Day => today.checked_add(Duration::days(k)),
        Unit::BusinessDay => {
            let mut d = today;
            let mut left = n;
            while left > 0 {
                d = if ago {
                    d.previous_day()?
                } else {
                    d.next_day()?
                };
                if !matches!(d.weekday(), Weekday::Saturday | Weekday::Sunday) {
                    left -= 1;
                }
            }
            Some(d)
        }
        Unit::Week => today.checked_add(Duration::weeks(k)),
        Unit::Fortnight => today.checked_add(Duration::weeks(2 * k)),
        Unit::Month => add_months(today, k as i32),
        Unit::Quarter => add_months(today, 3 * k as i32),
        Unit::Year => add_months(today, 12 * k as i32),
    }
}
