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
    /// With the filter `profile: "unassigned"`: the items waiting for the operator to assign
    /// them a profile (`opsdesk triage assign SEQ PROFILE`), triaged or not, newest first.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub waiting: Vec<super::assign::WaitingItem>,
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
        // A triage names the profile the item had when it was triaged; the operator may have
        // assigned it since.
        let assigned = self.inbox.assignments().current()?;
        let mut items = Vec::new();
        for mut t in all.into_values().rev() {
            if let Some(a) = assigned.get(&t.seq)
                && a.id == t.id
            {
                t.profile = a.profile.clone();
            }
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
        let waiting = if profile.as_deref() == Some(crate::domain::UNASSIGNED) {
            self.waiting_unassigned(limit.clamp(1, MAX_READ))?
        } else {
            Vec::new()
        };
        let target = format!("returned={}", items.len() + waiting.len());
        Ok((
            Answer::Triage(TriageAnswer {
                items,
                untriaged,
                waiting,
            }),
            target,
        ))
    }

    pub(super) fn deadlines_answer(
        &self,
        profile: Option<String>,
        limit: usize,
    ) -> Result<(Answer, String), EngineError> {
        self.check_profile(profile.as_deref())?;
        let assigned = self.inbox.assignments().current()?;
        let mut deadlines: Vec<DeadlineRecord> = self
            .assistant
            .deadlines()?
            .into_iter()
            .map(|mut d| {
                if let Some(a) = assigned.get(&d.seq)
                    && a.id == d.id
                {
                    d.profile = a.profile.clone();
                }
                d
            })
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
