//! The PHI redactor against the fourteenth blind evaluation set (tests/redaction_blind14: 28
//! families — half the everyday genres of a clinic's mail written fresh: referral letters in
//! three layouts (letter, dotted form, short mail), specialists' consult replies, portal
//! referral forms forwarded with their fields in any order, fax cover sheets; HL7 v2 ADT
//! (NK1, PV1 rooms and beds, IN1), ORU (OBR/OBX/NTE) and SIU/DFT feeds; lower-case voicemail
//! transcripts from relatives and from patients (spoken names, spelled surnames, spoken phone
//! numbers, dates, chart numbers and ages); front-desk and on-call rota chats ("mrs b in 4",
//! nicknames, handovers, dated WhatsApp threads); patient statements, payment texts and final
//! notices, billing e-mail threads and payer EOBs and portal claim details — and half
//! new: home-health visit notes, hospice notes, lab requisitions, imaging reports, school
//! nurse letters, guardianship court notices, workers' comp reports, Polish, Tagalog,
//! Hindi-romanised and Arabic-romanised mail, telehealth session logs, wearable exports (CSV,
//! JSON) and OCR'd handwritten notes — written without reading the redactor's rules, word
//! lists or the other sets' generators). Names include ones that are common words (Rose,
//! Hope, Grant, Young, Bishop, Summer, Will, Mark, Page, Price, Lane), particles, hyphens,
//! apostrophes, diacritics, Mc/Mac/O' and two-part surnames. A roster of a third of the
//! patients and none. Written as a holdout; tuned on since round 12 (see the figures
//! below). `cargo test --test redaction_blind14 -- --nocapture` shows the tables;
//! `OPSDESK_SHOW_MISSES=1` adds every miss and false positive in context,
//! `OPSDESK_SHOW_DOCS=1` every document.
//!
//! Labelling conventions (HIPAA Safe Harbor's identifiers), those of blind13 unchanged:
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
//! Made precise here, not changed: a name's run joined by spaces, hyphens or apostrophes
//! (`García Márquez`, `Smith-Okonkwo`, `O'Dowd`, `Rose M. Bishop`) is one label; HL7's street
//! component and its unit component (`…^APT 3B^…`) are two Address labels; an ISO timestamp
//! (`2026-03-14T04:15:00Z`) is labelled on its date part, its time being a time (HL7's glued
//! `202603140415` stays whole); a practice's own mailbox (`billing@…`) is an Email like any
//! other; a school classroom number is a Room; a Polish PESEL is labelled Ssn; spoken street
//! lines ("sixty three thirty seven hope street") are Address. Not labelled: the last four
//! digits of a card alone, court case, accession, requisition and control numbers, a
//! provider's NPI, a payer's PO box, an employer's, a school's, a law firm's and a specialist
//! practice's names (the last three, their teacher and the school nurse are in the keep list).
//!
//! First figures (the redactor as of 06f08d2, 2026-12-07; 644 documents, 6,588 labels, a
//! roster of 32 names — every third patient of the pool of 96): with the roster all 96.0%,
//! names 95.1%, precision 96.5%, character precision 95.6%; without it all 95.4%, names
//! 93.4%, precision 96.5%, character precision 95.6%. Weakest kinds: Room 56.6%, Vehicle
//! 74.2%, Email 90.1% (the practice's referrals mailbox), License 93.0%, Mrn 94.8%, Person
//! 95.1/93.4%; weakest families (with/without roster) schedchat 77.4/72.6%, rotachat
//! 83.7/82.3%, voicemail 83.8/83.2%, refintake 88.2/88.2%, tagalog 89.4/89.4%, vmpatient
//! 93.2/93.2%, workcomp 93.6/91.3%, ocrnote 94.6/94.6%. Lowest precision: HealthPlan 74.5%,
//! Url 80.7%, Account 82.2%, License 88.5%, Mrn 90.3%, Person 94.2%. The families are written
//! from a few templates each, so a family's recall moves in steps of a template.
//!
//! Tuned on since round 12 (fourteenth session; its development set, names only by the NAMES
//! tuner): without a roster names 98.5%, precision 99.7% on names; all 97.0%, precision
//! 98.0%, character precision 96.7% (with the roster names 99.2%). The floors below sit just
//! under those figures.

// The crate roots share the directories' names, so the modules' files must be named outright.
#[path = "redaction_blind14/mod.rs"]
mod redaction_blind14;
#[path = "redaction_harness/mod.rs"]
mod redaction_harness;

use redaction_blind14::{FAMILIES, generate};
use redaction_harness::{Floors, IDENTIFIERS, Sanity, evaluate, floors_fail_a_broken_redactor};

const SEED: u64 = 0xB14D_5EED_7A91_2026;
const DOCS: usize = 644;

const SANITY: Sanity = Sanity {
    min_docs: 600,
    min_families: 26,
    families: &FAMILIES,
    kinds: IDENTIFIERS,
};

/// Floors just under the figures after round 12 tuned on this set (names 98.5%, all 97.0%,
/// precision 98.0%, character precision 96.7%, without a roster).
const FLOORS: Floors = Floors {
    names: 98.2,
    all: 96.7,
    precision: 97.7,
    char_precision: 96.4,
};

#[test]
fn redactor_on_the_fourteenth_blind_set() {
    evaluate(
        "fourteenth blind set",
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
