//! The HTTP side of Microsoft Graph: bearer auth, the retry policy and error mapping.
//!
//! Policy (why): a GET is idempotent, so a 5xx is retried a few times with a growing pause; a
//! POST/PATCH is never retried here, because a server error after the server acted would make
//! a retry send twice (the executor has its own crash-safe protocol). A 429 is never retried
//! in-call: it is returned as [`GraphError::Throttled`] with the server's `Retry-After`, and the
//! caller's schedule waits at least that long. A 401 means the request was not processed, so
//! it is retried once with a freshly refreshed token whatever the method.

use std::sync::Arc;
use std::time::Duration;

use reqwest::Method;
use serde_json::Value;

use super::auth::Auth;

/// Everything a Graph call can end in, classified by what the caller should do about it.
#[derive(Debug, Clone, thiserror::Error)]
pub enum GraphError {
    /// No usable sign-in: never signed in, or the refresh token expired or was revoked.
    #[error("login required for profile `{profile}` ({reason}); run `opsdesk login {profile}`")]
    LoginRequired { profile: String, reason: String },
    /// 429: come back after `retry_after`.
    #[error("throttled by Microsoft Graph; retry after {}s", retry_after.as_secs())]
    Throttled { retry_after: Duration },
    /// 410 / `syncStateNotFound` / `resyncRequired`: the delta state is gone, resync fully.
    #[error("sync state expired ({0}); a full resync is needed")]
    SyncReset(String),
    /// Any other HTTP error (after the retries the policy allows).
    #[error("Microsoft Graph answered {status}: {code}: {message}")]
    Http {
        status: u16,
        code: String,
        message: String,
    },
    /// Network trouble: connect, timeout, TLS.
    #[error("cannot reach Microsoft Graph: {0}")]
    Transport(String),
    /// A response that does not have the documented shape.
    #[error("unexpected response from Microsoft Graph: {0}")]
    Invalid(String),
    /// A local failure (inbox or state file write); the poll is retried later.
    #[error("{0}")]
    Local(String),
}

impl GraphError {
    /// The wait a 429 asked for.
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            GraphError::Throttled { retry_after } => Some(*retry_after),
            _ => None,
        }
    }
    pub fn is_login_required(&self) -> bool {
        matches!(self, GraphError::LoginRequired { .. })
    }
    pub fn status(&self) -> Option<u16> {
        match self {
            GraphError::Http { status, .. } => Some(*status),
            GraphError::Throttled { .. } => Some(429),
            _ => None,
        }
    }
}

/// Wait used when a 429 carries no usable `Retry-After`.
const DEFAULT_RETRY_AFTER: Duration = Duration::from_secs(30);
/// Longest `Retry-After` taken at its word (a hostile or broken value must not park a poller
/// for days).
const MAX_RETRY_AFTER: Duration = Duration::from_secs(3600);

/// A Graph API client for one profile.
pub struct GraphClient {
    http: reqwest::Client,
    base: String,
    auth: Arc<Auth>,
    /// Extra attempts for a GET that failed with 5xx or a transport error.
    pub get_retries: u32,
    /// First pause between those attempts (doubled each time).
    pub retry_base: Duration,
}

/// A response of a write call: status and body (if any).
#[derive(Debug, Clone)]
pub struct Reply {
    pub status: u16,
    pub body: Value,
}

impl GraphClient {
    pub fn new(http: reqwest::Client, base: String, auth: Arc<Auth>) -> GraphClient {
        GraphClient {
            http,
            base: base.trim_end_matches('/').to_owned(),
            auth,
            get_retries: 3,
            retry_base: Duration::from_millis(500),
        }
    }

    pub fn auth(&self) -> &Arc<Auth> {
        &self.auth
    }

    pub fn base(&self) -> &str {
        &self.base
    }

    /// `path` relative to the base (`/me/...`), or an absolute link the server gave us
    /// (`@odata.nextLink`), which must stay on the base's origin: a link elsewhere would carry
    /// the access token to a stranger.
    pub fn url(&self, path_or_link: &str) -> Result<String, GraphError> {
        if path_or_link.starts_with("http://") || path_or_link.starts_with("https://") {
            if origin(path_or_link) == origin(&self.base) {
                Ok(path_or_link.to_owned())
            } else {
                Err(GraphError::Invalid(format!(
                    "a link points away from {} ({}); not followed",
                    origin(&self.base),
                    origin(path_or_link)
                )))
            }
        } else {
            Ok(format!("{}{}", self.base, path_or_link))
        }
    }

    /// GET with the idempotent retry policy.
    pub async fn get(&self, path_or_link: &str, prefer: &[&str]) -> Result<Value, GraphError> {
        let url = self.url(path_or_link)?;
        let mut attempt = 0;
        loop {
            match self.request(Method::GET, &url, None, prefer).await {
                Ok(r) => return Ok(r.body),
                Err(e) => {
                    let retryable = matches!(&e, GraphError::Http { status, .. } if *status >= 500)
                        || matches!(e, GraphError::Transport(_));
                    if !retryable || attempt >= self.get_retries {
                        return Err(e);
                    }
                    tokio::time::sleep(self.retry_base.saturating_mul(1 << attempt.min(8))).await;
                    attempt += 1;
                }
            }
        }
    }

    /// A write (POST/PATCH/DELETE): exactly one attempt at the server (plus one after a 401,
    /// which the server did not act on).
    pub async fn write(
        &self,
        method: Method,
        path: &str,
        body: Option<&Value>,
        prefer: &[&str],
    ) -> Result<Reply, GraphError> {
        let url = self.url(path)?;
        self.request(method, &url, body, prefer).await
    }

    async fn request(
        &self,
        method: Method,
        url: &str,
        body: Option<&Value>,
        prefer: &[&str],
    ) -> Result<Reply, GraphError> {
        let mut refreshed = false;
        loop {
            let token = self.auth.access_token().await?;
            let mut rb = self
                .http
                .request(method.clone(), url)
                .bearer_auth(&token)
                .header("accept", "application/json");
            if !prefer.is_empty() {
                rb = rb.header("prefer", prefer.join(", "));
            }
            if let Some(b) = body {
                rb = rb.json(b);
            }
            let resp = rb.send().await.map_err(|e| transport(&e))?;
            let status = resp.status().as_u16();
            let retry_after = resp
                .headers()
                .get("retry-after")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| v.trim().parse::<u64>().ok())
                .map(|s| Duration::from_secs(s).min(MAX_RETRY_AFTER));
            let text = resp.text().await.map_err(|e| transport(&e))?;
            let json: Value = if text.trim().is_empty() {
                Value::Null
            } else {
                serde_json::from_str(&text).unwrap_or(Value::Null)
            };
            if (200..300).contains(&status) {
                return Ok(Reply { status, body: json });
            }
            let code = json["error"]["code"].as_str().unwrap_or("").to_owned();
            // Graph error messages can quote request content; keep them short and one line.
            let message =
                crate::sanitize::one_line(json["error"]["message"].as_str().unwrap_or(""), 200);
            match status {
                401 if !refreshed => {
                    // The access token expired or was revoked early: refresh once.
                    self.auth.invalidate(&token).await;
                    refreshed = true;
                    continue;
                }
                429 => {
                    return Err(GraphError::Throttled {
                        retry_after: retry_after.unwrap_or(DEFAULT_RETRY_AFTER),
                    });
                }
                410 => {
                    return Err(GraphError::SyncReset(if code.is_empty() {
                        "410 Gone".into()
                    } else {
                        code
                    }));
                }
                _ if code == "syncStateNotFound"
                    || code == "resyncRequired"
                    || code == "SyncStateNotFound" =>
                {
                    return Err(GraphError::SyncReset(code));
                }
                _ => {
                    return Err(GraphError::Http {
                        status,
                        code: if code.is_empty() {
                            "unknown".into()
                        } else {
                            code
                        },
                        message,
                    });
                }
            }
        }
    }
}

/// `scheme://host[:port]` of a URL, lower-cased.
fn origin(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let host = rest.split(['/', '?', '#']).next().unwrap_or("");
    format!(
        "{}://{}",
        scheme.to_ascii_lowercase(),
        host.to_ascii_lowercase()
    )
}

/// A transport error without the URL (which may carry a delta token).
pub(crate) fn transport(e: &reqwest::Error) -> GraphError {
    let what = if e.is_timeout() {
        "timed out"
    } else if e.is_connect() {
        "connection failed"
    } else if e.is_body() || e.is_decode() {
        "broken response body"
    } else {
        "request failed"
    };
    let mut cause = String::new();
    let mut src = std::error::Error::source(e);
    while let Some(s) = src {
        cause = s.to_string();
        src = s.source();
    }
    GraphError::Transport(if cause.is_empty() {
        what.to_owned()
    } else {
        format!("{what}: {}", crate::sanitize::one_line(&cause, 160))
    })
}

/// The HTTP client every Graph and identity call uses.
pub fn http_client() -> reqwest::Client {
    reqwest::Client::builder()
        .timeout(Duration::from_secs(60))
        .connect_timeout(Duration::from_secs(15))
        .user_agent(concat!("opsdesk/", env!("CARGO_PKG_VERSION")))
        .build()
        .unwrap_or_else(|_| reqwest::Client::new())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origin_compares_scheme_host_and_port() {
        assert_eq!(
            origin("https://graph.microsoft.com/v1.0/me?x=1"),
            "https://graph.microsoft.com"
        );
        assert_ne!(
            origin("http://127.0.0.1:1/a"),
            origin("http://127.0.0.1:2/a")
        );
    }
}
