//! The action boundary's text check of an outbound draft: every field is exactly what the
//! operator reviews (no control, bidi or invisible characters), field by field.

use super::Outbound;
use crate::sanitize::{OutboundTextError, check_outbound_field};

/// Check every text field of an outbound draft before it is queued (the action boundary):
/// NUL and other control characters (so terminal escapes), bidirectional controls, zero-width
/// and other invisible characters are refused, never silently dropped, so the stored draft,
/// the text the operator approves (its digest) and the bytes sent are the same. Multi-line
/// fields (bodies) may hold `\n`, `\r` and `\t`; one-line fields (subject, recipients, ids)
/// no control at all, which also rules out header injection. A zero-width joiner between two
/// emoji (family and profession emoji) is allowed.
pub fn check_outbound(o: &Outbound) -> Result<(), OutboundTextError> {
    let line = |field, s: &str| check_outbound_field(field, s, false);
    let lines = |field, s: &str| check_outbound_field(field, s, true);
    let all = |field, v: &[String]| v.iter().try_for_each(|a| line(field, a));
    match o {
        Outbound::SendEmail {
            to,
            cc,
            subject,
            body,
            body_html,
            ..
        } => {
            all("to", to)?;
            all("cc", cc)?;
            line("subject", subject)?;
            lines("body", body)?;
            body_html
                .as_deref()
                .map_or(Ok(()), |h| lines("body_html", h))
        }
        Outbound::ReplyEmail {
            message_id,
            to,
            subject,
            body,
            body_html,
            ..
        } => {
            line("message_id", message_id)?;
            all("to", to)?;
            line("subject", subject)?;
            lines("body", body)?;
            body_html
                .as_deref()
                .map_or(Ok(()), |h| lines("body_html", h))
        }
        Outbound::PostChat { chat_id, body } => {
            line("chat_id", chat_id)?;
            lines("body", body)
        }
        Outbound::CreateEvent {
            subject,
            attendees,
            location,
            body,
            ..
        } => {
            line("subject", subject)?;
            all("attendees", attendees)?;
            if let Some(l) = location {
                line("location", l)?;
            }
            lines("body", body)
        }
        Outbound::CreateDeal { spec } => {
            line("name", &spec.name)?;
            all("counterparties", &spec.counterparties)?;
            all("keywords", &spec.keywords)?;
            for k in &spec.key_dates {
                line("key_dates", &k.label)?;
                line("key_dates", &k.date)?;
            }
            lines("notes", &spec.notes)
        }
        Outbound::MoveMail { message_id, folder } => {
            line("message_id", message_id)?;
            line("folder", folder)
        }
    }
}
