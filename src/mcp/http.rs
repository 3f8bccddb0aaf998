//! The HTTP side: axum routes (`/mcp`, `/health`) and the guard every `/mcp` request passes:
//! Origin, body size, per-client rate limit, bearer token, time limit. Refusals are JSON-RPC
//! error objects (id null) with the HTTP status that fits, and `data` saying what to do.

use std::collections::HashMap;
use std::net::SocketAddr;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use axum::Router;
use axum::extract::{ConnectInfo, Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::auth::Token;
use super::server::{Hub, OpsDesk};

/// JSON-RPC error codes of the HTTP guard (implementation-defined range).
pub const CODE_UNAUTHORIZED: i32 = -32001;
pub const CODE_FORBIDDEN: i32 = -32003;
pub const CODE_RATE_LIMITED: i32 = -32005;
pub const CODE_TOO_LARGE: i32 = -32006;
pub const CODE_TIMEOUT: i32 = -32007;

#[derive(Debug, Clone)]
pub struct HttpOptions {
    pub bind: SocketAddr,
    pub allow_non_loopback: bool,
    /// Extra allowed origins (`scheme://host[:port]`, `:*` for any port), besides loopback.
    pub allowed_origins: Vec<String>,
    pub max_body_bytes: usize,
    pub rate_per_sec: u32,
    pub rate_burst: u32,
    pub request_timeout: Duration,
    /// `None` only in the conformance fixture mode (the suite cannot send a token), which is
    /// refused anywhere but loopback.
    pub token: Option<Token>,
}

impl HttpOptions {
    pub fn from_config(c: &crate::config::ServerConfig, token: Option<Token>) -> HttpOptions {
        HttpOptions {
            bind: c.bind,
            allow_non_loopback: c.allow_non_loopback,
            allowed_origins: c.allowed_origins.clone(),
            max_body_bytes: c.max_body_bytes,
            rate_per_sec: c.rate_limit_per_sec,
            rate_burst: c.rate_limit_burst,
            request_timeout: Duration::from_secs(c.request_timeout_secs.max(1)),
            token,
        }
    }
}

/// Bind the listener, enforcing the loopback rule.
pub async fn bind(opts: &HttpOptions) -> Result<tokio::net::TcpListener> {
    if !opts.bind.ip().is_loopback() {
        if !opts.allow_non_loopback {
            bail!(
                "refusing to serve MCP on non-loopback address {}: pass --allow-non-loopback (or set server.allow_non_loopback = true) to expose it; the bearer token is still required",
                opts.bind
            );
        }
        if opts.token.is_none() {
            bail!(
                "refusing to serve MCP without a token on non-loopback address {}",
                opts.bind
            );
        }
    }
    tokio::net::TcpListener::bind(opts.bind)
        .await
        .with_context(|| {
            format!(
                "cannot listen on {} (in use? pick another with --bind)",
                opts.bind
            )
        })
}

const LOOPBACK_ORIGINS: [&str; 6] = [
    "http://localhost:*",
    "http://127.0.0.1:*",
    "http://[::1]:*",
    "https://localhost:*",
    "https://127.0.0.1:*",
    "https://[::1]:*",
];

/// The app: `/mcp` behind the guard, `/health` open and empty.
pub fn router(hub: Arc<Hub>, opts: &HttpOptions, ct: CancellationToken) -> Router {
    let origins: Vec<String> = LOOPBACK_ORIGINS
        .iter()
        .map(|s| s.to_string())
        .chain(
            opts.allowed_origins
                .iter()
                .map(|o| o.trim_end_matches('/').to_string()),
        )
        .collect();
    let mut hosts: Vec<String> = vec!["localhost".into(), "127.0.0.1".into(), "::1".into()];
    if !opts.bind.ip().is_loopback() {
        hosts.push(opts.bind.ip().to_string());
        hosts.extend(opts.allowed_origins.iter().filter_map(|o| origin_host(o)));
    }
    let config = StreamableHttpServerConfig::default()
        .with_allowed_hosts(hosts)
        // Our guard checks Origin first; rmcp's own check (off by default) is enabled too.
        .with_allowed_origins(origins.clone())
        .with_max_request_body_bytes(opts.max_body_bytes)
        .with_cancellation_token(ct.child_token());
    let factory_hub = hub.clone();
    let service: StreamableHttpService<OpsDesk, LocalSessionManager> = StreamableHttpService::new(
        move || Ok(factory_hub.handler()),
        LocalSessionManager::default().into(),
        config,
    );
    let guard = Arc::new(Guard {
        token: opts.token.clone(),
        origins,
        max_body: opts.max_body_bytes,
        limiter: RateLimiter::new(opts.rate_per_sec, opts.rate_burst),
        timeout: opts.request_timeout,
    });
    Router::new()
        .nest_service("/mcp", service)
        .layer(middleware::from_fn_with_state(guard, guard_mcp))
        .route("/health", axum::routing::get(|| async { StatusCode::OK }))
}

/// Serve until `ct` is cancelled. Cancelling also ends open SSE streams (the service's token is
/// a child of `ct`), so shutdown does not wait for clients to hang up.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: Router,
    ct: CancellationToken,
) -> std::io::Result<()> {
    use axum::serve::ListenerExt;
    // Responses go out in several small writes (headers, then SSE events): without TCP_NODELAY
    // Nagle holds the later ones until the client's delayed ACK, about 40 ms per call.
    let listener = listener.tap_io(|tcp| {
        let _ = tcp.set_nodelay(true);
    });
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<SocketAddr>(),
    )
    .with_graceful_shutdown(async move { ct.cancelled_owned().await })
    .await
}

struct Guard {
    token: Option<Token>,
    origins: Vec<String>,
    max_body: usize,
    limiter: RateLimiter,
    timeout: Duration,
}

async fn guard_mcp(State(g): State<Arc<Guard>>, req: Request, next: Next) -> Response {
    // 1. Origin: a browser page from elsewhere must not reach the server (DNS rebinding, CSRF).
    if let Some(origin) = req.headers().get(header::ORIGIN) {
        let ok = origin
            .to_str()
            .map(|o| origin_allowed(&g.origins, o))
            .unwrap_or(false);
        if !ok {
            let shown = String::from_utf8_lossy(origin.as_bytes())
                .chars()
                .take(200)
                .collect::<String>();
            return rpc_error(
                StatusCode::FORBIDDEN,
                CODE_FORBIDDEN,
                "Forbidden: Origin not allowed",
                json!({"origin": shown, "hint": "only loopback origins and server.allowed_origins may call this server"}),
                HeaderMap::new(),
            );
        }
    }
    // 2. Size, when the client declares it (rmcp enforces the same limit while streaming).
    if let Some(len) = req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
        && len > g.max_body as u64
    {
        return rpc_error(
            StatusCode::PAYLOAD_TOO_LARGE,
            CODE_TOO_LARGE,
            "request body too large",
            json!({"max_body_bytes": g.max_body, "hint": "send smaller requests (server.max_body_bytes)"}),
            HeaderMap::new(),
        );
    }
    // 3. Bearer token.
    if let Some(token) = &g.token {
        let presented = req.headers().get(header::AUTHORIZATION);
        if !presented.is_some_and(|v| token.matches_header(v.as_bytes())) {
            let mut h = HeaderMap::new();
            let challenge = if presented.is_some() {
                r#"Bearer realm="opsdesk", error="invalid_token""#
            } else {
                r#"Bearer realm="opsdesk""#
            };
            h.insert(
                header::WWW_AUTHENTICATE,
                HeaderValue::from_static(challenge),
            );
            return rpc_error(
                StatusCode::UNAUTHORIZED,
                CODE_UNAUTHORIZED,
                if presented.is_some() {
                    "Unauthorized: wrong bearer token"
                } else {
                    "Unauthorized: bearer token required"
                },
                json!({"hint": "send `Authorization: Bearer <token>`; `opsdesk mcp-config <client>` prints a working configuration"}),
                h,
            );
        }
    }
    // 4. The message itself (POST): read it within the size limit, check it is one JSON-RPC
    //    message, and learn the client's name for the rate limit.
    let (req, client_name) = if req.method() == Method::POST {
        let (parts, body) = req.into_parts();
        let bytes = match axum::body::to_bytes(body, g.max_body).await {
            Ok(b) => b,
            Err(_) => {
                return rpc_error(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    CODE_TOO_LARGE,
                    "request body too large (or unreadable)",
                    json!({"max_body_bytes": g.max_body, "hint": "send smaller requests (server.max_body_bytes)"}),
                    HeaderMap::new(),
                );
            }
        };
        let name = match check_message(&bytes) {
            Ok(name) => name,
            Err(resp) => return resp,
        };
        (
            Request::from_parts(parts, axum::body::Body::from(bytes)),
            name,
        )
    } else {
        (req, None)
    };
    // 5. Rate, per client: its MCP session, else the clientInfo name it sends, else its
    //    connection.
    let key = client_key(&req, client_name.as_deref());
    if let Err(retry_after) = g.limiter.check(&key) {
        let secs = retry_after.as_secs_f64().ceil().max(1.0) as u64;
        let mut h = HeaderMap::new();
        h.insert(header::RETRY_AFTER, HeaderValue::from(secs));
        return rpc_error(
            StatusCode::TOO_MANY_REQUESTS,
            CODE_RATE_LIMITED,
            "Rate limit exceeded. Please slow down requests.",
            json!({"retry_after_secs": secs, "hint": "wait Retry-After seconds; limits are server.rate_limit_per_sec / rate_limit_burst"}),
            h,
        );
    }
    // 6. Time. Only requests answered in one piece are bounded here: GET streams and
    //    subscriptions stay open by design, and tool calls have their own limit in the handler.
    if req.method() == Method::POST {
        match tokio::time::timeout(g.timeout, next.run(req)).await {
            Ok(r) => r,
            Err(_) => rpc_error(
                StatusCode::REQUEST_TIMEOUT,
                CODE_TIMEOUT,
                "request timed out",
                json!({"timeout_secs": g.timeout.as_secs(), "hint": "retry; the server bounds each request in time (server.request_timeout_secs)"}),
                HeaderMap::new(),
            ),
        }
    } else {
        next.run(req).await
    }
}

fn client_key(req: &Request, client_name: Option<&str>) -> String {
    if let Some(s) = req
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
    {
        return format!("s:{s}");
    }
    if let Some(n) = client_name {
        return format!("n:{n}");
    }
    match req.extensions().get::<ConnectInfo<SocketAddr>>() {
        Some(ConnectInfo(addr)) => format!("c:{addr}"),
        None => "c:unknown".to_string(),
    }
}

/// Just enough of a JSON-RPC message to check its shape and find the client's name, borrowed
/// from the body (the full parse is rmcp's).
#[derive(serde::Deserialize)]
struct Shape<'a> {
    #[serde(borrow, default)]
    jsonrpc: Option<std::borrow::Cow<'a, str>>,
    #[serde(borrow, default)]
    method: Option<std::borrow::Cow<'a, str>>,
    #[serde(default)]
    result: Option<serde::de::IgnoredAny>,
    #[serde(default)]
    error: Option<serde::de::IgnoredAny>,
    #[serde(borrow, default)]
    params: Option<ShapeParams<'a>>,
}

#[derive(serde::Deserialize)]
struct ShapeParams<'a> {
    #[serde(borrow, default, rename = "clientInfo")]
    client_info: Option<ShapeInfo<'a>>,
    #[serde(borrow, default, rename = "_meta")]
    meta: Option<ShapeMeta<'a>>,
}

#[derive(serde::Deserialize)]
struct ShapeMeta<'a> {
    #[serde(borrow, default, rename = "io.modelcontextprotocol/clientInfo")]
    client_info: Option<ShapeInfo<'a>>,
}

#[derive(serde::Deserialize)]
struct ShapeInfo<'a> {
    #[serde(borrow, default)]
    name: Option<std::borrow::Cow<'a, str>>,
}

/// A parse error (-32700) or an invalid request (-32600), each with HTTP 400, before rmcp sees
/// the body; otherwise the client name the message carries (initialize or 2026-07-28 `_meta`).
#[allow(clippy::result_large_err)] // the error is the finished response
fn check_message(body: &[u8]) -> Result<Option<String>, Response> {
    let shape: Shape = match serde_json::from_slice(body) {
        Ok(s) => s,
        Err(e) if e.is_syntax() || e.is_eof() => {
            return Err(rpc_error(
                StatusCode::BAD_REQUEST,
                -32700,
                "Parse error: the body is not valid JSON",
                json!({"error": e.to_string(), "hint": "send one JSON-RPC 2.0 message as a JSON object"}),
                HeaderMap::new(),
            ));
        }
        Err(e) => {
            return Err(rpc_error(
                StatusCode::BAD_REQUEST,
                -32600,
                "Invalid Request: not a JSON-RPC 2.0 message",
                json!({"error": e.to_string(), "hint": "send one JSON object {\"jsonrpc\":\"2.0\",\"id\":…,\"method\":…,\"params\":{…}}; batches are not supported"}),
                HeaderMap::new(),
            ));
        }
    };
    let is_message = shape.method.is_some() || shape.result.is_some() || shape.error.is_some();
    if shape.jsonrpc.as_deref() != Some("2.0") || !is_message {
        return Err(rpc_error(
            StatusCode::BAD_REQUEST,
            -32600,
            "Invalid Request: not a JSON-RPC 2.0 message",
            json!({"hint": "a request needs \"jsonrpc\":\"2.0\" and a \"method\""}),
            HeaderMap::new(),
        ));
    }
    let name = shape
        .params
        .and_then(|p| p.meta.and_then(|m| m.client_info).or(p.client_info))
        .and_then(|i| i.name);
    Ok(name.map(|n| n.chars().take(64).collect()))
}

fn rpc_error(
    status: StatusCode,
    code: i32,
    message: &str,
    data: Value,
    mut headers: HeaderMap,
) -> Response {
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    let body = json!({"jsonrpc": "2.0", "id": null, "error": {"code": code, "message": message, "data": data}});
    (status, headers, body.to_string()).into_response()
}

/// `scheme://host[:port]` matching; a pattern ending in `:*` accepts any port (or none).
pub fn origin_allowed(patterns: &[String], origin: &str) -> bool {
    let origin = origin.trim().to_ascii_lowercase();
    patterns.iter().any(|p| {
        let p = p.to_ascii_lowercase();
        match p.strip_suffix(":*") {
            Some(base) => {
                origin == base
                    || origin
                        .strip_prefix(base)
                        .and_then(|rest| rest.strip_prefix(':'))
                        .is_some_and(|port| {
                            !port.is_empty() && port.bytes().all(|b| b.is_ascii_digit())
                        })
            }
            None => origin == p,
        }
    })
}

fn origin_host(origin: &str) -> Option<String> {
    let rest = origin.split_once("://")?.1;
    let host = if let Some(r) = rest.strip_prefix('[') {
        r.split_once(']')?.0
    } else {
        rest.split(':').next()?
    };
    (!host.is_empty()).then(|| host.to_string())
}

/// Token buckets per client key.
struct RateLimiter {
    per_sec: f64,
    burst: f64,
    buckets: Mutex<HashMap<String, Bucket>>,
}

struct Bucket {
    tokens: f64,
    last: Instant,
}

impl RateLimiter {
    fn new(per_sec: u32, burst: u32) -> Self {
        RateLimiter {
            per_sec: per_sec.max(1) as f64,
            burst: burst.max(1) as f64,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Take one token, or say how long until one is available.
    fn check(&self, key: &str) -> Result<(), Duration> {
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > 4096 {
            // Forget clients idle long enough to have refilled completely.
            let full = Duration::from_secs_f64(self.burst / self.per_sec);
            buckets.retain(|_, b| now.duration_since(b.last) < full);
        }
        let b = buckets.entry(key.to_string()).or_insert(Bucket {
            tokens: self.burst,
            last: now,
        });
        b.tokens =
            (b.tokens + now.duration_since(b.last).as_secs_f64() * self.per_sec).min(self.burst);
        b.last = now;
        if b.tokens >= 1.0 {
            b.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - b.tokens) / self.per_sec))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loopback_origins_with_any_port_are_allowed_and_others_are_not() {
        let p: Vec<String> = LOOPBACK_ORIGINS
            .iter()
            .map(|s| s.to_string())
            .chain(["https://app.example.com".to_string()])
            .collect();
        assert!(origin_allowed(&p, "http://localhost:3000"));
        assert!(origin_allowed(&p, "http://127.0.0.1"));
        assert!(origin_allowed(&p, "http://[::1]:8080"));
        assert!(origin_allowed(&p, "https://app.example.com"));
        assert!(!origin_allowed(&p, "http://evil.example"));
        assert!(!origin_allowed(&p, "http://localhost.evil.example"));
        assert!(!origin_allowed(&p, "http://localhost:80abc"));
        assert!(!origin_allowed(&p, "null"));
    }

    #[test]
    fn bucket_allows_the_burst_then_refuses_with_a_wait() {
        let l = RateLimiter::new(1, 3);
        assert!(l.check("a").is_ok());
        assert!(l.check("a").is_ok());
        assert!(l.check("a").is_ok());
        let wait = l.check("a").unwrap_err();
        assert!(wait > Duration::from_millis(500) && wait <= Duration::from_secs(1));
        // Another client has its own bucket.
        assert!(l.check("b").is_ok());
    }
}
