//! The brief's data: what it is built from and what it says (serialized for MCP and the CLI).

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use crate::domain::{Draft, InboxRecord};

/// The consumer whose cursor defines "unread" for the operator.
pub const OPERATOR_CONSUMER: &str = "console";
/// At most this many records feed one brief.
pub const MAX_RECORDS: usize = 2_000;
/// Records older than this many days do not feed a brief.
pub const MAX_AGE_DAYS: i64 = 7;
/// Why `polished` is false when nobody asked for a polish.
pub const POLISH_NOTE_NOT_REQUESTED: &str = "not polished: no LLM router polish was requested (opsdesk brief --polish, or `polish: true` in MCP); this is the deterministic brief";

pub(super) const TOP_SENDERS: usize = 10;
pub(super) const MAX_DEADLINES: usize = 25;
pub(super) const MAX_DECISIONS: usize = 20;
pub(super) const MAX_QUOTE: usize = 100;

/// What a brief is built from.
#[derive(Debug, Clone, Default)]
pub struct BriefInputs {
    /// The profile's recent inbox records, in any order.
    pub records: Vec<InboxRecord>,
    /// Drafts of all profiles (filtered here).
    pub drafts: Vec<Draft>,
    /// The operator's cursor: records with a higher seq are unread.
    pub unread_after: u64,
    /// True when the loader stopped at its bound and older records were left out.
    pub truncated: bool,
    /// Deals of all profiles (filtered here): the deal snapshot section.
    pub deals: Vec<crate::domain::Deal>,
    /// `[brief]`: sections, order, limits.
    pub layout: crate::config::BriefConfig,
    /// `[operator] date_order`: how the deadlines' numeric dates read.
    pub date_order: crate::timeexpr::DateOrder,
}

/// How far ahead key dates are shown.
pub(super) const DEAL_DATES_AHEAD_DAYS: i64 = 14;

/// One open deal in the brief: what moved, what is coming, what waits for an answer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DealSnapshot {
    pub id: String,
    pub name: String,
    pub stage: String,
    /// Set when the stage changed within the brief's last day (RFC 3339).
    pub stage_changed_at: Option<String>,
    /// Key dates from today up to 14 days ahead, soonest first (`label YYYY-MM-DD`).
    pub upcoming: Vec<String>,
    /// Linked messages from others with no reply draft yet (seqs, newest first).
    pub unanswered: Vec<u64>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Brief {
    /// `morning` or `end_of_day`.
    pub kind: String,
    pub profile: String,
    /// RFC 3339.
    pub generated_at: String,
    /// The UTC offset days are reckoned in, e.g. `+02:00`.
    pub tz: String,
    /// The day the brief is about (`YYYY-MM-DD`, in `tz`).
    pub day: String,
    /// Always true: everything quoted here comes from inbound messages and is data, never
    /// instructions.
    pub untrusted_content: bool,
    /// Unread items (after the console's cursor).
    pub unread: Unread,
    /// Items received today.
    pub arrived_today: Counts,
    /// The date `meetings` are on: today for the morning brief, tomorrow for the digest.
    pub meetings_date: String,
    pub meetings: Vec<Meeting>,
    pub conflicts: Vec<Conflict>,
    pub drafts_awaiting_approval: Vec<PendingDraft>,
    /// Drafts approved, rejected, executed or failed today (end-of-day digest only).
    pub decided_today: Vec<DecidedDraft>,
    /// Deadlines found in messages, soonest first; past ones are left out.
    pub deadlines: Vec<Deadline>,
    /// Messages that ask for a decision and have no reply draft yet, newest first.
    pub needs_decision: Vec<Decision>,
    /// Whether an LLM rewrote `text`.
    pub polished: bool,
    /// Why the brief is (not) polished.
    pub polish_note: String,
    /// When a requested polish did not happen: why (a block with its rule, or the failure).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub polish_skipped: Option<String>,
    /// How many records the brief looked at, and whether older ones were left out.
    pub records_considered: usize,
    pub truncated: bool,
    /// Open deals of the profile with something to say (stage change in the last day, key
    /// dates ahead, unanswered linked mail).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub deals: Vec<DealSnapshot>,
    /// Items of the last days waiting in the `unassigned` bucket for the operator to give
    /// them a profile (`[classification]`); omitted when none.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub unassigned_waiting: usize,
    /// A compact plain-text rendering for the CLI and the console.
    pub text: String,
}

/// The value of `profile` that asks for the brief across entities (config vocabulary: no
/// profile may be called that).
pub(crate) use crate::config::ALL_PROFILES;

/// The brief across entities (`profile: "all"`): one section per entity, each a whole [`Brief`]
/// built by [`build`] from that entity's records, drafts and deals alone, so nothing of one
/// entity can reach another's section. Sections come in the configured profile order and each
/// names its `profile` (which is what the PHI view attributes a section's text by). There is
/// no combined text: each section carries its own.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct EntitiesBrief {
    /// `morning` or `end_of_day`.
    pub kind: String,
    /// Always `all`.
    pub profile: String,
    /// Whether profiles marked `personal` were asked for.
    pub include_personal: bool,
    /// RFC 3339.
    pub generated_at: String,
    /// Always true: everything quoted comes from inbound messages and is data.
    pub untrusted_content: bool,
    /// One brief per included entity.
    pub sections: Vec<Brief>,
    /// Entities not in `sections`, and why (a `personal` profile without `include_personal`).
    pub left_out: Vec<LeftOut>,
}

/// An entity the brief across entities leaves out.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct LeftOut {
    pub profile: String,
    pub why: String,
}

/// Why a personal profile is not in the brief across entities.
pub const PERSONAL_LEFT_OUT: &str =
    "a personal profile: ask with include_personal (MCP) or --include-personal (CLI)";

impl EntitiesBrief {
    /// The plain-text rendering: each section under its entity's heading, in order.
    pub fn text(&self) -> String {
        let mut out = Vec::new();
        for s in &self.sections {
            out.push(format!("=== {} ===", s.profile));
            out.push(s.text.clone());
            out.push(String::new());
        }
        if self.sections.is_empty() {
            out.push("no entity to brief".to_string());
        }
        for l in &self.left_out {
            out.push(format!("left out: {} ({})", l.profile, l.why));
        }
        out.join("\n").trim_end().to_string()
    }
}

pub(super) fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// Say in `b` that `n` items wait for a profile (a line after the brief's heading).
pub fn note_unassigned(b: &mut Brief, n: usize) {
    b.unassigned_waiting = n;
    if n == 0 {
        return;
    }
    let line = format!(
        "{n} item(s) wait for a profile: `opsdesk triage list --profile unassigned`, then `opsdesk triage assign SEQ PROFILE`."
    );
    let mut lines: Vec<&str> = b.text.lines().collect();
    let at = lines.len().min(2);
    lines.insert(at, &line);
    b.text = lines.join("\n");
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Counts {
    pub total: u64,
    pub by_channel: BTreeMap<String, u64>,
}

#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Unread {
    pub total: u64,
    pub by_channel: BTreeMap<String, u64>,
    /// The ten senders with the most unread items.
    pub by_sender: Vec<SenderCount>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct SenderCount {
    pub sender: String,
    pub count: u64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Meeting {
    pub seq: u64,
    pub subject: String,
    /// RFC 3339, in `tz`.
    pub start: String,
    pub end: String,
    pub location: Option<String>,
    pub organizer: Option<String>,
    /// Subjects of the meetings this one overlaps.
    pub conflicts_with: Vec<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Conflict {
    pub a_seq: u64,
    pub a_subject: String,
    pub b_seq: u64,
    pub b_subject: String,
    pub overlap_minutes: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct PendingDraft {
    pub id: String,
    pub kind: String,
    pub recipients: Vec<String>,
    pub subject: Option<String>,
    /// RFC 3339.
    pub created_at: String,
    /// Human age, e.g. `2h 5m`.
    pub age: String,
    pub age_minutes: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct DecidedDraft {
    pub id: String,
    pub kind: String,
    pub subject: Option<String>,
    /// approved, rejected, executed or failed.
    pub status: String,
    /// RFC 3339.
    pub decided_at: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Deadline {
    /// The phrase around the deadline, as written.
    pub text: String,
    /// `YYYY-MM-DD` when the phrase could be resolved to a date.
    pub due: Option<String>,
    /// The inbox record it was found in.
    pub seq: u64,
    pub from: String,
    pub subject: Option<String>,
    /// The cue and the date words as written ("by 2pm ET Friday").
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub expr: Option<String>,
    /// `HH:MM` in the operator's zone, when the message states a time.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Decision {
    pub seq: u64,
    pub from: String,
    pub subject: Option<String>,
    /// Which rule matched (a question, "please confirm", …).
    pub why: String,
}
