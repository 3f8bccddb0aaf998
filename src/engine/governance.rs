//! First governance pass for outbound drafts: shape checks, hard bans and the autonomy ladder.
//! Outbound actions are never run directly: at best they are queued for the operator.

use serde_json::json;

use super::EngineError;
use crate::config::{ActionKind, AutonomyLevel, Config};
use crate::domain::{Outbound, Verdict};

const MAX_BODY: usize = 100_000;
const MAX_RECIPIENTS: usize = 100;

pub fn action_kind(o: &Outbound) -> ActionKind {
    match o {
        Outbound::SendEmail { .. } => ActionKind::SendEmail,
        Outbound::ReplyEmail { .. } => ActionKind::ReplyEmail,
        Outbound::PostChat { .. } => ActionKind::PostChat,
        Outbound::CreateEvent { .. } => ActionKind::CreateEvent,
    }
}

/// Reject malformed drafts with a message that says how to fix them.
pub fn validate_outbound(o: &Outbound) -> Result<(), EngineError> {
    let bad = |field: &str, msg: String| Err(EngineError::invalid(msg, json!({"field": field})));
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

fn domain_of(a: &str) -> Option<String> {
    a.rsplit_once('@')
        .map(|(_, d)| d.trim().to_ascii_lowercase())
}

/// The verdict for an outbound action of `profile`: blocked by a hard ban or the ladder, or
/// queued for the operator.
pub fn judge_outbound(config: &Config, profile: &str, o: &Outbound) -> Verdict {
    for r in o.recipients() {
        if let Some(d) = domain_of(&r)
            && config
                .hard_bans
                .blocked_recipient_domains
                .iter()
                .any(|b| b.eq_ignore_ascii_case(&d))
        {
            return Verdict::block(
                "hard_ban.blocked_recipient_domain",
                format!("recipient domain `{d}` is banned"),
                "remove that recipient; hard bans cannot be relaxed at run time",
            );
        }
    }
    let body = o.body().to_lowercase();
    for p in &config.hard_bans.blocked_phrases {
        if !p.is_empty() && body.contains(&p.to_lowercase()) {
            return Verdict::block(
                "hard_ban.blocked_phrase",
                format!("the text contains the banned phrase `{p}`"),
                "rewrite the text without it",
            );
        }
    }
    let kind = action_kind(o);
    match config.autonomy.level(kind) {
        AutonomyLevel::Never => Verdict::block(
            "autonomy.never",
            format!("`{}` is set to never for {profile}", o.kind()),
            "this action is not available; change [autonomy] in the config if that is wrong",
        ),
        AutonomyLevel::Blocked => Verdict::block(
            "autonomy.blocked",
            format!("`{}` is blocked by the autonomy ladder", o.kind()),
            "set it to draft_only or approval_required in [autonomy] to allow drafts",
        ),
        level => Verdict::Queue {
            reason: format!(
                "{} waits for the operator's approval (autonomy: {})",
                o.kind(),
                match level {
                    AutonomyLevel::ApprovalRequired => "approval_required",
                    _ => "draft_only",
                }
            ),
        },
    }
}
