use serde::{Deserialize, Serialize};

use super::Query;
use super::deal::{DealSpec, DealStage};
use super::draft::Outbound;

/// The one command format every surface produces (console keypress, MCP tool call, CLI) and
/// hands to `Engine::submit`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "action", rename_all = "snake_case")]
pub enum Action {
    /// A read; audited like everything else.
    Query(Query),
    /// Put an outbound action in the approval queue.
    CreateDraft {
        profile: String,
        outbound: Outbound,
        #[serde(default)]
        provider: Option<String>,
    },
    /// Draft a reply to an inbox message; the engine derives profile, recipient and subject.
    DraftReply {
        message_id: String,
        body: String,
        /// sha256 of stored attachments to send with the reply.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        attachments: Vec<String>,
        /// The reply as HTML (mail only): sanitized, with `body` its text rendering.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        body_html: Option<String>,
    },
    /// Replace a draft's content; voids an earlier approval.
    EditDraft {
        id: String,
        outbound: Outbound,
    },
    /// Approve a draft. `digest` is the content the operator reviewed; when given it must match.
    ApproveDraft {
        id: String,
        #[serde(default)]
        digest: Option<String>,
    },
    RejectDraft {
        id: String,
        reason: String,
    },
    /// Put an expired draft's content back in the queue as a new pending draft with a fresh
    /// time to live (operator only). `digest` is the content the operator saw; when given it
    /// must be the expired draft's.
    RequeueDraft {
        id: String,
        #[serde(default)]
        digest: Option<String>,
    },
    /// Decide several drafts in one step (operator only). Every draft must be pending and of
    /// a kind the ladder lets be batched, or nothing is decided; each decision is then made,
    /// bound to its own digest and audited, exactly as if it had been given alone.
    DecideDrafts {
        decision: BatchDecision,
        items: Vec<BatchItem>,
    },
    /// Move a consumer's inbox cursor (marks items read for that consumer only).
    MarkRead {
        consumer: String,
        seq: u64,
    },
    /// Turn an LLM provider on or off (persisted in `<data dir>/providers.json`).
    SetProviderEnabled {
        name: String,
        enabled: bool,
    },
    /// Make an LLM provider the default (persisted in `<data dir>/providers.json`).
    SetDefaultProvider {
        name: String,
    },
    /// Route one job (`triage`, `deadlines`, `draft`, `brief`) to a provider at run time, or
    /// (`name: None`) drop that run-time override (persisted in `<data dir>/providers.json`).
    SetJobProvider {
        job: String,
        #[serde(default)]
        name: Option<String>,
    },
    /// Queue moving an inbox mail message to a folder (ladder kind `move_mail`); the engine
    /// derives the profile from the message.
    MoveMessage {
        message_id: String,
        folder: String,
    },
    /// Create a deal (the operator only; an MCP client proposes one through the drafts queue).
    CreateDeal {
        profile: String,
        spec: DealSpec,
    },
    /// Link an inbox message (by source id or seq) to a deal of the same profile.
    LinkDeal {
        deal_id: String,
        message: String,
    },
    /// Take a message off a deal.
    UnlinkDeal {
        deal_id: String,
        message_id: String,
        reason: String,
    },
    /// Move a deal to another stage.
    SetDealStage {
        deal_id: String,
        stage: DealStage,
        #[serde(default)]
        note: Option<String>,
    },
}

impl Action {
    /// Name used in audit records.
    pub fn name(&self) -> &'static str {
        match self {
            Action::Query(q) => q.name(),
            Action::CreateDraft { .. } => "draft.create",
            Action::DraftReply { .. } => "draft.reply",
            Action::EditDraft { .. } => "draft.edit",
            Action::ApproveDraft { .. } => "draft.approve",
            Action::RejectDraft { .. } => "draft.reject",
            Action::RequeueDraft { .. } => "draft.requeue",
            Action::DecideDrafts { .. } => "draft.batch",
            Action::MarkRead { .. } => "inbox.mark_read",
            Action::SetProviderEnabled { enabled: true, .. } => "provider.enable",
            Action::SetProviderEnabled { enabled: false, .. } => "provider.disable",
            Action::SetDefaultProvider { .. } => "provider.set_default",
            Action::SetJobProvider { .. } => "provider.set_job",
            Action::MoveMessage { .. } => "mail.move",
            Action::CreateDeal { .. } => "deal.create",
            Action::LinkDeal { .. } => "deal.link",
            Action::UnlinkDeal { .. } => "deal.unlink",
            Action::SetDealStage { .. } => "deal.stage",
        }
    }
}

/// What a batch does to each of its drafts.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum BatchDecision {
    Approve,
    Reject { reason: String },
}

/// One draft of a batch, with the digest of the content the operator saw.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BatchItem {
    pub id: String,
    pub digest: String,
}

/// Governance's decision on an action.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "decision", rename_all = "snake_case")]
pub enum Verdict {
    /// Runs now.
    Run,
    /// Waits in the drafts queue for the operator.
    Queue { reason: String },
    /// Refused, with the rule that refused it and how to get unblocked.
    Block {
        rule: String,
        reason: String,
        remedy: String,
    },
}

impl Verdict {
    pub fn block(rule: &str, reason: impl Into<String>, remedy: impl Into<String>) -> Verdict {
        Verdict::Block {
            rule: rule.to_string(),
            reason: reason.into(),
            remedy: remedy.into(),
        }
    }
}

/// What `Engine::submit` returns.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// The action ran; `detail` says what changed.
    Done { detail: Done },
    /// A draft was queued for approval.
    Queued {
        draft_id: String,
        digest: String,
        verdict: Verdict,
    },
    /// Governance refused the action.
    Blocked {
        rule: String,
        reason: String,
        remedy: String,
    },
}

/// What a completed action changed, by kind: surfaces match on it instead of reading JSON
/// back. Serialized without a tag, as the object each kind always carried under `detail`, so
/// `--json` output and the audit of batches read the same.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Done {
    /// `MarkRead`: the consumer's cursor after the move.
    Cursor { consumer: String, cursor: u64 },
    /// `DecideDrafts`: each draft decided on its own.
    Batch {
        decision: String,
        decided: usize,
        results: Vec<BatchResult>,
    },
    /// A provider switched on or off (and the default provider after it).
    Provider {
        provider: String,
        change: String,
        default: Option<String>,
    },
    /// A draft event applied: the draft as it now is.
    Draft(Box<super::Draft>),
    /// A deal created or changed: the deal as it now is.
    Deal(Box<super::Deal>),
    /// A read submitted as an action (`Action::Query`): its answer as JSON, for surfaces that
    /// pass it on whole. Surfaces that use an answer read it typed through `Engine::read`.
    Answer(serde_json::Value),
}

/// How one draft of a batch went: `outcome` is `done`, `blocked` (with rule, reason and
/// remedy), `error` or `other` (with the outcome it had instead).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BatchResult {
    pub id: String,
    pub outcome: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rule: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub remedy: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub detail: Option<Box<Outcome>>,
}

impl BatchResult {
    pub fn is_done(&self) -> bool {
        self.outcome == "done"
    }

    /// Why this draft was not decided, in words.
    pub fn why(&self) -> &str {
        self.error
            .as_deref()
            .or(self.reason.as_deref())
            .unwrap_or("not decided")
    }
}
