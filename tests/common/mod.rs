//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::collections::BTreeMap;

use opsdesk::domain::{Channel, InboxRecord, Party};

/// A minimal already-sanitized record as a source would produce it.
pub fn record(id: &str, profile: &str, channel: Channel, text: &str) -> InboxRecord {
    let now = time::OffsetDateTime::now_utc();
    InboxRecord {
        seq: 0,
        id: id.to_string(),
        received_at: now,
        profile: profile.to_string(),
        channel,
        thread_id: None,
        from: Party::new("Ada Lovelace", "ada@example.com"),
        to: vec![],
        subject: Some(format!("subject {id}")),
        ts: now,
        text: text.to_string(),
        preview: text.chars().take(80).collect(),
        meta: BTreeMap::new(),
        untrusted: true,
        attachments: Vec::new(),
    }
}
