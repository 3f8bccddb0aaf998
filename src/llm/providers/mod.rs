//! What differs per wire: the chat-completions URL, the headers and where the credential goes.
//! The request body and the stream format are OpenAI's for all four kinds (`client.rs`).
//!
//! Credentials are read from the environment variable named by the provider's `auth_env`
//! through a [`SecretLookup`] (the process environment outside tests), only at the moment a
//! request is built, and travel only in request headers. [`Prepared::secrets`] lists them so
//! the client can scrub them out of any error text a server echoes back.

pub(crate) mod azure;
pub(crate) mod copilot;
pub(crate) mod local;
pub(crate) mod openai;

use std::sync::Arc;

use super::client::{AttemptError, FailureKind};
use crate::config::{ProviderConfig, ProviderKind};

/// Reads a credential by environment-variable name.
pub type SecretLookup = Arc<dyn Fn(&str) -> Option<String> + Send + Sync>;

/// The process environment (empty values count as unset).
pub fn env_lookup() -> SecretLookup {
    Arc::new(|name: &str| std::env::var(name).ok().filter(|v| !v.is_empty()))
}

/// A request target: URL and headers for one attempt.
pub struct Prepared {
    pub url: String,
    pub headers: Vec<(&'static str, String)>,
    /// Values that must never appear in an error or a log.
    pub secrets: Vec<String>,
}

impl std::fmt::Debug for Prepared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Headers hold credentials: show only their names.
        f.debug_struct("Prepared")
            .field("url", &self.url)
            .field(
                "headers",
                &self.headers.iter().map(|(k, _)| *k).collect::<Vec<_>>(),
            )
            .finish_non_exhaustive()
    }
}

/// What building a request needs besides the provider's config.
pub struct PrepareCx<'a> {
    pub name: &'a str,
    pub http: &'a reqwest::Client,
    pub secrets: &'a SecretLookup,
    pub copilot: &'a copilot::CopilotTokens,
    /// The request's own Copilot user token, if it brought one (used instead of `auth_env`).
    pub user_token: Option<&'a str>,
}

/// URL and headers for one attempt against provider `cfg`.
pub async fn prepare(cx: &PrepareCx<'_>, cfg: &ProviderConfig) -> Result<Prepared, AttemptError> {
    match cfg.kind {
        ProviderKind::Openai => openai::prepare(cx, cfg),
        ProviderKind::AzureOpenai => azure::prepare(cx, cfg),
        ProviderKind::Copilot => copilot::prepare(cx, cfg).await,
        ProviderKind::Local => local::prepare(cx, cfg),
    }
}

/// The credential of a provider that needs one; a missing variable is a configuration
/// failure that names the variable (never a value).
pub(crate) fn required_secret(
    cx: &PrepareCx<'_>,
    cfg: &ProviderConfig,
) -> Result<String, AttemptError> {
    let Some(var) = cfg.auth_env.as_deref() else {
        return Err(AttemptError::new(
            FailureKind::Config,
            format!(
                "provider `{}` names no `auth_env` for its credential",
                cx.name
            ),
        ));
    };
    (cx.secrets)(var).ok_or_else(|| {
        AttemptError::new(
            FailureKind::Config,
            format!(
                "the credential of provider `{}` is missing: set the environment variable {var}",
                cx.name
            ),
        )
    })
}

/// `base` + `/` + `path`, with exactly one slash between them.
pub(crate) fn join(base: &str, path: &str) -> String {
    format!(
        "{}/{}",
        base.trim_end_matches('/'),
        path.trim_start_matches('/')
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn join_has_one_slash() {
        assert_eq!(join("http://h/v1/", "/chat"), "http://h/v1/chat");
        assert_eq!(join("http://h/v1", "chat"), "http://h/v1/chat");
    }
}
