//! The PHI redactor against the twelfth blind evaluation set (tests/redaction_blind12: 24
//! families — two thirds the everyday genres of a clinic's mail written fresh: referral
//! letters, HL7 v2 ADT, ORU and SIU feeds, lower-case voicemail transcripts with spoken
//! numbers and dates, staff scheduling chats, billing statements and payment plans,
//! collections, attachment names with glued identifiers, mail subjects, forwarded threads,
//! portal messages, pharmacy refill faxes, prior-authorisation fax covers, discharge
//! summaries, SOAP notes; and a third new: hospice admissions, home-health visit notes,
//! newborn screening, staff Slack threads, and Vietnamese, Haitian Creole, Polish and
//! Brazilian Portuguese messages — written without reading the redactor's rules, word lists
//! or the other sets' generators), with a roster of a third of the patients and without one.
//! Written as a holdout; tuned on since round 10 (twelfth session) (without a roster all 99.2%, names 97.1%, precision 97.0% after it). `cargo test --test redaction_blind12 -- --nocapture` shows
//! the tables; `OPSDESK_SHOW_MISSES=1` adds every miss and false positive in context,
//! `OPSDESK_SHOW_DOCS=1` every document.
//!
//! First figures (the redactor of main at abd3da6, 2026-12-06; 624 documents, 3,741 labels,
//! a roster of 33 names — every third patient of the pool): with the roster all 94.8%, names
//! 84.8%, precision 94.9%, character precision 90.1%; without it all 94.2%, names 82.6%,
//! precision 94.9%, character precision 90.0%. Weakest kinds: Person 84.8/82.6%, Age 92.9%,
//! Mrn 94.9%; weakest families (with/without roster) attach 81.8/81.8%, kreyol 85.4/83.8%,
//! voicemail 85.3/82.8%, subjects 89.2/86.2%, schedchat 90.1/88.2%, hl7oru 91.2/91.2%,
//! hl7siu 91.5/91.5%, ptbr 92.3/91.5%. Lowest precision: License 48.3%, Address 71.4%,
//! Room 79.7%, Account 90.6%, Mrn 92.6%.

// The crate roots share the directories' names, so the modules' files must be named outright.
#[path = "redaction_blind12/mod.rs"]
mod redaction_blind12;
#[path = "redaction_harness/mod.rs"]
mod redaction_harness;

use redaction_blind12::{FAMILIES, generate};
use redaction_harness::{Floors, IDENTIFIERS, Sanity, evaluate, floors_fail_a_broken_redactor};

const SEED: u64 = 0xB12D_5EED_7A11_2026;
const DOCS: usize = 624;

const SANITY: Sanity = Sanity {
    min_docs: 600,
    min_families: 24,
    families: &FAMILIES,
    kinds: IDENTIFIERS,
};

/// Loose floors, set when this was the holdout (a holdout is measured, not tuned against).
const FLOORS: Floors = Floors {
    names: 75.0,
    all: 80.0,
    precision: 75.0,
    char_precision: 55.0,
};

#[test]
fn redactor_on_the_twelfth_blind_set() {
    evaluate(
        "twelfth blind set",
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
