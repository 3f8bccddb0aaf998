//! `filing_suggestion` (read) and `mail_move` (queues a move for the operator's approval).

pub use crate::domain::MailMoveArgs;
use std::sync::Arc;

use rmcp::ErrorData as McpError;

use schemars::JsonSchema;
use serde::Deserialize;

use super::server::Hub;
use super::tools::{DraftResultOut, Reply, draft_result, fenced_answer, wrong_answer};
use crate::domain::{Action, Actor, Query};
use crate::engine::query::Answer;

pub type FilingOut = crate::engine::filing::FilingAnswer;
pub type MailMoveOut = DraftResultOut;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FilingArgs {
    /// Inbox ids (or seqs) of the messages to place: one, or up to 50.
    pub message_ids: Vec<String>,
    /// Ask the model (the router's `filing` job: HIPAA routing, redaction, audit) for mail the
    /// rules leave unplaced, choosing among the configured folders (default true). `false`:
    /// the rules only, no LLM call.
    #[serde(default = "super::tools::default_true")]
    pub use_model: bool,
}

pub async fn filing_suggestion(
    hub: Arc<Hub>,
    a: FilingArgs,
    actor: Actor,
) -> Result<Reply, McpError> {
    let q = Query::FilingSuggestion {
        message_ids: a.message_ids,
    };
    let mut f = match hub.read("filing_suggestion", q, actor.clone()).await? {
        Answer::Filing(f) => f,
        other => return Err(wrong_answer("filing_suggestion", &other)),
    };
    if a.use_model {
        model_pass(&hub, &mut f, actor).await;
    }
    fenced_answer("filing_suggestion", &f)
}

fn no_progress(_: &crate::engine::jobs::JobProgress) {}

/// The model pass for the messages the rules left unplaced, as `opsdesk filing propose` runs
/// it (`Engine::filing_batch`: the job runner's bound, the router's `filing` job, audit); moves
/// nothing. A message the model cannot place keeps the rule result, with `model_error` saying
/// why; so does every one still open when the request's time runs out.
async fn model_pass(hub: &Arc<Hub>, f: &mut FilingOut, actor: Actor) {
    let seqs: Vec<u64> = f
        .suggestions
        .iter()
        .filter(|s| s.folder.is_none())
        .filter_map(|s| s.seq)
        .collect();
    if seqs.is_empty() {
        return;
    }
    // Leave time for the answer inside the request's own time limit.
    let secs = hub.engine().config().server.request_timeout_secs;
    let limit = std::time::Duration::from_secs(secs.saturating_sub(3).max(1));
    // Cancelled at the limit, the batch still reports the items it finished.
    let cancel = tokio_util::sync::CancellationToken::new();
    let timer = {
        let t = cancel.clone();
        tokio::spawn(async move {
            tokio::time::sleep(limit).await;
            t.cancel();
        })
    };
    let engine = hub.engine().clone();
    let items = engine
        .filing_batch(seqs, actor, false, Some(cancel), &no_progress)
        .await
        .items;
    timer.abort();
    for s in f.suggestions.iter_mut().filter(|s| s.folder.is_none()) {
        let Some(seq) = s.seq else { continue };
        match items.iter().find(|(n, _)| *n == seq).map(|(_, r)| r) {
            Some(Ok(p)) if p.suggestion.folder.is_some() => {
                *s = p.suggestion.clone();
                s.decided_by = Some(format!("{:?}", p.by).to_lowercase());
            }
            Some(Ok(p)) => {
                s.model_error = Some(p.model_error.clone().unwrap_or_else(|| {
                    format!("the model found no folder: {}", p.suggestion.reason)
                }));
            }
            Some(Err(e)) => s.model_error = Some(e.clone()),
            None => {
                s.model_error = Some(format!(
                    "the model pass did not finish within {}s",
                    limit.as_secs()
                ));
            }
        }
    }
}

pub async fn mail_move(hub: Arc<Hub>, a: MailMoveArgs, actor: Actor) -> Result<Reply, McpError> {
    let action = Action::MoveMessage {
        message_id: a.message_id,
        folder: a.folder,
    };
    draft_result(hub.submit("mail_move", action, actor).await?)
}
