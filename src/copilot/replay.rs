//! Replays of signed webhook requests. A signature proves a request came through GitHub, not
//! that it is new: the same signed bytes sent again (an attacker who saw one, or GitHub
//! retrying after a lost answer) must not act twice. Each verified request of an allowed user
//! is claimed here by the SHA-256 of its body before it is acted on:
//!
//! - the first claim runs the request; its answer is kept for [`ANSWER_WINDOW`];
//! - a replay within that window gets the first answer again (the same bytes, a retry that
//!   lost its answer is served), later on, or when the answer was not kept, a refusal; a
//!   replay never reaches the engine;
//! - a replay that arrives while the first is still running waits for the first's answer
//!   (two identical requests at the same time: one action).
//!
//! **Keyed by the body alone**, not by key id or signature: an ECDSA signature is malleable
//! (`(r, s)` and `(r, n − s)` both verify, and p256 accepts either), so anyone holding one
//! signed request could mint a second valid signature for it; and the same body signed again
//! (GitHub re-signing a retry, a key rotation) is still the same request. Copilot's bodies
//! carry the whole conversation and its thread id, so two different requests do not share a
//! body.
//!
//! **Windows and bounds.** Copilot gives up on an agent and retries within a few minutes;
//! [`ANSWER_WINDOW`] (10 minutes) covers that many times over (and `server.request_timeout_secs`
//! too). Seen bodies are remembered longer, up to [`SEEN_WINDOW`] (24 hours), while there is
//! room: at most [`MAX_ENTRIES`] bodies (about 150 bytes each) and [`MAX_ANSWER_BYTES`] of
//! answers in all, [`MAX_ONE_ANSWER`] each. Room is made by forgetting the oldest bodies seen
//! more than [`ANSWER_WINDOW`] ago; should that not be enough (more than [`MAX_ENTRIES`]
//! distinct requests within 10 minutes), a new request is refused (503) rather than letting
//! a replay through: the 10-minute guarantee holds under any load. Answers are dropped oldest
//! first when their bytes are over the bound (their replays are refused instead).
//!
//! The cache is in memory: a restart forgets it, and a replay after a restart is acted on.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::body::{Body, Bytes};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use sha2::{Digest as _, Sha256};
use tokio::sync::watch;

/// How long a first answer is kept to be sent again, and how long a seen body is surely
/// remembered.
pub const ANSWER_WINDOW: Duration = Duration::from_secs(10 * 60);
/// How long a seen body is remembered while there is room.
pub const SEEN_WINDOW: Duration = Duration::from_secs(24 * 60 * 60);
/// Bodies remembered at once.
pub const MAX_ENTRIES: usize = 16_384;
/// Bytes of kept answers in all.
pub const MAX_ANSWER_BYTES: usize = 8 * 1024 * 1024;
/// Largest single answer kept (a larger one is answered once; its replays are refused).
pub const MAX_ONE_ANSWER: usize = 256 * 1024;

type Digest = [u8; 32];

/// A finished answer as it went out: status, headers, body.
#[derive(Debug, Clone)]
pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub body: Bytes,
}

impl Answer {
    /// Take a response apart (its body is read whole: the webhook's answers are built in
    /// memory, never streamed from elsewhere). A body that cannot be read is an error answer.
    pub async fn of(resp: Response) -> Answer {
        let (parts, body) = resp.into_parts();
        match axum::body::to_bytes(body, usize::MAX).await {
            Ok(body) => Answer {
                status: parts.status,
                headers: parts.headers,
                body,
            },
            Err(e) => {
                tracing::error!("copilot webhook: the answer could not be read: {e}");
                Answer {
                    status: StatusCode::INTERNAL_SERVER_ERROR,
                    headers: HeaderMap::new(),
                    body: Bytes::from_static(
                        b"{\"error\":{\"code\":\"internal\",\"message\":\"the answer could not be built\"}}",
                    ),
                }
            }
        }
    }

    pub fn response(&self) -> Response {
        (
            self.status,
            self.headers.clone(),
            Body::from(self.body.clone()),
        )
            .into_response()
    }

    fn cost(&self) -> usize {
        self.body.len()
            + self
                .headers
                .iter()
                .map(|(k, v)| k.as_str().len() + v.len())
                .sum::<usize>()
    }
}

/// What a claim found.
pub enum Claim {
    /// A body not seen before: act on it, then [`Ticket::finish`].
    First(Ticket),
    /// Seen before.
    Replay(Replay),
    /// No room to remember one more body within [`ANSWER_WINDOW`]; wait this long.
    Full(Duration),
}

/// A body seen before, and what became of its first copy.
pub struct Replay {
    /// Short form of the body's hash for the audit trail (never the body).
    pub digest: String,
    /// How long ago the first copy arrived.
    pub age: Duration,
    /// Whether the first copy came from the same GitHub user.
    pub same_user: bool,
    first: Pending,
}

enum Pending {
    Waiting(watch::Receiver<Option<Arc<Answer>>>),
    Done(Option<Arc<Answer>>),
}

impl Replay {
    /// The first copy's answer, once it is done (waiting for it when it is still running).
    /// None when it was not kept: too large, too old, pushed out, or the first copy failed
    /// without one.
    pub async fn first_answer(self) -> Option<Arc<Answer>> {
        match self.first {
            Pending::Done(a) => a,
            Pending::Waiting(mut rx) => match rx.wait_for(Option::is_some).await {
                Ok(a) => a.clone(),
                // The first copy ended without an answer (its task panicked).
                Err(_) => None,
            },
        }
    }
}

/// The right to act on a body; its answer goes back in with [`Ticket::finish`]. Dropped
/// without finishing (a panic), the body stays claimed with no answer: its replays are refused,
/// never run.
pub struct Ticket {
    cache: Arc<Mutex<State>>,
    digest: Digest,
    tx: watch::Sender<Option<Arc<Answer>>>,
}

impl Ticket {
    /// Keep `answer` for the replays (when it fits) and hand it to those already waiting.
    pub fn finish(self, answer: Arc<Answer>) {
        {
            let mut st = lock(&self.cache);
            st.finish(&self.digest, Some(answer.clone()));
        }
        // Waiters hold receivers; none is fine.
        let _ = self.tx.send(Some(answer));
    }
}

impl Drop for Ticket {
    fn drop(&mut self) {
        if self.tx.borrow().is_none() {
            let mut st = lock(&self.cache);
            st.finish(&self.digest, None);
        }
    }
}

struct Entry {
    at: Instant,
    login: String,
    state: State0,
}

enum State0 {
    Running(watch::Receiver<Option<Arc<Answer>>>),
    Done(Option<Arc<Answer>>),
}

#[derive(Default)]
struct State {
    entries: HashMap<Digest, Entry>,
    /// Bodies by arrival, oldest first (arrival order is time order).
    seen: VecDeque<(Digest, Instant)>,
    /// Kept answers by their first copy's arrival, oldest first (near enough: a first copy that
    /// ran long may finish after a later one; it is then dropped a little late).
    answers: VecDeque<(Digest, Instant)>,
    answer_bytes: usize,
}

impl State {
    fn sweep(&mut self, now: Instant) {
        while let Some(&(_, at)) = self.seen.front() {
            if now.duration_since(at) < SEEN_WINDOW {
                break;
            }
            self.forget_oldest();
        }
        while let Some(&(_, at)) = self.answers.front() {
            if now.duration_since(at) < ANSWER_WINDOW {
                break;
            }
            self.drop_oldest_answer();
        }
    }

    fn forget_oldest(&mut self) {
        if let Some((d, at)) = self.seen.pop_front()
            && self.entries.get(&d).is_some_and(|e| e.at == at)
            && let Some(e) = self.entries.remove(&d)
            && let State0::Done(Some(a)) = e.state
        {
            self.answer_bytes -= a.cost();
        }
    }

    fn drop_oldest_answer(&mut self) {
        if let Some((d, _)) = self.answers.pop_front()
            && let Some(e) = self.entries.get_mut(&d)
            && let State0::Done(a @ Some(_)) = &mut e.state
            && let Some(a) = a.take()
        {
            self.answer_bytes -= a.cost();
        }
    }

    /// The first copy of `d` is done. Its answer is kept until [`ANSWER_WINDOW`] after the
    /// first copy arrived (so a slow first copy keeps it a little shorter, never longer).
    fn finish(&mut self, d: &Digest, answer: Option<Arc<Answer>>) {
        let Some(e) = self.entries.get_mut(d) else {
            return;
        };
        let at = e.at;
        if matches!(e.state, State0::Done(_)) {
            return;
        }
        let kept = answer.filter(|a| a.cost() <= MAX_ONE_ANSWER);
        let cost = kept.as_ref().map_or(0, |a| a.cost());
        e.state = State0::Done(kept);
        if cost == 0 {
            return;
        }
        self.answer_bytes += cost;
        self.answers.push_back((*d, at));
        while self.answer_bytes > MAX_ANSWER_BYTES && !self.answers.is_empty() {
            self.drop_oldest_answer();
        }
    }
}

fn lock(m: &Mutex<State>) -> std::sync::MutexGuard<'_, State> {
    // The state stays consistent between statements; a panic elsewhere does not poison it.
    m.lock().unwrap_or_else(|p| p.into_inner())
}

/// The cache. Cheap to share (`Arc` inside).
#[derive(Default, Clone)]
pub struct ReplayCache {
    state: Arc<Mutex<State>>,
}

impl ReplayCache {
    pub fn new() -> ReplayCache {
        ReplayCache::default()
    }

    /// Claim `body` (verified, of GitHub user `login`).
    pub fn claim(&self, body: &[u8], login: &str) -> Claim {
        self.claim_at(body, login, Instant::now())
    }

    fn claim_at(&self, body: &[u8], login: &str, now: Instant) -> Claim {
        let digest: Digest = Sha256::digest(body).into();
        let mut st = lock(&self.state);
        st.sweep(now);
        if let Some(e) = st.entries.get(&digest) {
            return Claim::Replay(Replay {
                digest: hex::encode(&digest[..6]),
                age: now.duration_since(e.at),
                same_user: e.login.eq_ignore_ascii_case(login),
                first: match &e.state {
                    State0::Running(rx) => Pending::Waiting(rx.clone()),
                    State0::Done(a) => Pending::Done(a.clone()),
                },
            });
        }
        while st.entries.len() >= MAX_ENTRIES {
            match st.seen.front() {
                Some(&(_, at)) if now.duration_since(at) >= ANSWER_WINDOW => st.forget_oldest(),
                Some(&(_, at)) => {
                    return Claim::Full(ANSWER_WINDOW.saturating_sub(now.duration_since(at)));
                }
                None => break,
            }
        }
        let (tx, rx) = watch::channel(None);
        st.entries.insert(
            digest,
            Entry {
                at: now,
                login: login.to_string(),
                state: State0::Running(rx),
            },
        );
        st.seen.push_back((digest, now));
        Claim::First(Ticket {
            cache: self.state.clone(),
            digest,
            tx,
        })
    }

    /// Bodies remembered and bytes of answers kept: the tests' view of the caps.
    #[cfg(test)]
    fn usage(&self) -> (usize, usize) {
        let st = lock(&self.state);
        (st.entries.len(), st.answer_bytes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn answer_of(body: &str) -> Arc<Answer> {
        Arc::new(Answer {
            status: StatusCode::OK,
            headers: HeaderMap::new(),
            body: Bytes::from(body.to_string()),
        })
    }

    fn first(c: &ReplayCache, body: &[u8], now: Instant) -> Ticket {
        match c.claim_at(body, "octo", now) {
            Claim::First(t) => t,
            _ => panic!("{body:?} was not new"),
        }
    }

    fn replay(c: &ReplayCache, body: &[u8], now: Instant) -> Replay {
        match c.claim_at(body, "octo", now) {
            Claim::Replay(r) => r,
            _ => panic!("{body:?} was not seen as a replay"),
        }
    }

    #[tokio::test]
    async fn a_replay_gets_the_first_answer_and_another_body_is_new() {
        let c = ReplayCache::new();
        let t0 = Instant::now();
        first(&c, b"a", t0).finish(answer_of("first"));
        let r = replay(&c, b"a", t0 + Duration::from_secs(5));
        assert_eq!(r.age, Duration::from_secs(5));
        assert!(r.same_user);
        assert_eq!(r.first_answer().await.unwrap().body, "first");
        // Another user replaying it is told apart (the webhook refuses that one).
        match c.claim_at(b"a", "mallory", t0) {
            Claim::Replay(r) => assert!(!r.same_user),
            _ => panic!("not a replay"),
        }
        first(&c, b"b", t0);
    }

    #[tokio::test]
    async fn a_replay_while_the_first_runs_waits_for_its_answer() {
        let c = ReplayCache::new();
        let t0 = Instant::now();
        let ticket = first(&c, b"a", t0);
        let waiting = tokio::spawn(replay(&c, b"a", t0).first_answer());
        tokio::task::yield_now().await;
        assert!(!waiting.is_finished(), "answered before the first finished");
        ticket.finish(answer_of("only once"));
        assert_eq!(waiting.await.unwrap().unwrap().body, "only once");
    }

    #[tokio::test]
    async fn a_first_copy_that_ends_without_an_answer_is_never_run_again() {
        let c = ReplayCache::new();
        let t0 = Instant::now();
        let ticket = first(&c, b"a", t0);
        let waiting = replay(&c, b"a", t0);
        drop(ticket);
        assert!(waiting.first_answer().await.is_none());
        assert!(replay(&c, b"a", t0).first_answer().await.is_none());
    }

    #[tokio::test]
    async fn answers_are_kept_for_the_answer_window_and_bodies_for_the_seen_window() {
        let c = ReplayCache::new();
        let t0 = Instant::now();
        first(&c, b"a", t0).finish(answer_of("x"));
        let just_in = t0 + ANSWER_WINDOW - Duration::from_secs(1);
        assert!(replay(&c, b"a", just_in).first_answer().await.is_some());
        // Past the answer window: still a replay, refused (no answer), never new.
        let r = replay(&c, b"a", t0 + ANSWER_WINDOW);
        assert!(r.first_answer().await.is_none());
        assert_eq!(c.usage().1, 0, "the answer's bytes were given back");
        replay(&c, b"a", t0 + SEEN_WINDOW - Duration::from_secs(1));
        // Past the seen window the body is forgotten.
        first(&c, b"a", t0 + SEEN_WINDOW);
    }

    #[tokio::test]
    async fn a_large_answer_is_not_kept_and_the_bytes_stay_bounded() {
        let c = ReplayCache::new();
        let t0 = Instant::now();
        first(&c, b"big", t0).finish(answer_of(&"x".repeat(MAX_ONE_ANSWER + 1)));
        assert!(replay(&c, b"big", t0).first_answer().await.is_none());
        // Answers of 200 kB each: the oldest go once the total is over the bound.
        let n = MAX_ANSWER_BYTES / 200_000 + 5;
        for i in 0..n {
            first(&c, format!("b{i}").as_bytes(), t0).finish(answer_of(&"y".repeat(200_000)));
            assert!(c.usage().1 <= MAX_ANSWER_BYTES);
        }
        assert!(replay(&c, b"b0", t0).first_answer().await.is_none());
        let last = format!("b{}", n - 1);
        assert!(
            replay(&c, last.as_bytes(), t0)
                .first_answer()
                .await
                .is_some()
        );
    }

    #[test]
    fn when_full_only_bodies_older_than_the_answer_window_make_room() {
        let c = ReplayCache::new();
        let t0 = Instant::now();
        for i in 0..MAX_ENTRIES {
            drop(first(&c, &(i as u64).to_le_bytes(), t0));
        }
        let soon = t0 + Duration::from_secs(60);
        match c.claim_at(b"one more", "octo", soon) {
            Claim::Full(wait) => assert_eq!(wait, ANSWER_WINDOW - Duration::from_secs(60)),
            _ => panic!("a body was forgotten within the answer window"),
        }
        // Once the oldest are past the answer window, one of them makes room.
        let later = t0 + ANSWER_WINDOW;
        first(&c, b"one more", later);
        assert_eq!(c.usage().0, MAX_ENTRIES);
        assert!(matches!(
            c.claim_at(&0u64.to_le_bytes(), "octo", later),
            Claim::First(_)
        ));
    }
}
