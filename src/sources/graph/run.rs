//! Scheduling of the Graph pollers inside the engine: one task per (profile, source), each with
//! its own interval, backoff, `Retry-After` and circuit breaker, reporting health to the engine
//! (status tool, console status bar) and to `graph/<profile>/health-<source>.json` for
//! `opsdesk doctor`, which runs in another process.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::calendar::CalendarSync;
use super::client::GraphError;
use super::mail::MailSync;
use super::teams::TeamsSync;
use super::{Account, Deliver};
use crate::config::SourceKind;
use crate::engine::Engine;
use crate::engine::runner::SourceHealth;
use crate::sources::poller::{Breaker, Circuit, next_delay};
use crate::store::inbox::Appended;

/// Consecutive failures that open the circuit.
pub const BREAKER_THRESHOLD: u32 = 5;
/// How long an open circuit leaves the service alone.
pub const BREAKER_COOL_OFF: Duration = Duration::from_secs(300);

enum Job {
    Mail(MailSync),
    Teams(TeamsSync),
    Calendar(CalendarSync),
}

impl Job {
    async fn poll(&self, deliver: &Deliver) -> Result<u64, GraphError> {
        match self {
            Job::Mail(m) => m.poll_once(deliver).await.map(|r| r.new),
            Job::Teams(t) => t.poll_once(deliver).await.map(|r| r.new),
            Job::Calendar(c) => c.poll_once(deliver).await.map(|r| r.new),
        }
    }
}

/// The health file of one source of one profile.
pub fn health_file(account_dir: &std::path::Path, source: SourceKind) -> std::path::PathBuf {
    account_dir.join(format!("health-{source}.json"))
}

/// How one poller is scheduled.
#[derive(Debug, Clone, Copy)]
pub struct Schedule {
    pub every: Duration,
    pub breaker_threshold: u32,
    pub breaker_cool_off: Duration,
}

impl Schedule {
    pub fn every(every: Duration) -> Schedule {
        Schedule {
            every,
            breaker_threshold: BREAKER_THRESHOLD,
            breaker_cool_off: BREAKER_COOL_OFF,
        }
    }
}

/// Start a poller for every Graph source of every profile.
pub fn spawn_all(
    engine: Arc<Engine>,
    accounts: &std::collections::BTreeMap<String, Arc<Account>>,
    shutdown: CancellationToken,
) -> Vec<JoinHandle<()>> {
    let mut tasks = Vec::new();
    for (name, profile) in &engine.config().profiles {
        let (Some(account), Some(g)) = (accounts.get(name), profile.graph.as_ref()) else {
            continue;
        };
        for src in profile.sources.iter().filter(|s| s.is_graph()) {
            let secs = match src {
                SourceKind::GraphMail => g.mail_interval_secs,
                SourceKind::GraphTeams => g.chat_interval_secs,
                _ => g.calendar_interval_secs,
            };
            let schedule = Schedule::every(Duration::from_secs(secs.max(1)));
            tasks.extend(spawn_source(
                engine.clone(),
                account.clone(),
                *src,
                schedule,
                shutdown.clone(),
            ));
        }
    }
    tasks
}

/// Start the poller of one Graph source of `account`'s profile; its health is named
/// `<source>:<profile>`.
pub fn spawn_source(
    engine: Arc<Engine>,
    account: Arc<Account>,
    src: SourceKind,
    schedule: Schedule,
    shutdown: CancellationToken,
) -> Option<JoinHandle<()>> {
    let job = match src {
        SourceKind::GraphMail => Job::Mail(MailSync::new(account.clone())),
        SourceKind::GraphTeams => Job::Teams(TeamsSync::new(account.clone())),
        SourceKind::GraphCalendar => Job::Calendar(CalendarSync::new(account.clone())),
        _ => return None,
    };
    let health_name = format!("{src}:{}", account.profile);
    let e = engine.clone();
    let source_name = health_name.clone();
    let deliver: Deliver =
        Arc::new(move |m| Ok(matches!(e.ingest(m, &source_name)?, Appended::New(_))));
    Some(tokio::spawn(poll_loop(
        engine,
        job,
        deliver,
        health_name,
        health_file(&account.state_dir, src),
        schedule,
        shutdown,
    )))
}

async fn poll_loop(
    engine: Arc<Engine>,
    job: Job,
    deliver: Deliver,
    name: String,
    health_path: std::path::PathBuf,
    schedule: Schedule,
    shutdown: CancellationToken,
) {
    let every = schedule.every;
    let mut breaker = Breaker::new(schedule.breaker_threshold, schedule.breaker_cool_off);
    let mut health = SourceHealth {
        name: name.clone(),
        ok: true,
        failures: 0,
        last_error: None,
        last_ok: None,
        items: 0,
    };
    loop {
        let now = Instant::now();
        let wait = if let Some(left) = breaker.remaining(now).filter(|_| !breaker.allow(now)) {
            left
        } else {
            let result = tokio::select! {
                _ = shutdown.cancelled() => break,
                r = job.poll(&deliver) => r,
            };
            let done = Instant::now();
            match result {
                Ok(n) => {
                    breaker.record(true, done);
                    health.ok = true;
                    health.failures = 0;
                    health.last_error = None;
                    health.last_ok = Some(crate::domain::now());
                    health.items += n;
                    every
                }
                Err(e) => {
                    breaker.record(false, done);
                    health.ok = false;
                    health.failures = breaker.failures();
                    let mut msg = e.to_string();
                    if breaker.state() == Circuit::Open {
                        msg.push_str(&format!(
                            " (circuit open after {} failures; next try in {}s)",
                            breaker.failures(),
                            schedule.breaker_cool_off.as_secs()
                        ));
                    }
                    tracing::warn!(source = %name, failures = health.failures, "{msg}");
                    health.last_error = Some(msg);
                    match breaker.remaining(done) {
                        Some(left) => left.max(e.retry_after().unwrap_or_default()),
                        None => next_delay(every, breaker.failures(), e.retry_after()),
                    }
                }
            }
        };
        publish(&engine, &health, &health_path).await;
        tokio::select! {
            _ = shutdown.cancelled() => break,
            _ = tokio::time::sleep(wait) => {}
        }
    }
}

async fn publish(engine: &Engine, health: &SourceHealth, path: &std::path::Path) {
    let unchanged = engine.health().iter().any(|h| h == health);
    if unchanged {
        return;
    }
    // The file first: whoever sees the announcement can already read it. Written on the
    // blocking pool (fsync must not stall an async worker).
    if let Ok(bytes) = serde_json::to_vec_pretty(health) {
        let path = path.to_path_buf();
        let written = tokio::task::spawn_blocking(move || {
            if let Some(dir) = path.parent() {
                crate::paths::ensure_private_dir(dir).map_err(|e| format!("{e:#}"))?;
            }
            crate::paths::write_atomic(&path, &bytes)
                .map_err(|e| format!("cannot write {}: {e}", path.display()))
        })
        .await;
        match written {
            Ok(Ok(())) => {}
            Ok(Err(e)) => tracing::warn!("{e}"),
            Err(e) => tracing::warn!("health write task failed: {e}"),
        }
    }
    engine.set_health(health.clone());
}
