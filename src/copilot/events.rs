//! The Copilot Extensions wire format: server-sent events in the OpenAI chat-completion chunk
//! shape, byte for byte what `@copilot-extensions/preview-sdk` 5.x's `createAckEvent`,
//! `createTextEvent`, `createReferencesEvent`, `createErrorsEvent` and `createDoneEvent`
//! produce. Field order matters for byte equality (JavaScript keeps insertion order), so every
//! frame is a struct with its fields in the SDK's order, never a JSON map.

use serde::Serialize;

#[derive(Serialize)]
struct Chunk<'a> {
    choices: [Choice<'a>; 1],
}

#[derive(Serialize)]
struct Choice<'a> {
    index: u32,
    #[serde(skip_serializing_if = "Option::is_none")]
    finish_reason: Option<&'a str>,
    delta: Delta<'a>,
}

#[derive(Serialize)]
struct Delta<'a> {
    content: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    role: Option<&'a str>,
}

/// A link Copilot shows under the answer (a draft, an audit record).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Reference {
    #[serde(rename = "type")]
    pub kind: String,
    pub id: String,
    pub is_implicit: bool,
    pub metadata: ReferenceMetadata,
}

#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ReferenceMetadata {
    pub display_name: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub display_url: Option<String>,
}

/// An error Copilot shows as such (`type` is `agent` for everything opsdesk reports).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct AgentError {
    #[serde(rename = "type")]
    pub kind: String,
    pub code: String,
    pub message: String,
    pub identifier: String,
}

impl AgentError {
    pub fn agent(code: &str, message: impl Into<String>, identifier: &str) -> AgentError {
        AgentError {
            kind: "agent".into(),
            code: code.into(),
            message: message.into(),
            identifier: identifier.into(),
        }
    }
}

fn data<T: Serialize>(v: &T) -> String {
    // Serialising these plain structs cannot fail; an empty object would still be valid SSE.
    serde_json::to_string(v).unwrap_or_else(|_| "{}".into())
}

fn chunk(content: Option<&str>, role: Option<&str>, finish: Option<&str>) -> String {
    let c = Chunk {
        choices: [Choice {
            index: 0,
            finish_reason: finish,
            delta: Delta { content, role },
        }],
    };
    format!("data: {}\n\n", data(&c))
}

/// `createAckEvent()`: the first frame.
pub fn ack() -> String {
    chunk(Some(""), Some("assistant"), None)
}

/// `createTextEvent(message)`: a markdown chunk.
pub fn text(message: &str) -> String {
    chunk(Some(message), Some("assistant"), None)
}

/// `createReferencesEvent(references)`.
pub fn references(refs: &[Reference]) -> String {
    format!("event: copilot_references\ndata: {}\n\n", data(&refs))
}

/// `createErrorsEvent(errors)`.
pub fn errors(errs: &[AgentError]) -> String {
    format!("event: copilot_errors\ndata: {}\n\n", data(&errs))
}

/// `createDoneEvent()`: the last frame.
pub fn done() -> String {
    format!(
        "{}data: [DONE]\n\n",
        chunk(None, None, Some("stop")).as_str()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    // The SDK's output, as its source builds it (JSON.stringify of object literals).
    #[test]
    fn frames_match_the_preview_sdk_byte_for_byte() {
        assert_eq!(
            ack(),
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\",\"role\":\"assistant\"}}]}\n\n"
        );
        assert_eq!(
            text("**hi** \"there\"\n"),
            "data: {\"choices\":[{\"index\":0,\"delta\":{\"content\":\"**hi** \\\"there\\\"\\n\",\"role\":\"assistant\"}}]}\n\n"
        );
        assert_eq!(
            done(),
            "data: {\"choices\":[{\"index\":0,\"finish_reason\":\"stop\",\"delta\":{\"content\":null}}]}\n\ndata: [DONE]\n\n"
        );
        assert_eq!(
            errors(&[AgentError::agent("C", "m", "i")]),
            "event: copilot_errors\ndata: [{\"type\":\"agent\",\"code\":\"C\",\"message\":\"m\",\"identifier\":\"i\"}]\n\n"
        );
        let r = Reference {
            kind: "opsdesk.draft".into(),
            id: "d1".into(),
            is_implicit: false,
            metadata: ReferenceMetadata {
                display_name: "Draft d1".into(),
                display_url: None,
            },
        };
        assert_eq!(
            references(&[r]),
            "event: copilot_references\ndata: [{\"type\":\"opsdesk.draft\",\"id\":\"d1\",\"is_implicit\":false,\"metadata\":{\"display_name\":\"Draft d1\"}}]\n\n"
        );
    }
}
