//! The legacy GitHub Copilot Extension webhook: `POST /copilot/webhook` on the MCP server's
//! listener, mounted only with `[copilot_extension] enabled = true` (otherwise 404).
//!
//! Order of a request, each step refusing before the next looks at anything:
//! 1. Origin (as `/mcp`): a browser page from elsewhere gets 403.
//! 2. A declared body over `server.max_body_bytes` gets 413.
//! 3. The body is read as bytes within the limit and the signature checked over exactly those
//!    bytes (`keys`). A refusal is 401 with a JSON error, audited as `copilot.webhook` /
//!    `denied` with the reason code only (never the body, never header values); when GitHub's
//!    key list cannot be had (`keys`: the last good list lives its cache time, fetches back
//!    off while failing) it is 503, audited as `error`. Both count toward the peer's
//!    failed-signature allowance (`server.auth_failures_burst`, refilling 1/s); past it such
//!    a request gets 429. The allowance counts failures, not the address: a request with a
//!    valid signature is never refused by it (behind a tunnel every caller shares one
//!    address, and a flood of forgeries must not lock GitHub's own requests out).
//! 4. Rate limit (`server.rate_limit_*`, its own bucket per peer): 429.
//! 5. Only now the body is parsed (`messages`); the last user message picks an intent
//!    (`intent`), which runs through the engine and the PHI view (`answer`) within
//!    `server.request_timeout_secs`, and the answer goes back as Copilot's event stream
//!    (`events`): ack, text, references, errors, done. One `copilot.webhook` audit record per
//!    request: intent, profile, outcome, duration.
//!
//! 5a. Before that, the user (`user`): the request's `X-GitHub-Token` names its GitHub user
//!    at `GET /user`, and only `[copilot_extension] allowed_users` are answered (401 without a
//!    usable token, 403 for another user, 503 when GitHub cannot be asked; audited with the
//!    login, never the token). A signature only proves the request came through GitHub.
//!
//! 5b. Then the body is claimed in the replay cache (`replay`): a body already received is
//!    never acted on again. Its user gets the first answer again (waiting for it when both
//!    arrive together), anyone else or a replay whose answer is gone gets 409; each replay is
//!    audited as `denied`, and not counted toward the failed-signature allowance (a retry by GitHub is
//!    not a guess; the rate limit bounds replays). The first copy runs on its own task, so a
//!    timeout or a closed connection cannot cut an action in half: it finishes and its answer
//!    is kept.
//!
//! `X-GitHub-Token` lives in memory for the one request ([`crate::llm::UserToken`], whose
//! `Debug` shows no value): it goes to GitHub's `/user` and, for an intent that needs an LLM,
//! to the router's `copilot` providers as that call's bearer token (no other provider kind
//! may receive it). It is never stored, logged or audited.

pub mod answer;
pub mod events;
pub mod intent;
pub mod keys;
pub mod replay;
pub mod user;

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::Deserialize;
use serde_json::json;

use crate::domain::{Actor, AuditEvent, AuditOutcome};
use crate::governance::phi_view::Placeholders;
use crate::http::origin::{LOOPBACK_ORIGINS, origin_allowed};
use crate::http::rate::RateLimiter;
use crate::http::{HttpOptions, peer_ip};
use crate::mcp::Hub;

pub use answer::CLIENT;

/// The route's path.
pub const PATH: &str = "/copilot/webhook";

/// Longest user message read for the intent (the rest is ignored).
const MAX_TEXT: usize = 8 * 1024;

pub struct Webhook {
    hub: Arc<Hub>,
    keys: keys::KeyStore,
    users: user::Users,
    origins: Vec<String>,
    max_body: usize,
    timeout: Duration,
    limiter: RateLimiter,
    failures: RateLimiter,
    replays: replay::ReplayCache,
}

/// The route (a plain 404 when the webhook is off). An enabled webhook whose key store cannot
/// be built is an error the server reports at start.
pub fn routes(hub: Arc<Hub>, opts: &HttpOptions) -> anyhow::Result<Router> {
    let config = hub.engine().config().copilot_extension.clone();
    if !config.enabled {
        // Off: the path answers 404 like a route that does not exist (rather than the MCP
        // guard's 401, which would suggest a credential could open it).
        return Ok(Router::new().route(
            PATH,
            axum::routing::any(|| async {
                error(
                    StatusCode::NOT_FOUND,
                    "not_found",
                    "no such endpoint",
                    HeaderMap::new(),
                )
            }),
        ));
    }
    let origins = LOOPBACK_ORIGINS
        .iter()
        .map(|s| s.to_string())
        .chain(
            opts.allowed_origins
                .iter()
                .map(|o| o.trim_end_matches('/').to_string()),
        )
        .collect();
    let w = Arc::new(Webhook {
        keys: keys::KeyStore::new(&config)?,
        users: user::Users::new(&config)?,
        hub,
        origins,
        max_body: opts.max_body_bytes,
        timeout: opts.request_timeout,
        limiter: RateLimiter::new(opts.rate_per_sec, opts.rate_burst),
        failures: RateLimiter::new(1, opts.auth_failures_burst),
        replays: replay::ReplayCache::new(),
    });
    Ok(Router::new().route(PATH, axum::routing::post(handle).with_state(w)))
}

async fn handle(State(w): State<Arc<Webhook>>, req: Request) -> Response {
    let started = Instant::now();
    let peer = peer_ip(&req);
    // 1. Origin.
    if let Some(origin) = req.headers().get(header::ORIGIN) {
        let ok = origin.to_str().is_ok_and(|o| origin_allowed(&w.origins, o));
        if !ok {
            return error(
                StatusCode::FORBIDDEN,
                "forbidden",
                "Origin not allowed",
                HeaderMap::new(),
            );
        }
    }
    // 2. Declared size. The failure allowance and the rate are per peer address.
    let peer_key = format!("copilot@{peer}");
    if req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        .is_some_and(|n| n > w.max_body as u64)
    {
        return too_large(w.max_body);
    }
    let (parts, body) = req.into_parts();
    // GitHub's documented names; some of its examples carry an `X-` prefix, accepted too.
    let header = |name: &str| {
        parts
            .headers
            .get(name)
            .or_else(|| parts.headers.get(format!("x-{name}")))
            .map(|v| v.as_bytes().to_vec())
    };
    let key_id = header("github-public-key-identifier");
    let signature = header("github-public-key-signature");
    // Used only once the signature holds (`user`, and this request's Copilot LLM calls).
    let user_token = parts
        .headers
        .get("x-github-token")
        .and_then(|v| v.to_str().ok())
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(crate::llm::UserToken::new);
    // Nothing else of the request is kept.
    drop(parts);
    let work = async {
        // 3. Body bytes within the limit, then the signature over exactly them.
        let bytes = match axum::body::to_bytes(body, w.max_body).await {
            Ok(b) => b,
            Err(_) => return too_large(w.max_body),
        };
        if let Err(refusal) = w
            .keys
            .verify(key_id.as_deref(), signature.as_deref(), &bytes)
            .await
        {
            return w.refuse(&peer_key, refusal, started).await;
        }
        // 4. Rate.
        if let Err(wait) = w.limiter.check(&peer_key) {
            return too_many(
                wait,
                "rate limit exceeded; wait Retry-After seconds (server.rate_limit_per_sec / rate_limit_burst)",
            );
        }
        // 5a. Its user.
        let login = match w.users.identify(user_token.as_ref()).await {
            Ok(login) => login,
            Err(r) => return w.reject_user(r, started).await,
        };
        // 5b. Once only: a body seen before is not acted on again.
        let ticket = match w.replays.claim(&bytes, &login) {
            replay::Claim::First(t) => t,
            replay::Claim::Replay(r) => return w.replayed(r, &login, started).await,
            replay::Claim::Full(wait) => return w.replay_cache_full(wait, started).await,
        };
        // 5. The verified request, on a task of its own: should this request time out or its
        // connection close, the action still finishes and its answer is kept for a retry
        // (cancelling it halfway could leave a draft queued and no answer to repeat).
        let w2 = w.clone();
        let task = tokio::spawn(async move {
            let resp = w2.converse(&bytes, &login, user_token, started).await;
            let answer = Arc::new(replay::Answer::of(resp).await);
            ticket.finish(answer.clone());
            answer
        });
        match task.await {
            Ok(answer) => answer.response(),
            Err(e) => {
                // The ticket was dropped unfinished: replays of this body are refused.
                tracing::error!("copilot webhook: the request's task failed: {e}");
                error(
                    StatusCode::INTERNAL_SERVER_ERROR,
                    "internal",
                    "the request failed on the operator's machine; it is not run again",
                    HeaderMap::new(),
                )
            }
        }
    };
    match tokio::time::timeout(w.timeout, work).await {
        Ok(r) => r,
        Err(_) => {
            w.audit(
                AuditEvent::new("copilot.webhook", Actor::mcp(CLIENT), AuditOutcome::Error)
                    .reason("timed out (server.request_timeout_secs)")
                    .duration_ms(started.elapsed().as_millis() as u64),
            )
            .await;
            error(
                StatusCode::REQUEST_TIMEOUT,
                "timeout",
                "the request did not finish within server.request_timeout_secs",
                HeaderMap::new(),
            )
        }
    }
}

/// The request as Copilot sends it; everything else in it is ignored.
#[derive(Deserialize)]
struct Payload {
    messages: Vec<ChatMessage>,
}

#[derive(Deserialize)]
struct ChatMessage {
    role: String,
    /// A string, or OpenAI-style parts (`[{"type": "text", "text": …}]`).
    #[serde(default)]
    content: serde_json::Value,
}

impl ChatMessage {
    fn text(&self) -> String {
        match &self.content {
            serde_json::Value::String(s) => s.clone(),
            serde_json::Value::Array(parts) => parts
                .iter()
                .filter(|p| p.get("type").and_then(|t| t.as_str()) == Some("text"))
                .filter_map(|p| p.get("text").and_then(|t| t.as_str()))
                .collect::<Vec<_>>()
                .join("\n"),
            _ => String::new(),
        }
    }
}

impl Webhook {
    async fn refuse(&self, peer_key: &str, refusal: keys::Refusal, started: Instant) -> Response {
        let unavailable = matches!(refusal, keys::Refusal::KeysUnavailable(_));
        // Every request that could not be verified counts toward the peer's allowance (the
        // result is the 429 of a later request), a missing key list too: otherwise a flood of
        // well-formed requests during a GitHub outage would go unthrottled.
        if let Err(wait) = self.failures.check(peer_key) {
            // Past the allowance a failure is answered, not audited: a flood of forgeries
            // must not grow the trail (the first ones of it are on it).
            return too_many(
                wait,
                "too many requests with a bad signature; wait Retry-After seconds",
            );
        }
        self.audit(
            AuditEvent::new(
                "copilot.webhook",
                Actor::mcp(CLIENT),
                if unavailable {
                    AuditOutcome::Error
                } else {
                    AuditOutcome::Denied
                },
            )
            .reason(format!("signature not verified: {}", refusal.code()))
            .duration_ms(started.elapsed().as_millis() as u64),
        )
        .await;
        if unavailable {
            let mut h = HeaderMap::new();
            h.insert(header::RETRY_AFTER, HeaderValue::from(30u64));
            return error(
                StatusCode::SERVICE_UNAVAILABLE,
                refusal.code(),
                &refusal.to_string(),
                h,
            );
        }
        error(
            StatusCode::UNAUTHORIZED,
            refusal.code(),
            &format!("request signature not verified: {refusal}"),
            HeaderMap::new(),
        )
    }

    /// A body already received: never acted on again. The same user gets the first answer
    /// again (waiting for it while the first copy still runs); another user, or a replay
    /// whose answer is no longer kept, gets 409. Audited as a refusal either way.
    async fn replayed(&self, r: replay::Replay, login: &str, started: Instant) -> Response {
        let (digest, age, same_user) = (r.digest.clone(), r.age.as_secs(), r.same_user);
        let answer = if same_user {
            r.first_answer().await
        } else {
            None
        };
        let what = match (same_user, &answer) {
            (false, _) => "refused: the first copy came from another GitHub user",
            (true, Some(_)) => "the first answer is sent again",
            (true, None) => "refused: the first answer is no longer kept",
        };
        let audited = self
            .audit(
                AuditEvent::new("copilot.webhook", Actor::mcp(CLIENT), AuditOutcome::Denied)
                    .reason(format!(
                        "github user {login}: replayed request (body sha256 {digest}…, first received {age} s ago): nothing done again; {what}"
                    ))
                    .duration_ms(started.elapsed().as_millis() as u64),
            )
            .await;
        if !audited {
            return audit_unavailable();
        }
        match answer {
            Some(a) => {
                let mut resp = a.response();
                resp.headers_mut()
                    .insert(REPLAY_HEADER, HeaderValue::from_static("first-answer"));
                resp
            }
            None => error(
                StatusCode::CONFLICT,
                "replayed_request",
                &format!(
                    "this signed request was already received {age} s ago; it is not acted on again"
                ),
                HeaderMap::new(),
            ),
        }
    }

    async fn replay_cache_full(&self, wait: Duration, started: Instant) -> Response {
        self.audit(
            AuditEvent::new("copilot.webhook", Actor::mcp(CLIENT), AuditOutcome::Error)
                .reason(format!(
                    "refused: more than {} distinct requests within {} minutes; a replay could not be told apart",
                    replay::MAX_ENTRIES,
                    replay::ANSWER_WINDOW.as_secs() / 60
                ))
                .duration_ms(started.elapsed().as_millis() as u64),
        )
        .await;
        let mut h = HeaderMap::new();
        h.insert(
            header::RETRY_AFTER,
            HeaderValue::from(wait.as_secs().max(1)),
        );
        error(
            StatusCode::SERVICE_UNAVAILABLE,
            "replay_cache_full",
            "too many distinct requests in the last minutes to tell a replay apart; try again later",
            h,
        )
    }

    async fn reject_user(&self, r: user::Rejection, started: Instant) -> Response {
        // Not counted toward the peer's failure allowance: the peer is GitHub, shared by every
        // user, and a stranger must not be able to lock the operator out.
        let (status, outcome) = match &r {
            user::Rejection::Missing | user::Rejection::Refused(_) => {
                (StatusCode::UNAUTHORIZED, AuditOutcome::Denied)
            }
            user::Rejection::NotAllowed(_) => (StatusCode::FORBIDDEN, AuditOutcome::Denied),
            user::Rejection::Unavailable(_) => {
                (StatusCode::SERVICE_UNAVAILABLE, AuditOutcome::Error)
            }
        };
        self.audit(
            AuditEvent::new("copilot.webhook", Actor::mcp(CLIENT), outcome)
                .reason(format!("user not accepted: {r}"))
                .duration_ms(started.elapsed().as_millis() as u64),
        )
        .await;
        let mut h = HeaderMap::new();
        if status == StatusCode::SERVICE_UNAVAILABLE {
            h.insert(header::RETRY_AFTER, HeaderValue::from(30u64));
        }
        error(status, r.code(), &r.to_string(), h)
    }

    async fn converse(
        &self,
        body: &[u8],
        login: &str,
        user_token: Option<crate::llm::UserToken>,
        started: Instant,
    ) -> Response {
        let payload: Payload = match serde_json::from_slice(body) {
            Ok(p) => p,
            Err(e) => {
                self.audit(
                    AuditEvent::new("copilot.webhook", Actor::mcp(CLIENT), AuditOutcome::Error)
                        .reason("malformed request: not a Copilot agent request (`messages`)")
                        .duration_ms(started.elapsed().as_millis() as u64),
                )
                .await;
                return error(
                    StatusCode::BAD_REQUEST,
                    "malformed_request",
                    &format!("expected a JSON object with `messages` [{{role, content}}]: {e}"),
                    HeaderMap::new(),
                );
            }
        };
        let text: String = payload
            .messages
            .iter()
            .rev()
            .find(|m| m.role == "user")
            .map(ChatMessage::text)
            .unwrap_or_default()
            .chars()
            .take(MAX_TEXT)
            .collect();
        // One recipient per request: placeholders are stable within this answer.
        let placeholders = Placeholders::new();
        let reply = answer::answer(&self.hub, &placeholders, &text, user_token).await;
        let outcome = reply.outcome.unwrap_or(AuditOutcome::Ok);
        let mut ev = AuditEvent::new("copilot.webhook", Actor::mcp(CLIENT), outcome)
            .tool(reply.intent.name())
            .reason(format!("github user {login}: {}", reply.note))
            .duration_ms(started.elapsed().as_millis() as u64);
        if let Some(p) = &reply.profile {
            ev = ev.entity(p.clone());
        }
        if !self.audit(ev).await {
            return audit_unavailable();
        }
        let mut out = events::ack();
        for c in &reply.chunks {
            out.push_str(&events::text(c));
        }
        if !reply.references.is_empty() {
            out.push_str(&events::references(&reply.references));
        }
        if !reply.errors.is_empty() {
            out.push_str(&events::errors(&reply.errors));
        }
        out.push_str(&events::done());
        let mut h = HeaderMap::new();
        h.insert(
            header::CONTENT_TYPE,
            HeaderValue::from_static("text/event-stream"),
        );
        h.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        (StatusCode::OK, h, Body::from(out)).into_response()
    }

    /// Write an audit record off the async workers; whether it was written.
    async fn audit(&self, ev: AuditEvent) -> bool {
        let engine = self.hub.engine().clone();
        match tokio::task::spawn_blocking(move || engine.audit(ev)).await {
            Ok(Ok(_)) => true,
            Ok(Err(e)) => {
                tracing::error!("copilot webhook: audit failed: {e}");
                false
            }
            Err(e) => {
                tracing::error!("copilot webhook: audit task failed: {e}");
                false
            }
        }
    }
}

fn error(status: StatusCode, code: &str, message: &str, mut headers: HeaderMap) -> Response {
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    let body = json!({"error": {"code": code, "message": message}});
    (status, headers, body.to_string()).into_response()
}

/// Header on a replay's repeated answer (`first-answer`), so a caller can tell it apart.
pub const REPLAY_HEADER: &str = "opsdesk-replay";

fn audit_unavailable() -> Response {
    error(
        StatusCode::SERVICE_UNAVAILABLE,
        "audit_unavailable",
        "the audit trail cannot be written on the operator's machine; nothing is answered",
        HeaderMap::new(),
    )
}

fn too_large(max: usize) -> Response {
    error(
        StatusCode::PAYLOAD_TOO_LARGE,
        "too_large",
        &format!("request body over {max} bytes (server.max_body_bytes)"),
        HeaderMap::new(),
    )
}

fn too_many(wait: Duration, message: &str) -> Response {
    let secs = wait.as_secs_f64().ceil().max(1.0) as u64;
    let mut h = HeaderMap::new();
    h.insert(header::RETRY_AFTER, HeaderValue::from(secs));
    error(StatusCode::TOO_MANY_REQUESTS, "rate_limited", message, h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn message_content_is_a_string_or_text_parts() {
        let p: Payload = serde_json::from_str(
            r#"{"messages":[{"role":"user","content":"status"},{"role":"user","content":[{"type":"text","text":"morning"},{"type":"image_url","image_url":{"url":"x"}},{"type":"text","text":"brief"}]},{"role":"assistant","content":null}]}"#,
        )
        .unwrap();
        assert_eq!(p.messages[0].text(), "status");
        assert_eq!(p.messages[1].text(), "morning\nbrief");
        assert_eq!(p.messages[2].text(), "");
    }
}
