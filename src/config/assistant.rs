//! `[assistant]`: what the assistant does by itself as items arrive.
//!
//! ```toml
//! [assistant]
//! on_arrival = ["triage", "deadlines"]   # jobs run on every new item (default: none)
//! arrival_use_model = true               # false: the rules only, no model call
//! arrival_batch = 25                     # most items in one batch
//! arrival_coalesce_ms = 500              # arrivals gathered this long into one batch
//! ```
//!
//! Off by default: turning it on sends inbound content to the configured provider for every
//! item the rules are unsure about (through the router: redaction, the HIPAA filter and the
//! budgets apply exactly as for a job the operator starts).

use serde::{Deserialize, Serialize};

/// The jobs that may run on arrival (drafting and the brief need the operator's request).
pub const ARRIVAL_JOBS: [&str; 2] = ["triage", "deadlines"];
pub const MAX_ARRIVAL_BATCH: usize = 500;
pub const MAX_COALESCE_MS: u64 = 60_000;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct AssistantConfig {
    /// Jobs the primary engine runs on every newly ingested item, in this order.
    #[schemars(example = &["triage", "deadlines"])]
    pub on_arrival: Vec<String>,
    /// Whether arrival jobs may ask the model about items the rules are unsure of.
    pub arrival_use_model: bool,
    /// Most items in one arrival batch; more wait for the next one.
    pub arrival_batch: usize,
    /// How long arrivals are gathered into one batch after the first (a spool file or a
    /// first sync is one batch, not hundreds).
    pub arrival_coalesce_ms: u64,
}

impl Default for AssistantConfig {
    fn default() -> Self {
        AssistantConfig {
            on_arrival: Vec::new(),
            arrival_use_model: true,
            arrival_batch: 25,
            arrival_coalesce_ms: 500,
        }
    }
}

impl AssistantConfig {
    pub fn triage_on_arrival(&self) -> bool {
        self.on_arrival.iter().any(|j| j == "triage")
    }
    pub fn deadlines_on_arrival(&self) -> bool {
        self.on_arrival.iter().any(|j| j == "deadlines")
    }
}

/// Problems of `[assistant]`, as (key path, message).
pub(crate) fn problems(c: &AssistantConfig) -> Vec<(Vec<String>, String)> {
    let key = |k: &str| vec!["assistant".to_string(), k.to_string()];
    let mut out = Vec::new();
    for j in &c.on_arrival {
        if !ARRIVAL_JOBS.contains(&j.as_str()) {
            out.push((
                key("on_arrival"),
                format!(
                    "`assistant.on_arrival` names `{}`, which cannot run on arrival; allowed: {}",
                    j.escape_debug(),
                    ARRIVAL_JOBS.join(", ")
                ),
            ));
        }
    }
    if c.arrival_batch == 0 || c.arrival_batch > MAX_ARRIVAL_BATCH {
        out.push((
            key("arrival_batch"),
            format!(
                "`assistant.arrival_batch` = {} is out of range; allowed: 1 to {MAX_ARRIVAL_BATCH}",
                c.arrival_batch
            ),
        ));
    }
    if c.arrival_coalesce_ms > MAX_COALESCE_MS {
        out.push((
            key("arrival_coalesce_ms"),
            format!(
                "`assistant.arrival_coalesce_ms` = {} is out of range; allowed: 0 to {MAX_COALESCE_MS}",
                c.arrival_coalesce_ms
            ),
        ));
    }
    out
}
