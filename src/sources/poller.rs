//! Scheduling rules shared by network pollers: the next wait (interval, exponential backoff,
//! a server's `Retry-After`) and a circuit breaker. Pure and clock-free (the caller passes
//! `now`), so the rules are tested without waiting.

use std::time::{Duration, Instant};

/// Longest wait between polls of a failing source.
pub const MAX_BACKOFF: Duration = Duration::from_secs(300);

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
pub enum Circuit {
    /// Calls go through.
    Closed,
    /// Calls are refused until the cool-off ends.
    Open,
    /// One trial call is allowed; its result closes or re-opens the circuit.
    HalfOpen,
}

impl Circuit {
    pub fn as_str(self) -> &'static str {
        match self {
            Circuit::Closed => "closed",
            Circuit::Open => "open",
            Circuit::HalfOpen => "half_open",
        }
    }
}

/// A circuit breaker: after `threshold` consecutive failures the source is left alone for
/// `cool_off` (so a dead service or a revoked login is not hammered), then one trial decides.
#[derive(Debug, Clone)]
pub struct Breaker {
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
