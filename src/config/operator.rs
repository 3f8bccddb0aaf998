//! `[operator]` (who the operator is, their time zone) and `[drafting]` (the house style drafts
//! are written in). Both are shown to MCP clients as resources
//! (`opsdesk://config/operator_profile`, `opsdesk://config/draft_style`) so a client writes in
//! the operator's name, zone and style.

use serde::{Deserialize, Serialize};

/// `[operator]`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct OperatorConfig {
    /// How drafts and briefs name the operator.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub name: Option<String>,
    /// IANA time zone, e.g. `America/Chicago`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_zone: Option<String>,
}

/// `[drafting]`: how drafts should read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DraftingConfig {
    /// Tone in a few words.
    pub tone: String,
    /// Sign-off line put before the signature.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sign_off: Option<String>,
    /// Signature block appended to mail drafts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub signature: Option<String>,
    /// Longest draft body, in words (0: no limit).
    pub max_words: u32,
    /// Plain text (default) or HTML bodies.
    pub format: DraftFormat,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DraftFormat {
    #[default]
    Text,
    Html,
}

impl Default for DraftingConfig {
    fn default() -> Self {
        DraftingConfig {
            tone: "concise, warm, professional".into(),
            sign_off: None,
            signature: None,
            max_words: 0,
            format: DraftFormat::Text,
        }
    }
}
