//! Reads of the assistant's results (`Query::TriageList`, `Query::DeadlinesList`): typed
//! answers for the CLI and the MCP tools, each item naming its `profile` so the PHI view can
//! attribute it.

use serde::Serialize;
use serde_json::json;

use super::query::{Answer, MAX_READ};
use super::{Engine, EngineError};
use crate::assistant::store::{DeadlineRecord, TriageRecord};
use crate::assistant::triage::{Category, Urgency};

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct TriageItem {
    #[serde(flatten)]
    pub triage: TriageRecord,
    /// The item's sender (name or address) and subject, for a list a person reads.
    pub from: String,
    pub subject: Option<String>,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct TriageAnswer {
    pub items: Vec<TriageItem>,
    /// Inbox items not triaged yet (`opsdesk triage run` does them).
    pub untriaged: usize,
}

#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct DeadlinesAnswer {
    pub deadlines: Vec<DeadlineRecord>,
}

fn parse_opt<T: std::str::FromStr<Err = String>>(
    field: &str,
    v: Option<String>,
) -> Result<Option<T>, EngineError> {
    v.filter(|s| !s.trim().is_empty())
        .map(|s| s.trim().parse::<T>())
        .transpose()
        .map_err(|e| EngineError::invalid(e, json!({"field": field})))
}

impl Engine {
    pub(super) fn triage_answer(
        &self,
        profile: Option<String>,
        category: Option<String>,
        urgency: Option<String>,
        limit: usize,
    ) -> Result<(Answer, String), EngineError> {
        self.check_profile(profile.as_deref())?;
        let category: Option<Category> = parse_opt("category", category)?;
        let urgency: Option<Urgency> = parse_opt("urgency", urgency)?;
        let all = self.assistant.triage()?;
        let untriaged = (self.inbox.last_seq()? as usize).saturating_sub(all.len());
        let mut items = Vec::new();
        for t in all.into_values().rev() {
            if items.len() >= limit.clamp(1, MAX_READ) {
                break;
            }
            if profile.as_deref().is_some_and(|p| p != t.profile)
                || category.is_some_and(|c| c != t.category)
                || urgency.is_some_and(|u| u != t.urgency)
            {
                continue;
            }
            let (from, subject) = match self.inbox.get(t.seq)? {
                Some(r) => (r.from.label().to_string(), r.subject),
                None => (String::new(), None),
            };
            items.push(TriageItem {
                triage: t,
                from,
                subject,
            });
        }
        let target = format!("returned={}", items.len());
        Ok((Answer::Triage(TriageAnswer { items, untriaged }), target))
    }

    pub(super) fn deadlines_answer(
        &self,
        profile: Option<String>,
        limit: usize,
    ) -> Result<(Answer, String), EngineError> {
        self.check_profile(profile.as_deref())?;
        let mut deadlines: Vec<DeadlineRecord> = self
            .assistant
            .deadlines()?
            .into_iter()
            .filter(|d| profile.as_deref().is_none_or(|p| p == d.profile))
            .collect();
        // Soonest first; undated last; newest item first among equals.
        deadlines.sort_by(|a, b| {
            (
                a.found.due.is_none(),
                &a.found.due,
                std::cmp::Reverse(a.seq),
            )
                .cmp(&(
                    b.found.due.is_none(),
                    &b.found.due,
                    std::cmp::Reverse(b.seq),
                ))
        });
        deadlines.truncate(limit.clamp(1, MAX_READ));
        let target = format!("returned={}", deadlines.len());
        Ok((Answer::Deadlines(DeadlinesAnswer { deadlines }), target))
    }
}
