//! The one poll loop every source runs in (spool, demo, each Graph source of each profile) and
//! its rules: the next wait (interval, exponential backoff, a server's `Retry-After`) and a
//! circuit breaker. The rules are pure and clock-free (the caller passes `now`), so they are
//! tested without waiting. A source reports through [`SourceHost`] (which the engine
//! implements), so sources never depend on the engine.

use std::future::Future;
use std::path::PathBuf;
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::Serialize;
use tokio_util::sync::CancellationToken;

use crate::domain::NewMessage;
use crate::store::inbox::Appended;

/// Health of one running source, as the status tool and the console show it.
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

/// What sources report to: ingestion under a source name, and health. The engine implements it.
pub trait SourceHost: Send + Sync {
    /// Sanitize, append durably, announce; see [`super::Sink`].
    fn ingest_from(&self, msg: NewMessage, source: &str) -> Result<Appended, super::IngestFailure>;
    /// Record and announce a source's health.
    fn report(&self, health: SourceHealth);
    /// The health of every running source.
    fn healths(&self) -> Vec<SourceHealth>;
    /// Whether an item with this source id is already in the inbox (a re-polled message's
    /// attachments are then not fetched again).
    fn has_item(&self, _id: &str) -> bool {
        false
    }
    /// Where sources put inbound attachments' bytes; none: attachments are not taken in.
    fn attachment_store(&self) -> Option<crate::store::attachments::AttachmentStore> {
        None
    }
}

/// A failed poll: what to show, and how long the far side asked us to wait.
#[derive(Debug, Clone)]
pub(crate) struct PollError {
    pub message: String,
    pub retry_after: Option<Duration>,
}

impl From<anyhow::Error> for PollError {
    fn from(e: anyhow::Error) -> PollError {
        PollError {
            message: format!("{e:#}"),
            retry_after: None,
        }
    }
}

/// How one poller is scheduled.
#[derive(Debug, Clone, Copy)]
pub struct Schedule {
    pub every: Duration,
    pub breaker_threshold: u32,
    pub breaker_cool_off: Duration,
}

/// Consecutive failures that open the circuit.
pub(crate) const BREAKER_THRESHOLD: u32 = 5;
/// How long an open circuit leaves the source alone.
pub(crate) const BREAKER_COOL_OFF: Duration = Duration::from_secs(300);

impl Schedule {
    pub fn every(every: Duration) -> Schedule {
        Schedule {
            every,
            breaker_threshold: BREAKER_THRESHOLD,
            breaker_cool_off: BREAKER_COOL_OFF,
        }
    }
}

/// Run `poll` on `schedule` until `shutdown`: the interval while healthy, backoff (never less
/// than a `Retry-After`) while failing, the breaker after repeated failures. Health changes go
/// to `host` and, when given, first to `health_file` (for `opsdesk doctor` in another process;
/// written on the blocking pool).
pub(crate) async fn run_loop<F, Fut>(
    host: Arc<dyn SourceHost>,
    name: String,
    schedule: Schedule,
    health_file: Option<PathBuf>,
    shutdown: CancellationToken,
    mut poll: F,
) where
    F: FnMut() -> Fut + Send,
    Fut: Future<Output = Result<u64, PollError>> + Send,
{
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
                r = poll() => r,
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
                    if n > 0 {
                        // Storing a batch freed its parse buffers: give the pages back now.
                        crate::release_memory();
                    }
                    every
                }
                Err(e) => {
                    breaker.record(false, done);
                    health.ok = false;
                    health.failures = breaker.failures();
                    let mut msg = e.message;
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
                        Some(left) => left.max(e.retry_after.unwrap_or_default()),
                        None => next_delay(every, breaker.failures(), e.retry_after),
                    }
                }
            }
        };
        publish(host.as_ref(), &health, health_file.as_ref()).await;
        tokio::select! {
            _ = shutdown.cancelled() => break,
            _ = tokio::time::sleep(wait) => {}
        }
    }
}

async fn publish(host: &dyn SourceHost, health: &SourceHealth, file: Option<&PathBuf>) {
    if host.healths().iter().any(|h| h == health) {
        return;
    }
    // The file first: whoever sees the announcement can already read it.
    if let Some(path) = file
        && let Ok(bytes) = serde_json::to_vec_pretty(health)
    {
        let path = path.clone();
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
    host.report(health.clone());
}

/// Longest wait between polls of a failing source.
pub(crate) const MAX_BACKOFF: Duration = Duration::from_secs(300);

/// How long to wait before the next poll: the interval when healthy, doubling per consecutive
/// failure (capped), and never less than what a 429 asked for.
pub fn next_delay(every: Duration, failures: u32, retry_after: Option<Duration>) -> Duration {
    let base = if failures == 0 {
        every
    } else {
        every
            .saturating_mul(1u32 << failures.min(16))
            .min(MAX_BACKOFF.max(every))
    };
    match retry_after {
        Some(ra) => base.max(ra),
        None => base,
    }
}

/// State of a [`Breaker`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Circuit {
    /// Calls go through.
    Closed,
    /// Calls are refused until the cool-off ends.
    Open,
    /// One trial call is allowed; its result closes or re-opens the circuit.
    HalfOpen,
}

/// A circuit breaker: after `threshold` consecutive failures the source is left alone for
/// `cool_off` (so a dead service or a revoked login is not hammered), then one trial decides.
#[derive(Debug, Clone)]
pub(crate) struct Breaker {
    threshold: u32,
    cool_off: Duration,
    failures: u32,
    state: Circuit,
    open_until: Option<Instant>,
}

impl Breaker {
    pub fn new(threshold: u32, cool_off: Duration) -> Breaker {
        Breaker {
            threshold: threshold.max(1),
            cool_off,
            failures: 0,
            state: Circuit::Closed,
            open_until: None,
        }
    }

    /// Whether a call may go out at `now` (moves an expired open circuit to half-open).
    pub fn allow(&mut self, now: Instant) -> bool {
        match self.state {
            Circuit::Closed | Circuit::HalfOpen => true,
            Circuit::Open => {
                if self.open_until.is_some_and(|t| now >= t) {
                    self.state = Circuit::HalfOpen;
                    true
                } else {
                    false
                }
            }
        }
    }

    /// Record the result of a call made at `now`.
    pub fn record(&mut self, ok: bool, now: Instant) {
        if ok {
            self.failures = 0;
            self.state = Circuit::Closed;
            self.open_until = None;
            return;
        }
        self.failures = self.failures.saturating_add(1);
        if self.state == Circuit::HalfOpen || self.failures >= self.threshold {
            self.state = Circuit::Open;
            self.open_until = Some(now + self.cool_off);
        }
    }

    pub fn state(&self) -> Circuit {
        self.state
    }

    pub fn failures(&self) -> u32 {
        self.failures
    }

    /// Time left until an open circuit lets a trial through.
    pub fn remaining(&self, now: Instant) -> Option<Duration> {
        match self.state {
            Circuit::Open => self.open_until.map(|t| t.saturating_duration_since(now)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn delay_backs_off_and_honours_retry_after() {
        let s = Duration::from_secs(5);
        assert_eq!(next_delay(s, 0, None), s);
        assert_eq!(next_delay(s, 2, None), Duration::from_secs(20));
        assert_eq!(next_delay(s, 40, None), MAX_BACKOFF);
        assert_eq!(
            next_delay(s, 0, Some(Duration::from_secs(42))),
            Duration::from_secs(42)
        );
        assert_eq!(next_delay(s, 0, Some(Duration::from_secs(1))), s);
    }

    #[test]
    fn breaker_opens_after_threshold_then_half_opens_after_cool_off() {
        let t0 = Instant::now();
        let mut b = Breaker::new(3, Duration::from_secs(60));
        for _ in 0..2 {
            assert!(b.allow(t0));
            b.record(false, t0);
            assert_eq!(b.state(), Circuit::Closed);
        }
        b.record(false, t0);
        assert_eq!(b.state(), Circuit::Open);
        assert!(!b.allow(t0 + Duration::from_secs(59)));
        assert!(b.allow(t0 + Duration::from_secs(60)));
        assert_eq!(b.state(), Circuit::HalfOpen);
        // A failed trial re-opens at once.
        b.record(false, t0 + Duration::from_secs(60));
        assert_eq!(b.state(), Circuit::Open);
        assert!(b.allow(t0 + Duration::from_secs(120)));
        b.record(true, t0 + Duration::from_secs(120));
        assert_eq!(b.state(), Circuit::Closed);
        assert_eq!(b.failures(), 0);
    }
}
