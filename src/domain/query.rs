use serde::{Deserialize, Serialize};

use super::Channel;

/// Reads that surfaces ask the engine for. They go through `Engine::submit` like every other
/// action so that each one (an MCP tool call, say) is audited; they change nothing except, for
/// `InboxPull` with `mark_consumed`, the caller's own cursor.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "query", rename_all = "snake_case")]
pub enum Query {
    /// Engine status: inbox size, unread, pending drafts, source health.
    Status,
    /// What the caller's consumer has not consumed yet (or what follows `since`).
    InboxPull {
        /// Consumer cursor to use; default: the caller's own (`mcp:<client>`, `console`, `cli`).
        #[serde(default)]
        consumer: Option<String>,
        /// Read after this seq instead of after the cursor.
        #[serde(default)]
        since: Option<u64>,
        limit: usize,
        #[serde(default)]
        channel: Option<Channel>,
        #[serde(default)]
        profile: Option<String>,
        mark_consumed: bool,
    },
    /// Records with the words of `text` (`domain::SearchQuery`) in sender, subject, body or
    /// attachments.
    InboxSearch {
        text: String,
        limit: usize,
        #[serde(default)]
        channel: Option<Channel>,
        #[serde(default)]
        profile: Option<String>,
        /// Only items with a seq below this (paging).
        #[serde(default)]
        before: Option<u64>,
        #[serde(default)]
        order: super::SearchOrder,
    },
    /// One inbox item by seq or source id.
    InboxGet { key: String },
    /// A stored attachment's bytes (up to `max_bytes`) and whose mail carried it.
    AttachmentRead { sha256: String, max_bytes: u64 },
    /// The approval queue (undecided drafts, or all).
    DraftsList { all: bool },
    /// One draft.
    DraftStatus { id: String },
    /// Newest-first listing of one channel (or all), without moving any cursor.
    InboxList {
        limit: usize,
        #[serde(default)]
        channel: Option<Channel>,
        #[serde(default)]
        profile: Option<String>,
        /// Only items with a seq below this (paging).
        #[serde(default)]
        before: Option<u64>,
    },
    /// The morning brief or end-of-day digest of a profile.
    Brief { kind: BriefKind, profile: String },
    /// The brief across entities (`profile: "all"`): one section per profile, personal
    /// profiles only with `include_personal`.
    BriefAll {
        kind: BriefKind,
        #[serde(default)]
        include_personal: bool,
    },
    /// The LLM providers and routing (names of credential variables, never credentials).
    Providers,
    /// The newest audit records.
    AuditRecent { limit: usize },
    /// One section of the effective configuration, without secrets or PHI.
    ConfigSection { section: ConfigSection },
    /// Triaged inbox items, newest first, filtered (category / urgency by name).
    TriageList {
        #[serde(default)]
        profile: Option<String>,
        #[serde(default)]
        category: Option<String>,
        #[serde(default)]
        urgency: Option<String>,
        limit: usize,
    },
    /// Stored deadlines, soonest first.
    DeadlinesList {
        #[serde(default)]
        profile: Option<String>,
        limit: usize,
    },
    /// Deals (open ones, or all), optionally of one profile.
    DealsList {
        #[serde(default)]
        profile: Option<String>,
        #[serde(default)]
        all: bool,
    },
    /// One deal with its linked messages.
    DealDetail { id: String },
    /// Which mail folder each message belongs in, and why (by source id or seq).
    FilingSuggestion { message_ids: Vec<String> },
    /// A deal's events, linked messages, drafts and audit entries in time order.
    DealTimeline { id: String, limit: usize },
}

/// Which summary a `Brief` query asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BriefKind {
    Morning,
    EndOfDay,
}

/// The configuration sections surfaces may show to clients.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ConfigSection {
    Profiles,
    AutonomyLadder,
    HardBans,
    LlmProviders,
    /// `[operator]` and the entities (profiles) it works for.
    OperatorProfile,
    /// `[drafting]`.
    DraftStyle,
    /// `[brief]`.
    BriefConfig,
}

impl Query {
    pub fn name(&self) -> &'static str {
        match self {
            Query::Status => "query.status",
            Query::InboxPull { .. } => "query.inbox_pull",
            Query::InboxSearch { .. } => "query.inbox_search",
            Query::InboxGet { .. } => "query.inbox_get",
            Query::AttachmentRead { .. } => "query.attachment_read",
            Query::DraftsList { .. } => "query.drafts_list",
            Query::DraftStatus { .. } => "query.draft_status",
            Query::InboxList { .. } => "query.inbox_list",
            Query::Brief { .. } => "query.brief",
            Query::BriefAll { .. } => "query.brief_all",
            Query::Providers => "query.providers",
            Query::AuditRecent { .. } => "query.audit_recent",
            Query::ConfigSection { .. } => "query.config",
            Query::TriageList { .. } => "query.triage_list",
            Query::DeadlinesList { .. } => "query.deadlines_list",
            Query::DealsList { .. } => "query.deals_list",
            Query::FilingSuggestion { .. } => "query.filing_suggestion",
            Query::DealDetail { .. } => "query.deal_detail",
            Query::DealTimeline { .. } => "query.deal_timeline",
        }
    }
}
