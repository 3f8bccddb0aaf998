//! Vault tools over MCP: `vault_<name>` entries after the built-in tools, their calls, and
//! `notifications/tools/list_changed` when the tools folder changes.
//!
//! A tool that misbehaves (crash, hang, junk output, an unknown or forbidden command) answers
//! with a tool-level error (`isError`, with what went wrong and the tool's bounded stderr) the
//! model can read; the server itself is unaffected.

use std::sync::Arc;
use std::time::Duration;

use rmcp::ErrorData as McpError;
use rmcp::model::{CallToolResult, ContentBlock, JsonObject};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::server::{Hub, PeerKind, engine_error};
use crate::domain::Actor;
use crate::vault::{CallError, MCP_PREFIX};

const SEND_LIMIT: Duration = Duration::from_secs(5);

/// Run vault tool `name` for `client`, with the profile its answer is attributed to
/// (`Vault::call_owned`). `None` when `name` is not a vault tool.
pub async fn call(
    hub: &Arc<Hub>,
    name: &str,
    args: JsonObject,
    client: &str,
) -> Option<(Result<CallToolResult, McpError>, Option<String>)> {
    if !name.starts_with(MCP_PREFIX) {
        return None;
    }
    let vault = hub.vault();
    vault.get(name)?;
    let (r, owner) = vault
        .call_owned(hub.engine(), name, args, Actor::mcp(client))
        .await;
    Some((answer(r), owner))
}

fn answer(r: Result<crate::vault::CallOutput, CallError>) -> Result<CallToolResult, McpError> {
    match r {
        Ok(out) => {
            let value = out.to_value();
            let text = serde_json::to_string(&value)
                .map_err(|e| McpError::internal_error(e.to_string(), None))?;
            let mut result = CallToolResult::success(vec![ContentBlock::text(text)]);
            result.structured_content = Some(value);
            // A blocked proposal is readable (rule, reason, remedy), like a blocked draft tool.
            if out.any_refused() {
                result.is_error = Some(true);
            }
            Ok(result)
        }
        Err(CallError::Invalid(m)) => Err(McpError::invalid_params(m, None)),
        // -32602 like any bad argument; `data` lists each failing path for the model to fix.
        Err(e @ CallError::Arguments { .. }) => {
            let data = json!({"error": e.kind(), "violations": e.violations()});
            Err(McpError::invalid_params(e.to_string(), Some(data)))
        }
        Err(CallError::UnknownTool(t)) => Err(McpError::invalid_params(
            format!("unknown tool `{t}`"),
            None,
        )),
        Err(CallError::Engine(e)) => Err(engine_error(e)),
        Err(e) => {
            let stderr = match &e {
                CallError::Run(r) => r.stderr().to_string(),
                _ => String::new(),
            };
            let mut v = json!({"error": e.kind(), "message": e.to_string(), "stderr": stderr});
            if let Some(violations) = e.violations() {
                v["violations"] = json!(violations);
            }
            let mut result = CallToolResult::error(vec![ContentBlock::text(e.to_string())]);
            result.structured_content = Some(v);
            Ok(result)
        }
    }
}

/// Watch the tools folder (when `[vault] watch`) and tell every connected client when the
/// list changes.
pub fn watch(hub: &Arc<Hub>, stop: CancellationToken) {
    if !hub.vault().watching() {
        return;
    }
    let h = hub.clone();
    match crate::vault::watch::spawn(hub.vault().clone(), stop, move || list_changed(&h)) {
        Ok(_) => {}
        Err(e) => tracing::info!("vault: {e}; tool changes are picked up at the next start"),
    }
}

fn list_changed(hub: &Arc<Hub>) {
    for p in hub.live_peers() {
        tokio::spawn(async move {
            let send = async {
                match &p.kind {
                    PeerKind::Session(_) => {
                        let _ = p.peer.notify_tool_list_changed().await;
                    }
                    PeerKind::Listen { sink, .. } => {
                        let _ = sink.notify_tool_list_changed().await;
                    }
                }
            };
            let _ = tokio::time::timeout(SEND_LIMIT, send).await;
        });
    }
}

/// The `tools/list` entries of the vault (after the built-ins).
pub fn tools(hub: &Hub) -> Vec<rmcp::model::Tool> {
    hub.vault().mcp_tools()
}
