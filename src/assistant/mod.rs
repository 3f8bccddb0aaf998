//! The assistant's jobs (issue 13): triage, deadline extraction and reply drafting. This module
//! holds the parts that need no engine: the deterministic rules, the prompts, the strict
//! parsing of model answers ([`answer`]) and the durable store of results ([`store`]). The
//! engine runs them as jobs through the LLM router (`engine/assistant_jobs.rs`) on its job
//! runner (`engine/jobs.rs`).
//!
//! Inbound text is untrusted: every prompt says so, and a model answer is used only after it
//! parsed against its schema and passed the hard bans. An answer that fails is a recorded
//! failure with the reason; triage and deadlines then keep the rule result, a draft is not made.

pub(crate) mod answer;
pub mod brief_check;
pub(crate) mod deadlines;
pub(crate) mod filing;
pub(crate) mod reply;
pub mod store;
pub mod triage;

/// The named jobs of the runner; each name is also the router's job (`llm.jobs.<name>`).
#[derive(
    Debug,
    Clone,
    Copy,
    PartialEq,
    Eq,
    Hash,
    PartialOrd,
    Ord,
    serde::Serialize,
    serde::Deserialize,
    schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum JobKind {
    Triage,
    Deadlines,
    Draft,
    Brief,
    Filing,
}

impl JobKind {
    pub const ALL: [JobKind; 5] = [
        JobKind::Triage,
        JobKind::Deadlines,
        JobKind::Draft,
        JobKind::Brief,
        JobKind::Filing,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            JobKind::Triage => "triage",
            JobKind::Deadlines => "deadlines",
            JobKind::Draft => "draft",
            JobKind::Brief => "brief",
            JobKind::Filing => "filing",
        }
    }
}

impl std::fmt::Display for JobKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.pad(self.as_str())
    }
}

impl std::str::FromStr for JobKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        JobKind::ALL
            .into_iter()
            .find(|k| k.as_str() == s)
            .ok_or_else(|| {
                format!("unknown job `{s}`; jobs: triage, deadlines, draft, brief, filing")
            })
    }
}

/// The operator's time zone as the jobs use it (`[operator] time_zone`, else the system's):
/// dates in prompts and the rules' deadlines are the operator's days, not UTC's.
#[derive(Debug, Clone)]
pub struct Zone {
    pub name: String,
    zone: jiff::tz::TimeZone,
}

impl Zone {
    pub fn of(op: &crate::config::OperatorConfig) -> Zone {
        Zone {
            name: op.zone_name(),
            zone: op.zone(),
        }
    }
    pub fn utc() -> Zone {
        Zone {
            name: "UTC".into(),
            zone: jiff::tz::TimeZone::UTC,
        }
    }
    pub fn offset_at(&self, t: time::OffsetDateTime) -> time::UtcOffset {
        crate::config::offset_in(&self.zone, t)
    }
}

/// The message as a model sees it: headers and text, fenced as data, then its attachments
/// (name, type, size, and the text extracted from text attachments, within what is left of
/// the bound). Bounded so one long message cannot make a prompt that no small model can take.
/// `Sent` is in the operator's zone with its weekday, so "by Friday" resolves to the
/// operator's Friday.
pub(crate) fn message_block(r: &crate::domain::InboxRecord, max_chars: usize, tz: &Zone) -> String {
    let sent = r.ts.to_offset(tz.offset_at(r.ts));
    let text: String = r.text.chars().take(max_chars).collect();
    let cut = if r.text.chars().count() > max_chars {
        "\n[…cut]"
    } else {
        ""
    };
    let mut atts = String::new();
    let mut left = max_chars.saturating_sub(text.chars().count());
    for a in &r.attachments {
        atts.push_str(&format!(
            "\n<attachment name=\"{}\" type=\"{}\" size=\"{}\">",
            a.name, a.media_type, a.size
        ));
        if let Some(t) = &a.text {
            let part: String = t.chars().take(left).collect();
            left -= part.chars().count();
            atts.push('\n');
            atts.push_str(&part);
            if part.chars().count() < t.chars().count() {
                atts.push_str("\n[…cut]");
            }
        }
        atts.push_str("\n</attachment>");
    }
    format!(
        "<message seq=\"{}\" channel=\"{}\">\nFrom: {} <{}>\nSubject: {}\nSent: {} ({}) {:02}:{:02} {}\n\n{}{}{}\n</message>",
        r.seq,
        r.channel,
        r.from.name,
        r.from.address,
        r.subject.as_deref().unwrap_or(""),
        sent.date(),
        sent.weekday(),
        sent.hour(),
        sent.minute(),
        tz.name,
        text,
        cut,
        atts
    )
}
