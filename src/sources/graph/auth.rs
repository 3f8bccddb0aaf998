//! Sign-in for Microsoft Graph: the OAuth 2.0 device-code flow (`opsdesk login`), refresh with
//! rotation, and where refresh tokens live.
//!
//! Refresh tokens are kept in the OS keyring (the freedesktop Secret Service, see [`keyring`])
//! when one is reachable at sign-in, else in a 0600 file, `<data dir>/tokens/<profile>.json`.
//! Where a profile's token went is recorded beside it: `tokens/<profile>.keyring.json` (no
//! secret in it, only the item's attributes) says "in the keyring"; without it the token is the
//! file. So a process that cannot reach the keyring (a `serve` under systemd with no session
//! bus) says so plainly instead of silently finding no token, and a rotation is saved back where
//! the token came from. `OPSDESK_TOKEN_STORE` (`auto`, the default; `file`; `keyring`, which
//! refuses to fall back) chooses for new sign-ins.
//!
//! Tokens are replaced on every refresh that returns a new one (the identity platform rotates
//! them and may reject the old one). They are read at every refresh rather than cached, so an
//! `opsdesk login` done while the engine runs takes effect at once. A rotated token is saved
//! under a file lock with compare-and-swap (never across the HTTP request; see `Auth::refresh`),
//! so two processes refreshing at once, or a logout during a refresh, lose nothing. Access
//! tokens live in memory only, never on disk, in logs, audit or inbox.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::client::{GraphError, transport};
use super::keyring;
use crate::config::{GraphProfile, Profile, SourceKind};

/// What `tokens/<profile>.json` holds. Never an access token.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TokenFile {
    pub refresh_token: String,
    pub tenant: String,
    pub client_id: String,
    pub scopes: Vec<String>,
    #[serde(with = "time::serde::rfc3339")]
    pub saved_at: time::OffsetDateTime,
}

/// Where new sign-ins put their refresh token (`OPSDESK_TOKEN_STORE`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TokenPolicy {
    /// The OS keyring when one is reachable, else the 0600 file.
    Auto,
    /// Always the 0600 file.
    File,
    /// The OS keyring or an error.
    Keyring,
}

impl TokenPolicy {
    pub const ENV: &'static str = "OPSDESK_TOKEN_STORE";

    /// The policy `OPSDESK_TOKEN_STORE` names (unset or empty: auto).
    pub fn from_env() -> anyhow::Result<TokenPolicy> {
        match std::env::var(Self::ENV).unwrap_or_default().trim() {
            "" | "auto" => Ok(TokenPolicy::Auto),
            "file" => Ok(TokenPolicy::File),
            "keyring" => Ok(TokenPolicy::Keyring),
            other => Err(anyhow::anyhow!(
                "{}={other:?} is not a token store; use auto, file or keyring",
                Self::ENV
            )),
        }
    }
}

/// Where one profile's refresh token is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TokenLocation {
    /// The OS keyring (Secret Service).
    Keyring,
    /// This 0600 file.
    File(PathBuf),
}

impl std::fmt::Display for TokenLocation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TokenLocation::Keyring => f.write_str("the OS keyring (Secret Service)"),
            TokenLocation::File(p) => write!(f, "{} (0600)", p.display()),
        }
    }
}

/// What the keyring pointer file holds: how to find the item, never the token.
#[derive(Debug, Serialize, Deserialize)]
struct KeyringPointer {
    store: String,
    profile: String,
    tokens_dir: String,
}

/// Refresh tokens per profile, in the OS keyring or as 0600 files, with the pointer files and
/// locks in one 0700 directory.
#[derive(Debug, Clone)]
pub struct TokenStore {
    dir: PathBuf,
    policy: TokenPolicy,
}

impl TokenStore {
    /// A store whose new sign-ins go to files (a token already in the keyring is still found).
    pub fn new(dir: impl Into<PathBuf>) -> TokenStore {
        TokenStore::with_policy(dir, TokenPolicy::File)
    }

    pub fn with_policy(dir: impl Into<PathBuf>, policy: TokenPolicy) -> TokenStore {
        TokenStore {
            dir: dir.into(),
            policy,
        }
    }

    pub fn policy(&self) -> TokenPolicy {
        self.policy
    }

    /// The file a file-stored token lives in.
    pub fn path(&self, profile: &str) -> PathBuf {
        self.dir.join(format!("{profile}.json"))
    }

    fn pointer_path(&self, profile: &str) -> PathBuf {
        self.dir.join(format!("{profile}.keyring.json"))
    }

    fn lock_path(&self, profile: &str) -> PathBuf {
        self.dir.join(format!(".{profile}.lock"))
    }

    fn attrs(&self, profile: &str) -> keyring::TokenAttrs {
        // Absolute, so the same data dir named two ways finds the same item.
        let dir = std::path::absolute(&self.dir).unwrap_or_else(|_| self.dir.clone());
        keyring::TokenAttrs {
            profile: profile.to_owned(),
            tokens_dir: dir.display().to_string(),
        }
    }

    /// Where the profile's token is (or would be read from).
    pub fn location(&self, profile: &str) -> TokenLocation {
        if self.pointer_path(profile).exists() {
            TokenLocation::Keyring
        } else {
            TokenLocation::File(self.path(profile))
        }
    }

    pub fn load(&self, profile: &str) -> anyhow::Result<Option<TokenFile>> {
        if self.pointer_path(profile).exists() {
            let bytes = keyring::load(&self.attrs(profile))
                .map_err(|e| {
                    anyhow::anyhow!(
                        "the refresh token is in the OS keyring, which this process cannot use ({e}); unlock it, or run `opsdesk login {profile}` with {}=file",
                        TokenPolicy::ENV
                    )
                })?
                .ok_or_else(|| {
                    anyhow::anyhow!(
                        "the OS keyring no longer holds the refresh token (removed outside opsdesk?); run `opsdesk login {profile}`"
                    )
                })?;
            return Ok(Some(serde_json::from_slice(&bytes).map_err(|e| {
                anyhow::anyhow!(
                    "the refresh token in the OS keyring is damaged ({e}); run `opsdesk login {profile}`"
                )
            })?));
        }
        let path = self.path(profile);
        match std::fs::read(&path) {
            Ok(bytes) => Ok(Some(serde_json::from_slice(&bytes).map_err(|e| {
                anyhow::anyhow!(
                    "{} is damaged ({e}); run `opsdesk login {profile}`",
                    path.display()
                )
            })?)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
            Err(e) => Err(anyhow::anyhow!("cannot read {}: {e}", path.display())),
        }
    }

    /// Save a rotated token where the current one is.
    pub fn save(&self, profile: &str, t: &TokenFile) -> anyhow::Result<()> {
        match self.location(profile) {
            TokenLocation::Keyring => self.save_keyring(profile, t).map_err(|e| {
                anyhow::anyhow!("cannot save the refresh token in the OS keyring: {e}")
            }),
            TokenLocation::File(_) => self.save_file(profile, t),
        }
    }

    fn save_file(&self, profile: &str, t: &TokenFile) -> anyhow::Result<()> {
        crate::paths::ensure_private_dir(&self.dir)?;
        let bytes = serde_json::to_vec_pretty(t)?;
        crate::paths::write_atomic(&self.path(profile), &bytes)
            .map_err(|e| anyhow::anyhow!("cannot save the refresh token: {e}"))
    }

    fn save_keyring(&self, profile: &str, t: &TokenFile) -> Result<(), keyring::KeyringError> {
        let bytes = serde_json::to_vec(t).map_err(|e| keyring::KeyringError::new(e.to_string()))?;
        keyring::save(
            &self.attrs(profile),
            &format!("opsdesk: Microsoft Graph sign-in of profile {profile}"),
            &bytes,
        )
    }

    /// Save a new sign-in's token by the store's policy: the keyring (the pointer written after
    /// the item, the file removed after the pointer, so a crash in between leaves the old
    /// token readable) or the file. Where it went, and a note when it fell back from the
    /// keyring or left an old keyring item behind.
    pub fn save_new(
        &self,
        profile: &str,
        t: &TokenFile,
    ) -> anyhow::Result<(TokenLocation, Option<String>)> {
        crate::paths::ensure_private_dir(&self.dir)?;
        let keyring_failure = match self.policy {
            TokenPolicy::File => None,
            TokenPolicy::Auto | TokenPolicy::Keyring => match self.save_keyring(profile, t) {
                Ok(()) => {
                    let pointer = KeyringPointer {
                        store: "secret-service".into(),
                        profile: profile.to_owned(),
                        tokens_dir: self.attrs(profile).tokens_dir,
                    };
                    crate::paths::write_atomic(
                        &self.pointer_path(profile),
                        &serde_json::to_vec_pretty(&pointer)?,
                    )
                    .map_err(|e| anyhow::anyhow!("cannot record the keyring entry: {e}"))?;
                    remove_if_present(&self.path(profile))?;
                    crate::paths::sync_dir(&self.dir)?;
                    return Ok((TokenLocation::Keyring, None));
                }
                Err(e) if self.policy == TokenPolicy::Keyring => {
                    return Err(anyhow::anyhow!(
                        "{}=keyring, but the OS keyring cannot take the token: {e}",
                        TokenPolicy::ENV
                    ));
                }
                Err(e) => Some(format!("no OS keyring: {e}")),
            },
        };
        // A file sign-in replaces a keyring one: its item goes too, so no stale token lingers.
        // When the keyring cannot be reached (the very reason to sign in to a file, e.g. for
        // a systemd `serve`) the sign-in still succeeds and says what was left behind.
        let mut note = keyring_failure;
        if self.pointer_path(profile).exists()
            && let Err(e) = keyring::delete(&self.attrs(profile))
        {
            let left = format!(
                "the previous token stays in the OS keyring ({e}); remove the item \"opsdesk: Microsoft Graph sign-in of profile {profile}\" there"
            );
            note = Some(match note {
                Some(n) => format!("{n}; {left}"),
                None => left,
            });
        }
        self.save_file(profile, t)?;
        remove_if_present(&self.pointer_path(profile))?;
        crate::paths::sync_dir(&self.dir)?;
        Ok((TokenLocation::File(self.path(profile)), note))
    }

    /// Remove the profile's token; whether there was one. Under the token lock, so a refresh
    /// in flight cannot save a rotated token back after it.
    pub fn delete(&self, profile: &str) -> anyhow::Result<bool> {
        let _lock = self.lock(profile).map_err(|e| anyhow::anyhow!("{e}"))?;
        let mut had = false;
        if self.pointer_path(profile).exists() {
            had |= keyring::delete(&self.attrs(profile))
                .map_err(|e| anyhow::anyhow!("cannot remove the token from the OS keyring: {e}"))?;
            had |= remove_if_present(&self.pointer_path(profile))?;
        }
        had |= remove_if_present(&self.path(profile))?;
        if had {
            let _ = crate::paths::sync_dir(&self.dir);
        }
        Ok(had)
    }

    fn lock(&self, profile: &str) -> Result<crate::store::jsonl::FileLock, GraphError> {
        crate::paths::ensure_private_dir(&self.dir)
            .map_err(|e| GraphError::Transport(format!("token dir: {e:#}")))?;
        crate::store::jsonl::FileLock::exclusive(&self.lock_path(profile))
            .map_err(|e| GraphError::Transport(format!("token lock: {e}")))
    }
}

/// Delegated scopes a profile needs for its sources (read and the matching write), plus
/// `offline_access` for a refresh token and `User.Read` for `/me`.
pub(crate) fn scopes_for(profile: &Profile) -> Vec<String> {
    let mut s = vec!["offline_access".to_owned(), "User.Read".to_owned()];
    for src in &profile.sources {
        let add: &[&str] = match src {
            SourceKind::GraphMail => &["Mail.ReadWrite", "Mail.Send"],
            SourceKind::GraphTeams => &["Chat.ReadWrite"],
            SourceKind::GraphCalendar => &["Calendars.ReadWrite"],
            _ => &[],
        };
        for a in add {
            if !s.iter().any(|x| x == a) {
                s.push((*a).to_owned());
            }
        }
    }
    s
}

/// Refresh this long before the access token's stated expiry (clock skew, slow requests)...
const EXPIRY_MARGIN: Duration = Duration::from_secs(120);

/// ...or half its lifetime when that is shorter: a token issued for two minutes or less would
/// otherwise be refreshed before every request (a client loop the identity platform throttles).
fn refresh_margin(lifetime: Duration) -> Duration {
    EXPIRY_MARGIN.min(lifetime / 2)
}

struct Access {
    token: String,
    /// When to stop using it and refresh: its expiry less [`refresh_margin`].
    refresh_at: Instant,
}

/// Tokens for one profile: hands out a valid access token, refreshing (and rotating the
/// stored refresh token) when needed.
pub struct Auth {
    profile: String,
    authority: String,
    tenant: String,
    client_id: String,
    scopes: Vec<String>,
    http: reqwest::Client,
    store: TokenStore,
    cache: tokio::sync::Mutex<Option<Access>>,
}

impl Auth {
    pub fn new(
        profile: &str,
        graph: &GraphProfile,
        scopes: Vec<String>,
        http: reqwest::Client,
        store: TokenStore,
    ) -> Arc<Auth> {
        Arc::new(Auth {
            profile: profile.to_owned(),
            authority: graph.authority(),
            tenant: graph.tenant.clone(),
            client_id: graph.client_id.clone(),
            scopes,
            http,
            store,
            cache: tokio::sync::Mutex::new(None),
        })
    }

    pub fn profile(&self) -> &str {
        &self.profile
    }

    fn endpoint(&self, what: &str) -> String {
        format!("{}/{}/oauth2/v2.0/{what}", self.authority, self.tenant)
    }

    /// A valid access token, refreshed if it is about to expire.
    pub async fn access_token(&self) -> Result<String, GraphError> {
        let mut cache = self.cache.lock().await;
        if let Some(a) = cache.as_ref()
            && a.refresh_at > Instant::now()
        {
            return Ok(a.token.clone());
        }
        let fresh = self.refresh().await?;
        let token = fresh.token.clone();
        *cache = Some(fresh);
        Ok(token)
    }

    /// Forget `stale` (the server refused it); the next call refreshes.
    pub async fn invalidate(&self, stale: &str) {
        let mut cache = self.cache.lock().await;
        if cache.as_ref().is_some_and(|a| a.token == stale) {
            *cache = None;
        }
    }

    fn login_required(&self, reason: impl Into<String>) -> GraphError {
        GraphError::LoginRequired {
            profile: self.profile.clone(),
            reason: reason.into(),
        }
    }

    /// Redeem the stored refresh token. No file lock is held across the HTTP request (a
    /// blocking `flock` wait would stall an async worker, and a hung identity platform would
    /// stall every other process): the token file is read and written on the blocking pool,
    /// and the rotated token is saved only if the file still holds the one redeemed
    /// (compare-and-swap under the lock). If another process rotated first and ours is refused,
    /// the newer token is read and tried once more. A logout (`delete`) in between wins: no
    /// token is saved back into a removed file.
    async fn refresh(&self) -> Result<Access, GraphError> {
        let mut tried: Option<(String, GraphError)> = None;
        loop {
            let stored = self.load_blocking().await?;
            if let Some((token, refused)) = &tried
                && *token == stored.refresh_token
            {
                // The identity platform's own reason (invalid_grant, interaction_required…).
                return Err(refused.clone());
            }
            match self.redeem(&stored).await {
                Ok(grant) => {
                    if let Some(rt) = grant.refresh_token.clone()
                        && rt != stored.refresh_token
                    {
                        self.save_rotated(stored, rt).await?;
                    }
                    return Ok(Access {
                        token: grant.access_token,
                        refresh_at: Instant::now() + grant.expires_in
                            - refresh_margin(grant.expires_in),
                    });
                }
                // Possibly a rotation by another process: go round once with the file's token.
                Err(e) if e.is_login_required() && tried.is_none() => {
                    tried = Some((stored.refresh_token, e));
                }
                Err(e) => return Err(e),
            }
        }
    }

    async fn load_blocking(&self) -> Result<TokenFile, GraphError> {
        let (store, profile) = (self.store.clone(), self.profile.clone());
        tokio::task::spawn_blocking(move || store.load(&profile))
            .await
            .map_err(|e| GraphError::Local(format!("token read task failed: {e}")))?
            .map_err(|e| self.login_required(format!("{e:#}")))?
            .ok_or_else(|| self.login_required("not signed in"))
    }

    /// Replace the refresh token `old.refresh_token` with `rt`, unless the file changed since.
    async fn save_rotated(&self, old: TokenFile, rt: String) -> Result<(), GraphError> {
        let (store, profile) = (self.store.clone(), self.profile.clone());
        tokio::task::spawn_blocking(move || -> Result<(), GraphError> {
            let _lock = store.lock(&profile)?;
            let now = store
                .load(&profile)
                .map_err(|e| GraphError::Local(format!("{e:#}")))?;
            if now.as_ref().map(|t| t.refresh_token.as_str()) != Some(old.refresh_token.as_str()) {
                return Ok(());
            }
            let updated = TokenFile {
                refresh_token: rt,
                saved_at: crate::domain::now(),
                ..old
            };
            store
                .save(&profile, &updated)
                .map_err(|e| GraphError::Transport(format!("{e:#}")))
        })
        .await
        .map_err(|e| GraphError::Local(format!("token save task failed: {e}")))?
    }

    /// One refresh-token grant at the token endpoint.
    async fn redeem(&self, stored: &TokenFile) -> Result<Grant, GraphError> {
        let form = [
            ("client_id", self.client_id.as_str()),
            ("grant_type", "refresh_token"),
            ("refresh_token", stored.refresh_token.as_str()),
            ("scope", &self.scopes.join(" ")),
        ];
        let resp = self
            .http
            .post(self.endpoint("token"))
            .form(&form)
            .send()
            .await
            .map_err(|e| transport(&e))?;
        let status = resp.status().as_u16();
        let retry_after = resp
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| super::client::parse_retry_after(v, std::time::SystemTime::now()));
        let body: Value = resp.json().await.unwrap_or(Value::Null);
        if status != 200 {
            let err = body["error"].as_str().unwrap_or("unknown");
            return Err(match err {
                "invalid_grant" | "interaction_required" | "consent_required" => {
                    self.login_required(format!("sign-in expired or revoked: {err}"))
                }
                // The identity platform throttles too: its wait is the poller's.
                _ if status == 429 => GraphError::Throttled {
                    retry_after: retry_after.unwrap_or(Duration::from_secs(30)),
                },
                _ if status >= 500 => {
                    GraphError::Transport(format!("identity platform answered {status}"))
                }
                _ => GraphError::Http {
                    status,
                    code: crate::sanitize::one_line(err, 64),
                    message: crate::sanitize::one_line(
                        body["error_description"].as_str().unwrap_or(""),
                        200,
                    ),
                    retry_after: None,
                },
            });
        }
        parse_grant(&body)
    }
}

/// The useful part of a token response.
pub struct Grant {
    pub access_token: String,
    pub refresh_token: Option<String>,
    pub expires_in: Duration,
}

impl std::fmt::Debug for Grant {
    // Tokens never reach a log line, not even through `{:?}`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Grant")
            .field("access_token", &"<redacted>")
            .field(
                "refresh_token",
                &self.refresh_token.as_ref().map(|_| "<redacted>"),
            )
            .field("expires_in", &self.expires_in)
            .finish()
    }
}

fn parse_grant(body: &Value) -> Result<Grant, GraphError> {
    let access_token = body["access_token"]
        .as_str()
        .filter(|s| !s.is_empty())
        .ok_or_else(|| GraphError::Invalid("token response without access_token".into()))?
        .to_owned();
    // `expires_in` is a number in the spec; some servers send it as a string.
    let expires_in = body["expires_in"]
        .as_u64()
        .or_else(|| body["expires_in"].as_str().and_then(|s| s.parse().ok()))
        .unwrap_or(3600);
    Ok(Grant {
        access_token,
        refresh_token: body["refresh_token"].as_str().map(str::to_owned),
        expires_in: Duration::from_secs(expires_in),
    })
}

// ---------------------------------------------------------------------------------------------
// Device-code flow

/// What `/devicecode` returns: the code to show the operator and how to poll.
#[derive(Debug, Clone, Deserialize)]
pub struct DeviceCode {
    pub device_code: String,
    pub user_code: String,
    pub verification_uri: String,
    pub expires_in: u64,
    #[serde(default = "default_interval")]
    pub interval: u64,
    #[serde(default)]
    pub message: Option<String>,
}

fn default_interval() -> u64 {
    5
}

/// How a device-code sign-in ended without a token.
#[derive(Debug, thiserror::Error)]
pub enum DeviceError {
    #[error("the code expired before sign-in finished; run the command again")]
    Expired,
    #[error("sign-in was declined")]
    Declined,
    #[error("the identity platform refused: {0}")]
    Refused(String),
    #[error(transparent)]
    Graph(#[from] GraphError),
}

/// Start a device-code sign-in for `scopes`.
pub async fn device_code_start(
    http: &reqwest::Client,
    graph: &GraphProfile,
    scopes: &[String],
) -> Result<DeviceCode, DeviceError> {
    let url = format!(
        "{}/{}/oauth2/v2.0/devicecode",
        graph.authority(),
        graph.tenant
    );
    let resp = http
        .post(url)
        .form(&[
            ("client_id", graph.client_id.as_str()),
            ("scope", &scopes.join(" ")),
        ])
        .send()
        .await
        .map_err(|e| transport(&e))?;
    let status = resp.status().as_u16();
    let body: Value = resp.json().await.unwrap_or(Value::Null);
    if status != 200 {
        return Err(DeviceError::Refused(describe_error(&body, status)));
    }
    serde_json::from_value(body)
        .map_err(|e| DeviceError::Graph(GraphError::Invalid(format!("devicecode response: {e}"))))
}

/// Poll `/token` until the operator finishes (or declines, or the code expires). `sleep` does
/// the waiting, so tests can run the whole sequence without real time passing.
pub async fn device_code_poll<F, Fut>(
    http: &reqwest::Client,
    graph: &GraphProfile,
    dc: &DeviceCode,
    mut sleep: F,
) -> Result<Grant, DeviceError>
where
    F: FnMut(Duration) -> Fut,
    Fut: std::future::Future<Output = ()>,
{
    let url = format!("{}/{}/oauth2/v2.0/token", graph.authority(), graph.tenant);
    let mut interval = Duration::from_secs(dc.interval.max(1));
    let mut waited = Duration::ZERO;
    let limit = Duration::from_secs(dc.expires_in.max(1));
    // Consecutive answers that say nothing about the sign-in (network trouble, a 5xx, a 429, a
    // body without an OAuth error): polled through, since the operator may be mid-way through
    // signing in, but not for ever.
    let mut transient = 0u32;
    let mut extra = Duration::ZERO;
    loop {
        sleep(interval + extra).await;
        waited += interval + extra;
        extra = Duration::ZERO;
        if waited >= limit {
            return Err(DeviceError::Expired);
        }
        let sent = http
            .post(&url)
            .form(&[
                ("grant_type", "urn:ietf:params:oauth:grant-type:device_code"),
                ("client_id", graph.client_id.as_str()),
                ("device_code", dc.device_code.as_str()),
            ])
            .send()
            .await;
        let resp = match sent {
            Ok(r) => r,
            Err(e) if transient < MAX_TRANSIENT => {
                tracing::warn!("sign-in poll: {}; trying again", transport(&e));
                transient += 1;
                continue;
            }
            Err(e) => return Err(transport(&e).into()),
        };
        let status = resp.status().as_u16();
        let retry_after = resp
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| super::client::parse_retry_after(v, std::time::SystemTime::now()));
        let body: Value = resp.json().await.unwrap_or(Value::Null);
        if status == 200 {
            return Ok(parse_grant(&body)?);
        }
        let code = body["error"].as_str().unwrap_or("");
        if (status == 429 || status >= 500 || code.is_empty()) && transient < MAX_TRANSIENT {
            tracing::warn!(
                status,
                "sign-in poll: the identity platform answered without an OAuth error; trying again"
            );
            transient += 1;
            extra = retry_after
                .unwrap_or(Duration::ZERO)
                .min(Duration::from_secs(60));
            continue;
        }
        transient = 0;
        match code {
            "authorization_pending" => {}
            // RFC 8628 §3.5: add 5 seconds to the interval for this and all later requests.
            "slow_down" => interval += Duration::from_secs(5),
            "expired_token" => return Err(DeviceError::Expired),
            "access_denied" | "authorization_declined" => return Err(DeviceError::Declined),
            _ => return Err(DeviceError::Refused(describe_error(&body, status))),
        }
        if waited >= limit {
            return Err(DeviceError::Expired);
        }
    }
}

/// Answers in a row that say nothing about the sign-in before the poll gives up.
const MAX_TRANSIENT: u32 = 5;

fn describe_error(body: &Value, status: u16) -> String {
    let err = body["error"].as_str().unwrap_or("http error");
    let desc = body["error_description"]
        .as_str()
        .map(|d| d.lines().next().unwrap_or(""))
        .unwrap_or("");
    crate::sanitize::one_line(&format!("{err} ({status}) {desc}"), 300)
}

/// Save the refresh token a completed sign-in produced; where it went, and why not the keyring
/// when the store fell back to the file.
pub(crate) fn save_login(
    store: &TokenStore,
    profile: &str,
    graph: &GraphProfile,
    scopes: &[String],
    grant: &Grant,
) -> anyhow::Result<(TokenLocation, Option<String>)> {
    let rt = grant.refresh_token.clone().ok_or_else(|| {
        anyhow::anyhow!("the sign-in returned no refresh token (was offline_access consented?)")
    })?;
    // Not in the middle of a running engine's refresh, which would overwrite this token with
    // the rotation of the old one.
    let _lock = store.lock(profile).map_err(|e| anyhow::anyhow!("{e}"))?;
    store.save_new(
        profile,
        &TokenFile {
            refresh_token: rt,
            tenant: graph.tenant.clone(),
            client_id: graph.client_id.clone(),
            scopes: scopes.to_vec(),
            saved_at: crate::domain::now(),
        },
    )
}

/// The token store of a data dir, new sign-ins placed by `OPSDESK_TOKEN_STORE`.
pub(crate) fn store_in(data_dir: &Path) -> anyhow::Result<TokenStore> {
    Ok(TokenStore::with_policy(
        data_dir.join("tokens"),
        TokenPolicy::from_env()?,
    ))
}

fn remove_if_present(path: &Path) -> anyhow::Result<bool> {
    match std::fs::remove_file(path) {
        Ok(()) => Ok(true),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(false),
        Err(e) => Err(anyhow::anyhow!("cannot remove {}: {e}", path.display())),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_short_lived_token_is_used_for_half_its_life_not_refreshed_before_every_call() {
        assert_eq!(
            refresh_margin(Duration::from_secs(3600)),
            Duration::from_secs(120)
        );
        assert_eq!(
            refresh_margin(Duration::from_secs(90)),
            Duration::from_secs(45)
        );
        assert_eq!(refresh_margin(Duration::ZERO), Duration::ZERO);
    }
}
