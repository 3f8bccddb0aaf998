//! What a producer asks the engine to draft, as tools take it: the argument types shared by
//! the MCP tools and the tool vault's commands (one shape, one set of field docs).

use schemars::JsonSchema;
use serde::Deserialize;

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DraftEmailArgs {
    /// The profile (entity) sending; may be left out when only one profile is configured.
    #[serde(default)]
    pub profile: Option<String>,
    /// Recipient addresses.
    pub to: Vec<String>,
    #[serde(default)]
    pub cc: Vec<String>,
    pub subject: String,
    /// The text (plain text, the default). Give exactly one of `body` and `body_html`.
    #[serde(default)]
    pub body: Option<String>,
    /// The body as HTML instead of `body`: sanitized by opsdesk (no scripts, event handlers,
    /// images or links other than http, https and mailto) and sent as HTML; the operator
    /// reviews its text rendering.
    #[serde(default)]
    pub body_html: Option<String>,
    /// Inbox `id` of the message this answers (makes it a reply in that thread).
    #[serde(default)]
    pub reply_to: Option<String>,
    /// Files to attach: the `sha256` of attachments an inbox item of the same profile lists,
    /// or an absolute path inside a folder the operator allowed (`[attachments] outbound_dirs`).
    #[serde(default)]
    pub attachments: Vec<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct DraftReplyArgs {
    /// The `id` of an inbox message (from inbox_pull / inbox_search).
    pub message_id: String,
    /// The text (plain text, the default). Give exactly one of `body` and `body_html`.
    #[serde(default)]
    pub body: Option<String>,
    /// The reply as HTML instead of `body` (mail only; sanitized like `draft_email`'s).
    #[serde(default)]
    pub body_html: Option<String>,
    /// Files to attach: the `sha256` of attachments an inbox item of the same profile lists,
    /// or an absolute path inside a folder the operator allowed (`[attachments] outbound_dirs`).
    #[serde(default)]
    pub attachments: Vec<String>,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct CalendarEventArgs {
    #[serde(default)]
    pub profile: Option<String>,
    pub subject: String,
    /// Start, RFC 3339 with offset, e.g. `2026-05-04T15:00:00+02:00`.
    pub start: String,
    /// End, RFC 3339 with offset.
    pub end: String,
    #[serde(default)]
    pub attendees: Vec<String>,
    #[serde(default)]
    pub location: Option<String>,
    #[serde(default)]
    pub body: String,
}

#[derive(Debug, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct ChatReplyArgs {
    #[serde(default)]
    pub profile: Option<String>,
    /// The Teams chat id (the `thread_id` of a teams inbox message).
    pub chat_id: String,
    pub body: String,
}

/// Exactly one of `body` (plain text) and `body_html`, as `(body, body_html)` for the draft:
/// for HTML the engine sanitizes `body_html` and fills `body` with its text rendering.
pub fn body_pair(
    body: Option<String>,
    body_html: Option<String>,
) -> Result<(String, Option<String>), (&'static str, &'static str)> {
    match (body, body_html) {
        (Some(b), None) => Ok((b, None)),
        (None, Some(h)) => Ok((String::new(), Some(h))),
        (Some(_), Some(_)) => Err((
            "body_html",
            "give either `body` (plain text) or `body_html`, not both",
        )),
        (None, None) => Err((
            "body",
            "give the text in `body` (plain text) or `body_html` (HTML)",
        )),
    }
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
