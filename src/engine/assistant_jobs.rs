//! The assistant's jobs as engine work (issue 13): triage, deadline extraction and reply
//! drafting of one inbox item each, run in batches by the job runner (`jobs.rs`). Every model
//! call goes through [`Engine::llm_complete`] (ladder, provider selection job → entity →
//! default, HIPAA filter, redaction on every hop, router audit); every answer is parsed
//! strictly and checked against the hard bans before it is used; every item's outcome is
//! audited (`assistant.triage`, `assistant.deadlines`, `assistant.draft`) with the reason a
//! model answer was not used. Triage and deadlines then keep the rule result; a draft is not
//! made. Deadlines run the rules always and merge a valid model answer into them (issue 30):
//! the model adds, confirms or disagrees, never removes a rule finding.

use std::sync::Arc;

use serde::Serialize;
use serde_json::json;

use super::{Engine, EngineError};
use crate::assistant::store::{DeadlineRecord, TriageRecord};
use crate::assistant::triage::{Category, DecidedBy, Urgency};
use crate::assistant::{JobKind, deadlines, reply, triage};
use crate::config::ActionKind;
use crate::domain::{Action, Actor, AuditEvent, AuditOutcome, InboxRecord, Outcome, Verdict};
use crate::llm::{ChatMessage, LlmRequest, LlmResponse};

/// Why a job's item produced no usable result.
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    #[error(transparent)]
    Engine(#[from] EngineError),
    /// The model gave no usable answer (call failed or blocked, or the answer was rejected).
    #[error("{0}")]
    Model(String),
}

/// The deadlines of one item after a job.
#[derive(Debug, Clone, Serialize, schemars::JsonSchema)]
pub struct DeadlinesOfItem {
    pub seq: u64,
    pub profile: String,
    pub deadlines: Vec<DeadlineRecord>,
    /// How many of them were not stored before.
    pub new: usize,
    /// Why the model's answer was not used (the rules' deadlines are then returned).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub model_error: Option<String>,
}

impl Engine {
    pub(super) fn item(&self, seq: u64) -> Result<InboxRecord, EngineError> {
        self.inbox.get(seq)?.ok_or_else(|| {
            EngineError::NotFound(format!(
                "no inbox item with seq {seq}; `opsdesk inbox list` shows the seqs"
            ))
        })
    }

    pub(super) fn job_audit(
        &self,
        job: JobKind,
        actor: &Actor,
        r: &InboxRecord,
        outcome: AuditOutcome,
        reason: String,
    ) -> Result<(), EngineError> {
        self.audit(
            AuditEvent::new(format!("assistant.{job}"), actor, outcome)
                .entity(r.profile.clone())
                .tool(format!("llm:{job}"))
                .target(format!("seq {}", r.seq))
                .reason(reason),
        )
        .map(|_| ())
    }

    /// The audit record of a job's result (not a refusal): written before the result is
    /// stored or returned, fsync'd by the shared syncer (a re-run redoes a lost job).
    fn job_result_audit(
        &self,
        job: JobKind,
        actor: &Actor,
        r: &InboxRecord,
        outcome: AuditOutcome,
        reason: String,
    ) -> Result<(), EngineError> {
        self.audit_deferred(
            AuditEvent::new(format!("assistant.{job}"), actor, outcome)
                .entity(r.profile.clone())
                .tool(format!("llm:{job}"))
                .target(format!("seq {}", r.seq))
                .reason(reason),
        )
        .map(|_| ())
    }

    /// One model call of `job` about `r`: the answer, or why there is none.
    pub(super) async fn ask(
        &self,
        job: JobKind,
        r: &InboxRecord,
        system: &str,
        user: String,
        max_tokens: u32,
        actor: &Actor,
    ) -> Result<LlmResponse, String> {
        let mut req = LlmRequest::new(
            job.as_str(),
            vec![ChatMessage::system(system), ChatMessage::user(user)],
        );
        req.temperature = Some(0.0);
        req.max_tokens = Some(max_tokens);
        req.stream = false;
        // The results go to the operator's own stores and queue: placeholders are put back
        // locally. Surfaces for uncleared clients pass the PHI view again.
        req.reidentify = true;
        self.llm_complete(&r.profile, &req, actor, None)
            .await
            .map_err(|e| e.to_string())
    }

    /// Triage item `seq`: the rules, then (when they are unsure and `use_model`) the model;
    /// stored unless unchanged. The ladder's `classify` level applies.
    pub async fn triage_item(
        &self,
        seq: u64,
        actor: &Actor,
        use_model: bool,
    ) -> Result<TriageRecord, EngineError> {
        let r = self.item(seq)?;
        if let Verdict::Block {
            rule,
            reason,
            remedy,
        } = crate::governance::ladder::gate(&self.config, ActionKind::Classify, &r.profile)
        {
            self.job_audit(
                JobKind::Triage,
                actor,
                &r,
                AuditOutcome::Blocked,
                format!("{rule}: {reason}"),
            )?;
            return Err(EngineError::Blocked {
                rule,
                reason,
                remedy,
            });
        }
        let rules = triage::by_rules_in(&r, &self.time_context(&r));
        let (t, provider, model_error) = if rules.confident || !use_model {
            (rules, None, None)
        } else {
            let answer = self
                .ask(
                    JobKind::Triage,
                    &r,
                    triage::SYSTEM,
                    triage::prompt(&r, &self.zone),
                    200,
                    actor,
                )
                .await
                .and_then(|resp| {
                    triage::parse_answer(&self.config, &resp.text)
                        .map(|t| (t, resp.provider))
                        .map_err(|e| e.to_string())
                });
            match answer {
                Ok((t, provider)) => (t, Some(provider), None),
                Err(why) => (rules, None, Some(why)),
            }
        };
        let rec = TriageRecord {
            seq: r.seq,
            id: r.id.clone(),
            profile: r.profile.clone(),
            category: t.category,
            urgency: t.urgency,
            reason: t.reason,
            by: t.by,
            provider,
            model_error,
            at: now_rfc3339(),
        };
        let (outcome, why) = match (&rec.model_error, rec.by) {
            (Some(e), _) => (
                AuditOutcome::Error,
                format!("model answer not used ({e}); rule result kept"),
            ),
            (None, by) => (
                AuditOutcome::Ok,
                format!("{} by {:?}", rec.category.as_str(), by).to_lowercase(),
            ),
        };
        self.job_result_audit(JobKind::Triage, actor, &r, outcome, why)?;
        self.assistant.put_triage(rec.clone())?;
        Ok(rec)
    }

    /// The operator's triage of `seq`: wins over rules and model from now on.
    pub fn set_triage(
        &self,
        seq: u64,
        category: Category,
        urgency: Urgency,
        reason: Option<String>,
        actor: &Actor,
    ) -> Result<TriageRecord, EngineError> {
        let r = self.item(seq)?;
        if !actor.is_operator() {
            let rule = "operator_only_triage";
            let reason =
                format!("{actor} asked to set the triage of seq {seq}; only the operator can");
            self.job_audit(
                JobKind::Triage,
                actor,
                &r,
                AuditOutcome::Blocked,
                format!("{rule}: {reason}"),
            )?;
            return Err(EngineError::Blocked {
                rule: rule.into(),
                reason,
                remedy: "use `opsdesk triage set` or the console".into(),
            });
        }
        let rec = TriageRecord {
            seq,
            id: r.id.clone(),
            profile: r.profile.clone(),
            category,
            urgency,
            reason: crate::sanitize::one_line(
                reason.as_deref().unwrap_or("set by the operator"),
                triage::MAX_REASON_CHARS,
            ),
            by: DecidedBy::Operator,
            provider: None,
            model_error: None,
            at: now_rfc3339(),
        };
        self.job_audit(
            JobKind::Triage,
            actor,
            &r,
            AuditOutcome::Ok,
            format!("{} by operator", category.as_str()),
        )?;
        self.assistant.put_triage(rec.clone())?;
        Ok(rec)
    }

    /// What the rules resolve `r`'s dates against: its time in the operator's zone, and the
    /// operator's numeric date order.
    /// A time stated in another zone lands on the operator's day through the operator's named
    /// zone (across a clock change the received offset alone is wrong).
    fn time_context(&self, r: &InboxRecord) -> crate::timeexpr::Context {
        crate::timeexpr::Context::new(r.ts, self.offset_at(r.ts))
            .with_order(self.config.operator.date_order.unwrap_or_default())
            .in_named_zone(&self.zone.name)
    }

    /// Extract the deadlines of item `seq`: the rules always, and the model when `use_model`,
    /// its answer checked against the message and merged with the rules' findings (it adds,
    /// confirms or disagrees; it never removes one). Stores the new ones.
    pub async fn deadlines_item(
        &self,
        seq: u64,
        actor: &Actor,
        use_model: bool,
    ) -> Result<DeadlinesOfItem, EngineError> {
        let r = self.item(seq)?;
        let ctx = self.time_context(&r);
        let rules = deadlines::by_rules_in(&r, &ctx);
        let n_rules = rules.len();
        let (found, provider, model_error) = if !use_model {
            (rules, None, None)
        } else {
            let answer = self
                .ask(
                    JobKind::Deadlines,
                    &r,
                    deadlines::SYSTEM,
                    deadlines::prompt(&r, &self.zone),
                    400,
                    actor,
                )
                .await
                .and_then(|resp| {
                    deadlines::parse_answer(&self.config, &r, &resp.text)
                        .map(|f| (f, resp.provider))
                        .map_err(|e| e.to_string())
                });
            match answer {
                Ok((f, p)) => (deadlines::merge(rules, f, &ctx), Some(p), None),
                Err(why) => (rules, None, Some(why)),
            }
        };
        let at = now_rfc3339();
        let recs: Vec<DeadlineRecord> = found
            .into_iter()
            .map(|f| {
                // The provider is named on what its answer touched.
                let touched =
                    f.by == DecidedBy::Model || f.model_agrees || f.disagreement.is_some();
                DeadlineRecord {
                    seq: r.seq,
                    id: r.id.clone(),
                    profile: r.profile.clone(),
                    provider: provider.clone().filter(|_| touched),
                    found: f,
                    at: at.clone(),
                }
            })
            .collect();
        let disagreements = recs
            .iter()
            .filter(|d| d.found.disagreement.is_some())
            .count();
        let (outcome, why) = match &model_error {
            Some(e) => (
                AuditOutcome::Error,
                format!(
                    "model answer not used ({e}); {} rule deadline(s) kept",
                    recs.len()
                ),
            ),
            None => (
                AuditOutcome::Ok,
                format!(
                    "{} deadline(s): {n_rules} by the rules, {} from the model, {disagreements} disagreement(s)",
                    recs.len(),
                    recs.len() - n_rules
                ),
            ),
        };
        self.job_result_audit(JobKind::Deadlines, actor, &r, outcome, why)?;
        let new = self.assistant.put_deadlines(recs.clone())?;
        Ok(DeadlinesOfItem {
            seq: r.seq,
            profile: r.profile,
            deadlines: recs,
            new,
            model_error,
        })
    }

    /// Have the model write a reply to item `seq` and queue it as a draft by
    /// `assistant:draft` (pending: only the operator approves), with the provider recorded.
    /// `actor` is who asked (audited with the model call).
    pub async fn draft_item(&self, seq: u64, actor: &Actor) -> Result<Outcome, JobError> {
        let r = self.item(seq)?;
        let answer = self
            .ask(
                JobKind::Draft,
                &r,
                reply::SYSTEM,
                reply::prompt(
                    &r,
                    &self.thread_before(&r),
                    &self.config.drafting,
                    &self.config.operator,
                    &self.zone,
                ),
                600,
                actor,
            )
            .await
            .and_then(|resp| {
                reply::parse_answer(&self.config, &resp.text)
                    .map(|b| (b, resp.provider))
                    .map_err(|e| e.to_string())
            });
        let (body, provider) = match answer {
            Ok(x) => x,
            Err(why) => {
                self.job_audit(
                    JobKind::Draft,
                    actor,
                    &r,
                    AuditOutcome::Error,
                    format!("no draft made: {why}"),
                )?;
                return Err(JobError::Model(format!(
                    "no draft made for seq {seq}: {why}"
                )));
            }
        };
        self.job_audit(
            JobKind::Draft,
            actor,
            &r,
            AuditOutcome::Ok,
            format!("reply written by provider `{provider}` for {actor}"),
        )?;
        let body = reply::with_signature(&body, &self.config.drafting);
        let (profile, outbound) = self.reply_outbound(&r.id, body)?;
        let drafter = Actor::Assistant(JobKind::Draft.as_str().into());
        Ok(self.submit(
            Action::CreateDraft {
                profile,
                outbound,
                provider: Some(provider),
            },
            drafter,
        )?)
    }

    /// Up to 3 earlier messages of `r`'s thread (same profile), oldest first, found among
    /// the last few hundred items before it: context for a reply, bounded in cost.
    fn thread_before(&self, r: &InboxRecord) -> Vec<InboxRecord> {
        const LOOK_BACK: usize = 500;
        const KEEP: usize = 3;
        let Some(thread) = r.thread_id.as_deref() else {
            return Vec::new();
        };
        let filter = crate::store::inbox::Filter {
            profile: Some(r.profile.clone()),
            ..Default::default()
        };
        let mut out = match self.inbox.read_before(Some(r.seq), LOOK_BACK, &filter) {
            Ok(b) => b
                .records
                .into_iter()
                .filter(|x| x.thread_id.as_deref() == Some(thread))
                .take(KEEP)
                .map(std::sync::Arc::unwrap_or_clone)
                .collect::<Vec<_>>(),
            // Context is a help, not a need: a reply without it is still a reply.
            Err(e) => {
                tracing::warn!("thread context of seq {}: {e}", r.seq);
                Vec::new()
            }
        };
        out.reverse();
        out
    }

    /// Seqs of `profile` (all when none) that have no triage yet, oldest first, at most
    /// `limit`.
    pub fn untriaged(&self, profile: Option<&str>, limit: usize) -> Result<Vec<u64>, EngineError> {
        let done = self.assistant.triage()?;
        let mut out = Vec::new();
        let mut after = 0;
        loop {
            let batch = self.inbox.read_after(after, 500, &Default::default())?;
            if batch.records.is_empty() {
                break;
            }
            for rec in &batch.records {
                after = after.max(rec.seq);
                if !done.contains_key(&rec.seq) && profile.is_none_or(|p| p == rec.profile) {
                    out.push(rec.seq);
                    if out.len() >= limit {
                        return Ok(out);
                    }
                }
            }
        }
        Ok(out)
    }

    /// `run_batch` for triage.
    pub async fn triage_batch(
        self: &Arc<Self>,
        seqs: Vec<u64>,
        actor: Actor,
        use_model: bool,
        cancel: Option<tokio_util::sync::CancellationToken>,
        on_progress: &(dyn Fn(&super::jobs::JobProgress) + Send + Sync),
    ) -> super::jobs::BatchReport<TriageRecord> {
        self.run_batch(JobKind::Triage, seqs, cancel, on_progress, move |e, seq| {
            let actor = actor.clone();
            async move {
                e.triage_item(seq, &actor, use_model)
                    .await
                    .map_err(|e| e.to_string())
            }
        })
        .await
    }

    /// `run_batch` for deadline extraction.
    pub async fn deadlines_batch(
        self: &Arc<Self>,
        seqs: Vec<u64>,
        actor: Actor,
        use_model: bool,
        cancel: Option<tokio_util::sync::CancellationToken>,
        on_progress: &(dyn Fn(&super::jobs::JobProgress) + Send + Sync),
    ) -> super::jobs::BatchReport<DeadlinesOfItem> {
        self.run_batch(
            JobKind::Deadlines,
            seqs,
            cancel,
            on_progress,
            move |e, seq| {
                let actor = actor.clone();
                async move {
                    e.deadlines_item(seq, &actor, use_model)
                        .await
                        .map_err(|e| e.to_string())
                }
            },
        )
        .await
    }

    /// `run_batch` for reply drafts: each item's result is the queue outcome.
    pub async fn draft_batch(
        self: &Arc<Self>,
        seqs: Vec<u64>,
        actor: Actor,
        cancel: Option<tokio_util::sync::CancellationToken>,
        on_progress: &(dyn Fn(&super::jobs::JobProgress) + Send + Sync),
    ) -> super::jobs::BatchReport<Outcome> {
        self.run_batch(JobKind::Draft, seqs, cancel, on_progress, move |e, seq| {
            let actor = actor.clone();
            async move { e.draft_item(seq, &actor).await.map_err(|e| e.to_string()) }
        })
        .await
    }
}

fn now_rfc3339() -> String {
    crate::domain::now()
        .format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}

/// An item outcome as JSON for surfaces that print batches.
pub fn item_json<T: Serialize>(seq: u64, r: &Result<T, String>) -> serde_json::Value {
    match r {
        Ok(v) => json!({"seq": seq, "ok": true, "result": v}),
        Err(e) => json!({"seq": seq, "ok": false, "error": e}),
    }
}
