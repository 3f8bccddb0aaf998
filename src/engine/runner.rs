//! Background work of a primary engine: the pollers of spool and demo and the Graph side (pollers
//! and the executor), all in the one poll loop of `sources::poller`, reporting through the
//! engine's [`SourceHost`] implementation, which announces health on the event bus.

use std::sync::Arc;
use std::time::Duration;

use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::EngineError;
use super::{Engine, EngineEvent};
use crate::config::SourceKind;
use crate::domain::{
    Action, Actor, Channel, DraftStatus, InboxRecord, NewMessage, Outbound, Outcome, now,
};
use crate::sources::IngestFailure;
use crate::sources::Sink;
use crate::sources::demo::Demo;
use crate::sources::spool::Spool;
use crate::store::inbox::Appended;

pub use crate::sources::poller::SourceHealth;
use crate::sources::poller::{Schedule, SourceHost, run_loop};

impl SourceHost for Engine {
    fn ingest_from(&self, msg: NewMessage, source: &str) -> Result<Appended, IngestFailure> {
        self.ingest(msg, source)
    }
    fn report(&self, health: SourceHealth) {
        self.set_health(health)
    }
    fn healths(&self) -> Vec<SourceHealth> {
        self.health()
    }
    fn has_item(&self, id: &str) -> bool {
        match self.inbox.find_by_id(id) {
            Ok(found) => found.is_some(),
            Err(e) => {
                // Not knowing only costs a second fetch: dedup by id keeps the inbox right.
                tracing::warn!("cannot look up inbox item by id: {e}");
                false
            }
        }
    }
    fn attachment_store(&self) -> Option<crate::store::attachments::AttachmentStore> {
        Some(self.attachments.clone())
    }
}

/// Delivers a source's items to the engine under that source's name.
pub struct EngineSink<'a> {
    pub engine: &'a Engine,
    pub source: &'a str,
}

impl Sink for EngineSink<'_> {
    fn ingest(&self, msg: NewMessage) -> Result<Appended, IngestFailure> {
        self.engine.ingest(msg, self.source)
    }

    fn ingest_batch(&self, msgs: Vec<NewMessage>) -> Result<Vec<Appended>, IngestFailure> {
        self.engine.ingest_batch(msgs, self.source)
    }
}

/// Start the pollers for every source some profile uses. They stop when `shutdown` fires.
pub(crate) fn spawn_sources(
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

    // The assistant's jobs on arriving items ([assistant] on_arrival), when switched on.
    tasks.extend(super::arrival::spawn(engine.clone(), shutdown.clone()));

    // Draft expiry ([drafts.ttl_hours]) once a minute; approvals check it themselves too.
    tasks.push(spawn_draft_expiry(engine.clone(), shutdown.clone()));

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
            Spool::new(dir, default_profile.clone())?
                .with_profiles(cfg.profiles.keys().cloned())
                .with_classifier(
                    cfg.classification
                        .as_ref()
                        .map(crate::sources::classify::Classifier::new),
                )
                .with_attachments(engine.attachments.clone()),
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
                Ok(demo_ingest(engine, batch, &mut n)?)
            },
        ));
    }
    Ok(tasks)
}

/// Takes one batch of the demo script in and lets the demo's "assistant" answer now and then
/// (every third new mail or chat message), so a newcomer sees a draft to approve. `n` counts
/// the new items across batches. Returns how many items were new.
pub fn demo_ingest(
    engine: &Engine,
    batch: Vec<NewMessage>,
    n: &mut u64,
) -> Result<u64, IngestFailure> {
    let mut stored = 0;
    for msg in batch {
        if let Appended::New(rec) = (EngineSink {
            engine,
            source: "demo",
        })
        .ingest(msg)?
        {
            stored += 1;
            *n += 1;
            if n.is_multiple_of(3) {
                match demo_assistant_reply(engine, &rec) {
                    Ok(Some(Outcome::Blocked { rule, reason, .. })) => {
                        tracing::info!("demo draft blocked by {rule}: {reason}")
                    }
                    Ok(_) => {}
                    Err(e) => tracing::warn!("demo draft failed: {e}"),
                }
            }
        }
    }
    Ok(stored)
}

/// The demo assistant's reply to `rec`, proposed through the same governed path an MCP client
/// uses. `None` when it holds back: calendar items, senders that never read replies
/// ([`crate::brief::is_automated_sender`]), and messages a pending draft already answers — so
/// the queue does not fill with drafts to no-reply robots or the same "noted" thrice to one chat.
pub fn demo_assistant_reply(
    engine: &Engine,
    rec: &InboxRecord,
) -> Result<Option<Outcome>, EngineError> {
    if !matches!(rec.channel, Channel::Email | Channel::Teams)
        || crate::brief::is_automated_sender(&rec.from.address)
        || pending_answer(engine, rec)?
    {
        return Ok(None);
    }
    let body = format!(
        "Thanks {} — noted. I'll get back to you by end of day.",
        rec.from.name.split_whitespace().next().unwrap_or("")
    );
    engine
        .submit(
            Action::DraftReply {
                message_id: rec.id.clone(),
                body,
                attachments: Vec::new(),
                body_html: None,
            },
            Actor::mcp("demo-assistant"),
        )
        .map(Some)
}

/// Whether a pending draft already answers `rec`: a reply to it or to another mail of its
/// thread, or a post to its chat (where a Teams reply goes).
fn pending_answer(engine: &Engine, rec: &InboxRecord) -> Result<bool, EngineError> {
    let chat = rec.thread_id.as_deref().unwrap_or(&rec.from.address);
    for d in engine.draft_queue()?.drafts {
        if d.status != DraftStatus::Pending {
            continue;
        }
        let answers = match &d.outbound {
            Outbound::PostChat { chat_id, .. } => rec.channel == Channel::Teams && chat_id == chat,
            Outbound::ReplyEmail { message_id, .. } if *message_id == rec.id => true,
            Outbound::ReplyEmail { message_id, .. } => match &rec.thread_id {
                Some(thread) if rec.channel == Channel::Email => engine
                    .inbox_record_by_id(message_id)?
                    .is_some_and(|r| r.thread_id.as_ref() == Some(thread)),
                _ => false,
            },
            _ => false,
        };
        if answers {
            return Ok(true);
        }
    }
    Ok(false)
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
        let host: Arc<dyn SourceHost> = engine.clone();
        let mut tasks = graph::run::spawn_all(host, engine.config(), &accounts, shutdown.clone());
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
        // Always running: accepted deal proposals are carried out by it even without an
        // outbound executor.
        tasks.push(super::executor::spawn(engine, executors, shutdown));
        for t in tasks {
            let _ = t.await;
        }
    })
}

fn spawn_draft_expiry(engine: Arc<Engine>, shutdown: CancellationToken) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut tick = tokio::time::interval(Duration::from_secs(60));
        loop {
            tokio::select! {
                _ = shutdown.cancelled() => break,
                _ = tick.tick() => {
                    let e = engine.clone();
                    match tokio::task::spawn_blocking(move || e.expire_drafts(crate::domain::now())).await {
                        Ok(Ok(_)) => {}
                        Ok(Err(err)) => tracing::warn!("draft expiry: {err}"),
                        Err(join) => tracing::error!("draft expiry crashed: {join}"),
                    }
                    // Audit retention rides the same minute tick; with nothing due it only
                    // lists the month files.
                    let keep = engine.config().audit.archive_after_months;
                    if keep > 0 {
                        let e = engine.clone();
                        match tokio::task::spawn_blocking(move || {
                            e.archive_audit(keep, crate::domain::now(), crate::domain::Actor::Engine)
                        })
                        .await
                        {
                            Ok(Ok(_)) => {}
                            Ok(Err(err)) => tracing::warn!("audit retention: {err}"),
                            Err(join) => tracing::error!("audit retention crashed: {join}"),
                        }
                    }
                }
            }
        }
    })
}

/// Run the blocking `poll` in the shared poll loop (on the blocking pool), as source `name`.
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
    let host: Arc<dyn SourceHost> = engine.clone();
    tokio::spawn(run_loop(
        host,
        name.into(),
        Schedule::every(every),
        None,
        shutdown,
        move || {
            let (e, p) = (engine.clone(), poll.clone());
            async move {
                tokio::task::spawn_blocking(move || {
                    let mut f = p
                        .lock()
                        .map_err(|_| anyhow::anyhow!("poller state poisoned"))?;
                    f(&e)
                })
                .await
                .unwrap_or_else(|join| Err(anyhow::anyhow!("poller crashed: {join}")))
                .map_err(Into::into)
            }
        },
    ))
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
