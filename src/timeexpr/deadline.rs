//! Which time expressions are deadlines: a date is a deadline when the recipient is asked to
//! act by it. It needs a cue — right before it ("by", "before", "bis", "antes del"), earlier
//! in its sentence ("due", "the deadline for comments is", "Frist", "plazo"), or right after
//! it ("at the latest", "spätestens") — or it is a span that is itself a limit ("within 48
//! hours"), or a span, range, named end or "tomorrow" in a sentence that asks for something,
//! or the first date of a sentence that opens with an order ("Submit the form Monday").
//! It is not a deadline when it is past (a report: "was due by 11/15"), in quoted history or
//! a signature, negated or cancelled ("no need to reply by Friday anymore", "ignore the
//! deadline"; a negation stops at "but"), a meeting's time, the old date of a moved
//! deadline, or an amount ("went down by 1/3").

use std::borrow::Cow;
use std::ops::Range;

use time::{Date, Time};

use super::grammar::{self, Parser};
use super::lang::{Block, Cue, Lang, Sem};
use super::lexer::{Kind, Tokens};
use super::{Context, detect_tokens, languages, lexer};

/// Longest phrase kept, in characters (the end of the sentence is kept).
const MAX_PHRASE: usize = 100;

/// A deadline found in a text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deadline {
    /// The date in the operator's zone; none when the words name an impossible date.
    pub due: Option<Date>,
    /// The time, when one is stated.
    pub time: Option<Time>,
    /// The sentence it is in, up to the end of the date words (whitespace collapsed, at
    /// most 100 characters from the end): what the brief and the console show.
    pub phrase: String,
    /// The cue and the date words as written: "by 2pm ET Friday".
    pub expr: String,
    /// The language the message was read in.
    pub lang: Lang,
    /// Bytes of the text the date words take.
    pub span: Range<usize>,
}

/// The deadlines in `text`, in order.
pub fn deadlines(text: &str, ctx: &Context) -> Vec<Deadline> {
    let live = live_text(text);
    let toks = lexer::lex(&live);
    let lang = detect_tokens(&toks);
    let langs = languages(lang);
    let sems = grammar::annotate(&toks, &langs);
    let p = Parser {
        t: &toks,
        sems: &sems,
        ctx,
        langs: &langs,
        sender_dmy: Default::default(),
        in_event: Default::default(),
        full: matches!(live, Cow::Owned(_)).then_some(text),
    };
    let exprs = p.scan();
    let due_cells = due_cells(&p, &live);
    // The cues of times alone ("before noon"): where each starts.
    let bare_time_cues: Vec<usize> = exprs
        .iter()
        .filter(|e| e.shape.bare_time)
        .filter_map(|e| p.time_by_before(e.from))
        .collect();
    let today = ctx.today();
    let mut out: Vec<Deadline> = Vec::new();
    // A sentence's cue word ("the deadline for comments is …") goes to its first date only.
    let mut clause_cue_used: Option<usize> = None;
    let mut imperative_used: Option<usize> = None;
    // Per deadline in `out`: its sentence's start, and whether its sentence asks nothing and
    // tells a lapse ("expires", "runs out") or a third party's wish ("client wants to see it").
    let mut how: Vec<(usize, bool)> = Vec::new();
    for (n, e) in exprs.iter().enumerate() {
        // "next week, by Wednesday at the latest": the weekday after it is the date.
        if e.shape.narrowed {
            continue;
        }
        let (s, t) = sentence(&toks, &sems, e.from);
        let phrases = phrases(&p, s, t);
        let has = |want: fn(Sem) -> bool| phrases.iter().any(|(_, _, x)| x.is_some_and(want));
        // A negation reaches the dates of its own side of a "but" ("no need to send the
        // outline by Monday anymore, but the report is due May 3").
        // Nor the consequence after "or" ("pick up by 12/1 or the order is cancelled").
        // Nor over a spaced dash that opens another clause ("Ignore the reminder about Nov 30
        // — the date to pay is Dec 2").
        // A correction ("scratch that, fri is fine", "Korrektur: Freitag") strikes what was
        // said before it and gives the first date after it.
        // With a date after it, it is no negation of the dates before it either.
        let is_correction = |a: usize| {
            ((matches!(toks.norm(a), "scratch" | "strike") && toks.norm(a + 1) == "that")
                || matches!(toks.norm(a), "correction" | "korrektur" | "correccion"))
                && exprs.iter().any(|x| x.from > a && x.from < t)
        };
        let correction = phrases
            .iter()
            .map(|(a, _, _)| *a)
            .rfind(|&a| a < e.from && is_correction(a))
            .filter(|&a| !exprs[..n].iter().any(|x| x.from > a));
        let negated = phrases.iter().any(|(a, _, x)| {
            !is_correction(*a)
                && matches!(x, Some(Sem::Block(Block::Negation | Block::Absence)))
                && !phrases.iter().any(|(c, _, y)| {
                    ((*y == Some(Sem::Contrast) || clause_dash(&toks, *c))
                        && ((*a < *c && *c < e.from) || (e.from < *c && *c < *a)))
                        || (e.to <= *c
                            && *c < *a
                            && matches!(
                                toks.norm(*c),
                                "or" | "otherwise" | "sonst" | "sinon" | "altrimenti"
                            ))
                })
        });
        if negated || e.shape.past {
            continue;
        }
        // A report of the past ("was due", "thanks for sending") covers the dates after it
        // in its clause, not a request after a colon or a comma ("the invoice that was due
        // Nov 15: please pay by Monday").
        let clause_start = phrases
            .iter()
            // Also a spaced dash ("Last year's form was due March 1 — this year please submit
            // it by March 17").
            .filter(|(a, _, _)| {
                *a < e.from
                    && (toks.is_punct(*a, ":") || toks.is_punct(*a, ",") || clause_dash(&toks, *a))
            })
            .map(|(a, _, _)| *a)
            .next_back()
            .unwrap_or(s);
        if phrases.iter().any(|(a, _, x)| {
            *a >= clause_start && *a < e.from && *x == Some(Sem::Block(Block::Past))
        }) {
            continue;
        }
        // "Last year's deadline was Jan 31", "die Frist war der 3. Mai": a limit told in the
        // past tense (not one moved: "the deadline was extended to Friday").
        if !has(|x| x == Sem::Moved)
            && phrases.windows(2).any(|w| {
                w[0].0 >= clause_start
                    && w[1].0 < e.from
                    && w[0].2 == Some(Sem::Cue(Cue::Noun))
                    && matches!(
                        toks.norm(w[1].0),
                        "was" | "were" | "war" | "waren" | "fue" | "era"
                    )
            })
        {
            continue;
        }
        // A subject and a verb in the past tense ("we finished the deck by Friday", "your
        // claim was processed within 5 business days"), with no request or limit word after
        // it ("we noticed an error and need it back by Friday").
        let past_verb = phrases
            .iter()
            .enumerate()
            .filter(|(_, (a, _, _))| *a >= clause_start && *a < e.from)
            .find(|(k, (a, _, _))| {
                matches!(
                    toks.norm(*a),
                    "i" | "we" | "you" | "they" | "he" | "she" | "was" | "were"
                ) && phrases.get(k + 1).is_some_and(|&(v, _, x)| {
                    let w = toks.norm(v);
                    // Not a request reported ("you were asked to return it by Friday").
                    x.is_none()
                        && w.len() > 4
                        && w.ends_with("ed")
                        && !matches!(
                            w,
                            "asked"
                                | "told"
                                | "reminded"
                                | "requested"
                                | "informed"
                                | "notified"
                                | "instructed"
                                | "scheduled"
                                | "expected"
                                | "advised"
                        )
                })
            })
            .map(|(k, _)| k);
        if let Some(k) = past_verb
            && !phrases[k..].iter().any(|(a, _, x)| {
                *a < e.from
                    && matches!(
                        x,
                        Some(Sem::Request | Sem::Cue(Cue::Due | Cue::Lapse | Cue::Noun | Cue::Latest))
                    )
            })
            // "You suggested Dec 3; that works, please sign by then": a date told back, then
            // asked by.
            && !refers_back(&p, &phrases, e, exprs.get(n + 1).map(|x| x.from), t)
        {
            continue;
        }
        if e.date.is_some_and(|d| d < today) {
            continue;
        }
        // "I'll send the quote by Monday", "your refund will be issued by Aug 30": the
        // sender's act or what will happen. Not "we'll need it by Friday" (a request
        // between), nor a condition after it ("service will be cut off unless you pay by
        // Aug 24").
        let promised = phrases
            .iter()
            .rposition(|(a, _, x)| *a >= clause_start && *a < e.from && *x == Some(Sem::Promise))
            .is_some_and(|k| {
                // "Please confirm you will attend by Friday": asked about the future.
                !phrases[..k]
                    .iter()
                    .any(|(a, _, x)| *a >= clause_start && *x == Some(Sem::Request))
                    && !phrases[k..].iter().any(|(a, _, x)| {
                        *a < e.from
                            && (*x == Some(Sem::Request)
                                || matches!(
                                    toks.norm(*a),
                                    "if" | "unless" | "so" | "or" | "but" | "once" | "when"
                                )
                                // "and" opens another clause with its own subject or request
                                // ("I'll send it and you sign by Friday"); between two verbs
                                // it keeps the promise's ("we can print and ship by May 12").
                                || (toks.norm(*a) == "and"
                                    && (p.sem(a + 1) == Some(Sem::Request)
                                        || matches!(
                                            toks.norm(a + 1),
                                            "i" | "we" | "you" | "u" | "they" | "he" | "she"
                                        ))))
                    })
            });
        let before: Vec<&(usize, usize, Option<Sem>)> =
            phrases.iter().filter(|(a, _, _)| *a < e.from).collect();
        // The phrase right before the date, over fillers.
        let mut k = before.len();
        // "before your July 6 start date": a possessive between the cue and its date.
        while k > 0
            && (matches!(before[k - 1].2, Some(Sem::Filler))
                || toks.is_punct(before[k - 1].0, ":")
                // "até ao dia 15 de maio", "antes del día 5".
                || (k == before.len() && toks.norm(before[k - 1].0) == "dia")
                || (k > 1
                    && matches!(before[k - 2].2, Some(Sem::Cue(Cue::Adjacent | Cue::Prefer)))
                    && matches!(toks.norm(before[k - 1].0), "your" | "our" | "my" | "their")))
        {
            k -= 1;
        }
        let adjacent = k.checked_sub(1).map(|k| before[k]);
        // "before your appointment on 12/30", "by the recital on Friday": a cue reaches over
        // the event it names to that event's date.
        // Also with no word between the event and its date ("before your visit next Tuesday").
        let over_event = || {
            let det = |j: usize| {
                matches!(
                    toks.norm(before[j].0),
                    "your"
                        | "the"
                        | "our"
                        | "my"
                        | "their"
                        | "ihrem"
                        | "ihrer"
                        | "dem"
                        | "der"
                        | "su"
                        | "tu"
                        | "la"
                        | "el"
                )
            };
            let mut j = k;
            while j > 0
                && k - j < 2
                && !det(j - 1)
                && toks.toks[before[j - 1].0].kind == Kind::Word
                && (matches!(before[j - 1].2, None | Some(Sem::Meeting | Sem::Meal(_)))
                    // A verb as the event's noun after an article or a word ("the lock",
                    // "build lock").
                    || (before[j - 1].2 == Some(Sem::Act)
                        && j >= 2
                        && (det(j - 2) || before[j - 2].2.is_none())))
            {
                j -= 1;
            }
            if j == k || j == 0 {
                return None;
            }
            // "before build lock at 04:00 UTC on Sep 4", "ahead of go-live on Friday": "before"
            // reaches over a short event with no article too ("by" would take a means: "by
            // phone on Monday"); not when the sentence asks by a date of its own after it
            // ("Ahead of Luna's dental on the 20th, please return the consent by Feb 18").
            // Only in an order ("submit your fixes before build lock …"; not "Before launch on
            // Dec 10 we will send the build").
            let c = before[j - 1];
            if matches!(c.2, Some(Sem::Cue(Cue::Adjacent)))
                && matches!(toks.norm(c.0), "before" | "prior" | "ahead")
                && exprs.get(n + 1).is_none_or(|x| x.from >= t)
                && before[..j - 1]
                    .iter()
                    .any(|x| matches!(x.2, Some(Sem::Request | Sem::Act)))
            {
                return Some(c);
            }
            if j < 2 {
                return None;
            }
            let det = det(j - 1);
            let c = before[j - 2];
            (det && matches!(c.2, Some(Sem::Cue(Cue::Adjacent | Cue::Prefer)))).then_some(c)
        };
        // A span's lead right before a day is a limit too ("entro venerdì", "binnen
        // Freitag").
        // A preference ("we'd prefer Dec 10 for the signed copy", "ideally Friday, please") is
        // a limit for a thing or an act asked, not a day chosen for a meeting ("I'd prefer
        // Friday for the call").
        let preference = |c: &(usize, usize, Option<Sem>)| c.2 == Some(Sem::Cue(Cue::Prefer));
        // "bis Gründonnerstag (10.4.)", "by our open day (May 3)": a cue before a name whose
        // date follows it in brackets.
        let bracketed = || {
            if k < 2 || !toks.is_punct(before[k - 1].0, "(") || !toks.is_punct(e.to, ")") {
                return None;
            }
            let mut j = k - 1;
            while j > 0
                && k - 1 - j < 3
                && matches!(before[j - 1].2, None | Some(Sem::Filler))
                && toks.toks[before[j - 1].0].kind == Kind::Word
            {
                j -= 1;
            }
            (j < k - 1 && j > 0)
                .then(|| before[j - 1])
                .filter(|c| matches!(c.2, Some(Sem::Cue(Cue::Adjacent | Cue::Prefer))))
        };
        let adjacent_cue = adjacent
            .filter(|x| matches!(x.2, Some(Sem::Cue(_) | Sem::Within)))
            .filter(|x| {
                !preference(x)
                    || (!has(|y| matches!(y, Sem::Meeting | Sem::Meal(_)))
                        && (has(|y| matches!(y, Sem::Request | Sem::Act))
                            || toks.norm(e.to) == "for"))
            })
            .or_else(over_event)
            .or_else(bracketed);
        if adjacent.is_some_and(|x| x.2 == Some(Sem::Block(Block::Strike))) {
            continue;
        }
        // "Das Büro ist bis zum 5. Dezember geschlossen", "la oficina estará cerrada hasta el
        // 5": how long a place stays closed or open, not a limit (unless something is asked
        // or due, or it is a window: "inscriptions ouvertes jusqu'au 5").
        if adjacent_cue.is_some_and(|c| {
            matches!(
                toks.norm(c.0),
                "until"
                    | "till"
                    | "hasta"
                    | "bis"
                    | "ate"
                    | "tot"
                    | "jusqu'au"
                    | "jusqu'a"
                    | "fino"
            )
        }) && has(|x| x == Sem::Hours)
            && !has(|x| {
                matches!(
                    x,
                    Sem::Request
                        | Sem::Window
                        | Sem::Cue(Cue::Due | Cue::Lapse | Cue::Noun | Cue::Latest)
                )
            })
        {
            continue;
        }
        // "members renew by the 1st of each month", "Beiträge bis zum 15. jedes Monats": a
        // standing rule that recurs, not one limit.
        let mut r = e.to;
        if matches!(
            toks.norm(r),
            "of" | "de" | "di" | "van" | "des" | "du" | "del" | "do" | "da"
        ) {
            r += 1;
        }
        if matches!(
            toks.norm(r),
            "each"
                | "every"
                | "cada"
                | "chaque"
                | "ogni"
                | "elke"
                | "iedere"
                | "jedes"
                | "jeden"
                | "jeder"
                | "jede"
        ) {
            // The rule's limit word is spent on it ("rent is due on the 1st of each month, and
            // late fees apply after the 5th": the 5th is no limit of its own).
            if before.iter().any(|x| {
                matches!(
                    x.2,
                    Some(Sem::Cue(Cue::Due | Cue::Lapse | Cue::Noun | Cue::Latest))
                )
            }) {
                clause_cue_used = Some(s);
            }
            continue;
        }
        // "your year-end statements", "the month-end report": a named end written as one
        // hyphenated word before a noun names the thing, not a limit (unless a cue is right
        // before it: "by month-end").
        if e.shape.named
            && adjacent_cue.is_none()
            && (e.from..e.to).any(|k| toks.is_punct(k, "-") && toks.glued(k) && toks.glued(k + 1))
            && toks.toks.get(e.to).is_some_and(|t| t.kind == Kind::Word)
            && p.sem(e.to).is_none()
        {
            continue;
        }
        // "moved from Friday to Monday": Friday is the old date; "to Monday" is the new one.
        let moved = has(|x| x == Sem::Moved);
        let moved_from = moved && adjacent.is_some_and(|x| x.2 == Some(Sem::From));
        if moved_from && !e.shape.range {
            continue;
        }
        // "went down by 1/3": an amount, not a date (only a bare N/M can be a fraction).
        // "cut the backlog by 1/2 this week": the N/M may have more date words after it.
        let fraction_like = toks.is_punct(e.from + 1, "/")
            && toks
                .toks
                .get(e.from + 2)
                .is_some_and(|t| t.kind == Kind::Num)
            && !(toks.is_punct(e.from + 3, "/") && toks.glued(e.from + 3));
        // Only "by" measures an amount: "pick yours up before 12/14" is a date.
        if let Some(c) = adjacent_cue
            .filter(|_| fraction_like)
            .filter(|c| !matches!(toks.norm(c.0), "before" | "until" | "till" | "prior"))
        {
            let idx = before.iter().position(|x| std::ptr::eq(*x, c)).unwrap_or(0);
            if before[idx.saturating_sub(4)..idx]
                .iter()
                .any(|x| x.2 == Some(Sem::Change))
            {
                continue;
            }
        }
        // "from Friday to Monday" reads as a range whose end is the new date.
        let moved_to = moved_from
            || (moved
                && adjacent.is_some_and(|x| {
                    matches!(toks.norm(x.0), "to" | "auf" | "al" | "a" | "naar" | "para")
                }));
        // A later sentence that moves the deadline said before it: "actually make it
        // Wednesday", "she moved it to Nov 10", "ach, lieber Dienstag", "mejor el martes". The
        // new date takes the old one's place (and is a deadline only when that one was).
        let retime = {
            // "moved it", "pushed the deadline" (the one just named; not "the budget deadline").
            let pronoun = phrases.iter().any(|(a, _, _)| {
                *a >= clause_start
                    && *a < e.from
                    && matches!(toks.norm(*a), "it" | "that" | "es" | "lo")
            }) || phrases.windows(2).any(|w| {
                w[0].0 >= clause_start
                    && w[1].0 < e.from
                    && matches!(toks.norm(w[0].0), "the" | "die" | "el" | "la" | "le" | "il")
                    && w[1].2 == Some(Sem::Cue(Cue::Noun))
            });
            let said = adjacent.is_some_and(|x| {
                let a = x.0;
                // A correction: "oops, I meant fri", "ich meinte Freitag", "quise decir el
                // viernes".
                matches!(
                    toks.norm(a),
                    "lieber" | "mejor" | "plutot" | "meant" | "meinte"
                ) || (toks.norm(a) == "decir" && a >= 1 && toks.norm(a - 1) == "quise")
                    || (matches!(toks.norm(a), "it" | "that")
                        && a >= 1
                        && toks.norm(a - 1) == "make"
                        // "Can we make it Dec 7?": a question that proposes the date.
                        && ((a >= 3
                            && matches!(toks.norm(a - 2), "we" | "i")
                            && matches!(toks.norm(a - 3), "can" | "could"))
                            || a < 2
                            || !matches!(
                                toks.norm(a - 2),
                                "can't"
                                    | "cant"
                                    | "cannot"
                                    | "can"
                                    | "could"
                                    | "couldn't"
                                    | "won't"
                                    | "will"
                                    | "to"
                                    | "not"
                                    | "i"
                                    | "we"
                                    | "you"
                                    | "they"
                                    | "don't"
                                    | "didn't"
                            )))
            });
            // "can u do it in 2 days?⏎me: monday ok?⏎Tom: monday's fine — send it then": a
            // counter-proposal taken and asked about replaces the ask before it.
            let counter = || {
                taken(&p, &phrases, e)
                    && refers_back(&p, &phrases, e, exprs.get(n + 1).map(|x| x.from), t)
            };
            (said || correction.is_some() || (moved_to && pronoun) || counter())
                && out
                    .last()
                    // Said before the clause (a chat line may run on: "by thu⏎ana: oops, I
                    // meant fri").
                    .is_some_and(|d| d.span.end <= toks.toks[clause_start].start && d.due != e.date)
        };
        // "The Friday deadline has been postponed": the date being moved is the old one.
        let moved_after = phrases
            .iter()
            .filter(|(a, _, _)| *a >= e.to)
            .take(6)
            // "due 12/18 or the visit will be rescheduled": the "or" clause is a consequence.
            .take_while(|(a, _, _)| {
                !toks.is_punct(*a, ",") && !matches!(toks.norm(*a), "or" | "otherwise" | "else")
            })
            .any(|x| x.2 == Some(Sem::Moved));
        if moved_after && !moved_to {
            continue;
        }
        // "I can't get it done by Tuesday, can I send it Thursday instead?": a later date of
        // the sentence said to replace another is the one that stands.
        if exprs[n + 1..]
            .iter()
            .take_while(|x| x.from < t)
            .any(|x| p.sem(x.to) == Some(Sem::Instead))
        {
            continue;
        }
        // "The date to pay is Dec 2", "la fecha para pagar es el 2": a day named for an act.
        let date_for_act = before.windows(3).any(|w| {
            matches!(toks.norm(w[0].0), "date" | "day" | "fecha" | "dia")
                && matches!(toks.norm(w[1].0), "to" | "para")
                && (w[2].2 == Some(Sem::Act)
                    // A Spanish infinitive: "para pagar", "para entregar".
                    || (toks.norm(w[1].0) == "para"
                        && ["ar", "er", "ir"].iter().any(|x| toks.norm(w[2].0).ends_with(x))))
        });
        // "Revisions are due Tuesday (the office is closed Monday)": an aside in parentheses
        // is a clause of its own; a cue before it does not reach a date inside it.
        let aside = before
            .iter()
            .rposition(|x| toks.is_punct(x.0, "("))
            .filter(|&k| !before[k..].iter().any(|x| toks.is_punct(x.0, ")")))
            .unwrap_or(0);
        let clause_cue = clause_cue_used != Some(s)
            && (date_for_act
                || before[aside..].iter().any(|x| {
                    matches!(
                        x.2,
                        Some(Sem::Cue(Cue::Due | Cue::Lapse | Cue::Noun | Cue::Latest))
                    )
                }));
        // A limit noun with a date of its own right after it is that date's ("applications
        // open Jan 7, deadline Feb 1").
        let next_from = exprs.get(n + 1).map_or(usize::MAX, |x| x.from);
        let after: Option<usize> = phrases
            .iter()
            .filter(|(a, _, _)| *a >= e.to)
            .take(4)
            // A table's next cell is another column ("| Fri 12/18 | Last day before the break |").
            .take_while(|(a, _, _)| !toks.is_punct(*a, "|"))
            .find(|x| matches!(x.2, Some(Sem::Cue(Cue::Latest | Cue::Noun))))
            .filter(|x| {
                !(x.2 == Some(Sem::Cue(Cue::Noun)) && next_from >= x.1 && next_from <= x.1 + 2)
            })
            .map(|x| x.1);
        // "the broker needs the invoice today by 3 pm, otherwise storage charges start
        // tomorrow": after "otherwise" comes what follows if nobody acts, not another limit
        // (unless it asks or cues its own: "otherwise please pay the fee by Friday").
        if adjacent_cue.is_none()
            && after.is_none()
            && phrases
                .iter()
                .rposition(|x| x.0 < e.from && x.2 == Some(Sem::Else))
                .is_some_and(|k| {
                    !phrases[k..].iter().any(|x| {
                        x.0 < e.from && matches!(x.2, Some(Sem::Request | Sem::Act | Sem::Cue(_)))
                    })
                })
        {
            continue;
        }
        // "I'll need until Nov 9 for my part": a need right before "until" asks for time
        // (the sender's), not for a thing by a date ("I need the keys until Friday" has one).
        if adjacent_cue.is_some_and(|c| {
            // The cue right before the date, not one reached over an event.
            adjacent.is_some_and(|a| std::ptr::eq(a, c))
                && matches!(toks.norm(c.0), "until" | "till" | "til")
                && k >= 2
                && before[k - 2].2 == Some(Sem::Request)
                && before[k - 2].1 == c.0
                // Not a window's permission ("accepted until", "can be booked until").
                && matches!(toks.norm(before[k - 2].0), "need" | "needs")
        }) {
            continue;
        }
        // "Cutoff for docs for the Jan 5 sailing: Jan 3, 5pm": a date between an article and
        // a plain noun names the thing (that day's sailing), it sets no limit.
        if adjacent_cue.is_none()
            && after.is_none()
            && !e.shape.range
            && e.from > s
            && matches!(
                toks.norm(e.from - 1),
                "the" | "your" | "our" | "my" | "their"
            )
            && toks.toks.get(e.to).is_some_and(|t| t.kind == Kind::Word)
            && p.sem(e.to).is_none()
            && e.to < t
        {
            continue;
        }
        // The imperative: the sentence opens with an action verb, maybe after "please", or
        // after a short label and a colon ("HR: submit …", "First thing tomorrow: send …").
        let label_end = phrases
            .iter()
            .take(5)
            .position(|(a, _, _)| toks.is_punct(*a, ":"))
            .map_or(0, |k| k + 1);
        // "cant make it sat, can u drop the gear off fri?": an order opening the date's
        // clause after a comma.
        let comma_clause = phrases
            .iter()
            .rposition(|(a, _, _)| *a < e.from && toks.is_punct(*a, ","))
            .map(|k| k + 1)
            // "Hola Carla, ¿podrías mandarme …?": over the question's opening mark.
            .map(|k| {
                if phrases
                    .get(k)
                    .is_some_and(|x| toks.is_punct(x.0, "¿") || toks.is_punct(x.0, "¡"))
                {
                    k + 1
                } else {
                    k
                }
            })
            // "…, so could you send …", "…, and please sign …": over a joining word.
            .map(|k| {
                let joined = phrases.get(k).is_some_and(|x| {
                    matches!(toks.norm(x.0), "so" | "and" | "but" | "then" | "also")
                }) && phrases
                    .get(k + 1)
                    .is_some_and(|x| x.2 == Some(Sem::Request));
                if joined { k + 1 } else { k }
            })
            // Only an asked one ("…, please send …", "…, can u drop …"), not "Thanks again,
            // send my best to the team Friday".
            .filter(|&k| phrases.get(k).is_some_and(|x| x.2 == Some(Sem::Request)))
            .unwrap_or(0);
        // A list item's marker: "1) Sign the estimate (Aug 20)", "• Pay the deposit …".
        let marker_end = match phrases.first() {
            Some(&(a, _, _))
                if toks.toks[a].kind == Kind::Num
                    && toks.toks[a].digits <= 2
                    && (toks.is_punct(a + 1, ")") || toks.is_punct(a + 1, ".")) =>
            {
                2
            }
            Some(&(a, _, _))
                if ["-", "•", "*", "–", "·", "▪", "○"]
                    .iter()
                    .any(|m| toks.is_punct(a, m)) =>
            {
                1
            }
            _ => 0,
        };
        // "On Monday, please send the deck", "First thing Monday, send …": a day opening the
        // sentence, then a comma and an order. Not the day of an appointment ("On Dec 3, sign
        // in at the front desk for your appointment").
        let fronted_order = toks.is_punct(e.to, ",")
            && phrases
                .iter()
                .filter(|x| x.0 < e.from)
                .all(|x| x.2 == Some(Sem::Filler))
            && {
                // The phrases after the date (they are in order: a slice, no copy).
                let rest = &phrases[phrases.partition_point(|x| x.0 <= e.to)..];
                opens_with_order(&p, rest, usize::MAX)
                    && !rest
                        .iter()
                        .any(|x| matches!(x.2, Some(Sem::Meeting | Sem::Meal(_))))
            };
        // "Coach Ray: parents, bring the waivers Thursday", "Team, send …": the people
        // addressed, one word and a comma, then the order (not "Thanks, …" or "Also, …").
        let vocative_end = phrases
            .get(label_end)
            .filter(|x| {
                x.1 == x.0 + 1
                    && x.2.is_none()
                    && toks.toks[x.0].kind == Kind::Word
                    && !matches!(
                        toks.norm(x.0),
                        "thanks"
                            | "thx"
                            | "ok"
                            | "okay"
                            | "sorry"
                            | "also"
                            | "then"
                            | "so"
                            | "yes"
                            | "no"
                            | "well"
                            | "however"
                            | "meanwhile"
                            | "otherwise"
                            | "first"
                            | "finally"
                    )
            })
            .filter(|_| {
                phrases
                    .get(label_end + 1)
                    .is_some_and(|x| toks.is_punct(x.0, ","))
            })
            .map_or(0, |_| label_end + 2);
        // "All kits must be back Friday", "forms need to be returned April 11": an obligation
        // on a thing, in the passive or with a place, is an order too (not on a person: "we
        // need to be at the venue Friday" is where to be).
        let obligation = phrases.windows(3).any(|w| {
            let w = [w[1], w[2], w[0]];
            w[2].2 != Some(Sem::Filler)
                && !matches!(
                    toks.norm(w[2].0),
                    "i" | "we" | "you" | "they" | "he" | "she" | "everyone" | "everybody" | "u"
                )
                && w[0].0 >= clause_start
                && w[1].0 < e.from
                && w[0].2 == Some(Sem::Request)
                && matches!(
                    toks.norm(w[0].0),
                    "must" | "need" | "needs" | "have" | "has"
                )
                && (toks.norm(w[1].0) == "be"
                    || (toks.norm(w[1].0) == "to" && toks.norm(w[1].0 + 1) == "be"))
                // "must be cleared for the fire drill Friday": the day is the event's.
                && !phrases
                    .iter()
                    .any(|x| x.0 > w[1].0 && x.0 < e.from && toks.norm(x.0) == "for")
                // "The office must be closed Friday": a place's hours, nothing handed in.
                && {
                    let be = if toks.norm(w[1].0) == "be" { w[1].0 } else { w[1].0 + 1 };
                    p.sem(be + 1) != Some(Sem::Hours)
                }
        });
        let imperative = fronted_order
            || obligation
            || [0, label_end, comma_clause, marker_end, vocative_end]
                .iter()
                .any(|&k| opens_with_order(&p, &phrases[k.min(phrases.len())..], e.from));
        // A request in the clause after a ";" asks about a span or window before it
        // ("entries are taken Dec 1 - Dec 9; please send yours in time").
        let asks_next = toks.is_punct(t, ";") && {
            let (_, t2) = sentence(&toks, &sems, t + 1);
            // Not a clause with a date of its own ("we fly out tomorrow; send the docs
            // tonight").
            exprs.get(n + 1).is_none_or(|x| x.from >= t2) && {
                let next = self::phrases(&p, t + 1, t2);
                // "…; submit your elections in that window": an order opening the clause too.
                next.iter().any(|x| x.2 == Some(Sem::Request))
                    || opens_with_order(&p, &next, usize::MAX)
            }
        };
        // "openings Jul 19–23 - pick a slot online": an order after a dash that follows the
        // date asks about it (a window, span or day named before it).
        let asks_dash = phrases
            .iter()
            .find(|(a, _, _)| *a >= e.to)
            .filter(|(a, _, _)| ["-", "–", "—"].iter().any(|d| toks.is_punct(*a, d)))
            .is_some_and(|&(d, _, _)| {
                let rest = &phrases[phrases.partition_point(|x| x.0 <= d)..];
                exprs.get(n + 1).is_none_or(|x| x.from >= t)
                    && (rest.iter().any(|x| x.2 == Some(Sem::Request))
                        || opens_with_order(&p, rest, usize::MAX))
            });
        // "Camp runs July 26–30", "the fair is held Jun 2-4": an event's days, not a
        // window to act in (unless a window word says so).
        let event_days = e.shape.range
            && adjacent.is_some_and(|x| {
                matches!(
                    toks.norm(x.0),
                    "runs" | "run" | "lasts" | "held" | "dauert" | "dura"
                )
            });
        // "Abstract registration: January 21": a label naming an act, then its date.
        let labelled_act = k > 0
            && k < before.len()
            && toks.is_punct(before[k].0, ":")
            && before[..k].iter().any(|x| x.2 == Some(Sem::Window));
        // "Ihre Lizenz läuft am 15.05. ab": the split verb "läuft … ab" closes on the date.
        let split_expiry = toks.norm(e.to) == "ab"
            && (e.to + 1 >= t || toks.toks[e.to + 1].kind == Kind::Punct)
            && before
                .iter()
                .any(|x| matches!(toks.norm(x.0), "lauft" | "laufen" | "laeuft"));
        // "Vote for the club board July 6-9": an order whose verb takes "for" asks about a
        // window or span (not a plain date: "Return for your follow-up on Friday").
        let order_for = [0, label_end].iter().any(|&k| {
            phrases[k.min(phrases.len())..]
                .iter()
                .find(|(_, _, x)| !matches!(x, Some(Sem::Request | Sem::Filler)))
                .is_some_and(|&(_, m, x)| x == Some(Sem::Act) && toks.norm(m) == "for")
        });
        // "Submit hours for the period Dec 13-17", "ticket holders, exchange your passes
        // between Oct 30 and Nov 2": an order opening the sentence or a clause of it, whatever
        // its object, asks about a window named in it.
        let order_window = e.shape.range
            && phrases
                .iter()
                .enumerate()
                .filter(|(k, (a, _, _))| {
                    *a < e.from
                        && (*k == 0
                            || *k == label_end
                            || toks.is_punct(phrases[k - 1].0, ",")
                            || toks.is_punct(phrases[k - 1].0, ":"))
                })
                .any(|(k, _)| {
                    phrases[k..]
                        .iter()
                        .find(|(_, _, x)| !matches!(x, Some(Sem::Request | Sem::Filler)))
                        .is_some_and(|&(a, _, x)| x == Some(Sem::Act) && a < e.from)
                });
        // "Akkreditierungen sind vom 30.10. bis 2.11. möglich": a window the recipient may act
        // in, said after it.
        let possible_after = e.shape.range && toks.norm(e.to) == "moglich";
        let asks = has(|x| x == Sem::Request) || imperative || order_for || order_window;
        // "confirm tomorrow's pickup": a possessive day names a thing, not a limit (unless a
        // limit noun follows: "Friday's deadline").
        // Also with its time after it ("confirm tomorrow's 8:40 visit").
        // Not a unit's ("in a week's time").
        let possessive = (e.from..e.to)
            .any(|k| toks.norm(k).ends_with("'s") && !matches!(p.sem(k), Some(Sem::Unit(_))))
            && after.is_none();
        // The imperative cues one date of a sentence with no cue word ("Send the proofs next
        // Tuesday"), not a second one ("Submit it Monday for pickup Friday").
        let imperative_cue = imperative
            && !possessive
            && imperative_used != Some(s)
            && !adjacent.is_some_and(|x| matches!(x.2, Some(Sem::Attr | Sem::From)))
            // A cue that only times the day ("bring the dog in Monday so the vet can see
            // her before noon") is no cue of another date.
            // Nor one inside the date's own words ("the Friday before Easter"), nor a strike
            // of a date after it ("send it Monday, not Tuesday").
            && !phrases.iter().any(|(a, _, x)| {
                let struck_after = *x == Some(Sem::Block(Block::Strike)) && *a >= e.to;
                matches!(x, Some(Sem::Cue(_) | Sem::Block(_)))
                    && !bare_time_cues.contains(a)
                    && !(e.from..e.to).contains(a)
                    && !struck_after
            });
        // A headline naming a period's end and what is due at it: "EOM for expense reports".
        // Also after a sender's label ("Northline Freight: COB Thursday for the rate sheet").
        let headline = e.shape.named
            && [0, label_end].iter().any(|&k| {
                phrases[k.min(phrases.len())..]
                    .iter()
                    .find(|(_, _, x)| !matches!(x, Some(Sem::Request | Sem::Filler)))
                    .is_some_and(|x| x.0 == e.from)
            })
            && phrases
                .iter()
                .find(|(a, _, _)| *a >= e.to)
                .is_some_and(|x| x.2 == Some(Sem::Attr) && toks.norm(x.0) == "for");
        // "Mon-Fri", "Monday through Friday": the working week every week (opening hours,
        // "walk-ins accepted Mon-Fri"), not a window that ends.
        let weekly = e.shape.range
            && matches!(p.sem(e.from), Some(Sem::Weekday(0, _)))
            && (e.from + 1..e.to)
                .rev()
                .find_map(|k| match p.sem(k) {
                    Some(Sem::Weekday(w, _)) => Some(w),
                    _ => None,
                })
                .is_some_and(|w| w >= 4)
            // "Mon–Fri next week" is one week's window.
            && !(e.from..e.to).any(|k| {
                matches!(
                    p.sem(k),
                    Some(Sem::WeekRel(_) | Sem::Next | Sem::This | Sem::NextPost)
                )
            });
        // "Applications accepted through Jan 15": a window open from now to its end.
        let open_end = adjacent.is_some_and(|x| matches!(toks.norm(x.0), "through" | "thru"));
        // "send your availability for the week of July 12": the object's dates.
        let object_for =
            adjacent.is_some_and(|x| x.2 == Some(Sem::Attr) && toks.norm(x.0) == "for");
        // "Returns can be dropped off Tue through Thu", "se pueden entregar del 1 al 5": a
        // window the recipient may act in (not "can be reached", a way to contact).
        let permitted = possible_after
            || e.shape.range
                && phrases.windows(3).any(|w| {
                    w[2].0 < e.from
                        && w[0].0 >= clause_start
                        && ((matches!(toks.norm(w[0].0), "can" | "may")
                            && toks.norm(w[1].0) == "be"
                            && toks.norm(w[2].0).ends_with("ed")
                            && !matches!(
                                toks.norm(w[2].0),
                                "reached" | "contacted" | "called" | "found" | "used"
                            ))
                            || (toks.norm(w[0].0) == "se"
                                && matches!(toks.norm(w[1].0), "puede" | "pueden")))
                })
            // "las alegaciones se presentan del 9 al 13", "le domande si presentano dal 3 al
            // 7": what is handed in, and when.
            || e.shape.range
                && phrases.windows(2).any(|w| {
                    w[1].0 < e.from
                        && w[0].0 >= clause_start
                        && matches!(toks.norm(w[0].0), "se" | "si")
                        && matches!(
                            toks.norm(w[1].0),
                            "presentan"
                                | "presenta"
                                | "entregan"
                                | "entrega"
                                | "reciben"
                                | "recibe"
                                | "admiten"
                                | "aceptan"
                                | "presentano"
                                | "consegnano"
                                | "ricevono"
                                | "accettano"
                        )
                });
        // "Enjoy the weekend, and please send …": the weekend is a limit only after a cue
        // ("by the weekend").
        let weekend = e.shape.named && toks.norm(e.to - 1) == "weekend";
        let loose = !weekly
            && !weekend
            && !event_days
            && !possessive
            && !object_for
            && (e.shape.span || e.shape.range || e.shape.named || e.shape.relday || open_end);
        // A window of an act the recipient does ("open enrollment runs June 21 - June 25",
        // "sign-ups: 6/21 - 6/25"): its end is the limit.
        let window = ((e.shape.range || open_end) && !weekly && has(|x| x == Sem::Window))
            // "Registration ends Friday", "the grace period ends on 8/27".
            || (adjacent.is_some_and(|x| x.2 == Some(Sem::Ends)) && has(|x| x == Sem::Window));
        // "We'll remind you before the Jan 15 due date", "we will close enrollment Dec 31,
        // so sign up before then": a limit named in the promise is still one.
        let back = || refers_back(&p, &phrases, e, exprs.get(n + 1).map(|x| x.from), t);
        // "Your hold will be kept until Aug 20": what is held lapses then.
        let held = adjacent_cue.is_some_and(|c| matches!(toks.norm(c.0), "until" | "till" | "til"));
        if promised && !(after.is_some() || clause_cue || window || held || back()) {
            continue;
        }
        // "the vessel was moved from Dec 18 to Dec 22": a move is a limit only when what moves
        // is one (a limit word, an act, a request or "it" in its clause), not a sailing's or
        // a delivery's date.
        let moved_limit = moved_to
            && phrases.iter().any(|(a, _, x)| {
                *a >= clause_start
                    && *a < e.from
                    && (matches!(
                        x,
                        Some(Sem::Cue(_) | Sem::Request | Sem::Window | Sem::Act | Sem::Back)
                    ) || matches!(toks.norm(*a), "it" | "that" | "es" | "lo" | "la" | "le"))
            });
        let cued = adjacent_cue.is_some()
            || e.shape.within
            || moved_limit
            || after.is_some()
            || clause_cue
            || ((asks || asks_next || asks_dash || permitted) && loose)
            || labelled_act
            || split_expiry
            || window
            // "Send the proofs next Tuesday", "Mande las fotos el próximo martes".
            || imperative_cue
            || headline
            // "| Parking permit renewal | Nov 12 |" under a "| Item | Due |" header.
            || due_cells.iter().any(|r| r.contains(&e.from))
            // "Outstanding items from your side:⏎- signed disclosure forms: 06/08".
            || under_list_heading(&p, s)
            // "Pricing ends 8/20 - send your entry by then at the latest".
            || back()
            || retime;
        // "by 3pm" alone is on the received day only when the sentence asks for something
        // ("need the link by 3pm"; not a status line such as "hotfix by 15:30").
        // Nor opening hours ("bitte beachten: wir haben bis 17 Uhr geöffnet").
        if !cued || (e.shape.bare_time && (!asks || has(|x| x == Sem::Hours))) {
            continue;
        }
        // A meeting's time is when to be there: only a cue right before the date makes it
        // a limit ("can we meet before Friday").
        // A meeting word after the date beyond a comma is another clause's ("finish the
        // deck tomorrow, I'm presenting Friday").
        let comma_after = phrases
            .iter()
            .find(|(a, _, _)| *a >= e.to && toks.is_punct(*a, ","))
            .map_or(usize::MAX, |x| x.0);
        // A meal right after "by"/"before" is a time of day ("tmrw before lunch").
        // A meeting after the date with a date of its own is that date's ("reply today to
        // confirm the appointment on Tuesday").
        // Its date follows it over fillers only ("on", "am", "del"), not after a cue ("confirm
        // tomorrow's session by 5pm today").
        let own_date = |a: usize, m: usize| {
            a >= e.to
                && exprs.iter().any(|x| {
                    x.from >= m
                        && x.from < t
                        && (m..x.from).all(|k| {
                            p.sem(k) == Some(Sem::Filler)
                                || (p.sem(k).is_none()
                                    && toks.toks[k].kind == Kind::Word
                                    && toks.norm(k).len() <= 3)
                        })
                })
        };
        // "per our call, pls send the bond application in 3 business days": a meeting in a
        // clause before an asked one is what the ask refers to, not the date's event.
        let asked_from = phrases
            .get(comma_clause)
            .filter(|_| comma_clause > 0)
            .map_or(0, |x| x.0);
        let meeting_at = phrases.iter().position(|(a, m, x)| {
            *a < comma_after
                && *a >= asked_from
                && !own_date(*a, *m)
                && match x {
                    Some(Sem::Meeting) => true,
                    Some(Sem::Meal(_)) => p.time_by_before(*a).is_none(),
                    _ => false,
                }
        });
        // "The deadline to book your appointment is Friday", "Friday is the last day to
        // book a session": the limit noun comes first and the meeting is what it is for.
        // A label before a colon is another clause ("Interview slots: the deadline to
        // reply is Friday").
        let label = phrases
            .iter()
            .rposition(|(a, _, _)| *a < e.from && toks.is_punct(*a, ":"))
            .map_or(0, |k| k + 1);
        let noun_first = (after.is_some() || clause_cue)
            && phrases[label..]
                .iter()
                .find(|(a, _, x)| match x {
                    Some(Sem::Cue(Cue::Noun) | Sem::Meeting) => true,
                    Some(Sem::Meal(_)) => p.time_by_before(*a).is_none(),
                    _ => false,
                })
                .is_some_and(|x| x.2 == Some(Sem::Cue(Cue::Noun)));
        // "confirm your appointment slot in 3 business days or it will be released": a
        // consequence right after the date makes it the limit of the act on the meeting.
        let consequence = phrases
            .iter()
            .find(|(a, _, _)| *a >= e.to && !toks.is_punct(*a, ","))
            // What is lost, not another act ("… tomorrow or call to reschedule", "or you may be
            // charged" keep the meeting's time).
            .is_some_and(|&(a, _, _)| {
                let lost = matches!(
                    toks.norm(a + 1),
                    "it" | "this"
                        | "that"
                        | "the"
                        | "your"
                        | "we"
                        | "they"
                        | "es"
                        | "se"
                        | "le"
                        | "la"
                        | "el"
                        | "lo"
                        | "il"
                        | "su"
                        | "wir"
                        | "der"
                        | "die"
                        | "das"
                        | "nous"
                        | "votre"
                );
                let verb_second = matches!(
                    toks.norm(a),
                    "sonst" | "andernfalls" | "ansonsten" | "sinon" | "altrimenti"
                );
                (verb_second
                    || (matches!(toks.norm(a), "or" | "otherwise" | "else" | "o" | "ou") && lost))
                    && toks.toks.get(a + 1).is_some_and(|t| t.kind == Kind::Word)
                    && exprs.get(n + 1).is_none_or(|x| x.from > a + 2)
            });
        // "confírmenos la cita mañana a más tardar", "confirm the visit Friday at the
        // latest": a limit word right after the date limits the act on the meeting.
        let latest_after = after.is_some_and(|x| {
            phrases
                .iter()
                .find(|(a, _, _)| *a >= e.to)
                .is_some_and(|y| y.1 == x && y.2 == Some(Sem::Cue(Cue::Latest)))
        });
        if meeting_at.is_some()
            && !consequence
            && !latest_after
            && adjacent_cue.is_none()
            && !e.shape.within
            && !e.shape.timed_by_cue
            && !noun_first
        {
            continue;
        }
        if adjacent_cue.is_none() && !e.shape.within && !moved_to && after.is_none() && clause_cue {
            clause_cue_used = Some(s);
        }
        if imperative {
            imperative_used = Some(s);
        }
        // "drop it off tomorrow, first thing, so the lab can run it before noon": a time
        // alone later in the sentence of a deadline is that day's.
        if e.shape.bare_time
            && let Some(last) = out.last_mut()
            && last.span.start >= toks.toks[s].start
            && last.due.is_some_and(|d| d > today)
        {
            if last.time.is_none() {
                last.time = e.time;
            }
            continue;
        }
        if retime {
            out.pop();
            how.pop();
        }
        let lapse = !asks
            && ((adjacent_cue.is_none_or(|c| c.2 == Some(Sem::Cue(Cue::Lapse)))
                && has(|x| x == Sem::Cue(Cue::Lapse))
                && !has(|x| matches!(x, Sem::Cue(Cue::Due | Cue::Noun | Cue::Latest))))
                || has(|x| x == Sem::Wish));
        how.push((s, lapse));
        let from_tok = adjacent_cue.map_or(e.from, |c| c.0);
        let end_tok = after.unwrap_or(e.to).max(e.to);
        let start_byte = toks.toks[s].start;
        let end_byte = toks.toks[end_tok - 1].end;
        out.push(Deadline {
            due: e.date,
            time: e.time,
            phrase: clip(&text[start_byte..end_byte]),
            expr: collapse(&text[toks.toks[from_tok].start..toks.toks[e.to - 1].end]),
            lang,
            span: toks.toks[e.from].start..toks.toks[e.to - 1].end,
        });
    }
    // "your prescription runs out March 31. To reorder at this year's price, place your order
    // by 3/20", "can u get the cut to me by weds? client wants to see it before the weekend":
    // a lapse or a wish told next to a limit by an earlier date in another sentence is the
    // reason for that limit, not one of its own.
    let asked: Vec<(usize, Option<Date>)> = how
        .iter()
        .zip(&out)
        .filter(|((_, lapse), _)| !lapse)
        .map(|((s, _), d)| (*s, d.due))
        .collect();
    let keep: Vec<bool> = how
        .iter()
        .zip(&out)
        .map(|(&(s, lapse), d)| {
            !lapse
                || !asked
                    .iter()
                    .any(|&(s2, due)| s2 != s && due.is_some_and(|x| d.due.is_some_and(|y| x < y)))
        })
        .collect();
    let mut keep = keep.into_iter();
    out.retain(|_| keep.next().unwrap_or(true));
    out
}

/// The token ranges of the cells under a table header cell that names a limit ("| Item |
/// Due |", "| Task | Deadline |"): each such cell holds that row's due date.
fn due_cells(p: &Parser<'_>, text: &str) -> Vec<Range<usize>> {
    let toks = p.t;
    let mut out = Vec::new();
    // The due column of the table being read, once its header is seen.
    let mut column: Option<Option<usize>> = None;
    // The same for a table aligned with spaces: the byte column of its due header.
    let mut text_column: Option<usize> = None;
    let mut i = 0;
    while i < toks.len() {
        let mut end = i;
        while end < toks.len() && !toks.is_punct(end, "\n") {
            end += 1;
        }
        if !(i..end).any(|k| toks.is_punct(k, "|")) {
            column = None;
            // "Milestone        Due" over "Deposit          8/20": cells apart by two
            // spaces or more, the due one under its header.
            let line_start = text[..toks.toks.get(i).map_or(0, |t| t.start)]
                .rfind('\n')
                .map_or(0, |n| n + 1);
            let col = |k: usize| toks.toks[k].start - line_start;
            let gap = |k: usize| k + 1 < end && toks.toks[k + 1].start >= toks.toks[k].end + 2;
            let aligned = (i..end).any(gap);
            match text_column {
                _ if !aligned => text_column = None,
                None => {
                    text_column = (i..end)
                        .find(|&k| {
                            matches!(p.sem(k), Some(Sem::Cue(Cue::Due | Cue::Lapse | Cue::Noun)))
                        })
                        .map(col);
                }
                Some(c) => {
                    if let Some(k) = (i..end).find(|&k| col(k) + 4 >= c && col(k) <= c + 4) {
                        let mut e = k;
                        while e < end && !gap(e) {
                            e += 1;
                        }
                        out.push(k..(e + 1).min(end));
                    }
                }
            }
        } else {
            text_column = None;
            // The cells: the tokens between bars ("Item | Due" without outer bars: the
            // line's ends bound its first and last cells).
            let mut cells: Vec<Range<usize>> = Vec::new();
            let first = if toks.is_punct(i, "|") { i + 1 } else { i };
            let mut from = first;
            for k in first..end {
                if toks.is_punct(k, "|") {
                    cells.push(from..k);
                    from = k + 1;
                }
            }
            if from < end {
                cells.push(from..end);
            }
            let cells = cells.into_iter();
            let has_words = (i..end).any(|k| toks.toks[k].kind != Kind::Punct);
            match column {
                None => {
                    // "| Due |", "| Deadline |", "| Return by |".
                    column = Some(cells.clone().position(|c| {
                        c.clone().any(|k| {
                            matches!(p.sem(k), Some(Sem::Cue(Cue::Due | Cue::Lapse | Cue::Noun)))
                        }) || (c.end > c.start
                            && matches!(
                                p.sem(c.end - 1),
                                Some(Sem::Cue(Cue::Adjacent | Cue::Prefer))
                            ))
                    }));
                }
                Some(Some(c)) if has_words => out.extend(cells.clone().nth(c)),
                Some(_) => {}
            }
        }
        i = end + 1;
    }
    out
}

/// Whether `phrases` open with an order: an action verb, maybe after "please", that takes an
/// object or a limit ("send me", "submit the", "reply within"), so "Pay stubs are ready
/// Monday" is not an order. `date` is the first token of the date being judged.
fn opens_with_order(p: &Parser<'_>, phrases: &[(usize, usize, Option<Sem>)], date: usize) -> bool {
    let toks = p.t;
    phrases
        .iter()
        .find(|(_, _, x)| !matches!(x, Some(Sem::Request | Sem::Filler)))
        .is_some_and(|&(a, n, x)| {
            // "Reply YES by 5pm", "Text STOP to opt out", "Reply 1 or 2": a keyword to send.
            let keyword = toks
                .toks
                .get(n)
                .is_some_and(|t| t.capital || t.kind == Kind::Num || toks.is_punct(n, "\""))
                && (matches!(p.sem(n + 1), Some(Sem::Cue(_)))
                    || matches!(toks.norm(n + 1), "to" | "or" | "/"));
            x == Some(Sem::Act)
                // "Pick up by 8/20", "Sign up now": a verb with its particle.
                && (n - a > 1
                    || keyword
                    || p.langs.iter().any(|l| l.objects.contains(&toks.norm(n)))
                    // "Vote 12/7-12/11", "Submit between Dec 7 and Dec 11".
                    || n == date
                    || plural_object(p, n, date)
                    || matches!(
                        p.sem(n),
                        Some(
                            Sem::Filler
                                | Sem::Cue(_)
                                | Sem::Within
                                | Sem::In
                                | Sem::Request
                                | Sem::Between
                                // "renew before then"
                                | Sem::Back
                        )
                    ))
        })
}

/// Whether `phrases` open with a plain word and then an object ("land your PRs", "bestellen
/// Sie Ihre", "haga sus pedidos"): the shape of an order whose verb no table lists. Not a
/// subject ("we", "I") nor a greeting or a wish ("thank you", "hope your", "enjoy your").
fn imperative_shape(p: &Parser<'_>, phrases: &[(usize, usize, Option<Sem>)]) -> bool {
    let toks = p.t;
    phrases
        .iter()
        .find(|(_, _, x)| !matches!(x, Some(Sem::Request | Sem::Filler)))
        .is_some_and(|&(a, n, x)| {
            x.is_none()
                && n == a + 1
                && toks.toks[a].kind == Kind::Word
                && !matches!(
                    toks.norm(a),
                    "i" | "we"
                        | "you"
                        | "they"
                        | "he"
                        | "she"
                        | "it"
                        | "thank"
                        | "thanks"
                        | "hope"
                        | "enjoy"
                        | "wir"
                        | "ich"
                        | "es"
                )
                && (matches!(
                    toks.norm(n),
                    "your"
                        | "the"
                        | "all"
                        | "any"
                        | "our"
                        | "my"
                        | "their"
                        | "it"
                        | "them"
                        | "su"
                        | "sus"
                        | "los"
                        | "las"
                        | "ihre"
                        | "ihren"
                        | "ihr"
                ) || (toks.norm(n) == "sie" && toks.toks[n].capital))
        })
}

/// "Submit repair complaints Feb 8-12", "Return library books by Friday": one to three plain
/// words from `n` up to the date (or its cue), the last a plural, are the order's object ("Pay
/// stubs are ready Monday" has a verb before its date).
fn plural_object(p: &Parser<'_>, n: usize, date: usize) -> bool {
    let toks = p.t;
    let mut k = n;
    while k < toks.len()
        && k < date
        && k - n < 3
        && toks.toks[k].kind == Kind::Word
        && !toks.toks[k].capital
        && p.sem(k).is_none()
    {
        k += 1;
    }
    // Over a short connector before the date ("documentos del 1 al 4").
    let last = if k > n + 1 && toks.norm(k - 1).len() <= 3 {
        k - 2
    } else {
        k - 1
    };
    k > n
        && toks.norm(last).len() > 3
        && toks.norm(last).ends_with('s')
        && !toks.norm(last).ends_with("ss")
        && {
            // "Entregue documentos del 1 al 4": fillers before the date.
            let mut j = k;
            while j < date && p.sem(j) == Some(Sem::Filler) {
                j += 1;
            }
            j == date || matches!(p.sem(j), Some(Sem::Cue(Cue::Adjacent | Cue::Prefer)))
        }
}

/// Whether the sentence at token `s` is a list item ("- signed forms: 06/08", "2) the CVs")
/// under a heading that asks or names what is owed and ends with a colon ("Outstanding items
/// from your side:", "Please send:"): each item's date is a limit. Looks up over the list's
/// other items only (at most 20 lines).
fn under_list_heading(p: &Parser<'_>, s: usize) -> bool {
    let toks = p.t;
    let is_item = |a: usize| {
        ["-", "•", "*", "–", "·", "▪", "○"]
            .iter()
            .any(|m| toks.is_punct(a, m))
            || (toks
                .toks
                .get(a)
                .is_some_and(|t| t.kind == Kind::Num && t.digits <= 2)
                && (toks.is_punct(a + 1, ")") || toks.is_punct(a + 1, ".")))
    };
    if !is_item(s) {
        return false;
    }
    let mut start = s;
    for _ in 0..20 {
        let mut end = start;
        while end > 0 && toks.is_punct(end - 1, "\n") {
            end -= 1;
        }
        let mut a = end;
        while a > 0 && !toks.is_punct(a - 1, "\n") {
            a -= 1;
        }
        if a == end {
            return false;
        }
        if is_item(a) {
            start = a;
            continue;
        }
        return toks.is_punct(end - 1, ":")
            && (a..end).any(|k| {
                matches!(
                    p.sem(k),
                    Some(Sem::Request | Sem::Cue(Cue::Due | Cue::Lapse | Cue::Noun | Cue::Latest))
                )
            });
    }
    false
}

/// A dash standing alone between words ("… Nov 30 — the date …"), not one inside a range or
/// a compound ("Nov 8–12", "e-mail").
fn clause_dash(toks: &Tokens, c: usize) -> bool {
    ["—", "–", "-"].iter().any(|d| toks.is_punct(c, d))
        && c > 0
        && c + 1 < toks.len()
        && !toks.glued(c)
        && !toks.glued(c + 1)
        && toks.toks[c + 1].kind == Kind::Word
}

/// Whether day `e` is taken as proposed, by a word after it in its clause ("Monday is fine",
/// "Thursday works", "Friday it is", "Montag passt", "el lunes está bien", "el lunes nos va
/// bien") or before it ("we're good with Thursday"): a day, not an appointment ("Your slot on
/// Friday is fine; bring your ID then" is the visit's day).
fn taken(p: &Parser<'_>, phrases: &[(usize, usize, Option<Sem>)], e: &grammar::Expr) -> bool {
    let toks = p.t;
    !phrases
        .iter()
        .any(|x| x.0 < e.from && matches!(x.2, Some(Sem::Meeting)))
        && (phrases
            .iter()
            .any(|x| x.1 == e.from && x.2 == Some(Sem::Accept))
            // "Friday it is": no table word (a phrase "it is" would hide "is not required"
            // and a dash after it).
            || (toks.norm(e.to) == "it" && toks.norm(e.to + 1) == "is")
            || (e.to..e.to + 4)
                .find(|&a| p.sem(a) == Some(Sem::Accept))
                .is_some_and(|a| {
                    (e.to..a).all(|k| {
                        toks.toks[k].kind == Kind::Word
                            && !matches!(p.sem(k), Some(Sem::Cue(_) | Sem::Request | Sem::Act))
                    })
                }))
}

/// Whether a clause after date `e` (in its sentence, whose phrases are `phrases` and which
/// ends at token `t`, or in the next sentence) points back to it and asks: "pricing ends
/// 8/20, send your entry by then", "Bids open Mon-Wed. Send your number in that window".
/// The pointer is not the clause's first word ("then send it" is a sequence), and no other
/// date stands between (`next`: the next expression's first token).
fn refers_back(
    p: &Parser<'_>,
    phrases: &[(usize, usize, Option<Sem>)],
    e: &grammar::Expr,
    next: Option<usize>,
    t: usize,
) -> bool {
    let toks = p.t;
    let asks_around = |v: &[(usize, usize, Option<Sem>)]| -> bool {
        let Some(b) = v.iter().position(|x| x.2 == Some(Sem::Back)) else {
            return false;
        };
        if next.is_some_and(|n| n < v[b].0) {
            return false;
        }
        // The clause of the pointer: after the last comma, dash, colon or semicolon.
        let start = v[..b]
            .iter()
            .rposition(|(a, _, _)| {
                [",", "-", "–", "—", ":", ";"]
                    .iter()
                    .any(|c| toks.is_punct(*a, c))
            })
            .map_or(0, |k| k + 1);
        // "then" alone points at a window ("add/drop is open Aug 16 to Aug 27 - make your
        // changes then"); at one day it is that day's event ("kickoff is Jan 4 - bring
        // your waiver then").
        // Unless the day was just accepted as proposed ("Monday is fine — send it then",
        // "Thursday works, get it to me then").
        if v[b].1 - v[b].0 == 1 && !e.shape.range && !taken(p, phrases, e) {
            return false;
        }
        // Next to a pointer, an unlisted verb opening its clause with an object is an order
        // too ("land your PRs before then", "bestellen Sie Ihre Karten bis dahin", "haga sus
        // pedidos antes de esa fecha").
        let asks = |c: &[(usize, usize, Option<Sem>)]| {
            c.iter().any(|x| x.2 == Some(Sem::Request))
                || opens_with_order(p, c, usize::MAX)
                || imperative_shape(p, c)
        };
        let clause = &v[start..b];
        if clause
            .iter()
            .any(|x| !matches!(x.2, Some(Sem::Request | Sem::Filler)))
        {
            return asks(clause);
        }
        // A pointer of more than one word may open its clause: "During that time, upload
        // your documents", "By then, please send the keys"; or close the order before its
        // comma ("Bitte melden Sie sich an, bevor er endet").
        v[b].1 - v[b].0 > 1 && {
            let mut k = b + 1;
            while k < v.len() && toks.is_punct(v[k].0, ",") {
                k += 1;
            }
            asks(&v[k..])
                || (start > 0 && {
                    let before_comma = v[..start - 1]
                        .iter()
                        .rposition(|(a, _, _)| {
                            [",", "-", "–", "—", ":", ";"]
                                .iter()
                                .any(|c| toks.is_punct(*a, c))
                        })
                        .map_or(0, |k| k + 1);
                    toks.is_punct(v[start - 1].0, ",") && asks(&v[before_comma..start - 1])
                })
        }
    };
    let rest = &phrases[phrases.partition_point(|x| x.0 < e.to)..];
    // A pointer after the date that asks nothing ("Thursday it is then.") leaves the next
    // sentence to ask ("Please have the proofs ready by then.").
    if rest.iter().any(|x| x.2 == Some(Sem::Back)) && asks_around(rest) {
        return true;
    }
    if t >= toks.len() || next.is_some_and(|n| n < t) {
        return false;
    }
    // The next sentence, over the breaks between ("…next week.\nSend your number…").
    let mut u = t;
    while u < toks.len()
        && [".", "!", "?", ";", "\n"]
            .iter()
            .any(|c| toks.is_punct(u, c))
    {
        u += 1;
    }
    let (_, t2) = sentence(toks, p.sems, u);
    asks_around(&self::phrases(p, u, t2))
}

/// `(from, to, meaning)` of each phrase of tokens `[s, t)`.
fn phrases(p: &Parser<'_>, s: usize, t: usize) -> Vec<(usize, usize, Option<Sem>)> {
    let mut v = Vec::with_capacity(t - s);
    let mut i = s;
    while i < t {
        let n = p.after(i).min(t);
        v.push((i, n, p.sem(i)));
        i = n;
    }
    v
}

/// The sentence of token `i`: `[start, end)`.
fn sentence(t: &Tokens, sems: &grammar::Sems, i: usize) -> (usize, usize) {
    let is_break = |k: usize| -> bool {
        let tok = &t.toks[k];
        if tok.kind != Kind::Punct {
            return false;
        }
        match t.norm(k) {
            "!" | "?" | ";" => true,
            "\n" => {
                // A hard-wrapped line goes on: lowercase word, break, lowercase word.
                let wrapped = k > 0
                    && k + 1 < t.len()
                    && t.toks[k - 1].kind == Kind::Word
                    && t.toks[k + 1].kind == Kind::Word
                    && !t.toks[k + 1].capital;
                !wrapped
            }
            "." => {
                // "Dec. 11", "5 p.m. Friday", "3. Dezember" are not ends of sentences.
                let prev_short = k > 0
                    && t.glued(k)
                    && (t.toks[k - 1].kind == Kind::Num
                        || (t.toks[k - 1].kind == Kind::Word && t.norm(k - 1).len() <= 4)
                        || matches!(
                            sems.get(k - 1).copied().flatten(),
                            Some((_, Sem::Weekday(..) | Sem::Month(..)))
                        ));
                // "3. Dezember": a day's dot before its month (capitalised in German).
                let next_lower =
                    t.toks.get(k + 1).is_some_and(|n| {
                        n.kind == Kind::Num || (n.kind == Kind::Word && !n.capital)
                    }) || (t.toks[k - 1].kind == Kind::Num
                        && matches!(
                            sems.get(k + 1).copied().flatten(),
                            Some((_, Sem::Month(..)))
                        ));
                // "e.g.x" / "3.5": a dot inside a token run is not an end either.
                let inside = k + 1 < t.len() && t.glued(k + 1);
                !(prev_short && next_lower || inside)
            }
            _ => false,
        }
    };
    let mut s = i;
    while s > 0 && !is_break(s - 1) {
        s -= 1;
    }
    let mut e = i;
    while e < t.len() && !is_break(e) {
        e += 1;
    }
    (s, e)
}

fn collapse(s: &str) -> String {
    s.split_whitespace().collect::<Vec<_>>().join(" ")
}

fn clip(s: &str) -> String {
    let c = collapse(s);
    let n = c.chars().count();
    if n > MAX_PHRASE {
        format!("…{}", c.chars().skip(n - MAX_PHRASE).collect::<String>())
    } else {
        c
    }
}

/// `text` with quoted history and the signature blanked out (same byte offsets, so phrases
/// are still quoted from the text as written): lines starting with ">", everything from a
/// "-----Original Message-----" line, an "On …, X wrote:" line, a "From:/Von:/De:" header
/// block, a "-- " line, or a closing line on its own ("Best regards", "Mit freundlichen
/// Grüßen", "Saludos").
pub fn live_text(text: &str) -> Cow<'_, str> {
    let mut lines: Vec<(usize, &str)> = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        lines.push((at, line));
        at += line.len();
    }
    let mut dead: Vec<Range<usize>> = Vec::new();
    let mut seen_text = false;
    let mut signature_to = 0;
    for (n, (start, line)) in lines.iter().enumerate() {
        if *start < signature_to {
            continue;
        }
        let trimmed = line.trim();
        let lower = trimmed.to_lowercase();
        if trimmed.starts_with('>') {
            dead.push(*start..start + line.len());
            continue;
        }
        let cut_here = is_history_marker(&lower)
            || is_header_block(&lines[n..])
            || lower == "--"
            || line.trim_end_matches(['\r', '\n']) == "-- "
            || lower.starts_with("sent from my")
            || lower.starts_with("enviado desde mi")
            || lower.starts_with("von meinem");
        // "wrote:" on a line of its own ends the "On …" line before it.
        if cut_here && matches!(lower.as_str(), "wrote:" | "schrieb:" | "escribió:") && n > 0 {
            let prev = lines[n - 1].0;
            dead.push(prev..text.len());
            break;
        }
        if cut_here {
            dead.push(*start..text.len());
            break;
        }
        // "XO,", "Yours in Scouting,": a short line ending in a comma over a name.
        let next = lines[n + 1..]
            .iter()
            .map(|(_, l)| l.trim())
            .find(|l| !l.is_empty());
        if seen_text && (is_closing(&lower) || is_closing_shape(&lower, next)) {
            dead.push(*start..text.len());
            break;
        }
        // A message that opens with a closing and a name opens with a signature ("Cheers,⏎Leo⏎
        // Harbor Works — members renew by the 1st"): up to the first blank line.
        if !seen_text && is_closing(&lower) && is_closing_shape(&lower, next) {
            let end = lines[n + 1..]
                .iter()
                .find(|(_, l)| l.trim().is_empty())
                .map_or(text.len(), |(s, _)| *s);
            dead.push(*start..end);
            signature_to = end;
            continue;
        }
        seen_text |= !trimmed.is_empty();
    }
    if dead.is_empty() {
        return Cow::Borrowed(text);
    }
    let mut bytes = text.as_bytes().to_vec();
    for r in dead {
        for b in &mut bytes[r] {
            if *b != b'\n' {
                *b = b' ';
            }
        }
    }
    // Whole lines were blanked (each ends at a '\n' or the text's end), so no character is
    // cut in two; a failure here would be a bug, and the text is then read as it is.
    match String::from_utf8(bytes) {
        Ok(s) => Cow::Owned(s),
        Err(_) => Cow::Borrowed(text),
    }
}

fn is_history_marker(lower: &str) -> bool {
    let dashes = lower.starts_with("---")
        && ["message", "nachricht", "mensaje", "forward"]
            .iter()
            .any(|w| lower.contains(w));
    let forwarded = lower.starts_with("begin forwarded message");
    let wrote = [
        "wrote:",
        "schrieb:",
        "escribió:",
        "escribio:",
        "a écrit :",
        "a écrit:",
        "ha scritto:",
        "schreef:",
        "escreveu:",
    ]
    .iter()
    .any(|w| lower.ends_with(w));
    // "Am 20.11.2026 schrieb Jan Müller:", "Op 20 november schreef Jan:": the name after
    // the verb.
    let wrote_name = lower.ends_with(':')
        && ["on ", "am ", "op ", "em ", "el ", "le ", "il "]
            .iter()
            .any(|p| lower.starts_with(p))
        && [
            " wrote ",
            " schrieb ",
            " schreef ",
            " escribió ",
            " escreveu ",
            " a écrit ",
            " ha scritto ",
        ]
        .iter()
        .any(|w| lower.contains(w));
    dashes || forwarded || wrote || wrote_name
}

/// A "From:" line followed within three lines by another mail header.
fn is_header_block(lines: &[(usize, &str)]) -> bool {
    let Some((_, first)) = lines.first() else {
        return false;
    };
    let l = first.trim().to_lowercase();
    if !["from:", "von:", "de:", "van:", "da:"]
        .iter()
        .any(|h| l.starts_with(h))
    {
        return false;
    }
    lines.iter().skip(1).take(3).any(|(_, x)| {
        let x = x.trim().to_lowercase();
        [
            "sent:",
            "date:",
            "to:",
            "subject:",
            "gesendet:",
            "datum:",
            "an:",
            "betreff:",
            "enviado:",
            "fecha:",
            "para:",
            "asunto:",
            "enviada:",
            "assunto:",
            "data:",
            "verzonden:",
            "aan:",
            "onderwerp:",
            "envoyé:",
            "objet:",
            "à:",
            "inviato:",
            "oggetto:",
            "a:",
        ]
        .iter()
        .any(|h| x.starts_with(h))
    })
}

fn is_closing(lower: &str) -> bool {
    const CLOSINGS: &[&str] = &[
        "best",
        "best regards",
        "kind regards",
        "regards",
        "warm regards",
        "many thanks",
        "thanks",
        "thank you",
        "thanks again",
        "cheers",
        "sincerely",
        "yours",
        "yours sincerely",
        "all the best",
        "best wishes",
        "warmly",
        "warm wishes",
        "respectfully",
        "take care",
        "thanks & regards",
        "thanks and regards",
        "thanks in advance",
        "with thanks",
        "sincerely yours",
        "yours truly",
        "gratefully",
        "with gratitude",
        "blessings",
        "god bless",
        "in christ",
        "safe travels",
        "stay safe",
        "talk soon",
        "cordially",
        "v/r",
        "mit freundlichen grüßen",
        "mit freundlichen grüssen",
        "freundliche grüße",
        "viele grüße",
        "beste grüße",
        "liebe grüße",
        "herzliche grüße",
        "gruß",
        "grüße",
        "lg",
        "vg",
        "saludos",
        "un saludo",
        "saludos cordiales",
        "atentamente",
        "cordialmente",
        "un abrazo",
        "gracias",
        "muchas gracias",
        "cordialement",
        "bien à vous",
        "bien cordialement",
        "cordiali saluti",
        "distinti saluti",
        "saluti",
        "met vriendelijke groet",
        "met vriendelijke groeten",
        "vriendelijke groet",
        "hartelijke groet",
        "groet",
        "groeten",
        "atenciosamente",
        "cumprimentos",
        "com os melhores cumprimentos",
        "um abraço",
    ];
    let l = lower.trim_end_matches([',', '.', '!']).trim();
    CLOSINGS.contains(&l)
}

/// A line shaped as a closing: at most three words ending in a comma, no greeting ("Hi
/// all,"), and the next line a name or a title ("Coach Rita", "Mr. Ellis, Scoutmaster"):
/// every word capitalised, no digits, no sentence end.
fn is_closing_shape(lower: &str, next: Option<&str>) -> bool {
    const GREETINGS: &[&str] = &[
        "dear",
        "hi",
        "hello",
        "hey",
        "good",
        "hola",
        "hallo",
        "liebe",
        "lieber",
        "sehr",
        "guten",
        "estimado",
        "estimada",
        "estimados",
        "buenos",
        "buenas",
        "querido",
        "querida",
        "greetings",
        "morning",
        "team",
        "all",
        "folks",
        "everyone",
    ];
    let Some(body) = lower.strip_suffix(',') else {
        return false;
    };
    let words: Vec<&str> = body.split_whitespace().collect();
    if words.is_empty()
        || words.len() > 3
        || GREETINGS.contains(&words[0])
        || body.chars().any(|c| c.is_ascii_digit())
    {
        return false;
    }
    next.is_some_and(|l| {
        let ws: Vec<&str> = l.split_whitespace().collect();
        !ws.is_empty()
            && ws.len() <= 5
            && !l.chars().any(|c| c.is_ascii_digit())
            && !l.ends_with(['.', '?', '!', ':'])
            && ws.iter().all(|w| {
                w.chars()
                    .next()
                    .is_some_and(|c| c.is_uppercase() || c == '&')
            })
    })
}
