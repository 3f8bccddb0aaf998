use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use time::OffsetDateTime;

use super::Actor;
use super::action::Verdict;
use super::deal::DealSpec;

/// What an approved draft would do when executed. This is what the operator reviews and what
/// the content digest covers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outbound {
    SendEmail {
        to: Vec<String>,
        #[serde(default)]
        cc: Vec<String>,
        subject: String,
        /// The text. For an HTML mail: the text rendering of `body_html` (what the operator
        /// reads; the engine derives it).
        body: String,
        /// Files from the attachment store, by hash (the digest covers them). Omitted when
        /// none, so drafts made before attachments keep their digest.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        attachments: Vec<OutboundAttachment>,
        /// The sanitized HTML that is sent (`contentType: HTML`), when the mail is HTML.
        /// Omitted for plain text, so plain drafts keep their digest.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        body_html: Option<String>,
    },
    ReplyEmail {
        /// Inbox id of the message replied to.
        message_id: String,
        to: Vec<String>,
        subject: String,
        body: String,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        attachments: Vec<OutboundAttachment>,
        /// As for `SendEmail`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        body_html: Option<String>,
    },
    PostChat {
        chat_id: String,
        body: String,
    },
    CreateEvent {
        subject: String,
        #[serde(with = "time::serde::rfc3339")]
        start: OffsetDateTime,
        #[serde(with = "time::serde::rfc3339")]
        end: OffsetDateTime,
        attendees: Vec<String>,
        #[serde(default)]
        location: Option<String>,
        #[serde(default)]
        body: String,
    },
    /// A deal proposed by an MCP client (`deal_create`): accepting it creates the deal locally;
    /// nothing leaves the machine.
    CreateDeal {
        spec: DealSpec,
    },
    /// Move a mail message (inbox id) to a folder: a well-known name (`archive`,
    /// `deleteditems`, …), a folder's display name or path (`Deals/Sunrise`), or a folder id.
    MoveMail {
        message_id: String,
        folder: String,
    },
}

/// A stored file attached to an outbound mail. A surface names it by `sha256` only; the engine
/// fills in the rest from the attachment store before the draft is queued (and refuses a hash
/// the store does not hold).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutboundAttachment {
    pub sha256: String,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub media_type: String,
    #[serde(default)]
    pub size: u64,
    /// executable, macro or script: shown to the operator before approval.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub risk: Option<String>,
}

impl OutboundAttachment {
    /// One line for the operator: name, type, size, hash, risk.
    pub fn summary(&self) -> String {
        let mut line = format!(
            "{}  {}  {}  sha256 {}",
            self.name,
            self.media_type,
            super::message::human_size(self.size),
            self.sha256
        );
        if let Some(r) = &self.risk {
            line.push_str(&format!("  ! {r} type"));
        }
        line
    }

    /// A reference by hash, to be completed by the engine.
    pub fn by_hash(sha256: impl Into<String>) -> OutboundAttachment {
        OutboundAttachment {
            sha256: sha256.into(),
            name: String::new(),
            media_type: String::new(),
            size: 0,
            risk: None,
        }
    }
}

impl Outbound {
    /// Files attached to an outbound mail.
    pub fn attachments(&self) -> &[OutboundAttachment] {
        match self {
            Outbound::SendEmail { attachments, .. } | Outbound::ReplyEmail { attachments, .. } => {
                attachments
            }
            _ => &[],
        }
    }

    pub fn attachments_mut(&mut self) -> Option<&mut Vec<OutboundAttachment>> {
        match self {
            Outbound::SendEmail { attachments, .. } | Outbound::ReplyEmail { attachments, .. } => {
                Some(attachments)
            }
            _ => None,
        }
    }

    /// The sanitized HTML of an HTML mail (sent as `contentType: HTML`); `None` for plain text.
    pub fn body_html(&self) -> Option<&str> {
        match self {
            Outbound::SendEmail { body_html, .. } | Outbound::ReplyEmail { body_html, .. } => {
                body_html.as_deref()
            }
            _ => None,
        }
    }

    pub fn body_html_mut(&mut self) -> Option<&mut Option<String>> {
        match self {
            Outbound::SendEmail { body_html, .. } | Outbound::ReplyEmail { body_html, .. } => {
                Some(body_html)
            }
            _ => None,
        }
    }

    pub fn body_mut(&mut self) -> Option<&mut String> {
        match self {
            Outbound::SendEmail { body, .. }
            | Outbound::ReplyEmail { body, .. }
            | Outbound::PostChat { body, .. }
            | Outbound::CreateEvent { body, .. } => Some(body),
            Outbound::CreateDeal { .. } | Outbound::MoveMail { .. } => None,
        }
    }

    /// Short kind name used in lists and audit records.
    pub fn kind(&self) -> &'static str {
        match self {
            Outbound::SendEmail { .. } => "send_email",
            Outbound::ReplyEmail { .. } => "reply_email",
            Outbound::PostChat { .. } => "post_chat",
            Outbound::CreateEvent { .. } => "create_event",
            Outbound::CreateDeal { .. } => "create_deal",
            Outbound::MoveMail { .. } => "move_mail",
        }
    }

    /// Recipients as shown to the operator.
    pub fn recipients(&self) -> Vec<String> {
        match self {
            Outbound::SendEmail { to, cc, .. } => to.iter().chain(cc).cloned().collect(),
            Outbound::ReplyEmail { to, .. } => to.clone(),
            Outbound::PostChat { chat_id, .. } => vec![format!("chat:{chat_id}")],
            Outbound::CreateEvent { attendees, .. } => attendees.clone(),
            // Who the deal is with: the boundary checks them like recipients.
            Outbound::CreateDeal { spec, .. } => spec.counterparties.clone(),
            Outbound::MoveMail { folder, .. } => vec![format!("folder:{folder}")],
        }
    }

    pub fn subject(&self) -> Option<&str> {
        match self {
            Outbound::SendEmail { subject, .. }
            | Outbound::ReplyEmail { subject, .. }
            | Outbound::CreateEvent { subject, .. } => Some(subject),
            Outbound::CreateDeal { spec, .. } => Some(&spec.name),
            Outbound::PostChat { .. } | Outbound::MoveMail { .. } => None,
        }
    }

    pub fn body(&self) -> &str {
        match self {
            Outbound::SendEmail { body, .. }
            | Outbound::ReplyEmail { body, .. }
            | Outbound::PostChat { body, .. }
            | Outbound::CreateEvent { body, .. } => body,
            Outbound::CreateDeal { spec, .. } => &spec.notes,
            Outbound::MoveMail { .. } => "",
        }
    }
}

/// sha256 over the profile and the canonical JSON of what the draft would do. Approval binds to
/// this value, so any edit after review needs a fresh approval.
pub fn content_digest(profile: &str, outbound: &Outbound) -> String {
    // serde_json::Value sorts object keys, which makes the encoding canonical.
    let value = serde_json::to_value(outbound).unwrap_or(serde_json::Value::Null);
    let mut h = Sha256::new();
    h.update(profile.as_bytes());
    h.update([0u8]);
    h.update(value.to_string().as_bytes());
    hex::encode(h.finalize())
}

/// One event of the approval queue's log (`drafts/drafts.jsonl`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DraftEvent {
    #[serde(with = "time::serde::rfc3339")]
    pub ts: OffsetDateTime,
    pub draft_id: String,
    pub actor: Actor,
    #[serde(flatten)]
    pub kind: DraftEventKind,
    /// The audit record written for this event before it was appended (absent only in logs
    /// written before events were bound; see `store::drafts_binding`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub audit: Option<AuditRef>,
}

/// Where an event's audit record is: its seq in the chain and its hash.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct AuditRef {
    pub seq: u64,
    pub hash: String,
}

impl AuditRef {
    pub fn of(rec: &super::AuditRecord) -> AuditRef {
        AuditRef {
            seq: rec.seq,
            hash: rec.hash.clone(),
        }
    }
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum DraftEventKind {
    Created {
        profile: String,
        outbound: Outbound,
        digest: String,
        verdict: Verdict,
        /// The LLM provider that wrote the content, if one did.
        #[serde(default)]
        provider: Option<String>,
    },
    Edited {
        outbound: Outbound,
        digest: String,
    },
    Approved {
        digest: String,
    },
    Rejected {
        reason: String,
    },
    Executed {
        remote_id: String,
    },
    Failed {
        reason: String,
    },
    /// Pending longer than its kind's time to live; written by the engine.
    Expired {
        ttl_hours: u64,
    },
    /// A new draft (this event's id) carrying the content of the expired draft `from`, put
    /// back in the queue by the operator: pending again, with a fresh time to live. `digest`
    /// is the content the operator re-queued and must be `from`'s; `verdict` is governance's
    /// judgement of it now.
    Requeued {
        from: String,
        digest: String,
        verdict: Verdict,
    },
}

impl DraftEventKind {
    pub fn name(&self) -> &'static str {
        match self {
            DraftEventKind::Created { .. } => "created",
            DraftEventKind::Edited { .. } => "edited",
            DraftEventKind::Approved { .. } => "approved",
            DraftEventKind::Rejected { .. } => "rejected",
            DraftEventKind::Executed { .. } => "executed",
            DraftEventKind::Failed { .. } => "failed",
            DraftEventKind::Expired { .. } => "expired",
            DraftEventKind::Requeued { .. } => "requeued",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DraftStatus {
    /// Waiting for the operator.
    Pending,
    /// Approved for exactly `approved_digest`; the executor may run it.
    Approved,
    Rejected,
    Executed,
    /// Execution failed; still approved, so it can be retried.
    Failed,
    /// Waited longer than its kind's time to live (`[drafts.ttl_hours]`); never approvable.
    Expired,
}

impl DraftStatus {
    pub fn as_str(self) -> &'static str {
        match self {
            DraftStatus::Pending => "pending",
            DraftStatus::Approved => "approved",
            DraftStatus::Rejected => "rejected",
            DraftStatus::Executed => "executed",
            DraftStatus::Failed => "failed",
            DraftStatus::Expired => "expired",
        }
    }

    /// Whether the draft is finished and accepts no further decisions.
    pub fn is_final(self) -> bool {
        matches!(
            self,
            DraftStatus::Rejected | DraftStatus::Executed | DraftStatus::Expired
        )
    }
}

/// A draft as the fold of its events.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Draft {
    pub id: String,
    pub profile: String,
    pub outbound: Outbound,
    pub digest: String,
    pub verdict: Verdict,
    pub provider: Option<String>,
    pub status: DraftStatus,
    pub created_by: Actor,
    #[serde(with = "time::serde::rfc3339")]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    pub updated_at: OffsetDateTime,
    /// The digest the operator approved; equal to `digest` while the approval stands.
    pub approved_digest: Option<String>,
    pub decided_by: Option<Actor>,
    pub reason: Option<String>,
    pub remote_id: Option<String>,
    pub edits: u32,
    /// The expired draft this one re-queued (its content, a fresh time to live).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requeued_from: Option<String>,
    /// The draft this expired one was re-queued as (at most once).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requeued_as: Option<String>,
}

impl Draft {
    /// True when the current content is what the operator approved.
    pub fn approval_holds(&self) -> bool {
        self.approved_digest.as_deref() == Some(self.digest.as_str())
    }
}
