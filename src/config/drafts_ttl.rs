//! `[drafts]`: how long a draft may wait for the operator before it expires.
//!
//! ```toml
//! [drafts]
//! remind_after_hours = 24      # remind of drafts pending longer than this (0 = no reminders)
//! remind_every_minutes = 60    # one reminder (listing them all) at most this often
//!
//! batch_kinds = ["post_chat", "create_event", "move_mail", "create_deal"]
//! batch_internal_mail = true   # mail to the profile's own domains only may be batched too
//!
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
pub(crate) const DRAFT_KINDS: [&str; 4] =
    ["send_email", "reply_email", "post_chat", "create_event"];

/// The longest time to live accepted: one year.
pub(crate) const MAX_TTL_HOURS: u64 = 24 * 366;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct DraftsConfig {
    /// Action kind → hours a pending draft may wait (0: never expires). The file's entries
    /// are laid over the defaults, so naming one kind keeps the others' defaults.
    #[serde(deserialize_with = "over_defaults")]
    #[schemars(with = "BTreeMap<String, u64>")]
    #[schemars(example = serde_json::json!({"send_email": 48, "post_chat": 8}))]
    pub ttl_hours: BTreeMap<String, u64>,
    /// Drafts pending longer than this raise a reminder (`opsdesk watch` toasts, the
    /// console's message line); 0 switches reminders off.
    pub remind_after_hours: u64,
    /// A reminder lists every overdue draft at once and is not repeated sooner than this.
    pub remind_every_minutes: u64,
    /// Action kinds that may be approved or rejected several at once (the ladder's batch
    /// rule, `governance::ladder::batch_eligible`). Outbound mail is not among the defaults:
    /// each external mail is read and decided on its own.
    pub batch_kinds: Vec<String>,
    /// Mail (`send_email`, `reply_email`) whose every recipient is at one of the profile's
    /// `email_domains` may be batched even when its kind is not in `batch_kinds`.
    pub batch_internal_mail: bool,
}

/// The kinds that may be decided in a batch unless `[drafts] batch_kinds` says otherwise.
pub(crate) const DEFAULT_BATCH_KINDS: [&str; 4] =
    ["post_chat", "create_event", "move_mail", "create_deal"];

/// Every kind a draft can be (for `batch_kinds`): the outbound kinds plus local ones.
pub(crate) const BATCH_KIND_NAMES: [&str; 6] = [
    "send_email",
    "reply_email",
    "post_chat",
    "create_event",
    "move_mail",
    "create_deal",
];

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
            remind_after_hours: 24,
            remind_every_minutes: 60,
            batch_kinds: DEFAULT_BATCH_KINDS.map(String::from).to_vec(),
            batch_internal_mail: true,
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

    /// How old a pending draft must be to be reminded of, if reminders are on.
    pub fn remind_after(&self) -> Option<time::Duration> {
        (self.remind_after_hours > 0).then(|| time::Duration::hours(self.remind_after_hours as i64))
    }

    /// The shortest time between two reminders.
    pub fn remind_every(&self) -> time::Duration {
        time::Duration::minutes(self.remind_every_minutes.max(1) as i64)
    }
}

/// The longest reminder interval accepted: one week.
pub(crate) const MAX_REMIND_EVERY_MINUTES: u64 = 7 * 24 * 60;

/// Problems of `[drafts]`, as (key path, message).
pub(crate) fn problems(c: &DraftsConfig) -> Vec<(Vec<String>, String)> {
    let mut out = Vec::new();
    if c.remind_after_hours > MAX_TTL_HOURS {
        out.push((
            vec!["drafts".to_string(), "remind_after_hours".into()],
            format!(
                "`drafts.remind_after_hours` is {}; allowed: 1 to {MAX_TTL_HOURS} hours, or 0 for no reminders",
                c.remind_after_hours
            ),
        ));
    }
    if !(1..=MAX_REMIND_EVERY_MINUTES).contains(&c.remind_every_minutes) {
        out.push((
            vec!["drafts".to_string(), "remind_every_minutes".into()],
            format!(
                "`drafts.remind_every_minutes` is {}; allowed: 1 to {MAX_REMIND_EVERY_MINUTES} minutes",
                c.remind_every_minutes
            ),
        ));
    }
    for (i, kind) in c.batch_kinds.iter().enumerate() {
        if !BATCH_KIND_NAMES.contains(&kind.as_str()) {
            out.push((
                vec!["drafts".to_string(), "batch_kinds".into(), i.to_string()],
                format!(
                    "`{kind}` in `drafts.batch_kinds` is not a draft kind; allowed: {}",
                    BATCH_KIND_NAMES.join(", ")
                ),
            ));
        }
    }
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
