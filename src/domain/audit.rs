use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AuditOutcome {
    Ok,
    Denied,
    Blocked,
    Error,
}

impl AuditOutcome {
    pub fn as_str(self) -> &'static str {
        match self {
            AuditOutcome::Ok => "ok",
            AuditOutcome::Denied => "denied",
            AuditOutcome::Blocked => "blocked",
            AuditOutcome::Error => "error",
        }
    }
}

/// What a caller asks the audit store to record. Never bodies or secrets: only names, ids,
/// outcomes and reasons.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditEvent {
    pub event: String,
    pub actor: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub entity: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tool: Option<String>,
    pub outcome: AuditOutcome,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub duration_ms: Option<u64>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target: Option<String>,
}

impl AuditEvent {
    pub fn new(event: impl Into<String>, actor: impl ToString, outcome: AuditOutcome) -> Self {
        AuditEvent {
            event: event.into(),
            actor: actor.to_string(),
            entity: None,
            tool: None,
            outcome,
            reason: None,
            duration_ms: None,
            target: None,
        }
    }
    pub fn entity(mut self, e: impl Into<String>) -> Self {
        self.entity = Some(e.into());
        self
    }
    pub fn tool(mut self, t: impl Into<String>) -> Self {
        self.tool = Some(t.into());
        self
    }
    pub fn reason(mut self, r: impl Into<String>) -> Self {
        self.reason = Some(r.into());
        self
    }
    pub fn target(mut self, t: impl Into<String>) -> Self {
        self.target = Some(t.into());
        self
    }
    pub fn duration_ms(mut self, ms: u64) -> Self {
        self.duration_ms = Some(ms);
        self
    }
}

/// One line of `audit/<YYYY-MM>.jsonl`: the event, its place in the chain and its hash,
/// `hash = sha256(prev || canonical JSON of every other field)`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AuditRecord {
    pub seq: u64,
    #[serde(with = "time::serde::rfc3339")]
    pub ts: OffsetDateTime,
    #[serde(flatten)]
    pub event: AuditEvent,
    pub prev: String,
    pub hash: String,
}
