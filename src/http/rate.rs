//! Per-client token buckets: a sustained rate and a burst, keyed by whatever the surface calls a
//! client (a token's client name, a peer address).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Token buckets per client key.
pub struct RateLimiter {
    per_sec: f64,
    burst: f64,
    buckets: Mutex<HashMap<String, Bucket>>,
}

struct Bucket {
    tokens: f64,
    last: Instant,
}

impl RateLimiter {
    /// `per_minute` sustained, `burst` at once.
    pub fn per_minute(per_minute: u32, burst: u32) -> Self {
        Self::with_rate(per_minute.max(1) as f64 / 60.0, burst)
    }

    pub fn new(per_sec: u32, burst: u32) -> Self {
        Self::with_rate(per_sec.max(1) as f64, burst)
    }

    fn with_rate(per_sec: f64, burst: u32) -> Self {
        RateLimiter {
            per_sec,
            burst: burst.max(1) as f64,
            buckets: Mutex::new(HashMap::new()),
        }
    }

    /// Take one token, or say how long until one is available.
    pub fn check(&self, key: &str) -> Result<(), Duration> {
        let now = Instant::now();
        let mut buckets = self.buckets.lock().unwrap_or_else(|e| e.into_inner());
        if buckets.len() > 4096 {
            // Forget clients idle long enough to have refilled completely.
            let full = Duration::from_secs_f64(self.burst / self.per_sec);
            buckets.retain(|_, b| now.duration_since(b.last) < full);
        }
        let b = buckets.entry(key.to_string()).or_insert(Bucket {
            tokens: self.burst,
            last: now,
        });
        b.tokens =
            (b.tokens + now.duration_since(b.last).as_secs_f64() * self.per_sec).min(self.burst);
        b.last = now;
        if b.tokens >= 1.0 {
            b.tokens -= 1.0;
            Ok(())
        } else {
            Err(Duration::from_secs_f64((1.0 - b.tokens) / self.per_sec))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bucket_allows_the_burst_then_refuses_with_a_wait() {
        let l = RateLimiter::new(1, 3);
        assert!(l.check("a").is_ok());
        assert!(l.check("a").is_ok());
        assert!(l.check("a").is_ok());
        let wait = l.check("a").unwrap_err();
        assert!(wait > Duration::from_millis(500) && wait <= Duration::from_secs(1));
        // Another client has its own bucket.
        assert!(l.check("b").is_ok());
    }
}
