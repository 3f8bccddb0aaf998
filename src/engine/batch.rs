//! Batch decisions: several drafts approved or rejected in one step by the operator.
//!
//! A batch is all or nothing *before* anything is decided: every draft must exist, be pending,
//! appear once, and be of a kind the ladder lets be batched (`governance::ladder::
//! batch_eligible`; outbound mail to outsiders is not, by default). One ineligible draft
//! refuses the whole batch (audited as blocked, naming each). Then each draft is decided
//! through the very path a single decision takes (`ApproveDraft` / `RejectDraft` with the
//! digest the operator saw), so each is re-judged, bound to its own digest and audited on its
//! own; one that fails (its content changed meanwhile) does not undo the others, and the
//! answer says which went through.

use serde_json::json;

use super::{Call, Engine, EngineError};
use crate::domain::{Action, AuditOutcome, BatchDecision, BatchItem, Done, Outcome, Verdict};

/// The most drafts one batch may hold (a confirmation must still be readable).
pub const MAX_BATCH: usize = 100;

impl Engine {
    pub(super) fn decide_drafts(
        &self,
        name: &str,
        decision: BatchDecision,
        items: Vec<BatchItem>,
        cx: &Call,
    ) -> Result<Outcome, EngineError> {
        let verb = match &decision {
            BatchDecision::Approve => "approve",
            BatchDecision::Reject { .. } => "reject",
        };
        let ids: Vec<&str> = items.iter().map(|i| i.id.as_str()).collect();
        let target = ids.join(",");
        if !cx.actor.is_operator() {
            return self.blocked(
                name,
                cx,
                "",
                &target,
                Verdict::block(
                    "operator_only_approval",
                    format!(
                        "{} asked to {verb} drafts; only the operator decides on drafts",
                        cx.actor
                    ),
                    "decide in the opsdesk console or with `opsdesk drafts approve`",
                ),
            );
        }
        if items.is_empty() || items.len() > MAX_BATCH {
            return Err(EngineError::invalid(
                format!("a batch holds 1 to {MAX_BATCH} drafts, not {}", items.len()),
                json!({"field": "items", "max": MAX_BATCH}),
            ));
        }
        if let BatchDecision::Reject { reason } = &decision
            && reason.trim().is_empty()
        {
            return Err(EngineError::invalid(
                "a rejection needs a reason",
                json!({"field": "reason", "hint": "say why, e.g. \"stale\""}),
            ));
        }
        let mut ineligible = Vec::new();
        let mut profiles = std::collections::BTreeSet::new();
        for (i, item) in items.iter().enumerate() {
            if ids[..i].contains(&item.id.as_str()) {
                return Err(EngineError::invalid(
                    format!("draft {} is in the batch twice", item.id),
                    json!({"field": "items", "id": item.id}),
                ));
            }
            let d = self.existing_draft(&item.id)?;
            if d.status != crate::domain::DraftStatus::Pending {
                return Err(EngineError::invalid(
                    format!(
                        "draft {} is {}, not pending; take it out of the batch",
                        d.id,
                        d.status.as_str()
                    ),
                    json!({"field": "items", "id": d.id, "status": d.status.as_str()}),
                ));
            }
            profiles.insert(d.profile.clone());
            if let Err(why) =
                crate::governance::ladder::batch_eligible(&self.config, &d.profile, &d.outbound)
            {
                ineligible.push(format!("{}: {why}", d.id));
            }
        }
        let entity = if profiles.len() == 1 {
            profiles.pop_first().unwrap_or_default()
        } else {
            String::new()
        };
        if !ineligible.is_empty() {
            return self.blocked(
                name,
                cx,
                &entity,
                &target,
                Verdict::block(
                    "batch.ineligible_kind",
                    format!(
                        "nothing was decided: {} of {} drafts may not be decided in a batch ({})",
                        ineligible.len(),
                        items.len(),
                        ineligible.join("; ")
                    ),
                    "decide those one at a time (console: a / r on the draft; `opsdesk drafts approve ID`), or allow their kind in [drafts] batch_kinds",
                ),
            );
        }
        // The batch as a whole, then each decision on its own record.
        self.audit(
            cx.event(name, AuditOutcome::Ok)
                .entity(&entity)
                .target(target)
                .reason(format!("{verb} {} drafts one by one", items.len())),
        )?;
        let mut results = Vec::new();
        let mut decided = 0;
        for item in items {
            let action = match &decision {
                BatchDecision::Approve => Action::ApproveDraft {
                    id: item.id.clone(),
                    digest: Some(item.digest.clone()),
                },
                BatchDecision::Reject { reason } => Action::RejectDraft {
                    id: item.id.clone(),
                    reason: reason.clone(),
                },
            };
            let mut r = BatchResult {
                id: item.id.clone(),
                outcome: String::new(),
                rule: None,
                reason: None,
                remedy: None,
                error: None,
                detail: None,
            };
            match self.submit_call(action, cx) {
                Ok(Outcome::Done { .. }) => {
                    decided += 1;
                    r.outcome = "done".into();
                }
                Ok(Outcome::Blocked {
                    rule,
                    reason,
                    remedy,
                }) => {
                    r.outcome = "blocked".into();
                    (r.rule, r.reason, r.remedy) = (Some(rule), Some(reason), Some(remedy));
                }
                Ok(other) => {
                    r.outcome = "other".into();
                    r.detail = Some(Box::new(other));
                }
                Err(e) => {
                    r.outcome = "error".into();
                    r.error = Some(e.to_string());
                }
            }
            results.push(r);
        }
        Ok(Outcome::Done {
            detail: Done::Batch {
                decision: verb.to_string(),
                decided,
                results,
            },
        })
    }
}

/// How one draft of a batch went (the domain's type, named here for the surfaces' imports).
pub use crate::domain::BatchResult;
