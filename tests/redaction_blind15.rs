//! The PHI redactor against the fifteenth blind evaluation set (tests/redaction_blind15: 28
//! families; 19 of them the five genres of the hidden corpus, written in forms blind14 does not
//! use: referral letters from a dialysis unit (a letter with the patient's name wrapped across
//! a line, and a staff e-mail asking a transient unit), a dentist (a dotted form with its fields
//! shuffled, and a letter), a physical therapist's plan-of-care e-mail and an urgent-care
//! summary for the PCP (licence checked, plates and VINs); HL7 v2 MDM^T02 with \T\ \S\ \F\
//! \R\ escapes beside names, ORM^O01 with PV1 room^bed and NK1, DFT^P03 with FT1/GT1/IN1, and
//! ADT^A08 with repeats (MRN~SSN, a name~an alias, a street~a PO box, phones~an e-mail);
//! voicemail and call transcripts — an answering service's upper-case overnight log, a nurse
//! line's triage transcript (spelled surnames, spoken and digit-by-digit dates of birth), a
//! pharmacist's prior-auth and a technician's refill call-back (spoken member ids, phone and
//! fax numbers), relatives' voicemails ("calling about my mother", spoken rooms, streets and
//! e-mails); scheduling chats — a dialysis chair board ("mrs k", chairs and stations) and a
//! charge nurses' WhatsApp thread, a PT clinic's Slack export and a front desk's group text in
//! lower case (nicknames, names that are words: will, hope, grace), a Teams channel exported
//! to CSV; billing mail — a payer's denial letter and an EOB table, a collection agency's
//! notice and payment texts with tokenised links, a portal message export (login IP, a card
//! typed in), a dental billing thread with quoted replies and flast@ addresses. The other nine:
//! hospice visit notes (a third OCR'd with look-alike letters), lab requisitions, imaging
//! reports (implant serials), guardianship court notices, Polish, Tagalog, Hindi-romanised and
//! Arabic-romanised mail, and CGM/BP-cuff exports (JSON, CSV) — all written without reading
//! the redactor's rules, word lists or the other sets' generators). Names include ones that
//! are common words (Rose, Hope, Faith, Daisy, Summer, Grace, Will, Mark, Grant; Young, Bishop,
//! Price, Lane, Page, Law, Little), particles (van der Berg, de la Cruz, di Stefano, le Roux,
//! ten Hove), hyphens, apostrophes (O'Neil, O'Dowd, D'Souza, N'Dour, D'Amico), diacritics,
//! Mc/Mac and two-part surnames, and nicknames (Peggy, Trish, Bernie, Reggie). A roster of a
//! third of the patients and none. A HOLDOUT: nobody tunes on it. `cargo test --test
//! redaction_blind15 -- --nocapture` shows the tables; `OPSDESK_SHOW_MISSES=1` adds every miss
//! and false positive in context, `OPSDESK_SHOW_DOCS=1` every document.
//!
//! Labelling conventions (HIPAA Safe Harbor's identifiers), those of blind14 unchanged:
//! - Person: a patient's or relative's name as written, without titles (Mr., Ms., Frau,
//!   "-nim") or a possessive `'s`. Runs of a name split by punctuation are labelled apart:
//!   `Family, Given M` is two labels (the trailing period of an initial is outside), HL7's
//!   `FAMILY^GIVEN^M` is three (the middle initial is part of the name, as is an intake
//!   form's "MI"), a glued file name `VanDerMerwePieter`-style is two adjacent labels. First
//!   names alone, nicknames, spelled surnames ("o-k-a-f-o-r") and a lone surname initial
//!   ("mrs k") are labelled. Staff and clinicians are in the keep list and never labelled.
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
//! Made precise by blind14 and kept: a name's run joined by spaces, hyphens or apostrophes
//! (`García Márquez`, `Smith-Okonkwo`, `O'Dowd`, `Rose M. Bishop`) is one label; HL7's street
//! component and its unit component (`…^APT 3B^…`) are two Address labels; an ISO timestamp
//! (`2026-03-14T04:15:00Z`) is labelled on its date part, its time being a time (HL7's glued
//! `202603140415` stays whole); a practice's own mailbox (`billing@…`) is an Email like any
//! other; a Polish PESEL is labelled Ssn; spoken street lines are Address. Not labelled: the
//! last four digits of a card alone, court case, accession, requisition and control numbers,
//! a provider's NPI, a payer's PO box.
//!
//! Made precise here, none changed: a name wrapped across a line break ("Mrs. Rose⏎McAllister")
//! is two labels, one a line; a dialysis chair or station number, and the Arabic "ghurfe" and
//! "sarir" (room, bed) values, are Rooms, as is a spoken room ("room two twenty eight"); a
//! spoken e-mail ("rose dot young at gmail dot com") is one Email; a date of birth read digit by
//! digit ("oh three fourteen forty one") is a Date, a member id read out is a HealthPlan; a
//! repeated HL7 field is labelled per repetition (PID-3 `MRN~SSN`, PID-5 `name~alias`), and a
//! patient's own PO box there is an Address (a payer's is not, nor the payer's town and ZIP
//! beside it); OCR'd text is labelled as it was read, look-alike letters and all; kin words
//! (Lola, Nanay, mama, "papa … ji") are not names, the "ji" is outside the label; staff first
//! names alone in chats ("tamsin") and staff chat handles ("brendan.hollis") are staff, not
//! labelled; a town named alone, outside a postal address, does not occur in this set. The
//! keep list holds the practice, its sites, payers, pharmacies, the staff's full names, the
//! collection agency, the lab, a care home, a law firm and the answering service.
//!
//! First figures (the redactor as of dce7530, 2026-12-07; 640 documents, 8,404 labels, a roster of
//! 32 names — every third patient of the pool of 96): with the roster all 93.4%, names 92.9%,
//! precision 95.5%, character precision 95.0%; without it all 93.1%, names 91.8%, precision 95.5%,
//! character precision 95.1%. Weakest kinds: Room 57.5%, Vehicle 58.1%, Age 77.6%, HealthPlan
//! 84.0%, Email 84.1% (49 of its 51 misses the practice's and a specialist's own mailboxes), Zip
//! 89.7%, Address 91.8%, Person 92.9/91.8%; weakest families (with/without roster) triage
//! 74.8/74.8%, polish 77.2/77.2%, ptchat 77.6/76.3%, dialchat 78.1/74.9%, arabic 80.1/80.1%, vmkin
//! 87.2/87.2%, answsvc 88.4/87.9%, dentbill 88.8/88.8%, pharmcb 89.5/88.9%. Lowest precision:
//! License 66.7%, HealthPlan 74.5%, Mrn 77.9%, Url 79.6% (a payer's public EOB page), Person 93.7%.
//! The families are written from one to three templates each, so a family's recall moves in steps
//! of a template.
//! After round 12 (tuned on blind14, nobody having read this set's misses; main at a5f9b25),
//! without a roster: all 93.6%, names 93.0%, precision 95.5%.

// The crate roots share the directories' names, so the modules' files must be named outright.
#[path = "redaction_blind15/mod.rs"]
mod redaction_blind15;
#[path = "redaction_harness/mod.rs"]
mod redaction_harness;

use redaction_blind15::{FAMILIES, generate};
use redaction_harness::{Floors, IDENTIFIERS, Sanity, evaluate, floors_fail_a_broken_redactor};

const SEED: u64 = 0x15B1_1D0C_E2A7_4D33;
const DOCS: usize = 640;

const SANITY: Sanity = Sanity {
    min_docs: 600,
    min_families: 26,
    families: &FAMILIES,
    kinds: IDENTIFIERS,
};

/// Loose floors: a holdout is measured, not tuned against.
const FLOORS: Floors = Floors {
    names: 70.0,
    all: 75.0,
    precision: 70.0,
    char_precision: 50.0,
};

#[test]
fn redactor_on_the_fifteenth_blind_set() {
    evaluate(
        "fifteenth blind set",
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
