//! Scheduling of the Graph pollers: one task per (profile, source), each in the shared poll loop
//! (`sources::poller::run_loop`: interval, backoff, `Retry-After`, circuit breaker), reporting
//! through [`SourceHost`] (status tool, console status bar) and to
//! `graph/<profile>/health-<source>.json` for `opsdesk doctor`, which runs in another process.

use std::sync::Arc;
use std::time::Duration;

use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::calendar::CalendarSync;
use super::client::GraphError;
use super::mail::MailSync;
use super::teams::TeamsSync;
use super::{Account, Deliver};
use crate::config::{Config, SourceKind};
pub use crate::sources::poller::Schedule;
use crate::sources::poller::{PollError, SourceHost, run_loop};
use crate::store::inbox::Appended;

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
pub(crate) fn health_file(account_dir: &std::path::Path, source: SourceKind) -> std::path::PathBuf {
    account_dir.join(format!("health-{source}.json"))
}

/// Start a poller for every Graph source of every profile.
pub fn spawn_all(
    host: Arc<dyn SourceHost>,
    config: &Config,
    accounts: &std::collections::BTreeMap<String, Arc<Account>>,
    shutdown: CancellationToken,
) -> Vec<JoinHandle<()>> {
    let mut tasks = Vec::new();
    for (name, profile) in &config.profiles {
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
                host.clone(),
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
    host: Arc<dyn SourceHost>,
    account: Arc<Account>,
    src: SourceKind,
    schedule: Schedule,
    shutdown: CancellationToken,
) -> Option<JoinHandle<()>> {
    let job = match src {
        SourceKind::GraphMail => Job::Mail(match host.attachment_store() {
            Some(store) => MailSync::new(account.clone()).with_attachments(store, host.clone()),
            None => MailSync::new(account.clone()),
        }),
        SourceKind::GraphTeams => Job::Teams(TeamsSync::new(account.clone())),
        SourceKind::GraphCalendar => Job::Calendar(CalendarSync::new(account.clone())),
        _ => return None,
    };
    let health_name = format!("{src}:{}", account.profile);
    let h = host.clone();
    let source_name = health_name.clone();
    let deliver: Deliver =
        Arc::new(move |m| Ok(matches!(h.ingest_from(m, &source_name)?, Appended::New(_))));
    let job = Arc::new(job);
    Some(tokio::spawn(run_loop(
        host,
        health_name,
        schedule,
        Some(health_file(&account.state_dir, src)),
        shutdown,
        move || {
            let (job, deliver) = (job.clone(), deliver.clone());
            async move {
                job.poll(&deliver).await.map_err(|e| PollError {
                    retry_after: e.retry_after(),
                    message: e.to_string(),
                })
            }
        },
    )))
}
