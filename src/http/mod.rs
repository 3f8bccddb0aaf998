//! The HTTP port's plumbing, shared by every surface mounted on it (MCP's `/mcp`, the Copilot
//! webhook): the listener and its loopback rule, the connection cap, Origin matching, per-client
//! rate limits, the peer address, and the bearer tokens clients present. It knows no MCP
//! message and no webhook payload: each surface builds its own guard from these parts.

pub mod auth;
pub mod conn;
pub mod origin;
pub mod rate;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result, bail};
use axum::extract::{ConnectInfo, Request};

use auth::Credentials;
use conn::ConnMeta;

/// The port's options, from `[server]` in the configuration. The session fields are MCP's
/// (the webhook keeps no session); the rest bound every request on the port.
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
    /// See [`conn`].
    pub header_read_timeout: Duration,
    pub max_connections: usize,
    pub max_sessions: usize,
    pub session_idle: Duration,
    pub auth_failures_burst: u32,
    /// `None` only in the conformance fixture mode (the suite cannot send a token), which is
    /// refused anywhere but loopback.
    pub credentials: Option<Arc<Credentials>>,
}

impl HttpOptions {
    pub fn from_config(
        c: &crate::config::ServerConfig,
        credentials: Option<Credentials>,
    ) -> HttpOptions {
        HttpOptions {
            bind: c.bind,
            allow_non_loopback: c.allow_non_loopback,
            allowed_origins: c.allowed_origins.clone(),
            max_body_bytes: c.max_body_bytes,
            rate_per_sec: c.rate_limit_per_sec,
            rate_burst: c.rate_limit_burst,
            request_timeout: Duration::from_secs(c.request_timeout_secs.max(1)),
            header_read_timeout: Duration::from_secs(c.header_read_timeout_secs.max(1)),
            max_connections: c.max_connections,
            max_sessions: c.max_sessions,
            session_idle: Duration::from_secs(c.session_idle_secs.max(1)),
            auth_failures_burst: c.auth_failures_burst,
            credentials: credentials.map(Arc::new),
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
        if opts.credentials.is_none() {
            bail!(
                "refusing to serve MCP without a token on non-loopback address {}",
                opts.bind
            );
        }
        let warning = format!(
            "WARNING: MCP is served on non-loopback address {} over plain HTTP: bearer tokens and all content (PHI included) travel in cleartext and can be read by anyone on the network path. Put a TLS reverse proxy in front (see README, \"Serving beyond this machine\") and keep opsdesk itself on 127.0.0.1.",
            opts.bind
        );
        tracing::warn!("{warning}");
        eprintln!("{warning}");
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

/// The client's address as the connection cap recorded it (or axum's, when served without the
/// cap, as in tests); "unknown" when neither is there.
pub fn peer_ip(req: &Request) -> String {
    match req.extensions().get::<ConnectInfo<ConnMeta>>() {
        Some(ConnectInfo(m)) => m.peer.ip().to_string(),
        None => match req.extensions().get::<ConnectInfo<SocketAddr>>() {
            Some(ConnectInfo(a)) => a.ip().to_string(),
            None => "unknown".to_string(),
        },
    }
}
