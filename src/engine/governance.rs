//! Governance as the engine applies it: shape checks for outbound drafts, then the entity
//! boundary, the hard bans and the autonomy ladder (`crate::governance`). Outbound actions are
//! never run directly: at best they are queued for the operator.

use serde_json::json;

use super::EngineError;
use crate::config::{ActionKind, Config};
use crate::domain::{Outbound, Verdict};
use crate::governance::{bans, boundary, ladder};

const MAX_BODY: usize = 100_000;
/// Sanitized HTML of one mail, in bytes (the limit `html_mail::prepare` applies before parsing).
const MAX_HTML: usize = crate::html_mail::MAX_HTML_BYTES;
// An HTML mail's text rendering becomes its body: one limit, so a rendering `prepare` accepts
// is never refused here as a body.
const _: () = assert!(MAX_BODY == crate::html_mail::MAX_RENDERING_BYTES);
const MAX_RECIPIENTS: usize = 100;

pub fn action_kind(o: &Outbound) -> ActionKind {
    match o {
        Outbound::SendEmail { .. } => ActionKind::SendEmail,
        Outbound::ReplyEmail { .. } => ActionKind::ReplyEmail,
        Outbound::PostChat { .. } => ActionKind::PostChat,
        Outbound::CreateEvent { .. } => ActionKind::CreateEvent,
        Outbound::CreateDeal { .. } => ActionKind::CreateDeal,
        Outbound::MoveMail { .. } => ActionKind::MoveMail,
    }
}

/// An HTML mail's HTML sanitized and its text rendering derived (`crate::html_mail`), before
/// the draft is checked, judged and digested: the digest covers exactly what is sent. HTML
/// that is too large, nests too deep or renders to more text than a body may hold is refused
/// here, naming `body_html`, before it is parsed or cut.
pub fn prepare_outbound(o: &mut Outbound) -> Result<(), EngineError> {
    crate::html_mail::prepare(o)
        .map_err(|e| EngineError::invalid(e.to_string(), json!({"field": e.field()})))
}

/// Reject malformed drafts with a message that says how to fix them.
pub fn validate_outbound(o: &Outbound) -> Result<(), EngineError> {
    let bad = |field: &str, msg: String| Err(EngineError::invalid(msg, json!({"field": field})));
    // Hidden or control characters: rejected so the approved digest covers what is sent.
    crate::domain::check_outbound(o)
        .map_err(|e| EngineError::invalid(e.to_string(), json!({"field": e.field})))?;
    if let Some(html) = o.body_html() {
        if html.len() > MAX_HTML {
            return bad(
                "body_html",
                format!("body_html is {} bytes; the limit is {MAX_HTML}", html.len()),
            );
        }
        if o.body().trim().is_empty() {
            return bad(
                "body_html",
                "body_html has no readable text left after sanitizing (scripts, styles, images and unsafe links are removed)".into(),
            );
        }
    }
    if o.body().len() > MAX_BODY {
        return bad(
            "body",
            format!("body is {} bytes; the limit is {MAX_BODY}", o.body().len()),
        );
    }
    if o.subject().is_some_and(|s| s.chars().count() > 500) {
        return bad("subject", "subject is longer than 500 characters".into());
    }
    match o {
        Outbound::SendEmail { to, cc, .. } => {
            if to.is_empty() {
                return bad("to", "an email needs at least one recipient in `to`".into());
            }
            if to.len() + cc.len() > MAX_RECIPIENTS {
                return bad("to", format!("more than {MAX_RECIPIENTS} recipients"));
            }
            for a in to.iter().chain(cc) {
                if !looks_like_address(a) {
                    return bad(
                        "to",
                        format!(
                            "`{}` is not an email address (expected name@domain)",
                            crate::sanitize::one_line(a, 80)
                        ),
                    );
                }
            }
        }
        Outbound::ReplyEmail { to, .. } => {
            if to.iter().any(|a| !looks_like_address(a)) {
                return bad("to", "reply recipient is not an email address".into());
            }
        }
        Outbound::PostChat { chat_id, body } => {
            if chat_id.trim().is_empty() {
                return bad("chat_id", "a chat message needs the chat id".into());
            }
            if body.trim().is_empty() {
                return bad("body", "a chat message needs a body".into());
            }
        }
        Outbound::CreateEvent {
            start,
            end,
            attendees,
            ..
        } => {
            if end <= start {
                return bad("end", "the event must end after it starts".into());
            }
            if attendees.iter().any(|a| !looks_like_address(a)) {
                return bad("attendees", "attendees must be email addresses".into());
            }
        }
        Outbound::CreateDeal { spec } => super::deals::validate_spec(spec)?,
        Outbound::MoveMail { message_id, folder } => {
            if message_id.trim().is_empty() {
                return bad("message_id", "a move needs the message's inbox id".into());
            }
            if folder.trim().is_empty() || folder.chars().count() > 255 {
                return bad(
                    "folder",
                    "a move needs a folder: a well-known name (archive, deleteditems, …), a folder name or path (Deals/Sunrise), or a folder id".into(),
                );
            }
        }
    }
    Ok(())
}

fn looks_like_address(a: &str) -> bool {
    let a = a.trim();
    match a.split_once('@') {
        Some((local, domain)) => {
            !local.is_empty()
                && domain.contains('.')
                && !a
                    .chars()
                    .any(|c| c.is_whitespace() || c.is_control() || c == '<' || c == '>')
        }
        None => false,
    }
}

/// The verdict for an outbound action of `profile`: the entity boundary, then the hard bans,
/// then the ladder (which at best queues it for the operator). `reply_source` is the profile of
/// the message replied to; `recent(q)` yields recent inbound texts of profile `q`.
pub fn judge_outbound(
    config: &Config,
    profile: &str,
    o: &Outbound,
    reply_source: Option<&str>,
    recent: &dyn Fn(&str) -> Vec<String>,
    internal: &dyn Fn() -> Result<Vec<crate::governance::audience::InternalText>, String>,
) -> Verdict {
    if let Some(v) = boundary::check(config, profile, o, reply_source, recent) {
        return v;
    }
    if let Some(v) = crate::governance::audience::check(config, profile, o, internal) {
        return v;
    }
    if let Some(v) = bans::check_outbound(config, o) {
        return v;
    }
    ladder::gate(config, action_kind(o), profile)
}
