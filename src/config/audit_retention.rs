//! `[audit]`: retention of the audit trail.
//!
//! ```toml
//! [audit]
//! archive_after_months = 12   # month files older than this are compressed into
//!                             # audit/archive/ (0, the default: keep every month live)
//! ```
//!
//! Old months are archived, never deleted: the archive's hashes are recorded in the live chain
//! (`audit.archive`) and `opsdesk audit verify` checks the archive against them.

use serde::{Deserialize, Serialize};

/// The longest retention accepted: ten years of live months.
pub(crate) const MAX_ARCHIVE_AFTER_MONTHS: u32 = 120;

#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct AuditConfig {
    /// Months kept live (the current one counts); older month files are archived. 0: off.
    pub archive_after_months: u32,
}

/// Problems of `[audit]`, as (key path, message).
pub(crate) fn problems(c: &AuditConfig) -> Vec<(Vec<String>, String)> {
    if c.archive_after_months > MAX_ARCHIVE_AFTER_MONTHS {
        return vec![(
            vec!["audit".into(), "archive_after_months".into()],
            format!(
                "`audit.archive_after_months` is {}; allowed: 1 to {MAX_ARCHIVE_AFTER_MONTHS}, or 0 to keep every month live",
                c.archive_after_months
            ),
        )];
    }
    Vec::new()
}
