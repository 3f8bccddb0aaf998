//! Test-only fixtures for the official MCP conformance suite (`--conformance-fixtures`).
//!
//! Being rewritten: this placeholder registers no fixtures, so a conformance run against it
//! fails its fixture scenarios. A normal run never lists fixtures either way.
#![allow(deprecated)]

use rmcp::model::*;
use rmcp::service::{RequestContext, SubscriptionSink};
use rmcp::{ErrorData, RoleServer};

#[derive(Default)]
pub struct Fixtures;

impl Fixtures {
    pub fn new() -> Self {
        Fixtures
    }
    pub fn set_level(&self, _level: LoggingLevel) {}
    pub fn add_subscription(&self, _sink: SubscriptionSink) -> u64 {
        0
    }
    pub fn remove_subscription(&self, _key: u64) {}
    pub fn has_tool(&self, _name: &str) -> bool {
        false
    }
    pub fn tools(&self) -> Vec<Tool> {
        Vec::new()
    }
    pub async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _cx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        Err(ErrorData::invalid_params(format!("no fixture tool `{}`", request.name), None))
    }
    pub fn resources(&self) -> Vec<Resource> {
        Vec::new()
    }
    pub fn resource_templates(&self) -> Vec<ResourceTemplate> {
        Vec::new()
    }
    pub async fn read_resource(&self, request: ReadResourceRequestParams) -> Result<ReadResourceResponse, ErrorData> {
        Err(ErrorData::resource_not_found(format!("no fixture resource `{}`", request.uri), None))
    }
    pub fn prompts(&self) -> Vec<Prompt> {
        Vec::new()
    }
    pub fn get_prompt(&self, request: GetPromptRequestParams) -> Result<GetPromptResponse, ErrorData> {
        Err(ErrorData::invalid_params(format!("no fixture prompt `{}`", request.name), None))
    }
    pub fn complete(&self, _request: CompleteRequestParams) -> Result<CompleteResult, ErrorData> {
        Ok(CompleteResult::default())
    }
}
