//! The time understanding as a specification: each case is a message, the day and time it
//! was received (in the operator's zone) and the deadlines a person would see.

use time::macros::{date, datetime, offset};
use time::{Date, OffsetDateTime};

use super::*;

fn detect(text: &str) -> Lang {
    detect_tokens(&lexer::lex(text))
}

/// Saturday 2026-11-28, 09:00 in Chicago (UTC-6).
const SAT: OffsetDateTime = datetime!(2026-11-28 09:00 -6);
/// Tuesday 2026-11-24, 09:00 in Chicago.
const TUE: OffsetDateTime = datetime!(2026-11-24 09:00 -6);

fn due_at(text: &str, at: OffsetDateTime) -> Vec<Option<Date>> {
    deadlines(text, &Context::new(at, at.offset()))
        .into_iter()
        .map(|d| d.due)
        .collect()
}

fn due(text: &str) -> Vec<Option<Date>> {
    due_at(text, TUE)
}

fn one(text: &str) -> Date {
    let d = due(text);
    assert_eq!(d.len(), 1, "{text}: {d:?}");
    d[0].unwrap_or_else(|| panic!("{text}: undated"))
}

#[test]
fn relative_spans_count_from_the_received_time() {
    assert_eq!(
        one("Please confirm within 48 hours."),
        date!(2026 - 11 - 26)
    );
    // 23:30 plus 2 hours is the next day.
    assert_eq!(
        due_at(
            "Reply within 2 hours please",
            datetime!(2026-11-24 23:30 -6)
        ),
        vec![Some(date!(2026 - 11 - 25))]
    );
    assert_eq!(
        one("Please send the form in two weeks."),
        date!(2026 - 12 - 08)
    );
    // Tuesday + 10 business days skips two weekends.
    assert_eq!(
        one("Payment is due in 10 business days."),
        date!(2026 - 12 - 08)
    );
    assert_eq!(
        one("Please return it within 5 working days"),
        date!(2026 - 12 - 01)
    );
    assert_eq!(
        one("Can you get back to me within a week?"),
        date!(2026 - 12 - 01)
    );
    assert_eq!(one("Need this 3 days from now"), date!(2026 - 11 - 27));
}

#[test]
fn days_by_name_and_their_abbreviations() {
    assert_eq!(one("send it by tomorrow"), date!(2026 - 11 - 25));
    assert_eq!(one("need it by tmrw pls"), date!(2026 - 11 - 25));
    assert_eq!(one("Please reply by Thurs."), date!(2026 - 11 - 26));
    assert_eq!(
        one("by Tuesday"),
        date!(2026 - 11 - 24),
        "today's weekday is today"
    );
    assert_eq!(one("by next Tuesday"), date!(2026 - 12 - 01));
    assert_eq!(one("by Wednesday next week"), date!(2026 - 12 - 02));
    assert_eq!(one("by next week Wednesday"), date!(2026 - 12 - 02));
    assert_eq!(one("Please sign by Dec. 3rd"), date!(2026 - 12 - 03));
    // Said on a Saturday, Friday is the coming one.
    assert_eq!(
        due_at("Please send the budget by Friday.", SAT),
        vec![Some(date!(2026 - 12 - 04))]
    );
}

#[test]
fn named_periods() {
    assert_eq!(one("by EOD please"), date!(2026 - 11 - 24));
    assert_eq!(one("by COB Monday"), date!(2026 - 11 - 30));
    assert_eq!(one("by close of business Monday"), date!(2026 - 11 - 30));
    assert_eq!(one("Monday COB at the latest"), date!(2026 - 11 - 30));
    assert_eq!(one("by EOW"), date!(2026 - 11 - 27));
    assert_eq!(one("by end of month"), date!(2026 - 11 - 30));
    assert_eq!(one("need it by EOM"), date!(2026 - 11 - 30));
    assert_eq!(one("by the end of next month"), date!(2026 - 12 - 31));
    assert_eq!(one("by the end of Q4"), date!(2026 - 12 - 31));
    assert_eq!(one("before the end of the quarter"), date!(2026 - 12 - 31));
    assert_eq!(one("by year-end"), date!(2026 - 12 - 31));
    assert_eq!(one("by the end of next week"), date!(2026 - 12 - 04));
    assert_eq!(one("by end of January"), date!(2027 - 01 - 31));
}

#[test]
fn times_and_zones_anywhere_in_the_phrase() {
    assert_eq!(one("by 2pm ET Friday"), date!(2026 - 11 - 27));
    assert_eq!(one("Submit by Friday 2pm ET"), date!(2026 - 11 - 27));
    assert_eq!(one("by 2026-11-30T17:00-06:00"), date!(2026 - 11 - 30));
    // 23:00 in Los Angeles on Friday is 01:00 on Saturday in Chicago.
    assert_eq!(one("by 11pm PT Friday"), date!(2026 - 11 - 28));
    // 01:00 UTC on Dec 1 is still Nov 30 in Chicago.
    assert_eq!(one("before 2026-12-01T01:00Z"), date!(2026 - 11 - 30));
    let d = deadlines(
        "Please send it by 3:30 pm tomorrow",
        &Context::new(TUE, offset!(-6)),
    );
    assert_eq!(d[0].time, Some(time::macros::time!(15:30)));
    assert_eq!(d[0].expr, "by 3:30 pm tomorrow");
}

#[test]
fn ranges_resolve_to_their_end() {
    assert_eq!(
        one("Please send it between Monday and Wednesday."),
        date!(2026 - 12 - 02)
    );
    assert_eq!(one("Please review Dec 1-3"), date!(2026 - 12 - 03));
    assert_eq!(
        one("Could you confirm between now and Friday?"),
        date!(2026 - 11 - 27)
    );
    assert_eq!(one("Please review it Mon–Wed"), date!(2026 - 12 - 02));
    assert_eq!(
        one("Por favor, entregue los documentos del 1 al 3 de diciembre."),
        date!(2026 - 12 - 03)
    );
    assert_eq!(
        one("Bitte zwischen Montag und Mittwoch zurückschicken."),
        date!(2026 - 12 - 02)
    );
}

#[test]
fn numeric_dates_follow_the_operator_and_the_language() {
    assert_eq!(one("due 12/03"), date!(2026 - 12 - 03));
    let dmy = Context::new(TUE, offset!(-6)).with_order(DateOrder::Dmy);
    assert_eq!(
        deadlines("due 03/12", &dmy)[0].due,
        Some(date!(2026 - 12 - 03))
    );
    // A part over 12 decides whatever the order.
    assert_eq!(
        deadlines("due 15/12", &Context::new(TUE, offset!(-6)))[0].due,
        Some(date!(2026 - 12 - 15))
    );
    // German and Spanish write the day first.
    assert_eq!(
        one("Bitte bis 03.12. zurückschicken"),
        date!(2026 - 12 - 03)
    );
    assert_eq!(one("Por favor, antes del 03/12"), date!(2026 - 12 - 03));
    assert_eq!(one("due on 1/15/27"), date!(2027 - 01 - 15));
    assert_eq!(
        due("before 2027-02-30"),
        vec![None],
        "impossible: found, undated"
    );
}

#[test]
fn an_explicit_date_wins_over_the_weekday_before_it() {
    assert_eq!(one("by Friday, December 11"), date!(2026 - 12 - 11));
    assert_eq!(
        one("no later than Wednesday, December 9th"),
        date!(2026 - 12 - 09)
    );
    assert_eq!(one("bis Freitag, den 11. Dezember"), date!(2026 - 12 - 11));
}

#[test]
fn cues_other_than_by() {
    assert_eq!(one("Deadline: 2026-12-11"), date!(2026 - 12 - 11));
    assert_eq!(
        one("The deadline for comments is Friday."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(one("The offer expires on 12/15."), date!(2026 - 12 - 15));
    assert_eq!(one("Registration closes Dec 4."), date!(2026 - 12 - 04));
    assert_eq!(one("The cutoff is Thursday 5pm."), date!(2026 - 11 - 26));
    assert_eq!(one("Send it Friday at the latest."), date!(2026 - 11 - 27));
    assert_eq!(one("Latest by Monday, please."), date!(2026 - 11 - 30));
}

#[test]
fn german_and_spanish() {
    assert_eq!(
        one("Bitte bis Freitag zurückmelden."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("Bitte spätestens am 3. Dezember einreichen."),
        date!(2026 - 12 - 03)
    );
    assert_eq!(
        one("Die Frist endet am 15. Dezember."),
        date!(2026 - 12 - 15)
    );
    assert_eq!(
        one("Bitte innerhalb von 5 Werktagen antworten."),
        date!(2026 - 12 - 01)
    );
    assert_eq!(
        one("Bitte bis Ende nächster Woche erledigen."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(one("Bitte bis morgen um 14 Uhr."), date!(2026 - 11 - 25));
    assert_eq!(
        one("Por favor, envíelo a más tardar el 3 de diciembre."),
        date!(2026 - 12 - 03)
    );
    assert_eq!(
        one("Necesito el informe antes del viernes."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("La fecha límite es el 10 de diciembre."),
        date!(2026 - 12 - 10)
    );
    assert_eq!(one("El plazo vence el lunes."), date!(2026 - 11 - 30));
    assert_eq!(
        one("Por favor, responda dentro de dos semanas."),
        date!(2026 - 12 - 08)
    );
    assert_eq!(
        one("Lo necesito para el miércoles de la semana que viene."),
        date!(2026 - 12 - 02)
    );
    assert_eq!(
        detect("Hola, ¿podría enviarlo antes del viernes? Gracias"),
        Lang::Es
    );
    assert_eq!(detect("Hallo, bitte bis Freitag. Danke"), Lang::De);
    assert_eq!(detect("Please send it by Friday"), Lang::En);
}

#[test]
fn wrong_dates_once_given_confidently() {
    // Past, a report: not next year's deadline.
    assert!(due("The invoice was due by 11/15.").is_empty());
    assert!(due("It was due by 11/15, please pay now").is_empty());
    // An amount.
    assert!(due("Costs went down by 1/3 this year.").is_empty());
    assert!(due("Prices were cut by 1/2.").is_empty());
    assert!(due("We went over budget by 1/4 on the pilot.").is_empty());
    // Thanks are for what was done.
    assert!(due("Thanks for getting the forms in by Monday.").is_empty());
    assert_eq!(
        due("Thanks for the update, please send the rest by Monday."),
        vec![Some(date!(2026 - 11 - 30))]
    );
}

#[test]
fn past_meetings_quoted_signed_and_cancelled_dates_are_not_deadlines() {
    assert!(due("The meeting is on Monday at 3.").is_empty());
    assert!(due("Let's have a call on Friday at 10am.").is_empty());
    assert!(due("No need to reply by Friday anymore.").is_empty());
    assert!(due("The Friday deadline is cancelled.").is_empty());
    assert!(due("Please ignore the deadline of Dec 4.").is_empty());
    assert!(due("Ya no hace falta responder antes del viernes.").is_empty());
    assert!(due("Die Frist bis Freitag entfällt.").is_empty());
    assert!(due("We sent it last Friday.").is_empty());
    assert!(due("Submitted by Nov 20, thanks!").is_empty(), "past date");
    let quoted = "Thanks, will do.\n\nOn Mon, Nov 23, 2026 at 9:00 AM Sam Lee <sam@x.com> wrote:\n> Please send the report by Friday.\n";
    assert!(due(quoted).is_empty());
    let fwd =
        "See below.\n\n-----Original Message-----\nFrom: Sam\nSent: Monday\nPlease reply by Dec 4.";
    assert!(due(fwd).is_empty());
    let header = "Ok.\n\nVon: Anna Weber\nGesendet: Montag, 23. November 2026\nBetreff: Vertrag\nBitte bis Freitag.";
    assert!(due(header).is_empty());
    let signed = "Got it, thanks.\n\nBest regards,\nDana Kim\nOffice hours until Dec 18\n";
    assert!(due(signed).is_empty());
    // An absence, or a date to wait for, is not a limit.
    assert!(due("I'm out of office until Monday.").is_empty());
    assert!(due("Bin bis Freitag im Urlaub.").is_empty());
    assert!(due("Please wait until Monday before sending it.").is_empty());
    assert!(due("The Friday deadline has been postponed.").is_empty());
    assert_eq!(
        due("Please send it by Friday, the review is postponed."),
        vec![Some(date!(2026 - 11 - 27))]
    );
    assert_eq!(
        one("The quote is valid until Monday."),
        date!(2026 - 11 - 30)
    );
    // The old date of a moved deadline is not one; the new one is.
    assert_eq!(
        due("The deadline moved from Friday to Monday."),
        vec![Some(date!(2026 - 11 - 30))]
    );
}

#[test]
fn not_dates_at_all() {
    for text in [
        "written by Sam Rivera",
        "before our 1:1",
        "due to the outage",
        "Total due: $12",
        "standby Friday",
        "hotfix by 15:30",
        "contract ends on the 30th",
        "You may want to sit down.",
        "Guten Morgen, wie geht's?",
    ] {
        assert!(due(text).is_empty(), "{text}: {:?}", due(text));
    }
}

#[test]
fn the_phrase_is_the_sentence_up_to_the_date_as_written() {
    let d = deadlines(
        "Hi Alex. Price holds if you confirm by Friday. Thanks",
        &Context::on_day(date!(2025 - 06 - 10)),
    );
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].phrase, "Price holds if you confirm by Friday");
    assert_eq!(d[0].expr, "by Friday");
    let d = deadlines(
        "Grüße – bitte by Friday 🎉 ok",
        &Context::on_day(date!(2025 - 06 - 10)),
    );
    assert_eq!(d[0].due, Some(date!(2025 - 06 - 13)));
}

#[test]
fn scan_finds_dates_without_cues() {
    let ctx = Context::new(TUE, offset!(-6));
    let e = scan("We met on Monday, the meeting is Dec 3 at 2pm.", &ctx);
    let dates: Vec<Option<Date>> = e.iter().map(|x| x.date).collect();
    assert_eq!(
        dates,
        vec![Some(date!(2026 - 11 - 30)), Some(date!(2026 - 12 - 03))]
    );
}

#[test]
fn chat_abbreviations() {
    assert_eq!(one("need the invoice b4 thurs"), date!(2026 - 11 - 26));
    // Tuesday + 3 business days.
    assert_eq!(one("answer w/in 3 biz days pls"), date!(2026 - 11 - 27));
    assert_eq!(one("can u send it 2morrow"), date!(2026 - 11 - 25));
    // Right after a cue a lowercase "sat" / "sun" is the day, not the word.
    assert_eq!(one("ship it by sat"), date!(2026 - 11 - 28));
    assert_eq!(one("club fees due sun"), date!(2026 - 11 - 29));
    assert!(due("we sat by the pool on sun").is_empty());
    // "wk" is a week: the Wednesday of the following week, not this one.
    assert_eq!(one("pls file it by wed next wk"), date!(2026 - 12 - 02));
}

#[test]
fn dates_written_out_in_words() {
    assert_eq!(
        one("Please return the keys in a fortnight."),
        date!(2026 - 12 - 08)
    );
    assert_eq!(
        one("Reports are due at quarter's end."),
        date!(2026 - 12 - 31)
    );
    assert_eq!(
        one("Please sign by March the second."),
        date!(2027 - 03 - 02)
    );
    assert_eq!(
        one("Kindly reply by the ninth of December."),
        date!(2026 - 12 - 09)
    );
    assert_eq!(
        one("Please send the twenty-first edition by December twenty-first."),
        date!(2026 - 12 - 21)
    );
    // "the fifth" alone: the next 5th from the received day on.
    assert_eq!(one("Please respond by the fifth."), date!(2026 - 12 - 05));
    // An ordinal before a noun is not a day.
    assert_eq!(
        due("Send the first draft by Friday."),
        vec![Some(date!(2026 - 11 - 27))]
    );
    assert_eq!(
        due("Please send the second batch by the third week."),
        Vec::<Option<Date>>::new()
    );
}

#[test]
fn a_time_alone_after_by_is_on_the_received_day() {
    assert_eq!(one("Need the keys by 4pm."), date!(2026 - 11 - 24));
    assert_eq!(one("By midday please."), date!(2026 - 11 - 24));
    // Only when something is asked; a status line is not a deadline.
    assert!(due("release shipped by 16:00").is_empty());
    // Not "until": opening hours.
    assert!(due("Please note we are open until 5pm.").is_empty());
    // After a day, the time is that day's.
    assert_eq!(
        due("Please send it tomorrow before noon."),
        vec![Some(date!(2026 - 11 - 25))]
    );
}

#[test]
fn a_bare_hour_after_a_cue_with_a_day_or_a_zone() {
    assert_eq!(
        one("Please answer before 4 on the 30th."),
        date!(2026 - 11 - 30)
    );
    assert_eq!(one("Reply by 2 CT tomorrow, please"), date!(2026 - 11 - 25));
    // 23:00 at UTC-8 on Thursday is 01:00 on Friday in Chicago.
    assert_eq!(
        one("Please confirm by 23:00 UTC-8 on Thursday."),
        date!(2026 - 11 - 27)
    );
    // An amount after a change is not an hour.
    assert!(due("Please cut the price by 5 on the 30th.").is_empty());
    assert!(due("Please reduce it by 2 on Monday.").is_empty());
}

#[test]
fn a_sentence_that_opens_with_an_action_verb_asks() {
    assert_eq!(
        one("Submit the timesheet Wednesday."),
        date!(2026 - 11 - 25)
    );
    assert_eq!(
        one("Return the forms any day Wed-Fri."),
        date!(2026 - 11 - 27)
    );
    assert!(due("I'll submit it tomorrow.").is_empty());
    // The verb as a noun: no object after it.
    assert!(due("Pay stubs are ready Monday.").is_empty());
    // "Update" and "Review" open status lines as nouns.
    assert!(due("Update 12/4: the server was patched.").is_empty());
    assert!(due("Drop-off is Tuesday.").is_empty());
    // The date of the thing ordered, not a limit.
    assert!(due("Confirm the booking for Friday.").is_empty());
    // One date per sentence: the second is what happens after.
    assert_eq!(
        due("Submit the refill request Monday for pickup Friday."),
        vec![Some(date!(2026 - 11 - 30))]
    );
    assert_eq!(
        one("Envíe el formulario el próximo jueves."),
        date!(2026 - 11 - 26)
    );
    assert_eq!(
        one("Mándame las notas pasado mañana."),
        date!(2026 - 11 - 26)
    );
    assert_eq!(
        one("Tienes que pagar la cuota mañana."),
        date!(2026 - 11 - 25)
    );
}

#[test]
fn a_negation_stops_at_but() {
    assert_eq!(
        due("We no longer need the slides by Monday, but please send the notes by Wednesday."),
        vec![Some(date!(2026 - 11 - 25))]
    );
    assert_eq!(
        due("Please pay by Friday, but ignore the old reminder about Monday."),
        vec![Some(date!(2026 - 11 - 27))]
    );
    assert_eq!(
        due("Ya no hace falta el viernes, pero mándela antes del lunes."),
        vec![Some(date!(2026 - 11 - 30))]
    );
    assert!(due("No need to reply by Friday anymore.").is_empty());
}

#[test]
fn amounts_and_thanks_with_more_date_words() {
    assert!(due("We cut the queue by 1/4 this week.").is_empty());
    assert!(due("Appreciate you getting the forms in by Friday.").is_empty());
}

#[test]
fn more_ways_to_write_spans_and_ranges() {
    // The legal style repeats the figure in brackets.
    assert_eq!(
        one("Please remit payment within ten (10) days."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(one("Please reply w/i 3 days."), date!(2026 - 11 - 27));
    assert_eq!(
        one("Please send it within the next couple of days."),
        date!(2026 - 11 - 26)
    );
    // The end day of "Jan 3rd–10th" is in January, not the next 10th.
    assert_eq!(
        one("Please complete it Jan 3rd–10th."),
        date!(2027 - 01 - 10)
    );
}

#[test]
fn more_negations() {
    assert!(due("The report isn't needed by Friday.").is_empty());
    assert!(due("You won't need to sign by Monday.").is_empty());
    assert!(due("No tienes que pagar mañana.").is_empty());
    assert!(due("Sie müssen nicht bis Freitag antworten.").is_empty());
    // "not due until Friday" is a limit, not a negation.
    assert_eq!(
        one("The payment is not due until Friday."),
        date!(2026 - 11 - 27)
    );
}

#[test]
fn a_span_counted_from_a_named_day() {
    // Friday 2026-11-27 + one week.
    assert_eq!(
        one("Please send it a week from Friday."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Payment is due two weeks from tomorrow."),
        date!(2026 - 12 - 09)
    );
    // "from receipt" names no day: the span counts from the received day.
    assert_eq!(
        one("Please reply within 10 days from receipt."),
        date!(2026 - 12 - 04)
    );
}

#[test]
fn more_zones_and_spellings() {
    // 5pm in Tokyo on Monday is 2am on Monday in Chicago.
    assert_eq!(one("Upload it by 5pm JST Monday."), date!(2026 - 11 - 30));
    assert_eq!(one("pls send it tomorow"), date!(2026 - 11 - 25));
    assert_eq!(one("Favor de mandarlo mañana xfa"), date!(2026 - 11 - 25));
}

#[test]
fn chat_times_windows_and_holds() {
    assert_eq!(one("need the file by 5p pls"), date!(2026 - 11 - 24));
    assert_eq!(one("can u send it 2day"), date!(2026 - 11 - 24));
    // A request after ";" asks about the window before it.
    assert_eq!(
        one("Entries are taken Dec 1 - Dec 9; please send yours in time."),
        date!(2026 - 12 - 09)
    );
    assert_eq!(
        one("The enrollment window is Nov 30 to Dec 4."),
        date!(2026 - 12 - 04)
    );
    assert!(due("The window seat is booked for Dec 5.").is_empty());
    assert!(due("The Friday review is on hold.").is_empty());
    assert!(due("Scratch that, no need to file by Monday.").is_empty());
}

#[test]
fn spanish_times_alone_after_antes_de_and_para() {
    assert_eq!(
        one("Envíe el informe antes de las 5, por favor."),
        date!(2026 - 11 - 24)
    );
    assert_eq!(
        one("Necesito la factura para las 3 de la tarde."),
        date!(2026 - 11 - 24)
    );
    // After a day, the time is that day's.
    assert_eq!(
        due("Por favor mande los datos mañana antes de las 10."),
        vec![Some(date!(2026 - 11 - 25))]
    );
}

#[test]
fn more_chat_requests() {
    assert_eq!(one("gimme the deck tmrw nite"), date!(2026 - 11 - 25));
    assert_eq!(one("lmk in 2 days"), date!(2026 - 11 - 26));
    assert_eq!(one("cud u fix it by fri morn"), date!(2026 - 11 - 27));
}

#[test]
fn hours_ending_a_request_possessive_days_and_spans_one_has() {
    // A bare hour after "by" that ends its sentence, in a request, is on the received day.
    assert_eq!(one("can you send the invoice by 5?"), date!(2026 - 11 - 24));
    assert_eq!(
        one("Please have the keys back by 3."),
        date!(2026 - 11 - 24)
    );
    assert!(due("Please divide the total by 4.").is_empty());
    assert!(due("The team grew by 4.").is_empty());
    assert!(due("Please cut the 2 by 4 boards.").is_empty());
    assert_eq!(one("txt me the code by tonite"), date!(2026 - 11 - 24));
    // "is" after a cue lets a short weekday go without its capital.
    assert_eq!(
        one("the deadline for the raffle is sun"),
        date!(2026 - 11 - 29)
    );
    assert!(due("the sun is out, see you sun").is_empty());
    // Possessive days.
    assert_eq!(
        one("Please remember Friday's deadline for the survey."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(one("Don't miss tomorrow's cutoff."), date!(2026 - 11 - 25));
    // A span one has to act in.
    assert_eq!(
        one("You have 10 days to file an appeal."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Customers have 30 days from today to return it."),
        date!(2026 - 12 - 24)
    );
    assert!(due("We had 10 days to file it.").is_empty());
    // More imperatives: "Vote", "Apply", a numeric range's end.
    assert_eq!(one("Vote in the poll 12/1–12/4."), date!(2026 - 12 - 04));
    // A short Spanish line with only "de" to tell its language.
    assert_eq!(
        one("Plazo máximo: jueves 3 de diciembre."),
        date!(2026 - 12 - 03)
    );
    // Dropped and struck deadlines.
    assert!(due("Scratch the 12/10 due date, nothing to send.").is_empty());
    assert!(due("FYI the Dec 9 deadline was dropped.").is_empty());
    assert!(due("The Dec 9 deadline has been dropped.").is_empty());
}

#[test]
fn german_hours_alone_chat_hours_and_times_of_an_appointment() {
    let t = datetime!(2026-11-24 09:00 -6);
    // "bis 17 Uhr" alone is on the received day, as "by 5pm" is.
    let de = |s: &str| due_at(s, t);
    assert_eq!(
        de("Bitte schicken Sie mir die Liste bis 16 Uhr."),
        vec![Some(date!(2026 - 11 - 24))]
    );
    assert_eq!(
        de("Bitte spätestens 11 Uhr zurückmelden."),
        vec![Some(date!(2026 - 11 - 24))]
    );
    // Opening hours are not limits, even next to "bitte".
    assert!(de("Bitte beachten Sie: wir haben bis 18 Uhr geöffnet.").is_empty());
    assert!(de("Die Praxis ist heute bis 17 Uhr erreichbar.").is_empty());
    // "need it by 4 pls": a request word after the bare hour.
    assert_eq!(one("need the keys by 2 pls"), date!(2026 - 11 - 24));
    assert_eq!(
        one("send the keys by 2 at the latest"),
        date!(2026 - 11 - 24)
    );
    assert_eq!(one("need this asap, by 6 latest"), date!(2026 - 11 - 24));
    // A time tied to its day by a cue is a limit even about an appointment.
    assert_eq!(
        one("Por favor, confirme la visita de mañana antes de las 11."),
        date!(2026 - 11 - 25)
    );
    assert!(due("Our call is tomorrow at 10.").is_empty());
    assert!(due("Meeting tomorrow by 3pm in room 4.").is_empty());
}

#[test]
fn forgotten_deadlines_and_the_deadline_is_contracted() {
    assert!(due("Forget the Monday deadline, we have what we need.").is_empty());
    assert!(due("Scrap the Dec 9 due date.").is_empty());
    assert_eq!(
        one("Please don't forget the Monday deadline."),
        date!(2026 - 11 - 30)
    );
    assert_eq!(
        one("Dont forget the Monday deadline."),
        date!(2026 - 11 - 30)
    );
    assert_eq!(
        one("Do not forget the Monday deadline."),
        date!(2026 - 11 - 30)
    );
    assert_eq!(one("the deadline's thurs"), date!(2026 - 11 - 26));
}

#[test]
fn spanish_bare_days_after_a_cue() {
    assert_eq!(one("Envíelo antes del 15."), date!(2026 - 12 - 15));
    assert_eq!(one("Mándelo para el 2, por favor."), date!(2026 - 12 - 02));
    assert_eq!(one("La cuota vence el 20."), date!(2026 - 12 - 20));
    assert_eq!(one("Envíelo a más tardar el 5."), date!(2026 - 12 - 05));
    assert_eq!(
        one("Por favor, pague antes del 15 de este mes."),
        date!(2026 - 12 - 15)
    );
    // Not an amount, nor a day without a cue.
    assert_eq!(
        one("Pagó el 5 por ciento antes del 3 de diciembre."),
        date!(2026 - 12 - 03)
    );
    assert_eq!(
        one("Necesito el 5 antes del viernes."),
        date!(2026 - 11 - 27)
    );
}

#[test]
fn spans_of_today_and_orders_right_before_their_date() {
    // "of today" counts from the received day, and is not a second date.
    assert_eq!(
        due("Please reply within 2 weeks of today."),
        vec![Some(date!(2026 - 12 - 08))]
    );
    // An order right before its date or range.
    assert_eq!(one("Vote 12/7-12/11."), date!(2026 - 12 - 11));
    assert_eq!(one("Submit between Dec 7 & Dec 11."), date!(2026 - 12 - 11));
    assert!(due("Pay stubs are ready Monday.").is_empty());
}

#[test]
fn a_strike_reaches_only_its_date_and_amounts_of_layout() {
    assert_eq!(
        one("Forget the old plan, please send it by Friday."),
        date!(2026 - 11 - 27)
    );
    assert!(due("Scratch the Friday deadline.").is_empty());
    // "by N" after a layout or arithmetic verb is an amount.
    assert!(due("Could you move the chairs back by 2?").is_empty());
    assert!(due("Can you shift the column left by 3?").is_empty());
    assert!(due("Please sort the list by 3.").is_empty());
    // A span of one's own is not a limit set for the recipient.
    assert!(due("I have 2 days to finish my thesis, wish me luck.").is_empty());
    assert!(due("We have 2 weeks to go until launch.").is_empty());
    assert_eq!(one("Tienes 5 días para responder."), date!(2026 - 11 - 29));
}

/// Sunday 2026-11-29, 09:00 in Chicago.
const SUN: OffsetDateTime = datetime!(2026-11-29 09:00 -6);

#[test]
fn an_order_after_a_label_or_a_semicolon_cues_its_window() {
    assert_eq!(
        one("Finance: send me your mileage logs Dec 1 - Dec 4."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Library: return your books between the 1st and the 5th."),
        date!(2026 - 12 - 05)
    );
    assert_eq!(
        one("Early tomorrow: upload the signed waiver to the portal."),
        date!(2026 - 11 - 25)
    );
    assert_eq!(
        one("The benefits fair runs Dec 1-3; register your dependents during that week."),
        date!(2026 - 12 - 03)
    );
    // A label that is no order leaves the date alone.
    assert_eq!(due("Tomorrow: team offsite, no laptops."), vec![]);
}

#[test]
fn a_passive_window_is_the_recipients_to_act_in() {
    assert_eq!(
        one("Nominations are accepted Dec 1 through Dec 10."),
        date!(2026 - 12 - 10)
    );
    assert_eq!(
        one("Appeals may be filed Dec 2 to Dec 16."),
        date!(2026 - 12 - 16)
    );
    assert_eq!(due("Your application was accepted on Nov 20."), vec![]);
    assert_eq!(due("Office closed Dec 24 - Dec 26."), vec![]);
}

#[test]
fn a_tables_due_column_holds_each_rows_deadline() {
    assert_eq!(
        due("| Task | Deadline |\n|---|---|\n| Timesheet | Nov 30 |\n| Badge photo | Dec 2 |"),
        vec![Some(date!(2026 - 11 - 30)), Some(date!(2026 - 12 - 02))]
    );
    assert_eq!(
        due("| Task | Owner | Due date |\n|---|---|---|\n| Budget | Ana | 12/4 |"),
        vec![Some(date!(2026 - 12 - 04))]
    );
    // A schedule is no list of limits, nor is a cue in another cell.
    assert_eq!(
        due(
            "| Date | Event |\n|---|---|\n| Dec 2 | Party |\n| Dec 4 | Last day before the break |"
        ),
        vec![]
    );
}

#[test]
fn a_named_end_heading_what_is_due_at_it() {
    assert_eq!(one("EOD for the slides, please."), date!(2026 - 11 - 24));
    assert_eq!(one("EOW for the timesheets."), date!(2026 - 11 - 27));
    assert_eq!(due("EOD update: all green."), vec![]);
}

#[test]
fn next_week_said_on_a_sunday_is_the_following_week() {
    assert_eq!(
        due_at("Submit the report by end of next week.", SUN),
        vec![Some(date!(2026 - 12 - 04))]
    );
    assert_eq!(
        due_at("Timesheets close end of next week.", SUN),
        vec![Some(date!(2026 - 12 - 04))]
    );
}

#[test]
fn cancelled_reported_and_elsewhere_dates_are_not_limits() {
    assert_eq!(due("The hearing set for Dec 3 is vacated."), vec![]);
    assert_eq!(due("There is no Friday cutoff for your team."), vec![]);
    assert_eq!(
        due("There is no deadline for the survey, but please send the invoice by Friday."),
        vec![Some(date!(2026 - 11 - 27))]
    );
    assert_eq!(due("You sent the W-9 by Monday, thanks."), vec![]);
    // A consequence after "or" does not move the date.
    assert_eq!(
        one("Payment due 12/1 or your account will be suspended and rescheduled."),
        date!(2026 - 12 - 01)
    );
    // A talk's time is not the recipient's; a meeting word in a later clause does not
    // reach back.
    assert_eq!(
        due("need the handout by tonight, she is presenting at 9 tomorrow"),
        vec![Some(date!(2026 - 11 - 24))]
    );
    assert_eq!(
        due("Pls finish the deck tomorrow, I'm presenting Friday."),
        vec![Some(date!(2026 - 11 - 25))]
    );
    // "on-call" is no call.
    assert_eq!(
        one("Tomorrow: send the new on-call rota to the desk."),
        date!(2026 - 11 - 25)
    );
}

#[test]
fn chat_and_it_orders() {
    assert_eq!(one("text me the address by 5pm"), date!(2026 - 11 - 24));
    assert_eq!(
        one("Email the signed lease by Friday."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("IT: reset your VPN token before Dec 2."),
        date!(2026 - 12 - 02)
    );
}

#[test]
fn the_working_week_every_week_is_no_window() {
    assert_eq!(due("Walk-ins accepted Mon-Fri 9-5."), vec![]);
    assert_eq!(
        due("Please note the lab takes samples Monday through Friday."),
        vec![]
    );
    // One named week is a window that ends.
    assert_eq!(
        due("Returns are accepted Mon–Fri next week; please send yours then."),
        vec![Some(date!(2026 - 12 - 04))]
    );
}

#[test]
fn a_window_to_act_in_ends_at_its_last_day() {
    // Received Tuesday 2026-11-24.
    assert_eq!(
        one("Open enrollment runs Dec 7 - Dec 11; choose a plan then."),
        date!(2026 - 12 - 11)
    );
    assert_eq!(one("Sign-ups: 12/7 - 12/11."), date!(2026 - 12 - 11));
    assert_eq!(
        one("Registration is open from December 7 through December 11."),
        date!(2026 - 12 - 11)
    );
    assert_eq!(
        one("Die Anmeldung läuft vom 7. bis 11. Dezember."),
        date!(2026 - 12 - 11)
    );
    assert_eq!(
        one("Pick a time slot between Thursday and next Tuesday."),
        date!(2026 - 12 - 01)
    );
    assert_eq!(
        one("Choose your plan Dec 7 - Dec 11."),
        date!(2026 - 12 - 11)
    );
    // A window with no act, or the working week, is no limit.
    assert!(due("The office is closed Dec 24 - Dec 28.").is_empty());
    assert!(due("Voting help desk open Mon-Fri.").is_empty());
}

#[test]
fn limit_nouns_and_windows_of_acts() {
    // Received Tuesday 2026-11-24.
    assert_eq!(
        one("Final date to request a refund: Dec 4."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Last date to withdraw is Dec 1."),
        date!(2026 - 12 - 01)
    );
    assert_eq!(one("Return window: 11/27 to 12/3."), date!(2026 - 12 - 03));
    assert_eq!(
        one("Bid window is Mon–Wed next week."),
        date!(2026 - 12 - 02)
    );
    assert_eq!(
        one("Your order can be picked up 12/1-12/4."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Payments can be made online Dec 1 through Dec 5."),
        date!(2026 - 12 - 05)
    );
    assert_eq!(
        one("Spring add/drop is open Jan 4 to Jan 15."),
        date!(2027 - 01 - 15)
    );
    assert_eq!(
        one("The comment period runs Dec 1 - Dec 20."),
        date!(2026 - 12 - 20)
    );
    assert_eq!(one("Registration ends Friday."), date!(2026 - 11 - 27));
    assert_eq!(
        one("Applications accepted through Dec 15."),
        date!(2026 - 12 - 15)
    );
    // A sale, an offer or a house's closing asks nothing.
    assert!(due("The sale ends Friday.").is_empty());
    assert!(due("Offer valid through Dec 15.").is_empty());
    assert!(due("The closing date on your house is Dec 18.").is_empty());
}

#[test]
fn notices_sent_in_error_and_places_that_close() {
    assert!(due("The notice asking you to pay by 12/1 went out in error.").is_empty());
    assert!(due("The reminder to renew by Dec 1 was sent by mistake.").is_empty());
    assert!(due("We are closed until Dec 1.").is_empty());
    assert!(due("Please note we are closed from the 26th to the 29th.").is_empty());
    assert!(due("The library closes at 5pm today.").is_empty());
    assert_eq!(one("Bids close at noon today."), date!(2026 - 11 - 24));
}

#[test]
fn a_meal_after_by_is_its_hour_and_a_limit_noun_before_a_meeting_word() {
    assert_eq!(
        one("need the receipts tmrw before lunch"),
        date!(2026 - 11 - 25)
    );
    let d = deadlines(
        "Need the badge photo by lunch.",
        &Context::new(TUE, TUE.offset()),
    );
    assert_eq!(d.len(), 1);
    assert_eq!(d[0].due, Some(date!(2026 - 11 - 24)));
    assert_eq!(d[0].time, Some(time::macros::time!(12:00)));
    assert!(due("Can you join us for lunch tomorrow?").is_empty());
    assert!(due("Lunch with the auditors on Dec 2 at 12:30.").is_empty());
    assert_eq!(
        one("The deadline to book your flu shot appointment is Friday."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("Interview slots: the last day to sign up is Dec 1."),
        date!(2026 - 12 - 01)
    );
    assert!(due("The meeting about the deadline is on Friday.").is_empty());
}

#[test]
fn a_time_alone_later_in_a_sentence_is_the_days_before_it() {
    let d = deadlines(
        "Please drop the keys off tomorrow, first thing, so the movers can load before noon.",
        &Context::new(TUE, TUE.offset()),
    );
    assert_eq!(d.len(), 1, "{d:?}");
    assert_eq!(d[0].due, Some(date!(2026 - 11 - 25)));
    assert_eq!(d[0].time, Some(time::macros::time!(12:00)));
    assert_eq!(
        due("Please bring the dog in Monday morning so the vet can see her before noon."),
        vec![Some(date!(2026 - 11 - 30))]
    );
}

#[test]
fn a_pointer_back_to_a_date_in_a_clause_that_asks() {
    assert_eq!(
        one("Early-bird pricing ends 12/4 - send your entry by then."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("The booth is open Mon–Wed next week. Send your number in that window."),
        date!(2026 - 12 - 02)
    );
    assert_eq!(
        one("The portal is open Dec 1-4. During that time, upload your documents."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Prices change Dec 31. Please renew before then."),
        date!(2026 - 12 - 31)
    );
    assert_eq!(
        one("Fiesta el 20 de diciembre; confirme su asistencia para entonces."),
        date!(2026 - 12 - 20)
    );
    // "then" at one day's event is being there; "then" opening a clause is a sequence.
    assert!(due("Kickoff is Dec 4 at 9am - bring your waiver then.").is_empty());
    assert!(due("The portal reopens Dec 4, then upload your files.").is_empty());
}

#[test]
fn orders_with_for_particles_and_keywords() {
    assert_eq!(
        one("Apply for the scholarship Dec 1-4."),
        date!(2026 - 12 - 04)
    );
    assert!(due("Return for your follow-up on Friday.").is_empty());
    assert_eq!(
        one("Pick up by 12/1 or the order is cancelled."),
        date!(2026 - 12 - 01)
    );
    assert!(due("Prices went up by 1/4.").is_empty());
    // A negation in the consequence after "or" does not reach back; one before it does.
    assert!(due("No need to pick up by Friday or Monday anymore.").is_empty());
    assert_eq!(one("Reply YES by 6pm to confirm."), date!(2026 - 11 - 24));
    assert!(due("Pay Stubs are ready Monday.").is_empty());
    // An order opening the date's clause after a comma.
    assert_eq!(
        one("cant make it sat, can u drop the gear off fri?"),
        date!(2026 - 11 - 27)
    );
    // A possessive day names a thing.
    assert_eq!(
        due("Reply C by 5pm to confirm tomorrow's pickup."),
        vec![Some(date!(2026 - 11 - 24))]
    );
    assert_eq!(
        one("Recoja su receta entre el 1 y el 3 de diciembre."),
        date!(2026 - 12 - 03)
    );
}

#[test]
fn a_week_narrowed_to_a_weekday_and_alternatives() {
    assert_eq!(
        due("Send the survey next week, by Wednesday at the latest."),
        vec![Some(date!(2026 - 12 - 02))]
    );
    assert_eq!(
        due("Schicken Sie die Liste nächste Woche, spätestens Mittwoch."),
        vec![Some(date!(2026 - 12 - 02))]
    );
    assert_eq!(
        due("Mande el informe la semana que viene, a más tardar el jueves."),
        vec![Some(date!(2026 - 12 - 03))]
    );
    assert_eq!(
        one("Pick up your uniform today or tomorrow."),
        date!(2026 - 11 - 25)
    );
    assert_eq!(
        one("Send receipts by Thursday or Friday."),
        date!(2026 - 11 - 27)
    );
}

#[test]
fn the_senders_promise_is_no_limit() {
    assert!(due("I'll send the quote by Monday.").is_empty());
    assert!(due("Your refund will be issued by Dec 15.").is_empty());
    assert!(due("We will get back to you within 2 business days.").is_empty());
    assert_eq!(
        one("We'll need the signed form by Dec 1."),
        date!(2026 - 12 - 01)
    );
    assert_eq!(
        one("We'll remind you a week before the Dec 15 due date."),
        date!(2026 - 12 - 15)
    );
    assert_eq!(
        one("We will close enrollment on Dec 4, so please sign up before then."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("If you return it by Dec 1, we'll refund the full amount."),
        date!(2026 - 12 - 01)
    );
    // What will happen is no request either; a condition after it, a held item's lapse
    // and a question are.
    assert!(due("Your order shipped Monday and will arrive by Friday.").is_empty());
    assert!(due("The package should arrive by Friday.").is_empty());
    assert!(due("The bank will credit your account within 3 business days.").is_empty());
    assert!(due("Results are usually back within 48 hours.").is_empty());
    assert!(due("You may receive a survey within 2 weeks.").is_empty());
    assert_eq!(
        one("Tickets will be available until Dec 4."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Service will be disconnected unless payment is received by Dec 4."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Your hold will be kept until Dec 4."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Will you send me the lease by Friday?"),
        date!(2026 - 11 - 27)
    );
    // An invitation is a time to be there; an aside before a comma is no order.
    assert_eq!(
        one("Please confirm you will attend by Friday."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("Der Vermieter will die Unterlagen bis Freitag."),
        date!(2026 - 11 - 27)
    );
    assert!(due("Please join us Dec 7-11 for the food drive!").is_empty());
    assert!(due("Thanks again, send my best to the team Friday.").is_empty());
}

#[test]
fn a_span_before_a_later_date_counts_back_from_it() {
    // Received Tuesday 2026-11-24.
    assert_eq!(
        one("Complete the intake form 48 hours before your visit on Dec 3."),
        date!(2026 - 12 - 01)
    );
    assert_eq!(
        one("Stop taking aspirin 7 days before your procedure on Dec 10."),
        date!(2026 - 12 - 03)
    );
    assert_eq!(
        one("Please send the slides 2 business days prior to the Dec 4 review."),
        date!(2026 - 12 - 02)
    );
    assert_eq!(one("Die Abgabe ist am 4. Dezember."), date!(2026 - 12 - 04));
}

#[test]
fn permissions_bookings_late_fees_and_the_week_of_a_date() {
    // Received Tuesday 2026-11-24.
    assert_eq!(
        one("You may return the equipment from Dec 1 until Dec 9."),
        date!(2026 - 12 - 09)
    );
    assert_eq!(
        one("Schedule your flu shot anytime between Dec 1 and Dec 18."),
        date!(2026 - 12 - 18)
    );
    assert_eq!(
        one("Bitte melden Sie sich zwischen dem 1. und 4. Dezember an."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Please sign the lease before your Dec 1 move-in date."),
        date!(2026 - 12 - 01)
    );
    assert_eq!(one("Late fees apply after Dec 9."), date!(2026 - 12 - 09));
    assert_eq!(
        one("Please return the forms the week of Dec 7."),
        date!(2026 - 12 - 11)
    );
    // The object's dates, and a clause after ";" with a date of its own.
    assert!(due("Please send your availability for the week of Dec 7.").is_empty());
    assert_eq!(
        due("We fly out tomorrow; send the docs tonight."),
        vec![Some(date!(2026 - 11 - 24))]
    );
    assert!(due("You can expect a decision within 30 days.").is_empty());
}

#[test]
fn a_cue_before_an_event_reaches_its_date_and_spans_from_unknown_days() {
    // Received Tuesday 2026-11-24.
    assert_eq!(
        one("Please complete the intake forms before your appointment on 12/3."),
        date!(2026 - 12 - 03)
    );
    assert_eq!(
        one("Send the playlist by the recital on Friday."),
        date!(2026 - 11 - 27)
    );
    // Without a cue the event's date stays a meeting time.
    assert!(due("You have an appointment on 12/3 at 9:15 AM.").is_empty());
    // A span from a day the message does not give has no date; "of this notice" is now.
    assert!(due("Your balance is due within 30 days of the statement date.").is_empty());
    assert_eq!(
        one("Please pay within 30 days of this notice."),
        date!(2026 - 12 - 24)
    );
    assert_eq!(
        one("Submit within one week of receiving this email."),
        date!(2026 - 12 - 01)
    );
    assert_eq!(one("Please respond within 10d."), date!(2026 - 12 - 04));
    assert_eq!(
        one("Due by the last day of the month."),
        date!(2026 - 11 - 30)
    );
    // A duration before an event is not counted back.
    assert_eq!(
        one("Please fast for 12 hours before your blood draw on 12/3."),
        date!(2026 - 12 - 03)
    );
}

#[test]
fn dashed_dates_and_parts_of_weeks() {
    // Received Tuesday 2026-11-24.
    assert_eq!(one("Please complete by 12-04-2026."), date!(2026 - 12 - 04));
    assert_eq!(one("Due date 04-Dec-2026"), date!(2026 - 12 - 04));
    // Dashes without a year are a range or an amount.
    assert_eq!(one("Please vote 12/1-12/4."), date!(2026 - 12 - 04));
    assert!(due("Please allow 3-5 business days for delivery.").is_empty());
    // Part of a week names no day.
    assert!(due("Can you get it to me early next week?").is_empty());
    assert!(due("Please send it later this month.").is_empty());
}

#[test]
fn more_closing_lines_start_the_signature() {
    assert_eq!(
        due(
            "Hi all,\n\nPlease sign up for a slot by Dec 2.\n\nBlessings,\nDeacon Mike\nForms due by the 15th"
        ),
        vec![Some(date!(2026 - 12 - 02))]
    );
    assert_eq!(
        due("Hi,\nPlease upload the W-9 by Dec 1.\n\nWarmly,\nAnn\nRenewals due by Friday"),
        vec![Some(date!(2026 - 12 - 01))]
    );
}

#[test]
fn tables_aligned_with_spaces_by_headers_and_numbered_orders() {
    // Received Tuesday 2026-11-24.
    assert_eq!(
        due("Milestone        Due\nDeposit          12/1\nFinal payment    12/15"),
        vec![Some(date!(2026 - 12 - 01)), Some(date!(2026 - 12 - 15))]
    );
    assert_eq!(
        due("Invoice #   Amount   Due Date\n1042        $300     12/04/2026"),
        vec![Some(date!(2026 - 12 - 04))]
    );
    assert_eq!(
        due("| Task | Return by |\n|---|---|\n| Library books | 12/1 |\n| Laptop | 12/8 |"),
        vec![Some(date!(2026 - 12 - 01)), Some(date!(2026 - 12 - 08))]
    );
    assert_eq!(
        due("Next steps\n1) Sign the estimate (Dec 1)\n2) Pay the deposit (Dec 8)"),
        vec![Some(date!(2026 - 12 - 01)), Some(date!(2026 - 12 - 08))]
    );
    // A schedule aligned the same way is no list of limits.
    assert!(due("Date      Event\n12/1      Tryouts\n12/8      First game").is_empty());
}

#[test]
fn a_subject_and_a_past_verb_report_what_was_done() {
    // Received Tuesday 2026-11-24: "by Friday" is otherwise the coming one.
    assert!(due("We finished the deck by Friday as planned.").is_empty());
    assert!(due("Last month you renewed by the 5th, thanks!").is_empty());
    assert!(due("Your claim was processed within 5 business days.").is_empty());
    // A request or a limit after it, or a request reported, is live.
    assert_eq!(
        one("We noticed an error and need the form back by Friday."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("You were asked to return the form by Friday."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("We extended the deadline to Friday."),
        date!(2026 - 11 - 27)
    );
}

#[test]
fn tables_without_outer_bars() {
    assert_eq!(
        due("Task | Deadline\nSubmit timesheet | Dec 2\nReturn laptop | Dec 9"),
        vec![Some(date!(2026 - 12 - 02)), Some(date!(2026 - 12 - 09))]
    );
    assert_eq!(
        due(
            "Übersicht für die Familie\nAufgabe | Frist\nSteuererklärung | 10.12.\nBelege | 15.12."
        ),
        vec![Some(date!(2026 - 12 - 10)), Some(date!(2026 - 12 - 15))]
    );
    assert_eq!(
        due(
            "Resumen de los pagos del mes\nTrámite | Fecha límite\nFormulario | 03/12\nPago | 10/12"
        ),
        vec![Some(date!(2026 - 12 - 03)), Some(date!(2026 - 12 - 10))]
    );
    // A table with no limit column is a schedule.
    assert!(due("Session | Room\nIntro | Dec 2\nWrap-up | Dec 9").is_empty());
}

#[test]
fn german_compounds_and_split_verbs() {
    assert_eq!(
        one("Die Einreichungsfrist ist der 4. Dezember."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Die Bewerbungsfrist für alle Kurse ist der 7.12."),
        date!(2026 - 12 - 07)
    );
    assert_eq!(
        one("Ihr Ausweis läuft am 3. Dezember ab."),
        date!(2026 - 12 - 03)
    );
    assert_eq!(
        one("Der Gutschein läuft am 15.12. ab, bitte lösen Sie ihn vorher ein."),
        date!(2026 - 12 - 15)
    );
    // "ab" before the date is "from".
    assert!(due("Ab 3. Dezember läuft der neue Tarif.").is_empty());
}

#[test]
fn a_limit_told_in_the_past_tense() {
    assert_eq!(
        due("Last term's cutoff was Dec 5; this term send it by Dec 1."),
        vec![Some(date!(2026 - 12 - 01))]
    );
    assert!(due("The deadline was Friday, as you know.").is_empty());
    assert!(due("Die Frist war der 4. Dezember.").is_empty());
    assert!(due("El plazo era el 4 de diciembre.").is_empty());
    // Moved, the new date is live.
    assert_eq!(
        one("The deadline was moved to Friday."),
        date!(2026 - 11 - 27)
    );
}

#[test]
fn an_order_after_a_dash_asks_about_the_window_before_it() {
    assert_eq!(
        one("The clinic has slots Dec 1–4 - book one online."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Our holiday rate ends tomorrow – lock it in now."),
        date!(2026 - 11 - 25)
    );
    assert_eq!(
        one("Free pickups Dec 2-3 — drop your bags at the curb."),
        date!(2026 - 12 - 03)
    );
}

#[test]
fn an_events_days_are_no_window() {
    assert!(due("The conference runs Dec 7–9 - please book your hotel.").is_empty());
    assert!(due("Winter camp runs Dec 21–23, please pack warm clothes.").is_empty());
    assert_eq!(
        one("Open enrollment runs Dec 1–Dec 5."),
        date!(2026 - 12 - 05)
    );
}

#[test]
fn a_label_naming_an_act_then_its_date() {
    assert_eq!(
        due("Key dates:\n- Registration: Dec 3\n- Submission: Dec 10\n- Notification: Dec 20"),
        vec![Some(date!(2026 - 12 - 03)), Some(date!(2026 - 12 - 10))]
    );
    assert_eq!(
        due("Wichtige Termine für die Tagung:\n- Anmeldung: 3. Dezember\n- Vortrag: 10. Dezember"),
        vec![Some(date!(2026 - 12 - 03))]
    );
    assert_eq!(one("Inscripción: 3 de diciembre"), date!(2026 - 12 - 03));
}

#[test]
fn closings_shaped_as_a_short_line_over_a_name() {
    assert!(
        due("Thanks for coming.\n\nHugs,\nMaria\nEnrollment ends Dec 15 - sign up by Dec 10!")
            .is_empty()
    );
    assert!(
        due("Great season!\n\nYours in service,\nPastor Dan\nPledge cards due by Dec 10")
            .is_empty()
    );
    assert!(due("Hasta pronto.\n\nCon cariño,\nLucía\nCuotas vencen el 10/12").is_empty());
    // A comma line over a sentence is no closing.
    assert_eq!(
        one("Quick note.\nAlso,\nthe form is due Friday."),
        date!(2026 - 11 - 27)
    );
    // A greeting is no closing.
    assert_eq!(
        one("Hi team,\nPlease Send Slides By Friday"),
        date!(2026 - 11 - 27)
    );
}

#[test]
fn anywhere_on_earth_cut_offs_and_misspelt_days() {
    // 23:59 at UTC-12 on Dec 1 is 05:59 on Dec 2 in Chicago.
    assert_eq!(
        one("Abstracts due Dec 1, 23:59 AoE."),
        date!(2026 - 12 - 02)
    );
    assert_eq!(
        one("Online ordering cuts off Friday at noon."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(one("send it by wensday pls"), date!(2026 - 11 - 25));
    assert_eq!(one("report due firday"), date!(2026 - 11 - 27));
    // "up" before "before N/M" is a particle, not an amount's change.
    assert_eq!(
        one("Please pick yours up before 12/14."),
        date!(2026 - 12 - 14)
    );
    assert_eq!(
        one("Sign it and send it back before 12/4."),
        date!(2026 - 12 - 04)
    );
}

#[test]
fn this_week_and_next_is_a_two_week_window() {
    // Received Tuesday 2026-11-24: next week is Nov 30 – Dec 6, its end of week Friday Dec 4.
    assert_eq!(
        one("Sign-ups are open this week and next - add your name to the list."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Please send your hours this week and next."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Las inscripciones están abiertas esta semana y la próxima."),
        date!(2026 - 12 - 04)
    );
    // "and next Monday" is a second date, not the second week.
    assert!(
        !due("Please cover the desk this week and next Monday.")
            .contains(&Some(date!(2026 - 12 - 04)))
    );
}

#[test]
fn a_window_told_as_a_permission_and_an_order_to_cancel() {
    assert_eq!(
        one("Used books can be dropped off Tue through Thu at the library."),
        date!(2026 - 11 - 26)
    );
    assert_eq!(
        one("Tickets can be picked up Dec 2-4 at the front desk."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Los formularios se pueden entregar del 1 al 4 de diciembre."),
        date!(2026 - 12 - 04)
    );
    // A way to reach someone is no window.
    assert!(due("Our office can be reached Mon through Wed.").is_empty());
    assert_eq!(
        one("Your trial renews tonight. Cancel today to avoid the fee."),
        date!(2026 - 11 - 24)
    );
    assert_eq!(
        one("Su prueba termina pronto. Cancele mañana si no desea continuar."),
        date!(2026 - 11 - 25)
    );
}

#[test]
fn how_long_an_offer_holds_is_a_span_a_pointer_can_ask_by() {
    assert_eq!(
        one("Your quote is good for 10 days. Please sign the contract by then."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("The estimate is valid for 14 days. Sign it before then to lock the price."),
        date!(2026 - 12 - 08)
    );
    assert_eq!(
        one("Das Angebot ist gültig für 14 Tage. Bitte unterschreiben Sie bis dahin."),
        date!(2026 - 12 - 08)
    );
    assert_eq!(
        one("La cotización es válida por 15 días. Por favor firme antes de esa fecha."),
        date!(2026 - 12 - 09)
    );
    // Nothing asked: how long it holds is no limit.
    assert!(due("This coupon is good for 30 days.").is_empty());
}

#[test]
fn a_meeting_with_its_own_date_is_not_the_limit_before_it() {
    assert_eq!(
        due("Please text YES today to confirm your appointment on Thursday at 10."),
        vec![Some(date!(2026 - 11 - 24))]
    );
    assert_eq!(
        due("Please reply tomorrow to confirm your visit on Monday."),
        vec![Some(date!(2026 - 11 - 25))]
    );
    assert_eq!(
        due("Bitte bestätigen Sie heute Ihren Termin am Donnerstag."),
        vec![Some(date!(2026 - 11 - 24))]
    );
    assert_eq!(
        due("Por favor confirme hoy su cita del jueves."),
        vec![Some(date!(2026 - 11 - 24))]
    );
    assert!(due("Your appointment is on Thursday at 10.").is_empty());
    // A meeting whose day comes after a cue is the date's own meeting.
    assert_eq!(
        due("Please confirm tomorrow's 9:15 appointment by noon today."),
        vec![Some(date!(2026 - 11 - 24))]
    );
}

#[test]
fn an_order_with_a_plural_object_before_its_date() {
    assert_eq!(
        one("Submit expense receipts Dec 1 through 4 so we can reimburse you."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Return library books Nov 30 - Dec 2."),
        date!(2026 - 12 - 02)
    );
    assert_eq!(one("Bring permission slips Friday."), date!(2026 - 11 - 27));
    assert_eq!(
        one("Entregue documentos del 1 al 4 de diciembre."),
        date!(2026 - 12 - 04)
    );
    assert!(due("Pay stubs are ready Monday.").is_empty());
}

#[test]
fn a_pronoun_points_back_at_the_window_just_named() {
    assert_eq!(
        one("Inspection window: Dec 1 – Dec 3. Return the keys within it."),
        date!(2026 - 12 - 03)
    );
    assert_eq!(
        one("The member discount is valid through 12/5 — opt in before it ends."),
        date!(2026 - 12 - 05)
    );
    assert_eq!(
        one("Der Rabatt gilt vom 1.12. bis 5.12. Bitte melden Sie sich an, bevor er endet."),
        date!(2026 - 12 - 05)
    );
    assert_eq!(
        one("La promoción va del 1 al 5 de diciembre; inscríbase antes de que termine."),
        date!(2026 - 12 - 05)
    );
    assert!(due("The member discount is valid through 12/5.").is_empty());
}

#[test]
fn a_cue_reaches_over_an_event_written_right_before_its_date() {
    assert_eq!(
        one("Please fill out the intake form before your visit next Monday."),
        date!(2026 - 11 - 30)
    );
    assert_eq!(
        one("Bring the signed waiver by the recital Friday."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("Por favor llene el formulario antes de su cita el lunes."),
        date!(2026 - 11 - 30)
    );
}

#[test]
fn a_removed_deadline_and_a_negation_ended_by_a_dash() {
    assert!(due("We've removed the Dec 4 deadline for timesheets.").is_empty());
    assert!(due("The Friday cutoff was removed.").is_empty());
    assert!(due("Die Frist zum 4.12. wurde gestrichen.").is_empty());
    assert!(due("Se ha eliminado el plazo del 4 de diciembre.").is_empty());
    assert_eq!(
        one("Please have all boxes removed by Friday."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        due("Disregard the note about Dec 1 — the date to pay is Dec 3."),
        vec![Some(date!(2026 - 12 - 03))]
    );
    assert_eq!(
        due("Ignore the old form — please send the new one by Friday."),
        vec![Some(date!(2026 - 11 - 27))]
    );
    assert_eq!(
        due("Ignora el aviso del 1 de diciembre — la fecha para pagar es el 3 de diciembre."),
        vec![Some(date!(2026 - 12 - 03))]
    );
    assert_eq!(
        due("Ignorieren Sie die Erinnerung zum 1.12. — bitte zahlen Sie bis zum 3.12."),
        vec![Some(date!(2026 - 12 - 03))]
    );
    assert!(due("Ignore the Dec 1 deadline.").is_empty());
}

#[test]
fn someone_elses_wish_for_the_recipients_work_asks() {
    assert_eq!(
        one("The client wants your feedback on the draft COB Friday."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("The auditor is waiting for your numbers EOD tomorrow."),
        date!(2026 - 11 - 25)
    );
    assert_eq!(
        one("Our landlord would like your decision end of next week."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Der Kunde erwartet Ihre Rückmeldung bis Feierabend am Freitag."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("El cliente espera su respuesta mañana."),
        date!(2026 - 11 - 25)
    );
    assert!(due("He wants to leave tomorrow.").is_empty());
}

#[test]
fn days_as_words_and_ranges_of_them() {
    assert_eq!(
        one("Please return the forms between the first and the fourth of December."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Votes are accepted from the second to the ninth of December."),
        date!(2026 - 12 - 09)
    );
    assert_eq!(
        one("Reichen Sie die Unterlagen bitte zwischen dem ersten und dem vierten Dezember ein."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Bitte zahlen Sie bis zum vierten Dezember."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Por favor entregue los papeles antes del cuatro de diciembre."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Envíe el formulario antes del primero de diciembre."),
        date!(2026 - 12 - 01)
    );
    assert_eq!(
        one("Collect your parcel at the front desk between Dec 1 and Dec 3."),
        date!(2026 - 12 - 03)
    );
}

#[test]
fn a_limit_nouns_length_and_short_notices() {
    assert_eq!(
        one("Debe presentar la declaración dentro de los próximos 10 días hábiles."),
        date!(2026 - 12 - 08)
    );
    assert_eq!(
        one("Tiene un plazo de 10 días hábiles para presentar la solicitud."),
        date!(2026 - 12 - 08)
    );
    assert_eq!(
        one("Sie haben eine Frist von 14 Tagen, um Widerspruch einzulegen."),
        date!(2026 - 12 - 08)
    );
    assert_eq!(
        one("You have a deadline of 5 business days to object."),
        date!(2026 - 12 - 01)
    );
    // German notices with no common function word are still read as German.
    assert_eq!(
        one("Frist: 04.12.2026 – Antrag beim Amt abgeben."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Fällig: 4.12. – Miete überweisen."),
        date!(2026 - 12 - 04)
    );
}

#[test]
fn the_plural_spanish_imperative_is_an_order() {
    assert_eq!(
        one("Familias: firmen la hoja de permiso el próximo viernes."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("Vecinos: paguen la cuota de mantenimiento el lunes."),
        date!(2026 - 11 - 30)
    );
    assert_eq!(
        one("Alumnos: entreguen el trabajo mañana."),
        date!(2026 - 11 - 25)
    );
}

#[test]
fn french_and_italian_notices() {
    assert_eq!(
        detect("Merci de renvoyer le formulaire avant le 4 décembre."),
        Lang::Fr
    );
    assert_eq!(
        detect("Si prega di inviare il modulo entro il 4 dicembre."),
        Lang::It
    );
    assert_eq!(
        one("Merci de renvoyer le formulaire signé avant le 4 décembre."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Veuillez régler la facture au plus tard le 10 décembre."),
        date!(2026 - 12 - 10)
    );
    assert_eq!(
        one("Date limite : 1er décembre. Envoyez vos pièces justificatives."),
        date!(2026 - 12 - 01)
    );
    assert_eq!(
        one("Vous devez répondre sous 10 jours ouvrés."),
        date!(2026 - 12 - 08)
    );
    assert_eq!(
        one("Scadenza: entro il 4 dicembre inviare i documenti."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Si prega di pagare la fattura entro 10 giorni lavorativi."),
        date!(2026 - 12 - 08)
    );
    assert_eq!(
        one("Gentile cliente, il modulo va firmato entro venerdì."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("La facture doit être réglée dans un délai de 30 jours."),
        date!(2026 - 12 - 24)
    );
    assert_eq!(
        one("Vous avez 10 jours pour contester cette décision."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Inscriptions du 1er au 10 décembre."),
        date!(2026 - 12 - 10)
    );
    assert_eq!(
        one("Il pagamento va effettuato entro e non oltre il 15 dicembre."),
        date!(2026 - 12 - 15)
    );
    assert_eq!(
        one("Ha 15 giorni per presentare ricorso."),
        date!(2026 - 12 - 09)
    );
    assert_eq!(
        one("Le iscrizioni sono aperte dal 1 al 10 dicembre."),
        date!(2026 - 12 - 10)
    );
    assert!(due("Plus besoin d'envoyer le formulaire avant le 4 décembre.").is_empty());
    assert!(due("Non è più necessario inviare il modulo entro il 4 dicembre.").is_empty());
    assert!(due("Merci pour votre paiement du 20 novembre.").is_empty());
    assert!(due("La réunion aura lieu le 3 décembre.").is_empty());
    assert!(due("La riunione è fissata per il 3 dicembre.").is_empty());
    assert!(due("Grazie per il pagamento del 20 novembre.").is_empty());
}

#[test]
fn a_consequence_after_the_date_makes_it_the_limit_of_an_act_on_a_meeting() {
    assert_eq!(
        one("Please confirm your appointment in 3 business days or it will be released."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("Bitte bestätigen Sie Ihren Termin in 3 Werktagen, sonst verfällt er."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("Por favor confirme su cita en 3 días hábiles o se liberará."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("Merci de confirmer votre rendez-vous sous 48 heures, sinon il sera annulé."),
        date!(2026 - 11 - 26)
    );
    assert!(
        due("Your appointment is in 3 days. Call us if you need to reschedule or cancel.")
            .is_empty()
    );
    assert!(due("Please come to your appointment in 3 days.").is_empty());
    assert!(due("Please come to your appointment tomorrow or call to reschedule.").is_empty());
    assert!(due("Please arrive for your appointment tomorrow, or you may be charged.").is_empty());
}

#[test]
fn an_unlisted_verb_with_its_object_asks_by_the_date_pointed_back_at() {
    assert_eq!(
        one("The portal closes on Dec 4; update your address before then."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("The library shuts for renovation on Dec 5. Borrow your books before then."),
        date!(2026 - 12 - 05)
    );
    assert_eq!(
        one("Der Shop schließt am 4.12.; bestellen Sie Ihre Karten bis dahin."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("La tienda cierra el 4 de diciembre; haga sus pedidos antes de esa fecha."),
        date!(2026 - 12 - 04)
    );
    assert!(due("The office party is on Dec 5; enjoy your weekend before then.").is_empty());
    assert!(due("The launch is Dec 5; we finished the slides before then.").is_empty());
}

#[test]
fn a_later_line_that_moves_the_deadline_replaces_it() {
    assert_eq!(
        due("Please send the invoice by Friday.\nActually, make that Monday."),
        vec![Some(date!(2026 - 11 - 30))]
    );
    assert_eq!(
        due("sam: tax docs due Dec 8\nsam: update, they pushed it to Dec 12"),
        vec![Some(date!(2026 - 12 - 12))]
    );
    assert_eq!(
        due("Kannst du mir die Zahlen bis Montag schicken?\nAch, lieber Mittwoch."),
        vec![Some(date!(2026 - 11 - 25))]
    );
    assert_eq!(
        due("¿Puedes mandar el informe para el lunes?\nMejor el miércoles."),
        vec![Some(date!(2026 - 11 - 25))]
    );
    assert_eq!(
        due("El pago vence el 8 de diciembre.\nLo movieron al 12 de diciembre."),
        vec![Some(date!(2026 - 12 - 12))]
    );
    assert_eq!(
        due("tom: can u send the contract tmrw?\ntom: they pushed the deadline to friday"),
        vec![Some(date!(2026 - 11 - 27))]
    );
    // Not a move: one's own plans, another item, a date that was no deadline.
    assert_eq!(
        due("Send the slides by Tuesday.\nI can't make it Friday though."),
        vec![Some(date!(2026 - 11 - 24))]
    );
    // (A review moved is no limit of the recipient's either: round 8.)
    assert_eq!(
        due("Send the report by Friday. The budget review moved to Monday."),
        vec![Some(date!(2026 - 11 - 27))]
    );
    assert!(due("Lunch on Thursday?\nActually make it Friday.").is_empty());
}

#[test]
fn corrections_and_more_moves_in_a_later_line() {
    assert_eq!(
        due("ana: pls send the w-9 by thu\nana: oops, I meant fri"),
        vec![Some(date!(2026 - 11 - 27))]
    );
    assert_eq!(
        due("ana: pls send the w-9 by thu\nana: scratch that, fri is fine"),
        vec![Some(date!(2026 - 11 - 27))]
    );
    assert_eq!(
        due("tom: can u send the contract tmrw?\nana: yep\ntom: nvm, make it friday"),
        vec![Some(date!(2026 - 11 - 27))]
    );
    assert_eq!(
        due("Kannst du die Rechnung bis Donnerstag schicken?\nSorry, ich meinte Freitag."),
        vec![Some(date!(2026 - 11 - 27))]
    );
    assert_eq!(
        due("Bitte schicken Sie den Bericht bis Donnerstag.\nKorrektur: bis Freitag."),
        vec![Some(date!(2026 - 11 - 27))]
    );
    assert_eq!(
        due("¿Puedes mandar la factura para el jueves?\nPerdón, quise decir el viernes."),
        vec![Some(date!(2026 - 11 - 27))]
    );
    assert!(due("I meant to call you on Friday.").is_empty());
}

#[test]
fn notices_in_the_infinitive_and_more_french_and_italian() {
    assert_eq!(
        one("Renvoyer le formulaire signé avant le 4 décembre."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Entregar el formulario entre el primero y el cuatro de diciembre."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Merci de valider le document d'ici la fin de la semaine."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("Pouvez-vous me répondre d'ici vendredi ?"),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("Rappel : la cotisation est due le 1er décembre."),
        date!(2026 - 12 - 01)
    );
    assert_eq!(
        one("Documenti da consegnare entro fine mese."),
        date!(2026 - 11 - 30)
    );
    assert_eq!(
        one("La quota va pagata entro lunedì 30 novembre."),
        date!(2026 - 11 - 30)
    );
    assert_eq!(
        one("Hand in the keys on the thirtieth."),
        date!(2026 - 11 - 30)
    );
    // A short Spanish line whose only function word is "de" stays Spanish.
    assert_eq!(
        one("Plazo máximo: viernes 4 de diciembre"),
        date!(2026 - 12 - 04)
    );
}

#[test]
fn an_hour_after_a_date_and_until_is_that_days_hour() {
    assert_eq!(
        one("Die Anträge müssen spätestens am 4. Dezember bis 18 Uhr vorliegen."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Abgabe spätestens Freitag, 4. Dezember, bis 10 Uhr."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Entregue el informe a más tardar el 4 de diciembre hasta las 14:00."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Please return the keys by Dec 4 until 3pm at the front desk."),
        date!(2026 - 12 - 04)
    );
}

#[test]
fn zones_written_as_words_count_with_a_capital_after_a_time() {
    // 17:00 in India is 05:30 in Chicago, the same Friday.
    assert_eq!(
        one("Send your slides by 17:00 IST on Friday."),
        date!(2026 - 11 - 27)
    );
    // 09:30 in India on Friday is Thursday evening in Chicago.
    assert_eq!(
        one("Upload the video by 09:30 IST Friday 27 November."),
        date!(2026 - 11 - 26)
    );
    assert_eq!(
        one("Submit the form by 10:00 WEST tomorrow."),
        date!(2026 - 11 - 25)
    );
    assert_eq!(
        one("Please pay by 09:00 WET on Thursday 26 November."),
        date!(2026 - 11 - 26)
    );
    assert!(due("Meet the team at 10:00 West entrance tomorrow.").is_empty());
}

#[test]
fn the_weekend_and_countdowns() {
    assert_eq!(
        one("Could you send the slides by the weekend?"),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("Please get back to me before the weekend."),
        date!(2026 - 11 - 27)
    );
    assert!(due("We spent the weekend moving house.").is_empty());
    assert_eq!(
        due("Enjoy the weekend, and please send the form by Wednesday."),
        vec![Some(date!(2026 - 11 - 25))]
    );
    assert_eq!(
        one("T-minus 5 days to submit your abstracts."),
        date!(2026 - 11 - 29)
    );
}

#[test]
fn an_order_asks_about_the_window_in_its_sentence() {
    assert_eq!(
        one("Submit timesheets for the pay period Nov 30-Dec 4."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Volunteers, book your shift between Dec 1 and Dec 3."),
        date!(2026 - 12 - 03)
    );
    assert_eq!(
        one("Collect badges Dec 1–3 at the front desk."),
        date!(2026 - 12 - 03)
    );
    assert!(due("We submitted hours for Nov 30 - Dec 4 already.").is_empty());
    assert_eq!(
        due("Submit the form today; the office is closed Dec 24-26."),
        vec![Some(date!(2026 - 11 - 24))]
    );
    assert_eq!(
        one("Anmeldungen sind vom 1. bis 4. Dezember möglich."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Rückgaben sind vom 30.11. bis 3.12. möglich."),
        date!(2026 - 12 - 03)
    );
    assert_eq!(
        one("Las solicitudes se aceptan del 1 al 4 de diciembre."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Postulaciones: del 1 al 4 de diciembre."),
        date!(2026 - 12 - 04)
    );
}

#[test]
fn nothing_due_and_not_by_negate() {
    assert!(due("No payment is due by Friday; this is only a statement.").is_empty());
    assert!(due("Nothing is owed by Dec 1, your plan covered it.").is_empty());
    assert!(due("Sie müssen das Formular nicht bis Freitag zurückschicken.").is_empty());
    assert_eq!(
        one("Bitte schicken Sie das Formular bis Freitag zurück."),
        date!(2026 - 11 - 27)
    );
}

#[test]
fn a_possessive_day_with_its_time_names_a_thing() {
    assert_eq!(
        due("Please confirm tomorrow's 8:40 cleaning by replying Y today."),
        vec![Some(date!(2026 - 11 - 24))]
    );
    assert_eq!(
        due("Reply by tonight to keep Friday's 10:00 slot."),
        vec![Some(date!(2026 - 11 - 24))]
    );
}

#[test]
fn to_call_someone_is_an_act_and_an_aside_is_its_own_clause() {
    assert_eq!(
        one("Please call us today to arrange the payment plan."),
        date!(2026 - 11 - 24)
    );
    assert_eq!(
        one("Call me tomorrow about the lease renewal, please."),
        date!(2026 - 11 - 25)
    );
    assert!(due("Let's have a call tomorrow at 3.").is_empty());
    assert_eq!(
        due("Your revisions are due Friday (our office is closed Thursday for the holiday)."),
        vec![Some(date!(2026 - 11 - 27))]
    );
    assert_eq!(
        due("Reports are due Dec 4 (the portal is down on Dec 2 for maintenance)."),
        vec![Some(date!(2026 - 12 - 04))]
    );
    assert_eq!(
        due("Die Unterlagen sind fällig bis Freitag (das Büro ist am Donnerstag geschlossen)."),
        vec![Some(date!(2026 - 11 - 27))]
    );
}

#[test]
fn spanish_orders_with_their_pronoun_written_on() {
    assert_eq!(
        due("Servicio de limpieza: confírmenos mañana si mantiene la cita del jueves."),
        vec![Some(date!(2026 - 11 - 25))]
    );
    assert_eq!(
        one("Envíenos el formulario firmado antes del viernes."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("Por favor, avísenos hoy si necesita la factura."),
        date!(2026 - 11 - 24)
    );
}

#[test]
fn what_is_sent_in_labels_its_date() {
    assert_eq!(
        due(
            "Grant round update\n\n• Letters of intent due Friday 4 December.\n• Full proposals (invited applicants only): 15 January 2027."
        ),
        vec![Some(date!(2026 - 12 - 04)), Some(date!(2027 - 01 - 15))]
    );
    assert_eq!(
        due("Call for papers\nAbstracts: December 10\nNotification: January 15"),
        vec![Some(date!(2026 - 12 - 10))]
    );
    assert_eq!(one("Proposals: Dec 4 at 5pm CT."), date!(2026 - 12 - 04));
    assert!(due("We received 40 proposals on Dec 1 and will reply soon.").is_empty());
}

#[test]
fn a_move_is_a_limit_only_when_what_moves_is_one() {
    assert!(due("The shipment was moved from Dec 2 to Dec 4.").is_empty());
    assert_eq!(
        one("The deadline was moved from Friday to Monday."),
        date!(2026 - 11 - 30)
    );
    assert_eq!(
        one("Heads up: we moved it from Friday to Monday."),
        date!(2026 - 11 - 30)
    );
    assert_eq!(
        one("Die Frist wurde von Freitag auf Montag verschoben."),
        date!(2026 - 11 - 30)
    );
    assert_eq!(
        one("El plazo se ha aplazado del viernes al lunes."),
        date!(2026 - 11 - 30)
    );
}

#[test]
fn the_classes_of_round_8_in_german_and_spanish() {
    assert_eq!(
        one("Kannst du mir die Rechnung bis zum Wochenende schicken?"),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("¿Puedes mandarme la factura antes del fin de semana?"),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("Enviar los documentos del 1 al 4 de diciembre hasta las 18:00."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Bitte reichen Sie die Stunden für den Zeitraum 30.11.–4.12. ein."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Voluntarios, reserven su turno entre el 1 y el 3 de diciembre."),
        date!(2026 - 12 - 03)
    );
    assert!(due("Sie brauchen das Formular nicht bis Freitag zu schicken.").is_empty());
    assert!(due("No tiene que pagar nada antes del viernes; su seguro lo cubrió.").is_empty());
    // 18:00 in India is 06:30 in Chicago, the same day.
    assert_eq!(
        one("Please submit the form by 18:00 IST on 4 December."),
        date!(2026 - 12 - 04)
    );
}

#[test]
fn dutch_and_portuguese_notices() {
    assert_eq!(
        detect("Graag het getekende contract uiterlijk 15 december terugsturen."),
        Lang::Nl
    );
    assert_eq!(
        detect("Caro cliente, envie a sua candidatura até 15 de dezembro."),
        Lang::Pt
    );
    assert_eq!(
        one("Graag het getekende formulier uiterlijk 4 december terugsturen."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Wilt u de begroting vóór vrijdag uploaden in het portaal?"),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("Beste ouders, lever de toestemming in tussen 1 en 3 december."),
        date!(2026 - 12 - 03)
    );
    assert_eq!(
        one("U dient binnen 10 werkdagen te betalen."),
        date!(2026 - 12 - 08)
    );
    assert_eq!(
        one("Prezado cliente, precisamos da fatura até 10 de dezembro."),
        date!(2026 - 12 - 10)
    );
    assert_eq!(
        one("Olá, envie os documentos de 1 a 3 de dezembro, até às 18h00."),
        date!(2026 - 12 - 03)
    );
    assert_eq!(
        one("Prezado cliente, responda ao pedido no prazo de 10 dias úteis."),
        date!(2026 - 12 - 08)
    );
    assert_eq!(
        one("Stuur het formulier graag vóór 4 december terug."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Beste leden, betaal de contributie uiterlijk op 4 december."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Gelieve binnen 10 werkdagen te antwoorden."),
        date!(2026 - 12 - 08)
    );
    assert_eq!(
        one("Olá, envie o relatório até ao fim do mês."),
        date!(2026 - 11 - 30)
    );
    assert!(due("Obrigado por enviar os documentos no dia 20 de novembro.").is_empty());
    assert_eq!(
        one("Vergeet niet: de aanmelding sluit op 1 december."),
        date!(2026 - 12 - 01)
    );
    assert_eq!(
        one("Atenção: as inscrições encerram a 1 de dezembro."),
        date!(2026 - 12 - 01)
    );
    // A move: the new date only.
    assert_eq!(
        due("De deadline is verschoven van 4 december naar 10 december."),
        vec![Some(date!(2026 - 12 - 10))]
    );
    assert_eq!(
        due("O prazo foi prorrogado de 4 para 10 de dezembro."),
        vec![Some(date!(2026 - 12 - 10))]
    );
    assert!(due("Uw pakket wordt op 4 december bezorgd.").is_empty());
    assert!(due("Recebemos o seu pagamento em 20 de novembro, obrigado.").is_empty());
    assert!(due("Não é mais necessário enviar o formulário até 4 de dezembro.").is_empty());
    assert_eq!(
        one("Tem até ao dia 15 de dezembro para entregar a declaração."),
        date!(2026 - 12 - 15)
    );
    assert_eq!(
        one("Envíe la declaración antes del día 15 de diciembre."),
        date!(2026 - 12 - 15)
    );
    // A quoted header block and a closing in Dutch and Portuguese.
    assert!(
        due("Obrigado.\n\nDe: Loja\nEnviada: sexta-feira\nAssunto: Fatura\nEnvie a fatura até 3 de dezembro.")
            .is_empty()
    );
    assert!(
        due("Tot ziens!\n\nMet vriendelijke groet,\nAnke\nBetaal uiterlijk 4 december").is_empty()
    );
    assert_eq!(
        one("Caro sócio, pague a quota até sexta-feira."),
        date!(2026 - 11 - 27)
    );
    // Dutch and Portuguese traps: thanks for what was sent, a meeting's day.
    assert!(due("Bedankt voor het formulier van 1 december.").is_empty());
    assert!(due("A reunião é na sexta-feira às 15h.").is_empty());
}

#[test]
fn a_weekday_counted_in_a_month() {
    assert_eq!(
        one("Please return the signed lease by the first Monday of December."),
        date!(2026 - 12 - 07)
    );
    assert_eq!(
        one("Reports are due the last Friday of the month."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("Send your slides by the 2nd Wednesday in January."),
        date!(2027 - 01 - 13)
    );
    // Said after this month's: next month's.
    assert_eq!(
        one("Please pay the dues by the first Monday of the month."),
        date!(2026 - 12 - 07)
    );
    assert_eq!(
        one("Bitte reichen Sie die Unterlagen bis zum ersten Montag im Dezember ein."),
        date!(2026 - 12 - 07)
    );
    assert_eq!(
        one("Entregue el informe antes del último viernes del mes."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("Merci d'envoyer le dossier avant le premier lundi de décembre."),
        date!(2026 - 12 - 07)
    );
    assert_eq!(
        one("Si prega di pagare entro il secondo martedì di dicembre."),
        date!(2026 - 12 - 08)
    );
    assert_eq!(
        one("Si prega di inviare i documenti entro l'ultimo venerdì del mese."),
        date!(2026 - 11 - 27)
    );
    assert!(due("We meet on the first Monday of each month.").is_empty());
    assert!(due("We sent the forms on the second Tuesday of November.").is_empty());
    assert_eq!(
        one("Graag betalen vóór de eerste maandag van december."),
        date!(2026 - 12 - 07)
    );
    assert_eq!(
        one("Favor enviar o formulário até a primeira segunda-feira de dezembro."),
        date!(2026 - 12 - 07)
    );
    assert_eq!(
        one("Submit by the third Thursday of the month."),
        date!(2026 - 12 - 17)
    );
    // A working day counted in a month, quarter or year.
    assert_eq!(
        one("Please file by the last business day of the year."),
        date!(2026 - 12 - 31)
    );
    assert_eq!(
        one("Timesheets are due the first business day of next month."),
        date!(2026 - 12 - 01)
    );
    assert_eq!(
        one("Quarterly reports are due the last working day of the quarter."),
        date!(2026 - 12 - 31)
    );
}

#[test]
fn times_said_in_words() {
    assert_eq!(
        one("Can you send the deck by half past 3 today?"),
        date!(2026 - 11 - 24)
    );
    assert_eq!(
        one("Need the signed form by quarter to 5 tomorrow."),
        date!(2026 - 11 - 25)
    );
    assert_eq!(
        one("Bitte schicken Sie es bis halb fünf morgen."),
        date!(2026 - 11 - 25)
    );
    // 10:30 pm in New York is 9:30 pm in Chicago, the same day.
    let d = deadlines(
        "Please reply by half past 10 pm ET tomorrow.",
        &Context::new(TUE, TUE.offset()),
    );
    assert_eq!(d[0].due, Some(date!(2026 - 11 - 25)));
    assert_eq!(d[0].time, Some(time::macros::time!(21:30)));
}

#[test]
fn a_limit_counted_back_from_an_event_dated_in_another_sentence() {
    assert_eq!(
        one(
            "The board meets on December 10. Please send agenda items two days before the meeting."
        ),
        date!(2026 - 12 - 08)
    );
    assert_eq!(
        one(
            "Your inspection is scheduled for Friday, December 4. Clear the attic access the day before the inspection."
        ),
        date!(2026 - 12 - 03)
    );
    assert_eq!(
        one("The auction opens on Dec 12. Submit photos a week before the auction."),
        date!(2026 - 12 - 05)
    );
    assert_eq!(
        one("The interview is on the 30th. Send your portfolio 3 days prior to the interview."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("RSVP please one day before the wedding. The wedding is on December 12."),
        date!(2026 - 12 - 11)
    );
    assert_eq!(
        one(
            "Die Anhörung ist am 14. Dezember. Bitte reichen Sie die Unterlagen zwei Tage vor der Anhörung ein."
        ),
        date!(2026 - 12 - 12)
    );
    assert_eq!(
        one(
            "La audiencia es el 14 de diciembre. Presente los documentos dos días antes de la audiencia."
        ),
        date!(2026 - 12 - 12)
    );
    assert_eq!(
        one("La reunión es el 10 de diciembre. Envíe sus comentarios el día antes de la reunión."),
        date!(2026 - 12 - 09)
    );
    assert_eq!(
        one(
            "La réunion a lieu le 10 décembre. Merci d'envoyer vos remarques deux jours avant la réunion."
        ),
        date!(2026 - 12 - 08)
    );
    assert_eq!(
        one(
            "Your move-in date is Dec 12. Please return the checklist 7 days before your move-in date."
        ),
        date!(2026 - 12 - 05)
    );
    assert_eq!(
        one(
            "The course starts on Dec 7. Please cancel no later than 48 hours before the start of the course."
        ),
        date!(2026 - 12 - 05)
    );
    // No date for the event anywhere: no limit.
    assert!(due("Please confirm the day before.").is_empty());
    assert!(due("Send it two days before the deadline.").is_empty());
    assert!(due("Please arrive 10 minutes before the meeting.").is_empty());
    assert!(due("Send the slides two days before the workshop, please.").is_empty());
}

#[test]
fn an_english_sender_from_a_day_first_country_writes_numeric_dates_day_first() {
    // A place in the signature, a phone prefix, an address, a date that reads only one way.
    assert_eq!(
        one("Forms back by 03/12 please.\nThanks,\nAmy\nLeeds office"),
        date!(2026 - 12 - 03)
    );
    assert_eq!(
        one("Please send the invoice by 04/12. Tel +44 20 7946 0958"),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Please reply by 05/12. jo@harbour.co.uk"),
        date!(2026 - 12 - 05)
    );
    assert_eq!(
        one("Your visit was on 25/11; please pay by 04/12."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("London office: please pay by 01/12."),
        date!(2026 - 12 - 01)
    );
    // Otherwise month first, and a date that reads only month first says so.
    assert_eq!(one("Please pay by 01/12."), date!(2027 - 01 - 12));
    assert_eq!(
        one("London office: please pay by 01/12 (see the 11/30 statement)."),
        date!(2027 - 01 - 12)
    );
    // Where someone goes is not where the sender writes from.
    assert_eq!(
        one("We fly to London on Friday; please send the deck by 01/12."),
        date!(2027 - 01 - 12)
    );
    // "13.5 hours" is no date.
    assert_eq!(
        one("We logged 13.5 hours. Please approve by 01/12."),
        date!(2027 - 01 - 12)
    );
}

#[test]
fn recurring_dates_signatures_and_named_ends_before_a_noun() {
    assert!(due("Rent is due by the 5th of every month.").is_empty());
    assert!(due("Please submit timesheets by the 25th of each month.").is_empty());
    assert!(due("Der Beitrag ist bis zum 15. jedes Monats zu zahlen.").is_empty());
    assert!(due("La cuota se paga antes del día 5 de cada mes.").is_empty());
    assert_eq!(one("Please pay by the 15th."), date!(2026 - 12 - 15));
    // A message that is all closing and signature; one that opens with a signature block
    // and then says something.
    assert!(due("Best regards,\nTom Hale\nAcme Billing — invoices due by the 20th").is_empty());
    assert_eq!(
        one("Kind regards,\nJoan\n\nPlease send by 3 Dec"),
        date!(2026 - 12 - 03)
    );
    assert_eq!(
        one("Please send your month-end report by Friday."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("Upload the quarter-end figures by tomorrow."),
        date!(2026 - 11 - 25)
    );
    assert_eq!(one("Please send it by month-end."), date!(2026 - 11 - 30));
}

#[test]
fn a_limit_noun_with_its_own_date_and_windows_handed_in() {
    assert_eq!(
        due("Nominations open Dec 1, deadline Dec 15."),
        vec![Some(date!(2026 - 12 - 15))]
    );
    assert_eq!(
        due("Registration opens Jan 4, deadline: Jan 20."),
        vec![Some(date!(2027 - 01 - 20))]
    );
    assert_eq!(
        due("Anmeldung ab 1. Dezember, Frist 15. Dezember."),
        vec![Some(date!(2026 - 12 - 15))]
    );
    assert_eq!(
        one("The form locks at 5pm CT on Friday."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(one("Voting locks Dec 3 at noon."), date!(2026 - 12 - 03));
    assert_eq!(
        one("Las solicitudes se reciben del 1 al 4 de diciembre."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Gentile cliente, le domande si presentano dal 1 al 4 dicembre."),
        date!(2026 - 12 - 04)
    );
    assert!(due("Las fiestas se celebran del 1 al 4 de diciembre.").is_empty());
}

#[test]
fn how_long_a_place_stays_closed_is_no_limit() {
    for text in [
        "La oficina estará cerrada hasta el 5 de diciembre.",
        "Das Büro ist bis zum 5. Dezember geschlossen.",
        "O escritório estará fechado até 5 de dezembro.",
        "Het kantoor is gesloten tot 5 december.",
        "Le bureau est fermé jusqu'au 5 décembre.",
        "L'ufficio resta chiuso fino al 5 dicembre.",
    ] {
        assert!(due(text).is_empty(), "{text}");
    }
    // Something asked while it is closed is a limit.
    assert_eq!(
        one("Das Büro ist geschlossen, bitte zahlen Sie bis zum 5. Dezember."),
        date!(2026 - 12 - 05)
    );
    assert_eq!(
        one("Las inscripciones están abiertas hasta el 5 de diciembre."),
        date!(2026 - 12 - 05)
    );
    // A meeting word right before the span is not where its event is dated.
    assert!(
        due("Your appointment is on Dec 3. We'll call you the day before the appointment.")
            .is_empty()
    );
}

#[test]
fn a_proposed_date_turned_down_or_taken() {
    assert_eq!(
        due("Proposed deadline of Dec 4 doesn't work for us. Can we make it Dec 7?"),
        vec![Some(date!(2026 - 12 - 07))]
    );
    assert_eq!(
        due("You suggested Dec 3 for the contract; that works, please sign by then."),
        vec![Some(date!(2026 - 12 - 03))]
    );
    assert_eq!(
        due("We can't do the 2nd. Please submit the form by the 4th instead."),
        vec![Some(date!(2026 - 12 - 04))]
    );
    assert_eq!(
        due("No, Dec 5 is too late; we need it by Dec 3."),
        vec![Some(date!(2026 - 12 - 03))]
    );
    assert_eq!(
        due("Thursday is a holiday here, so could you send the numbers Friday instead?"),
        vec![Some(date!(2026 - 11 - 27))]
    );
    // Attending is no proposal.
    assert!(due("We can't make it Friday, sorry.").is_empty());
    assert!(due("You suggested Dec 3 for the call.").is_empty());
}

#[test]
fn quoted_history_with_the_name_after_the_verb() {
    for text in [
        "Bedankt!\n\nOp 20 november 2026 schreef Jan:\nStuur het formulier uiterlijk 4 december terug.",
        "Obrigado!\n\nEm 20 de novembro de 2026, Ana escreveu:\nEnvie o formulário até 4 de dezembro.",
        "Merci !\n\nLe 20 novembre 2026, Jean a écrit :\nMerci de renvoyer le formulaire avant le 4 décembre.",
        "Danke!\n\nAm 20.11.2026 um 10:00 schrieb Jan Müller:\nBitte senden Sie die Unterlagen bis 4. Dezember.",
    ] {
        assert!(due(text).is_empty(), "{text}");
    }
    assert_eq!(
        one("On Monday Jan wrote the plan; please send your part by Dec 4."),
        date!(2026 - 12 - 04)
    );
}

#[test]
fn accepting_a_proposed_day_then_asking_by_it() {
    // Tuesday 2026-11-24: Monday is 11-30, Thursday 11-26, Friday 11-27.
    assert_eq!(one("Monday is fine — send it then."), date!(2026 - 11 - 30));
    assert_eq!(
        one("Thursday works, get it to me then."),
        date!(2026 - 11 - 26)
    );
    assert_eq!(
        one("Friday suits us, please send it over then."),
        date!(2026 - 11 - 27)
    );
    // Accepting a day with nothing asked by it, or an event's day, is no limit.
    assert!(due("Monday is fine for the meeting.").is_empty());
    assert!(due("Your appointment on Friday is fine; bring your ID then.").is_empty());
    assert!(due("Kickoff is Jan 4 - bring your waiver then.").is_empty());
}

#[test]
fn a_preference_is_a_limit_for_a_thing_asked() {
    assert_eq!(
        one("We'd prefer Dec 10 for the signed copy."),
        date!(2026 - 12 - 10)
    );
    assert_eq!(one("Ideally by the 3rd, please."), date!(2026 - 12 - 03));
    assert_eq!(one("Ideally Friday, please."), date!(2026 - 11 - 27));
    // A day preferred for a meeting, or a preference with nothing asked, is none.
    assert!(due("I'd prefer Friday for the call.").is_empty());
    assert!(due("Which day suits you? I'd prefer Friday.").is_empty());
}

#[test]
fn a_fortnight_and_no_later_than() {
    assert_eq!(
        one("Please send the form a fortnight from today."),
        date!(2026 - 12 - 08)
    );
    assert_eq!(
        one("Payment in a fortnight, please."),
        date!(2026 - 12 - 08)
    );
    assert_eq!(
        one("Please reply no later than the 3rd."),
        date!(2026 - 12 - 03)
    );
}

#[test]
fn round10_shapes() {
    // A clock hour with "noon" or "midnight" after it, then a zone and a day.
    let dec24 = datetime!(2030-12-24 12:15 -6);
    assert_eq!(
        due_at("Entries must be in by 12:00 noon ET on Dec 31.", dec24),
        vec![Some(date!(2030 - 12 - 31))]
    );
    assert_eq!(
        due_at("Entries must be in by 12 noon ET on Dec 31.", dec24),
        vec![Some(date!(2030 - 12 - 31))]
    );
    assert_eq!(
        one("Submit the claim by 12:00 midnight on Dec 3."),
        date!(2026 - 12 - 03)
    );
    // "before" over a short event with no article, to its time and day (04:00 UTC is the
    // evening before in Chicago).
    let sep2 = datetime!(2030-09-02 14:30 -5);
    assert_eq!(
        due_at(
            "Ops: submit your fixes before build lock at 04:00 UTC on Sep 4.",
            sep2
        ),
        vec![Some(date!(2030 - 09 - 03))]
    );
    assert_eq!(
        one("Submit your report before the lock on Dec 4."),
        date!(2026 - 12 - 04)
    );
    // Only in an order: the sender's plan is none.
    assert!(due("Before launch on Dec 10 we will send the final build.").is_empty());
    // The event's day is context when the sentence asks by a date of its own.
    assert_eq!(
        due("Ahead of Max's surgery on the 30th, please return the consent by Friday, Nov 27."),
        vec![Some(date!(2026 - 11 - 27))]
    );
    // A period's end heading a line after a sender's label.
    assert_eq!(
        due_at(
            "Acme Freight: COB Thursday for the signed rate sheet.",
            sep2
        ),
        vec![Some(date!(2030 - 09 - 05))]
    );
    // "at the latest" after the date limits the act on an appointment.
    assert_eq!(
        due_at(
            "Confírmenos la cita mañana a más tardar.",
            datetime!(2030-10-17 16:45 -5)
        ),
        vec![Some(date!(2030 - 10 - 18))]
    );
    assert_eq!(
        one("Confirm the appointment Friday at the latest."),
        date!(2026 - 11 - 27)
    );
    // German "-schluss" compounds close entries; "Beschluss" is a decision.
    assert_eq!(
        one("Meldeschluss für die Regatta ist der 4. Dezember."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Gemäß Ratsbeschluss vom 3. Dezember bitte die Unterlagen bis 10. Dezember senden."),
        date!(2026 - 12 - 10)
    );
    // An Irish or Australian town shows a day-first sender.
    let nov28 = datetime!(2030-11-28 07:55 -6);
    for text in [
        "Landlord (Cork): the rent went up by 1/5. Please sign the new lease by 10/12.",
        "Please sign the new lease by 10/12.\nMary, Adelaide",
    ] {
        assert_eq!(
            due_at(text, nov28),
            vec![Some(date!(2030 - 12 - 10))],
            "{text}"
        );
    }
}

#[test]
fn round10_languages_zones_and_orders_with_pronouns() {
    // A line with few or no function words, by its day and month names.
    assert_eq!(detect("Einsendeschluss: 4. Dezember."), Lang::De);
    assert_eq!(detect("Envíelo mañana a más tardar."), Lang::Es);
    assert_eq!(one("Einsendeschluss: 4. Dezember."), date!(2026 - 12 - 04));
    assert_eq!(
        one("Bestellschluss: Freitag, 4. Dezember."),
        date!(2026 - 12 - 04)
    );
    assert_eq!(
        one("Envíelo pasado mañana a más tardar."),
        date!(2026 - 11 - 26)
    );
    // "Envíelo", "devuélvalo", "inviatelo": an order with its pronoun written on.
    assert_eq!(one("Envíelo el viernes."), date!(2026 - 11 - 27));
    assert_eq!(one("Inviatelo entro venerdì."), date!(2026 - 11 - 27));
    assert!(due("El responsable llega el viernes.").is_empty());
    // A day accepted, then asked by, in German and Spanish too.
    assert_eq!(
        one("Montag passt, schicken Sie es dann."),
        date!(2026 - 11 - 30)
    );
    assert_eq!(
        one("El lunes está bien, envíelo entonces."),
        date!(2026 - 11 - 30)
    );
    assert_eq!(
        one("Agreed, Friday it is — send it then."),
        date!(2026 - 11 - 27)
    );
    assert!(due("Montag passt, dann sehen wir uns.").is_empty());
    assert!(due("Friday works for me. See you then!").is_empty());
    // A place's time: 9am in Sydney on Dec 3 is the afternoon before in Chicago.
    assert_eq!(
        one("Please send it by 9am Sydney time on Dec 3."),
        date!(2026 - 12 - 02)
    );
    assert_eq!(
        one("Please send it by 9am Irish time on Dec 3."),
        date!(2026 - 12 - 03)
    );
}

#[test]
fn round10_clock_forms_and_pointers() {
    // Four-digit 24-hour times after a cue, "17h00", a dotted time with am/pm, a zone in
    // parentheses.
    assert_eq!(
        one("Please get it to me by 1700 hrs on the 3rd."),
        date!(2026 - 12 - 03)
    );
    assert_eq!(
        one("Please send it by 17h00 on 3 December."),
        date!(2026 - 12 - 03)
    );
    assert_eq!(
        one("Please send it by 5.30pm on 3 Dec."),
        date!(2026 - 12 - 03)
    );
    assert_eq!(
        one("Submit by 23:59 (UTC+01:00) on 3 December."),
        date!(2026 - 12 - 03)
    );
    // 06:00 UTC on the 3rd is midnight of the 3rd in Chicago.
    assert_eq!(
        due_at(
            "Submit by 06:00 (UTC) on Dec 3.",
            datetime!(2026-11-24 09:00 -6)
        ),
        vec![Some(date!(2026 - 12 - 03))]
    );
    assert!(due("We logged 1700 hrs by Friday.").is_empty());
    assert!(due("The price is 13.50 pm per unit.").is_empty());
    // An accepted day before the date, and a pointer in the next sentence.
    assert_eq!(
        one("We're good with Thursday; please send the proofs then."),
        date!(2026 - 11 - 26)
    );
    assert_eq!(
        one("Happy with Dec 3, send the invoice then."),
        date!(2026 - 12 - 03)
    );
    assert_eq!(
        one("Thursday it is then. Please have the proofs ready by then."),
        date!(2026 - 11 - 26)
    );
}

#[test]
fn round10_day_first_numbers_and_spaced_offsets() {
    let nov28 = datetime!(2030-11-28 07:55 -6);
    for text in [
        "Please sign the lease by 10/12.\nTel: +61 (0)2 9999 0000",
        "Please sign the lease by 10/12.\nTel: +44 (0) 20 7946 0958",
        "Please sign the lease by 10/12.\nTel: 00353 21 999 0000",
        "Please sign the lease by 10/12.\nGold Coast, Queensland",
    ] {
        assert_eq!(
            due_at(text, nov28),
            vec![Some(date!(2030 - 12 - 10))],
            "{text}"
        );
    }
    // A US number keeps the operator's month first (10/12 is past then).
    assert!(
        due_at(
            "Please sign the lease by 10/12.\nTel: +1 312 555 0100",
            nov28
        )
        .is_empty()
    );
    // "UTC +1" with a space: 17:00 at UTC+1 is 10:00 in Chicago.
    assert_eq!(
        due_at("Please send by 17:00 UTC +1 on 3 Dec.", nov28),
        vec![Some(date!(2030 - 12 - 03))]
    );
    assert_eq!(
        due_at("Please send by 03:00 UTC +1 on 3 Dec.", nov28),
        vec![Some(date!(2030 - 12 - 02))]
    );
}

#[test]
fn round10_the_readers_time_and_a_day_fronted_before_an_order() {
    // "your time", "local time": the reader's own, so no zone moves the day.
    assert_eq!(
        one("Please reply by 5pm your time on Friday."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("Please reply by 5pm local time on Friday."),
        date!(2026 - 11 - 27)
    );
    // A day opening the sentence, a comma, then an order.
    assert_eq!(
        one("On Monday, please send the deck."),
        date!(2026 - 11 - 30)
    );
    assert_eq!(
        one("First thing Monday, please send the deck."),
        date!(2026 - 11 - 30)
    );
    assert_eq!(one("Send it by first thing Monday."), date!(2026 - 11 - 30));
    assert!(due("On Monday, we met the client.").is_empty());
    assert!(due("On Monday, the office is closed.").is_empty());
    assert!(due("On Dec 3, sign in at the front desk for your appointment.").is_empty());
}

#[test]
fn the_weekday_after_next() {
    // Said on Tuesday 11-24: next Friday is 11-27, the one after it 12-04.
    assert_eq!(
        one("Please reply by the Friday after next."),
        date!(2026 - 12 - 04)
    );
    // Said on a Friday or a Saturday: next Friday is 12-04, the one after it 12-11.
    assert_eq!(
        due_at(
            "Please reply by the Friday after next.",
            datetime!(2026-11-27 09:00 -6)
        ),
        vec![Some(date!(2026 - 12 - 11))]
    );
    assert_eq!(
        due_at("Please reply by the Friday after next.", SAT),
        vec![Some(date!(2026 - 12 - 11))]
    );
    // "after next week's review" is no such day.
    assert_eq!(
        one("Please reply by Friday after next week's review."),
        date!(2026 - 11 - 27)
    );
}

#[test]
fn a_weekday_then_week_is_a_week_after_it() {
    // Said on Tuesday 11-24: Wednesday is 11-25, "Wednesday week" 12-02.
    assert_eq!(
        one("Could you send the references over by Wednesday week?"),
        date!(2026 - 12 - 02)
    );
    // Said on the day itself: a week from today.
    assert_eq!(
        one("Could you send the references over by Tuesday week?"),
        date!(2026 - 12 - 01)
    );
    // "Wednesday next week" and a week number are other things.
    assert_eq!(
        one("Please reply by Wednesday next week."),
        date!(2026 - 12 - 02)
    );
    assert_eq!(
        one("Please reply by Friday week 48 at the latest."),
        date!(2026 - 11 - 27)
    );
}

#[test]
fn a_date_said_instead_replaces_the_one_before_it() {
    assert_eq!(
        due(
            "Dev: I can't get the draft done by Friday, can I send it Monday instead?\nMe: Monday is fine — send it then"
        ),
        vec![Some(date!(2026 - 11 - 30))]
    );
}

#[test]
fn a_report_of_the_past_ends_at_a_spaced_dash() {
    assert_eq!(
        one("Last year's form was due March 1 — this year please submit it by March 17."),
        date!(2027 - 03 - 17)
    );
    // A limit that has passed reports the past for the rest of its clause.
    assert!(
        due("The October 15 extension deadline has passed and the court entered the order on the 20th.")
            .is_empty()
    );
}

#[test]
fn a_standing_rule_spends_its_limit_word() {
    assert!(
        due("Reminder: rent is due on the 1st of each month, and late fees apply after the 5th.")
            .is_empty()
    );
}

#[test]
fn no_need_in_french_italian_and_portuguese() {
    for text in [
        "Bonjour Louis, inutile de renvoyer le formulaire avant le 7 décembre, nous l'avons déjà reçu.",
        "Ciao Luca, non serve rimandare il modulo entro il 7 dicembre, l'abbiamo già ricevuto.",
        "Olá Rui, não precisa reenviar o formulário até 7 de dezembro, já o recebemos.",
    ] {
        assert!(due(text).is_empty(), "{text}");
    }
}

#[test]
fn a_german_fristablauf_label() {
    assert_eq!(one("Fristablauf: 04.12.2026"), date!(2026 - 12 - 04));
}

#[test]
fn an_order_after_the_people_addressed() {
    assert_eq!(
        one("Coach Ray: parents, bring the signed waivers Thursday or the kids can't ride."),
        date!(2026 - 11 - 26)
    );
    // A thank-you before the comma is no address.
    assert!(due("Thanks, send my best to the team Friday.").is_empty());
}

#[test]
fn a_cue_reaches_a_named_day_dated_in_brackets() {
    assert_eq!(
        one("Liebe Chorfamilie, bitte gebt die Noten bis Gründonnerstag (25.3.) im Pfarrbüro ab."),
        date!(2027 - 03 - 25)
    );
    assert_eq!(
        one("Please send your photos by the recital (Dec 5)."),
        date!(2026 - 12 - 05)
    );
    assert_eq!(
        one("Please return the forms by Thanksgiving (Nov 26)."),
        date!(2026 - 11 - 26)
    );
}

#[test]
fn a_day_set_for_a_thing_in_chat_then_moved() {
    assert_eq!(
        due(
            "Lee: let's say Dec 5 for the draft\nLee: actually make it Dec 7, the 5th is too tight"
        ),
        vec![Some(date!(2026 - 12 - 07))]
    );
    // A day set for a meeting or an event is no limit.
    assert!(due("Lee: let's say Friday for the call").is_empty());
    assert!(due("We'd prefer Dec 10 for the party.").is_empty());
}

#[test]
fn a_polite_request_with_if_you_could() {
    assert_eq!(
        one("We'd be grateful if you could return the signed proofs between 3rd and 7th December."),
        date!(2026 - 12 - 07)
    );
}

#[test]
fn zulu_time_and_have_it_to_me() {
    // 03:00 UTC on Friday is Thursday evening in Chicago.
    assert_eq!(
        one("Please submit the logs by 03:00 Z on Friday."),
        date!(2026 - 11 - 26)
    );
    assert_eq!(one("Please have it to me Monday."), date!(2026 - 11 - 30));
    // The reader's own time in brackets moves nothing.
    assert_eq!(
        one("Please send the slides by 9am Friday (your time)."),
        date!(2026 - 11 - 27)
    );
}

#[test]
fn a_spanish_question_after_a_greeting_asks() {
    // Said on Tuesday 11-24: Wednesday next week is 12-02.
    assert_eq!(
        one(
            "Hola Carla, ¿podrías mandarme los planos corregidos el miércoles de la próxima semana?"
        ),
        date!(2026 - 12 - 02)
    );
}

#[test]
fn a_span_in_a_units_time_and_the_beginning_of_a_month() {
    assert_eq!(
        one("Please send the report in a week's time."),
        date!(2026 - 12 - 01)
    );
    assert_eq!(
        one("Please send the report in two weeks' time."),
        date!(2026 - 12 - 08)
    );
    assert_eq!(
        one("Please return the forms by the beginning of December."),
        date!(2026 - 12 - 01)
    );
    assert_eq!(
        one("Please return the forms by the start of next month."),
        date!(2026 - 12 - 01)
    );
    // The start of a thing that is no month is no date.
    assert!(due("Please arrive by the start of the meeting.").is_empty());
}

#[test]
fn an_obligation_on_a_thing_with_a_plain_date() {
    // Tuesday 11-24: Friday is 11-27.
    assert_eq!(
        one("All borrowed kits must be back in the cage Friday."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("Forms need to be returned Dec 4."),
        date!(2026 - 12 - 04)
    );
    // An obligation to be at a meeting is the meeting's time; one on a person is where to be.
    assert!(due("Everyone must be at the meeting Friday.").is_empty());
    assert!(due("We need to be at the venue Friday.").is_empty());
    // Nor the day of the event it is for.
    assert!(due("The building must be cleared for the fire drill Friday.").is_empty());
}

#[test]
fn moveable_feasts_count_from_easter() {
    // Easter 2027 is March 28 (2031: April 13).
    assert_eq!(
        one("Please return the cameras by Good Friday."),
        date!(2027 - 03 - 26)
    );
    assert_eq!(
        one("All cameras must be back in the cage the Friday before Easter."),
        date!(2027 - 03 - 26)
    );
    assert_eq!(
        due_at(
            "All cameras must be back in the cage the Friday before Easter.",
            datetime!(2031-04-08 09:00 -5)
        ),
        vec![Some(date!(2031 - 04 - 11))]
    );
    assert_eq!(
        one("Bitte gebt die Noten bis Gründonnerstag im Pfarrbüro ab."),
        date!(2027 - 03 - 25)
    );
    assert_eq!(
        one("Por favor, devuelvan la autorización antes del Viernes Santo."),
        date!(2027 - 03 - 26)
    );
    // A feast with no cue is no limit.
    assert!(due("The office is closed over Easter.").is_empty());
}

#[test]
fn an_office_collecting_over_a_range_is_a_window() {
    assert_eq!(
        one("The county is collecting exemption renewals from 12/7 to 12/11 at the annex."),
        date!(2026 - 12 - 11)
    );
    assert_eq!(
        one("We are accepting nominations Dec 1-4."),
        date!(2026 - 12 - 04)
    );
    // A pickup on one day is no window.
    assert!(due("The courier is collecting the parcels on Monday.").is_empty());
}

#[test]
fn a_preference_is_a_limit_but_makes_no_bare_number_an_hour() {
    assert_eq!(
        one("Ideally Friday, please send the deck."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("We'd prefer Dec 10 for the signed copy."),
        date!(2026 - 12 - 10)
    );
    assert!(due("I'd prefer Friday for the call.").is_empty());
    // After "by" a bare hour with a zone is a time; after "ideally" it is a count.
    let ctx = Context::new(TUE, TUE.offset());
    assert!(
        scan("Please book the scans by 2 CT tmrw.", &ctx)
            .iter()
            .any(|e| e.time.is_some())
    );
    let ideally = scan("Ordered the scans: ideally 2 CT tmrw, please.", &ctx);
    assert!(ideally.iter().all(|e| e.time.is_none()), "{ideally:?}");
    assert_eq!(
        due("Ordered the scans: ideally 2 CT tmrw, please."),
        vec![Some(date!(2026 - 11 - 25))]
    );
}

#[test]
fn instead_and_the_words_that_take_a_day_belong_to_their_language() {
    let sem = |text: &str, l: Lang| {
        let toks = lexer::lex(text);
        grammar::annotate(&toks, &languages(l))[0].map(|(_, s)| s)
    };
    // Italian "fine" is an end ("fine mese"), English "fine" takes a proposed day.
    assert_eq!(sem("fine", Lang::It), Some(lang::Sem::EndOf));
    assert_eq!(sem("fine", Lang::En), Some(lang::Sem::Accept));
    assert_eq!(sem("invece", Lang::It), Some(lang::Sem::Instead));
    assert_eq!(sem("invece", Lang::En), None);
    assert_eq!(sem("passt", Lang::De), Some(lang::Sem::Accept));
}

#[test]
fn a_line_with_no_function_word_is_told_by_its_names() {
    assert_eq!(detect("Einsendeschluss: 4. Dezember."), Lang::De);
    assert_eq!(detect("Please send it by Friday."), Lang::En);
    // Nothing to tell by: the first language.
    assert_eq!(detect("4/12 ok"), Lang::En);
}

#[test]
fn what_follows_otherwise_is_a_consequence() {
    assert_eq!(
        due("We need the invoice today by 3 pm, otherwise storage fees start tomorrow."),
        vec![Some(date!(2026 - 11 - 24))]
    );
    // Unless it asks on its own.
    assert_eq!(
        due("Send the form by Friday, otherwise please pay the late fee by Monday."),
        vec![Some(date!(2026 - 11 - 27)), Some(date!(2026 - 11 - 30))]
    );
}

#[test]
fn a_need_right_before_until_asks_for_time() {
    assert!(due("I'll need until Friday for my part, is that ok?").is_empty());
    assert!(due("We need until Dec 4 to review it.").is_empty());
    // A window's permission is still a limit.
    assert_eq!(
        one("Applications are accepted until Dec 4."),
        date!(2026 - 12 - 04)
    );
}

#[test]
fn a_date_between_an_article_and_a_noun_names_a_thing() {
    assert_eq!(
        due("The deadline for the May 3 shipment is April 28."),
        vec![Some(date!(2027 - 04 - 28))]
    );
    assert_eq!(
        due("Please pay the Dec 3 invoice by Friday."),
        vec![Some(date!(2026 - 11 - 27))]
    );
    // After a cue it is the limit.
    assert_eq!(
        one("Please send the manifest before the Dec 3 sailing."),
        date!(2026 - 12 - 03)
    );
}

#[test]
fn a_counter_proposal_taken_replaces_the_ask() {
    assert_eq!(
        due(
            "Ana: can you send the slides by Wednesday?\nme: thursday ok?\nAna: thursday's fine — send it then"
        ),
        vec![Some(date!(2026 - 11 - 26))]
    );
    // A day taken for a meeting leaves the ask alone.
    assert_eq!(
        due("Can you send the slides by Wednesday? Thursday is fine for the call."),
        vec![Some(date!(2026 - 11 - 25))]
    );
}

#[test]
fn not_turns_down_the_day_right_after_it() {
    assert_eq!(
        due("The report is due Monday now, not Tuesday."),
        vec![Some(date!(2026 - 11 - 30))]
    );
    assert_eq!(
        due("Send the deck Monday, not Tuesday."),
        vec![Some(date!(2026 - 11 - 30))]
    );
}

#[test]
fn list_items_under_an_asking_heading_are_limits() {
    assert_eq!(
        due("Please send:\n- the signed lease: Dec 3\n- the deposit: Dec 5"),
        vec![Some(date!(2026 - 12 - 03)), Some(date!(2026 - 12 - 05))]
    );
    assert_eq!(
        due("Outstanding items from your side:\n- the W-9: Dec 3\n- the signed NDA: Dec 5"),
        vec![Some(date!(2026 - 12 - 03)), Some(date!(2026 - 12 - 05))]
    );
    // A heading that asks nothing.
    assert!(due("Schedule:\n- kickoff: Dec 3\n- review: Dec 5").is_empty());
}

#[test]
fn a_meeting_before_an_asked_clause_is_what_it_refers_to() {
    assert_eq!(
        one("As discussed on our call, please send the signed form within 3 business days."),
        date!(2026 - 11 - 27)
    );
    assert!(due("Let's have a call, Friday at 3pm.").is_empty());
}

#[test]
fn the_senders_own_verbs_joined_by_and_stay_a_promise() {
    assert_eq!(
        due("If you approve the proof by Thursday we can print and ship by Dec 12."),
        vec![Some(date!(2026 - 11 - 26))]
    );
    // "and" before the recipient starts another clause.
    assert_eq!(
        one("I'll send the draft and you sign it by Friday."),
        date!(2026 - 11 - 27)
    );
}

#[test]
fn round12_limit_words_spans_and_reminders() {
    assert_eq!(
        one("Final numbers please — hard stop Thursday noon."),
        date!(2026 - 11 - 26)
    );
    assert_eq!(
        one("You must file the response no later than 30 days from the date of this notice."),
        date!(2026 - 12 - 24)
    );
    assert_eq!(
        one("Recuerde traer los documentos mañana antes de las 10."),
        date!(2026 - 11 - 25)
    );
    // "no olvide" reminds, it negates nothing.
    assert_eq!(
        one("No olvide pagar la factura antes del viernes."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("Ricordatevi di consegnare il modulo entro venerdì."),
        date!(2026 - 11 - 27)
    );
    assert_eq!(
        one("File your renewal between Dec 7 and Dec 11."),
        date!(2026 - 12 - 11)
    );
    assert!(due("The file is attached; the review is Dec 3.").is_empty());
}

#[test]
fn an_obligation_on_a_closed_place_is_its_hours() {
    assert!(due("The office must be closed Friday.").is_empty());
    assert!(due("The office is closed until Jan 3.").is_empty());
    assert_eq!(one("All kits must be back Friday."), date!(2026 - 11 - 27));
}

#[test]
fn a_lapse_next_to_an_earlier_limit_is_its_reason() {
    assert_eq!(
        due("Your library card expires Dec 20. To keep the discount, renew it by Dec 10."),
        vec![Some(date!(2026 - 12 - 10))]
    );
    // Alone, or asked about, it is the limit.
    assert_eq!(
        one("Your library card expires Dec 20."),
        date!(2026 - 12 - 20)
    );
    assert_eq!(
        one("Your library card expires Dec 20. Please renew it before then."),
        date!(2026 - 12 - 20)
    );
    // A limit that is due (not a lapse) stands next to an earlier one.
    assert_eq!(
        due("The report is due Dec 20. Please send the outline by Dec 10."),
        vec![Some(date!(2026 - 12 - 20)), Some(date!(2026 - 12 - 10))]
    );
}

#[test]
fn a_third_partys_wish_next_to_an_earlier_limit_is_its_reason() {
    assert_eq!(
        due("Can you send me the cut by Wednesday? The director wants to see it before Friday."),
        vec![Some(date!(2026 - 11 - 25))]
    );
    // Alone it is the limit the recipient works to.
    assert_eq!(
        one("The director wants to see the cut by Friday."),
        date!(2026 - 11 - 27)
    );
}

#[test]
fn a_zoned_time_lands_on_the_operators_day_across_a_clock_change() {
    // Saturday before the US spring change; Monday 23:30 in Denver (MDT) is Tuesday 00:30 in
    // Chicago (CDT), which the Saturday offset (CST) would put on Monday 23:30.
    let sat = datetime!(2032-03-13 09:00 -6);
    let text = "Please upload the files by 11:30pm Mountain on Monday.";
    let named = Context::new(sat, sat.offset()).in_zone("America/Chicago");
    let due_in = |ctx: &Context| {
        deadlines(text, ctx)
            .into_iter()
            .map(|d| d.due)
            .collect::<Vec<_>>()
    };
    assert_eq!(due_in(&named), vec![Some(date!(2032 - 03 - 16))]);
    // With only an offset known, the received offset is all there is.
    assert_eq!(
        due_in(&Context::new(sat, sat.offset())),
        vec![Some(date!(2032 - 03 - 15))]
    );
}

#[test]
fn a_zone_named_at_run_time_is_used_when_the_database_knows_it() {
    // The operator's configured zone arrives as a String; the same Monday-night case as above.
    let sat = datetime!(2032-03-13 09:00 -6);
    let text = "Please upload the files by 11:30pm Mountain on Monday.";
    let configured = String::from("America/Chicago");
    let named = Context::new(sat, sat.offset()).in_named_zone(&configured);
    assert_eq!(named.zone, Some("America/Chicago"));
    assert_eq!(
        deadlines(text, &named)
            .into_iter()
            .map(|d| d.due)
            .collect::<Vec<_>>(),
        vec![Some(date!(2032 - 03 - 16))]
    );
    // A name the database does not know (a bare offset, a typo) leaves the offset in charge.
    for unknown in ["UTC-06:00", "America/Chicgo", ""] {
        assert_eq!(
            Context::new(sat, sat.offset()).in_named_zone(unknown).zone,
            None,
            "{unknown}"
        );
    }
}
