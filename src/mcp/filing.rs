//! `filing_suggestion` (read) and `mail_move` (queues a move for the operator's approval).

use std::sync::Arc;

use rmcp::ErrorData as McpError;
use rmcp::model::CallToolResult;
use schemars::JsonSchema;
use serde::Deserialize;

use super::server::Hub;
use super::tools::{DraftResultOut, draft_result, tool_answer, wrong_answer};
use crate::domain::{Action, Actor, Query};
use crate::engine::query::Answer;

pub type FilingOut = crate::engine::filing::FilingAnswer;
pub type MailMoveOut = DraftResultOut;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct FilingArgs {
    /// Inbox ids (or seqs) of the messages to place: one, or up to 50.
    pub message_ids: Vec<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct MailMoveArgs {
    /// The `id` of an inbox mail message.
    pub message_id: String,
    /// A well-known folder (`archive`, `deleteditems`, `junkemail`, …), a folder name or path
    /// (`Deals/Sunrise`), or a folder id — e.g. a filing_suggestion's `folder`.
    pub folder: String,
}

pub async fn filing_suggestion(
    hub: Arc<Hub>,
    a: FilingArgs,
    actor: Actor,
) -> Result<CallToolResult, McpError> {
    let q = Query::FilingSuggestion {
        message_ids: a.message_ids,
    };
    match hub.read("filing_suggestion", q, actor).await? {
        Answer::Filing(f) => tool_answer(&f),
        other => Err(wrong_answer("filing_suggestion", &other)),
    }
}

pub async fn mail_move(
    hub: Arc<Hub>,
    a: MailMoveArgs,
    actor: Actor,
) -> Result<CallToolResult, McpError> {
    let action = Action::MoveMessage {
        message_id: a.message_id,
        folder: a.folder,
    };
    draft_result(hub.submit("mail_move", action, actor).await?)
}
