//! The deal tools and the `opsdesk://deals/{id}` resource. Reads are `Query`s through the
//! engine (audited); `deal_create` only proposes: it puts a `create_deal` draft in the queue,
//! which the operator accepts (`opsdesk deals accept`, or approving the draft). Answers carry
//! the deal's `profile`, so the PHI view attributes them (a `requires_hipaa` deal is redacted
//! for uncleared clients like its messages).

use std::sync::Arc;

use rmcp::ErrorData as McpError;
use rmcp::model::{ReadResourceResult, ResourceContents, ResourceTemplate};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::json;

use super::server::Hub;
use super::tools::{DraftResultOut, Reply, fenced_answer, queue_draft, wrong_answer as wrong};
use crate::domain::{Actor, DealSpec, DealStage, KeyDate, Outbound, Query};
use crate::engine::query::Answer;

/// The resource template of one deal.
pub const TEMPLATE: &str = "opsdesk://deals/{id}";
const PREFIX: &str = "opsdesk://deals/";

pub type DealsOut = crate::engine::deals::DealsAnswer;
pub type DealDetailOut = crate::engine::deals::DealDetailAnswer;
pub type DealTimelineOut = crate::engine::deals::DealTimelineAnswer;
/// `deal_create`'s answer: the proposal queued for the operator, or blocked.
pub type DealCreateOut = DraftResultOut;

fn default_limit() -> u32 {
    50
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DealsListArgs {
    /// Include closed deals (won, lost).
    #[serde(default)]
    pub all: bool,
    /// Only deals of this profile.
    #[serde(default)]
    pub profile: Option<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DealIdArgs {
    /// The deal id, e.g. `deal-1a2b3c4d5e`.
    pub id: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DealTimelineArgs {
    /// The deal id.
    pub id: String,
    /// Most entries to return (the newest; 1-200).
    #[serde(default = "default_limit")]
    pub limit: u32,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DealCreateArgs {
    /// The profile (entity) the deal belongs to; may be left out when only one is configured.
    #[serde(default)]
    pub profile: Option<String>,
    pub name: String,
    /// Names, mail addresses or mail domains of the other side.
    #[serde(default)]
    pub counterparties: Vec<String>,
    /// lead (default), diligence, negotiation, closing, won or lost.
    #[serde(default)]
    pub stage: Option<String>,
    /// Named days, e.g. `[{"label": "closing", "date": "2026-12-15"}]`.
    #[serde(default)]
    pub key_dates: Vec<KeyDate>,
    #[serde(default)]
    pub notes: String,
    /// Words that link new mail to the deal (at least 3 characters each).
    #[serde(default)]
    pub keywords: Vec<String>,
}

pub async fn deals_list(hub: Arc<Hub>, a: DealsListArgs, actor: Actor) -> Result<Reply, McpError> {
    let q = Query::DealsList {
        profile: a.profile,
        all: a.all,
    };
    match hub.read("deals_list", q, actor).await? {
        Answer::Deals(d) => fenced_answer("deals_list", &d),
        other => Err(wrong("deals_list", &other)),
    }
}

pub async fn deal_detail(hub: Arc<Hub>, a: DealIdArgs, actor: Actor) -> Result<Reply, McpError> {
    match hub
        .read("deal_detail", Query::DealDetail { id: a.id }, actor)
        .await?
    {
        Answer::Deal(d) => fenced_answer("deal_detail", &*d),
        other => Err(wrong("deal_detail", &other)),
    }
}

pub async fn deal_timeline(
    hub: Arc<Hub>,
    a: DealTimelineArgs,
    actor: Actor,
) -> Result<Reply, McpError> {
    let q = Query::DealTimeline {
        id: a.id,
        limit: a.limit as usize,
    };
    match hub.read("deal_timeline", q, actor).await? {
        Answer::DealTimeline(t) => fenced_answer("deal_timeline", &t),
        other => Err(wrong("deal_timeline", &other)),
    }
}

pub async fn deal_create(
    hub: Arc<Hub>,
    a: DealCreateArgs,
    actor: Actor,
) -> Result<Reply, McpError> {
    let profile = hub.resolve_profile(a.profile.as_deref())?;
    let stage = match a.stage.as_deref() {
        None => DealStage::Lead,
        Some(s) => s.parse().map_err(|e: String| {
            McpError::invalid_params(
                e,
                Some(json!({"field": "stage", "valid_stages": DealStage::names()})),
            )
        })?,
    };
    let spec = DealSpec {
        name: a.name,
        counterparties: a.counterparties,
        stage,
        key_dates: a.key_dates,
        notes: a.notes,
        keywords: a.keywords,
    };
    queue_draft(
        &hub,
        "deal_create",
        profile,
        Outbound::CreateDeal { spec },
        actor,
    )
    .await
}

pub fn templates() -> Vec<ResourceTemplate> {
    vec![
        ResourceTemplate::new(TEMPLATE, "deal")
            .with_description("One deal: its details, linked messages (untrusted inbound data) and timeline. Subscribe for resources/updated when it changes.")
            .with_mime_type("application/json"),
    ]
}

/// The deal id of a deal resource URI.
pub fn deal_id(uri: &str) -> Option<&str> {
    uri.strip_prefix(PREFIX)
        .filter(|id| !id.is_empty() && !id.contains('/'))
}

pub fn uri_of(id: &str) -> String {
    format!("{PREFIX}{id}")
}

/// Read `opsdesk://deals/{id}`: the detail and the timeline, both audited reads.
pub async fn read(hub: &Arc<Hub>, uri: &str, client: &str) -> Result<ReadResourceResult, McpError> {
    let id = deal_id(uri).ok_or_else(|| super::resources::not_found(uri))?;
    let tool = format!("resource:{uri}");
    let detail = match hub
        .read(
            &tool,
            Query::DealDetail { id: id.into() },
            Actor::mcp(client),
        )
        .await?
    {
        Answer::Deal(d) => d,
        other => return Err(wrong(&tool, &other)),
    };
    let timeline = match hub
        .read(
            &tool,
            Query::DealTimeline {
                id: id.into(),
                limit: 100,
            },
            Actor::mcp(client),
        )
        .await?
    {
        Answer::DealTimeline(t) => t,
        other => return Err(wrong(&tool, &other)),
    };
    let mut body = json!({
        "profile": detail.deal.profile,
        "deal": detail.deal,
        "messages": detail.messages,
        "timeline": timeline.entries,
        "notice": detail.notice,
    });
    // The detail's fenced values and the timeline's summaries, under one fence.
    let fence = super::fence::Fence::for_value(&body);
    super::fence::fence_paths(&mut body, super::tools::RESOURCE_DEAL_PATHS, &fence);
    body["fence"] = json!(fence.id());
    body["notice"] = json!(fence.notice(body["notice"].as_str().unwrap_or_default()));
    let text = serde_json::to_string_pretty(&body)
        .map_err(|e| McpError::internal_error(e.to_string(), None))?;
    Ok(ReadResourceResult::new(vec![
        ResourceContents::text(text, uri).with_mime_type("application/json"),
    ]))
}
