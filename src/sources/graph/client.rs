//! The HTTP side of Microsoft Graph: bearer auth, the retry policy and error mapping.
//!
//! Policy (why): a GET is idempotent, so a 5xx is retried a few times; a POST/PATCH is never
//! retried here, because a server error after the server acted would make a retry send twice
//! (the executor has its own crash-safe protocol). The pause before a GET retry is the server's
//! `Retry-After` when a 503 or 504 carries one (Microsoft's throttling guidance: "Retry-After"
//! on 429, 503 and 504, in seconds or as an HTTP-date), else a jittered doubling backoff, so
//! many pollers do not retry in lockstep. A `Retry-After` longer than [`MAX_IN_CALL_WAIT`] is
//! not slept in-call: the error carries it and the caller's schedule waits at least that long.
//! A 429 is never retried in-call: it is returned as [`GraphError::Throttled`]. A 401 means the
//! request was not processed, so it is retried once with a freshly refreshed token whatever the
//! method. A body-less POST is sent with an explicit empty body and `Content-Length: 0` (the
//! reference lists it as required for e.g. `/send`; front ends answer 411 without it); a GET
//! carries `Content-Type: application/json`, which the delta reference lists as required.
//! Error codes are read at the top level and in nested `innerError`s, in any case; a claims
//! challenge (`insufficient_claims`) is "login required", since only a new sign-in meets it.

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
        /// The `Retry-After` of a 503 / 504, when it carried one.
        retry_after: Option<Duration>,
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
    /// The wait the service asked for (429, or a 503 / 504 with `Retry-After`).
    pub fn retry_after(&self) -> Option<Duration> {
        match self {
            GraphError::Throttled { retry_after } => Some(*retry_after),
            GraphError::Http { retry_after, .. } => *retry_after,
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
/// Longest `Retry-After` a GET waits out in-call; a longer one goes back to the caller's
/// schedule (a poller must stay responsive to shutdown and report its health).
pub(crate) const MAX_IN_CALL_WAIT: Duration = Duration::from_secs(30);

/// `Retry-After` as delay-seconds or an HTTP-date (RFC 9110 §10.2.3), capped.
pub(crate) fn parse_retry_after(v: &str, now: std::time::SystemTime) -> Option<Duration> {
    let v = v.trim();
    let d = match v.parse::<u64>() {
        Ok(s) => Duration::from_secs(s),
        Err(_) => httpdate::parse_http_date(v)
            .ok()?
            .duration_since(now)
            .unwrap_or(Duration::ZERO),
    };
    Some(d.min(MAX_RETRY_AFTER))
}

/// `base · 2^attempt`, scaled by a random factor in [0.5, 1.5) ("full jitter" variant), so
/// clients that failed together do not come back together.
pub(crate) fn jittered(base: Duration, attempt: u32) -> Duration {
    let raw = base.saturating_mul(1 << attempt.min(8));
    // uuid v4 is 122 random bits from the OS generator; no extra dependency for one number.
    let r = (uuid::Uuid::new_v4().as_u128() % 1000) as u32;
    raw.mul_f64(0.5 + f64::from(r) / 1000.0)
}

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

    /// `path` relative to the base (`/me/...`), or an absolute link (a saved
    /// `@odata.deltaLink`, one [`GraphClient::link`] resolved), which must stay on the base's
    /// origin: a link elsewhere would carry the access token to a stranger.
    pub fn url(&self, path_or_link: &str) -> Result<String, GraphError> {
        match reqwest::Url::parse(path_or_link) {
            Ok(abs) => on_origin_of(&reqwest::Url::parse(&self.base).map_err(bad_url)?, abs),
            // No scheme: one of our own paths under the base.
            Err(_) => Ok(format!("{}{}", self.base, path_or_link)),
        }
    }

    /// A link a page carries (`@odata.nextLink`, `@odata.deltaLink`) as an absolute URL on
    /// the base's origin (see [`resolve_link`]).
    pub fn link(&self, link: &str) -> Result<String, GraphError> {
        resolve_link(&self.base, link)
    }

    /// The `key` link of a page (`@odata.nextLink` / `@odata.deltaLink`), resolved by
    /// [`GraphClient::link`]; `None` when the page has none.
    pub fn page_link(&self, page: &Value, key: &str) -> Result<Option<String>, GraphError> {
        page[key].as_str().map(|l| self.link(l)).transpose()
    }

    /// GET with the idempotent retry policy.
    pub async fn get(&self, path_or_link: &str, prefer: &[&str]) -> Result<Value, GraphError> {
        let url = self.url(path_or_link)?;
        self.idempotent(|| async {
            self.request(Method::GET, &url, None, prefer)
                .await
                .map(|r| r.body)
        })
        .await
    }

    /// The retry policy of every GET: 5xx and transport errors are tried again up to
    /// `get_retries` times, after the server's `Retry-After` (given up on when longer than
    /// [`MAX_IN_CALL_WAIT`]) or a jittered, doubling pause. Anything else is final.
    async fn idempotent<T, F, Fut>(&self, mut once: F) -> Result<T, GraphError>
    where
        F: FnMut() -> Fut,
        Fut: std::future::Future<Output = Result<T, GraphError>>,
    {
        let mut attempt = 0;
        loop {
            let e = match once().await {
                Ok(v) => return Ok(v),
                Err(e) => e,
            };
            let retryable = matches!(&e, GraphError::Http { status, .. } if *status >= 500)
                || matches!(e, GraphError::Transport(_));
            if !retryable || attempt >= self.get_retries {
                return Err(e);
            }
            let wait = match e.retry_after() {
                Some(ra) if ra > MAX_IN_CALL_WAIT => return Err(e),
                Some(ra) => ra,
                None => jittered(self.retry_base, attempt),
            };
            tokio::time::sleep(wait).await;
            attempt += 1;
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
            if method == Method::GET {
                // Listed as a required request header of e.g. "message: delta"; harmless on
                // every other GET.
                rb = rb.header(reqwest::header::CONTENT_TYPE, "application/json");
            }
            rb = match body {
                Some(b) => rb.json(b),
                // Explicit zero length: a body-less POST without it may get 411.
                None if method != Method::GET => rb
                    .header(reqwest::header::CONTENT_LENGTH, "0")
                    .body(Vec::<u8>::new()),
                None => rb,
            };
            let resp = rb.send().await.map_err(|e| transport(&e))?;
            let status = resp.status().as_u16();
            let retry_after = resp
                .headers()
                .get("retry-after")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| parse_retry_after(v, std::time::SystemTime::now()));
            let challenge = www_authenticate(&resp);
            let text = resp.text().await.map_err(|e| transport(&e))?;
            let json: Value = if text.trim().is_empty() {
                Value::Null
            } else {
                serde_json::from_str(&text).unwrap_or(Value::Null)
            };
            if (200..300).contains(&status) {
                return Ok(Reply { status, body: json });
            }
            if status == 401 && !refreshed {
                // The access token expired or was revoked early: refresh once.
                self.auth.invalidate(&token).await;
                refreshed = true;
                continue;
            }
            return Err(self.classify(status, retry_after, &challenge, &error_json(&text)));
        }
    }

    /// [`classify`], except that a claims challenge (Conditional Access or Continuous Access
    /// Evaluation: `insufficient_claims` in `WWW-Authenticate` or as an error code, on a 401
    /// or 403) asks for a new interactive sign-in, which no retry or refresh can replace.
    fn classify(
        &self,
        status: u16,
        retry_after: Option<Duration>,
        challenge: &str,
        json: &Value,
    ) -> GraphError {
        let claims = challenge.contains("insufficient_claims")
            || error_codes(json)
                .iter()
                .any(|c| c.eq_ignore_ascii_case("insufficient_claims"));
        if claims && (status == 401 || status == 403) {
            return GraphError::LoginRequired {
                profile: self.auth.profile().to_owned(),
                reason: "Conditional Access asks for a new sign-in (insufficient_claims)".into(),
            };
        }
        classify(status, retry_after, json)
    }

    /// GET the raw bytes of `path` (an attachment's `$value`), streamed; `None` as soon as
    /// they pass `max` bytes (the rest is not read). The retry policy of
    /// [`GraphClient::get`] applies.
    pub async fn get_bytes(&self, path: &str, max: u64) -> Result<Option<Vec<u8>>, GraphError> {
        let url = self.url(path)?;
        self.idempotent(|| self.bytes_once(&url, max)).await
    }

    async fn bytes_once(&self, url: &str, max: u64) -> Result<Option<Vec<u8>>, GraphError> {
        let mut refreshed = false;
        loop {
            let token = self.auth.access_token().await?;
            let mut resp = self
                .http
                .get(url)
                .bearer_auth(&token)
                .send()
                .await
                .map_err(|e| transport(&e))?;
            let status = resp.status().as_u16();
            if (200..300).contains(&status) {
                let mut out = Vec::new();
                while let Some(chunk) = resp.chunk().await.map_err(|e| transport(&e))? {
                    if out.len() as u64 + chunk.len() as u64 > max {
                        return Ok(None);
                    }
                    out.extend_from_slice(&chunk);
                }
                return Ok(Some(out));
            }
            let retry_after = resp
                .headers()
                .get("retry-after")
                .and_then(|v| v.to_str().ok())
                .and_then(|v| parse_retry_after(v, std::time::SystemTime::now()));
            let challenge = www_authenticate(&resp);
            let text = resp.text().await.map_err(|e| transport(&e))?;
            if status == 401 && !refreshed {
                self.auth.invalidate(&token).await;
                refreshed = true;
                continue;
            }
            return Err(self.classify(status, retry_after, &challenge, &error_json(&text)));
        }
    }
}

impl GraphClient {
    /// `PUT` one chunk of an upload session to its `uploadUrl`. The URL is pre-authenticated,
    /// and the documentation says to send no `Authorization` header with it, so none is sent
    /// (the bearer token never goes to the upload host). Never retried: the caller starts a
    /// new session on a later attempt.
    pub async fn put_upload_chunk(
        &self,
        upload_url: &str,
        chunk: &[u8],
        start: u64,
        total: u64,
    ) -> Result<(), GraphError> {
        let https = reqwest::Url::parse(upload_url).is_ok_and(|u| u.scheme() == "https");
        if !https
            && on_origin_of(
                &reqwest::Url::parse(&self.base).map_err(bad_url)?,
                reqwest::Url::parse(upload_url).map_err(bad_url)?,
            )
            .is_err()
        {
            return Err(GraphError::Invalid(
                "an upload URL that is neither https nor on the Graph base; not used".into(),
            ));
        }
        let end = start + chunk.len() as u64 - 1;
        let resp = self
            .http
            .put(upload_url)
            .header(reqwest::header::CONTENT_LENGTH, chunk.len().to_string())
            .header(
                reqwest::header::CONTENT_RANGE,
                format!("bytes {start}-{end}/{total}"),
            )
            .body(chunk.to_vec())
            .send()
            .await
            .map_err(|e| transport(&e))?;
        let status = resp.status().as_u16();
        if (200..300).contains(&status) {
            return Ok(());
        }
        let text = resp.text().await.map_err(|e| transport(&e))?;
        Err(classify(status, None, &error_json(&text)))
    }
}

/// The codes of an error body, outermost first: `error.code`, then each nested
/// `innerError.code` (Graph puts the specific code there under a generic top-level one; the
/// key is spelled `innerError` in the documentation and `innererror` by some services).
fn error_codes(json: &Value) -> Vec<&str> {
    let mut codes = Vec::new();
    let mut e = &json["error"];
    // Bounded: a hostile body cannot make this walk long.
    for _ in 0..8 {
        if !e.is_object() {
            break;
        }
        if let Some(c) = e["code"].as_str().filter(|c| !c.is_empty()) {
            codes.push(c);
        }
        e = match e.get("innerError") {
            Some(inner) => inner,
            None => &e["innererror"],
        };
    }
    codes
}

/// An error answer's body as Graph's error JSON. A body that is none (a gateway's HTML page,
/// plain text, nothing) becomes one whose message says what came back, so the error does
/// not end in an empty message.
fn error_json(text: &str) -> Value {
    match serde_json::from_str::<Value>(text) {
        Ok(v) if v["error"].is_object() => v,
        _ if text.trim().is_empty() => serde_json::json!({"error": {"message": "(empty body)"}}),
        _ => serde_json::json!({"error": {
            "message": format!("(not Graph's error JSON) {}", crate::sanitize::one_line(text, 120))
        }}),
    }
}

/// The error of a non-2xx answer (a 401 here is one that survived the refresh).
fn classify(status: u16, retry_after: Option<Duration>, json: &Value) -> GraphError {
    let codes = error_codes(json);
    let code = codes.first().copied().unwrap_or("").to_owned();
    // The delta query's "start over" codes, wherever they are nested and however cased.
    // Graph's error reference lists `resyncRequired` with the inner codes
    // `resyncApplyDifferences` / `resyncUploadDifferences`, the delta overview an expired token's
    // `syncStateNotFound`; Exchange also answers `SyncStateInvalid`. A full resync answers
    // them all (the inbox's dedup absorbs what comes again).
    let resync = codes.iter().find(|c| {
        [
            "syncStateNotFound",
            "syncStateInvalid",
            "resyncRequired",
            "resyncApplyDifferences",
            "resyncUploadDifferences",
        ]
        .iter()
        .any(|k| c.eq_ignore_ascii_case(k))
    });
    // Graph error messages can quote request content; keep them short and one line. The
    // request id is what Microsoft's support asks for.
    let mut message =
        crate::sanitize::one_line(json["error"]["message"].as_str().unwrap_or(""), 200);
    let inner = &json["error"];
    let request_id = ["innerError", "innererror"]
        .iter()
        .find_map(|k| inner[k]["request-id"].as_str())
        .filter(|id| !id.is_empty());
    if let Some(id) = request_id {
        message = format!(
            "{message} (request-id {})",
            crate::sanitize::one_line(id, 64)
        );
    }
    match status {
        429 => GraphError::Throttled {
            retry_after: retry_after.unwrap_or(DEFAULT_RETRY_AFTER),
        },
        410 => GraphError::SyncReset(if code.is_empty() {
            "410 Gone".into()
        } else {
            code
        }),
        _ if resync.is_some() => {
            GraphError::SyncReset(resync.map(|c| c.to_string()).unwrap_or_default())
        }
        _ => GraphError::Http {
            status,
            code: if code.is_empty() {
                "unknown".into()
            } else {
                code
            },
            message,
            retry_after: retry_after.filter(|_| status == 503 || status == 504),
        },
    }
}

/// The `WWW-Authenticate` header of a response (empty when absent).
fn www_authenticate(resp: &reqwest::Response) -> String {
    resp.headers()
        .get_all(reqwest::header::WWW_AUTHENTICATE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .collect::<Vec<_>>()
        .join(", ")
}

/// A paging link as an absolute URL on `base`'s origin. Graph writes them absolute, but OData
/// JSON (v4.0 §4.6, "Relative URLs") lets a service write them relative to the context URL,
/// i.e. to the service root (`me/messages?$skiptoken=…`) or to the host (`/v1.0/me/…`):
/// RFC 3986 resolution against `base/` gives the right URL for all three (pasting the base in
/// front of a host-relative link would double its `/v1.0`).
fn resolve_link(base: &str, link: &str) -> Result<String, GraphError> {
    // `base/` has the base's origin: one parse serves the join and the check.
    let root = reqwest::Url::parse(&format!("{base}/")).map_err(bad_url)?;
    let abs = root.join(link.trim()).map_err(bad_url)?;
    on_origin_of(&root, abs)
}

/// `abs` when it is on `ours`'s origin (scheme and host in any case, an explicit default port
/// the same as none): a link elsewhere would carry the access token to a stranger.
fn on_origin_of(ours: &reqwest::Url, abs: reqwest::Url) -> Result<String, GraphError> {
    if abs.origin() == ours.origin() {
        Ok(abs.into())
    } else {
        Err(GraphError::Invalid(format!(
            "a link points away from {} ({}); not followed",
            ours.origin().ascii_serialization(),
            abs.origin().ascii_serialization()
        )))
    }
}

fn bad_url(e: impl std::fmt::Display) -> GraphError {
    GraphError::Invalid(format!("a link that is no URL ({e})"))
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
pub(crate) fn http_client() -> reqwest::Client {
    crate::net::client_builder()
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
    fn retry_after_is_seconds_or_an_http_date() {
        let now = std::time::UNIX_EPOCH + Duration::from_secs(1_445_412_480);
        assert_eq!(parse_retry_after(" 3 ", now), Some(Duration::from_secs(3)));
        // 1445412480 is Wed, 21 Oct 2015 07:28:00 GMT.
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:28:07 GMT", now),
            Some(Duration::from_secs(7))
        );
        assert_eq!(
            parse_retry_after("Wed, 21 Oct 2015 07:27:00 GMT", now),
            Some(Duration::ZERO)
        );
        assert_eq!(parse_retry_after("soon", now), None);
        assert_eq!(parse_retry_after("99999999", now), Some(MAX_RETRY_AFTER));
    }

    #[test]
    fn jitter_stays_within_half_and_one_and_a_half_of_the_backoff() {
        for attempt in 0..4 {
            let raw = Duration::from_millis(100) * (1 << attempt);
            let j = jittered(Duration::from_millis(100), attempt);
            assert!(j >= raw / 2 && j < raw * 3 / 2, "{j:?} for {raw:?}");
        }
    }

    #[test]
    fn resync_codes_are_found_nested_and_in_any_case() {
        let body = serde_json::json!({"error": {"code": "BadRequest", "message": "m",
            "innerError": {"code": "SyncStateNotFound", "date": "2026-11-22T07:00:00"}}});
        assert!(
            matches!(classify(400, None, &body), GraphError::SyncReset(c) if c == "SyncStateNotFound")
        );
        let body = serde_json::json!({"error": {"code": "badRequest",
            "innererror": {"code": "generic", "innerError": {"code": "RESYNCREQUIRED"}}}});
        assert!(matches!(
            classify(400, None, &body),
            GraphError::SyncReset(_)
        ));
        let body =
            serde_json::json!({"error": {"code": "badRequest", "innerError": {"code": "other"}}});
        assert!(
            matches!(classify(400, None, &body), GraphError::Http { status: 400, code, .. } if code == "badRequest")
        );
    }

    #[test]
    fn paging_links_resolve_absolute_or_relative_and_stay_on_our_origin() {
        let base = "https://graph.microsoft.com/v1.0";
        let next = "https://graph.microsoft.com/v1.0/me/messages/delta?$skiptoken=a";
        assert_eq!(resolve_link(base, next).unwrap(), next);
        // Relative to the service root and to the host (OData's relative URLs).
        assert_eq!(
            resolve_link(base, "me/messages/delta?$skiptoken=a").unwrap(),
            next
        );
        assert_eq!(
            resolve_link(base, "/v1.0/me/messages/delta?$skiptoken=a").unwrap(),
            next
        );
        // Scheme and host in capitals, the default port written out: the same origin.
        assert_eq!(
            resolve_link(
                base,
                "HTTPS://Graph.Microsoft.com:443/v1.0/me/messages/delta?$skiptoken=a"
            )
            .unwrap(),
            next
        );
        for away in [
            "https://evil.example/v1.0/me",
            "http://graph.microsoft.com/v1.0/me",
            "https://graph.microsoft.com:8443/v1.0/me",
            "//evil.example/v1.0/me",
        ] {
            assert!(
                matches!(resolve_link(base, away), Err(GraphError::Invalid(_))),
                "{away}"
            );
        }
        assert!(resolve_link("http://127.0.0.1:1", "http://127.0.0.1:2/a").is_err());
    }
}
