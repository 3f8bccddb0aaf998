//! The morning brief and end-of-day digest of a profile, built deterministically from the
//! engine's data: unread items, the day's meetings and their conflicts, drafts awaiting
//! approval, deadlines found in messages and items that ask the operator for a decision.
//!
//! [`build`] is a pure function over [`BriefInputs`] so it can be tested without files; the
//! engine gathers the inputs (`engine/query.rs`). Everything here derives from untrusted inbound
//! text: it stays data. The `text` rendering quotes what came from messages and nothing in it
//! is ever executed or followed.
//!
//! An LLM polish is optional (`opsdesk brief --polish`, MCP `polish: true`) and goes through the
//! router (`Engine::polish_brief`, job `brief`), so redaction, the HIPAA rule and blocks apply;
//! when it is blocked or fails the deterministic brief is returned with `polish_skipped`
//! saying why. Nothing here invents text.
//!
//! `model` holds the types, `build` the builder, `render` the text, `dates` the deadlines.

mod build;
mod dates;
mod model;
mod render;
#[cfg(test)]
mod tests;

pub use build::{build, is_automated_sender};
pub use dates::hh_mm;
pub(crate) use model::ALL_PROFILES;
pub use model::{
    Brief, BriefInputs, Conflict, Counts, Deadline, DealSnapshot, DecidedDraft, Decision,
    EntitiesBrief, LeftOut, MAX_AGE_DAYS, MAX_RECORDS, Meeting, OPERATOR_CONSUMER,
    PERSONAL_LEFT_OUT, POLISH_NOTE_NOT_REQUESTED, PendingDraft, SenderCount, Unread,
    note_unassigned,
};
