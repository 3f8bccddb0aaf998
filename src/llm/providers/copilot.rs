//! GitHub Copilot's chat API. The credential in `auth_env` is a GitHub token; it is exchanged
//! at the token endpoint (`GET …/copilot_internal/v2/token`, `Authorization: token <gh>`) for
//! a short-lived Copilot token (`{token, expires_at, refresh_in?}`), which is sent as a bearer
//! token to `POST {endpoint}/chat/completions` together with the editor headers the API
//! requires.
//!
//! The Copilot token is cached per provider until shortly before it expires. When the chat
//! API answers 401 the router calls [`CopilotTokens::invalidate`] and tries once more with a
//! fresh exchange (a token can be revoked before its `expires_at`).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use serde::Deserialize;

use super::{PrepareCx, Prepared, join, required_secret};
use crate::config::ProviderConfig;
use crate::llm::client::{self, AttemptError, FailureKind};

/// GitHub's token-exchange endpoint (overridable per provider with `token_endpoint`).
pub const DEFAULT_TOKEN_ENDPOINT: &str = "https://api.github.com/copilot_internal/v2/token";
/// `Editor-Version` / `Editor-Plugin-Version`: the API refuses requests without them. opsdesk
/// names itself rather than posing as an editor.
pub const EDITOR_VERSION: &str = concat!("opsdesk/", env!("CARGO_PKG_VERSION"));
/// `Copilot-Integration-Id`.
pub const INTEGRATION_ID: &str = "opsdesk";
/// A cached token is renewed this long before it expires (clock skew, request time).
pub const EXPIRY_MARGIN: Duration = Duration::from_secs(60);

struct Cached {
    token: String,
    renew_at: SystemTime,
}

/// Copilot tokens per provider name. Holds credentials: no `Debug` of the values.
#[derive(Default)]
pub struct CopilotTokens {
    cache: Mutex<HashMap<String, Cached>>,
    exchanges: std::sync::atomic::AtomicU64,
}

impl std::fmt::Debug for CopilotTokens {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("CopilotTokens").finish_non_exhaustive()
    }
}

#[derive(Deserialize)]
struct TokenAnswer {
    token: String,
    /// Unix seconds.
    expires_at: i64,
    /// Seconds after which GitHub suggests renewing.
    #[serde(default)]
    refresh_in: Option<i64>,
}

impl CopilotTokens {
    /// Forget provider `name`'s token (after a 401).
    pub fn invalidate(&self, name: &str) {
        self.lock().remove(name);
    }

    /// How many exchanges this process made (for tests and the console).
    pub fn exchanges(&self) -> u64 {
        self.exchanges.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, HashMap<String, Cached>> {
        self.cache.lock().unwrap_or_else(|p| p.into_inner())
    }

    fn cached(&self, name: &str, now: SystemTime) -> Option<String> {
        self.lock()
            .get(name)
            .filter(|c| now < c.renew_at)
            .map(|c| c.token.clone())
    }

    async fn exchange(
        &self,
        cx: &PrepareCx<'_>,
        cfg: &ProviderConfig,
        github_token: &str,
    ) -> Result<String, AttemptError> {
        let url = cfg
            .token_endpoint
            .as_deref()
            .unwrap_or(DEFAULT_TOKEN_ENDPOINT);
        self.exchanges
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let req = cx
            .http
            .get(url)
            .header("authorization", format!("token {github_token}"))
            .header("accept", "application/json")
            .header("editor-version", EDITOR_VERSION)
            .header("editor-plugin-version", EDITOR_VERSION)
            .header("user-agent", EDITOR_VERSION);
        let secrets = [github_token.to_string()];
        let limit = Duration::from_secs(cfg.timeout_secs.max(1));
        let resp = match tokio::time::timeout(limit, req.send()).await {
            Err(_) => {
                return Err(AttemptError::new(
                    FailureKind::Transient,
                    "Copilot token exchange timed out",
                ));
            }
            Ok(Err(e)) => return Err(client::transport_error("Copilot token exchange", &e)),
            Ok(Ok(r)) => r,
        };
        let status = resp.status();
        let headers = resp.headers().clone();
        let body = match tokio::time::timeout(limit, resp.bytes()).await {
            Ok(Ok(b)) => b,
            Ok(Err(e)) => return Err(client::transport_error("Copilot token exchange", &e)),
            Err(_) => {
                return Err(AttemptError::new(
                    FailureKind::Transient,
                    "Copilot token exchange timed out",
                ));
            }
        };
        if !status.is_success() {
            let mut e = client::classify_status(status.as_u16(), &headers, &body, &secrets);
            e.summary = format!("Copilot token exchange: {}", e.summary);
            return Err(e);
        }
        let answer: TokenAnswer = serde_json::from_slice(&body).map_err(|_| {
            AttemptError::new(
                FailureKind::Protocol,
                "Copilot token exchange: the answer is not {token, expires_at}",
            )
        })?;
        let now = SystemTime::now();
        let expires = UNIX_EPOCH + Duration::from_secs(answer.expires_at.max(0) as u64);
        let mut renew_at = expires.checked_sub(EXPIRY_MARGIN).unwrap_or(UNIX_EPOCH);
        if let Some(r) = answer.refresh_in.filter(|r| *r > 0) {
            renew_at = renew_at.min(now + Duration::from_secs(r as u64));
        }
        self.lock().insert(
            cx.name.to_string(),
            Cached {
                token: answer.token.clone(),
                renew_at,
            },
        );
        Ok(answer.token)
    }
}

pub async fn prepare(cx: &PrepareCx<'_>, cfg: &ProviderConfig) -> Result<Prepared, AttemptError> {
    // A Copilot Extension request's own token is already a Copilot API token for its user
    // (GitHub's agent docs: `Authorization: Bearer <X-GitHub-Token>`): sent as is, never
    // exchanged or cached, so it lives exactly as long as the request.
    if let Some(user) = cx.user_token {
        return Ok(Prepared {
            url: join(&cfg.endpoint, "chat/completions"),
            headers: vec![
                ("authorization", format!("Bearer {user}")),
                ("copilot-integration-id", INTEGRATION_ID.to_string()),
                ("user-agent", EDITOR_VERSION.to_string()),
            ],
            secrets: vec![user.to_string()],
        });
    }
    let github_token = required_secret(cx, cfg)?;
    let token = match cx.copilot.cached(cx.name, SystemTime::now()) {
        Some(t) => t,
        None => cx.copilot.exchange(cx, cfg, &github_token).await?,
    };
    Ok(Prepared {
        url: join(&cfg.endpoint, "chat/completions"),
        headers: vec![
            ("authorization", format!("Bearer {token}")),
            ("editor-version", EDITOR_VERSION.to_string()),
            ("editor-plugin-version", EDITOR_VERSION.to_string()),
            ("copilot-integration-id", INTEGRATION_ID.to_string()),
            ("user-agent", EDITOR_VERSION.to_string()),
        ],
        secrets: vec![github_token, token],
    })
}
