//! Background work of a primary engine: the pollers of the sources that need no account
//! (spool, demo). Each poller backs off on errors and reports its health to the engine, which
//! announces it on the event bus.

use std::sync::Arc;
use std::time::Duration;

use serde::Serialize;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::{Engine, EngineEvent};
use crate::config::SourceKind;
use crate::domain::{Action, Actor, NewMessage, Outcome, now};
use crate::sources::Sink;
use crate::sources::demo::Demo;
use crate::sources::spool::Spool;
use crate::store::inbox::Appended;

/// Longest wait between polls of a failing source.
const MAX_BACKOFF: Duration = Duration::from_secs(300);

#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SourceHealth {
    pub name: String,
    pub ok: bool,
    /// Consecutive failures (0 when healthy).
    pub failures: u32,
    pub last_error: Option<String>,
    #[serde(with = "time::serde::rfc3339::option")]
    pub last_ok: Option<time::OffsetDateTime>,
    pub items: u64,
}

/// Delivers a source's items to the engine under that source's name.
pub struct EngineSink<'a> {
    pub engine: &'a Engine,
    pub source: &'a str,
}

impl Sink for EngineSink<'_> {
    fn ingest(&self, msg: NewMessage) -> anyhow::Result<Appended> {
        self.engine.ingest(msg, self.source)
    }

    fn ingest_batch(&self, msgs: Vec<NewMessage>) -> anyhow::Result<Vec<Appended>> {
        self.engine.ingest_batch(msgs, self.source)
    }
}

/// Start the pollers for every source some profile uses. They stop when `shutdown` fires.
pub fn spawn_sources(
    engine: Arc<Engine>,
    shutdown: CancellationToken,
) -> anyhow::Result<Vec<JoinHandle<()>>> {
    let mut tasks = Vec::new();
    let cfg = engine.config().clone();
    let using = |kind: SourceKind| -> Vec<String> {
        cfg.profiles
            .iter()
            .filter(|(_, p)| p.sources.contains(&kind))
            .map(|(n, _)| n.clone())
            .collect()
    };

    // Microsoft Graph pollers and the executor of approved drafts (Graph, demo outbox).
    tasks.push(spawn_graph_and_executor(
        engine.clone(),
        using(SourceKind::Demo),
        shutdown.clone(),
    ));

    let spool_profiles = using(SourceKind::Spool);
    if let Some(default_profile) = spool_profiles.first() {
        let dir = cfg
            .sources
            .spool
            .dir
            .clone()
            .unwrap_or_else(|| engine.paths().spool_dir());
        let spool = Arc::new(
            Spool::new(dir, default_profile.clone())?.with_profiles(cfg.profiles.keys().cloned()),
        );
        let every = Duration::from_secs(cfg.sources.spool.interval_secs.max(1));
        tasks.push(spawn_poller(
            engine.clone(),
            shutdown.clone(),
            "spool",
            every,
            move |engine| {
                let report = spool.poll_once(&EngineSink {
                    engine,
                    source: "spool",
                })?;
                for (file, why) in &report.rejected {
                    tracing::warn!("spool file {file} rejected: {why}");
                }
                Ok(report.ingested as u64)
            },
        ));
    }

    let demo_profiles = using(SourceKind::Demo);
    if !demo_profiles.is_empty() {
        let run_id = uuid::Uuid::new_v4().simple().to_string()[..8].to_string();
        let demo = Arc::new(std::sync::Mutex::new(Demo::new(demo_profiles, &run_id)));
        let first = demo
            .lock()
            .map(|mut d| d.initial_burst(now()))
            .unwrap_or_default();
        let every = Duration::from_secs(cfg.sources.demo.interval_secs.max(1));
        let engine0 = engine.clone();
        let mut pending = Some(first);
        let mut n = 0u64;
        tasks.push(spawn_poller(
            engine0,
            shutdown,
            "demo",
            every,
            move |engine| {
                let batch = match pending.take() {
                    Some(b) => b,
                    None => demo
                        .lock()
                        .map_err(|_| anyhow::anyhow!("demo state poisoned"))?
                        .next_batch(now()),
                };
                let mut stored = 0;
                for msg in batch {
                    if let Appended::New(rec) = (EngineSink {
                        engine,
                        source: "demo",
                    })
                    .ingest(msg)?
                    {
                        stored += 1;
                        n += 1;
                        // Now and then the demo's "assistant" proposes a reply, through the same
                        // governed path an MCP client uses, so a newcomer sees a draft to approve.
                        if n.is_multiple_of(3)
                            && matches!(
                                rec.channel,
                                crate::domain::Channel::Email | crate::domain::Channel::Teams
                            )
                        {
                            let body = format!(
                                "Thanks {} — noted. I'll get back to you by end of day.",
                                rec.from.name.split_whitespace().next().unwrap_or("")
                            );
                            match engine.submit(
                                Action::DraftReply {
                                    message_id: rec.id.clone(),
                                    body,
                                },
                                Actor::mcp("demo-assistant"),
                            ) {
                                Ok(Outcome::Blocked { rule, reason, .. }) => {
                                    tracing::info!("demo draft blocked by {rule}: {reason}")
                                }
                                Ok(_) => {}
                                Err(e) => tracing::warn!("demo draft failed: {e}"),
                            }
                        }
                    }
                }
                Ok(stored)
            },
        ));
    }
    Ok(tasks)
}

/// The Graph pollers of every profile and the executor of approved drafts: Graph for profiles
/// with an account, the demo outbox for demo profiles. Returns at once (the HTTP client, with
/// its TLS set-up, is built on the blocking pool, so the caller reaches its signal handling
/// without delay); the task ends when `shutdown` fires and its children have stopped.
fn spawn_graph_and_executor(
    engine: Arc<Engine>,
    demo_profiles: Vec<String>,
    shutdown: CancellationToken,
) -> JoinHandle<()> {
    use crate::sources::graph;
    tokio::spawn(async move {
        let (cfg, dir) = (engine.config().clone(), engine.data_dir().to_path_buf());
        let accounts = tokio::task::spawn_blocking(move || graph::accounts(&cfg, &dir))
            .await
            .unwrap_or_default();
        let mut tasks = graph::run::spawn_all(engine.clone(), &accounts, shutdown.clone());
        let mut executors: super::executor::Executors = Vec::new();
        if !accounts.is_empty() {
            executors.push(Arc::new(graph::outbound::GraphOutbound::new(accounts)));
        }
        if !demo_profiles.is_empty() {
            executors.push(Arc::new(super::outbound::DemoOutbox::new(
                engine.data_dir(),
                demo_profiles,
            )));
        }
        if !executors.is_empty() {
            tasks.push(super::executor::spawn(engine, executors, shutdown));
        }
        for t in tasks {
            let _ = t.await;
        }
    })
}

/// Run `poll` every `every` on the blocking pool, backing off exponentially while it fails.
fn spawn_poller<F>(
    engine: Arc<Engine>,
    shutdown: CancellationToken,
    name: &'static str,
    every: Duration,
    poll: F,
) -> JoinHandle<()>
where
    F: FnMut(&Engine) -> anyhow::Result<u64> + Send + 'static,
{
    let poll = Arc::new(std::sync::Mutex::new(poll));
    tokio::spawn(async move {
        let mut health = SourceHealth {
            name: name.into(),
            ok: true,
            failures: 0,
            last_error: None,
            last_ok: None,
            items: 0,
        };
        loop {
            let (e, p) = (engine.clone(), poll.clone());
            let result = tokio::task::spawn_blocking(move || {
                let mut f = p
                    .lock()
                    .map_err(|_| anyhow::anyhow!("poller state poisoned"))?;
                f(&e)
            })
            .await
            .unwrap_or_else(|join| Err(anyhow::anyhow!("poller crashed: {join}")));
            let before = health.clone();
            match result {
                Ok(k) => {
                    health.ok = true;
                    health.failures = 0;
                    health.last_error = None;
                    health.last_ok = Some(now());
                    health.items += k;
                }
                Err(err) => {
                    health.ok = false;
                    health.failures += 1;
                    health.last_error = Some(format!("{err:#}"));
                    tracing::warn!(
                        source = name,
                        failures = health.failures,
                        "poll failed: {err:#}"
                    );
                }
            }
            if health.ok != before.ok
                || health.failures != before.failures
                || health.items != before.items
            {
                engine.set_health(health.clone());
            }
            let wait = if health.ok {
                every
            } else {
                backoff(every, health.failures)
            };
            tokio::select! {
                _ = shutdown.cancelled() => break,
                _ = tokio::time::sleep(wait) => {}
            }
        }
    })
}

fn backoff(every: Duration, failures: u32) -> Duration {
    every
        .saturating_mul(1u32 << failures.min(16))
        .min(MAX_BACKOFF)
}

impl Engine {
    /// Record a source's health and announce it.
    pub fn set_health(&self, h: SourceHealth) {
        if let Ok(mut map) = self.health.lock() {
            map.insert(h.name.clone(), h.clone());
        }
        let _ = self.events.send(EngineEvent::SourceHealth(Arc::new(h)));
    }

    /// Health of every running source.
    pub fn health(&self) -> Vec<SourceHealth> {
        self.health
            .lock()
            .map(|m| m.values().cloned().collect())
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_doubles_and_is_capped() {
        let s = Duration::from_secs(2);
        assert_eq!(backoff(s, 1), Duration::from_secs(4));
        assert_eq!(backoff(s, 3), Duration::from_secs(16));
        assert_eq!(backoff(s, 30), MAX_BACKOFF);
    }
}
