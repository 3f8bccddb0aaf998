//! Plain serde types shared by every layer: what flows from sources into the inbox, what
//! surfaces submit to the engine, what the drafts queue and the audit trail record.

mod action;
mod actor;
mod audit;
mod deal;
mod draft;
// Public for the redaction bench, which renders answers as the MCP tools do.
pub mod fence;
mod intake;
mod message;
mod message_out;
mod outbound_text;
mod query;
mod requests;
mod search;

pub use action::{Action, BatchDecision, BatchItem, BatchResult, Done, Outcome, Verdict};
pub use actor::Actor;
pub use audit::{AuditEvent, AuditOutcome, AuditRecord};
pub use deal::{
    Deal, DealEvent, DealEventKind, DealLink, DealSpec, DealStage, KeyDate, LinkRule,
    deal_id_for_proposal, new_deal_id,
};
pub use draft::{
    AuditRef, Draft, DraftEvent, DraftEventKind, DraftStatus, Outbound, OutboundAttachment,
    content_digest,
};
pub use intake::{IngestError, check_identity, to_record};
pub use message::{
    Attachment, AttachmentStatus, Channel, InboxRecord, META_PROFILE_ASSIGNED, META_PROFILE_RULE,
    NewMessage, Party, UNASSIGNED, parse_seq,
};
pub use message_out::{AttachmentOut, MessageOut, PartyOut};
pub use outbound_text::check_outbound;
pub use query::{BriefKind, ConfigSection, Query};
pub use requests::{
    CalendarEventArgs, ChatReplyArgs, DraftEmailArgs, DraftReplyArgs, MailMoveArgs, body_pair,
};
pub use search::{SearchError, SearchField, SearchOrder, SearchQuery, SearchTerm, words_of};

/// Current time in UTC. One place so tests and formatting agree on the clock.
pub fn now() -> time::OffsetDateTime {
    time::OffsetDateTime::now_utc()
}

/// Governance tier of a tool (docs/ARCHITECTURE.md, "Governance").
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Tier {
    /// Reads only (at most moves the caller's own inbox cursor).
    ReadOnly,
    /// Puts a draft in the approval queue; nothing leaves until the operator approves.
    DraftOnly,
    /// Runs an assistant job (triage, deadlines) through the LLM router: writes only the
    /// operator's local triage and deadline stores; sends nothing to anyone.
    Assist,
}
