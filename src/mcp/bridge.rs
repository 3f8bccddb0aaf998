//! MCP over stdin/stdout: served by this process's engine, or bridged to a running one.
//!
//! The bridge is a byte-level JSON-RPC relay. Each newline-delimited message read from stdin is
//! POSTed, unchanged, to the running engine's streamable HTTP endpoint with the bearer token;
//! whatever comes back (one JSON body, or an SSE stream of messages) is written to stdout, one
//! message per line. Because the client's own `initialize` (or, in 2026-07-28, its per-request
//! `_meta`) passes through untouched, the engine sees the real `clientInfo`: cursors, the audit
//! trail and Claude Code's channel push stay per client. After a legacy handshake the bridge
//! also holds the session's GET stream open, so server-initiated notifications (the inbox log
//! ping, `resources/updated`, `notifications/claude/channel`) reach the client.
//!
//! Requests run concurrently (a slow tool call or an open `subscriptions/listen` does not hold
//! up the others); notifications and responses are relayed in order. A request whose HTTP
//! exchange ends without an answer gets a JSON-RPC error, so the client never waits forever.

use std::sync::Arc;
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use base64::Engine as _;
use rmcp::ServiceExt;
use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt};
use tokio::sync::mpsc;
use tokio_util::sync::CancellationToken;

use super::{Hub, RuntimeInfo};
use crate::http::auth::{self, Token};
use crate::paths::Paths;

/// Serve MCP on stdin/stdout with this process's engine until the client closes stdin.
pub async fn serve_stdio(hub: Arc<Hub>, stop: CancellationToken) -> Result<()> {
    let running = hub
        .handler()
        .serve_with_ct(rmcp::transport::stdio(), stop.child_token())
        .await?;
    running.waiting().await?;
    Ok(())
}

/// How long to wait for a starting engine to publish its endpoint.
const FIND_ENGINE_FOR: Duration = Duration::from_secs(15);
/// How long in-flight requests may still finish after the client closed stdin.
const DRAIN_FOR: Duration = Duration::from_secs(10);

const HEADER_SESSION: &str = "mcp-session-id";
const HEADER_PROTOCOL: &str = "mcp-protocol-version";
const HEADER_METHOD: &str = "mcp-method";
const HEADER_NAME: &str = "mcp-name";
const HEADER_LAST_EVENT: &str = "last-event-id";
/// The first protocol revision with standard (SEP-2243) headers and no sessions.
const STATELESS_REVISION: &str = "2026-07-28";

/// Another engine holds the data dir: relay stdin/stdout to its HTTP endpoint.
pub async fn run(paths: &Paths) -> Result<()> {
    let info = find_engine(paths).await?;
    // Served as the stdio client: the engine's bridge token, or (an engine from before the
    // bridge token) the default one.
    let bridge_token = auth::read_stdio_bridge_token(paths)?;
    let token = match bridge_token {
        Some(t) => Some(t),
        None => auth::read_existing(paths)?,
    };
    let token = token.with_context(|| {
        format!(
            "the running engine's MCP token was not found ({} or {})",
            auth::TOKEN_ENV,
            auth::token_path(paths).display()
        )
    })?;
    eprintln!(
        "opsdesk: an engine already runs for {} (pid {}); bridging stdio to {}",
        paths.data_dir.display(),
        info.pid,
        info.mcp_url
    );
    let bridge = Bridge::new(&info.mcp_url, token)?;
    bridge.relay(tokio::io::stdin(), tokio::io::stdout()).await
}

/// The engine's published endpoint; a starting engine holds the lock a moment before it
/// writes `engine.json`, so wait a little for it.
async fn find_engine(paths: &Paths) -> Result<RuntimeInfo> {
    let deadline = tokio::time::Instant::now() + FIND_ENGINE_FOR;
    loop {
        if let Some(info) = RuntimeInfo::read_live(paths) {
            return Ok(info);
        }
        if tokio::time::Instant::now() >= deadline {
            bail!(
                "an opsdesk engine runs for {} but publishes no MCP endpoint (engine.json); start it with `opsdesk serve` (HTTP enabled)",
                paths.data_dir.display()
            );
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// What the relay learned from the handshake.
#[derive(Default)]
struct SessionState {
    session_id: Option<String>,
    protocol: Option<String>,
    get_stream_started: bool,
}

#[derive(Clone)]
pub struct Bridge {
    http: reqwest::Client,
    url: String,
    auth: String,
    state: Arc<Mutex<SessionState>>,
}

/// What kind of JSON-RPC message a line holds.
enum Kind {
    Request(Value),
    Notification,
    Other,
}

fn kind(msg: &Value) -> Kind {
    match (msg.get("method"), msg.get("id")) {
        (Some(_), Some(id)) if !id.is_null() => Kind::Request(id.clone()),
        (Some(_), _) => Kind::Notification,
        _ => Kind::Other,
    }
}

impl Bridge {
    pub fn new(url: &str, token: Token) -> Result<Bridge> {
        let http = crate::net::client_builder()
            .no_proxy()
            .connect_timeout(Duration::from_secs(10))
            .build()
            .context("cannot build the HTTP client")?;
        Ok(Bridge {
            http,
            url: url.to_string(),
            auth: format!("Bearer {}", token.secret()),
            state: Arc::new(Mutex::new(SessionState::default())),
        })
    }

    fn state(&self) -> std::sync::MutexGuard<'_, SessionState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Relay until `input` ends, then let in-flight requests finish (bounded) and end the
    /// session.
    pub async fn relay<R, W>(&self, input: R, output: W) -> Result<()>
    where
        R: tokio::io::AsyncRead + Unpin,
        W: tokio::io::AsyncWrite + Unpin + Send + 'static,
    {
        let (tx, rx) = mpsc::unbounded_channel::<String>();
        let writer = tokio::spawn(write_lines(rx, output));
        let stop = CancellationToken::new();
        let mut inflight = tokio::task::JoinSet::new();
        let mut lines = tokio::io::BufReader::new(input).lines();
        while let Some(line) = lines.next_line().await.context("cannot read stdin")? {
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            let msg: Value = match serde_json::from_str(line) {
                Ok(v) => v,
                Err(e) => {
                    let _ = tx.send(
                        json!({"jsonrpc": "2.0", "id": null, "error": {"code": -32700, "message": format!("parse error: {e}")}})
                            .to_string(),
                    );
                    continue;
                }
            };
            // Reap finished requests as we go.
            while inflight.try_join_next().is_some() {}
            let is_initialize = msg.get("method").and_then(Value::as_str) == Some("initialize");
            let is_initialized =
                msg.get("method").and_then(Value::as_str) == Some("notifications/initialized");
            match kind(&msg) {
                // The handshake fixes the session: nothing else goes out before its answer.
                Kind::Request(id) if is_initialize => self.exchange(msg, Some(id), &tx).await,
                Kind::Request(id) => {
                    let this = self.clone();
                    let tx = tx.clone();
                    inflight.spawn(async move { this.exchange(msg, Some(id), &tx).await });
                }
                // Notifications and responses (to server requests) go out in order.
                Kind::Notification | Kind::Other => {
                    self.exchange(msg, None, &tx).await;
                    if is_initialized {
                        self.start_get_stream(&tx, &stop);
                    }
                }
            }
        }
        // The client hung up: give answers on their way a moment, then end the session.
        let _ = tokio::time::timeout(DRAIN_FOR, async {
            while inflight.join_next().await.is_some() {}
        })
        .await;
        inflight.abort_all();
        stop.cancel();
        self.end_session().await;
        drop(tx);
        let _ = writer.await;
        Ok(())
    }

    fn post(&self, msg: &Value) -> reqwest::RequestBuilder {
        let (session, protocol) = {
            let s = self.state();
            (s.session_id.clone(), s.protocol.clone())
        };
        // A stateless (2026-07-28) client names its revision in each request's _meta.
        let protocol = protocol.or_else(|| {
            msg.pointer("/params/_meta/io.modelcontextprotocol~1protocolVersion")
                .and_then(Value::as_str)
                .map(str::to_string)
        });
        let mut req = self
            .http
            .post(&self.url)
            .header(reqwest::header::AUTHORIZATION, &self.auth)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header(
                reqwest::header::ACCEPT,
                "application/json, text/event-stream",
            );
        if let Some(s) = session {
            req = req.header(HEADER_SESSION, s);
        }
        if let Some(p) = &protocol {
            req = req.header(HEADER_PROTOCOL, p.as_str());
            if p.as_str() >= STATELESS_REVISION {
                for (name, value) in standard_headers(msg) {
                    req = req.header(name, value);
                }
            }
        }
        req.body(msg.to_string())
    }

    /// POST one message and relay what comes back. For a request (`id`), make sure the client
    /// gets an answer even when the exchange fails.
    async fn exchange(&self, msg: Value, id: Option<Value>, tx: &mpsc::UnboundedSender<String>) {
        let is_initialize = msg.get("method").and_then(Value::as_str) == Some("initialize");
        let resp = match self.post(&msg).send().await {
            Ok(r) => r,
            Err(e) => {
                if let Some(id) = id {
                    let _ = tx.send(error(
                        &id,
                        -32603,
                        &format!("cannot reach the opsdesk engine at {}: {e}", self.url),
                    ));
                }
                return;
            }
        };
        let status = resp.status();
        if is_initialize
            && status.is_success()
            && let Some(s) = resp
                .headers()
                .get(HEADER_SESSION)
                .and_then(|v| v.to_str().ok())
        {
            self.state().session_id = Some(s.to_string());
        }
        let answered = self.relay_body(resp, id.as_ref(), tx, is_initialize).await;
        if let Some(id) = id
            && !answered
        {
            let _ = tx.send(error(
                &id,
                -32603,
                &format!("the opsdesk engine answered HTTP {status} without a JSON-RPC response"),
            ));
        }
    }

    /// Relay a POST's response body; returns whether the answer to `id` was among it.
    async fn relay_body(
        &self,
        mut resp: reqwest::Response,
        id: Option<&Value>,
        tx: &mpsc::UnboundedSender<String>,
        is_initialize: bool,
    ) -> bool {
        let status = resp.status();
        let sse = resp
            .headers()
            .get(reqwest::header::CONTENT_TYPE)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|c| c.starts_with("text/event-stream"));
        let mut answered = false;
        if sse {
            let mut parser = SseParser::default();
            while let Ok(Some(chunk)) = resp.chunk().await {
                for ev in parser.feed(&chunk) {
                    if let Ok(v) = serde_json::from_str::<Value>(&ev.data) {
                        answered |= self.forward(v, id, tx, is_initialize);
                    }
                }
            }
            return answered;
        }
        let Ok(body) = resp.bytes().await else {
            return false;
        };
        if body.is_empty() {
            return false;
        }
        match serde_json::from_slice::<Value>(&body) {
            Ok(Value::Array(items)) => {
                for v in items {
                    answered |= self.forward(v, id, tx, is_initialize);
                }
            }
            Ok(v) if v.get("jsonrpc").is_some() => {
                answered |= self.forward(v, id, tx, is_initialize);
            }
            _ => {
                if let Some(id) = id {
                    let text = String::from_utf8_lossy(&body);
                    let text = crate::sanitize::one_line(&text, 300);
                    let _ = tx.send(error(
                        id,
                        -32603,
                        &format!("the opsdesk engine answered HTTP {status}: {text}"),
                    ));
                    answered = true;
                }
            }
        }
        answered
    }

    /// Write one message from the engine to the client; returns whether it answers `id`.
    fn forward(
        &self,
        mut m: Value,
        id: Option<&Value>,
        tx: &mpsc::UnboundedSender<String>,
        is_initialize: bool,
    ) -> bool {
        let answers = id.is_some_and(|id| {
            m.get("method").is_none()
                && (m.get("id") == Some(id) || m.get("id") == Some(&Value::Null))
        });
        if answers {
            if let Some(id) = id
                && m.get("id") == Some(&Value::Null)
            {
                // The engine's HTTP guard answers with id null (it refused before reading
                // the message): give the client its own id back.
                m["id"] = id.clone();
            }
            if is_initialize
                && let Some(v) = m.pointer("/result/protocolVersion").and_then(Value::as_str)
            {
                self.state().protocol = Some(v.to_string());
            }
        }
        let _ = tx.send(m.to_string());
        answers
    }

    /// Hold the legacy session's GET stream open for server-initiated messages, reconnecting
    /// while the bridge runs.
    fn start_get_stream(&self, tx: &mpsc::UnboundedSender<String>, stop: &CancellationToken) {
        {
            let mut s = self.state();
            if s.get_stream_started || s.session_id.is_none() {
                return;
            }
            s.get_stream_started = true;
        }
        let this = self.clone();
        let tx = tx.clone();
        let stop = stop.clone();
        tokio::spawn(async move {
            tokio::select! {
                _ = stop.cancelled() => {}
                _ = this.get_stream(tx) => {}
            }
        });
    }

    async fn get_stream(&self, tx: mpsc::UnboundedSender<String>) {
        let mut last_event: Option<String> = None;
        let mut backoff = Duration::from_millis(200);
        loop {
            let (session, protocol) = {
                let s = self.state();
                (s.session_id.clone(), s.protocol.clone())
            };
            let Some(session) = session else { return };
            let mut req = self
                .http
                .get(&self.url)
                .header(reqwest::header::AUTHORIZATION, &self.auth)
                .header(reqwest::header::ACCEPT, "text/event-stream")
                .header(HEADER_SESSION, session);
            if let Some(p) = protocol {
                req = req.header(HEADER_PROTOCOL, p);
            }
            if let Some(id) = &last_event {
                req = req.header(HEADER_LAST_EVENT, id.as_str());
            }
            match req.send().await {
                Ok(mut resp) if resp.status().is_success() => {
                    backoff = Duration::from_millis(200);
                    let mut parser = SseParser::default();
                    while let Ok(Some(chunk)) = resp.chunk().await {
                        for ev in parser.feed(&chunk) {
                            if let Some(id) = ev.id {
                                last_event = Some(id);
                            }
                            if let Ok(v) = serde_json::from_str::<Value>(&ev.data) {
                                let _ = tx.send(v.to_string());
                            }
                        }
                    }
                }
                // No GET stream for this session (ended, or not offered): nothing to hold.
                Ok(resp)
                    if matches!(resp.status().as_u16(), 404 | 405)
                        || resp.status().is_client_error() =>
                {
                    tracing::debug!("MCP bridge: GET stream refused: {}", resp.status());
                    return;
                }
                Ok(resp) => tracing::debug!("MCP bridge: GET stream: {}", resp.status()),
                Err(e) => tracing::debug!("MCP bridge: GET stream: {e}"),
            }
            tokio::time::sleep(backoff).await;
            backoff = (backoff * 2).min(Duration::from_secs(5));
        }
    }

    /// DELETE the legacy session (best effort).
    async fn end_session(&self) {
        let (session, protocol) = {
            let s = self.state();
            (s.session_id.clone(), s.protocol.clone())
        };
        let Some(session) = session else { return };
        let mut req = self
            .http
            .delete(&self.url)
            .header(reqwest::header::AUTHORIZATION, &self.auth)
            .header(HEADER_SESSION, session)
            .timeout(Duration::from_secs(2));
        if let Some(p) = protocol {
            req = req.header(HEADER_PROTOCOL, p);
        }
        let _ = req.send().await;
    }
}

async fn write_lines<W: tokio::io::AsyncWrite + Unpin>(
    mut rx: mpsc::UnboundedReceiver<String>,
    mut out: W,
) {
    while let Some(line) = rx.recv().await {
        if out.write_all(line.as_bytes()).await.is_err()
            || out.write_all(b"\n").await.is_err()
            || out.flush().await.is_err()
        {
            // The client is gone; nothing more to deliver.
            return;
        }
    }
}

fn error(id: &Value, code: i64, message: &str) -> String {
    json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}).to_string()
}

/// The 2026-07-28 standard headers (SEP-2243): `Mcp-Method` and, for the methods that name
/// something, `Mcp-Name` (Base64-wrapped when it is not a plain header value).
fn standard_headers(msg: &Value) -> Vec<(&'static str, String)> {
    let Some(method) = msg.get("method").and_then(Value::as_str) else {
        return Vec::new();
    };
    let mut out = vec![(HEADER_METHOD, method.to_string())];
    let key = match method {
        "tools/call" | "prompts/get" => Some("name"),
        "resources/read" | "resources/subscribe" | "resources/unsubscribe" => Some("uri"),
        "tasks/get" | "tasks/update" | "tasks/cancel" => Some("taskId"),
        _ => None,
    };
    if let Some(name) = key
        .and_then(|k| msg.get("params")?.get(k))
        .and_then(Value::as_str)
    {
        out.push((HEADER_NAME, header_value(name)));
    }
    out
}

fn header_value(v: &str) -> String {
    let needs_wrap = v.starts_with([' ', '\t'])
        || v.ends_with([' ', '\t'])
        || !v.chars().all(|c| (' '..='~').contains(&c))
        || (v.starts_with("=?base64?") && v.ends_with("?="));
    let plain = !needs_wrap;
    if plain {
        v.to_string()
    } else {
        format!(
            "=?base64?{}?=",
            base64::engine::general_purpose::STANDARD.encode(v)
        )
    }
}

/// One server-sent event.
#[derive(Debug, Default, PartialEq)]
struct SseEvent {
    id: Option<String>,
    data: String,
}

/// An incremental `text/event-stream` parser (data and id fields; comments ignored).
#[derive(Default)]
struct SseParser {
    buf: Vec<u8>,
    data: Vec<String>,
    id: Option<String>,
}

impl SseParser {
    fn feed(&mut self, chunk: &[u8]) -> Vec<SseEvent> {
        self.buf.extend_from_slice(chunk);
        let mut events = Vec::new();
        while let Some(nl) = self.buf.iter().position(|b| *b == b'\n') {
            let mut line: Vec<u8> = self.buf.drain(..=nl).collect();
            line.pop();
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            let line = String::from_utf8_lossy(&line).into_owned();
            if line.is_empty() {
                // Per the SSE spec an event whose data buffer is empty is not dispatched (e.g. a
                // server's priming event carrying only an id): there is nothing to relay.
                let data = self.data.join("\n");
                if !data.is_empty() {
                    events.push(SseEvent {
                        id: self.id.take(),
                        data,
                    });
                }
                self.data.clear();
                self.id = None;
                continue;
            }
            let (field, value) = match line.split_once(':') {
                Some((f, v)) => (f.to_string(), v.strip_prefix(' ').unwrap_or(v).to_string()),
                None => (line.clone(), String::new()),
            };
            match field.as_str() {
                "data" => self.data.push(value),
                "id" => self.id = Some(value),
                _ => {} // comments (""), event, retry
            }
        }
        events
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sse_parser_handles_split_chunks_comments_and_crlf() {
        let mut p = SseParser::default();
        assert!(p.feed(b": keep-alive\n\nid: 7\r\nda").is_empty());
        let evs = p.feed(b"ta: {\"a\":1}\r\n\r\ndata:\n\ndata: x\ndata: y\n\n");
        assert_eq!(
            evs,
            vec![
                SseEvent {
                    id: Some("7".into()),
                    data: "{\"a\":1}".into()
                },
                SseEvent {
                    id: None,
                    data: "x\ny".into()
                }
            ]
        );
    }

    #[test]
    fn standard_headers_name_the_target() {
        let m = json!({"method": "tools/call", "params": {"name": "inbox_pull"}});
        assert_eq!(
            standard_headers(&m),
            vec![
                (HEADER_METHOD, "tools/call".to_string()),
                (HEADER_NAME, "inbox_pull".to_string())
            ]
        );
        let m = json!({"method": "resources/read", "params": {"uri": "opsdesk://inbox ü"}});
        assert_eq!(
            standard_headers(&m)[1].1,
            format!(
                "=?base64?{}?=",
                base64::engine::general_purpose::STANDARD.encode("opsdesk://inbox ü")
            )
        );
        let m = json!({"method": "tools/list"});
        assert_eq!(standard_headers(&m).len(), 1);
    }

    #[test]
    fn message_kinds() {
        assert!(matches!(
            kind(&json!({"method": "ping", "id": 1})),
            Kind::Request(_)
        ));
        assert!(matches!(
            kind(&json!({"method": "notifications/initialized"})),
            Kind::Notification
        ));
        assert!(matches!(kind(&json!({"id": 1, "result": {}})), Kind::Other));
    }
}
