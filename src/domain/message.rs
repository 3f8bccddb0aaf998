use std::collections::BTreeMap;
use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

/// Where an inbound item came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Channel {
    Email,
    Teams,
    Calendar,
    Spool,
}

impl Channel {
    pub const ALL: [Channel; 4] = [
        Channel::Email,
        Channel::Teams,
        Channel::Calendar,
        Channel::Spool,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Channel::Email => "email",
            Channel::Teams => "teams",
            Channel::Calendar => "calendar",
            Channel::Spool => "spool",
        }
    }
}

impl fmt::Display for Channel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

impl FromStr for Channel {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        Channel::ALL
            .into_iter()
            .find(|c| c.as_str().eq_ignore_ascii_case(s))
            .ok_or_else(|| {
                format!("unknown channel `{s}`; expected one of: email, teams, calendar, spool")
            })
    }
}

/// A person or mailbox: display name plus address (mail address, Teams user id …).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Party {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub address: String,
}

impl Party {
    pub fn new(name: impl Into<String>, address: impl Into<String>) -> Self {
        Party {
            name: name.into(),
            address: address.into(),
        }
    }

    /// The name if there is one, else the address.
    pub fn label(&self) -> &str {
        if self.name.is_empty() {
            &self.address
        } else {
            &self.name
        }
    }
}

/// The reserved profile of an item whose profile is unclear and that no `[classification]`
/// rule placed: the most restrictive bucket (treated as HIPAA, never sent to a provider, no
/// action may name it) until the operator assigns the item (`opsdesk triage assign`). No
/// configured profile may take this name.
pub const UNASSIGNED: &str = "unassigned";

/// `meta` key an item placed by `[classification]` carries: which rule placed it, or why it is
/// `unassigned` (`classification.rules[0]: sender domain acme.example`).
pub const META_PROFILE_RULE: &str = "profile_rule";

/// `meta` key of a record the operator assigned to a profile (added when the record is read,
/// never written into the inbox line): `{"from": "unassigned", "by": "cli", "at": "…"}`.
pub const META_PROFILE_ASSIGNED: &str = "profile_assigned";

/// What a source hands to ingestion, before sanitizing. Text here is raw and untrusted.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct NewMessage {
    /// The source's stable id (Graph immutable id, internetMessageId, chat message id).
    pub id: String,
    pub profile: String,
    pub channel: Channel,
    #[serde(default)]
    pub thread_id: Option<String>,
    pub from: Party,
    #[serde(default)]
    pub to: Vec<Party>,
    #[serde(default)]
    pub subject: Option<String>,
    /// The source's own timestamp of the item.
    #[serde(with = "time::serde::rfc3339")]
    pub ts: OffsetDateTime,
    /// Body as received; `html` says whether it must be converted to text.
    pub body: String,
    #[serde(default)]
    pub html: bool,
    #[serde(default)]
    pub meta: BTreeMap<String, serde_json::Value>,
    /// Attachments (metadata; the bytes are in the attachment store). Omitted when empty.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<Attachment>,
}

/// One line of `inbox/<day>.jsonl`. Text fields are sanitized at ingestion and bounded.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InboxRecord {
    pub seq: u64,
    pub id: String,
    #[serde(with = "time::serde::rfc3339")]
    pub received_at: OffsetDateTime,
    pub profile: String,
    pub channel: Channel,
    #[serde(default)]
    pub thread_id: Option<String>,
    pub from: Party,
    #[serde(default)]
    pub to: Vec<Party>,
    #[serde(default)]
    pub subject: Option<String>,
    #[serde(with = "time::serde::rfc3339")]
    pub ts: OffsetDateTime,
    pub text: String,
    pub preview: String,
    #[serde(default)]
    pub meta: BTreeMap<String, serde_json::Value>,
    /// Always true: inbound content is data, never instructions.
    pub untrusted: bool,
    /// Attachments: metadata only, sanitized. Omitted when empty, so records written before
    /// attachments existed read back unchanged.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<Attachment>,
}

/// One attachment of an inbound item, as the record keeps it: metadata only. The bytes live in
/// the attachment store (`store/attachments.rs`) under `sha256`, never in the record.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attachment {
    /// Display name, neutralized (`store::attachments::safe_name`): never a path, never used
    /// as a file name on disk.
    pub name: String,
    /// Media type as declared by the sender (`application/pdf`), lower case.
    pub media_type: String,
    /// Size in bytes (declared by the source when the bytes were not fetched).
    pub size: u64,
    /// Hex SHA-256 of the bytes; absent when they were never seen (too large to fetch).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// Shown in the body (an inline image) rather than attached.
    #[serde(default, skip_serializing_if = "is_false")]
    pub inline: bool,
    /// Whether the bytes are in the store, or why not.
    pub status: AttachmentStatus,
    /// Text extracted from a text or HTML attachment, sanitized like bodies and bounded.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Set for executable or macro-bearing types (`executable`, `macro`, `script`): shown as a
    /// warning on every surface.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub risk: Option<String>,
}

fn is_false(b: &bool) -> bool {
    !*b
}

/// Whether an attachment's bytes are stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AttachmentStatus {
    Stored,
    /// Larger than `[attachments] max_file_bytes`: not stored.
    TooLarge,
    /// The message's attachments together exceed `max_message_bytes`: this one not stored.
    MessageTooLarge,
    /// The store reached `quota_bytes`: not stored.
    QuotaFull,
    /// A link to a file kept elsewhere (a Graph `referenceAttachment`): there are no bytes.
    Link,
}

impl AttachmentStatus {
    /// The marker shown in place of the bytes.
    pub fn marker(self) -> &'static str {
        match self {
            AttachmentStatus::Stored => "stored",
            AttachmentStatus::TooLarge => "too large, not stored",
            AttachmentStatus::MessageTooLarge => "message attachments too large, not stored",
            AttachmentStatus::QuotaFull => "attachment store full, not stored",
            AttachmentStatus::Link => "link to a cloud file, no bytes",
        }
    }
}

/// A byte count for people: `512 B`, `12.3 kB`, `4.0 MB` (decimal units, as file managers
/// and mail clients show sizes).
pub fn human_size(n: u64) -> String {
    match n {
        0..1_000 => format!("{n} B"),
        1_000..1_000_000 => format!("{:.1} kB", n as f64 / 1e3),
        1_000_000..1_000_000_000 => format!("{:.1} MB", n as f64 / 1e6),
        _ => format!("{:.1} GB", n as f64 / 1e9),
    }
}

impl Attachment {
    /// One line for people: name, type, size, stored or the marker, inline, a risk warning.
    /// Not escaped for a terminal: callers apply `sanitize::for_terminal`.
    pub fn summary(&self) -> String {
        let mut line = format!(
            "{}  {}  {}  {}",
            self.name,
            self.media_type,
            human_size(self.size),
            self.status.marker()
        );
        if self.inline {
            line.push_str("  (inline)");
        }
        if let Some(r) = &self.risk {
            line.push_str(&format!("  ! {r} type: do not open unless expected"));
        }
        line
    }

    /// The MCP resource naming the stored bytes (`opsdesk://attachments/{sha256}`).
    pub fn uri(&self) -> Option<String> {
        match (self.status, &self.sha256) {
            (AttachmentStatus::Stored, Some(h)) => Some(format!("opsdesk://attachments/{h}")),
            _ => None,
        }
    }
}

/// An inbox seq as people write it: `12`, or `#12` as lists print it. `None` for anything
/// else (a source id).
pub fn parse_seq(s: &str) -> Option<u64> {
    let digits = s.trim().strip_prefix('#').unwrap_or(s.trim());
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    digits.parse().ok()
}
