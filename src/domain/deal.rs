//! Deals: what the operator is working on with counterparties, kept as an event log
//! (`deals/deals.jsonl`) like the drafts queue. A deal belongs to one profile (entity) and only
//! ever links messages of that profile.

use std::fmt;
use std::str::FromStr;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use time::OffsetDateTime;

use super::Actor;

/// Where a deal stands. `won` and `lost` close it: closed deals take no automatic links.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum DealStage {
    Lead,
    Diligence,
    Negotiation,
    Closing,
    Won,
    Lost,
}

impl DealStage {
    pub const ALL: [DealStage; 6] = [
        DealStage::Lead,
        DealStage::Diligence,
        DealStage::Negotiation,
        DealStage::Closing,
        DealStage::Won,
        DealStage::Lost,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            DealStage::Lead => "lead",
            DealStage::Diligence => "diligence",
            DealStage::Negotiation => "negotiation",
            DealStage::Closing => "closing",
            DealStage::Won => "won",
            DealStage::Lost => "lost",
        }
    }

    pub fn is_open(self) -> bool {
        !matches!(self, DealStage::Won | DealStage::Lost)
    }

    pub fn names() -> Vec<&'static str> {
        DealStage::ALL.iter().map(|s| s.as_str()).collect()
    }
}

impl fmt::Display for DealStage {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.pad(self.as_str())
    }
}

impl FromStr for DealStage {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        DealStage::ALL
            .into_iter()
            .find(|k| k.as_str() == s.trim().to_ascii_lowercase())
            .ok_or_else(|| {
                format!(
                    "unknown deal stage `{}` (valid stages: {})",
                    crate::sanitize::one_line(s, 40),
                    DealStage::names().join(", ")
                )
            })
    }
}

/// A named date of a deal (signing, closing, exclusivity ends), a calendar day.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct KeyDate {
    /// What the date is, e.g. `closing`.
    pub label: String,
    /// The day, `YYYY-MM-DD`.
    pub date: String,
}

impl KeyDate {
    /// The day, if `date` is a valid `YYYY-MM-DD`.
    pub fn day(&self) -> Option<time::Date> {
        time::Date::parse(&self.date, DAY).ok()
    }

    /// Parse `label=YYYY-MM-DD` (the CLI's form).
    pub fn parse_pair(s: &str) -> Result<KeyDate, String> {
        let (label, date) = s
            .split_once('=')
            .ok_or_else(|| format!("`{s}` is not label=YYYY-MM-DD (e.g. closing=2026-12-15)"))?;
        let k = KeyDate {
            label: label.trim().to_string(),
            date: date.trim().to_string(),
        };
        if k.label.is_empty() {
            return Err(format!("`{s}` has no label (e.g. closing=2026-12-15)"));
        }
        if k.day().is_none() {
            return Err(format!("`{}` is not a date YYYY-MM-DD", k.date));
        }
        Ok(k)
    }
}

const DAY: &[time::format_description::FormatItem<'static>] =
    time::macros::format_description!("[year]-[month]-[day]");

/// What a new deal starts with: the content of `deals create` or of a proposal (`deal_create`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DealSpec {
    pub name: String,
    /// Counterparties: names, mail addresses or mail domains (`acme.example`). Addresses and
    /// domains are what new mail is matched against.
    #[serde(default)]
    pub counterparties: Vec<String>,
    #[serde(default = "lead")]
    pub stage: DealStage,
    #[serde(default)]
    pub key_dates: Vec<KeyDate>,
    #[serde(default)]
    pub notes: String,
    /// Words that link new mail to this deal when they appear in its subject or text.
    #[serde(default)]
    pub keywords: Vec<String>,
}

fn lead() -> DealStage {
    DealStage::Lead
}

/// How a message came to be linked.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum LinkRule {
    /// The operator linked it.
    Manual,
    /// Same thread as a message already linked.
    Thread,
    /// A sender or recipient is a counterparty.
    Participant,
    /// One of the deal's keywords appears in it.
    Keyword,
}

impl LinkRule {
    pub fn as_str(self) -> &'static str {
        match self {
            LinkRule::Manual => "manual",
            LinkRule::Thread => "thread",
            LinkRule::Participant => "participant",
            LinkRule::Keyword => "keyword",
        }
    }
}

/// A message linked to a deal, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
pub struct DealLink {
    /// The inbox item's source id.
    pub message_id: String,
    pub seq: u64,
    /// The message's profile (always the deal's: the fold refuses anything else).
    pub profile: String,
    #[serde(default)]
    pub thread_id: Option<String>,
    pub rule: LinkRule,
    /// Why, in words (`participant ann@acme.example is a counterparty`).
    pub reason: String,
}

/// One event of the deals log.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct DealEvent {
    #[serde(with = "time::serde::rfc3339")]
    pub ts: OffsetDateTime,
    pub deal_id: String,
    pub actor: Actor,
    #[serde(flatten)]
    pub kind: DealEventKind,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
pub enum DealEventKind {
    Created {
        profile: String,
        spec: DealSpec,
        /// The draft (proposal) it was accepted from, if any.
        #[serde(default)]
        proposal: Option<String>,
    },
    StageChanged {
        stage: DealStage,
        #[serde(default)]
        note: Option<String>,
    },
    Linked {
        link: DealLink,
    },
    Unlinked {
        message_id: String,
        reason: String,
    },
}

impl DealEventKind {
    pub fn name(&self) -> &'static str {
        match self {
            DealEventKind::Created { .. } => "created",
            DealEventKind::StageChanged { .. } => "stage_changed",
            DealEventKind::Linked { .. } => "linked",
            DealEventKind::Unlinked { .. } => "unlinked",
        }
    }

    /// One line for a timeline.
    pub fn summary(&self) -> String {
        match self {
            DealEventKind::Created { spec, proposal, .. } => match proposal {
                Some(p) => format!("created at stage {} (proposal {p})", spec.stage),
                None => format!("created at stage {}", spec.stage),
            },
            DealEventKind::StageChanged { stage, note } => match note {
                Some(n) => format!("stage → {stage}: {n}"),
                None => format!("stage → {stage}"),
            },
            DealEventKind::Linked { link } => format!(
                "linked message #{} ({}: {})",
                link.seq,
                link.rule.as_str(),
                link.reason
            ),
            DealEventKind::Unlinked { message_id, reason } => {
                format!("unlinked message {message_id}: {reason}")
            }
        }
    }
}

/// A deal as the fold of its events.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Deal {
    pub id: String,
    /// The entity the deal belongs to.
    pub profile: String,
    pub name: String,
    pub counterparties: Vec<String>,
    pub stage: DealStage,
    pub key_dates: Vec<KeyDate>,
    pub notes: String,
    pub keywords: Vec<String>,
    /// Linked messages, in the order they were linked.
    pub links: Vec<DealLink>,
    /// The proposal (draft id) the deal was accepted from.
    pub proposal: Option<String>,
    /// When the stage last changed (its creation counts as none).
    #[serde(default, with = "time::serde::rfc3339::option")]
    #[schemars(with = "Option<String>")]
    pub stage_changed_at: Option<OffsetDateTime>,
    #[schemars(with = "String")]
    pub created_by: Actor,
    #[serde(with = "time::serde::rfc3339")]
    #[schemars(with = "String")]
    pub created_at: OffsetDateTime,
    #[serde(with = "time::serde::rfc3339")]
    #[schemars(with = "String")]
    pub updated_at: OffsetDateTime,
}

impl Deal {
    pub fn is_open(&self) -> bool {
        self.stage.is_open()
    }

    pub fn linked(&self, message_id: &str) -> Option<&DealLink> {
        self.links.iter().find(|l| l.message_id == message_id)
    }

    /// Threads of the linked messages (new mail in them links itself).
    pub fn threads(&self) -> impl Iterator<Item = &str> {
        self.links.iter().filter_map(|l| l.thread_id.as_deref())
    }
}

/// The deal id a proposal (draft `d-<hex>`) becomes when accepted: derived, so accepting twice
/// (a crash between the deal and the draft's `executed`) finds the deal already there.
pub fn deal_id_for_proposal(draft_id: &str) -> String {
    format!("deal-{}", draft_id.trim_start_matches("d-"))
}

pub fn new_deal_id() -> String {
    let u = uuid::Uuid::new_v4().simple().to_string();
    format!("deal-{}", &u[..10])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stages_parse_by_name_and_closed_ones_are_not_open() {
        assert_eq!("Closing".parse::<DealStage>().unwrap(), DealStage::Closing);
        assert!(
            "signed"
                .parse::<DealStage>()
                .unwrap_err()
                .contains("valid stages")
        );
        assert!(!DealStage::Won.is_open() && !DealStage::Lost.is_open());
        assert!(DealStage::Lead.is_open());
    }

    #[test]
    fn key_dates_need_a_label_and_a_real_day() {
        let k = KeyDate::parse_pair("closing=2026-12-15").unwrap();
        assert_eq!(k.label, "closing");
        assert!(KeyDate::parse_pair("closing=2026-13-01").is_err());
        assert!(KeyDate::parse_pair("=2026-12-01").is_err());
        assert!(KeyDate::parse_pair("2026-12-01").is_err());
    }

    #[test]
    fn events_round_trip_through_json() {
        let ev = DealEvent {
            ts: crate::domain::now(),
            deal_id: "deal-1".into(),
            actor: Actor::Cli,
            kind: DealEventKind::StageChanged {
                stage: DealStage::Negotiation,
                note: None,
            },
        };
        let s = serde_json::to_string(&ev).unwrap();
        assert!(s.contains("\"event\":\"stage_changed\""), "{s}");
        assert_eq!(serde_json::from_str::<DealEvent>(&s).unwrap(), ev);
    }
}
