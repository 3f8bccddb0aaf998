//! `[drafts]`: how long a draft may wait for the operator before it expires.
//!
//! ```toml
//! [drafts.ttl_hours]   # per action kind, over the defaults; 0 = never expires
//! send_email = 48
//! post_chat = 8
//! ```
//!
//! Outbound mail expires after 72 h by default: an approval given days later is usually given
//! without rereading, and the situation the mail answered has moved on.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

/// The action kinds a draft can hold (`Outbound::kind`).
pub const DRAFT_KINDS: [&str; 4] = ["send_email", "reply_email", "post_chat", "create_event"];

/// The longest time to live accepted: one year.
pub const MAX_TTL_HOURS: u64 = 24 * 366;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DraftsConfig {
    /// Action kind → hours a pending draft may wait (0: never expires). The file's entries
    /// are laid over the defaults, so naming one kind keeps the others' defaults.
    #[serde(deserialize_with = "over_defaults")]
    pub ttl_hours: BTreeMap<String, u64>,
}

fn default_ttls() -> BTreeMap<String, u64> {
    [("send_email", 72), ("reply_email", 72)]
        .into_iter()
        .map(|(k, h)| (k.to_string(), h))
        .collect()
}

fn over_defaults<'de, D: serde::Deserializer<'de>>(
    d: D,
) -> Result<BTreeMap<String, u64>, D::Error> {
    let mut map = default_ttls();
    map.extend(BTreeMap::<String, u64>::deserialize(d)?);
    Ok(map)
}

impl Default for DraftsConfig {
    fn default() -> Self {
        DraftsConfig {
            ttl_hours: default_ttls(),
        }
    }
}

impl DraftsConfig {
    /// The time to live of drafts of `kind`, if they expire.
    pub fn ttl(&self, kind: &str) -> Option<time::Duration> {
        self.ttl_hours
            .get(kind)
            .filter(|h| **h > 0)
            .map(|h| time::Duration::hours(*h as i64))
    }
}

/// Problems of `[drafts]`, as (key path, message).
pub(crate) fn problems(c: &DraftsConfig) -> Vec<(Vec<String>, String)> {
    let mut out = Vec::new();
    for (kind, hours) in &c.ttl_hours {
        let path = vec!["drafts".to_string(), "ttl_hours".into(), kind.clone()];
        if !DRAFT_KINDS.contains(&kind.as_str()) {
            out.push((
                path,
                format!(
                    "`drafts.ttl_hours.{kind}` is not an action kind; allowed: {}",
                    DRAFT_KINDS.join(", ")
                ),
            ));
        } else if *hours > MAX_TTL_HOURS {
            out.push((
                path,
                format!(
                    "`drafts.ttl_hours.{kind}` is {hours}; allowed: 1 to {MAX_TTL_HOURS} hours, or 0 for drafts that never expire"
                ),
            ));
        }
    }
    out
}
