//! One startup and shutdown sequence for a running engine, shared by `opsdesk serve` and the
//! console: the MCP hub, its notifier, the HTTP server (published in `engine.json`) and the
//! sources, started in that order and stopped in reverse with bounded waits. Keeping it in one
//! place keeps the two front ends from drifting (a source started by one and not the other, a
//! cursor save forgotten on one exit path).

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::{Context, Failure};
use crate::engine::Engine;
use crate::engine::runner::spawn_sources;
use crate::http::HttpOptions;
use crate::http::auth;
use crate::mcp::scope::Overrides;
use crate::mcp::{Hub, HubOptions, RuntimeInfo};

/// How the MCP HTTP server is started, if at all.
/// The engine's async runtime: two workers, or one when the process may use only one CPU
/// (`taskset`, a cgroup quota). Two workers on one CPU only hand requests back and forth
/// between threads: measured pinned to one core, that cost a context switch per MCP call.
pub fn engine_runtime(name: &str) -> Result<tokio::runtime::Runtime, Failure> {
    let cpus = std::thread::available_parallelism().map_or(2, std::num::NonZeroUsize::get);
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(cpus.clamp(1, 2))
        // A burst (an import, a load of reads) starts blocking threads that each keep their own
        // allocator pages; idle ones go after a second instead of ten, and their pages with them.
        .thread_keep_alive(std::time::Duration::from_secs(1))
        .thread_name(name)
        .enable_all()
        .build()
        .map_err(|e| Failure::failed(format!("cannot start the runtime: {e}")))
}

pub struct HttpStart {
    /// Overrides `[server] bind`.
    pub bind: Option<SocketAddr>,
    pub allow_non_loopback: bool,
    /// When the configured address is taken (and none was given on the command line), take a
    /// free port instead of failing: the demo and a stdio client must start regardless.
    pub free_port_fallback: bool,
    /// A failing HTTP start stops the whole start (`serve`), or is only reported (the console,
    /// which is useful without MCP and shows the error in its status bar).
    pub required: bool,
}

/// A started engine with its servers and sources.
/// The newest stored records a starting host scans for PHI before any reader asks (a few
/// hundred messages: what a reconnecting client pulls first).
const PRIME_RECENT: usize = 256;

pub struct Host {
    pub engine: Arc<Engine>,
    pub hub: Arc<Hub>,
    pub shutdown: CancellationToken,
    /// The published MCP URL, when HTTP is served.
    pub mcp_url: Option<String>,
    /// Why HTTP is not served although it was asked for (only when not `required`).
    pub mcp_error: Option<String>,
    notifier: JoinHandle<()>,
    http: Option<JoinHandle<()>>,
    sources: Vec<JoinHandle<()>>,
}

/// How long the indexer lets a burst of new records settle before indexing them.
const INDEX_SETTLE: Duration = Duration::from_millis(200);

/// How long the engine must receive no new records after a burst before it unmaps the code
/// pages the burst ran (`crate::release_code_pages`). Long enough that a poll round's records
/// arriving in a few batches count as one burst, short enough that an import's aftermath is
/// not what `top` shows for the rest of the day.
const QUIET_BEFORE_TRIM: Duration = Duration::from_secs(10);

impl Host {
    /// Start the hub and notifier, then HTTP (if `http` is given), then the sources. Must run
    /// inside the engine's tokio runtime.
    pub async fn start(
        ctx: &Context,
        engine: Arc<Engine>,
        scope: Overrides,
        http: Option<HttpStart>,
    ) -> Result<Host, Failure> {
        let config = engine.config().clone();
        // Uncleared MCP readers are served from now on: records stored meanwhile are scanned
        // for PHI as they arrive, not when the first answer shows them.
        match engine.start_phi_priming() {
            Ok(()) => {
                let engine = engine.clone();
                tokio::task::spawn_blocking(move || {
                    if let Err(e) = engine.prime_recent(PRIME_RECENT) {
                        tracing::warn!("cannot prime the newest records for the PHI view: {e}");
                    }
                });
            }
            Err(e) => {
                tracing::warn!("PHI priming is off (each answer scans new records itself): {e}")
            }
        }
        if let Err(e) = engine.watch_unassigned() {
            tracing::debug!(
                "cannot watch the inbox for its unassigned marker ({e}); looking for it per answer"
            );
        }
        let shutdown = CancellationToken::new();
        spawn_indexer(engine.clone(), shutdown.clone());
        let hub = Hub::new(
            engine.clone(),
            HubOptions {
                call_timeout: Duration::from_secs(config.server.request_timeout_secs.max(1)),
                scope,
            },
        );
        let notifier = crate::mcp::notify::spawn(hub.clone(), shutdown.clone());
        let (mut server, mut mcp_url, mut mcp_error) = (None, None, None);
        if let Some(h) = http {
            match start_http(ctx, &config, &h, hub.clone(), shutdown.clone()).await {
                Ok((handle, url)) => {
                    server = Some(handle);
                    mcp_url = Some(url);
                }
                Err(e) if h.required => {
                    shutdown.cancel();
                    return Err(e);
                }
                Err(e) => mcp_error = Some(e.message),
            }
        }
        let sources = match spawn_sources(engine.clone(), shutdown.clone()) {
            Ok(s) => s,
            Err(e) => {
                shutdown.cancel();
                return Err(e.into());
            }
        };
        Ok(Host {
            engine,
            hub,
            shutdown,
            mcp_url,
            mcp_error,
            notifier,
            http: server,
            sources,
        })
    }

    /// Stop everything in reverse order, each wait bounded, then withdraw `engine.json` and
    /// save the consumer cursors (a pull moves them in memory).
    pub async fn stop(self, ctx: &Context) {
        self.shutdown.cancel();
        for t in self.sources {
            let _ = tokio::time::timeout(Duration::from_secs(5), t).await;
        }
        if let Some(h) = self.http {
            let _ = tokio::time::timeout(Duration::from_secs(5), h).await;
            // This engine holds the data dir's lock: the file can only be ours.
            RuntimeInfo::remove(&ctx.paths);
        }
        let _ = tokio::time::timeout(Duration::from_secs(2), self.notifier).await;
        if let Err(e) = self.engine.save_cursors() {
            eprintln!("opsdesk: inbox cursors not saved: {e}");
        }
    }
}

/// Bind and start the MCP HTTP server; publish its URL in engine.json.
async fn start_http(
    ctx: &Context,
    config: &crate::config::Config,
    h: &HttpStart,
    hub: Arc<Hub>,
    shutdown: CancellationToken,
) -> Result<(JoinHandle<()>, String), Failure> {
    let token = auth::Credentials::load(&ctx.paths, &config.server)?;
    let default_token = token.default_token().clone();
    let mut opts = HttpOptions::from_config(&config.server, Some(token));
    if let Some(b) = h.bind {
        opts.bind = b;
    }
    opts.allow_non_loopback |= h.allow_non_loopback;
    let listener = match crate::http::bind(&opts).await {
        Ok(l) => l,
        Err(e) if h.free_port_fallback && h.bind.is_none() => {
            tracing::warn!("{e:#}; using a free port instead");
            opts.bind.set_port(0);
            crate::http::bind(&opts).await?
        }
        Err(e) => return Err(e.into()),
    };
    let addr = listener
        .local_addr()
        .map_err(|e| Failure::failed(format!("cannot read the bound address: {e}")))?;
    let info = RuntimeInfo::new(addr)
        .with_scopes(&hub.scopes(), &hub.vault().scope_facts())
        .with_token(&default_token);
    info.write(&ctx.paths)?;
    // `[copilot_extension]`: its own guard (signature first), same limits (src/copilot).
    let webhook = match crate::copilot::routes(hub.clone(), &opts) {
        Ok(webhook) => Some(webhook),
        Err(e) => {
            tracing::error!("copilot webhook not served: {e:#}");
            None
        }
    };
    let app = crate::mcp::http::router(hub, &opts, shutdown.clone(), webhook);
    let handle = tokio::spawn(async move {
        if let Err(e) = crate::mcp::http::serve(listener, app, &opts, shutdown).await {
            tracing::error!("MCP HTTP server stopped: {e}");
        }
    });
    Ok((handle, info.mcp_url))
}

/// Keep the full-text index current: indexed at start (an index that is new, deleted or stale
/// is rebuilt then, not by the first search) and after each burst of new records, off the
/// request path. A failure is logged; the next search catches up itself.
fn spawn_indexer(engine: Arc<Engine>, shutdown: CancellationToken) {
    use tokio::sync::broadcast::error::RecvError;
    let mut events = engine.subscribe();
    tokio::spawn(async move {
        // Start-up is a burst too (config, sources' first rounds, the index check).
        let mut first = true;
        // The code mapped right after the last unmap (0: never unmapped).
        let mut trimmed_at = 0;
        // When to unmap the code pages a burst ran, if it stays quiet until then. Kept across
        // catch-ups: the last one of a burst often finds nothing left to index.
        let mut trim_after = None;
        loop {
            let e = engine.clone();
            let indexed = tokio::task::spawn_blocking(move || {
                let r = e.index_pending();
                if r.as_ref().is_ok_and(|&n| n > 0) {
                    // A catch-up frees its batches' text at once: give it back now, on the
                    // thread that held it (an idle host has no later allocations to do it).
                    crate::release_memory();
                }
                r
            });
            // After a burst of new records, once the engine has been quiet a while, the code
            // pages the burst ran are unmapped (`release_code_pages`: they stay cached).
            match indexed.await {
                Ok(Ok(n)) if n > 0 || first => {
                    trim_after = Some(tokio::time::Instant::now() + QUIET_BEFORE_TRIM);
                }
                Ok(Ok(_)) => {}
                Ok(Err(err)) => {
                    tracing::warn!("the search index is behind (the next search catches up): {err}")
                }
                Err(err) => tracing::warn!("the search indexer stopped: {err}"),
            }
            first = false;
            loop {
                let quiet = async {
                    match trim_after {
                        // Other events (audit, source health) do not postpone it.
                        Some(at) => tokio::time::sleep_until(at).await,
                        None => std::future::pending().await,
                    }
                };
                tokio::select! {
                    _ = shutdown.cancelled() => return,
                    () = quiet => {
                        trim_after = None;
                        let mapped = trimmed_at;
                        let e = engine.clone();
                        let now = tokio::task::spawn_blocking(move || {
                            e.shed_caches();
                            crate::release_memory();
                            crate::trim_code_pages(mapped)
                        })
                        .await
                        .unwrap_or(mapped);
                        trimmed_at = now;
                    }
                    ev = events.recv() => match ev {
                        Ok(crate::engine::EngineEvent::InboxAppended(_))
                        | Err(RecvError::Lagged(_)) => break,
                        Ok(_) => {}
                        Err(RecvError::Closed) => return,
                    },
                }
            }
            // One catch-up per burst of records, not one per record.
            tokio::time::sleep(INDEX_SETTLE).await;
            while events.try_recv().is_ok() {}
        }
    });
}
