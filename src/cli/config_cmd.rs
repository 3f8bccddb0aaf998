use crate::cli::output::outln;
use clap::Subcommand;
use serde_json::json;

use super::{CmdResult, Context};

#[derive(Debug, Subcommand)]
pub enum ConfigCmd {
    /// Validate the config file; exit 2 with the key path and what is allowed if it is wrong.
    Check,
    /// Print the effective configuration (secrets are never part of it).
    Show,
}

pub fn run(ctx: &Context, cmd: ConfigCmd) -> CmdResult {
    let config = ctx.config()?;
    // Judged as the engine runs it: with the operator's provider switches (providers.json).
    let effective = crate::doctor::effective_config(&ctx.paths, &config).map_err(|e| {
        super::Failure::failed(format!(
            "{e} (fix or remove providers.json in the data dir)"
        ))
    })?;
    let out = ctx.printer();
    let source = if ctx.global.demo && ctx.global.config.is_none() {
        "built-in demo config".to_string()
    } else if ctx.paths.config_file.exists() {
        ctx.paths.config_file.display().to_string()
    } else {
        format!(
            "built-in defaults ({} does not exist)",
            ctx.paths.config_file.display()
        )
    };
    match cmd {
        ConfigCmd::Check => {
            // Warnings are things that will not work as the operator probably expects (an unset
            // auth_env, a HIPAA profile with no cleared provider): worth saying, not fatal.
            let warnings: Vec<_> = effective
                .warnings()
                .into_iter()
                .chain(crate::mcp::scope::config_warnings(&effective.server))
                .map(|w| json!({"key": w.key, "message": w.message}))
                .collect();
            let value = json!({
                "ok": true,
                "source": source,
                "profiles": config.profiles.keys().collect::<Vec<_>>(),
                "warnings": warnings,
            });
            out.emit(&value, |l| {
                l.push(format!("config OK: {source}"));
                l.push(format!(
                    "profiles: {}",
                    config
                        .profiles
                        .keys()
                        .cloned()
                        .collect::<Vec<_>>()
                        .join(", ")
                ));
                for w in &warnings {
                    l.push(format!(
                        "warning: {}: {}",
                        w["key"].as_str().unwrap_or(""),
                        w["message"].as_str().unwrap_or("")
                    ));
                }
            })
        }
        ConfigCmd::Show => {
            if ctx.global.json {
                match serde_json::to_string_pretty(&config) {
                    Ok(s) => outln!("{s}"),
                    Err(e) => eprintln!("opsdesk: {e}"),
                }
            } else {
                outln!("# source: {source}");
                print!("{}", config.to_display_toml());
            }
        }
    }
    Ok(())
}
