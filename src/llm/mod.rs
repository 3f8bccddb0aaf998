//! The LLM router: which provider a job's text may go to, and getting an answer from it
//! (DESIGN "LLM router", principles 3, 5 and 6).
//!
//! - [`router`]: selection (per-job override → entity override → default → other enabled
//!   providers), the compliance filter and PHI redaction on every hop, retries, cooldown,
//!   usage, and the audit of every selection, skip, block and fallback.
//! - [`client`]: one HTTP attempt against one provider: request, streaming, timeouts, and the
//!   classification of failures into "retry", "try another provider" and "stop".
//! - [`sse`]: the event-stream parser. [`providers`]: what differs per wire (URL, headers,
//!   credentials; Copilot's token exchange).
//!
//! Credentials come only from the environment variable a provider's `auth_env` names; they are
//! never logged and never part of an error or an audit record.

pub mod budget;
pub(crate) mod client;
pub(crate) mod providers;
pub mod router;
pub(crate) mod sse;

use std::fmt;

use serde::{Deserialize, Serialize};

pub use router::{Router, RouterOptions};

use crate::domain::AuditEvent;

/// One chat message.
#[derive(Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    /// `system`, `user` or `assistant`.
    pub role: String,
    pub content: String,
}

impl ChatMessage {
    pub fn system(content: impl Into<String>) -> Self {
        ChatMessage {
            role: "system".into(),
            content: content.into(),
        }
    }
    pub fn user(content: impl Into<String>) -> Self {
        ChatMessage {
            role: "user".into(),
            content: content.into(),
        }
    }
}

impl fmt::Debug for ChatMessage {
    // Content may be PHI: debug output shows its size only.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ChatMessage")
            .field("role", &self.role)
            .field("content_len", &self.content.len())
            .finish()
    }
}

/// What a job asks the router for.
#[derive(Debug, Clone)]
pub struct LlmRequest {
    /// Job name (`brief`, `draft`, `triage`, …): selects `llm.jobs.<job>`.
    pub job: String,
    pub messages: Vec<ChatMessage>,
    pub max_tokens: Option<u32>,
    pub temperature: Option<f32>,
    /// Put the original values back into the answer (locally) when the text was redacted.
    /// Jobs whose answer goes back to a non-cleared destination leave this off.
    pub reidentify: bool,
    /// Ask for a streamed answer (`stream: true`). Off: one JSON response.
    pub stream: bool,
    /// A credential that came with the request this call serves and is good for it alone:
    /// a Copilot Extension's `X-GitHub-Token`. With one, only providers of kind `copilot`
    /// are candidates and they send it as is (no exchange, nothing cached).
    pub user_token: Option<UserToken>,
}

/// A per-request credential (see [`LlmRequest::user_token`]). Not serializable, and its
/// `Debug` shows no value, so it cannot reach a log, the audit trail or a file by accident.
#[derive(Clone)]
pub struct UserToken(std::sync::Arc<str>);

impl UserToken {
    pub fn new(token: &str) -> UserToken {
        UserToken(token.into())
    }

    /// The value, for the one request header that carries it.
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Debug for UserToken {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("UserToken(<redacted>)")
    }
}

impl LlmRequest {
    pub fn new(job: impl Into<String>, messages: Vec<ChatMessage>) -> Self {
        LlmRequest {
            job: job.into(),
            messages,
            max_tokens: None,
            temperature: None,
            reidentify: true,
            stream: true,
            user_token: None,
        }
    }
}

/// Tokens a provider reported.
#[derive(
    Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema,
)]
pub struct Usage {
    pub prompt_tokens: u64,
    pub completion_tokens: u64,
}

impl Usage {
    pub fn add(&mut self, other: Usage) {
        self.prompt_tokens += other.prompt_tokens;
        self.completion_tokens += other.completion_tokens;
    }
}

/// The answer of a call.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LlmResponse {
    /// The provider that answered.
    pub provider: String,
    /// The model it reported (or the configured one).
    pub model: String,
    /// The answer; re-identified when the request asked for it.
    pub text: String,
    pub usage: Usage,
    /// Whether the text sent was redacted (placeholders in place of PHI).
    pub redacted: bool,
    /// HTTP attempts made, over all providers.
    pub attempts: u32,
    /// Providers tried before the one that answered.
    pub failed_over: Vec<String>,
}

/// Why a call produced no answer.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum LlmError {
    /// Governance refused the call: nothing was sent (or nothing more after the failure the
    /// reason names).
    #[error("blocked by {rule}: {reason} ({remedy})")]
    Blocked {
        rule: String,
        reason: String,
        remedy: String,
    },
    /// Every allowed provider failed. `attempts` counts HTTP requests only: a provider
    /// skipped before sending (a missing credential) adds none, so the text says "requests
    /// sent", not "attempts", to stay true when providers were tried but nothing went out.
    #[error("LLM call failed ({}): {reason}", requests_sent(*.attempts))]
    Failed { reason: String, attempts: u32 },
    /// The audit trail could not record a decision, so the call was stopped (fail closed).
    #[error("blocked: the audit trail could not be written ({0}); the LLM call was stopped")]
    AuditUnavailable(String),
    /// The request itself is wrong (unknown profile, no messages).
    #[error("{0}")]
    Invalid(String),
}

/// `no request was sent` / `1 HTTP request sent` / `3 HTTP requests sent`.
fn requests_sent(n: u32) -> String {
    match n {
        0 => "no request was sent".into(),
        1 => "1 HTTP request sent".into(),
        n => format!("{n} HTTP requests sent"),
    }
}

impl LlmError {
    pub(crate) fn block(
        rule: &str,
        reason: impl Into<String>,
        remedy: impl Into<String>,
    ) -> LlmError {
        LlmError::Blocked {
            rule: rule.to_string(),
            reason: reason.into(),
            remedy: remedy.into(),
        }
    }
}

/// Where the router reports selections, skips, blocks and fallbacks. An error stops the call
/// (fail closed).
pub trait LlmAudit: Send + Sync {
    fn record(&self, ev: AuditEvent) -> Result<(), String>;
}

impl<F> LlmAudit for F
where
    F: Fn(AuditEvent) -> Result<(), String> + Send + Sync,
{
    fn record(&self, ev: AuditEvent) -> Result<(), String> {
        self(ev)
    }
}

#[cfg(test)]
mod wording_tests {
    use super::LlmError;

    #[test]
    fn a_failure_counts_requests_sent_not_providers_tried() {
        let e = LlmError::Failed {
            reason: "every provider tried failed (openai, azure)".into(),
            attempts: 0,
        };
        assert_eq!(
            e.to_string(),
            "LLM call failed (no request was sent): every provider tried failed (openai, azure)"
        );
        let e = LlmError::Failed {
            reason: "x".into(),
            attempts: 3,
        };
        assert_eq!(e.to_string(), "LLM call failed (3 HTTP requests sent): x");
    }
}
