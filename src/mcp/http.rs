//! The HTTP side: axum routes (`/mcp`, `/health`) and the guard every `/mcp` request passes:
//! Origin, body size, per-client rate limit, bearer token, time limit. Refusals are JSON-RPC
//! error objects (id null) with the HTTP status that fits, and `data` saying what to do.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use anyhow::Result;
use axum::Router;
use axum::extract::{Request, State};
use axum::http::{HeaderMap, HeaderValue, Method, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::streamable_http_server::{StreamableHttpServerConfig, StreamableHttpService};
use serde_json::{Value, json};
use tokio_util::sync::CancellationToken;

use super::server::{Hub, OpsDesk};
use crate::http::auth::{ClientIdentity, Credentials};
use crate::http::conn::{CappedListener, ConnMeta};
use crate::http::origin::{LOOPBACK_ORIGINS, origin_allowed, origin_host};
use crate::http::rate::RateLimiter;
use crate::http::{HttpOptions, peer_ip};

/// JSON-RPC error codes of the HTTP guard (implementation-defined range).
pub const CODE_UNAUTHORIZED: i32 = -32001;
pub const CODE_FORBIDDEN: i32 = -32003;
pub const CODE_RATE_LIMITED: i32 = -32005;
pub const CODE_TOO_LARGE: i32 = -32006;
pub const CODE_TIMEOUT: i32 = -32007;
pub const CODE_TOO_MANY_SESSIONS: i32 = -32010;

/// The app: `/mcp` behind the guard, `/health` open and empty, and `extra` (other surfaces
/// on the same port, e.g. the Copilot webhook, each with its own guard) under the same
/// connection tracking. The surfaces above mount themselves here; MCP names none of them.
pub fn router(
    hub: Arc<Hub>,
    opts: &HttpOptions,
    ct: CancellationToken,
    extra: Option<Router>,
) -> Router {
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
        .with_allowed_hosts(hosts.clone())
        // Our guard checks Origin first; rmcp's own check (off by default) is enabled too.
        .with_allowed_origins(origins.clone())
        .with_max_request_body_bytes(opts.max_body_bytes)
        .with_cancellation_token(ct.child_token());
    let factory_hub = hub.clone();
    let mut sessions = LocalSessionManager::default();
    // Per-session queues are bounded (rmcp's channel capacity). Idle sessions are ended by the
    // sweeper below, not by rmcp's own timer: that timer only sees requests that reach the
    // session worker, and the direct lane answers hot calls without it.
    sessions.session_config.keep_alive = None;
    let sessions = Arc::new(sessions);
    let service: StreamableHttpService<OpsDesk, LocalSessionManager> =
        StreamableHttpService::new(move || Ok(factory_hub.handler()), sessions.clone(), config);
    let guard = Arc::new(Guard {
        hub: hub.clone(),
        hosts: hosts.iter().map(|h| h.to_ascii_lowercase()).collect(),
        credentials: opts.credentials.clone(),
        origins,
        max_body: opts.max_body_bytes,
        limiter: RateLimiter::new(opts.rate_per_sec, opts.rate_burst),
        failures: RateLimiter::new(1, opts.auth_failures_burst),
        timeout: opts.request_timeout,
        sessions: sessions.clone(),
        max_sessions: opts.max_sessions,
        owners: Mutex::new(HashMap::new()),
    });
    if let Ok(rt) = tokio::runtime::Handle::try_current() {
        rt.spawn(keep_sweeping(
            guard.clone(),
            opts.session_idle,
            ct.child_token(),
        ));
    }
    let mut app = Router::new()
        .nest_service("/mcp", service)
        .layer(middleware::from_fn_with_state(guard, guard_mcp))
        .route("/health", axum::routing::get(|| async { StatusCode::OK }));
    if let Some(extra) = extra {
        app = app.merge(extra);
    }
    app.layer(middleware::from_fn(crate::http::conn::track))
}

/// Run the sweeper until `ct` is cancelled, starting it again should it ever panic: it is the
/// only thing that ends idle sessions, and without it they would pile up to `max_sessions`.
async fn keep_sweeping(g: Arc<Guard>, idle: Duration, ct: CancellationToken) {
    while !ct.is_cancelled() {
        match tokio::spawn(sweep_sessions(g.clone(), idle, ct.clone())).await {
            Ok(()) => return,
            Err(e) => {
                tracing::error!("the MCP session sweeper stopped ({e}); starting it again");
                tokio::time::sleep(Duration::from_secs(1)).await;
            }
        }
    }
}

/// Close sessions idle longer than `idle` (and forget ended ones), then give freed memory back
/// to the system. This is the only idle timer: rmcp's own is off (see [`router`]).
async fn sweep_sessions(g: Arc<Guard>, idle: Duration, ct: CancellationToken) {
    use rmcp::transport::streamable_http_server::SessionManager;
    let every = (idle / 4).clamp(Duration::from_secs(1), Duration::from_secs(30));
    let mut tick = tokio::time::interval(every);
    tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    // Sessions rmcp holds that no answer of ours handed out (an `initialize` whose answer timed
    // out): when each was first seen, so that it too ends after `idle`.
    let mut strays: HashMap<String, Instant> = HashMap::new();
    loop {
        tokio::select! {
            _ = ct.cancelled() => return,
            _ = tick.tick() => {}
        }
        let now = Instant::now();
        let live = live_sessions(&g).await;
        let mut stale: Vec<String> = {
            let mut owners = g.lock_owners();
            // Forget sessions that ended by themselves.
            owners.retain(|id, _| live.contains(id));
            strays.retain(|id, _| live.contains(id) && !owners.contains_key(id));
            for id in live.iter().filter(|id| !owners.contains_key(*id)) {
                strays.entry(id.clone()).or_insert(now);
            }
            owners
                .iter()
                .filter(|(_, o)| now.duration_since(o.last_used) >= idle)
                .map(|(id, _)| id.clone())
                .collect()
        };
        stale.extend(
            strays
                .iter()
                .filter(|(_, seen)| now.duration_since(**seen) >= idle)
                .map(|(id, _)| id.clone()),
        );
        for id in &stale {
            let sid: rmcp::transport::streamable_http_server::session::SessionId =
                id.clone().into();
            let _ = g.sessions.close_session(&sid).await;
            g.lock_owners().remove(id);
            strays.remove(id);
        }
        // Read again: a session initialized while this tick closed others keeps its lane.
        g.hub.lanes.retain(&live_sessions(&g).await);
        if !stale.is_empty() {
            tracing::debug!(closed = stale.len(), "idle MCP sessions closed");
            crate::release_memory();
        }
    }
}

/// The ids of the sessions rmcp holds now.
async fn live_sessions(g: &Guard) -> std::collections::HashSet<String> {
    g.sessions
        .sessions
        .read()
        .await
        .keys()
        .map(|k| k.to_string())
        .collect()
}

/// Serve until `ct` is cancelled. Cancelling also ends open SSE streams (the service's token is
/// a child of `ct`), so shutdown does not wait for clients to hang up.
pub async fn serve(
    listener: tokio::net::TcpListener,
    app: Router,
    opts: &HttpOptions,
    ct: CancellationToken,
) -> std::io::Result<()> {
    let max = crate::http::conn::connection_budget(opts.max_connections);
    let listener = CappedListener::new(listener, max, opts.header_read_timeout);
    axum::serve(
        listener,
        app.into_make_service_with_connect_info::<ConnMeta>(),
    )
    .with_graceful_shutdown(async move { ct.cancelled_owned().await })
    .await
}

struct Guard {
    /// For the direct lane (`mcp::direct`).
    hub: Arc<Hub>,
    /// The Host names rmcp accepts (it checks them itself; the lane must too).
    hosts: Vec<String>,
    credentials: Option<Arc<Credentials>>,
    origins: Vec<String>,
    max_body: usize,
    limiter: RateLimiter,
    /// Failed token attempts per peer address.
    failures: RateLimiter,
    timeout: Duration,
    sessions: Arc<LocalSessionManager>,
    max_sessions: usize,
    /// Session id → the credential that opened it (a session is usable only with it).
    owners: Mutex<HashMap<String, SessionOwner>>,
}

struct SessionOwner {
    client: String,
    last_used: Instant,
}

impl Guard {
    fn lock_owners(&self) -> std::sync::MutexGuard<'_, HashMap<String, SessionOwner>> {
        // Single inserts/removes: a poisoned map is still consistent.
        self.owners.lock().unwrap_or_else(|e| e.into_inner())
    }
}

async fn guard_mcp(State(g): State<Arc<Guard>>, req: Request, next: Next) -> Response {
    match guarded(&g, req, next).await {
        Ok(resp) | Err(resp) => resp,
    }
}

/// The checks in order, each refusing with its own answer; then the request itself, bounded in
/// time, and the session bookkeeping its answer calls for.
#[allow(clippy::result_large_err)] // the error is the finished response
async fn guarded(g: &Guard, mut req: Request, next: Next) -> Result<Response, Response> {
    check_authority(g, &req)?;
    check_origin(g, &req)?;
    check_declared_size(g, &req)?;
    let peer = peer_ip(&req);
    let identity = authenticate(g, &req, &peer)?;
    // An authenticated client's connection is never the one closed to make room.
    if let Some(c) = req
        .extensions()
        .get::<axum::extract::ConnectInfo<crate::http::conn::ConnMeta>>()
    {
        c.0.state.mark_authenticated();
    }
    let session = req
        .headers()
        .get("mcp-session-id")
        .and_then(|v| v.to_str().ok())
        .map(str::to_string);
    if let Some(sid) = &session {
        check_session_owner(g, sid, &identity).await?;
    }
    req.extensions_mut().insert(identity.clone());
    let (req, checked) = read_message(g, req).await?;
    let initialize = checked.method.as_deref() == Some("initialize");
    if initialize && session.is_none() {
        check_session_room(g).await?;
    }
    // Rate, per credential and peer address (never per self-chosen name).
    if let Err(wait) = g.limiter.check(&format!("{}@{peer}", identity.name)) {
        return Err(too_many(
            wait,
            "Rate limit exceeded. Please slow down requests.",
            "wait Retry-After seconds; limits are server.rate_limit_per_sec / rate_limit_burst",
        ));
    }
    if let (Some(sid), Some(call)) = (session.as_deref(), checked.call)
        && call.is_direct()
        && req.uri().path() == "/mcp"
        && super::direct::headers_plain(req.headers(), &g.hosts)
        && let Some(lane) = g.hub.lanes.get(sid)
        && session_live(g, sid).await
    {
        // Boxed, as below: the guard's own future stays small, and moving it (axum boxes it,
        // tokio polls it) copies less.
        // The tools bound their own work and answer a timeout with the call's id; this bound,
        // a little later, only backstops the inline reads.
        let answer = super::direct::answer(&g.hub, &lane, &identity, call);
        return Ok(Box::pin(bounded(g, g.timeout + LANE_GRACE, answer)).await);
    }
    let method = req.method().clone();
    let resp = Box::pin(run_bounded(g, req, next)).await;
    Ok(after_answer(
        g,
        &method,
        initialize,
        session.as_deref(),
        &identity,
        resp,
    ))
}

/// The host a request names is one of ours, named once. The Host and Origin checks (ours, the
/// direct lane's, rmcp's) read the first header of each name, so a second one, or an
/// absolute-form request line (`POST http://evil.example/mcp`) naming another authority than
/// the Host header, would let a rebinding page past them.
#[allow(clippy::result_large_err)] // the error is the finished response
fn check_authority(g: &Guard, req: &Request) -> Result<(), Response> {
    for (header, name) in [(header::HOST, "Host"), (header::ORIGIN, "Origin")] {
        if req.headers().get_all(&header).iter().count() > 1 {
            return Err(rpc_error(
                StatusCode::BAD_REQUEST,
                CODE_FORBIDDEN,
                &format!("Bad Request: more than one {name} header"),
                json!({"hint": format!("send one {name} header")}),
                HeaderMap::new(),
            ));
        }
    }
    if let Some(authority) = req.uri().authority() {
        let name = authority
            .host()
            .trim_start_matches('[')
            .trim_end_matches(']')
            .to_ascii_lowercase();
        if !g.hosts.contains(&name) {
            let shown = authority.as_str().chars().take(200).collect::<String>();
            return Err(rpc_error(
                StatusCode::FORBIDDEN,
                CODE_FORBIDDEN,
                "Forbidden: Host not allowed",
                json!({"host": shown, "hint": "the request line names a host this server does not serve"}),
                HeaderMap::new(),
            ));
        }
    }
    Ok(())
}

/// Origin: a browser page from elsewhere must not reach the server (DNS rebinding, CSRF).
#[allow(clippy::result_large_err)] // the error is the finished response
fn check_origin(g: &Guard, req: &Request) -> Result<(), Response> {
    let Some(origin) = req.headers().get(header::ORIGIN) else {
        return Ok(());
    };
    if origin
        .to_str()
        .map(|o| origin_allowed(&g.origins, o))
        .unwrap_or(false)
    {
        return Ok(());
    }
    let shown = String::from_utf8_lossy(origin.as_bytes())
        .chars()
        .take(200)
        .collect::<String>();
    Err(rpc_error(
        StatusCode::FORBIDDEN,
        CODE_FORBIDDEN,
        "Forbidden: Origin not allowed",
        json!({"origin": shown, "hint": "only loopback origins and server.allowed_origins may call this server"}),
        HeaderMap::new(),
    ))
}

fn body_too_large(g: &Guard, message: &str) -> Response {
    rpc_error(
        StatusCode::PAYLOAD_TOO_LARGE,
        CODE_TOO_LARGE,
        message,
        json!({"max_body_bytes": g.max_body, "hint": "send smaller requests (server.max_body_bytes)"}),
        HeaderMap::new(),
    )
}

/// Size, when the client declares it (the body is also read within the limit).
#[allow(clippy::result_large_err)] // the error is the finished response
fn check_declared_size(g: &Guard, req: &Request) -> Result<(), Response> {
    match req
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok())
    {
        Some(len) if len > g.max_body as u64 => Err(body_too_large(g, "request body too large")),
        _ => Ok(()),
    }
}

/// Bearer token → the client it names. Failed attempts are throttled per peer address: past
/// the allowance a missing or wrong token is answered 429 until it refills (one try per
/// second). The throttle counts failures, not the address: a request that carries a valid
/// credential is never refused by it, since every local client (Copilot CLI, VS Code, Claude
/// Code) shares 127.0.0.1 with whatever process sends bad tokens. Guessing gains nothing from
/// that: tokens are 256 random bits.
#[allow(clippy::result_large_err)] // the error is the finished response
fn authenticate(g: &Guard, req: &Request, peer: &str) -> Result<ClientIdentity, Response> {
    let Some(creds) = &g.credentials else {
        return Ok(ClientIdentity::uncleared(crate::http::auth::DEFAULT_CLIENT));
    };
    let presented = req.headers().get(header::AUTHORIZATION);
    if let Some(id) = presented.and_then(|v| creds.identify_header(v.as_bytes())) {
        return Ok(id.clone());
    }
    if let Err(wait) = g.failures.check(peer) {
        return Err(too_many(
            wait,
            "Too many failed token attempts from this address",
            "wait Retry-After seconds, then send the right token (`opsdesk mcp-config <client>` prints it)",
        ));
    }
    Err(unauthorized(presented.is_some()))
}

/// Sessions belong to the credential that opened them; another's, or an unknown one, is 404.
#[allow(clippy::result_large_err)] // the error is the finished response
async fn check_session_owner(
    g: &Guard,
    sid: &str,
    identity: &ClientIdentity,
) -> Result<(), Response> {
    // `Some(true)`: ours; `Some(false)`: another credential's; `None`: not seen yet.
    let mine = {
        let mut owners = g.lock_owners();
        owners.get_mut(sid).map(|o| {
            o.last_used = Instant::now();
            o.client == identity.name
        })
    };
    match mine {
        Some(true) => Ok(()),
        Some(false) => Err(session_not_found(sid)),
        None => {
            use rmcp::transport::streamable_http_server::SessionManager;
            let key: rmcp::transport::streamable_http_server::session::SessionId =
                sid.to_string().into();
            if g.sessions.has_session(&key).await.unwrap_or(false) {
                Ok(())
            } else {
                Err(session_not_found(sid))
            }
        }
    }
}

/// The message itself (POST): read within the size limit and checked to be one JSON-RPC
/// message rmcp can take (else 400 with a JSON-RPC error, never a bare 415). Returns the
/// request to pass on and what the check read of it.
#[allow(clippy::result_large_err)] // the error is the finished response
async fn read_message(g: &Guard, req: Request) -> Result<(Request, Checked), Response> {
    if req.method() != Method::POST {
        return Ok((req, Checked::default()));
    }
    let (parts, body) = req.into_parts();
    let bytes = axum::body::to_bytes(body, g.max_body)
        .await
        .map_err(|_| body_too_large(g, "request body too large (or unreadable)"))?;
    let checked = check_message(&bytes)?;
    Ok((
        Request::from_parts(parts, axum::body::Body::from(bytes)),
        checked,
    ))
}

/// Session cap: a new legacy session only while there is room.
#[allow(clippy::result_large_err)] // the error is the finished response
async fn check_session_room(g: &Guard) -> Result<(), Response> {
    if g.sessions.sessions.read().await.len() < g.max_sessions {
        return Ok(());
    }
    let mut h = HeaderMap::new();
    h.insert(header::RETRY_AFTER, HeaderValue::from(30u64));
    Err(rpc_error(
        StatusCode::SERVICE_UNAVAILABLE,
        CODE_TOO_MANY_SESSIONS,
        "Too many MCP sessions",
        json!({"max_sessions": g.max_sessions, "hint": "close unused sessions (HTTP DELETE with Mcp-Session-Id) or wait for idle ones to end (server.session_idle_secs); the operator can raise server.max_sessions"}),
        h,
    ))
}

/// Time. Only requests answered in one piece are bounded here: GET streams and subscriptions
/// stay open by design, and tool calls have their own limit in the handler.
async fn run_bounded(g: &Guard, req: Request, next: Next) -> Response {
    if req.method() != Method::POST {
        return next.run(req).await;
    }
    bounded(g, g.timeout, next.run(req)).await
}

/// How much longer than a tool's own limit the lane waits before answering 408 itself.
const LANE_GRACE: Duration = Duration::from_secs(5);

async fn bounded(
    g: &Guard,
    limit: Duration,
    answer: impl std::future::Future<Output = Response>,
) -> Response {
    match tokio::time::timeout(limit, answer).await {
        Ok(r) => r,
        Err(_) => rpc_error(
            StatusCode::REQUEST_TIMEOUT,
            CODE_TIMEOUT,
            "request timed out",
            json!({"timeout_secs": g.timeout.as_secs(), "hint": "retry; the server bounds each request in time (server.request_timeout_secs)"}),
            HeaderMap::new(),
        ),
    }
}

/// Whether rmcp still holds session `sid` (its worker may have ended on its own).
async fn session_live(g: &Guard, sid: &str) -> bool {
    use rmcp::transport::streamable_http_server::SessionManager;
    let key: rmcp::transport::streamable_http_server::session::SessionId = sid.to_string().into();
    g.sessions.has_session(&key).await.unwrap_or(false)
}

/// A new session is owned by the credential that opened it; a deleted one is forgotten.
fn after_answer(
    g: &Guard,
    method: &Method,
    initialize: bool,
    session: Option<&str>,
    identity: &ClientIdentity,
    resp: Response,
) -> Response {
    if initialize
        && let Some(sid) = resp
            .headers()
            .get("mcp-session-id")
            .and_then(|v| v.to_str().ok())
    {
        g.lock_owners().insert(
            sid.to_string(),
            SessionOwner {
                client: identity.name.clone(),
                last_used: Instant::now(),
            },
        );
    }
    // Only a DELETE rmcp carried out ends the session (one it refused, e.g. for a bad
    // version header, leaves it open and owned).
    if *method == Method::DELETE && resp.status().is_success() {
        if let Some(sid) = session {
            g.lock_owners().remove(sid);
            g.hub.lanes.close(sid);
            crate::release_memory();
        }
        // The session is gone: say so plainly (clients expect 200 or 204, not 202).
        if resp.status() == StatusCode::ACCEPTED {
            return StatusCode::NO_CONTENT.into_response();
        }
    }
    resp
}

fn too_many(wait: Duration, message: &str, hint: &str) -> Response {
    let secs = wait.as_secs_f64().ceil().max(1.0) as u64;
    let mut h = HeaderMap::new();
    h.insert(header::RETRY_AFTER, HeaderValue::from(secs));
    rpc_error(
        StatusCode::TOO_MANY_REQUESTS,
        CODE_RATE_LIMITED,
        message,
        json!({"retry_after_secs": secs, "hint": hint}),
        h,
    )
}

fn unauthorized(presented: bool) -> Response {
    let mut h = HeaderMap::new();
    let challenge = if presented {
        r#"Bearer realm="opsdesk", error="invalid_token""#
    } else {
        r#"Bearer realm="opsdesk""#
    };
    h.insert(
        header::WWW_AUTHENTICATE,
        HeaderValue::from_static(challenge),
    );
    rpc_error(
        StatusCode::UNAUTHORIZED,
        CODE_UNAUTHORIZED,
        if presented {
            "Unauthorized: wrong bearer token"
        } else {
            "Unauthorized: bearer token required"
        },
        json!({"hint": "send `Authorization: Bearer <token>`; `opsdesk mcp-config <client>` prints a working configuration"}),
        h,
    )
}

fn session_not_found(sid: &str) -> Response {
    let shown: String = sid.chars().take(80).collect();
    rpc_error(
        StatusCode::NOT_FOUND,
        -32001,
        "Session not found",
        json!({"session_id": shown, "hint": "the session ended or belongs to another client; initialize a new one"}),
        HeaderMap::new(),
    )
}

/// Deepest nesting accepted inside a message (serde_json's own limit is 128).
const MAX_DEPTH: usize = 64;

/// The message's checks before rmcp sees it: valid JSON (-32700), one JSON-RPC 2.0 object with
/// a string or integer id (-32600), params an object that fits the method (-32602), nesting
/// bounded. Each refusal is HTTP 400 with a JSON-RPC error echoing the id when there is one.
#[allow(clippy::result_large_err)] // the error is the finished response
fn check_message(body: &[u8]) -> Result<Checked, Response> {
    // The common case first: a plain `tools/call` reads straight into its typed shape, which
    // holds every check below but the depth (a `Value` of it cost as much as a `status`).
    if let Some(call) = super::direct::PlainCall::parse(body)
        && 2 + depth_of_object(&call.args) <= MAX_DEPTH
    {
        return Ok(Checked {
            method: Some("tools/call".to_string()),
            call: Some(call),
        });
    }
    let bad = |code: i32, message: &str, id: &Value, data: Value| {
        rpc_error_id(StatusCode::BAD_REQUEST, code, message, data, id.clone())
    };
    let v: Value = match serde_json::from_slice(body) {
        Ok(v) => v,
        Err(e) => {
            return Err(bad(
                -32700,
                "Parse error: the body is not valid JSON (UTF-8)",
                &Value::Null,
                json!({"error": e.to_string(), "hint": "send one JSON-RPC 2.0 message as a JSON object, UTF-8 encoded"}),
            ));
        }
    };
    let Value::Object(m) = &v else {
        return Err(bad(
            -32600,
            "Invalid Request: not a JSON-RPC 2.0 message",
            &Value::Null,
            json!({"hint": "send one JSON object {\"jsonrpc\":\"2.0\",\"id\":…,\"method\":…,\"params\":{…}}; batches are not supported"}),
        ));
    };
    let id = m.get("id").cloned().unwrap_or(Value::Null);
    let id_ok = match &id {
        Value::String(_) => true,
        Value::Number(n) => n.is_i64() || n.is_u64(),
        _ => false,
    };
    let is_message =
        m.contains_key("method") || m.contains_key("result") || m.contains_key("error");
    if m.get("jsonrpc").and_then(Value::as_str) != Some("2.0") || !is_message {
        return Err(bad(
            -32600,
            "Invalid Request: not a JSON-RPC 2.0 message",
            if id_ok { &id } else { &Value::Null },
            json!({"hint": "a request needs \"jsonrpc\":\"2.0\" and a \"method\""}),
        ));
    }
    if m.contains_key("id") && !id_ok {
        return Err(bad(
            -32600,
            "Invalid Request: `id` must be a string or an integer",
            &Value::Null,
            json!({"field": "id", "hint": "use a string or an integer id"}),
        ));
    }
    let echo = if id_ok { id.clone() } else { Value::Null };
    if depth(&v) > MAX_DEPTH {
        return Err(bad(
            -32600,
            "Invalid Request: nested too deeply",
            &echo,
            json!({"max_depth": MAX_DEPTH, "hint": "flatten the arguments"}),
        ));
    }
    let method = m.get("method").and_then(Value::as_str).map(str::to_string);
    if m.contains_key("method") && method.is_none() {
        return Err(bad(
            -32600,
            "Invalid Request: `method` must be a string",
            &echo,
            json!({"field": "method"}),
        ));
    }
    if let Some(p) = m.get("params")
        && !p.is_object()
    {
        return Err(bad(
            -32602,
            "Invalid params: `params` must be an object",
            &echo,
            json!({"field": "params", "hint": "send params as a JSON object (by name), not an array"}),
        ));
    }
    if method.as_deref() == Some("tools/call") {
        let p = m.get("params");
        let name_ok = p.and_then(|p| p.get("name")).is_some_and(Value::is_string);
        let args_ok = p
            .and_then(|p| p.get("arguments"))
            .is_none_or(|a| a.is_object() || a.is_null());
        if !name_ok || !args_ok {
            return Err(bad(
                -32602,
                "Invalid params: tools/call needs `name` (a string) and `arguments` (an object)",
                &echo,
                json!({"field": if name_ok { "arguments" } else { "name" }, "hint": "{\"name\": \"status\", \"arguments\": {}}"}),
            ));
        }
    }
    if let Err(e) = serde_json::from_value::<rmcp::model::ClientJsonRpcMessage>(v) {
        return Err(bad(
            if method.is_some() { -32602 } else { -32600 },
            "Invalid params: the message does not fit its method",
            &echo,
            json!({"error": e.to_string(), "hint": "see the MCP specification for this method's params"}),
        ));
    }
    Ok(Checked { method, call: None })
}

/// What [`check_message`] read of a message.
#[derive(Default)]
struct Checked {
    method: Option<String>,
    /// A plain `tools/call` request (see [`super::direct::PlainCall`]).
    call: Option<super::direct::PlainCall>,
}

fn depth(v: &Value) -> usize {
    match v {
        Value::Array(a) => 1 + a.iter().map(depth).max().unwrap_or(0),
        Value::Object(o) => depth_of_object(o),
        _ => 0,
    }
}

fn depth_of_object(o: &serde_json::Map<String, Value>) -> usize {
    1 + o.values().map(depth).max().unwrap_or(0)
}

fn rpc_error_id(status: StatusCode, code: i32, message: &str, data: Value, id: Value) -> Response {
    let mut headers = HeaderMap::new();
    headers.insert(
        header::CONTENT_TYPE,
        HeaderValue::from_static("application/json"),
    );
    let body = json!({"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message, "data": data}});
    (status, headers, body.to_string()).into_response()
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_calls_are_checked_whether_or_not_they_take_the_fast_path() {
        let call = |params: &str| {
            let body =
                format!(r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{params}}}"#);
            check_message(body.as_bytes())
                .map(|c| (c.method, c.call.map(|c| c.name)))
                .map_err(|r| r.status())
        };
        let plain = |name: &str| Ok((Some("tools/call".into()), Some(name.to_string())));
        assert_eq!(call(r#"{"name":"status","arguments":{}}"#), plain("status"));
        assert_eq!(call(r#"{"name":"status"}"#), plain("status"));
        // Beyond name and arguments the typed parse still judges: `_meta` must be an object.
        // Such a call is not plain: rmcp answers it (progress, per-request version).
        assert_eq!(
            call(r#"{"name":"status","arguments":{},"_meta":{"progressToken":1}}"#),
            Ok((Some("tools/call".into()), None))
        );
        assert_eq!(
            call(r#"{"name":"status","arguments":{},"_meta":5}"#),
            Err(StatusCode::BAD_REQUEST)
        );
        assert_eq!(call(r#"{"name":5}"#), Err(StatusCode::BAD_REQUEST));
        assert_eq!(
            call(r#"{"name":"status","arguments":[]}"#),
            Err(StatusCode::BAD_REQUEST)
        );
    }

    #[test]
    fn the_fast_path_takes_only_what_the_full_check_would() {
        let check = |body: &str| {
            check_message(body.as_bytes())
                .map(|c| c.call.is_some())
                .map_err(|r| r.status())
        };
        let with_id = |id: &str| {
            format!(
                r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"status"}}}}"#
            )
        };
        assert_eq!(check(&with_id("-3")), Ok(true));
        assert_eq!(check(&with_id(r#""a""#)), Ok(true));
        // Not integers, or beyond what rmcp reads: refused as before, never answered.
        for id in ["1.0", "-0", "1e2", "null", "true", "9223372036854775808"] {
            assert_eq!(check(&with_id(id)), Err(StatusCode::BAD_REQUEST), "id {id}");
        }
        // Arrays are not messages, at the top or as params.
        assert_eq!(
            check(r#"["2.0",1,"tools/call",{"name":"status"}]"#),
            Err(StatusCode::BAD_REQUEST)
        );
        assert_eq!(
            check(r#"{"jsonrpc":"2.0","id":1,"method":"tools/call","params":["status",{}]}"#),
            Err(StatusCode::BAD_REQUEST)
        );
        // The depth limit counts the message, params and arguments levels.
        let nested = |levels: usize| {
            let args = format!("{}1{}", r#"{"a":"#.repeat(levels), "}".repeat(levels));
            format!(
                r#"{{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{{"name":"status","arguments":{args}}}}}"#
            )
        };
        assert_eq!(check(&nested(MAX_DEPTH - 2)), Ok(true));
        assert_eq!(check(&nested(MAX_DEPTH - 1)), Err(StatusCode::BAD_REQUEST));
    }
}
