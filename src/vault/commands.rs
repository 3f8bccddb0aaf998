//! The commands a tool's result may carry: proposals of opsdesk actions, turned into the same
//! `Action`s the MCP draft tools build ("one command format, many producers").
//!
//! The argument shapes are the MCP draft tools' own (`mcp::tools::*Args`), so a command is
//! exactly what a client could have asked for. Nothing here can build an approval, a
//! rejection or an execution: those kinds are refused by name.

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};

use crate::domain::{Action, Outbound};
use crate::domain::{
    CalendarEventArgs, ChatReplyArgs, DraftEmailArgs, DraftReplyArgs, MailMoveArgs,
};

/// The kinds a command may have.
pub const KINDS: &[&str] = &[
    "draft_email",
    "draft_reply",
    "chat_reply",
    "calendar_event",
    "move_mail",
];

/// Kinds that decide on drafts: only the operator may, so a tool asking is an error.
const DECISIONS: &[&str] = &[
    "approve",
    "approve_draft",
    "reject",
    "reject_draft",
    "execute",
    "send",
    "send_email",
    "edit_draft",
];

/// A command ready to submit: its kind, the profile it names (when it names one) and the action.
#[derive(Debug)]
pub struct Proposal {
    pub kind: String,
    /// The profile named or resolved here (`None` for a reply, whose profile is the message's).
    pub profile: Option<String>,
    pub action: Action,
}

/// Turn a result's `commands` array into proposals, all or nothing: one bad command refuses
/// the lot, so a tool never half-applies. `profiles` are the configured ones (to resolve an
/// omitted profile); `allowed` says which the tool may act for.
pub fn parse(
    commands: &Value,
    profiles: &[String],
    allowed: &dyn Fn(&str) -> bool,
) -> Result<Vec<Proposal>, String> {
    let Value::Array(items) = commands else {
        return Err("`commands` must be an array of objects with a `kind`".into());
    };
    items
        .iter()
        .enumerate()
        .map(|(i, c)| {
            one(c, profiles, allowed)
                .map_err(|e| format!("command {} of {}: {e}", i + 1, items.len()))
        })
        .collect()
}

fn one(c: &Value, profiles: &[String], allowed: &dyn Fn(&str) -> bool) -> Result<Proposal, String> {
    let Value::Object(map) = c else {
        return Err("not an object".into());
    };
    let mut map = map.clone();
    let kind = match map.remove("kind") {
        Some(Value::String(k)) => k,
        _ => return Err("no `kind` string".into()),
    };
    if DECISIONS.contains(&kind.as_str()) {
        return Err(format!(
            "`{kind}` refused: a tool can never approve, reject or send; only the operator decides on drafts"
        ));
    }
    let resolve = |p: Option<String>| -> Result<String, String> {
        let p = match p {
            Some(p) if profiles.contains(&p) => p,
            Some(p) => {
                return Err(format!(
                    "unknown profile `{}` (configured: {})",
                    crate::sanitize::one_line(&p, 40),
                    profiles.join(", ")
                ));
            }
            None if profiles.len() == 1 => profiles[0].clone(),
            None => {
                return Err(format!(
                    "name a `profile`: several are configured ({})",
                    profiles.join(", ")
                ));
            }
        };
        if !allowed(&p) {
            return Err(format!(
                "this tool may not act for profile `{p}` (its manifest's `profiles`)"
            ));
        }
        Ok(p)
    };
    let (profile, action) = match kind.as_str() {
        "draft_email" => {
            let a: DraftEmailArgs = args(&kind, map)?;
            let profile = resolve(a.profile)?;
            let (body, body_html) = bodies(&kind, a.body, a.body_html)?;
            let outbound = match a.reply_to {
                Some(message_id) => Outbound::ReplyEmail {
                    message_id,
                    to: a.to,
                    subject: a.subject,
                    body,
                    attachments: Vec::new(),
                    body_html,
                },
                None => Outbound::SendEmail {
                    to: a.to,
                    cc: a.cc,
                    subject: a.subject,
                    body,
                    attachments: Vec::new(),
                    body_html,
                },
            };
            (Some(profile.clone()), draft(profile, outbound))
        }
        "draft_reply" => {
            let a: DraftReplyArgs = args(&kind, map)?;
            let (body, body_html) = bodies(&kind, a.body, a.body_html)?;
            (
                None,
                Action::DraftReply {
                    message_id: a.message_id,
                    body,
                    attachments: Vec::new(),
                    body_html,
                },
            )
        }
        "chat_reply" => {
            let a: ChatReplyArgs = args(&kind, map)?;
            let profile = resolve(a.profile)?;
            let outbound = Outbound::PostChat {
                chat_id: a.chat_id,
                body: a.body,
            };
            (Some(profile.clone()), draft(profile, outbound))
        }
        "calendar_event" => {
            let a: CalendarEventArgs = args(&kind, map)?;
            let profile = resolve(a.profile)?;
            let outbound = Outbound::CreateEvent {
                subject: a.subject,
                start: rfc3339("start", &a.start)?,
                end: rfc3339("end", &a.end)?,
                attendees: a.attendees,
                location: a.location,
                body: a.body,
            };
            (Some(profile.clone()), draft(profile, outbound))
        }
        "move_mail" => {
            // Like `mail_move`: the engine derives the profile from the message and queues
            // the move as a draft the operator approves.
            let a: MailMoveArgs = args(&kind, map)?;
            (
                None,
                Action::MoveMessage {
                    message_id: a.message_id,
                    folder: a.folder,
                },
            )
        }
        other => {
            return Err(format!(
                "unknown command kind `{}`; known kinds: {}",
                crate::sanitize::one_line(other, 40),
                KINDS.join(", ")
            ));
        }
    };
    Ok(Proposal {
        kind,
        profile,
        action,
    })
}

fn draft(profile: String, outbound: Outbound) -> Action {
    Action::CreateDraft {
        profile,
        outbound,
        provider: None,
    }
}

fn args<T: DeserializeOwned>(kind: &str, map: Map<String, Value>) -> Result<T, String> {
    serde_path_to_error::deserialize::<_, T>(Value::Object(map)).map_err(|e| {
        let path = e.path().to_string();
        if path == "." {
            format!("`{kind}`: {}", e.inner())
        } else {
            format!("`{kind}` field `{path}`: {}", e.inner())
        }
    })
}

/// Exactly one of `body` and `body_html` (as `draft_email` over MCP).
fn bodies(
    kind: &str,
    body: Option<String>,
    body_html: Option<String>,
) -> Result<(String, Option<String>), String> {
    crate::domain::body_pair(body, body_html)
        .map_err(|(field, msg)| format!("`{kind}` field `{field}`: {msg}"))
}

fn rfc3339(field: &str, s: &str) -> Result<time::OffsetDateTime, String> {
    time::OffsetDateTime::parse(s, &time::format_description::well_known::Rfc3339)
        .map_err(|e| format!("`{field}` is not an RFC 3339 date-time: {e}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn profiles() -> Vec<String> {
        vec!["work".into()]
    }

    #[test]
    fn a_draft_email_becomes_a_create_draft_for_the_only_profile() {
        let p = parse(
            &json!([{"kind": "draft_email", "to": ["a@example.com"], "subject": "Hi", "body": "b"}]),
            &profiles(),
            &|_| true,
        )
        .unwrap();
        assert_eq!(p.len(), 1);
        assert!(matches!(&p[0].action, Action::CreateDraft { profile, .. } if profile == "work"));
    }

    #[test]
    fn decisions_and_unknown_kinds_are_refused_and_nothing_is_half_parsed() {
        let ok = json!({"kind": "draft_reply", "message_id": "m1", "body": "b"});
        let e = parse(
            &json!([ok, {"kind": "approve_draft", "id": "d-1"}]),
            &profiles(),
            &|_| true,
        )
        .unwrap_err();
        assert!(
            e.contains("command 2 of 2") && e.contains("never approve"),
            "{e}"
        );
        let e = parse(&json!([{"kind": "delete_mailbox"}]), &profiles(), &|_| true).unwrap_err();
        assert!(
            e.contains("unknown command kind") && e.contains("draft_email"),
            "{e}"
        );
    }

    #[test]
    fn a_move_mail_becomes_a_move_message_with_the_mail_move_fields() {
        let p = parse(
            &json!([{"kind": "move_mail", "message_id": "m1", "folder": "archive"}]),
            &profiles(),
            &|_| true,
        )
        .unwrap();
        assert!(matches!(
            &p[0].action,
            Action::MoveMessage { message_id, folder } if message_id == "m1" && folder == "archive"
        ));
        let e = parse(
            &json!([{"kind": "move_mail", "message_id": "m1"}]),
            &profiles(),
            &|_| true,
        )
        .unwrap_err();
        assert!(e.contains("`move_mail`") && e.contains("folder"), "{e}");
    }

    #[test]
    fn a_profile_outside_the_manifest_is_refused() {
        let e = parse(
            &json!([{"kind": "chat_reply", "chat_id": "c", "body": "b"}]),
            &profiles(),
            &|p| p == "home",
        )
        .unwrap_err();
        assert!(e.contains("may not act for profile `work`"), "{e}");
    }

    #[test]
    fn a_bad_field_is_named() {
        let e = parse(
            &json!([{"kind": "draft_email", "to": "x"}]),
            &profiles(),
            &|_| true,
        )
        .unwrap_err();
        assert!(e.contains("`draft_email` field `to`"), "{e}");
    }
}
