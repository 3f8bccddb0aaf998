//! Work deferred to a background thread and batched: callers `request` it, and the thread
//! runs `flush` once per window for everything requested meanwhile. Used for the audit
//! trail's deferred fsyncs, the assistant store's model results and lazily saved inbox cursors.

use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

/// What a flush reports: `Err` asks for another try after `RETRY_AFTER`.
pub type FlushResult = Result<(), String>;

/// Pause before a failed flush is tried again.
const RETRY_AFTER: Duration = Duration::from_secs(1);

pub(crate) struct Later {
    name: &'static str,
    window: Duration,
    state: Mutex<State>,
    wake: Condvar,
    thread: Mutex<Option<JoinHandle<()>>>,
}

#[derive(Default)]
struct State {
    requested: bool,
    stop: bool,
}

impl Later {
    pub(crate) fn new(name: &'static str, window: Duration) -> Later {
        Later {
            name,
            window,
            state: Mutex::new(State::default()),
            wake: Condvar::new(),
            thread: Mutex::new(None),
        }
    }

    /// Ask for a flush within the window. The first request starts the thread; it keeps the
    /// owner alive until whoever owns the owner calls `stop` (the inbox or audit trail going
    /// away), then flushes what is left itself.
    pub(crate) fn request<O: Send + Sync + 'static>(
        &self,
        owner: &Arc<O>,
        this: fn(&O) -> &Later,
        flush: fn(&O) -> FlushResult,
    ) -> Result<(), String> {
        let already = std::mem::replace(
            &mut self
                .state
                .lock()
                .unwrap_or_else(|p| p.into_inner())
                .requested,
            true,
        );
        // A request still pending was notified when it was made, and the thread takes it at
        // its next wait: no wake-up (a futex call) per request, only one per window.
        if !already {
            self.wake.notify_one();
        }
        let mut t = self.thread.lock().unwrap_or_else(|p| p.into_inner());
        if t.is_none() {
            let owner = Arc::clone(owner);
            let handle = std::thread::Builder::new()
                .name(self.name.into())
                .spawn(move || {
                    let later = this(&owner);
                    while later.wait() {
                        // Let more requests join this flush.
                        std::thread::sleep(later.window);
                        if let Err(e) = flush(&owner) {
                            tracing::error!("{} (retrying): {e}", later.name);
                            std::thread::sleep(RETRY_AFTER);
                            later
                                .state
                                .lock()
                                .unwrap_or_else(|p| p.into_inner())
                                .requested = true;
                        }
                    }
                })
                .map_err(|e| format!("cannot start the {} thread: {e}", self.name))?;
            *t = Some(handle);
        }
        Ok(())
    }

    /// Stop the thread (after a flush it is in the middle of). What is still pending is the
    /// caller's to flush.
    pub(crate) fn stop(&self) {
        self.state.lock().unwrap_or_else(|p| p.into_inner()).stop = true;
        self.wake.notify_all();
        if let Some(t) = self.thread.lock().unwrap_or_else(|p| p.into_inner()).take() {
            let _ = t.join();
        }
    }

    /// Wait for a request; false once stopped.
    fn wait(&self) -> bool {
        let mut s = self.state.lock().unwrap_or_else(|p| p.into_inner());
        while !s.requested && !s.stop {
            s = self.wake.wait(s).unwrap_or_else(|p| p.into_inner());
        }
        s.requested = false;
        !s.stop
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicI32, AtomicU32, Ordering};

    struct Owner {
        later: Later,
        flushes: AtomicU32,
        fail_first: AtomicI32,
    }

    fn flush(o: &Owner) -> FlushResult {
        o.flushes.fetch_add(1, Ordering::SeqCst);
        if o.fail_first.fetch_sub(1, Ordering::SeqCst) > 0 {
            return Err("disk unhappy".into());
        }
        Ok(())
    }

    fn wait_for(mut cond: impl FnMut() -> bool) {
        let deadline = std::time::Instant::now() + Duration::from_secs(10);
        while !cond() {
            assert!(
                std::time::Instant::now() < deadline,
                "condition not met in 10 s"
            );
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    #[test]
    fn requests_in_one_window_share_a_flush_and_a_failed_flush_is_tried_again() {
        let o = Arc::new(Owner {
            // A window much longer than 50 requests take even on a loaded machine, so they
            // cannot straddle two windows.
            later: Later::new("test-later", Duration::from_millis(1000)),
            flushes: AtomicU32::new(0),
            fail_first: AtomicI32::new(0),
        });
        for _ in 0..50 {
            o.later.request(&o, |o| &o.later, flush).unwrap();
        }
        wait_for(|| o.flushes.load(Ordering::SeqCst) >= 1);
        std::thread::sleep(Duration::from_millis(300));
        assert_eq!(o.flushes.load(Ordering::SeqCst), 1, "one window, one flush");

        o.fail_first.store(1, Ordering::SeqCst);
        o.later.request(&o, |o| &o.later, flush).unwrap();
        wait_for(|| o.flushes.load(Ordering::SeqCst) >= 3);
        o.later.stop();
    }
}
