//! The embedded MCP server: streamable HTTP (axum + rmcp) and stdio, serving protocol
//! revisions 2026-07-28, 2025-11-25 and 2025-06-18.
//!
//! - `server`: the rmcp handler and the state shared across sessions and stateless requests
//! - `tools`, `resources`: what clients can call and read; every call goes through
//!   `Engine::submit_tool`
//! - `rendered`: messages rendered once for tool answers (JSON and text copy), kept for the newest
//! - `notify`: pushes (log ping, `resources/updated`, Claude Code's channel) on engine events
//! - `http`: `/mcp` behind the guard (Origin, size, rate, token, time) and `/health`
//! - `auth`: the bearer token
//! - `scope`: which tools, resources and pushes each client gets (read-only, toolsets, patterns)
//! - `bridge`: stdio for clients that spawn a server while an engine already runs
//! - `fixtures`: the conformance suite's fixtures, compiled only with the test-only
//!   `conformance` feature (the integration test turns it on; a release build never has it);
//!   `conformance`: where they hook into `server` (one mount, empty without the feature)

pub(crate) mod attachments;
pub(crate) mod bridge;
pub(crate) mod conformance;
pub(crate) mod deals;
pub(crate) mod direct;
pub(crate) mod doctor;
pub(crate) mod fence;
pub(crate) mod filing;
#[cfg(feature = "conformance")]
pub mod fixtures;
pub(crate) mod http;
pub(crate) mod notify;
pub(crate) mod prompts;
pub(crate) mod rendered;
pub(crate) mod resources;
pub mod scope;
pub(crate) mod search_view;
pub(crate) mod server;
pub mod tools;
pub(crate) mod vault_tools;

use std::net::SocketAddr;
use std::path::PathBuf;

use anyhow::{Context, Result};
use serde::{Deserialize, Serialize};

pub use server::{Hub, HubOptions};

use crate::paths::{Paths, write_atomic};

/// What a running engine publishes about its MCP server, in `<data dir>/engine.json` (0600),
/// for the stdio bridge, `mcp-config` and the console.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct RuntimeInfo {
    pub pid: u32,
    /// `http://127.0.0.1:<port>/mcp`.
    pub mcp_url: String,
    pub addr: SocketAddr,
    pub started_at: String,
    /// Each client's effective scope (`mcp::scope`), for `doctor` and `mcp-config`.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub scopes: Vec<scope::ScopeSummary>,
    /// Where the default client's token came from (`OPSDESK_TOKEN` or the token file) and its
    /// fingerprint (`auth::Token::fingerprint`): `doctor` tells a shell whose token differs.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_source: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub token_fingerprint: Option<String>,
}

pub(crate) fn runtime_file(paths: &Paths) -> PathBuf {
    paths.data_dir.join("engine.json")
}

impl RuntimeInfo {
    pub fn new(addr: SocketAddr) -> RuntimeInfo {
        RuntimeInfo {
            pid: std::process::id(),
            mcp_url: mcp_url(addr),
            addr,
            started_at: crate::domain::now()
                .format(&time::format_description::well_known::Rfc3339)
                .unwrap_or_default(),
            scopes: Vec::new(),
            token_source: None,
            token_fingerprint: None,
        }
    }

    /// With the default client's token's source and fingerprint (never the token).
    pub fn with_token(mut self, token: &crate::http::auth::Token) -> RuntimeInfo {
        self.token_source = Some(token.source_label());
        self.token_fingerprint = Some(token.fingerprint());
        self
    }

    /// With the scopes the server applies.
    pub fn with_scopes(
        mut self,
        scopes: &scope::Scopes,
        vault: &[(String, tools::Tier)],
    ) -> RuntimeInfo {
        self.scopes = scopes.all().iter().map(|s| s.summary_with(vault)).collect();
        self
    }

    pub fn write(&self, paths: &Paths) -> Result<()> {
        let bytes = serde_json::to_vec_pretty(self)?;
        write_atomic(&runtime_file(paths), &bytes).context("cannot write engine.json")
    }

    /// The running engine's info, if its file exists and its process is alive.
    pub fn read_live(paths: &Paths) -> Option<RuntimeInfo> {
        let bytes = std::fs::read(runtime_file(paths)).ok()?;
        let info: RuntimeInfo = serde_json::from_slice(&bytes).ok()?;
        process_alive(info.pid).then_some(info)
    }

    /// Remove the file, if it is still ours.
    pub fn remove(paths: &Paths) {
        let path = runtime_file(paths);
        if let Ok(bytes) = std::fs::read(&path)
            && let Ok(info) = serde_json::from_slice::<RuntimeInfo>(&bytes)
            && info.pid == std::process::id()
        {
            let _ = std::fs::remove_file(&path);
        }
    }
}

pub fn mcp_url(addr: SocketAddr) -> String {
    let host = match addr.ip() {
        std::net::IpAddr::V6(ip) => format!("[{ip}]"),
        std::net::IpAddr::V4(ip) => ip.to_string(),
    };
    format!("http://{host}:{}/mcp", addr.port())
}

fn process_alive(pid: u32) -> bool {
    // Signal 0 checks existence without sending anything.
    let Ok(pid) = i32::try_from(pid) else {
        return false;
    };
    // SAFETY: kill with signal 0 has no effect beyond the permission/existence check.
    let r = unsafe { libc::kill(pid, 0) };
    r == 0 || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM)
}
