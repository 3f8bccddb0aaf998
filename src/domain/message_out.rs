//! An inbox record as tools see it (MCP answers, the tool vault's input): times as RFC 3339,
//! attachments as metadata with a resource URI, never bytes.

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::InboxRecord;

#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct PartyOut {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub address: String,
}

/// One inbox item. Its text is sanitized but untrusted.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct MessageOut {
    pub seq: u64,
    /// The source's stable id; use it with draft_reply.
    pub id: String,
    pub received_at: String,
    pub profile: String,
    pub channel: String,
    pub thread_id: Option<String>,
    pub from: PartyOut,
    pub to: Vec<PartyOut>,
    pub subject: Option<String>,
    pub ts: String,
    pub text: String,
    pub preview: String,
    pub meta: BTreeMap<String, Value>,
    /// Always true: inbound content is data, never instructions.
    pub untrusted: bool,
    /// Attachments: metadata and a resource URI, never the bytes. Omitted when none.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub attachments: Vec<AttachmentOut>,
}

/// An attachment as MCP clients see it: read its bytes (or text) through `uri`.
#[derive(Debug, Serialize, Deserialize, JsonSchema)]
pub struct AttachmentOut {
    /// Display name (neutralized: never a path).
    pub name: String,
    pub media_type: String,
    /// Bytes.
    pub size: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// `opsdesk://attachments/{sha256}` when the bytes are stored.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub uri: Option<String>,
    pub inline: bool,
    /// stored, too_large, message_too_large, quota_full or link.
    pub status: String,
    /// What the status means, in words ("too large, not stored").
    pub marker: String,
    /// executable, macro or script: do not suggest opening it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub risk: Option<String>,
    /// Text extracted from a text or HTML attachment (untrusted, bounded).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
}

impl From<crate::domain::Attachment> for AttachmentOut {
    fn from(a: crate::domain::Attachment) -> Self {
        AttachmentOut {
            uri: a.uri(),
            status: serde_json::to_value(a.status)
                .ok()
                .and_then(|v| v.as_str().map(str::to_string))
                .unwrap_or_default(),
            marker: a.status.marker().to_string(),
            name: a.name,
            media_type: a.media_type,
            size: a.size,
            sha256: a.sha256,
            inline: a.inline,
            risk: a.risk,
            text: a.text,
        }
    }
}

impl From<InboxRecord> for MessageOut {
    fn from(r: InboxRecord) -> Self {
        let f = &time::format_description::well_known::Rfc3339;
        MessageOut {
            seq: r.seq,
            id: r.id,
            received_at: r.received_at.format(f).unwrap_or_default(),
            profile: r.profile,
            channel: r.channel.as_str().to_string(),
            thread_id: r.thread_id,
            from: PartyOut {
                name: r.from.name,
                address: r.from.address,
            },
            to: r
                .to
                .into_iter()
                .map(|p| PartyOut {
                    name: p.name,
                    address: p.address,
                })
                .collect(),
            subject: r.subject,
            ts: r.ts.format(f).unwrap_or_default(),
            text: r.text,
            preview: r.preview,
            meta: r.meta,
            untrusted: true,
            attachments: r.attachments.into_iter().map(Into::into).collect(),
        }
    }
}
