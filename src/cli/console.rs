//! `opsdesk` / `opsdesk console`: the engine (sources, MCP server) on a background tokio
//! runtime and the ratatui console in the foreground. See `crate::tui`.

use std::io::IsTerminal;
use std::net::SocketAddr;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use clap::Args;

use super::host::{Host, HttpStart};
use super::{CmdResult, Context, Failure};
use crate::engine::{Engine, Mode};
use crate::tui::keymap::Keymap;
use crate::tui::theme::{Theme, no_color_from_env};

/// The console's options: before any subcommand (`opsdesk --demo --theme light`: the console is
/// the default command) and after `console`. They are not global, so other commands' `--help`
/// does not list them; `cli::parse` refuses them before another subcommand, except `--bind`
/// and `--no-http` before `serve`, which has them too.
#[derive(Debug, Args, Default, Clone)]
pub struct ConsoleArgs {
    /// Console colour theme: dark, light, high-contrast, or <config dir>/themes/<NAME>.toml
    /// (default: [console] theme, else picked from the terminal's background). NO_COLOR is honoured.
    #[arg(long, env = "OPSDESK_THEME", value_name = "NAME")]
    pub theme: Option<String>,
    /// Console keymap TOML overriding the built-in keys (default: [console] keymap).
    #[arg(long, value_name = "FILE")]
    pub keymap: Option<PathBuf>,
    /// MCP HTTP listen address of the console or `serve` (default: server.bind,
    /// 127.0.0.1:48080). Port 0 picks a free port.
    #[arg(long, value_name = "ADDR")]
    pub bind: Option<SocketAddr>,
    /// Do not serve MCP over HTTP (console, `serve`).
    #[arg(long)]
    pub no_http: bool,
}

impl ConsoleArgs {
    /// These options, each filled from `earlier` where not given here (`opsdesk --theme light
    /// console --no-http` takes both).
    pub fn or(self, earlier: ConsoleArgs) -> ConsoleArgs {
        ConsoleArgs {
            theme: self.theme.or(earlier.theme),
            keymap: self.keymap.or(earlier.keymap),
            bind: self.bind.or(earlier.bind),
            no_http: self.no_http || earlier.no_http,
        }
    }
}

pub fn run(ctx: &Context, args: ConsoleArgs) -> CmdResult {
    if !std::io::stdout().is_terminal() || !std::io::stdin().is_terminal() {
        return Err(Failure::usage(
            "the console needs a terminal; for a headless engine use `opsdesk serve`",
        ));
    }
    let config = ctx.config()?;
    // Read the local offset now: the time crate refuses once other threads exist.
    let tz = time::UtcOffset::current_local_offset().unwrap_or(time::UtcOffset::UTC);
    // The config's default ("dark") gives way to a light theme on a terminal that says its
    // background is light.
    let theme_name = args.theme.clone().unwrap_or_else(|| {
        if config.console.theme == "dark" {
            crate::tui::theme::default_name().to_string()
        } else {
            config.console.theme.clone()
        }
    });
    let config_dir = ctx.paths.config_file.parent().map(|p| p.to_path_buf());
    let theme = Theme::load(&theme_name, config_dir.as_deref(), no_color_from_env())
        .map_err(|e| Failure::usage(format!("{e:#}")))?
        .fit_to(crate::tui::theme::ColorDepth::from_env());
    let keymap_path = args
        .keymap
        .clone()
        .or_else(|| config.console.keymap.clone());
    let keymap =
        Keymap::load(keymap_path.as_deref()).map_err(|e| Failure::usage(format!("{e:#}")))?;

    let rt = super::host::engine_runtime("opsdesk-engine")?;
    let engine = Arc::new(Engine::open(
        ctx.paths.clone(),
        config.clone(),
        Mode::Primary,
    )?);
    let _enter = rt.enter();
    // The console's MCP server honours OPSDESK_READ_ONLY too.
    let scope = crate::mcp::scope::Overrides::from_env().map_err(Failure::usage)?;
    let http = (!args.no_http).then_some(HttpStart {
        bind: args.bind,
        allow_non_loopback: false,
        // The demo must start even when another opsdesk holds the usual port.
        free_port_fallback: ctx.global.demo,
        required: false,
    });
    let host = rt.block_on(Host::start(ctx, engine.clone(), scope, http))?;
    let clients_hub = host.hub.clone();
    let opts = crate::tui::Options {
        theme,
        keymap,
        tz,
        mcp_url: host.mcp_url.clone(),
        mcp_error: host.mcp_error.clone(),
        clients: Some(Arc::new(move || clients_hub.connected_clients())),
        mcp_scopes: host
            .hub
            .scopes()
            .all()
            .iter()
            .map(|s| {
                let s = s.summary_with(&host.hub.vault().scope_facts());
                format!("{}: {}", s.client, s.line())
            })
            .collect(),
        log_file: Some(engine.data_dir().join("console.log")),
        data_dir: Some(engine.data_dir().display().to_string()),
    };
    let result = crate::tui::run(engine.clone(), rt.handle(), opts);

    rt.block_on(host.stop(ctx));
    drop(_enter);
    rt.shutdown_timeout(Duration::from_secs(2));
    if ctx.throw_away_demo() {
        eprintln!("opsdesk: demo data thrown away (--keep keeps it)");
    }
    match result {
        Ok(None) => Ok(()),
        Ok(Some(fatal)) => Err(Failure::failed(format!("the console stopped: {fatal}"))),
        Err(e) => Err(Failure::failed(format!("{e:#}"))),
    }
}
