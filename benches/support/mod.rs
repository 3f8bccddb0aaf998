//! Shared by the benches: one synthetic, already-sanitized inbox record.
// Each bench compiles this module on its own and uses only part of it.
#![allow(dead_code)]

use opsdesk::domain::{Channel, InboxRecord, Party};

const TEXT: &str = "Hi — following up on the quarterly review. Could you confirm the figures by \
                    Friday? The vendor needs the signed renewal before the end of the month. Thanks!";

/// Record number `i`: id `<prefix>-<i>`, alternating email/Teams, the given profile, and the
/// body repeated `text_repeat` times (bodies of realistic length for list rendering).
pub fn record(i: u64, prefix: &str, profile: &str, text_repeat: usize) -> InboxRecord {
    let now = time::OffsetDateTime::now_utc();
    InboxRecord {
        seq: 0,
        id: format!("{prefix}-{i}"),
        received_at: now,
        profile: profile.into(),
        channel: if i.is_multiple_of(2) {
            Channel::Email
        } else {
            Channel::Teams
        },
        thread_id: Some(format!("thread-{}", i % 97)),
        from: Party::new("Grace Hopper", "grace@contoso.com"),
        to: vec![Party::new("Operator", "me@contoso.com")],
        subject: Some(format!("Quarterly review item {i}")),
        ts: now,
        text: TEXT.repeat(text_repeat.max(1)),
        preview:
            "Hi — following up on the quarterly review. Could you confirm the figures by Friday?"
                .into(),
        meta: Default::default(),
        untrusted: true,
        attachments: Vec::new(),
    }
}

/// The two-entity split the inbox and console benches use.
pub fn profile_of(i: u64) -> &'static str {
    if i.is_multiple_of(3) {
        "clinic"
    } else {
        "work"
    }
}
