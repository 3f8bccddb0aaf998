//! Microsoft Graph: sign-in ([`auth`]), the HTTP policy ([`client`]), the pollers ([`mail`],
//! [`teams`], [`calendar`], scheduled by [`run`]) and the remote calls that carry out approved
//! drafts ([`send`], driven by `engine::executor`).
//!
//! Every account belongs to exactly one profile; its state lives in `<data dir>/graph/<profile>/`
//! and every record it produces names that profile, so two accounts polled at once never mix.

pub mod auth;
pub mod calendar;
pub mod client;
pub(crate) mod keyring;
pub mod mail;
pub mod outbound;
pub mod run;
pub mod send;
pub mod teams;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;
use serde::de::DeserializeOwned;

use self::auth::{Auth, TokenStore, scopes_for};
use self::client::{GraphClient, GraphError};
use crate::config::Config;
use crate::domain::NewMessage;

/// One profile's Graph account: its client and where its sync state lives.
pub struct Account {
    pub profile: String,
    pub client: GraphClient,
    pub state_dir: PathBuf,
    /// Time zone for calendar views (`Prefer: outlook.timezone`).
    pub time_zone: String,
}

impl Account {
    /// The account of `profile` (None when the profile has no `[graph]`).
    pub fn for_profile(
        config: &Config,
        data_dir: &Path,
        profile: &str,
        http: &reqwest::Client,
    ) -> Option<Arc<Account>> {
        let p = config.profiles.get(profile)?;
        let g = p.graph.as_ref()?;
        let auth = Auth::new(
            profile,
            g,
            scopes_for(p),
            http.clone(),
            // The engine only redeems and rotates, which follow where the token already is
            // (keyring or file); where *new* sign-ins go is `opsdesk login`'s choice.
            TokenStore::new(data_dir.join("tokens")),
        );
        Some(Arc::new(Account {
            profile: profile.to_owned(),
            client: GraphClient::new(http.clone(), g.graph_base(), auth),
            state_dir: data_dir.join("graph").join(profile),
            // As documented: the local zone when the profile names none (the operator's,
            // `[operator] time_zone` or the system's), by its IANA name; UTC when it has none.
            time_zone: g.time_zone.clone().unwrap_or_else(|| {
                config
                    .operator
                    .zone()
                    .iana_name()
                    .unwrap_or("UTC")
                    .to_owned()
            }),
        }))
    }

    /// Read a state file of this account (default when absent or unreadable: a damaged state
    /// file costs a resync, never a stuck poller).
    pub fn load_state<T: DeserializeOwned + Default>(&self, name: &str) -> T {
        let path = self.state_dir.join(name);
        match std::fs::read(&path) {
            Ok(b) => serde_json::from_slice(&b).unwrap_or_else(|e| {
                tracing::warn!("{} unreadable ({e}); starting over", path.display());
                T::default()
            }),
            Err(_) => T::default(),
        }
    }

    /// Replace a state file atomically, on the blocking pool (the write is fsync'd, which must
    /// not stall an async worker).
    pub async fn save_state<T: Serialize>(&self, name: &str, value: &T) -> Result<(), GraphError> {
        let bytes =
            serde_json::to_vec_pretty(value).map_err(|e| GraphError::Local(e.to_string()))?;
        let dir = self.state_dir.clone();
        let path = dir.join(name);
        let what = format!("{name} of {}", self.profile);
        tokio::task::spawn_blocking(move || {
            crate::paths::ensure_private_dir(&dir)
                .map_err(|e| GraphError::Local(format!("{e:#}")))?;
            crate::paths::write_atomic(&path, &bytes)
                .map_err(|e| GraphError::Local(format!("cannot save {what}: {e}")))
        })
        .await
        .map_err(|e| GraphError::Local(format!("state write task failed: {e}")))?
    }
}

/// Every profile's account.
pub fn accounts(config: &Config, data_dir: &Path) -> BTreeMap<String, Arc<Account>> {
    // No HTTP client (TLS set-up, certificate loading) for an engine without Graph profiles.
    if config.profiles.values().all(|p| p.graph.is_none()) {
        return BTreeMap::new();
    }
    let http = client::http_client();
    config
        .profiles
        .keys()
        .filter_map(|name| {
            Account::for_profile(config, data_dir, name, &http).map(|a| (name.clone(), a))
        })
        .collect()
}

/// Hands one item to ingestion (sanitize, durable append); `Ok(true)` when it was new. Called
/// on the blocking pool.
pub type Deliver =
    Arc<dyn Fn(NewMessage) -> Result<bool, crate::sources::IngestFailure> + Send + Sync>;

/// Deliver a batch in order. An item ingestion refuses as invalid is skipped (logged), since
/// offering it again would fail the same way; any other error stops the batch so the caller
/// keeps its sync state and the items come again.
pub(crate) async fn deliver_all(
    deliver: &Deliver,
    batch: Vec<NewMessage>,
) -> Result<u64, GraphError> {
    if batch.is_empty() {
        return Ok(0);
    }
    let d = deliver.clone();
    tokio::task::spawn_blocking(move || {
        let mut new = 0;
        for msg in batch {
            let id = crate::sanitize::one_line(&msg.id, 80);
            match d(msg) {
                Ok(true) => new += 1,
                Ok(false) => {}
                Err(e @ crate::sources::IngestFailure::Refused { .. }) => {
                    tracing::warn!("graph item {id} refused: {e:#}");
                }
                Err(e) => return Err(GraphError::Local(format!("inbox append failed: {e:#}"))),
            }
        }
        Ok(new)
    })
    .await
    .map_err(|e| GraphError::Local(format!("ingest task failed: {e}")))?
}

/// Parse a Graph timestamp (`2026-11-22T06:00:00.123Z`, sometimes without a zone designator,
/// which Graph means as UTC).
pub(crate) fn parse_ts(s: &str) -> Option<time::OffsetDateTime> {
    use time::format_description::well_known::Rfc3339;
    let s = s.trim();
    time::OffsetDateTime::parse(s, &Rfc3339)
        .ok()
        .or_else(|| time::OffsetDateTime::parse(&format!("{s}Z"), &Rfc3339).ok())
        .or_else(|| {
            // Graph writes seven fractional digits in calendar times; RFC 3339 parsing in
            // `time` accepts at most nine, so this is only the missing zone case again.
            let trimmed = s.trim_end_matches('Z');
            time::OffsetDateTime::parse(&format!("{trimmed}Z"), &Rfc3339).ok()
        })
}

/// RFC 3339 text of a time (UTC) in whole seconds, as the documentation's query examples
/// write it (`2026-11-22T06:00:00Z`); Graph accepts at most 7 fractional digits and `time`
/// would write 9. Used for every timestamp that goes into a request.
pub fn rfc3339(t: time::OffsetDateTime) -> String {
    use time::format_description::well_known::Rfc3339;
    let t = t.to_offset(time::UtcOffset::UTC);
    t.replace_nanosecond(0)
        .unwrap_or(t)
        .format(&Rfc3339)
        .unwrap_or_default()
}

/// RFC 3339 text with full precision, for local state only (never sent to Graph).
pub(crate) fn rfc3339_precise(t: time::OffsetDateTime) -> String {
    use time::format_description::well_known::Rfc3339;
    t.to_offset(time::UtcOffset::UTC)
        .format(&Rfc3339)
        .unwrap_or_default()
}

/// `{name, address}` of a Graph `emailAddress` object.
pub(crate) fn party(v: &serde_json::Value) -> crate::domain::Party {
    crate::domain::Party::new(
        v["name"].as_str().unwrap_or(""),
        v["address"].as_str().unwrap_or(""),
    )
}
