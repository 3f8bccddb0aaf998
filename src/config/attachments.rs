//! `[attachments]`: how much of inbound attachments is kept in the attachment store.
//!
//! ```toml
//! [attachments]
//! max_file_bytes = 26214400      # one attachment; larger ones get a "too large" marker
//! max_message_bytes = 52428800   # all attachments of one message together
//! quota_bytes = 2147483648       # the whole store under <data dir>/attachments
//! outbound_dirs = ["/home/me/outbox"]   # folders drafts may attach files from by path
//! ```

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct AttachmentsConfig {
    /// Largest single attachment stored (bytes).
    pub max_file_bytes: u64,
    /// Largest total of one message's stored attachments (bytes).
    pub max_message_bytes: u64,
    /// Largest total size of the store (bytes).
    pub quota_bytes: u64,
    /// Folders a draft may attach files from by path (`draft_email` `attachments: ["/…"]`).
    /// Empty (the default): drafts attach stored files by hash only.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    #[schemars(example = &["/home/me/outbox"])]
    pub outbound_dirs: Vec<PathBuf>,
}

impl Default for AttachmentsConfig {
    fn default() -> Self {
        // Outlook's own limits: 25 MB per attachment is the common ceiling of mail servers;
        // 2 GB keeps a busy year of referrals without filling a laptop's disk.
        AttachmentsConfig {
            max_file_bytes: 25 * 1024 * 1024,
            max_message_bytes: 50 * 1024 * 1024,
            quota_bytes: 2 * 1024 * 1024 * 1024,
            outbound_dirs: Vec::new(),
        }
    }
}
