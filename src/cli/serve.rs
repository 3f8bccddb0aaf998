//! `opsdesk serve`: the engine headless — sources polling into the inbox — until SIGINT or
//! SIGTERM. With `--demo` (and, until the console lands, plain `opsdesk --demo`) it also
//! prints what happens so a newcomer can watch it move.

use std::sync::Arc;

use clap::Args;
use tokio_util::sync::CancellationToken;

use super::output::safe;
use super::{CmdResult, Context, Failure};
use crate::engine::runner::spawn_sources;
use crate::engine::{Engine, EngineEvent, Mode};

#[derive(Debug, Args, Default)]
pub struct ServeArgs {
    /// Print each inbound item, draft and source problem as it happens.
    #[arg(long)]
    pub print: bool,
}

pub fn run(ctx: &Context, args: ServeArgs) -> CmdResult {
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Failure::failed(format!("cannot start the runtime: {e}")))?;
    rt.block_on(serve(ctx, args))
}

async fn serve(ctx: &Context, args: ServeArgs) -> CmdResult {
    let engine = Arc::new(Engine::open(
        ctx.paths.clone(),
        ctx.config()?,
        Mode::Primary,
    )?);
    let shutdown = CancellationToken::new();
    let print = args.print || ctx.global.demo;
    if print {
        let dir = engine.data_dir().display().to_string();
        eprintln!("opsdesk engine running on {dir} (Ctrl-C to stop)");
        if ctx.global.demo {
            eprintln!("demo data is thrown away on exit; meanwhile, in another terminal:");
            eprintln!("  OPSDESK_DATA_DIR={dir} opsdesk drafts list");
            eprintln!("  OPSDESK_DATA_DIR={dir} opsdesk drafts approve <id>");
        }
        let mut rx = engine.subscribe();
        let stop = shutdown.clone();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = stop.cancelled() => break,
                    ev = rx.recv() => match ev {
                        Ok(ev) => print_event(&ev),
                        Err(tokio::sync::broadcast::error::RecvError::Lagged(n)) => eprintln!("({n} events not shown)"),
                        Err(_) => break,
                    }
                }
            }
        });
    }
    let tasks = spawn_sources(engine.clone(), shutdown.clone())?;
    wait_for_stop_signal().await?;
    shutdown.cancel();
    for t in tasks {
        let _ = t.await;
    }
    if print {
        eprintln!("opsdesk engine stopped");
    }
    Ok(())
}

fn print_event(ev: &EngineEvent) {
    match ev {
        EngineEvent::InboxAppended(r) => {
            let f = time::macros::format_description!("[hour]:[minute]");
            println!(
                "{}",
                safe(&format!(
                    "[{} {}] {:<7} {}: \"{}\"",
                    r.channel,
                    r.received_at.format(&f).unwrap_or_default(),
                    r.profile,
                    r.from.label(),
                    r.subject
                        .as_deref()
                        .filter(|s| !s.is_empty())
                        .unwrap_or(&r.preview)
                ))
            );
        }
        EngineEvent::DraftChanged(d) => println!(
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

/// Resolve on Ctrl-C or SIGTERM.
pub async fn wait_for_stop_signal() -> CmdResult {
    use tokio::signal::unix::{SignalKind, signal};
    let mut term = signal(SignalKind::terminate())
        .map_err(|e| Failure::failed(format!("cannot watch SIGTERM: {e}")))?;
    tokio::select! {
        r = tokio::signal::ctrl_c() => r.map_err(|e| Failure::failed(format!("cannot watch Ctrl-C: {e}")))?,
        _ = term.recv() => {}
    }
    Ok(())
}
