//! `opsdesk tools list|check|run`: the tool vault from the command line. `run` goes the same
//! way as an MCP call (context through the PHI view, the child process, commands through the
//! engine as `vault:<tool>`), audited with actor `cli`.

use std::sync::Arc;

use clap::Subcommand;
use serde_json::{Value, json};

use super::{CmdResult, Context, Failure};
use crate::domain::Actor;
use crate::vault::{CallError, Vault};

#[derive(Debug, Subcommand)]
pub enum ToolsCmd {
    /// The vault's tools (name, tier, timeout) and its broken folders.
    List,
    /// Check every manifest; fails (exit 1) when any is broken, naming each and why.
    Check,
    /// Run one tool with JSON arguments; its commands become pending drafts.
    Run {
        /// The tool's name (`summarise` or `vault_summarise`).
        name: String,
        /// The arguments, a JSON object.
        #[arg(long, default_value = "{}")]
        args: String,
    },
}

pub fn run(ctx: &Context, cmd: ToolsCmd) -> CmdResult {
    let out = ctx.printer();
    let config = ctx.config()?;
    let vault = Vault::configured(&ctx.paths, &config);
    match cmd {
        ToolsCmd::List | ToolsCmd::Check => {
            let check = matches!(cmd, ToolsCmd::Check);
            let sb = vault.sandbox();
            let refused = |m: &crate::vault::Manifest| match vault.verdict(m) {
                crate::vault::sandbox::Verdict::Refuse { reason } => Some(reason),
                crate::vault::sandbox::Verdict::Run { .. } => None,
            };
            let tools: Vec<Value> = vault
                .tools()
                .iter()
                .map(|m| {
                    json!({
                        "name": m.name, "mcp_name": m.mcp_name(), "tier": m.tier.as_str(),
                        "timeout_secs": m.timeout_secs, "profiles": m.profiles,
                        "may_see_phi": m.may_see_phi, "description": m.description,
                        "network": crate::vault::network_label(m, sb),
                        "refused": refused(m),
                    })
                })
                .collect();
            let broken = vault.broken();
            let view = json!({
                "dir": vault.dir(), "tools": tools, "broken": broken,
                "sandbox": sb, "sandbox_line": sb.line(),
            });
            out.emit(&view, |l| {
                l.push(format!("tools folder: {}", vault.dir().display()));
                l.push(sb.line());
                for m in vault.tools() {
                    l.push(format!(
                        "  {:<24} {:<10} {:>4}s  net: {:<12}  {}",
                        m.mcp_name(),
                        m.tier.as_str(),
                        m.timeout_secs,
                        crate::vault::network_label(&m, sb),
                        super::output::safe(&m.description)
                    ));
                    if let Some(r) = refused(&m) {
                        l.push(format!("    NOT RUN HERE: {}", super::output::safe(&r)));
                    }
                }
                if vault.tools().is_empty() {
                    l.push("  (no tools)".into());
                }
                for b in &broken {
                    l.push(format!(
                        "  BROKEN {}: {}",
                        super::output::safe(&b.folder),
                        super::output::safe(&b.error)
                    ));
                }
            });
            if check && !broken.is_empty() {
                return Err(Failure::failed(format!(
                    "{} broken tool manifest(s): {}",
                    broken.len(),
                    broken
                        .iter()
                        .map(|b| format!("{} ({})", b.folder, b.error))
                        .collect::<Vec<_>>()
                        .join("; ")
                )));
            }
            Ok(())
        }
        ToolsCmd::Run { name, args } => {
            let args = match serde_json::from_str::<Value>(&args) {
                Ok(Value::Object(m)) => m,
                Ok(_) => return Err(Failure::usage("--args must be a JSON object")),
                Err(e) => return Err(Failure::usage(format!("--args is not JSON: {e}"))),
            };
            if vault.get(&name).is_none() {
                let known: Vec<String> = vault.tools().iter().map(|m| m.name.clone()).collect();
                return Err(Failure::usage(format!(
                    "no vault tool `{name}` (tools: {})",
                    if known.is_empty() {
                        "none".into()
                    } else {
                        known.join(", ")
                    }
                )));
            }
            let engine = Arc::new(ctx.engine()?);
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()
                .map_err(|e| Failure::failed(e.to_string()))?;
            let r = rt.block_on(vault.call(&engine, &name, args, Actor::Cli));
            match r {
                Ok(o) => {
                    let v = o.to_value();
                    out.emit(&v, |l| {
                        l.push(serde_json::to_string_pretty(&o.output).unwrap_or_default());
                        for c in &o.commands {
                            l.push(match (&c.draft_id, &c.rule) {
                                (Some(id), _) => {
                                    format!("{}: draft {id} waits for approval", c.kind)
                                }
                                (_, Some(rule)) => format!(
                                    "{}: blocked by {rule}: {} ({})",
                                    c.kind,
                                    c.reason.as_deref().unwrap_or(""),
                                    c.remedy.as_deref().unwrap_or("")
                                ),
                                _ => format!(
                                    "{}: failed: {}",
                                    c.kind,
                                    c.reason.as_deref().unwrap_or("")
                                ),
                            });
                        }
                    });
                    if o.any_refused() {
                        return Err(Failure::refused(
                            "a proposed command was blocked or failed (see above)",
                        ));
                    }
                    Ok(())
                }
                Err(CallError::Engine(e)) => Err(e.into()),
                Err(CallError::Invalid(m)) => Err(Failure::usage(m)),
                Err(e @ CallError::Arguments { .. }) => Err(Failure::usage(e.to_string())),
                Err(e) => {
                    let stderr = match &e {
                        CallError::Run(r) => r.stderr().trim().to_string(),
                        _ => String::new(),
                    };
                    Err(Failure::failed(if stderr.is_empty() {
                        e.to_string()
                    } else {
                        format!("{e}\nstderr:\n{}", super::output::safe(&stderr))
                    }))
                }
            }
        }
    }
}
