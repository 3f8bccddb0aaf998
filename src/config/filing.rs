//! `[filing]`: where mail belongs. Rules are tried in order; the first that matches names the
//! folder. A message linked to a deal goes to `deal_folder` (with `{deal}` replaced by the
//! deal's name) when no rule matched first.
//!
//! ```toml
//! [filing]
//! deal_folder = "Deals/{deal}"
//!
//! [[filing.rules]]
//! folder = "Finance/Invoices"
//! keywords = ["invoice", "receipt"]
//!
//! [[filing.rules]]
//! folder = "Vendors/Acme"
//! domains = ["acme.example"]
//! profiles = ["work"]
//! ```

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct FilingConfig {
    /// Folder for mail linked to a deal; `{deal}` is replaced by the deal's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Deals/{deal}")]
    pub deal_folder: Option<String>,
    /// `[[filing.rules]]`, tried in order.
    pub rules: Vec<FilingRule>,
    /// Further folders the assistant's filing job may propose for mail no rule places (the
    /// rules' folders and `archive` are always choices).
    #[schemars(example = &["Travel", "Receipts"])]
    pub folders: Vec<String>,
}

/// One rule: a folder and what sends mail there (any one of senders, domains, keywords).
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FilingRule {
    /// A well-known name (`archive`), a folder name or a path (`Deals/Sunrise`).
    #[schemars(example = &"Finance/Invoices")]
    pub folder: String,
    /// Sender addresses (exact, case-insensitive).
    #[schemars(example = &["billing@acme.example"])]
    #[serde(default)]
    pub senders: Vec<String>,
    /// Sender domains (subdomains included).
    #[schemars(example = &["acme.example"])]
    #[serde(default)]
    pub domains: Vec<String>,
    /// Words in the subject or text (whole words, case-insensitive).
    #[schemars(example = &["invoice", "receipt"])]
    #[serde(default)]
    pub keywords: Vec<String>,
    /// Only mail of these profiles; all profiles when empty.
    #[schemars(example = &["work"])]
    #[serde(default)]
    pub profiles: Vec<String>,
}
