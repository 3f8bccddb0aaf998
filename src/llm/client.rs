//! One HTTP attempt against one provider: send the chat request, read the answer (streamed or
//! whole) within the time limits, and say what a failure means for the router.
//!
//! Failure classes ([`FailureKind`]) and why:
//! - `Transient` (429 other than quota, 408, 5xx, connection errors, timeouts, a stream that
//!   breaks off, a mid-stream `server_error`): the same provider may answer a moment later.
//! - `Auth` (401/403), `Quota` (`insufficient_quota`), `Request` (other 4xx), `Filtered`
//!   (content filter), `Protocol` (an answer we cannot read), `Config` (no credential): asking
//!   the same provider again gives the same answer, so the router moves on instead.
//!
//! Whatever the class, once text has reached the caller's sink the router neither retries nor
//! falls back: the caller would see the answer start twice.

use std::time::{Duration, SystemTime};

use serde_json::Value;
use tokio::time::Instant;

use super::Usage;
use super::providers::Prepared;
use super::sse::SseParser;

/// How much of a non-streamed answer or an error body is read.
const MAX_BODY: usize = 8 * 1024 * 1024;
/// How much of a server's error message is kept (after scrubbing).
const MAX_MESSAGE: usize = 200;
/// Largest streamed answer accepted: a server that never stops is cut off here, not by memory.
pub const MAX_ANSWER: usize = 4 * 1024 * 1024;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailureKind {
    Transient,
    Auth,
    Quota,
    Request,
    Filtered,
    Protocol,
    Config,
}

impl FailureKind {
    /// Worth another try on the same provider.
    pub fn retryable(self) -> bool {
        self == FailureKind::Transient
    }

    /// Says something about the provider's health (and so counts toward its cooldown); a bad
    /// request or a missing credential says something about us.
    pub fn counts_against_provider(self) -> bool {
        matches!(
            self,
            FailureKind::Transient | FailureKind::Auth | FailureKind::Quota | FailureKind::Protocol
        )
    }

    pub fn as_str(self) -> &'static str {
        match self {
            FailureKind::Transient => "transient",
            FailureKind::Auth => "auth",
            FailureKind::Quota => "quota",
            FailureKind::Request => "request",
            FailureKind::Filtered => "content_filter",
            FailureKind::Protocol => "protocol",
            FailureKind::Config => "config",
        }
    }
}

/// Why an attempt failed. `summary` never holds a credential (scrubbed) nor any request text.
#[derive(Debug, Clone)]
pub struct AttemptError {
    pub kind: FailureKind,
    pub status: Option<u16>,
    pub retry_after: Option<Duration>,
    /// Text had already reached the caller when it failed.
    pub delivered: bool,
    pub summary: String,
}

impl AttemptError {
    pub fn new(kind: FailureKind, summary: impl Into<String>) -> Self {
        AttemptError {
            kind,
            status: None,
            retry_after: None,
            delivered: false,
            summary: summary.into(),
        }
    }
}

/// A successful answer.
#[derive(Debug, Clone, Default)]
pub struct Completion {
    pub text: String,
    pub usage: Option<Usage>,
    pub model: Option<String>,
    pub finish_reason: Option<String>,
}

/// One attempt's request.
pub struct Attempt<'a> {
    pub target: &'a Prepared,
    pub body: Vec<u8>,
    pub timeout: Duration,
    pub first_chunk_timeout: Duration,
}

/// Where streamed text goes as it arrives.
pub type Sink<'a> = &'a mut (dyn FnMut(&str) + Send);

/// Send the request and read the answer. `sink` receives streamed text as it arrives.
pub async fn send(
    http: &reqwest::Client,
    a: Attempt<'_>,
    mut sink: Option<Sink<'_>>,
) -> Result<Completion, AttemptError> {
    let started = Instant::now();
    let deadline = started + a.timeout;
    let first_deadline = (started + a.first_chunk_timeout).min(deadline);
    let secrets = &a.target.secrets;

    let mut req = http
        .post(&a.target.url)
        .header("content-type", "application/json")
        .header("accept", "text/event-stream, application/json")
        .body(a.body);
    for (k, v) in &a.target.headers {
        req = req.header(*k, v);
    }
    let mut resp = match tokio::time::timeout_at(first_deadline, req.send()).await {
        Err(_) => return Err(timeout_error(started, first_deadline, deadline)),
        Ok(Err(e)) => return Err(transport_error("request", &e)),
        Ok(Ok(r)) => r,
    };
    let status = resp.status();
    if !status.is_success() {
        let headers = resp.headers().clone();
        let body = read_bounded(&mut resp, deadline).await.unwrap_or_default();
        return Err(classify_status(status.as_u16(), &headers, &body, secrets));
    }
    let is_sse = resp
        .headers()
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.to_ascii_lowercase().contains("text/event-stream"));

    if !is_sse {
        let body = match tokio::time::timeout_at(first_deadline, resp.chunk()).await {
            Err(_) => return Err(timeout_error(started, first_deadline, deadline)),
            Ok(Err(e)) => return Err(transport_error("answer", &e)),
            Ok(Ok(first)) => {
                let mut body = first.map(|b| b.to_vec()).unwrap_or_default();
                body.extend(read_bounded(&mut resp, deadline).await?);
                body
            }
        };
        if !body.trim_ascii_start().starts_with(b"data:") {
            let c = parse_whole(&body, secrets)?;
            if let Some(s) = sink.as_mut()
                && !c.text.is_empty()
            {
                s(&c.text);
            }
            return Ok(c);
        }
        // A stream without its content type: read it as one.
        let mut st = StreamState::default();
        let mut parser = SseParser::new();
        let events = parser
            .push(&body)
            .map_err(|e| AttemptError::new(FailureKind::Protocol, e.to_string()))?;
        for ev in events.into_iter().chain(parser.finish()) {
            if st.event(&ev.data, &mut sink, secrets)? {
                break;
            }
        }
        return st.finish();
    }

    let mut st = StreamState::default();
    let mut parser = SseParser::new();
    loop {
        let limit = if st.seen_data {
            deadline
        } else {
            first_deadline
        };
        let chunk = match tokio::time::timeout_at(limit, resp.chunk()).await {
            Err(_) => {
                let mut e = timeout_error(started, limit, deadline);
                e.delivered = st.delivered;
                return Err(e);
            }
            Ok(Err(e)) => {
                let mut e = transport_error("stream", &e);
                e.delivered = st.delivered;
                return Err(e);
            }
            Ok(Ok(c)) => c,
        };
        let (events, end) = match chunk {
            Some(bytes) => (
                parser.push(&bytes).map_err(|e| {
                    let mut e = AttemptError::new(FailureKind::Protocol, e.to_string());
                    e.delivered = st.delivered;
                    e
                })?,
                false,
            ),
            None => (parser.finish().into_iter().collect(), true),
        };
        for ev in events {
            if st.event(&ev.data, &mut sink, secrets)? {
                return st.finish();
            }
        }
        if end {
            return st.finish();
        }
    }
}

/// What a stream has said so far.
#[derive(Default)]
struct StreamState {
    c: Completion,
    seen_data: bool,
    delivered: bool,
    done: bool,
}

impl StreamState {
    /// Handle one event's data; `Ok(true)` at `[DONE]`.
    fn event(
        &mut self,
        data: &str,
        sink: &mut Option<Sink<'_>>,
        secrets: &[String],
    ) -> Result<bool, AttemptError> {
        self.seen_data = true;
        let data = data.trim();
        if data == "[DONE]" {
            self.done = true;
            return Ok(true);
        }
        if data.is_empty() {
            return Ok(false);
        }
        let v: Value = serde_json::from_str(data).map_err(|_| {
            let mut e = AttemptError::new(FailureKind::Protocol, "a stream event is not JSON");
            e.delivered = self.delivered;
            e
        })?;
        if let Some(err) = v.get("error").filter(|e| !e.is_null()) {
            // A failure reported inside a 200 stream (OpenAI, vLLM and others do this).
            let (code, message) = error_fields(err);
            let kind = match code.as_deref() {
                Some("insufficient_quota") => FailureKind::Quota,
                Some("invalid_request_error") | Some("invalid_api_key") => FailureKind::Request,
                Some("content_filter") => FailureKind::Filtered,
                _ => FailureKind::Transient,
            };
            let mut e = AttemptError::new(
                kind,
                describe("stream error", code.as_deref(), message, secrets),
            );
            e.delivered = self.delivered;
            return Err(e);
        }
        if let Some(m) = v
            .get("model")
            .and_then(Value::as_str)
            .filter(|m| !m.is_empty())
        {
            self.c.model = Some(m.to_string());
        }
        if let Some(u) = v.get("usage").and_then(parse_usage) {
            self.c.usage = Some(u);
        }
        // Azure sends chunks with empty `choices` (prompt_filter_results first, the usage chunk
        // last); they carry no text and are fine.
        for choice in v
            .get("choices")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            if let Some(t) = choice
                .pointer("/delta/content")
                .or_else(|| choice.pointer("/message/content"))
                .and_then(Value::as_str)
                .filter(|t| !t.is_empty())
            {
                if self.c.text.len() + t.len() > MAX_ANSWER {
                    let mut e = AttemptError::new(
                        FailureKind::Protocol,
                        format!("the answer is larger than {MAX_ANSWER} bytes"),
                    );
                    e.delivered = self.delivered;
                    return Err(e);
                }
                self.c.text.push_str(t);
                if let Some(s) = sink.as_mut() {
                    s(t);
                    self.delivered = true;
                }
            }
            if let Some(f) = choice.get("finish_reason").and_then(Value::as_str) {
                if f == "content_filter" {
                    let mut e = AttemptError::new(
                        FailureKind::Filtered,
                        "the provider's content filter stopped the answer",
                    );
                    e.delivered = self.delivered;
                    return Err(e);
                }
                self.c.finish_reason = Some(f.to_string());
            }
        }
        Ok(false)
    }

    fn finish(self) -> Result<Completion, AttemptError> {
        // Without `[DONE]` a stream counts as complete only if it said why it finished.
        if self.done || self.c.finish_reason.is_some() {
            Ok(self.c)
        } else {
            let mut e = AttemptError::new(
                FailureKind::Transient,
                "the stream ended before the answer was complete",
            );
            e.delivered = self.delivered;
            Err(e)
        }
    }
}

/// A non-streamed chat completion.
fn parse_whole(body: &[u8], secrets: &[String]) -> Result<Completion, AttemptError> {
    let v: Value = serde_json::from_slice(body)
        .map_err(|_| AttemptError::new(FailureKind::Protocol, "the answer is not JSON"))?;
    if let Some(err) = v.get("error").filter(|e| !e.is_null()) {
        let (code, message) = error_fields(err);
        let kind = if code.as_deref() == Some("insufficient_quota") {
            FailureKind::Quota
        } else {
            FailureKind::Transient
        };
        return Err(AttemptError::new(
            kind,
            describe("error", code.as_deref(), message, secrets),
        ));
    }
    let choice = v
        .get("choices")
        .and_then(Value::as_array)
        .and_then(|c| c.first())
        .ok_or_else(|| AttemptError::new(FailureKind::Protocol, "the answer has no choices"))?;
    let finish = choice
        .get("finish_reason")
        .and_then(Value::as_str)
        .map(str::to_string);
    if finish.as_deref() == Some("content_filter") {
        return Err(AttemptError::new(
            FailureKind::Filtered,
            "the provider's content filter stopped the answer",
        ));
    }
    Ok(Completion {
        text: choice
            .pointer("/message/content")
            .and_then(Value::as_str)
            .unwrap_or_default()
            .to_string(),
        usage: v.get("usage").and_then(parse_usage),
        model: v.get("model").and_then(Value::as_str).map(str::to_string),
        finish_reason: finish,
    })
}

fn parse_usage(u: &Value) -> Option<Usage> {
    let p = u.get("prompt_tokens").and_then(Value::as_u64);
    let c = u.get("completion_tokens").and_then(Value::as_u64);
    if p.is_none() && c.is_none() {
        return None;
    }
    Some(Usage {
        prompt_tokens: p.unwrap_or(0),
        completion_tokens: c.unwrap_or(0),
    })
}

/// `code` (or `type`) and `message` of an OpenAI-style error object.
fn error_fields(err: &Value) -> (Option<String>, Option<&str>) {
    let s = |k: &str| err.get(k).and_then(Value::as_str).filter(|s| !s.is_empty());
    let code = s("code").or_else(|| s("type")).map(str::to_string);
    // Some servers send `{"error": "text"}`.
    let message = s("message").or_else(|| err.as_str());
    (code, message)
}

/// What a non-2xx answer means.
pub fn classify_status(
    status: u16,
    headers: &reqwest::header::HeaderMap,
    body: &[u8],
    secrets: &[String],
) -> AttemptError {
    let v: Option<Value> = serde_json::from_slice(body).ok();
    let err = v.as_ref().and_then(|v| v.get("error"));
    let (code, message) = err.map(error_fields).unwrap_or((None, None));
    let quota = code.as_deref() == Some("insufficient_quota")
        || err
            .and_then(|e| e.get("type"))
            .and_then(Value::as_str)
            .is_some_and(|t| t == "insufficient_quota");
    let kind = match status {
        401 | 403 => FailureKind::Auth,
        429 if quota => FailureKind::Quota,
        408 | 429 | 500..=599 => FailureKind::Transient,
        400 if code.as_deref() == Some("content_filter") => FailureKind::Filtered,
        _ => FailureKind::Request,
    };
    // An auth error may echo (part of) the key ("Incorrect API key provided: sk-…"): keep only
    // the status and code.
    let message = if kind == FailureKind::Auth {
        None
    } else {
        message
    };
    AttemptError {
        kind,
        status: Some(status),
        retry_after: retry_after(headers, SystemTime::now()),
        delivered: false,
        summary: describe(&format!("HTTP {status}"), code.as_deref(), message, secrets),
    }
}

fn describe(head: &str, code: Option<&str>, message: Option<&str>, secrets: &[String]) -> String {
    let mut s = head.to_string();
    if let Some(c) = code {
        s.push_str(&format!(" ({})", crate::sanitize::one_line(c, 60)));
    }
    if let Some(m) = message {
        let m = scrub(m, secrets);
        s.push_str(": ");
        s.push_str(&crate::sanitize::one_line(&m, MAX_MESSAGE));
    }
    scrub(&s, secrets)
}

/// Replace every credential in `text` by `***`.
pub fn scrub(text: &str, secrets: &[String]) -> String {
    let mut out = text.to_string();
    for s in secrets.iter().filter(|s| s.len() >= 4) {
        out = out.replace(s.as_str(), "***");
    }
    out
}

/// How long the server asked us to wait: `retry-after-ms` (Azure, OpenAI), else `Retry-After`
/// as delay-seconds or an HTTP date.
pub fn retry_after(headers: &reqwest::header::HeaderMap, now: SystemTime) -> Option<Duration> {
    let get = |k: &str| headers.get(k).and_then(|v| v.to_str().ok()).map(str::trim);
    if let Some(ms) = get("retry-after-ms").and_then(|v| v.parse::<f64>().ok())
        && ms.is_finite()
        && ms >= 0.0
    {
        return Some(Duration::from_secs_f64((ms / 1000.0).min(1e6)));
    }
    parse_retry_after(get("retry-after")?, now)
}

/// `Retry-After`: delay-seconds or an HTTP date (a date in the past means "now").
pub fn parse_retry_after(value: &str, now: SystemTime) -> Option<Duration> {
    let value = value.trim();
    if let Ok(secs) = value.parse::<f64>() {
        return (secs.is_finite() && secs >= 0.0).then(|| Duration::from_secs_f64(secs.min(1e6)));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

pub fn transport_error(what: &str, e: &reqwest::Error) -> AttemptError {
    // reqwest's message names the URL, never headers; connection failures are transient.
    let mut msg = format!("{what} failed: ");
    if e.is_connect() {
        msg.push_str("could not connect");
    } else if e.is_timeout() {
        msg.push_str("timed out");
    } else if e.is_body() || e.is_decode() {
        msg.push_str("the answer broke off");
    } else {
        msg.push_str("transport error");
    }
    let mut src: Option<&dyn std::error::Error> = std::error::Error::source(e);
    if let Some(s) = src.take() {
        msg.push_str(&format!(
            " ({})",
            crate::sanitize::one_line(&s.to_string(), 120)
        ));
    }
    AttemptError::new(FailureKind::Transient, msg)
}

fn timeout_error(started: Instant, limit: Instant, deadline: Instant) -> AttemptError {
    let secs = limit.duration_since(started).as_secs_f64();
    let what = if limit < deadline {
        "no first chunk"
    } else {
        "the call did not finish"
    };
    AttemptError::new(
        FailureKind::Transient,
        format!("{what} within {secs:.1}s (timeout)"),
    )
}

async fn read_bounded(
    resp: &mut reqwest::Response,
    deadline: Instant,
) -> Result<Vec<u8>, AttemptError> {
    let mut out = Vec::new();
    loop {
        match tokio::time::timeout_at(deadline, resp.chunk()).await {
            Err(_) => {
                return Err(AttemptError::new(
                    FailureKind::Transient,
                    "the answer did not arrive in time (timeout)",
                ));
            }
            Ok(Err(e)) => return Err(transport_error("answer", &e)),
            Ok(Ok(None)) => return Ok(out),
            Ok(Ok(Some(b))) => {
                if out.len() + b.len() > MAX_BODY {
                    return Err(AttemptError::new(
                        FailureKind::Protocol,
                        format!("the answer is larger than {MAX_BODY} bytes"),
                    ));
                }
                out.extend_from_slice(&b);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::{HeaderMap, HeaderValue};

    #[test]
    fn retry_after_seconds_dates_and_ms() {
        let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
        assert_eq!(parse_retry_after("3", now), Some(Duration::from_secs(3)));
        assert_eq!(parse_retry_after("-1", now), None);
        assert_eq!(parse_retry_after("soon", now), None);
        let later = httpdate::fmt_http_date(now + Duration::from_secs(7));
        assert_eq!(parse_retry_after(&later, now), Some(Duration::from_secs(7)));
        let past = httpdate::fmt_http_date(now - Duration::from_secs(7));
        assert_eq!(parse_retry_after(&past, now), Some(Duration::ZERO));
        let mut h = HeaderMap::new();
        h.insert("retry-after", HeaderValue::from_static("9"));
        h.insert("retry-after-ms", HeaderValue::from_static("1500"));
        assert_eq!(retry_after(&h, now), Some(Duration::from_millis(1500)));
    }

    #[test]
    fn statuses_are_classified() {
        let h = HeaderMap::new();
        let quota = br#"{"error":{"message":"You exceeded your current quota","type":"insufficient_quota","code":"insufficient_quota"}}"#;
        assert_eq!(
            classify_status(429, &h, quota, &[]).kind,
            FailureKind::Quota
        );
        assert_eq!(
            classify_status(429, &h, b"{}", &[]).kind,
            FailureKind::Transient
        );
        assert_eq!(
            classify_status(503, &h, b"", &[]).kind,
            FailureKind::Transient
        );
        assert_eq!(
            classify_status(400, &h, b"", &[]).kind,
            FailureKind::Request
        );
        let auth = br#"{"error":{"message":"Incorrect API key provided: sk-abc123","code":"invalid_api_key"}}"#;
        let e = classify_status(401, &h, auth, &["sk-abc123".into()]);
        assert_eq!(e.kind, FailureKind::Auth);
        assert!(!e.summary.contains("sk-abc"), "{}", e.summary);
    }

    #[test]
    fn scrub_removes_secrets() {
        assert_eq!(scrub("key sk-1234 bad", &["sk-1234".into()]), "key *** bad");
    }

    #[test]
    fn stream_events_azure_quirks_and_error() {
        let mut st = StreamState::default();
        let mut got = String::new();
        let mut f = |t: &str| got.push_str(t);
        let mut sink: Option<Sink<'_>> = Some(&mut f);
        let evs = [
            r#"{"choices":[],"prompt_filter_results":[{"prompt_index":0,"content_filter_results":{}}]}"#,
            r#"{"model":"gpt-4o","choices":[{"index":0,"delta":{"role":"assistant","content":""},"content_filter_results":{}}]}"#,
            r#"{"choices":[{"index":0,"delta":{"content":"Hel"},"content_filter_results":{"hate":{"filtered":false}}}]}"#,
            r#"{"choices":[{"index":0,"delta":{"content":"lo"},"finish_reason":"stop"}]}"#,
            r#"{"choices":[],"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}"#,
        ];
        for e in evs {
            assert!(!st.event(e, &mut sink, &[]).unwrap());
        }
        assert!(st.event("[DONE]", &mut sink, &[]).unwrap());
        let c = st.finish().unwrap();
        assert_eq!(c.text, "Hello");
        assert_eq!(c.model.as_deref(), Some("gpt-4o"));
        assert_eq!(
            c.usage,
            Some(Usage {
                prompt_tokens: 5,
                completion_tokens: 2
            })
        );
        let _ = sink.take();
        assert_eq!(got, "Hello");

        let mut st = StreamState::default();
        let mut none: Option<Sink<'_>> = None;
        let e = st
            .event(
                r#"{"error":{"message":"overloaded","type":"server_error"}}"#,
                &mut none,
                &[],
            )
            .unwrap_err();
        assert_eq!(e.kind, FailureKind::Transient);
        assert!(!e.delivered);
    }
}
