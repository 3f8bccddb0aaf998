//! The PHI redactor against the eleventh blind evaluation set (tests/redaction_blind11: 24
//! families — half the everyday genres of a clinic's mail written fresh: referral letters,
//! HL7 v2 feeds (ADT/ORU/SIU/DFT/MDM), lower-case voicemail transcripts with spoken numbers
//! and dates, staff scheduling chats, billing statements and collections, attachment names
//! and subjects with glued identifiers, forwarded threads, portal secure messages, pharmacy
//! refill faxes, prior-authorisation fax covers, discharge summaries, SOAP notes; and half
//! new: lab courier manifests, disability forms, summer-camp health forms, trial
//! adverse-event eCRFs, OCR of insurance cards, ambulance run sheets, sleep-study reports,
//! dialysis chair schedules, workers' comp first reports of injury, and Somali, Greek and
//! romanised Punjabi/Hindi messages — written without reading the redactor's rules, word
//! lists or the other sets' generators), with a roster of a third of the patients and
//! without one. A HOLDOUT: nobody tunes on it. `cargo test --test redaction_blind11 --
//! --nocapture` shows the tables; `OPSDESK_SHOW_MISSES=1` adds every miss and false positive
//! in context, `OPSDESK_SHOW_DOCS=1` every document.
//!
//! First figures (the redactor of main at a9d6231, 2026-12-06; 624 documents, 7,208 labels,
//! a roster of 33 names — every third name of the pool): with the roster all 96.5%, names
//! 92.7%, precision 90.4%, character precision 89.8%; without it all 96.0%, names 90.9%,
//! precision 90.4%, character precision 89.8%. Weakest kinds: Age 65.0%, Person 92.7/90.9%,
//! Address 95.7%, Mrn 98.1%; weakest families (with/without roster) greek 74.8/74.8%, voicemail
//! 83.2/81.1%, schedchat 88.4/85.3%, somali 89.4/89.4%, inscard 91.3/91.3%, aecrf
//! 91.8/91.3%, soapnote 95.3/90.0%. Lowest precision: License 18.0% (NPIs, DEA numbers),
//! HealthPlan 73.2%, Address 77.9%, Mrn 78.2%, Person 87.1/86.9%.
//!
//! After round 9 (tuned on blind10, which went from 94.8% to 99.96%), still unread: without
//! a roster all 96.2%, names 91.5%, precision 91.0%, character precision 90.0%; with it all
//! 96.6%, names 93.0%, precision 91.0%. A round moves an unseen set by a fraction of a point.

// The crate roots share the directories' names, so the modules' files must be named outright.
#[path = "redaction_blind11/mod.rs"]
mod redaction_blind11;
#[path = "redaction_harness/mod.rs"]
mod redaction_harness;

use redaction_blind11::{FAMILIES, generate};
use redaction_harness::{Floors, IDENTIFIERS, Sanity, evaluate, floors_fail_a_broken_redactor};

const SEED: u64 = 0xB11D_0011_2026_1206;
const DOCS: usize = 624;

const SANITY: Sanity = Sanity {
    min_docs: 600,
    min_families: 24,
    families: &FAMILIES,
    kinds: IDENTIFIERS,
};

/// Loose floors: a holdout is measured, not tuned against.
const FLOORS: Floors = Floors {
    names: 75.0,
    all: 80.0,
    precision: 75.0,
    char_precision: 55.0,
};

#[test]
fn redactor_on_the_eleventh_blind_set() {
    evaluate(
        "eleventh blind set",
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
