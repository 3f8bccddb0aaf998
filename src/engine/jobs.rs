//! The job runner for LLM work: named jobs (`triage`, `deadlines`, `draft`, `brief`) over
//! batches of inbox items, with bounded concurrency across all jobs of the engine (one
//! semaphore, so a local model is never asked for more than it can serve), cancellation, and
//! progress: each finished item updates the job's [`JobProgress`], which is announced as
//! `EngineEvent::JobProgress` (the console) and handed to the caller's callback (the CLI).
//!
//! A cancelled job stops taking items at once and drops the calls in flight (an HTTP request
//! that is dropped is aborted); what was finished stays recorded.

use std::collections::BTreeMap;
use std::future::Future;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use serde::Serialize;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;

use super::{Engine, EngineEvent};
use crate::assistant::JobKind;

/// LLM calls that may run at once in one engine, over all jobs.
pub const MAX_CONCURRENT: usize = 2;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, schemars::JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum JobState {
    Running,
    Finished,
    Cancelled,
}

/// Where a job is.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, schemars::JsonSchema)]
pub struct JobProgress {
    pub id: u64,
    pub job: JobKind,
    pub total: usize,
    /// Items finished (successfully or not).
    pub done: usize,
    /// Items whose work failed (the item's result says why).
    pub failed: usize,
    pub state: JobState,
}

impl JobProgress {
    /// `triage 3/10 (1 failed)`.
    pub fn line(&self) -> String {
        let mut s = format!("{} {}/{}", self.job, self.done, self.total);
        if self.failed > 0 {
            s.push_str(&format!(" ({} failed)", self.failed));
        }
        match self.state {
            JobState::Running => {}
            JobState::Finished => s.push_str(" done"),
            JobState::Cancelled => s.push_str(" cancelled"),
        }
        s
    }
}

pub(crate) struct JobRunner {
    permits: Arc<Semaphore>,
    next_id: AtomicU64,
    running: std::sync::Mutex<BTreeMap<u64, (JobProgress, CancellationToken)>>,
}

impl Default for JobRunner {
    fn default() -> Self {
        JobRunner {
            permits: Arc::new(Semaphore::new(MAX_CONCURRENT)),
            next_id: AtomicU64::new(1),
            running: Default::default(),
        }
    }
}

/// The result of one item: `Ok` when its work succeeded, `Err(why)` when it failed.
pub(crate) type ItemResult<T> = Result<T, String>;

/// What a batch did, item by item (in the order given; items never started are absent).
#[derive(Debug)]
pub struct BatchReport<T> {
    pub progress: JobProgress,
    pub items: Vec<(u64, ItemResult<T>)>,
}

impl Engine {
    /// The jobs running now.
    pub fn jobs(&self) -> Vec<JobProgress> {
        let r = self.jobs.running.lock().unwrap_or_else(|e| e.into_inner());
        r.values().map(|(p, _)| p.clone()).collect()
    }

    /// A permit of the engine's LLM bound, for LLM work outside a batch (the brief polish).
    pub async fn llm_permit(&self) -> Option<tokio::sync::OwnedSemaphorePermit> {
        self.jobs.permits.clone().acquire_owned().await.ok()
    }

    /// Cancel a running job; false when no such job runs.
    pub fn cancel_job(&self, id: u64) -> bool {
        let r = self.jobs.running.lock().unwrap_or_else(|e| e.into_inner());
        match r.get(&id) {
            Some((_, t)) => {
                t.cancel();
                true
            }
            None => false,
        }
    }

    /// Run `work` for each item of `items` as job `job`, at most [`MAX_CONCURRENT`] LLM
    /// calls at once engine-wide. `cancel` (optional) stops the job; `on_progress` is called
    /// after each item and at the end.
    pub async fn run_batch<T, F, Fut>(
        self: &Arc<Self>,
        job: JobKind,
        items: Vec<u64>,
        cancel: Option<CancellationToken>,
        on_progress: &(dyn Fn(&JobProgress) + Send + Sync),
        work: F,
    ) -> BatchReport<T>
    where
        T: Send + 'static,
        F: Fn(Arc<Engine>, u64) -> Fut,
        Fut: Future<Output = ItemResult<T>> + Send + 'static,
    {
        let token = cancel.unwrap_or_default();
        let id = self.jobs.next_id.fetch_add(1, Ordering::Relaxed);
        let mut progress = JobProgress {
            id,
            job,
            total: items.len(),
            done: 0,
            failed: 0,
            state: JobState::Running,
        };
        self.job_update(&progress, Some(&token));
        on_progress(&progress);
        let mut set = tokio::task::JoinSet::new();
        for (i, seq) in items.iter().copied().enumerate() {
            let permits = self.jobs.permits.clone();
            let token = token.clone();
            let fut = work(self.clone(), seq);
            set.spawn(async move {
                // Waiting for a permit and the work itself both give way to cancellation.
                let out = tokio::select! {
                    _ = token.cancelled() => None,
                    out = async {
                        let _permit = permits.acquire_owned().await.ok()?;
                        if token.is_cancelled() { return None; }
                        Some(fut.await)
                    } => out,
                };
                (i, seq, out)
            });
        }
        let mut results: Vec<(usize, u64, ItemResult<T>)> = Vec::new();
        while let Some(joined) = set.join_next().await {
            let (i, seq, out) = match joined {
                Ok(x) => x,
                Err(e) => {
                    // A panicking item is a failed item, not a lost batch.
                    tracing::error!("{job} item task failed: {e}");
                    progress.done += 1;
                    progress.failed += 1;
                    continue;
                }
            };
            let Some(out) = out else { continue };
            progress.done += 1;
            if out.is_err() {
                progress.failed += 1;
            }
            results.push((i, seq, out));
            self.job_update(&progress, None);
            on_progress(&progress);
        }
        progress.state = if token.is_cancelled() && progress.done < progress.total {
            JobState::Cancelled
        } else {
            JobState::Finished
        };
        self.job_update(&progress, None);
        on_progress(&progress);
        results.sort_by_key(|(i, _, _)| *i);
        BatchReport {
            progress,
            items: results.into_iter().map(|(_, s, r)| (s, r)).collect(),
        }
    }

    fn job_update(&self, p: &JobProgress, token: Option<&CancellationToken>) {
        {
            let mut r = self.jobs.running.lock().unwrap_or_else(|e| e.into_inner());
            if p.state == JobState::Running {
                match (r.get_mut(&p.id), token) {
                    (Some(e), _) => e.0 = p.clone(),
                    (None, Some(t)) => {
                        r.insert(p.id, (p.clone(), t.clone()));
                    }
                    (None, None) => {}
                }
            } else {
                r.remove(&p.id);
            }
        }
        self.announce(EngineEvent::JobProgress(Arc::new(p.clone())));
    }
}
