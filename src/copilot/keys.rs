//! GitHub's signature on Copilot Extension requests: an ECDSA P-256 / SHA-256 signature (DER,
//! base64, header `Github-Public-Key-Signature`) over the raw body, made with the key named by
//! `Github-Public-Key-Identifier`. The keys are the ones GitHub publishes
//! (`{"public_keys": [{"key_identifier", "key", "is_current"}]}`, PEM SubjectPublicKeyInfo).
//!
//! A fetched list lives `keys_cache_secs` (its lifetime); a key the newest list no longer
//! carries (retired, expired) is refused. The list is fetched again once half its lifetime is
//! over, so a GitHub outage shorter than that half costs nothing: a failed fetch keeps the last
//! good list until its lifetime ends, and only then is nothing verifiable (503).
//!
//! Fetches are rate-limited while they fail: after a failure the next one waits
//! [`BACKOFF_START`], doubling per consecutive failure up to [`BACKOFF_MAX`]. Requests in
//! between are answered from what is cached (or refused) without asking GitHub, so a flood of
//! well-formed requests during an outage cannot turn opsdesk into a request pump; the webhook
//! counts each request it could not verify toward the peer's failure allowance.
//!
//! An unknown key id fetches the list once more (GitHub rotated), at most once per
//! `keys_refresh_min_secs` and never during a backoff, so forged ids cannot pump either.
//! `is_current` only marks the key GitHub signs new requests with; older listed keys stay valid
//! during a rotation, as in GitHub's own SDK.

use std::collections::HashMap;
use std::future::Future;
use std::pin::Pin;
use std::sync::Arc;
use std::time::{Duration, Instant};

use base64::Engine as _;
use p256::ecdsa::signature::Verifier;
use p256::ecdsa::{Signature, VerifyingKey};
use p256::pkcs8::DecodePublicKey;
use serde::Deserialize;

use crate::config::CopilotExtensionConfig;

/// Largest key list accepted (GitHub's is a few hundred bytes).
const MAX_KEYS_BODY: usize = 64 * 1024;
/// Longest key id or signature header considered at all.
const MAX_HEADER: usize = 512;
/// Wait after a first failed fetch of the key list; it doubles with each further failure.
/// Short enough that a blip (one failed connection) is over within a GitHub retry.
pub const BACKOFF_START: Duration = Duration::from_secs(5);
/// Longest wait between fetches while they fail: at most 12 fetches an hour during an outage,
/// and a recovered GitHub is noticed within 5 minutes.
pub const BACKOFF_MAX: Duration = Duration::from_secs(300);

/// Why a request's signature was not accepted. Names only: never header values or the body.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Refusal {
    #[error("the `{0}` header is missing")]
    Missing(&'static str),
    #[error("the `{0}` header is malformed")]
    Malformed(&'static str),
    #[error("the key id is not among GitHub's published Copilot keys")]
    UnknownKey,
    #[error("the signature does not match the body")]
    BadSignature,
    /// GitHub's key list could not be fetched: nothing can be verified (503, not 401).
    #[error("GitHub's Copilot keys could not be fetched: {0}")]
    KeysUnavailable(String),
}

impl Refusal {
    /// Short code for the JSON error and the audit trail.
    pub fn code(&self) -> &'static str {
        match self {
            Refusal::Missing(_) => "signature_missing",
            Refusal::Malformed(_) => "signature_malformed",
            Refusal::UnknownKey => "unknown_key",
            Refusal::BadSignature => "bad_signature",
            Refusal::KeysUnavailable(_) => "keys_unavailable",
        }
    }
}

#[derive(Deserialize)]
struct KeyList {
    public_keys: Vec<PublishedKey>,
}

#[derive(Deserialize)]
struct PublishedKey {
    key_identifier: String,
    key: String,
    #[serde(default)]
    #[allow(dead_code)] // documented field; see the module comment for why it decides nothing
    is_current: bool,
}

#[derive(Default)]
struct Cache {
    /// The last good list; empty once its lifetime is over.
    keys: HashMap<String, VerifyingKey>,
    /// When the last good list was fetched.
    fetched: Option<Instant>,
    /// Last fetch caused by an unknown key id.
    forced: Option<Instant>,
    /// Fetches that failed in a row (0 after a good one).
    failures: u32,
    /// While failing: no fetch before this.
    next_fetch: Option<Instant>,
    /// Why the last fetch failed (for the refusals made without fetching).
    last_error: String,
}

impl Cache {
    fn may_fetch(&self, now: Instant) -> bool {
        self.next_fetch.is_none_or(|t| now >= t)
    }
}

/// The wait after `failures` failed fetches in a row (1 → [`BACKOFF_START`]).
pub fn backoff(failures: u32) -> Duration {
    let doublings = failures.saturating_sub(1).min(16);
    BACKOFF_START
        .saturating_mul(1u32 << doublings)
        .min(BACKOFF_MAX)
}

/// A fetch of the published key list: the keys, or why there are none.
type Fetched = Result<HashMap<String, VerifyingKey>, String>;

/// Where the key list comes from: GitHub's endpoint over HTTP ([`HttpKeys`]); in tests, a
/// list in memory that can be taken down.
trait KeySource: Send + Sync {
    fn fetch(&self) -> Pin<Box<dyn Future<Output = Fetched> + Send + '_>>;
}

/// The cache's clock. Injected so the lifetime, refresh and backoff rules are tested by moving
/// time, not by waiting for it.
type Clock = Arc<dyn Fn() -> Instant + Send + Sync>;

/// The cached key list and the verification against it.
pub struct KeyStore {
    source: Box<dyn KeySource>,
    clock: Clock,
    ttl: Duration,
    min_refresh: Duration,
    cache: tokio::sync::Mutex<Cache>,
}

impl KeyStore {
    pub fn new(c: &CopilotExtensionConfig) -> anyhow::Result<KeyStore> {
        let http = crate::net::client_builder()
            .timeout(Duration::from_secs(10))
            .redirect(reqwest::redirect::Policy::none())
            .user_agent(concat!("opsdesk/", env!("CARGO_PKG_VERSION")))
            .build()?;
        let source = HttpKeys {
            url: c.keys_url.clone(),
            http,
        };
        Ok(KeyStore::with_parts(
            Box::new(source),
            Arc::new(Instant::now),
            Duration::from_secs(c.keys_cache_secs),
            Duration::from_secs(c.keys_refresh_min_secs),
        ))
    }

    fn with_parts(
        source: Box<dyn KeySource>,
        clock: Clock,
        ttl: Duration,
        min_refresh: Duration,
    ) -> KeyStore {
        KeyStore {
            source,
            clock,
            ttl,
            min_refresh,
            cache: tokio::sync::Mutex::new(Cache::default()),
        }
    }

    /// Check `signature` (base64 DER) by key `key_id` over `body`.
    pub async fn verify(
        &self,
        key_id: Option<&[u8]>,
        signature: Option<&[u8]>,
        body: &[u8],
    ) -> Result<(), Refusal> {
        const KEY_ID: &str = "Github-Public-Key-Identifier";
        const SIG: &str = "Github-Public-Key-Signature";
        let key_id = header_text(key_id, KEY_ID)?;
        let signature = header_text(signature, SIG)?;
        let der = base64::engine::general_purpose::STANDARD
            .decode(signature)
            .map_err(|_| Refusal::Malformed(SIG))?;
        let sig = Signature::from_der(&der).map_err(|_| Refusal::Malformed(SIG))?;
        let key = self.key(key_id).await?;
        key.verify(body, &sig).map_err(|_| Refusal::BadSignature)
    }

    async fn key(&self, id: &str) -> Result<VerifyingKey, Refusal> {
        // Held across a fetch: concurrent requests wait for it and then see its result (the
        // new list, or the failure and its backoff) instead of fetching again.
        let mut c = self.cache.lock().await;
        let now = (self.clock)();
        let age = c.fetched.map(|t| now.duration_since(t));
        let live = age.is_some_and(|a| a < self.ttl);
        if !live {
            // Its lifetime is over: keys are trusted only while GitHub vouched for them
            // within the cache time.
            c.keys.clear();
        }
        let refresh_due = age.is_none_or(|a| a >= self.ttl / 2);
        let mut fetched_now = false;
        if refresh_due && c.may_fetch(now) {
            fetched_now = true;
            if let Err(e) = self.fetch(&mut c).await
                && !live
            {
                return Err(e);
            }
        } else if !live {
            return Err(Refusal::KeysUnavailable(self.waiting(&c, now)));
        }
        if let Some(k) = c.keys.get(id) {
            return Ok(*k);
        }
        let recently_forced = c
            .forced
            .is_some_and(|t| now.duration_since(t) < self.min_refresh);
        if fetched_now || recently_forced || !c.may_fetch(now) {
            return Err(Refusal::UnknownKey);
        }
        c.forced = Some(now);
        self.fetch(&mut c).await?;
        c.keys.get(id).copied().ok_or(Refusal::UnknownKey)
    }

    /// The refusal text while no fetch may be made.
    fn waiting(&self, c: &Cache, now: Instant) -> String {
        let wait = c
            .next_fetch
            .map(|t| t.saturating_duration_since(now).as_secs_f64().ceil() as u64)
            .unwrap_or(0);
        format!(
            "{} (next attempt in {wait} s)",
            if c.last_error.is_empty() {
                "not fetched yet"
            } else {
                &c.last_error
            }
        )
    }

    /// Replace the cache with the published list. On failure the last good list stays (the
    /// caller drops it when its lifetime is over) and the next fetch waits out the backoff.
    async fn fetch(&self, c: &mut Cache) -> Result<(), Refusal> {
        let result = self.source.fetch().await;
        // After the fetch: a slow answer counts from when it arrived.
        let now = (self.clock)();
        match result {
            Ok(keys) => {
                c.keys = keys;
                c.fetched = Some(now);
                c.failures = 0;
                c.next_fetch = None;
                c.last_error.clear();
                Ok(())
            }
            Err(e) => {
                c.failures = c.failures.saturating_add(1);
                let wait = backoff(c.failures);
                c.next_fetch = Some(now + wait);
                tracing::warn!(
                    failures = c.failures,
                    next_attempt_secs = wait.as_secs(),
                    "copilot webhook: {e}"
                );
                c.last_error = e.clone();
                Err(Refusal::KeysUnavailable(e))
            }
        }
    }
}

/// GitHub's published key list, fetched over HTTPS.
struct HttpKeys {
    url: String,
    http: reqwest::Client,
}

impl KeySource for HttpKeys {
    fn fetch(&self) -> Pin<Box<dyn Future<Output = Fetched> + Send + '_>> {
        Box::pin(self.fetch_list())
    }
}

impl HttpKeys {
    async fn fetch_list(&self) -> Result<HashMap<String, VerifyingKey>, String> {
        let resp = self
            .http
            .get(&self.url)
            .header(reqwest::header::ACCEPT, "application/json")
            .send()
            .await
            .map_err(|e| format!("request failed: {}", e.without_url()))?;
        if !resp.status().is_success() {
            return Err(format!("HTTP {}", resp.status().as_u16()));
        }
        if resp
            .content_length()
            .is_some_and(|n| n > MAX_KEYS_BODY as u64)
        {
            return Err("the key list is too large".into());
        }
        let body = resp
            .bytes()
            .await
            .map_err(|e| format!("reading the key list failed: {}", e.without_url()))?;
        if body.len() > MAX_KEYS_BODY {
            return Err("the key list is too large".into());
        }
        parse_keys(&body)
    }
}

/// The published list as verifying keys; keys that are not P-256 PEM are skipped (named in the
/// log by id), a list that is not the documented shape is an error.
pub fn parse_keys(body: &[u8]) -> Result<HashMap<String, VerifyingKey>, String> {
    let list: KeyList =
        serde_json::from_slice(body).map_err(|e| format!("the key list is malformed: {e}"))?;
    let mut keys = HashMap::new();
    for k in list.public_keys {
        match VerifyingKey::from_public_key_pem(k.key.trim()) {
            Ok(vk) => {
                keys.insert(k.key_identifier, vk);
            }
            Err(_) => {
                let id: String = k.key_identifier.chars().take(80).collect();
                tracing::warn!(key_id = %id.escape_debug(), "copilot webhook: published key is not a P-256 public key; skipped");
            }
        }
    }
    Ok(keys)
}

fn header_text<'a>(v: Option<&'a [u8]>, name: &'static str) -> Result<&'a str, Refusal> {
    let v = v.ok_or(Refusal::Missing(name))?;
    if v.is_empty() {
        return Err(Refusal::Missing(name));
    }
    if v.len() > MAX_HEADER {
        return Err(Refusal::Malformed(name));
    }
    let s = std::str::from_utf8(v).map_err(|_| Refusal::Malformed(name))?;
    Ok(s.trim())
}

#[cfg(test)]
mod tests {
    use super::*;
    use p256::ecdsa::SigningKey;
    use p256::ecdsa::signature::Signer;
    use p256::pkcs8::{EncodePublicKey, LineEnding};

    fn key(seed: u8) -> SigningKey {
        SigningKey::from_slice(&[seed; 32]).unwrap()
    }

    fn list(keys: &[(&str, &SigningKey)]) -> Vec<u8> {
        let v: Vec<serde_json::Value> = keys
            .iter()
            .map(|(id, k)| {
                serde_json::json!({
                    "key_identifier": id,
                    "key": k.verifying_key().to_public_key_pem(LineEnding::LF).unwrap(),
                    "is_current": true,
                })
            })
            .collect();
        serde_json::to_vec(&serde_json::json!({ "public_keys": v })).unwrap()
    }

    #[test]
    fn a_der_signature_by_a_published_key_verifies_and_a_changed_body_does_not() {
        let k = key(7);
        let keys = parse_keys(&list(&[("k1", &k)])).unwrap();
        let sig: Signature = k.sign(b"{\"messages\":[]}");
        let vk = keys["k1"];
        assert!(vk.verify(b"{\"messages\":[]}", &sig).is_ok());
        assert!(vk.verify(b"{\"messages\":[1]}", &sig).is_err());
    }

    #[test]
    fn a_list_that_is_not_the_documented_shape_is_an_error() {
        assert!(parse_keys(b"{\"keys\":[]}").is_err());
        assert!(parse_keys(b"not json").is_err());
        // A key that is not P-256 PEM is skipped, not trusted.
        let keys = parse_keys(
            b"{\"public_keys\":[{\"key_identifier\":\"x\",\"key\":\"nope\",\"is_current\":true}]}",
        )
        .unwrap();
        assert!(keys.is_empty());
    }

    #[test]
    fn fetches_back_off_doubling_from_five_seconds_to_five_minutes() {
        let secs: Vec<u64> = (1..=9).map(|n| backoff(n).as_secs()).collect();
        assert_eq!(secs, [5, 10, 20, 40, 80, 160, 300, 300, 300]);
        assert_eq!(backoff(u32::MAX), BACKOFF_MAX);
    }

    /// A key list in memory that can be taken down, counting the fetches made of it.
    #[derive(Default)]
    struct FakeKeys {
        keys: HashMap<String, VerifyingKey>,
        down: std::sync::atomic::AtomicBool,
        hits: std::sync::atomic::AtomicUsize,
    }

    impl KeySource for Arc<FakeKeys> {
        fn fetch(&self) -> Pin<Box<dyn Future<Output = Fetched> + Send + '_>> {
            use std::sync::atomic::Ordering::SeqCst;
            self.hits.fetch_add(1, SeqCst);
            let answer = if self.down.load(SeqCst) {
                Err("HTTP 503".to_string())
            } else {
                Ok(self.keys.clone())
            };
            Box::pin(std::future::ready(answer))
        }
    }

    impl FakeKeys {
        fn set_down(&self, down: bool) {
            self.down.store(down, std::sync::atomic::Ordering::SeqCst);
        }
        fn hits(&self) -> usize {
            self.hits.load(std::sync::atomic::Ordering::SeqCst)
        }
    }

    /// A clock that moves only when told, from an arbitrary start.
    struct FakeClock {
        start: Instant,
        offset_ms: std::sync::atomic::AtomicU64,
    }

    impl FakeClock {
        fn at(&self, ms: u64) {
            self.offset_ms
                .store(ms, std::sync::atomic::Ordering::SeqCst);
        }
    }

    /// A store over `keys` with a list lifetime of `ttl` seconds (refetched after half of it)
    /// and an unknown-key refetch at most every `min_refresh` seconds.
    fn store(
        keys: &[(&str, &SigningKey)],
        ttl: u64,
        min_refresh: u64,
    ) -> (KeyStore, Arc<FakeKeys>, Arc<FakeClock>) {
        let fake = Arc::new(FakeKeys {
            keys: parse_keys(&list(keys)).unwrap(),
            ..FakeKeys::default()
        });
        let clock = Arc::new(FakeClock {
            start: Instant::now(),
            offset_ms: 0.into(),
        });
        let read = clock.clone();
        let store = KeyStore::with_parts(
            Box::new(fake.clone()),
            Arc::new(move || {
                read.start
                    + Duration::from_millis(
                        read.offset_ms.load(std::sync::atomic::Ordering::SeqCst),
                    )
            }),
            Duration::from_secs(ttl),
            Duration::from_secs(min_refresh),
        );
        (store, fake, clock)
    }

    #[tokio::test]
    async fn the_last_good_list_verifies_until_its_lifetime_ends_while_github_is_down() {
        let k = key(1);
        let (store, fake, clock) = store(&[("k1", &k)], 6, 60);
        assert_eq!(store.key("k1").await, Ok(k.verifying_key().to_owned()));
        assert_eq!(fake.hits(), 1);
        fake.set_down(true);
        // Past half its lifetime the list is fetched again; that fails, the last good list
        // still verifies, and the next attempt waits out the backoff (5 s from the failure).
        clock.at(3_100);
        assert!(store.key("k1").await.is_ok());
        assert_eq!(fake.hits(), 2, "one failed refetch");
        clock.at(5_900);
        assert!(store.key("k1").await.is_ok());
        assert_eq!(fake.hits(), 2, "no fetch during the backoff");
        // Past its lifetime nothing verifies, and the backoff still holds: no fetch.
        clock.at(6_200);
        match store.key("k1").await {
            Err(Refusal::KeysUnavailable(why)) => {
                assert!(why.contains("HTTP 503"), "{why}");
                assert!(why.contains("next attempt in 2 s"), "{why}");
            }
            other => panic!("expected keys_unavailable, got {other:?}"),
        }
        assert_eq!(fake.hits(), 2);
        // GitHub is back: once the backoff is over, the next request fetches and verifies.
        fake.set_down(false);
        clock.at(8_200);
        assert!(store.key("k1").await.is_ok());
        assert_eq!(fake.hits(), 3);
    }

    #[tokio::test]
    async fn failed_fetches_back_off_and_then_fetch_again() {
        let k = key(2);
        let (store, fake, clock) = store(&[("k1", &k)], 600, 60);
        fake.set_down(true);
        assert!(matches!(
            store.key("k1").await,
            Err(Refusal::KeysUnavailable(_))
        ));
        // Within the first backoff (5 s) a request is refused without asking GitHub.
        clock.at(4_900);
        assert!(matches!(
            store.key("k1").await,
            Err(Refusal::KeysUnavailable(_))
        ));
        assert_eq!(fake.hits(), 1);
        // The second failure doubles the wait (10 s from it).
        clock.at(5_000);
        assert!(store.key("k1").await.is_err());
        assert_eq!(fake.hits(), 2);
        clock.at(14_900);
        assert!(store.key("k1").await.is_err());
        assert_eq!(fake.hits(), 2);
        fake.set_down(false);
        clock.at(15_000);
        assert!(store.key("k1").await.is_ok());
        assert_eq!(fake.hits(), 3);
    }

    #[tokio::test]
    async fn an_unknown_key_id_refetches_at_most_once_per_refresh_interval() {
        let k = key(3);
        let (store, fake, clock) = store(&[("k1", &k)], 600, 60);
        assert!(store.key("k1").await.is_ok());
        // The first unknown id asks GitHub once more (a rotation); forged ids after it do not,
        // until the refresh interval is over.
        clock.at(1_000);
        assert_eq!(store.key("forged-1").await, Err(Refusal::UnknownKey));
        assert_eq!(fake.hits(), 2);
        for (i, ms) in [2_000, 30_000, 60_999].into_iter().enumerate() {
            clock.at(ms);
            assert_eq!(
                store.key(&format!("forged-{}", i + 2)).await,
                Err(Refusal::UnknownKey)
            );
        }
        assert_eq!(fake.hits(), 2);
        clock.at(61_000);
        assert_eq!(store.key("forged-9").await, Err(Refusal::UnknownKey));
        assert_eq!(fake.hits(), 3);
        // Known keys verify throughout, from the cache.
        assert!(store.key("k1").await.is_ok());
        assert_eq!(fake.hits(), 3);
    }

    #[test]
    fn headers_are_named_when_missing_or_malformed() {
        assert_eq!(header_text(None, "A"), Err(Refusal::Missing("A")));
        assert_eq!(header_text(Some(b""), "A"), Err(Refusal::Missing("A")));
        assert_eq!(
            header_text(Some(&[0xff, 0xfe]), "A"),
            Err(Refusal::Malformed("A"))
        );
        assert_eq!(header_text(Some(b" k1 "), "A"), Ok("k1"));
    }
}
