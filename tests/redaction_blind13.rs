//! The PHI redactor against the thirteenth blind evaluation set (tests/redaction_blind13: 28
//! families — two thirds the everyday genres of a clinic's mail written fresh: referral
//! letters and specialists' replies with signatures, HL7 v2 ADT, ORU, SIU and MDM/DFT feeds
//! (`^` components, `~` repeats, `\T\ \S\ \F\` escapes), lower-case voicemail transcripts
//! with spoken names, spelled surnames, spoken numbers and dates, staff scheduling chats
//! ("mrs k", nicknames, first names), billing statements, collections letters, attachment
//! names with glued fields, mail subjects, forwarded threads, portal messages, refill and
//! prior-authorisation faxes, discharge summaries, SOAP notes, intake forms; and a third new:
//! dental charts, optometry exams, physiotherapy plans of care, ambulance hand-offs, pharmacy
//! SMS logs, interpreter requests, German referrals, Korean-romanised reminders and Yoruba
//! mail — written without reading the redactor's rules, word lists or the other sets'
//! generators), with a roster of a third of the patients and without one. Written as a holdout; tuned on since
//! round 11 (thirteenth session) (without a roster all 98.6%, names 97.3%, precision 99.5% after it). `cargo test --test redaction_blind13 -- --nocapture` shows the tables;
//! `OPSDESK_SHOW_MISSES=1` adds every miss and false positive in context, `OPSDESK_SHOW_DOCS=1`
//! every document.
//!
//! Labelling conventions (HIPAA Safe Harbor's identifiers):
//! - Person: a patient's or relative's name as written, without titles (Mr., Ms., Frau,
//!   "-nim") or a possessive `'s`. Runs of a name split by punctuation are labelled apart:
//!   `Family, Given M` is two labels (the trailing period of an initial is outside), HL7's
//!   `FAMILY^GIVEN^M` is three (the middle initial is part of the name, as is an intake
//!   form's "MI"), a glued file name `VanDerMerwePieter`-style is two adjacent labels. First names alone,
//!   nicknames, spelled surnames ("o-k-a-f-o-r") and a lone surname initial ("mrs k") are
//!   labelled. Staff and clinicians are in the keep list and never labelled.
//! - Date: every day-level date in a document about a patient (birth, visit, admission,
//!   service, appointment, letter and message dates, HL7 timestamps whole), in any form incl.
//!   words and month-day without a year; a year alone, weekdays and relative days are not.
//! - Age: only over 89, the number or words alone ("94" of "94-year-old", "ninety four").
//! - Phone and Fax: every telephone and fax number, whoever's (the redactor cannot tell), incl.
//!   spoken digits; Email every address; Url only a personal link (photo shares, a payment
//!   link with its token; a public guidance page is not labelled).
//! - Address: the street line (with its unit) and the town of a postal address, labelled
//!   apart; Zip the ZIP/PLZ; the state is not labelled.
//! - Mrn, Account (incl. claim numbers), HealthPlan (member ids), Ssn, License (driver's
//!   licence), Card (Luhn-valid), Device (serials), Vehicle (plates, VINs), Ip: the value
//!   only, not its cue; Room: the room or bed value only.
//! - Not labelled (negatives): drug names and doses, eponyms (Parkinson's, Foley, Glasgow,
//!   Apgar, Hashimoto's, Homan's, Zimmer), lab values, times, codes (CPT, ICD-10), the
//!   practice, its sites, payers and staff; and, as a choice, HL7 message control ids, order
//!   and document numbers, insurance group numbers, a pharmacy's SMS short code.
//!
//! First figures (the redactor of main at 34eb894, 2026-12-07; 624 documents, 6,268 labels,
//! a roster of 32 names — every third patient of the pool of 96): with the roster all 95.1%,
//! names 91.5%, precision 95.1%, character precision 94.2%; without it all 94.7%, names
//! 90.0%, precision 95.1%, character precision 94.2%. Weakest kinds: License 60.6%, Age
//! 69.3%, Room 75.5%, Person 91.5/90.0%, Phone 96.6%, Account 96.7%; weakest families
//! (with/without roster) voicemail 72.0/72.0%, yoruba 72.4/71.2%, attach 81.2/81.2%,
//! interpret 82.4/81.7%, korean 83.5/83.5%, german 87.4/85.2%, schedchat 88.6/84.9%,
//! subjects 89.1/87.1%, physio 89.5/88.3%. Lowest precision: HealthPlan 81.7%, Mrn 88.1%,
//! Person 88.6%, Address 95.7%.

// The crate roots share the directories' names, so the modules' files must be named outright.
#[path = "redaction_blind13/mod.rs"]
mod redaction_blind13;
#[path = "redaction_harness/mod.rs"]
mod redaction_harness;

use redaction_blind13::{FAMILIES, generate};
use redaction_harness::{Floors, IDENTIFIERS, Sanity, evaluate, floors_fail_a_broken_redactor};

const SEED: u64 = 0xB13D_5EED_0C1A_2026;
const DOCS: usize = 624;

const SANITY: Sanity = Sanity {
    min_docs: 600,
    min_families: 24,
    families: &FAMILIES,
    kinds: IDENTIFIERS,
};

/// Loose floors, set when this was the holdout (a holdout is measured, not tuned against).
const FLOORS: Floors = Floors {
    names: 70.0,
    all: 75.0,
    precision: 70.0,
    char_precision: 50.0,
};

#[test]
fn redactor_on_the_thirteenth_blind_set() {
    evaluate(
        "thirteenth blind set",
        &|| generate(SEED, DOCS),
        &SANITY,
        &FLOORS,
    );
}

/// The floors above are not vacuous: a redactor that finds nothing and one that redacts every
/// line whole both fail them.
#[test]
fn the_floors_fail_a_broken_redactor() {
    floors_fail_a_broken_redactor(&generate(SEED, 64).docs, &FLOORS);
}
