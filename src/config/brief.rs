//! `[brief]`: which sections the morning brief and the end-of-day digest show, in which order,
//! and how long their lists may grow. Served as `opsdesk://config/brief_config`.
//!
//! ```toml
//! [brief]
//! sections = ["deals", "decisions", "meetings", "drafts", "unread"]
//! max_deadlines = 10
//! ```

use serde::{Deserialize, Serialize};

/// A section of the brief.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum BriefSection {
    /// Unread items (morning) or arrivals and what is still unread (digest).
    Unread,
    /// Drafts decided today (digest only).
    Decided,
    /// Meetings of the day (tomorrow's in the digest) and their conflicts.
    Meetings,
    /// Drafts awaiting approval.
    Drafts,
    /// Deadlines found in messages.
    Deadlines,
    /// Messages that ask for a decision.
    Decisions,
    /// The deal snapshot.
    Deals,
}

impl BriefSection {
    pub const ALL: [BriefSection; 7] = [
        BriefSection::Unread,
        BriefSection::Decided,
        BriefSection::Meetings,
        BriefSection::Drafts,
        BriefSection::Deadlines,
        BriefSection::Decisions,
        BriefSection::Deals,
    ];
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct BriefConfig {
    /// The sections shown, in this order (left-out ones are not shown, and their lists are
    /// empty in the JSON).
    pub sections: Vec<BriefSection>,
    /// Most deadlines listed.
    pub max_deadlines: usize,
    /// Most "needs a decision" items listed.
    pub max_decisions: usize,
    /// Most deals in the deal snapshot.
    pub max_deals: usize,
}

impl Default for BriefConfig {
    fn default() -> Self {
        BriefConfig {
            sections: BriefSection::ALL.to_vec(),
            max_deadlines: 25,
            max_decisions: 20,
            max_deals: 20,
        }
    }
}
