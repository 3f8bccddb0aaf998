//! Where the MCP conformance suite's fixtures (`mcp::fixtures`) hook into the server: one
//! [`Mount`] the hub holds and its handlers ask at each point the suite reaches (logging level,
//! tools the catalogue does not know, `test://` resources, prompts, completions,
//! subscriptions). In a normal build the mount is empty and every hook answers "not mine", so
//! the server has no feature gates and the product no fixture code; only the test-only
//! `conformance` feature gives it the fixtures.
#![allow(deprecated)] // logging is deprecated in 2026-07-28 but the suite still sets a level

use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CompleteRequestParams, CompleteResult,
    GetPromptRequestParams, GetPromptResponse, LoggingLevel, Prompt, ReadResourceRequestParams,
    ReadResourceResponse, Resource, ResourceTemplate, Tool,
};
use rmcp::service::{RequestContext, SubscriptionSink};
use rmcp::{ErrorData as McpError, RoleServer};

#[cfg(feature = "conformance")]
use super::fixtures::Fixtures;

/// The fixtures a hub serves besides opsdesk's own tools: none outside the conformance build.
#[derive(Default)]
pub(crate) struct Mount {
    #[cfg(feature = "conformance")]
    fixtures: Option<Fixtures>,
}

/// A subscription the fixtures push to, dropped with the connection's `listen`.
pub(crate) struct Listener<'a> {
    #[cfg(feature = "conformance")]
    held: Option<(&'a Fixtures, u64)>,
    #[cfg(not(feature = "conformance"))]
    held: std::marker::PhantomData<&'a ()>,
}

impl Drop for Listener<'_> {
    fn drop(&mut self) {
        #[cfg(feature = "conformance")]
        if let Some((fx, key)) = self.held {
            fx.remove_subscription(key);
        }
    }
}

impl Mount {
    /// A mount serving the conformance suite's fixtures (test-only build).
    #[cfg(feature = "conformance")]
    pub(crate) fn with_fixtures() -> Mount {
        Mount {
            fixtures: Some(Fixtures::new()),
        }
    }

    fn fixtures(&self) -> Option<&FixturesOrNever> {
        #[cfg(feature = "conformance")]
        return self.fixtures.as_ref();
        #[cfg(not(feature = "conformance"))]
        None
    }

    /// Whether fixtures are served (never in the product).
    pub(crate) fn active(&self) -> bool {
        self.fixtures().is_some()
    }

    /// The fixture tools, listed beside opsdesk's.
    pub(crate) fn tools(&self) -> Vec<Tool> {
        self.fixtures().map(|fx| fx.tools()).unwrap_or_default()
    }

    pub(crate) fn set_level(&self, level: LoggingLevel) {
        if let Some(fx) = self.fixtures() {
            fx.set_level(level);
        }
    }

    /// Run `req` when it names a fixture tool; `None` leaves it to the server.
    pub(crate) async fn call_tool(
        &self,
        req: &CallToolRequestParams,
        ctx: RequestContext<RoleServer>,
    ) -> Option<Result<CallToolResponse, McpError>> {
        let fx = self.fixtures().filter(|fx| fx.has_tool(&req.name))?;
        Some(fx.call_tool(req.clone(), ctx).await)
    }

    pub(crate) fn resources(&self) -> Vec<Resource> {
        self.fixtures().map(|fx| fx.resources()).unwrap_or_default()
    }

    pub(crate) fn resource_templates(&self) -> Vec<ResourceTemplate> {
        self.fixtures()
            .map(|fx| fx.resource_templates())
            .unwrap_or_default()
    }

    /// Read a fixture's `test://` resource; `None` for any other URI.
    pub(crate) async fn read_resource(
        &self,
        req: &ReadResourceRequestParams,
    ) -> Option<Result<ReadResourceResponse, McpError>> {
        let fx = self.fixtures().filter(|_| req.uri.starts_with("test://"))?;
        Some(fx.read_resource(req.clone()).await)
    }

    /// The fixture prompts, which replace opsdesk's while fixtures are served.
    pub(crate) fn prompts(&self) -> Option<Vec<Prompt>> {
        self.fixtures().map(|fx| fx.prompts())
    }

    pub(crate) fn get_prompt(
        &self,
        req: &GetPromptRequestParams,
    ) -> Option<Result<GetPromptResponse, McpError>> {
        self.fixtures().map(|fx| fx.get_prompt(req.clone()))
    }

    pub(crate) fn complete(
        &self,
        req: &CompleteRequestParams,
    ) -> Option<Result<CompleteResult, McpError>> {
        self.fixtures().map(|fx| fx.complete(req.clone()))
    }

    /// Let the fixtures push to `sink` until the returned listener is dropped.
    pub(crate) fn listen(&self, sink: &SubscriptionSink) -> Listener<'_> {
        #[cfg(feature = "conformance")]
        return Listener {
            held: self
                .fixtures()
                .map(|fx| (fx, fx.add_subscription(sink.clone()))),
        };
        #[cfg(not(feature = "conformance"))]
        {
            let _ = sink;
            Listener {
                held: std::marker::PhantomData,
            }
        }
    }
}

#[cfg(feature = "conformance")]
type FixturesOrNever = Fixtures;

/// Outside the conformance build there are no fixtures: a type with no values, whose methods
/// the compiler knows are never reached.
#[cfg(not(feature = "conformance"))]
enum FixturesOrNever {}

#[cfg(not(feature = "conformance"))]
impl FixturesOrNever {
    fn tools(&self) -> Vec<Tool> {
        match *self {}
    }
    fn set_level(&self, _: LoggingLevel) {
        match *self {}
    }
    fn has_tool(&self, _: &str) -> bool {
        match *self {}
    }
    async fn call_tool(
        &self,
        _: CallToolRequestParams,
        _: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, McpError> {
        match *self {}
    }
    fn resources(&self) -> Vec<Resource> {
        match *self {}
    }
    fn resource_templates(&self) -> Vec<ResourceTemplate> {
        match *self {}
    }
    async fn read_resource(
        &self,
        _: ReadResourceRequestParams,
    ) -> Result<ReadResourceResponse, McpError> {
        match *self {}
    }
    fn prompts(&self) -> Vec<Prompt> {
        match *self {}
    }
    fn get_prompt(&self, _: GetPromptRequestParams) -> Result<GetPromptResponse, McpError> {
        match *self {}
    }
    fn complete(&self, _: CompleteRequestParams) -> Result<CompleteResult, McpError> {
        match *self {}
    }
}
