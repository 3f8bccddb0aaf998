//! Test-only fixtures that implement the server scenarios of the official MCP conformance suite
//! (`@modelcontextprotocol/conformance`): the `test_*` tools, the `test://` resources and
//! template, the prompts and the completion the suite calls, for both the 2025-11-25 (initialize
//! handshake, sessions) and the 2026-07-28 (stateless, multi-round "input required") revisions.
//!
//! They are compiled only with the `conformance` cargo feature, which is off by default and
//! turned on for the integration tests alone (the crate's dev-dependency on itself): the
//! release binary has neither the fixtures nor any way to serve without the token.
//! [`serve_for_suite`] starts the server the suite talks to, in the test process.
//!
//! What each fixture returns is taken from the suite's scenario descriptions and checks, not
//! from any other implementation. Where the two revisions differ (asking the client for input,
//! logging), one helper hides the difference: a legacy session gets real server-to-client
//! requests and `logging/setLevel`, a 2026-07-28 request gets an `InputRequiredResult` and
//! per-request log levels.
#![allow(deprecated)] // logging, sampling and roots are deprecated in 2026-07-28 but still served

use std::collections::HashMap;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use base64::Engine as _;
use rmcp::model::*;
use rmcp::service::{RequestContext, SubscriptionSendError, SubscriptionSink};
use rmcp::{ErrorData, RoleServer};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value, json};

use super::server::level_rank;

// ---------------------------------------------------------------------------------------------
// Fixed content
// ---------------------------------------------------------------------------------------------

/// A 2x2 RGB PNG (blue/white checkerboard) for the image tool, prompt and binary resource.
const PNG_BASE64: &str = "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAE0lEQVR42mOQz3/9//9/BiAGsgA86gjt5SS2hAAAAABJRU5ErkJggg==";

const STATIC_TEXT_URI: &str = "test://static-text";
const STATIC_BINARY_URI: &str = "test://static-binary";
const WATCHED_URI: &str = "test://watched-resource";
const EMBEDDED_URI: &str = "test://embedded-resource";
const MIXED_URI: &str = "test://mixed-content-resource";
const TEMPLATE_URI: &str = "test://template/{id}/data";
const TEMPLATE_PREFIX: &str = "test://template/";
const TEMPLATE_SUFFIX: &str = "/data";

/// How long a sealed `requestState` stays valid: a conformance round trip takes milliseconds,
/// so anything older is a replay.
const STATE_TTL: Duration = Duration::from_secs(600);

/// Pause between the steps of the logging and progress fixtures: the suite wants the
/// notifications spread over the call, not sent in one burst.
const STEP_PAUSE: Duration = Duration::from_millis(50);

// ---------------------------------------------------------------------------------------------
// The tool catalogue
// ---------------------------------------------------------------------------------------------

/// Every fixture tool. The names are the ones the suite calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fx {
    SimpleText,
    ImageContent,
    AudioContent,
    EmbeddedResource,
    MultipleContentTypes,
    ToolWithLogging,
    ErrorHandling,
    ToolWithProgress,
    Sampling,
    Elicitation,
    ElicitationDefaults,
    ElicitationEnums,
    JsonSchema2020,
    MissingCapability,
    StreamingElicitation,
    LoggingTool,
    TriggerToolChange,
    TriggerPromptChange,
    CustomHeader,
    IrElicitation,
    IrSampling,
    IrListRoots,
    IrRequestState,
    IrMultipleInputs,
    IrMultiRound,
    IrTamperedState,
    IrCapabilities,
}

const ALL_TOOLS: [Fx; 27] = [
    Fx::SimpleText,
    Fx::ImageContent,
    Fx::AudioContent,
    Fx::EmbeddedResource,
    Fx::MultipleContentTypes,
    Fx::ToolWithLogging,
    Fx::ErrorHandling,
    Fx::ToolWithProgress,
    Fx::Sampling,
    Fx::Elicitation,
    Fx::ElicitationDefaults,
    Fx::ElicitationEnums,
    Fx::JsonSchema2020,
    Fx::MissingCapability,
    Fx::StreamingElicitation,
    Fx::LoggingTool,
    Fx::TriggerToolChange,
    Fx::TriggerPromptChange,
    Fx::CustomHeader,
    Fx::IrElicitation,
    Fx::IrSampling,
    Fx::IrListRoots,
    Fx::IrRequestState,
    Fx::IrMultipleInputs,
    Fx::IrMultiRound,
    Fx::IrTamperedState,
    Fx::IrCapabilities,
];

impl Fx {
    fn named(name: &str) -> Option<Fx> {
        ALL_TOOLS.into_iter().find(|t| t.name() == name)
    }

    fn name(self) -> &'static str {
        match self {
            Fx::SimpleText => "test_simple_text",
            Fx::ImageContent => "test_image_content",
            Fx::AudioContent => "test_audio_content",
            Fx::EmbeddedResource => "test_embedded_resource",
            Fx::MultipleContentTypes => "test_multiple_content_types",
            Fx::ToolWithLogging => "test_tool_with_logging",
            Fx::ErrorHandling => "test_error_handling",
            Fx::ToolWithProgress => "test_tool_with_progress",
            Fx::Sampling => "test_sampling",
            Fx::Elicitation => "test_elicitation",
            Fx::ElicitationDefaults => "test_elicitation_sep1034_defaults",
            Fx::ElicitationEnums => "test_elicitation_sep1330_enums",
            Fx::JsonSchema2020 => "json_schema_2020_12_tool",
            Fx::MissingCapability => "test_missing_capability",
            Fx::StreamingElicitation => "test_streaming_elicitation",
            Fx::LoggingTool => "test_logging_tool",
            Fx::TriggerToolChange => "test_trigger_tool_change",
            Fx::TriggerPromptChange => "test_trigger_prompt_change",
            Fx::CustomHeader => "test_custom_header",
            Fx::IrElicitation => "test_input_required_result_elicitation",
            Fx::IrSampling => "test_input_required_result_sampling",
            Fx::IrListRoots => "test_input_required_result_list_roots",
            Fx::IrRequestState => "test_input_required_result_request_state",
            Fx::IrMultipleInputs => "test_input_required_result_multiple_inputs",
            Fx::IrMultiRound => "test_input_required_result_multi_round",
            Fx::IrTamperedState => "test_input_required_result_tampered_state",
            Fx::IrCapabilities => "test_input_required_result_capabilities",
        }
    }

    fn description(self) -> &'static str {
        match self {
            Fx::SimpleText => "Conformance fixture: returns one text block",
            Fx::ImageContent => "Conformance fixture: returns a PNG image block",
            Fx::AudioContent => "Conformance fixture: returns a WAV audio block",
            Fx::EmbeddedResource => "Conformance fixture: returns an embedded text resource",
            Fx::MultipleContentTypes => {
                "Conformance fixture: returns text, an image and an embedded resource"
            }
            Fx::ToolWithLogging => "Conformance fixture: sends three log messages while it runs",
            Fx::ErrorHandling => "Conformance fixture: always fails with isError",
            Fx::ToolWithProgress => "Conformance fixture: reports progress 0, 50 and 100 of 100",
            Fx::Sampling => "Conformance fixture: asks the client's LLM to answer a prompt",
            Fx::Elicitation => "Conformance fixture: asks the user for a username and email",
            Fx::ElicitationDefaults => {
                "Conformance fixture: elicitation whose fields carry default values (SEP-1034)"
            }
            Fx::ElicitationEnums => {
                "Conformance fixture: elicitation with every enum schema variant (SEP-1330)"
            }
            Fx::JsonSchema2020 => {
                "Conformance fixture: input schema using JSON Schema 2020-12 keywords"
            }
            Fx::MissingCapability => {
                "Conformance fixture: needs the client's sampling capability (-32021 without it)"
            }
            Fx::StreamingElicitation => {
                "Conformance fixture: asks for a confirmation without a server-to-client request"
            }
            Fx::LoggingTool => "Conformance fixture: logs only at the level the request asked for",
            Fx::TriggerToolChange => {
                "Conformance fixture: announces a tool list change to subscribers"
            }
            Fx::TriggerPromptChange => {
                "Conformance fixture: announces a prompt list change to subscribers"
            }
            Fx::CustomHeader => {
                "Conformance fixture: a parameter mirrored in the Mcp-Param-Value header (SEP-2243)"
            }
            Fx::IrElicitation => "Conformance fixture: input-required round asking for a name",
            Fx::IrSampling => "Conformance fixture: input-required round asking the client's LLM",
            Fx::IrListRoots => "Conformance fixture: input-required round asking for the roots",
            Fx::IrRequestState => {
                "Conformance fixture: input-required round that round-trips a sealed requestState"
            }
            Fx::IrMultipleInputs => {
                "Conformance fixture: one input-required round with elicitation, sampling and roots"
            }
            Fx::IrMultiRound => {
                "Conformance fixture: two input-required rounds with an evolving requestState"
            }
            Fx::IrTamperedState => {
                "Conformance fixture: rejects a requestState that fails its integrity check"
            }
            Fx::IrCapabilities => {
                "Conformance fixture: only asks for input the client declared it can give"
            }
        }
    }

    fn input_schema(self) -> Value {
        match self {
            Fx::Sampling => json!({
                "type": "object",
                "properties": {"prompt": {"type": "string", "description": "What to ask the LLM"}},
                "required": ["prompt"]
            }),
            Fx::Elicitation => json!({
                "type": "object",
                "properties": {"message": {"type": "string", "description": "What to tell the user"}},
                "required": ["message"]
            }),
            Fx::CustomHeader => json!({
                "type": "object",
                "properties": {
                    "value": {
                        "type": "string",
                        "description": "Echoed back; clients mirror it in Mcp-Param-Value",
                        "x-mcp-header": "Value"
                    }
                },
                "required": ["value"]
            }),
            // The suite checks that these 2020-12 keywords reach the client untouched.
            Fx::JsonSchema2020 => json!({
                "$schema": "https://json-schema.org/draft/2020-12/schema",
                "type": "object",
                "$defs": {
                    "address": {
                        "$anchor": "addressDef",
                        "type": "object",
                        "properties": {"street": {"type": "string"}, "city": {"type": "string"}}
                    }
                },
                "properties": {
                    "name": {"type": "string"},
                    "address": {"$ref": "#/$defs/address"},
                    "contactMethod": {"type": "string", "enum": ["phone", "email"]},
                    "phone": {"type": "string"},
                    "email": {"type": "string"}
                },
                "allOf": [{"anyOf": [{"required": ["phone"]}, {"required": ["email"]}]}],
                "if": {
                    "properties": {"contactMethod": {"const": "phone"}},
                    "required": ["contactMethod"]
                },
                "then": {"required": ["phone"]},
                "else": {"required": ["email"]},
                "additionalProperties": false
            }),
            _ => json!({"type": "object", "properties": {}}),
        }
    }

    fn tool(self) -> Tool {
        let schema = match self.input_schema() {
            Value::Object(map) => map,
            // Every schema above is an object literal; an empty object is the safe fallback.
            _ => Map::new(),
        };
        Tool::new(self.name(), self.description(), schema)
    }
}

// ---------------------------------------------------------------------------------------------
// The fixture state and the interface server.rs calls
// ---------------------------------------------------------------------------------------------

/// The fixtures' shared state: one instance per server, shared by all sessions and all
/// stateless requests (the suite never runs two scenarios at once, so a server-wide log level
/// is enough).
#[derive(Default)]
pub(crate) struct Fixtures {
    /// The level set by `logging/setLevel` in a legacy session; `None` until set.
    level: Mutex<Option<LoggingLevel>>,
    /// Open 2026-07-28 `subscriptions/listen` streams, for the list-change triggers.
    listeners: Mutex<HashMap<u64, SubscriptionSink>>,
    next_listener: AtomicU64,
    seal: StateSeal,
}

impl Fixtures {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn set_level(&self, level: LoggingLevel) {
        *lock(&self.level) = Some(level);
    }

    pub fn add_subscription(&self, sink: SubscriptionSink) -> u64 {
        let key = self.next_listener.fetch_add(1, Ordering::Relaxed);
        lock(&self.listeners).insert(key, sink);
        key
    }

    pub fn remove_subscription(&self, key: u64) {
        lock(&self.listeners).remove(&key);
    }

    pub fn has_tool(&self, name: &str) -> bool {
        Fx::named(name).is_some()
    }

    pub fn tools(&self) -> Vec<Tool> {
        ALL_TOOLS.into_iter().map(Fx::tool).collect()
    }

    pub async fn call_tool(
        &self,
        request: CallToolRequestParams,
        cx: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        let Some(fx) = Fx::named(&request.name) else {
            return Err(ErrorData::invalid_params(
                format!("no fixture tool `{}`", request.name),
                None,
            ));
        };
        let turn = Turn::new(&cx, &request);
        let args = request.arguments.as_ref();
        match fx {
            Fx::SimpleText => done(vec![ContentBlock::text(
                "This is a simple text response for testing.",
            )]),
            Fx::ImageContent => done(vec![ContentBlock::image(PNG_BASE64, "image/png")]),
            Fx::AudioContent => done(vec![ContentBlock::audio(wav_base64(), "audio/wav")]),
            Fx::EmbeddedResource => done(vec![ContentBlock::resource(embedded_text())]),
            Fx::MultipleContentTypes => done(vec![
                ContentBlock::text("Multiple content types test:"),
                ContentBlock::image(PNG_BASE64, "image/png"),
                ContentBlock::resource(mixed_json()),
            ]),
            Fx::ToolWithLogging => {
                let sent = self
                    .log_steps(
                        &turn,
                        &[
                            "Tool execution started",
                            "Tool processing data",
                            "Tool execution completed",
                        ],
                    )
                    .await?;
                done_text(format!(
                    "Tool with logging finished ({sent} log messages sent)"
                ))
            }
            Fx::LoggingTool => {
                let sent = self
                    .log_steps(
                        &turn,
                        &["test_logging_tool: start", "test_logging_tool: end"],
                    )
                    .await?;
                done_text(format!("Logging tool finished ({sent} log messages sent)"))
            }
            Fx::ErrorHandling => Ok(CallToolResult::error(vec![ContentBlock::text(
                "This tool intentionally returns an error for testing",
            )])
            .into()),
            Fx::ToolWithProgress => report_progress(&cx).await,
            Fx::Sampling => {
                let prompt = string_arg(args, "prompt")?;
                let question = Question::Sample {
                    prompt: prompt.to_string(),
                    max_tokens: 100,
                };
                match self.ask(&turn, &[("llm_answer", question)], None).await? {
                    Asked::Answered(a) => done_text(format!(
                        "LLM response: {}",
                        sampled_text("llm_answer", &a[0])?
                    )),
                    Asked::Pending(p) => Ok(p.into()),
                }
            }
            Fx::Elicitation => {
                let message = string_arg(args, "message")?;
                let question = Question::form(message, contact_schema());
                match self.ask(&turn, &[("user_info", question)], None).await? {
                    Asked::Answered(a) => done_text(format!(
                        "User response: {}",
                        elicitation_summary("user_info", &a[0])?
                    )),
                    Asked::Pending(p) => Ok(p.into()),
                }
            }
            Fx::ElicitationDefaults | Fx::ElicitationEnums => {
                let question = if fx == Fx::ElicitationDefaults {
                    Question::form("Confirm or change the suggested values", defaults_schema())
                } else {
                    Question::form("Pick from each kind of choice list", enums_schema())
                };
                match self.ask(&turn, &[("choices", question)], None).await? {
                    Asked::Answered(a) => done_text(format!(
                        "Elicitation completed: {}",
                        elicitation_summary("choices", &a[0])?
                    )),
                    Asked::Pending(p) => Ok(p.into()),
                }
            }
            Fx::JsonSchema2020 => done_text(format!(
                "Received arguments: {}",
                Value::Object(args.cloned().unwrap_or_default())
            )),
            Fx::CustomHeader => {
                let value = string_arg(args, "value")?;
                done_text(format!("Custom header value: {value}"))
            }
            Fx::MissingCapability => {
                // Relies on sampling: `ask` answers -32021 when the client did not declare it.
                let question = Question::Sample {
                    prompt: "Reply with one word to show sampling works.".into(),
                    max_tokens: 20,
                };
                match self.ask(&turn, &[("probe", question)], None).await? {
                    Asked::Answered(a) => done_text(format!(
                        "Sampling answered: {}",
                        sampled_text("probe", &a[0])?
                    )),
                    Asked::Pending(p) => Ok(p.into()),
                }
            }
            Fx::StreamingElicitation => {
                let question = Question::form(
                    "Please confirm to continue",
                    json!({"type": "object", "properties": {"confirmed": {"type": "boolean"}}, "required": ["confirmed"]}),
                );
                match self.ask(&turn, &[("confirmation", question)], None).await? {
                    Asked::Answered(a) => done_text(format!(
                        "Confirmation received: {}",
                        elicitation_summary("confirmation", &a[0])?
                    )),
                    Asked::Pending(p) => Ok(p.into()),
                }
            }
            Fx::TriggerToolChange | Fx::TriggerPromptChange => {
                self.announce_change(&turn, fx == Fx::TriggerToolChange)
                    .await
            }
            Fx::IrElicitation => {
                let question = Question::form("What is your name?", name_schema());
                match self.ask(&turn, &[("user_name", question)], None).await? {
                    Asked::Answered(a) => match accepted_form("user_name", &a[0])? {
                        Some(form) => done_text(format!(
                            "Hello, {}!",
                            form_string(form, "name").unwrap_or("stranger")
                        )),
                        None => done_text("No name was given."),
                    },
                    Asked::Pending(p) => Ok(p.into()),
                }
            }
            Fx::IrSampling => {
                let question = Question::Sample {
                    prompt: "What is the capital of France?".into(),
                    max_tokens: 100,
                };
                match self
                    .ask(&turn, &[("capital_question", question)], None)
                    .await?
                {
                    Asked::Answered(a) => done_text(format!(
                        "The client's LLM said: {}",
                        sampled_text("capital_question", &a[0])?
                    )),
                    Asked::Pending(p) => Ok(p.into()),
                }
            }
            Fx::IrListRoots => match self
                .ask(&turn, &[("client_roots", Question::Roots)], None)
                .await?
            {
                Asked::Answered(a) => done_text(format!(
                    "Client roots: {}",
                    root_uris("client_roots", &a[0])?.join(", ")
                )),
                Asked::Pending(p) => Ok(p.into()),
            },
            Fx::IrRequestState | Fx::IrTamperedState => self.confirm_with_state(fx, &turn).await,
            Fx::IrMultipleInputs => self.ask_everything(&turn).await,
            Fx::IrMultiRound => self.two_rounds(&turn).await,
            Fx::IrCapabilities => self.ask_what_is_declared(&turn).await,
        }
    }

    pub fn resources(&self) -> Vec<Resource> {
        vec![
            Resource::new(STATIC_TEXT_URI, "static-text")
                .with_description("Conformance fixture: a fixed text resource")
                .with_mime_type("text/plain"),
            Resource::new(STATIC_BINARY_URI, "static-binary")
                .with_description("Conformance fixture: a fixed PNG resource")
                .with_mime_type("image/png"),
            Resource::new(WATCHED_URI, "watched-resource")
                .with_description("Conformance fixture: a resource clients may subscribe to")
                .with_mime_type("text/plain"),
        ]
    }

    pub fn resource_templates(&self) -> Vec<ResourceTemplate> {
        vec![
            ResourceTemplate::new(TEMPLATE_URI, "template-data")
                .with_description("Conformance fixture: JSON data for any id")
                .with_mime_type("application/json"),
        ]
    }

    pub async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri.as_str();
        let contents = match uri {
            STATIC_TEXT_URI => {
                ResourceContents::text("This is the content of the static text resource.", uri)
                    .with_mime_type("text/plain")
            }
            STATIC_BINARY_URI => {
                ResourceContents::blob(PNG_BASE64, uri).with_mime_type("image/png")
            }
            WATCHED_URI => ResourceContents::text("The watched resource has not changed.", uri)
                .with_mime_type("text/plain"),
            EMBEDDED_URI => embedded_text(),
            MIXED_URI => mixed_json(),
            _ => match template_id(uri) {
                Some(id) => ResourceContents::text(
                    json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")})
                        .to_string(),
                    uri,
                )
                .with_mime_type("application/json"),
                // SEP-2164: an error naming the URI, never an empty `contents`. rmcp sends
                // -32002 to legacy clients and -32602 from 2026-07-28 on.
                None => {
                    return Err(ErrorData::resource_not_found(
                        format!("no fixture resource `{uri}`"),
                        Some(json!({"uri": uri})),
                    ));
                }
            },
        };
        Ok(ReadResourceResult::new(vec![contents]).into())
    }

    pub fn prompts(&self) -> Vec<Prompt> {
        let required = |name: &str, description: &str| {
            PromptArgument::new(name)
                .with_description(description)
                .with_required(true)
        };
        vec![
            Prompt::new(
                "test_simple_prompt",
                Some("Conformance fixture: a prompt without arguments"),
                None,
            ),
            Prompt::new(
                "test_prompt_with_arguments",
                Some("Conformance fixture: a prompt that quotes its two arguments"),
                Some(vec![
                    required("arg1", "First test argument"),
                    required("arg2", "Second test argument"),
                ]),
            ),
            Prompt::new(
                "test_prompt_with_embedded_resource",
                Some("Conformance fixture: a prompt that embeds a resource"),
                Some(vec![required(
                    "resourceUri",
                    "URI of the resource to embed",
                )]),
            ),
            Prompt::new(
                "test_prompt_with_image",
                Some("Conformance fixture: a prompt with an image"),
                None,
            ),
            Prompt::new(
                "test_input_required_result_prompt",
                Some("Conformance fixture: a prompt that first asks the user for context"),
                None,
            ),
        ]
    }

    pub fn get_prompt(
        &self,
        request: GetPromptRequestParams,
    ) -> Result<GetPromptResponse, ErrorData> {
        let args = request.arguments.as_ref();
        let messages = match request.name.as_str() {
            "test_simple_prompt" => vec![PromptMessage::new_text(
                Role::User,
                "This is a simple prompt for testing.",
            )],
            "test_prompt_with_arguments" => {
                let (arg1, arg2) = (string_arg(args, "arg1")?, string_arg(args, "arg2")?);
                vec![PromptMessage::new_text(
                    Role::User,
                    format!("Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"),
                )]
            }
            "test_prompt_with_embedded_resource" => {
                let uri = string_arg(args, "resourceUri")?;
                vec![
                    PromptMessage::new(
                        Role::User,
                        ContentBlock::resource(
                            ResourceContents::text("Embedded resource content for testing.", uri)
                                .with_mime_type("text/plain"),
                        ),
                    ),
                    PromptMessage::new_text(
                        Role::User,
                        "Please process the embedded resource above.",
                    ),
                ]
            }
            "test_prompt_with_image" => vec![
                PromptMessage::new(Role::User, ContentBlock::image(PNG_BASE64, "image/png")),
                PromptMessage::new_text(Role::User, "Please analyze the image above."),
            ],
            "test_input_required_result_prompt" => {
                // Prompts get no request context here, so this one is stateless-only: it asks
                // until the answer comes back, whatever the revision (rmcp refuses to send an
                // InputRequiredResult to a legacy client).
                const KEY: &str = "user_context";
                let Some(answer) = request.input_responses.as_ref().and_then(|r| r.get(KEY)) else {
                    let question = Question::form(
                        "What context should the prompt use?",
                        json!({"type": "object", "properties": {"context": {"type": "string"}}, "required": ["context"]}),
                    );
                    return Ok(pending(&[(KEY, question)], None)?.into());
                };
                let context = accepted_form(KEY, answer)?
                    .and_then(|form| form_string(form, "context"))
                    .unwrap_or("(none given)")
                    .to_string();
                vec![PromptMessage::new_text(
                    Role::User,
                    format!("Use this context for the task: {context}"),
                )]
            }
            other => {
                return Err(ErrorData::invalid_params(
                    format!("no fixture prompt `{other}`"),
                    Some(
                        json!({"available_prompts": self.prompts().into_iter().map(|p| p.name).collect::<Vec<_>>()}),
                    ),
                ));
            }
        };
        Ok(GetPromptResult::new(messages).into())
    }

    pub fn complete(&self, request: CompleteRequestParams) -> Result<CompleteResult, ErrorData> {
        let candidates: &[&str] = match (&request.r#ref, request.argument.name.as_str()) {
            (Reference::Prompt(p), "arg1") if p.name == "test_prompt_with_arguments" => {
                &["paris", "park", "party", "test", "testValue1"]
            }
            (Reference::Prompt(p), "arg2") if p.name == "test_prompt_with_arguments" => {
                &["testValue2", "world"]
            }
            (Reference::Resource(r), "id") if r.uri == TEMPLATE_URI => &["1", "2", "3", "123"],
            _ => &[],
        };
        let typed = request.argument.value.to_lowercase();
        let values: Vec<String> = candidates
            .iter()
            .filter(|c| c.to_lowercase().starts_with(&typed))
            .map(|c| c.to_string())
            .collect();
        let info = CompletionInfo::with_all_values(values)
            .map_err(|e| ErrorData::internal_error(e, None))?;
        Ok(CompleteResult::new(info))
    }
}

// ---------------------------------------------------------------------------------------------
// Asking the client for input, on either revision
// ---------------------------------------------------------------------------------------------

/// One call of a fixture tool as the asking helpers see it: who calls, over which revision,
/// and what the client already answered (2026-07-28 retries only).
#[derive(Clone, Copy)]
struct Turn<'a> {
    cx: &'a RequestContext<RoleServer>,
    /// 2026-07-28 or later: no server-to-client requests, input comes through retries.
    stateless: bool,
    answers: Option<&'a InputResponses>,
    request_state: Option<&'a str>,
}

impl<'a> Turn<'a> {
    fn new(cx: &'a RequestContext<RoleServer>, request: &'a CallToolRequestParams) -> Self {
        Turn {
            cx,
            stateless: cx
                .protocol_version()
                .is_some_and(|v| v >= ProtocolVersion::V_2026_07_28),
            answers: request.input_responses.as_ref(),
            request_state: request.request_state.as_deref(),
        }
    }

    /// The same call with the client's answers disregarded: answers sent without the
    /// `requestState` of the round they belong to are not trusted.
    fn without_answers(self) -> Self {
        Turn {
            answers: None,
            ..self
        }
    }

    /// Refuse (-32021) when the client did not declare the capability a question needs: on
    /// 2026-07-28 from the request's `_meta`, in a legacy session from `initialize`.
    fn require(&self, capability: &'static str) -> Result<(), ErrorData> {
        let declared = self
            .cx
            .client_capabilities()
            .and_then(|caps| serde_json::to_value(caps).ok())
            .is_some_and(|caps| caps.get(capability).is_some_and(|c| !c.is_null()));
        if declared {
            return Ok(());
        }
        let required: ClientCapabilities = serde_json::from_value(json!({capability: {}}))
            .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
        Err(ErrorData::missing_required_client_capability(required))
    }
}

/// Something a fixture needs from the client.
enum Question {
    /// An elicitation form.
    Form { message: String, schema: Value },
    /// A sampling request with one user message.
    Sample { prompt: String, max_tokens: u32 },
    /// The client's roots.
    Roots,
}

impl Question {
    fn form(message: impl Into<String>, schema: Value) -> Self {
        Question::Form {
            message: message.into(),
            schema,
        }
    }

    fn capability(&self) -> &'static str {
        match self {
            Question::Form { .. } => "elicitation",
            Question::Sample { .. } => "sampling",
            Question::Roots => "roots",
        }
    }

    fn method(&self) -> &'static str {
        match self {
            Question::Form { .. } => "elicitation/create",
            Question::Sample { .. } => "sampling/createMessage",
            Question::Roots => "roots/list",
        }
    }

    /// The request's `params` as they go on the wire (in an `inputRequests` entry or as a
    /// server-to-client request).
    fn params(&self) -> Value {
        match self {
            Question::Form { message, schema } => {
                json!({"mode": "form", "message": message, "requestedSchema": schema})
            }
            Question::Sample { prompt, max_tokens } => json!({
                "messages": [{"role": "user", "content": {"type": "text", "text": prompt}}],
                "maxTokens": max_tokens
            }),
            Question::Roots => json!({}),
        }
    }

    fn input_request(&self) -> Result<InputRequest, ErrorData> {
        let wire = match self {
            // rmcp models roots/list as a request without params.
            Question::Roots => json!({"method": self.method()}),
            _ => json!({"method": self.method(), "params": self.params()}),
        };
        serde_json::from_value(wire).map_err(|e| {
            ErrorData::internal_error(format!("fixture built a bad input request: {e}"), None)
        })
    }

    /// Ask over a legacy session with a real server-to-client request; the answer comes back
    /// as JSON so that both revisions are read by the same code.
    async fn send(&self, cx: &RequestContext<RoleServer>) -> Result<Value, ErrorData> {
        let peer_failed = |e: rmcp::ServiceError| {
            ErrorData::internal_error(format!("{} failed: {e}", self.method()), None)
        };
        let answer = match self {
            Question::Form { .. } => {
                let params: ElicitRequestParams = serde_json::from_value(self.params())
                    .map_err(|e| ErrorData::internal_error(e.to_string(), None))?;
                serde_json::to_value(
                    cx.peer
                        .create_elicitation(params)
                        .await
                        .map_err(peer_failed)?,
                )
            }
            Question::Sample { prompt, max_tokens } => {
                let params = CreateMessageRequestParams::new(
                    vec![SamplingMessage::user_text(prompt.clone())],
                    *max_tokens,
                );
                serde_json::to_value(cx.peer.create_message(params).await.map_err(peer_failed)?)
            }
            Question::Roots => {
                serde_json::to_value(cx.peer.list_roots().await.map_err(peer_failed)?)
            }
        };
        answer.map_err(|e| ErrorData::internal_error(e.to_string(), None))
    }
}

/// The outcome of asking: every answer (in question order), or the result that asks for them.
enum Asked {
    Answered(Vec<Value>),
    Pending(InputRequiredResult),
}

/// An `InputRequiredResult` asking `questions`, with `state` to be echoed back.
fn pending(
    questions: &[(&str, Question)],
    state: Option<String>,
) -> Result<InputRequiredResult, ErrorData> {
    let mut requests = InputRequests::new();
    for (key, question) in questions {
        requests.insert((*key).to_string(), question.input_request()?);
    }
    Ok(InputRequiredResult::new(Some(requests), state))
}

impl Fixtures {
    /// Get the answers to `questions`, each under its key. Legacy sessions are asked right
    /// away; a 2026-07-28 call returns them from its `inputResponses` once all are there, and
    /// otherwise (re-)asks for all of them, with `state` to echo. Extra answers are ignored.
    async fn ask(
        &self,
        turn: &Turn<'_>,
        questions: &[(&str, Question)],
        state: Option<String>,
    ) -> Result<Asked, ErrorData> {
        for (_, question) in questions {
            turn.require(question.capability())?;
        }
        if !turn.stateless {
            let mut answers = Vec::with_capacity(questions.len());
            for (_, question) in questions {
                answers.push(question.send(turn.cx).await?);
            }
            return Ok(Asked::Answered(answers));
        }
        let given: Option<Vec<Value>> = questions
            .iter()
            .map(|(key, _)| turn.answers.and_then(|a| a.get(*key)).cloned())
            .collect();
        match given {
            Some(answers) => Ok(Asked::Answered(answers)),
            None => Ok(Asked::Pending(pending(questions, state)?)),
        }
    }

    /// `test_input_required_result_request_state` and `…_tampered_state`: one confirmation
    /// round whose sealed `requestState` must come back intact.
    async fn confirm_with_state(
        &self,
        fx: Fx,
        turn: &Turn<'_>,
    ) -> Result<CallToolResponse, ErrorData> {
        let resumed = self.seal.open(fx, turn.request_state)?;
        let turn = if resumed.is_none() && turn.stateless {
            turn.without_answers()
        } else {
            *turn
        };
        let state = self.seal.seal(fx, &RoundState::round(1))?;
        let question = Question::form(
            "Please confirm",
            json!({"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]}),
        );
        match self
            .ask(&turn, &[("confirm", question)], Some(state))
            .await?
        {
            Asked::Answered(a) => {
                let ok = accepted_form("confirm", &a[0])?
                    .and_then(|form| form.get("ok"))
                    .and_then(Value::as_bool)
                    .unwrap_or(false);
                done_text(format!("state-ok: the requestState verified, ok={ok}"))
            }
            Asked::Pending(p) => Ok(p.into()),
        }
    }

    /// `test_input_required_result_multiple_inputs`: elicitation, sampling and roots in one round.
    async fn ask_everything(&self, turn: &Turn<'_>) -> Result<CallToolResponse, ErrorData> {
        let fx = Fx::IrMultipleInputs;
        let resumed = self.seal.open(fx, turn.request_state)?;
        let turn = if resumed.is_none() && turn.stateless {
            turn.without_answers()
        } else {
            *turn
        };
        let questions = [
            (
                "user_name",
                Question::form("What is your name?", name_schema()),
            ),
            (
                "greeting",
                Question::Sample {
                    prompt: "Generate a greeting".into(),
                    max_tokens: 50,
                },
            ),
            ("client_roots", Question::Roots),
        ];
        let state = self.seal.seal(fx, &RoundState::round(1))?;
        match self.ask(&turn, &questions, Some(state)).await? {
            Asked::Answered(a) => {
                let name = accepted_form("user_name", &a[0])?
                    .and_then(|form| form_string(form, "name"))
                    .unwrap_or("stranger")
                    .to_string();
                let greeting = sampled_text("greeting", &a[1])?;
                let roots = root_uris("client_roots", &a[2])?;
                done_text(format!(
                    "name={name}; greeting={greeting}; roots={}",
                    roots.join(", ")
                ))
            }
            Asked::Pending(p) => Ok(p.into()),
        }
    }

    /// `test_input_required_result_multi_round`: a name, then a colour, each in its own round.
    /// The name asked in round one travels inside the sealed state of round two.
    async fn two_rounds(&self, turn: &Turn<'_>) -> Result<CallToolResponse, ErrorData> {
        let fx = Fx::IrMultiRound;
        let resumed = self.seal.open(fx, turn.request_state)?;
        let turn = if resumed.is_none() && turn.stateless {
            turn.without_answers()
        } else {
            *turn
        };
        let name = match resumed.and_then(|r| r.name) {
            Some(name) => name,
            None => {
                let question = Question::form("Step 1: What is your name?", name_schema());
                let state = self.seal.seal(fx, &RoundState::round(1))?;
                match self.ask(&turn, &[("step1", question)], Some(state)).await? {
                    Asked::Answered(a) => accepted_form("step1", &a[0])?
                        .and_then(|form| form_string(form, "name"))
                        .unwrap_or("stranger")
                        .to_string(),
                    Asked::Pending(p) => return Ok(p.into()),
                }
            }
        };
        let question = Question::form(
            "Step 2: What is your favorite color?",
            json!({"type": "object", "properties": {"color": {"type": "string"}}, "required": ["color"]}),
        );
        let state = self.seal.seal(
            fx,
            &RoundState {
                round: 2,
                name: Some(name.clone()),
            },
        )?;
        match self.ask(&turn, &[("step2", question)], Some(state)).await? {
            Asked::Answered(a) => {
                let color = accepted_form("step2", &a[0])?
                    .and_then(|form| form_string(form, "color"))
                    .unwrap_or("no color")
                    .to_string();
                done_text(format!("{name} likes {color}."))
            }
            Asked::Pending(p) => Ok(p.into()),
        }
    }

    /// `test_input_required_result_capabilities`: ask only for what the client declared.
    async fn ask_what_is_declared(&self, turn: &Turn<'_>) -> Result<CallToolResponse, ErrorData> {
        let mut questions = Vec::new();
        if turn.require("elicitation").is_ok() {
            questions.push((
                "user_name",
                Question::form("What is your name?", name_schema()),
            ));
        }
        if turn.require("sampling").is_ok() {
            questions.push((
                "capital_question",
                Question::Sample {
                    prompt: "What is the capital of France?".into(),
                    max_tokens: 100,
                },
            ));
        }
        if turn.require("roots").is_ok() {
            questions.push(("client_roots", Question::Roots));
        }
        if questions.is_empty() {
            return done_text(
                "The client declared none of elicitation, sampling or roots; nothing to ask.",
            );
        }
        match self.ask(turn, &questions, None).await? {
            Asked::Answered(a) => {
                let keys: Vec<&str> = questions.iter().map(|(k, _)| *k).collect();
                done_text(format!(
                    "Answers received for: {} ({} in all)",
                    keys.join(", "),
                    a.len()
                ))
            }
            Asked::Pending(p) => Ok(p.into()),
        }
    }

    /// Send `lines` as info log messages, `STEP_PAUSE` apart, if the caller's log level lets
    /// info through; returns how many were sent.
    async fn log_steps(&self, turn: &Turn<'_>, lines: &[&str]) -> Result<usize, ErrorData> {
        // 2026-07-28 clients opt in per request (`_meta` logLevel) and get nothing otherwise;
        // legacy sessions use logging/setLevel, or info and up until they set one.
        let threshold = if turn.stateless {
            turn.cx.meta.log_level()
        } else {
            Some(lock(&self.level).unwrap_or(LoggingLevel::Info))
        };
        let enabled = threshold.is_some_and(|t| level_rank(LoggingLevel::Info) >= level_rank(t));
        for (i, line) in lines.iter().enumerate() {
            if i > 0 {
                tokio::time::sleep(STEP_PAUSE).await;
            }
            if enabled {
                let message = LoggingMessageNotificationParam::new(LoggingLevel::Info, json!(line))
                    .with_logger("opsdesk-conformance");
                turn.cx
                    .peer
                    .notify_logging_message(message)
                    .await
                    .map_err(|e| {
                        ErrorData::internal_error(format!("cannot send a log message: {e}"), None)
                    })?;
            }
        }
        Ok(if enabled { lines.len() } else { 0 })
    }

    /// The list-change hooks. Nothing really changes (the lists are fixed at start-up); the
    /// hooks only exercise delivery: to every open `subscriptions/listen` stream whose filter
    /// accepts the notification, and to the calling legacy session.
    async fn announce_change(
        &self,
        turn: &Turn<'_>,
        tools: bool,
    ) -> Result<CallToolResponse, ErrorData> {
        let listeners: Vec<(u64, SubscriptionSink)> = lock(&self.listeners)
            .iter()
            .map(|(k, s)| (*k, s.clone()))
            .collect();
        let mut delivered = 0;
        for (key, sink) in listeners {
            let sent = if tools {
                sink.notify_tool_list_changed().await
            } else {
                sink.notify_prompt_list_changed().await
            };
            match sent {
                Ok(()) => delivered += 1,
                // That stream's filter does not want this kind of notification.
                Err(SubscriptionSendError::NotificationNotAccepted(_)) => {}
                Err(_) => self.remove_subscription(key),
            }
        }
        if !turn.stateless {
            let peer = &turn.cx.peer;
            let sent = if tools {
                peer.notify_tool_list_changed().await
            } else {
                peer.notify_prompt_list_changed().await
            };
            if sent.is_ok() {
                delivered += 1;
            }
        }
        let what = if tools { "tool" } else { "prompt" };
        done_text(format!(
            "Announced a {what} list change to {delivered} listener(s)"
        ))
    }
}

/// `test_tool_with_progress`: progress 0, 50 and 100 of 100 when the request carries a token.
async fn report_progress(cx: &RequestContext<RoleServer>) -> Result<CallToolResponse, ErrorData> {
    let token = cx.meta.get_progress_token();
    for (i, step) in [0.0, 50.0, 100.0].into_iter().enumerate() {
        if i > 0 {
            tokio::time::sleep(STEP_PAUSE).await;
        }
        if let Some(token) = &token {
            let note = ProgressNotificationParam::new(token.clone(), step).with_total(100.0);
            cx.peer.notify_progress(note).await.map_err(|e| {
                ErrorData::internal_error(format!("cannot send progress: {e}"), None)
            })?;
        }
    }
    done_text(if token.is_some() {
        "Progress reported: 0, 50 and 100 of 100"
    } else {
        "Finished (no progress token was given)"
    })
}

// ---------------------------------------------------------------------------------------------
// Reading the client's answers (the same JSON on both revisions)
// ---------------------------------------------------------------------------------------------

fn bad_answer(key: &str, what: &str) -> ErrorData {
    ErrorData::invalid_params(
        format!("inputResponses[\"{key}\"] is not {what}"),
        Some(json!({"inputResponse": key})),
    )
}

/// An elicitation answer: the accepted form content, `None` when the user declined or
/// cancelled, an error when it is not an elicitation result at all.
fn accepted_form<'v>(
    key: &str,
    answer: &'v Value,
) -> Result<Option<&'v Map<String, Value>>, ErrorData> {
    let action = answer
        .get("action")
        .and_then(Value::as_str)
        .ok_or_else(|| bad_answer(key, "an elicitation result"))?;
    match (action, answer.get("content")) {
        ("accept", Some(Value::Object(form))) => Ok(Some(form)),
        ("accept", _) => Err(bad_answer(key, "an accepted elicitation with content")),
        ("decline" | "cancel", _) => Ok(None),
        _ => Err(bad_answer(key, "an elicitation result with a known action")),
    }
}

fn form_string<'v>(form: &'v Map<String, Value>, field: &str) -> Option<&'v str> {
    form.get(field).and_then(Value::as_str)
}

/// "action=…, content={…}" for the fixtures that report the whole elicitation answer.
fn elicitation_summary(key: &str, answer: &Value) -> Result<String, ErrorData> {
    let action = answer
        .get("action")
        .and_then(Value::as_str)
        .ok_or_else(|| bad_answer(key, "an elicitation result"))?;
    let content = answer.get("content").cloned().unwrap_or(json!({}));
    Ok(format!("action={action}, content={content}"))
}

/// The text of a sampling answer (`content` may be one block or a list of blocks).
fn sampled_text(key: &str, answer: &Value) -> Result<String, ErrorData> {
    let content = answer
        .get("content")
        .ok_or_else(|| bad_answer(key, "a sampling result"))?;
    let blocks = match content {
        Value::Array(blocks) => blocks.iter().collect(),
        block => vec![block],
    };
    blocks
        .into_iter()
        .find_map(|b| b.get("text").and_then(Value::as_str))
        .map(str::to_string)
        .ok_or_else(|| bad_answer(key, "a sampling result with text"))
}

fn root_uris(key: &str, answer: &Value) -> Result<Vec<String>, ErrorData> {
    let roots = answer
        .get("roots")
        .and_then(Value::as_array)
        .ok_or_else(|| bad_answer(key, "a roots/list result"))?;
    roots
        .iter()
        .map(|r| {
            r.get("uri")
                .and_then(Value::as_str)
                .map(str::to_string)
                .ok_or_else(|| bad_answer(key, "a roots/list result with root URIs"))
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Sealed requestState
// ---------------------------------------------------------------------------------------------

/// Where a multi-round fixture is, as carried in its `requestState`.
#[derive(Debug, Default, PartialEq, Serialize, Deserialize)]
struct RoundState {
    round: u8,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    name: Option<String>,
}

impl RoundState {
    fn round(round: u8) -> Self {
        RoundState { round, name: None }
    }
}

/// Seals `requestState` with an HMAC (rmcp's `RequestStateCodec`) under a key made fresh at
/// every start, bound to the fixture's name so a state cannot be replayed against another
/// fixture, and limited to `STATE_TTL`.
struct StateSeal {
    codec: RequestStateCodec,
}

impl Default for StateSeal {
    fn default() -> Self {
        // Two random v4 UUIDs: 32 bytes, of which 244 bits are random; plenty for a test key
        // that never leaves the process.
        let mut key = Vec::with_capacity(32);
        key.extend_from_slice(uuid::Uuid::new_v4().as_bytes());
        key.extend_from_slice(uuid::Uuid::new_v4().as_bytes());
        // The key is exactly MIN_KEY_LENGTH bytes, so the length check could not fail.
        StateSeal {
            codec: RequestStateCodec::new_unchecked(key),
        }
    }
}

impl StateSeal {
    fn seal(&self, fx: Fx, state: &RoundState) -> Result<String, ErrorData> {
        let options = SealOptions::new()
            .associated_data(fx.name().as_bytes())
            .ttl(STATE_TTL);
        self.codec
            .seal_json_with(state, &options)
            .map_err(|e| ErrorData::internal_error(format!("cannot seal requestState: {e}"), None))
    }

    /// The state the client echoed, verified; `None` when it sent none. Anything forged,
    /// altered, expired or meant for another fixture is an invalid-params error.
    fn open(&self, fx: Fx, sealed: Option<&str>) -> Result<Option<RoundState>, ErrorData> {
        let Some(sealed) = sealed else {
            return Ok(None);
        };
        self.codec
            .open_json_with(sealed, fx.name().as_bytes())
            .map(Some)
            .map_err(|e| {
                ErrorData::invalid_params(
                    format!("requestState rejected: {e}"),
                    Some(json!({"requestState": "failed integrity verification"})),
                )
            })
    }
}

// ---------------------------------------------------------------------------------------------
// Small helpers
// ---------------------------------------------------------------------------------------------

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // Every critical section is a single read or write, so a poisoned lock is still consistent.
    m.lock().unwrap_or_else(|e| e.into_inner())
}

fn done(content: Vec<ContentBlock>) -> Result<CallToolResponse, ErrorData> {
    Ok(CallToolResult::success(content).into())
}

fn done_text(text: impl Into<String>) -> Result<CallToolResponse, ErrorData> {
    done(vec![ContentBlock::text(text)])
}

/// A required string argument; missing or not a string is invalid params.
fn string_arg<'a>(args: Option<&'a JsonObject>, name: &str) -> Result<&'a str, ErrorData> {
    args.and_then(|a| a.get(name))
        .and_then(Value::as_str)
        .ok_or_else(|| {
            ErrorData::invalid_params(
                format!("argument `{name}` (a string) is required"),
                Some(json!({"argument": name})),
            )
        })
}

/// The `{id}` of `test://template/{id}/data`: one non-empty path segment.
fn template_id(uri: &str) -> Option<&str> {
    let id = uri
        .strip_prefix(TEMPLATE_PREFIX)?
        .strip_suffix(TEMPLATE_SUFFIX)?;
    (!id.is_empty() && !id.contains('/')).then_some(id)
}

fn embedded_text() -> ResourceContents {
    ResourceContents::text("This is an embedded resource content.", EMBEDDED_URI)
        .with_mime_type("text/plain")
}

fn mixed_json() -> ResourceContents {
    ResourceContents::text(json!({"test": "data", "value": 123}).to_string(), MIXED_URI)
        .with_mime_type("application/json")
}

/// A tenth of a second of a 440 Hz square wave as an 8 kHz, 8-bit mono WAV, base64-encoded:
/// the smallest clip that is still real, playable audio.
fn wav_base64() -> String {
    const RATE: u32 = 8_000;
    const SAMPLES: u32 = RATE / 10;
    // 8-bit PCM is unsigned: 128 is silence. Half a period of 440 Hz is ~9 samples at 8 kHz.
    let samples = (0..SAMPLES).map(|i| {
        if (i * 440 * 2 / RATE).is_multiple_of(2) {
            160u8
        } else {
            96u8
        }
    });
    let mut wav = Vec::with_capacity(44 + SAMPLES as usize);
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + SAMPLES).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    wav.extend_from_slice(&16u32.to_le_bytes()); // fmt chunk size
    wav.extend_from_slice(&1u16.to_le_bytes()); // PCM
    wav.extend_from_slice(&1u16.to_le_bytes()); // mono
    wav.extend_from_slice(&RATE.to_le_bytes()); // sample rate
    wav.extend_from_slice(&RATE.to_le_bytes()); // bytes per second (1 byte per sample)
    wav.extend_from_slice(&1u16.to_le_bytes()); // block align
    wav.extend_from_slice(&8u16.to_le_bytes()); // bits per sample
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&SAMPLES.to_le_bytes());
    wav.extend(samples);
    base64::engine::general_purpose::STANDARD.encode(wav)
}

fn name_schema() -> Value {
    json!({"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]})
}

/// `test_elicitation`: the two fields the scenario's description lists.
fn contact_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "username": {"type": "string", "description": "User's response"},
            "email": {"type": "string", "description": "User's email address"}
        },
        "required": ["username", "email"]
    })
}

/// SEP-1034: a default for every primitive type, and for an enum.
fn defaults_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "name": {"type": "string", "description": "Your name", "default": "John Doe"},
            "age": {"type": "integer", "description": "Your age", "default": 30},
            "score": {"type": "number", "description": "Your score", "default": 95.5},
            "status": {
                "type": "string",
                "description": "Account status",
                "enum": ["active", "inactive", "pending"],
                "default": "active"
            },
            "verified": {"type": "boolean", "description": "Verified account", "default": true}
        }
    })
}

/// SEP-1330: the five enum shapes (plain, titled, legacy enumNames, and both multi-selects).
fn enums_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
            "titledSingle": {
                "type": "string",
                "oneOf": [
                    {"const": "value1", "title": "First Option"},
                    {"const": "value2", "title": "Second Option"},
                    {"const": "value3", "title": "Third Option"}
                ]
            },
            "legacyEnum": {
                "type": "string",
                "enum": ["opt1", "opt2", "opt3"],
                "enumNames": ["Option One", "Option Two", "Option Three"]
            },
            "untitledMulti": {
                "type": "array",
                "items": {"type": "string", "enum": ["option1", "option2", "option3"]}
            },
            "titledMulti": {
                "type": "array",
                "items": {
                    "anyOf": [
                        {"const": "value1", "title": "First Choice"},
                        {"const": "value2", "title": "Second Choice"},
                        {"const": "value3", "title": "Third Choice"}
                    ]
                }
            }
        }
    })
}

// ---------------------------------------------------------------------------------------------
// The server the suite talks to
// ---------------------------------------------------------------------------------------------

/// A running conformance server: opsdesk's engine and hub with the fixtures registered, behind
/// the same HTTP guard as `opsdesk serve` but without the bearer token (the suite cannot send
/// one), on a free loopback port.
pub struct SuiteServer {
    /// `http://127.0.0.1:<port>/mcp`.
    pub url: String,
    shutdown: tokio_util::sync::CancellationToken,
    task: tokio::task::JoinHandle<()>,
}

impl SuiteServer {
    /// Stop serving and wait for the server task.
    pub async fn stop(self) {
        self.shutdown.cancel();
        let _ = self.task.await;
    }
}

/// Start the conformance server on `data_dir` (a private temp dir) with the default config.
pub async fn serve_for_suite(data_dir: std::path::PathBuf) -> anyhow::Result<SuiteServer> {
    use crate::engine::{Engine, Mode};
    use crate::mcp::http;
    use std::sync::Arc;

    let config = crate::config::Config::default();
    let paths =
        crate::paths::Paths::resolve(Some(data_dir.clone()), Some(data_dir.join("config.toml")))?;
    let engine = Arc::new(Engine::open(paths, config.clone(), Mode::Primary)?);
    let hub = Arc::new(super::Hub::build_with(
        engine,
        super::HubOptions::default(),
        super::conformance::Mount::with_fixtures(),
    ));
    let mut opts = crate::http::HttpOptions::from_config(&config.server, None);
    opts.bind = std::net::SocketAddr::from(([127, 0, 0, 1], 0));
    // Every scenario of the suite comes from one peer with one credential, in bursts: the
    // per-client limit (tested in tests/mcp_attack.rs) would answer some of them 429.
    opts.rate_per_sec = 100_000;
    opts.rate_burst = 100_000;
    let listener = crate::http::bind(&opts).await?;
    let url = super::mcp_url(listener.local_addr()?);
    let shutdown = tokio_util::sync::CancellationToken::new();
    let app = http::router(hub, &opts, shutdown.clone(), None);
    let stop = shutdown.clone();
    let task = tokio::spawn(async move {
        if let Err(e) = http::serve(listener, app, &opts, stop).await {
            tracing::error!("conformance server stopped: {e}");
        }
    });
    Ok(SuiteServer {
        url,
        shutdown,
        task,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tool_names_are_unique_and_follow_the_spec_rules() {
        let fixtures = Fixtures::new();
        let tools = fixtures.tools();
        let mut names: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
        assert!(names.iter().all(|n| {
            (1..=128).contains(&n.len())
                && n.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "_.-".contains(c))
        }));
        names.sort();
        names.dedup();
        assert_eq!(names.len(), ALL_TOOLS.len());
        assert!(tools.iter().all(|t| t.description.is_some()));
        assert!(names.iter().all(|n| fixtures.has_tool(n)));
        assert!(!fixtures.has_tool("inbox_pull"));
    }

    #[test]
    fn every_question_is_a_valid_input_request() {
        let questions = [
            Question::form("What is your name?", name_schema()),
            Question::form("Defaults", defaults_schema()),
            Question::form("Enums", enums_schema()),
            Question::form("Contact", contact_schema()),
            Question::Sample {
                prompt: "hi".into(),
                max_tokens: 10,
            },
            Question::Roots,
        ];
        for q in &questions {
            let request = q.input_request().expect("valid input request");
            let wire = serde_json::to_value(&request).expect("serializable");
            assert_eq!(wire["method"], q.method());
        }
    }

    #[test]
    fn elicitation_schemas_keep_what_the_suite_checks() {
        let request = Question::form("Enums", enums_schema())
            .input_request()
            .expect("valid input request");
        let wire = serde_json::to_value(&request).expect("serializable");
        let props = &wire["params"]["requestedSchema"]["properties"];
        assert!(props["titledSingle"]["oneOf"].is_array());
        assert!(props["titledSingle"].get("enum").is_none());
        assert_eq!(
            props["legacyEnum"]["enumNames"].as_array().map(Vec::len),
            Some(3)
        );
        assert!(props["titledMulti"]["items"]["anyOf"].is_array());
        assert!(props["untitledMulti"]["items"]["enum"].is_array());

        let request = Question::form("Defaults", defaults_schema())
            .input_request()
            .expect("valid input request");
        let wire = serde_json::to_value(&request).expect("serializable");
        let props = &wire["params"]["requestedSchema"]["properties"];
        assert_eq!(props["name"]["default"], "John Doe");
        assert_eq!(props["age"]["default"], 30);
        assert_eq!(props["score"]["default"], 95.5);
        assert_eq!(props["status"]["default"], "active");
        assert_eq!(props["verified"]["default"], true);
    }

    #[test]
    fn sealed_state_round_trips_and_rejects_tampering_and_other_fixtures() {
        let seal = StateSeal::default();
        let state = RoundState {
            round: 2,
            name: Some("Alice".into()),
        };
        let sealed = seal.seal(Fx::IrMultiRound, &state).expect("seal");
        assert_eq!(
            seal.open(Fx::IrMultiRound, Some(&sealed)).expect("open"),
            Some(state)
        );
        assert!(seal.open(Fx::IrMultiRound, None).expect("none").is_none());
        assert!(
            seal.open(Fx::IrMultiRound, Some(&format!("{sealed}-TAMPERED")))
                .is_err()
        );
        assert!(seal.open(Fx::IrRequestState, Some(&sealed)).is_err());
        assert!(
            StateSeal::default()
                .open(Fx::IrMultiRound, Some(&sealed))
                .is_err()
        );
    }

    #[test]
    fn answers_are_read_strictly() {
        let accepted = json!({"action": "accept", "content": {"name": "Alice"}});
        let form = accepted_form("k", &accepted)
            .expect("valid")
            .expect("accepted");
        assert_eq!(form_string(form, "name"), Some("Alice"));
        assert!(
            accepted_form("k", &json!({"action": "decline"}))
                .expect("valid")
                .is_none()
        );
        assert!(accepted_form("k", &json!(12345)).is_err());
        assert!(accepted_form("k", &json!({"action": "accept"})).is_err());

        let sample = json!({"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "m"});
        assert_eq!(sampled_text("k", &sample).expect("text"), "Paris");
        assert!(sampled_text("k", &json!({"roots": []})).is_err());

        let roots = json!({"roots": [{"uri": "file:///a"}, {"uri": "file:///b", "name": "B"}]});
        assert_eq!(
            root_uris("k", &roots).expect("roots"),
            ["file:///a", "file:///b"]
        );
        assert!(root_uris("k", &json!({"roots": [{}]})).is_err());
    }

    #[test]
    fn template_ids_are_one_path_segment() {
        assert_eq!(template_id("test://template/123/data"), Some("123"));
        assert_eq!(template_id("test://template//data"), None);
        assert_eq!(template_id("test://template/a/b/data"), None);
        assert_eq!(template_id("test://static-text"), None);
    }

    #[test]
    fn the_wav_clip_is_a_well_formed_riff_file() {
        let bytes = base64::engine::general_purpose::STANDARD
            .decode(wav_base64())
            .expect("base64");
        assert_eq!(&bytes[0..4], b"RIFF");
        assert_eq!(&bytes[8..16], b"WAVEfmt ");
        let riff_len = u32::from_le_bytes([bytes[4], bytes[5], bytes[6], bytes[7]]) as usize;
        assert_eq!(riff_len + 8, bytes.len());
        let data_len = u32::from_le_bytes([bytes[40], bytes[41], bytes[42], bytes[43]]) as usize;
        assert_eq!(data_len + 44, bytes.len());
    }

    #[test]
    fn completion_filters_by_prefix() {
        let fixtures = Fixtures::new();
        let request = CompleteRequestParams::new(
            Reference::for_prompt("test_prompt_with_arguments"),
            ArgumentInfo::new("arg1", "par"),
        );
        let result = fixtures.complete(request).expect("complete");
        assert_eq!(result.completion.values, ["paris", "park", "party"]);
        let unknown = CompleteRequestParams::new(
            Reference::for_prompt("nope"),
            ArgumentInfo::new("arg1", ""),
        );
        assert!(
            fixtures
                .complete(unknown)
                .expect("complete")
                .completion
                .values
                .is_empty()
        );
    }

    #[test]
    fn unknown_test_resources_are_errors_naming_the_uri() {
        let fixtures = Fixtures::new();
        let rt = tokio::runtime::Builder::new_current_thread()
            .build()
            .expect("runtime");
        let err = rt
            .block_on(fixtures.read_resource(ReadResourceRequestParams::new(
                "test://nonexistent-resource-for-conformance-testing",
            )))
            .expect_err("not found");
        assert_eq!(
            err.data
                .as_ref()
                .and_then(|d| d.get("uri"))
                .and_then(Value::as_str),
            Some("test://nonexistent-resource-for-conformance-testing")
        );
        let ok = rt
            .block_on(
                fixtures.read_resource(ReadResourceRequestParams::new("test://template/7/data")),
            )
            .expect("template");
        let ReadResourceResponse::Complete(result) = ok else {
            panic!("expected a complete result");
        };
        let text = serde_json::to_value(&result.contents[0]).expect("json")["text"].clone();
        assert!(text.as_str().is_some_and(|t| t.contains("Data for ID: 7")));
    }
}
