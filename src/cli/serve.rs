//! `opsdesk serve`: the engine headless — sources polling into the inbox, the MCP server on
//! HTTP (and, with `--stdio`, on stdin/stdout) — until SIGINT or SIGTERM. With `--demo` (and,
//! until the console lands, plain `opsdesk --demo`) it also prints what happens so a newcomer
//! can watch it move.
//!
//! `--stdio` when an engine already runs for the data dir: instead of failing on the lock, the
//! process bridges stdin/stdout to that engine's HTTP endpoint, so a client that spawns a stdio
//! server works while the console is open.
//!
//! SIGHUP reloads the MCP scopes from the config file (`mcp::scope`), as daemons reload; it
//! does not stop the engine.

use crate::cli::output::outln;
use std::net::SocketAddr;
use std::sync::Arc;

use clap::Args;

use super::host::{Host, HttpStart};
use super::output::safe;
use super::{CmdResult, Context, Failure};
use crate::engine::{Engine, EngineEvent, LockError, Mode, OpenError};
use crate::mcp::scope::Overrides;
use crate::mcp::{Hub, RuntimeInfo};

#[derive(Debug, Args, Default)]
pub struct ServeArgs {
    /// Print each inbound item, draft and source problem as it happens (to stderr with --stdio).
    #[arg(long)]
    pub print: bool,
    /// Serve MCP on stdin/stdout too (for clients that spawn their server). Bridges to the
    /// running engine when there is one.
    #[arg(long)]
    pub stdio: bool,
    /// MCP HTTP listen address (default: server.bind, 127.0.0.1:48080). Port 0 picks a free
    /// port; the URL is printed on stderr and written to <data dir>/engine.json.
    #[arg(long, value_name = "ADDR")]
    pub bind: Option<SocketAddr>,
    /// Allow a non-loopback --bind (the bearer token is still required).
    #[arg(long)]
    pub allow_non_loopback: bool,
    /// Do not serve MCP over HTTP (with --stdio: stdin/stdout only).
    #[arg(long)]
    pub no_http: bool,
    /// Read-only mode for every client: only read tools are listed and callable (also
    /// `OPSDESK_READ_ONLY=1`, `[server] read_only = true`).
    #[arg(long)]
    pub read_only: bool,
    /// Only the tools of these toolsets, comma-separated: inbox, briefs, drafts, calendar,
    /// deals, triage, vault, admin (replaces `[server] toolsets`).
    #[arg(long, value_delimiter = ',', value_parser = crate::mcp::scope::Toolset::parse, value_name = "SET,…")]
    pub toolsets: Option<Vec<crate::mcp::scope::Toolset>>,
    /// Only the tools matching these patterns, comma-separated, `*` as a wildcard (e.g.
    /// `inbox_*,status`; replaces `[server] tools`).
    #[arg(long, value_delimiter = ',', value_parser = tool_pattern, value_name = "PATTERN,…")]
    pub enabled_tools: Option<Vec<String>>,
}

fn tool_pattern(s: &str) -> Result<String, String> {
    crate::mcp::scope::check_pattern(s).map(|()| s.trim().to_string())
}

/// The scope settings of the command line and the environment (`mcp::scope`).
fn scope_overrides(args: &ServeArgs) -> Result<Overrides, Failure> {
    Ok(Overrides::from_env().map_err(Failure::usage)?.with_flags(
        args.read_only,
        args.toolsets.clone(),
        args.enabled_tools.clone(),
    ))
}

pub fn run(ctx: &Context, args: ServeArgs) -> CmdResult {
    super::host::engine_runtime("opsdesk-serve")?.block_on(serve(ctx, args))
}

async fn serve(ctx: &Context, args: ServeArgs) -> CmdResult {
    let config = ctx.config()?;
    let scope = scope_overrides(&args)?;
    let engine = match Engine::open(ctx.paths.clone(), config.clone(), Mode::Primary) {
        Ok(e) => Arc::new(e),
        Err(OpenError::Locked(LockError::Held { .. })) if args.stdio => {
            // The bridge relays bytes to the running engine, whose scope applies: it cannot
            // narrow it, and must not pretend to.
            if !scope.is_empty() {
                return Err(Failure::usage(format!(
                    "an engine already runs for {}, and a bridged stdio connection gets that engine's scope: --read-only, --toolsets, --enabled-tools and {} cannot narrow it from here. Start that engine with them, or give this client a named credential with its own scope ([server.clients.<name>] read_only / toolsets / tools, and [server] stdio_client)",
                    ctx.paths.data_dir.display(),
                    crate::mcp::scope::READ_ONLY_ENV
                )));
            }
            return crate::mcp::bridge::run(&ctx.paths)
                .await
                .map_err(Failure::from);
        }
        Err(e) => return Err(e.into()),
    };
    // Listen for SIGINT/SIGTERM before engine.json announces us: a signal that arrives while the
    // sources start must stop the engine cleanly, not kill it with engine.json left behind.
    let stop_signal = stop_signal()?;
    let print = args.print || ctx.global.demo;
    let http = (!args.no_http).then_some(HttpStart {
        bind: args.bind,
        allow_non_loopback: args.allow_non_loopback,
        // A stdio client must get its server even when the usual port is taken.
        free_port_fallback: args.stdio,
        required: true,
    });
    let host = Host::start(ctx, engine.clone(), scope, http).await?;
    if let Some(url) = &host.mcp_url {
        eprintln!("opsdesk MCP server listening on {url}");
    }
    let (hub, shutdown) = (host.hub.clone(), host.shutdown.clone());
    let stdio = if args.stdio {
        let hub = hub.clone();
        let stop = shutdown.clone();
        Some(tokio::spawn(async move {
            if let Err(e) = crate::mcp::bridge::serve_stdio(hub, stop.clone()).await {
                tracing::error!("stdio MCP: {e:#}");
            }
            // The client closed stdin: a spawned stdio server ends with its client.
            stop.cancel();
        }))
    } else {
        None
    };
    if print {
        let dir = engine.data_dir().display().to_string();
        eprintln!("opsdesk engine running on {dir} (Ctrl-C to stop)");
        if ctx.global.demo {
            eprintln!("demo data is thrown away on exit; meanwhile, in another terminal:");
            // Each line runs as printed: the data dir and the config file whose directory
            // holds the demo's integrity key (without it another terminal would use another
            // key, which the engine refuses for a keyed data dir).
            let env = demo_env(ctx);
            eprintln!("  {env} opsdesk drafts list");
            eprintln!("  {env} opsdesk drafts approve <id>");
            // The demo's MCP token is its own (a fresh data dir) unless one was exported.
            if host.mcp_url.is_some() && std::env::var_os("OPSDESK_TOKEN").is_none() {
                let token = engine.data_dir().join(crate::http::auth::TOKEN_FILE);
                eprintln!(
                    "  export OPSDESK_TOKEN=\"$(cat {})\"   # the demo's MCP token, for a client",
                    token.display()
                );
            }
        }
        let mut rx = engine.subscribe();
        let stop = shutdown.clone();
        // With --stdio, stdout carries MCP and nothing else.
        let stdio_mode = args.stdio;
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = stop.cancelled() => break,
                    ev = rx.recv() => match ev {
                        Ok(ev) => print_event(&ev, stdio_mode),
                        Err(tokio::sync::broadcast::error::RecvError::Lagged(n)) => eprintln!("({n} events not shown)"),
                        Err(_) => break,
                    }
                }
            }
        });
    }
    let mut hangup = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::hangup())
        .map_err(|e| Failure::failed(format!("cannot watch SIGHUP: {e}")))?;
    tokio::pin!(stop_signal);
    loop {
        tokio::select! {
            _ = &mut stop_signal => break,
            _ = shutdown.cancelled() => break,
            // SIGHUP: reload the MCP scopes from the config file (nothing else).
            _ = hangup.recv() => reload_scopes(ctx, &hub, host.mcp_url.is_some()),
        }
    }
    if let Some(s) = stdio {
        s.abort();
    }
    host.stop(ctx).await;
    if print {
        eprintln!("opsdesk engine stopped");
    }
    Ok(())
}

/// SIGHUP: read the config file again and apply its scope settings (`mcp::scope`), telling
/// clients whose lists change; a config that fails validation or changes more than scopes is
/// refused and the scopes stay as they were. Said on stderr; audited either way.
fn reload_scopes(ctx: &Context, hub: &Arc<Hub>, published: bool) {
    let reloaded = hub.reload_scopes(ctx.config().map(|c| c.server).map_err(|f| f.message));
    match reloaded {
        Ok((old, new)) => {
            crate::mcp::notify::scopes_changed(hub, &old, &new);
            if published && let Some(info) = RuntimeInfo::read_live(&ctx.paths) {
                let info = info.with_scopes(&new, &hub.vault().scope_facts());
                if let Err(e) = info.write(&ctx.paths) {
                    eprintln!("opsdesk: engine.json not updated with the new scopes: {e:#}");
                }
            }
            for s in new.all() {
                let s = s.summary_with(&hub.vault().scope_facts());
                eprintln!("opsdesk: MCP scope of {}: {}", s.client, safe(&s.line()));
            }
        }
        Err(e) => eprintln!("opsdesk: MCP scopes not reloaded: {}", safe(&e)),
    }
}

/// Bind and start the MCP HTTP server; publish its URL in engine.json.
fn print_event(ev: &EngineEvent, to_stderr: bool) {
    let out = |line: String| {
        if to_stderr {
            eprintln!("{line}");
        } else {
            outln!("{line}");
        }
    };
    match ev {
        EngineEvent::InboxAppended(r) => {
            let f = time::macros::format_description!("[hour]:[minute]");
            out(safe(&format!(
                "[{} {}] {:<7} {}: \"{}\"",
                r.channel,
                r.received_at.format(&f).unwrap_or_default(),
                r.profile,
                r.from.label(),
                r.subject
                    .as_deref()
                    .filter(|s| !s.is_empty())
                    .unwrap_or(&r.preview)
            )));
        }
        EngineEvent::DraftChanged(d) => outln!(
            "{}",
            safe(&format!(
                "draft {} {}: {} to {} (by {}) — `opsdesk drafts show {}`",
                d.id,
                d.status.as_str(),
                d.outbound.kind(),
                d.outbound.recipients().join(", "),
                d.created_by,
                d.id
            ))
        ),
        EngineEvent::SourceHealth(h) if !h.ok => {
            eprintln!(
                "{}",
                safe(&format!(
                    "source {} failing ({}x): {}",
                    h.name,
                    h.failures,
                    h.last_error.as_deref().unwrap_or("")
                ))
            )
        }
        _ => {}
    }
}

/// Register for SIGINT and SIGTERM now; the future resolves when one arrives.
fn stop_signal() -> Result<impl std::future::Future<Output = ()>, Failure> {
    use tokio::signal::unix::{SignalKind, signal};
    let watch = |kind: SignalKind, name: &str| {
        signal(kind).map_err(|e| Failure::failed(format!("cannot watch {name}: {e}")))
    };
    let mut term = watch(SignalKind::terminate(), "SIGTERM")?;
    let mut int = watch(SignalKind::interrupt(), "Ctrl-C")?;
    Ok(async move {
        tokio::select! {
            _ = term.recv() => {}
            _ = int.recv() => {}
        }
    })
}

/// The environment a command in another terminal needs to work on this demo: its data dir,
/// and its config file when there is one (its directory holds the integrity key; a config
/// file that does not exist is the default one, which the other terminal resolves alike).
pub(crate) fn demo_env(ctx: &Context) -> String {
    let mut env = format!("OPSDESK_DATA_DIR={}", shell_word(&ctx.paths.data_dir));
    if ctx.paths.config_file.exists() {
        env.push_str(&format!(
            " OPSDESK_CONFIG={}",
            shell_word(&ctx.paths.config_file)
        ));
    }
    env
}

/// `p` as one shell word: as is when it has no characters a shell treats specially, else in
/// single quotes.
fn shell_word(p: &std::path::Path) -> String {
    let s = p.display().to_string();
    let plain = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+,:@%".contains(c));
    if plain {
        s
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}
