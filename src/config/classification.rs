//! `[classification]`: where an item whose profile is unclear goes (S0 section 6.3's default
//! classification). Unclear are spool `.json` items without a `profile` and `.eml` files in
//! the spool. Rules are tried in order; the first that matches names the profile. An item no
//! rule places goes to the reserved profile `unassigned` (or, with `unmatched = "default"`, to
//! the spool's default profile as before). Without the section nothing changes: unclear items
//! get the spool's default profile.
//!
//! ```toml
//! [classification]
//! unmatched = "unassigned"        # or "default"
//!
//! [[classification.rules]]
//! profile = "clinic"
//! domains = ["lakeside-clinic.example"]
//! keywords = ["patient", "refill"]
//!
//! [[classification.rules]]
//! profile = "work"
//! senders = ["ceo@contoso.com"]
//! channels = ["email"]
//! ```

use serde::{Deserialize, Serialize};

use crate::domain::{Channel, UNASSIGNED};

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct ClassificationConfig {
    /// `[[classification.rules]]`, tried in order.
    pub rules: Vec<ClassificationRule>,
    /// What an unclear item no rule places gets.
    #[schemars(example = &"default")]
    pub unmatched: Unmatched,
}

/// What an unclear item that no rule matched gets.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Unmatched {
    /// The reserved profile `unassigned`, until the operator assigns it.
    #[default]
    Unassigned,
    /// The source's default profile (the behaviour without `[classification]`).
    Default,
}

/// One rule: a profile and what places an item there. Any one of `senders`, `domains` and
/// `keywords` matching places it; `channels` limits the rule to items of those channels (a rule
/// with only `channels` places every unclear item of them).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ClassificationRule {
    /// A configured profile.
    #[schemars(example = &"clinic")]
    pub profile: String,
    /// Sender addresses (exact, case-insensitive).
    #[schemars(example = &["ceo@contoso.com"])]
    #[serde(default)]
    pub senders: Vec<String>,
    /// Sender domains (subdomains included).
    #[schemars(example = &["lakeside-clinic.example"])]
    #[serde(default)]
    pub domains: Vec<String>,
    /// Words in the subject or text (whole words, case-insensitive).
    #[schemars(example = &["patient", "refill"])]
    #[serde(default)]
    pub keywords: Vec<String>,
    /// Only items of these channels (email, teams, calendar, spool); all when empty.
    #[schemars(schema_with = "channels_schema")]
    #[schemars(example = &["email"])]
    #[serde(default)]
    pub channels: Vec<Channel>,
}

/// `channels`: a list of channel names, taken from [`Channel::ALL`] (the domain type has no
/// schema of its own).
fn channels_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    let names: Vec<serde_json::Value> = Channel::ALL
        .iter()
        .filter_map(|c| serde_json::to_value(c).ok())
        .collect();
    schemars::json_schema!({
        "type": "array",
        "items": { "type": "string", "enum": names }
    })
}

/// Problems of `[classification]`: (rule index, key within the rule, message). `profiles`: the
/// configured ones.
pub(crate) fn problems(
    c: &ClassificationConfig,
    profiles: &[String],
) -> Vec<(usize, Option<&'static str>, String)> {
    let mut out = Vec::new();
    for (i, r) in c.rules.iter().enumerate() {
        if r.profile == UNASSIGNED {
            out.push((
                i,
                Some("profile"),
                format!(
                    "`classification.rules[{i}].profile` = \"{UNASSIGNED}\": that is where items no rule places go already; name a configured profile ({})",
                    profiles.join(", ")
                ),
            ));
        } else if !profiles.contains(&r.profile) {
            out.push((
                i,
                Some("profile"),
                format!(
                    "`classification.rules[{i}].profile` = \"{}\" is not a profile; allowed: {}",
                    r.profile.escape_debug(),
                    profiles.join(", ")
                ),
            ));
        }
        if r.senders.is_empty()
            && r.domains.is_empty()
            && r.keywords.is_empty()
            && r.channels.is_empty()
        {
            out.push((
                i,
                None,
                format!(
                    "`classification.rules[{i}]` matches nothing; give it senders, domains, keywords or channels"
                ),
            ));
        }
        for (key, list) in [
            ("senders", &r.senders),
            ("domains", &r.domains),
            ("keywords", &r.keywords),
        ] {
            if list
                .iter()
                .any(|s| s.trim().is_empty() || s.chars().any(char::is_control))
            {
                out.push((
                    i,
                    Some(key),
                    format!(
                        "`classification.rules[{i}].{key}` has an empty entry or one with control characters"
                    ),
                ));
            }
        }
    }
    out
}
