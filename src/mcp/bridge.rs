//! MCP over stdin/stdout: served by this process's engine, or bridged to a running one.

use std::sync::Arc;

use anyhow::{Result, bail};
use rmcp::ServiceExt;
use tokio_util::sync::CancellationToken;

use super::{Hub, RuntimeInfo};
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

/// Another engine holds the data dir: relay stdin/stdout to its HTTP endpoint.
pub async fn run(paths: &Paths) -> Result<()> {
    let Some(info) = RuntimeInfo::read_live(paths) else {
        bail!(
            "an opsdesk engine runs for {} but publishes no MCP endpoint (engine.json); start it with `opsdesk serve` (HTTP enabled)",
            paths.data_dir.display()
        );
    };
    bail!(
        "bridging stdio to the running engine at {} is not built yet",
        info.mcp_url
    )
}
