//! The assistant's tools (issue 13): `triage_list`, `triage_classify`, `extraction_deadlines`,
//! `draft_generate`. Declared in the parent's `TOOLS` table; answers leave through
//! `tool_answer` and, like every tool answer, pass the PHI view for uncleared clients (every
//! item names its `profile`). Model work runs on the engine's job runner within the call's
//! time limit; a call that runs out of time cancels its job (finished items stay recorded).

use std::sync::Arc;
use std::time::Duration;

use rmcp::ErrorData as McpError;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::{
    Reply, UNTRUSTED_NOTICE, draft_result, fenced_answer, tool_error_answer, wrong_answer,
};
use crate::assistant::store::{DeadlineRecord, TriageRecord};
use crate::domain::{Actor, Query};
use crate::engine::DeadlinesOfItem;
use crate::engine::jobs::{BatchReport, JobProgress};
use crate::engine::query::Answer;
use crate::mcp::server::{Hub, engine_error};

/// Items one call may name (each can be a model call).
pub const MAX_SEQS: usize = 10;

fn default_limit() -> u32 {
    20
}
fn default_true() -> bool {
    true
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct TriageListArgs {
    #[serde(default)]
    pub profile: Option<String>,
    /// needs_reply, decision, meeting, deadline, fyi or bulk.
    #[serde(default)]
    pub category: Option<String>,
    /// high, normal or low.
    #[serde(default)]
    pub urgency: Option<String>,
    #[serde(default = "default_limit")]
    pub limit: u32,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct SeqsArgs {
    /// Inbox seqs (the `seq` of an inbox_pull item), at most 10.
    pub seqs: Vec<u64>,
    /// Ask the model when the rules are unsure (default true); false: rules only.
    #[serde(default = "default_true")]
    pub use_model: bool,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DeadlinesArgs {
    /// Inbox seqs to extract from (at most 10). Empty: list the stored deadlines.
    #[serde(default)]
    pub seqs: Vec<u64>,
    #[serde(default)]
    pub profile: Option<String>,
    #[serde(default = "default_true")]
    pub use_model: bool,
    #[serde(default = "default_limit")]
    pub limit: u32,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DraftGenerateArgs {
    /// The inbox seq to reply to.
    pub seq: u64,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct TriageListOut {
    pub items: Vec<crate::engine::assistant_query::TriageItem>,
    pub untriaged: usize,
    /// With `profile: "unassigned"`: the items waiting for the operator to give them a
    /// profile (only the operator can: `opsdesk triage assign SEQ PROFILE`).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub waiting: Vec<crate::engine::assign::WaitingItem>,
    pub notice: String,
}

/// One item of a job: its result or why it failed.
#[derive(Debug, Serialize, JsonSchema)]
pub struct JobItem<T> {
    pub seq: u64,
    pub ok: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<T>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub error: Option<String>,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct TriageClassifyOut {
    pub progress: JobProgress,
    pub items: Vec<JobItem<TriageRecord>>,
    pub notice: String,
}

#[derive(Debug, Serialize, JsonSchema)]
pub struct DeadlinesOut {
    /// The job when seqs were given.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub progress: Option<JobProgress>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub items: Vec<JobItem<DeadlinesOfItem>>,
    /// Stored deadlines (when no seqs were given).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub deadlines: Vec<DeadlineRecord>,
    pub notice: String,
}

fn items<T>(r: BatchReport<T>) -> (JobProgress, Vec<JobItem<T>>) {
    let items = r
        .items
        .into_iter()
        .map(|(seq, res)| match res {
            Ok(v) => JobItem {
                seq,
                ok: true,
                result: Some(v),
                error: None,
            },
            Err(e) => JobItem {
                seq,
                ok: false,
                result: None,
                error: Some(e),
            },
        })
        .collect();
    (r.progress, items)
}

fn check_seqs(seqs: &[u64]) -> Result<(), McpError> {
    if seqs.is_empty() || seqs.len() > MAX_SEQS {
        return Err(McpError::invalid_params(
            format!("name 1 to {MAX_SEQS} seqs (got {})", seqs.len()),
            Some(json!({"field": "seqs", "max": MAX_SEQS})),
        ));
    }
    Ok(())
}

/// The time a job may take inside the call's own limit, and a token that ends it then.
fn deadline(hub: &Hub) -> (Duration, CancellationToken) {
    let secs = hub.engine().config().server.request_timeout_secs;
    (
        Duration::from_secs(secs.saturating_sub(3).max(1)),
        CancellationToken::new(),
    )
}

async fn within<T>(
    limit: Duration,
    token: CancellationToken,
    fut: impl std::future::Future<Output = T>,
) -> T {
    let guard = {
        let t = token.clone();
        tokio::spawn(async move {
            tokio::time::sleep(limit).await;
            t.cancel();
        })
    };
    let out = fut.await;
    guard.abort();
    out
}

fn no_progress(_: &JobProgress) {}

pub(super) async fn triage_list(
    hub: Arc<Hub>,
    a: TriageListArgs,
    actor: Actor,
) -> Result<Reply, McpError> {
    let q = Query::TriageList {
        profile: a.profile,
        category: a.category,
        urgency: a.urgency,
        limit: a.limit as usize,
    };
    match hub.read("triage_list", q, actor).await? {
        Answer::Triage(t) => fenced_answer(
            "triage_list",
            &TriageListOut {
                items: t.items,
                untriaged: t.untriaged,
                waiting: t.waiting,
                notice: UNTRUSTED_NOTICE.into(),
            },
        ),
        other => Err(wrong_answer("triage_list", &other)),
    }
}

pub(super) async fn triage_classify(
    hub: Arc<Hub>,
    a: SeqsArgs,
    actor: Actor,
) -> Result<Reply, McpError> {
    check_seqs(&a.seqs)?;
    let (limit, token) = deadline(&hub);
    let engine = hub.engine().clone();
    let report = within(
        limit,
        token.clone(),
        engine.triage_batch(a.seqs, actor, a.use_model, Some(token), &no_progress),
    )
    .await;
    let (progress, items) = items(report);
    fenced_answer(
        "triage_classify",
        &TriageClassifyOut {
            progress,
            items,
            notice:
                "triage is stored for the operator; an operator's own triage wins over this one"
                    .into(),
        },
    )
}

pub(super) async fn extraction_deadlines(
    hub: Arc<Hub>,
    a: DeadlinesArgs,
    actor: Actor,
) -> Result<Reply, McpError> {
    if a.seqs.is_empty() {
        let q = Query::DeadlinesList {
            profile: a.profile,
            limit: a.limit as usize,
        };
        return match hub.read("extraction_deadlines", q, actor).await? {
            Answer::Deadlines(d) => fenced_answer(
                "extraction_deadlines",
                &DeadlinesOut {
                    progress: None,
                    items: vec![],
                    deadlines: d.deadlines,
                    notice: UNTRUSTED_NOTICE.into(),
                },
            ),
            other => Err(wrong_answer("extraction_deadlines", &other)),
        };
    }
    check_seqs(&a.seqs)?;
    let (limit, token) = deadline(&hub);
    let engine = hub.engine().clone();
    let report = within(
        limit,
        token.clone(),
        engine.deadlines_batch(a.seqs, actor, a.use_model, Some(token), &no_progress),
    )
    .await;
    let (progress, items) = items(report);
    fenced_answer(
        "extraction_deadlines",
        &DeadlinesOut {
            progress: Some(progress),
            items,
            deadlines: vec![],
            notice: UNTRUSTED_NOTICE.into(),
        },
    )
}

pub(super) async fn draft_generate(
    hub: Arc<Hub>,
    a: DraftGenerateArgs,
    actor: Actor,
) -> Result<Reply, McpError> {
    let (limit, _) = deadline(&hub);
    let engine = hub.engine().clone();
    match tokio::time::timeout(limit, engine.draft_item(a.seq, &actor)).await {
        Err(_) => Err(McpError::internal_error(
            format!("no draft within {}s", limit.as_secs()),
            Some(json!({"hint": "retry later; the model may be slow"})),
        )),
        Ok(Err(crate::engine::JobError::Engine(e))) => Err(engine_error(e)),
        Ok(Err(crate::engine::JobError::Model(why))) => {
            // The model gave nothing usable: a tool-level error the client can read.
            tool_error_answer(&json!({"status": "no_draft", "reason": why}))
        }
        Ok(Ok(outcome)) => draft_result(outcome),
    }
}
