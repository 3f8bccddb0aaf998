//! Reminders of drafts that wait too long: every draft pending longer than
//! `[drafts] remind_after_hours` is listed in one reminder, and a surface shows at most one
//! reminder per `remind_every_minutes` (one toast naming N drafts, never N toasts, and not
//! again a minute later). The time is passed in, so tests choose the clock.
//!
//! Each surface (`opsdesk watch`, the console) keeps its own [`Reminders`]: a reminder is a
//! nudge on that screen, not a state of the queue, so nothing is written or audited.

use time::{Duration, OffsetDateTime};

use crate::config::drafts_ttl::DraftsConfig;
use crate::domain::{Draft, DraftStatus};

/// How many drafts a reminder names one by one; the rest are counted.
pub(crate) const MAX_LISTED: usize = 8;

/// One surface's reminder state.
#[derive(Debug, Clone)]
pub struct Reminders {
    after: Duration,
    every: Duration,
    last: Option<OffsetDateTime>,
}

/// A draft overdue for a decision, as a reminder names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Overdue {
    pub id: String,
    pub profile: String,
    pub kind: &'static str,
    pub recipients: String,
    pub subject: String,
    pub age: Duration,
}

/// Every overdue draft at one moment, oldest first.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reminder {
    pub after: Duration,
    pub drafts: Vec<Overdue>,
}

impl Reminders {
    /// The reminder state for `[drafts]`; `None` when reminders are off.
    pub fn new(cfg: &DraftsConfig) -> Option<Reminders> {
        Some(Reminders {
            after: cfg.remind_after()?,
            every: cfg.remind_every(),
            last: None,
        })
    }

    /// The reminder due at `now`, if any: drafts are overdue and none was given within the
    /// interval. Giving it starts the interval.
    pub fn check<'a>(
        &mut self,
        drafts: impl IntoIterator<Item = &'a Draft>,
        now: OffsetDateTime,
    ) -> Option<Reminder> {
        if self.last.is_some_and(|t| now - t < self.every) {
            return None;
        }
        let mut overdue: Vec<Overdue> = drafts
            .into_iter()
            .filter(|d| d.status == DraftStatus::Pending && now - d.created_at >= self.after)
            .map(|d| Overdue {
                id: d.id.clone(),
                profile: d.profile.clone(),
                kind: d.outbound.kind(),
                recipients: d.outbound.recipients().join(", "),
                subject: d.outbound.subject().unwrap_or("").to_string(),
                age: now - d.created_at,
            })
            .collect();
        if overdue.is_empty() {
            return None;
        }
        overdue.sort_by_key(|d| std::cmp::Reverse(d.age));
        self.last = Some(now);
        Some(Reminder {
            after: self.after,
            drafts: overdue,
        })
    }
}

impl Reminder {
    /// One line: "3 drafts waiting longer than 24 h: d-… (2d), d-… (30h), …".
    pub fn line(&self) -> String {
        let n = self.drafts.len();
        let ids: Vec<String> = self
            .drafts
            .iter()
            .take(MAX_LISTED)
            .map(|d| format!("{} ({})", d.id, short_age(d.age)))
            .collect();
        let more = n.saturating_sub(MAX_LISTED);
        format!(
            "{}: {}{}",
            self.summary(),
            ids.join(", "),
            if more > 0 {
                format!(" and {more} more")
            } else {
                String::new()
            }
        )
    }

    /// The title: "3 drafts waiting longer than 24 h".
    pub fn summary(&self) -> String {
        let n = self.drafts.len();
        format!(
            "{n} draft{} waiting longer than {} h",
            if n == 1 { "" } else { "s" },
            self.after.whole_hours()
        )
    }

    /// One line per draft (the first [`MAX_LISTED`]): id, age, kind, recipients, subject.
    pub fn body_lines(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .drafts
            .iter()
            .take(MAX_LISTED)
            .map(|d| {
                let mut l = format!(
                    "{} {} {} to {}",
                    d.id,
                    short_age(d.age),
                    d.kind,
                    d.recipients
                );
                if !d.subject.is_empty() {
                    l.push_str(&format!(" · {}", d.subject));
                }
                crate::sanitize::one_line(&l, 160)
            })
            .collect();
        let more = self.drafts.len().saturating_sub(MAX_LISTED);
        if more > 0 {
            out.push(format!("and {more} more: opsdesk drafts list"));
        }
        out
    }
}

fn short_age(age: Duration) -> String {
    let h = age.whole_hours();
    if h >= 48 {
        format!("{}d", h / 24)
    } else {
        format!("{h}h")
    }
}
