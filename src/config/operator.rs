//! `[operator]` (who the operator is, their time zone) and `[drafting]` (the house style drafts
//! are written in). Both are shown to MCP clients as resources
//! (`opsdesk://config/operator_profile`, `opsdesk://config/draft_style`) so a client writes in
//! the operator's name, zone and style.

use serde::{Deserialize, Serialize};

/// `[operator]`.
#[derive(Debug, Clone, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct OperatorConfig {
    /// How drafts and briefs name the operator.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Alex Morgan")]
    pub name: Option<String>,
    /// IANA time zone, e.g. `America/Chicago`.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"America/Chicago")]
    pub time_zone: Option<String>,
    /// How an all-numeric date whose parts could be day or month reads in English mail:
    /// `mdy` (`03/12` is March 12, the default) or `dmy` (3 December). German and Spanish
    /// messages are read day first whatever this says; a part over 12 always decides.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"dmy")]
    pub date_order: Option<DateOrder>,
}

/// `[operator] date_order`.
#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "lowercase")]
pub enum DateOrder {
    #[default]
    Mdy,
    Dmy,
}

/// `[drafting]`: how drafts should read.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
#[serde(deny_unknown_fields, default)]
pub struct DraftingConfig {
    /// Tone in a few words.
    pub tone: String,
    /// Sign-off line put before the signature.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Best,")]
    pub sign_off: Option<String>,
    /// Signature block appended to mail drafts.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"Alex Morgan\nContoso")]
    pub signature: Option<String>,
    /// Longest draft body, in words (0: no limit).
    pub max_words: u32,
    /// Plain text (default) or HTML bodies.
    pub format: DraftFormat,
    /// The language replies are written in (e.g. "English", "Dutch"); none: the message's.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"English")]
    pub language: Option<String>,
    /// Further house-style instructions in the operator's words, given to the draft job's
    /// model (e.g. "first names; no exclamation marks").
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(example = &"first names; no exclamation marks")]
    pub style: Option<String>,
}

#[derive(
    Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, schemars::JsonSchema,
)]
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
            language: None,
            style: None,
        }
    }
}

impl OperatorConfig {
    /// The operator's zone: `time_zone` when set (validated at load), else the system's
    /// (`TZ`, `/etc/localtime`), else UTC.
    pub fn zone(&self) -> jiff::tz::TimeZone {
        self.time_zone
            .as_deref()
            .and_then(|n| jiff::tz::TimeZone::get(n).ok())
            .unwrap_or_else(|| jiff::tz::TimeZone::try_system().unwrap_or(jiff::tz::TimeZone::UTC))
    }

    /// The operator's UTC offset at `t` (daylight saving applied), for "today", the brief's
    /// days and the dates deadlines resolve to.
    pub fn offset_at(&self, t: time::OffsetDateTime) -> time::UtcOffset {
        offset_in(&self.zone(), t)
    }

    /// The zone's name as shown to people and models (`America/Chicago`, or `UTC±hh:mm`
    /// for a zone without a name).
    pub fn zone_name(&self) -> String {
        let z = self.zone();
        z.iana_name().map(str::to_string).unwrap_or_else(|| {
            let off = offset_in(&z, time::OffsetDateTime::now_utc());
            let (h, m, _) = off.as_hms();
            format!(
                "UTC{}{:02}:{:02}",
                if off.is_negative() { '-' } else { '+' },
                h.abs(),
                m.abs()
            )
        })
    }
}

/// `zone`'s offset at `t`.
pub fn offset_in(zone: &jiff::tz::TimeZone, t: time::OffsetDateTime) -> time::UtcOffset {
    jiff::Timestamp::from_second(t.unix_timestamp())
        .ok()
        .map(|ts| zone.to_offset(ts).seconds())
        .and_then(|s| time::UtcOffset::from_whole_seconds(s).ok())
        .unwrap_or(time::UtcOffset::UTC)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_operators_zone_follows_daylight_saving() {
        let op = OperatorConfig {
            name: None,
            time_zone: Some("America/Chicago".into()),
            date_order: None,
        };
        let winter = time::macros::datetime!(2026-01-15 12:00 UTC);
        let summer = time::macros::datetime!(2026-07-15 12:00 UTC);
        assert_eq!(op.offset_at(winter), time::macros::offset!(-6));
        assert_eq!(op.offset_at(summer), time::macros::offset!(-5));
        assert_eq!(op.zone_name(), "America/Chicago");
    }
}

#[cfg(test)]
mod date_order_tests {
    use super::*;

    #[test]
    fn date_order_reads_mdy_and_dmy_and_refuses_anything_else() {
        let op: OperatorConfig = toml::from_str("date_order = \"dmy\"").unwrap();
        assert_eq!(op.date_order, Some(DateOrder::Dmy));
        let op: OperatorConfig = toml::from_str("").unwrap();
        assert_eq!(op.date_order, None);
        let err = toml::from_str::<OperatorConfig>("date_order = \"yd\"").unwrap_err();
        assert!(err.to_string().contains("mdy"), "{err}");
    }
}
