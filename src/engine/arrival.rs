//! The assistant on arrival (`[assistant] on_arrival`): newly ingested items are triaged and
//! their deadlines extracted by the job runner without anyone asking, exactly as `opsdesk
//! triage backfill` would (same jobs, same router path with its HIPAA filter and redaction,
//! same audit records, actor `assistant:<job>`), so the results show in the console, the CLI
//! and MCP like a manual run.
//!
//! Arrivals are coalesced: after the first new item the task gathers more for
//! `arrival_coalesce_ms` (or until `arrival_batch` are waiting), then runs one batch per job.
//! A burst (a spool file, a first sync) is a few batches, not one job per item. A lagging
//! event receiver loses no item: the task then reads the inbox after the highest seq it has
//! taken.

use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::broadcast::error::RecvError;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use super::{Engine, EngineEvent};
use crate::domain::Actor;

/// Start the arrival task when `[assistant] on_arrival` names a job; `None` when it is off.
/// Items already in the inbox when it starts are left to `opsdesk triage backfill`.
pub fn spawn(engine: Arc<Engine>, shutdown: CancellationToken) -> Option<JoinHandle<()>> {
    let cfg = engine.config().assistant.clone();
    if !cfg.triage_on_arrival() && !cfg.deadlines_on_arrival() {
        return None;
    }
    // Subscribed before the high-water mark is read: an item appended in between is seen
    // twice at worst (a set), never lost.
    let mut rx = engine.subscribe();
    let mut high = match engine.inbox.last_seq() {
        Ok(s) => s,
        Err(e) => {
            tracing::error!("assistant on arrival is off: the inbox cannot be read ({e})");
            return None;
        }
    };
    let max = cfg.arrival_batch.max(1);
    let window = Duration::from_millis(cfg.arrival_coalesce_ms);
    Some(tokio::spawn(async move {
        let mut pending: BTreeSet<u64> = BTreeSet::new();
        let mut lagged = false;
        'run: loop {
            if pending.is_empty() && !lagged {
                tokio::select! {
                    _ = shutdown.cancelled() => break 'run,
                    ev = rx.recv() => match ev {
                        Ok(EngineEvent::InboxAppended(r)) => { pending.insert(r.seq); }
                        Ok(_) => continue 'run,
                        Err(RecvError::Lagged(_)) => lagged = true,
                        Err(RecvError::Closed) => break 'run,
                    },
                }
            }
            let until = tokio::time::Instant::now() + window;
            while pending.len() < max && !lagged {
                tokio::select! {
                    _ = shutdown.cancelled() => break 'run,
                    _ = tokio::time::sleep_until(until) => break,
                    ev = rx.recv() => match ev {
                        Ok(EngineEvent::InboxAppended(r)) => { pending.insert(r.seq); }
                        Ok(_) => {}
                        Err(RecvError::Lagged(_)) => lagged = true,
                        Err(RecvError::Closed) => break,
                    },
                }
            }
            if lagged {
                match engine.inbox.read_after(high, max, &Default::default()) {
                    Ok(b) => {
                        pending.extend(b.records.iter().map(|r| r.seq));
                        // Read to the end: the lag is over.
                        lagged = b.records.len() >= max;
                    }
                    Err(e) => {
                        tracing::warn!("assistant on arrival: cannot read the inbox ({e})");
                        lagged = false;
                    }
                }
            }
            let batch: Vec<u64> = {
                let take: Vec<u64> = pending.iter().copied().take(max).collect();
                for s in &take {
                    pending.remove(s);
                }
                take
            };
            let Some(&last) = batch.last() else { continue };
            high = high.max(last);
            engine.arrival_batch(batch, shutdown.child_token()).await;
            if shutdown.is_cancelled() {
                break;
            }
        }
    }))
}

impl Engine {
    /// Run the arrival jobs over `seqs`. Failures are per item and already audited by the
    /// jobs; a store that cannot be read is logged and the batch skipped.
    async fn arrival_batch(self: &Arc<Self>, seqs: Vec<u64>, cancel: CancellationToken) {
        let cfg = &self.config.assistant;
        let use_model = cfg.arrival_use_model;
        let quiet = |_: &super::jobs::JobProgress| {};
        if cfg.triage_on_arrival() {
            // The operator (or an earlier run) may have triaged an item already.
            let todo: Vec<u64> = seqs
                .iter()
                .copied()
                .filter(|s| matches!(self.assistant.triage_of(*s), Ok(None)))
                .collect();
            if !todo.is_empty() {
                let actor = Actor::Assistant("triage".into());
                let r = self
                    .triage_batch(todo, actor, use_model, Some(cancel.clone()), &quiet)
                    .await;
                log_failures("triage", &r.items);
            }
        }
        if cfg.deadlines_on_arrival() && !cancel.is_cancelled() {
            let actor = Actor::Assistant("deadlines".into());
            let r = self
                .deadlines_batch(seqs, actor, use_model, Some(cancel), &quiet)
                .await;
            log_failures("deadlines", &r.items);
        }
    }
}

fn log_failures<T>(job: &str, items: &[(u64, Result<T, String>)]) {
    for (seq, r) in items {
        if let Err(e) = r {
            tracing::warn!("assistant on arrival: {job} of seq {seq} failed: {e}");
        }
    }
}
