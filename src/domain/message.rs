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
        f.write_str(self.as_str())
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
}
