//! Intake: an inbound item (`NewMessage`) becomes the record the inbox stores (`InboxRecord`).
//!
//! Inbound content is untrusted data: every field is cleaned with the ground floor's text
//! functions (`sanitize`) and bounded, so every reader starts from safe text. Identity (id,
//! profile) is checked first, so a source can refuse a bad item before handing it on.

use std::collections::BTreeMap;

use serde_json::Value;

use super::{Attachment, AttachmentStatus, InboxRecord, NewMessage, Party};
use crate::sanitize::{
    MAX_ATTACHMENT_TEXT_CHARS, MAX_ATTACHMENTS, MAX_ATTACHMENTS_TEXT_CHARS, MAX_FIELD_CHARS,
    MAX_META_BYTES, MAX_PREVIEW_CHARS, MAX_RECIPIENTS, MAX_TEXT_CHARS,
    META_ATTACHMENTS_TRUNCATED, attachment_risk, bound, clean_media_type, clean_text,
    html_to_text, one_line, safe_file_name,
};

/// Nesting depth kept in a record's meta.
const MAX_META_DEPTH: usize = 6;
/// Elements kept per meta array or object.
const MAX_META_ITEMS: usize = 64;
/// Characters kept of a meta key.
const MAX_META_KEY_CHARS: usize = 64;

/// Why an inbound item cannot be stored.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum IngestError {
    #[error("the message id is empty (after removing control and invisible characters)")]
    EmptyId,
    #[error("the message id is {chars} characters long; at most {MAX_FIELD_CHARS} are allowed")]
    IdTooLong { chars: usize },
    #[error(
        "profile {0:?} is not a valid profile name: use 1 to 64 characters of a-z, 0-9, `_` and `-`"
    )]
    BadProfile(String),
    /// For sinks that know the configuration: the item names a profile that does not exist.
    /// Sources treat it like any other `IngestError`: the item is refused, not retried.
    #[error("unknown profile `{profile}`; configured profiles: {}", known.join(", "))]
    UnknownProfile { profile: String, known: Vec<String> },
}

/// Validate the identity of an item (id and profile) without converting anything, so a source
/// can reject a bad item before handing it on. [`to_record`] applies the same checks.
pub fn check_identity(msg: &NewMessage) -> Result<String, IngestError> {
    if !valid_profile(&msg.profile) {
        // The name is untrusted: show a bounded, clean version of it.
        return Err(IngestError::BadProfile(one_line(&msg.profile, 64)));
    }
    clean_id(&msg.id)
}

fn valid_profile(p: &str) -> bool {
    (1..=64).contains(&p.len())
        && p.bytes()
            .all(|b| matches!(b, b'a'..=b'z' | b'0'..=b'9' | b'_' | b'-'))
}

/// The id as stored. Never truncated: a cut id could make two items look like one.
fn clean_id(id: &str) -> Result<String, IngestError> {
    let cleaned = one_line(id, usize::MAX);
    let chars = cleaned.chars().count();
    if chars == 0 {
        return Err(IngestError::EmptyId);
    }
    if chars > MAX_FIELD_CHARS {
        return Err(IngestError::IdTooLong { chars });
    }
    Ok(cleaned)
}

fn clean_field(s: &str) -> String {
    one_line(s, MAX_FIELD_CHARS)
}

fn clean_optional(s: Option<&str>) -> Option<String> {
    s.map(clean_field).filter(|s| !s.is_empty())
}

fn clean_party(p: &Party) -> Party {
    Party {
        name: clean_field(&p.name),
        address: clean_field(&p.address),
    }
}

/// An attachment's metadata as a record stores it: name neutralized, media type normalized,
/// hash checked for shape (a malformed one is dropped, so the bytes cannot be addressed),
/// extracted text cleaned and bounded, risk recomputed from what is stored.
fn clean_attachment(a: Attachment) -> Attachment {
    let name = safe_file_name(&a.name);
    let media_type = clean_media_type(&a.media_type);
    let sha256 = a
        .sha256
        .map(|h| h.to_ascii_lowercase())
        .filter(|h| h.len() == 64 && h.bytes().all(|b| b.is_ascii_hexdigit()));
    let status = match (a.status, &sha256) {
        // A "stored" attachment without a usable hash cannot be read: say it is not there.
        (AttachmentStatus::Stored, None) => AttachmentStatus::TooLarge,
        (s, _) => s,
    };
    let text = a
        .text
        .map(|t| clean_text(&t, MAX_ATTACHMENT_TEXT_CHARS))
        .filter(|t| !t.is_empty());
    let risk = attachment_risk(&name, &media_type).map(str::to_string);
    Attachment {
        name,
        media_type,
        size: a.size,
        sha256,
        inline: a.inline,
        status,
        text,
        risk,
    }
}

/// Build the sanitized record for an inbound item. `seq` is 0 and `received_at` is now: the
/// store assigns the real ones when it appends.
pub fn to_record(msg: NewMessage) -> Result<InboxRecord, IngestError> {
    let id = check_identity(&msg)?;
    let text = if msg.html {
        html_to_text(&msg.body, MAX_TEXT_CHARS)
    } else {
        clean_text(&msg.body, MAX_TEXT_CHARS)
    };
    let preview = one_line(&text, MAX_PREVIEW_CHARS);

    let mut meta = clean_meta(msg.meta);
    // Presented by inbox reads from the operator's assignments only (`store/assignments.rs`):
    // never stored, whatever a source supplied.
    meta.remove(super::META_PROFILE_ASSIGNED);
    let recipients = msg.to.len();
    let to: Vec<Party> = msg
        .to
        .iter()
        .take(MAX_RECIPIENTS)
        .map(clean_party)
        .filter(|p| !p.name.is_empty() || !p.address.is_empty())
        .collect();
    if recipients > MAX_RECIPIENTS {
        meta.insert("to_truncated".into(), Value::from(recipients));
    }
    let attached = msg.attachments.len();
    if attached > MAX_ATTACHMENTS {
        meta.insert(META_ATTACHMENTS_TRUNCATED.into(), Value::from(attached));
    }
    let mut text_left = MAX_ATTACHMENTS_TEXT_CHARS;
    let attachments = msg
        .attachments
        .into_iter()
        .take(MAX_ATTACHMENTS)
        .map(clean_attachment)
        .map(|mut a| {
            // One record stays a bounded line whatever the number of text attachments.
            if let Some(t) = a.text.take() {
                let n = t.chars().count();
                a.text = match n {
                    _ if text_left == 0 => None,
                    n if n <= text_left => Some(t),
                    _ => Some(bound(&t, text_left)),
                };
                text_left = text_left.saturating_sub(n);
            }
            a
        })
        .collect();

    Ok(InboxRecord {
        seq: 0,
        id,
        received_at: super::now(),
        profile: msg.profile,
        channel: msg.channel,
        thread_id: clean_optional(msg.thread_id.as_deref()),
        from: clean_party(&msg.from),
        to,
        subject: clean_optional(msg.subject.as_deref()),
        ts: msg.ts,
        text,
        preview,
        meta,
        untrusted: true,
        attachments,
    })
}

/// Clean meta: keys and string values become bounded single lines, nesting and element
/// counts are bounded, and entries are kept (in key order) while the serialized total stays
/// under [`MAX_META_BYTES`]. Anything dropped is flagged with `meta_truncated: true`.
fn clean_meta(meta: BTreeMap<String, Value>) -> BTreeMap<String, Value> {
    let mut out = BTreeMap::new();
    let mut truncated = false;
    let mut used = 2usize; // "{}"
    // Room for the marker itself, so adding it never breaks the bound.
    let budget = MAX_META_BYTES - r#","meta_truncated":true"#.len();
    for (k, v) in meta {
        let key = one_line(&k, MAX_META_KEY_CHARS);
        if key.is_empty() || out.contains_key(&key) {
            truncated = true;
            continue;
        }
        let value = clean_value(v, 0, &mut truncated);
        let size = serde_json::to_string(&key)
            .map(|s| s.len())
            .unwrap_or(usize::MAX / 4)
            + serde_json::to_string(&value)
                .map(|s| s.len())
                .unwrap_or(usize::MAX / 4)
            + 2; // ':' and ','
        if used.saturating_add(size) > budget {
            truncated = true;
            continue;
        }
        used += size;
        out.insert(key, value);
    }
    if truncated {
        out.insert("meta_truncated".into(), Value::Bool(true));
    }
    out
}

fn clean_value(v: Value, depth: usize, truncated: &mut bool) -> Value {
    match v {
        Value::String(s) => Value::String(clean_field(&s)),
        Value::Array(items) => {
            if depth >= MAX_META_DEPTH {
                *truncated = true;
                return Value::Null;
            }
            if items.len() > MAX_META_ITEMS {
                *truncated = true;
            }
            Value::Array(
                items
                    .into_iter()
                    .take(MAX_META_ITEMS)
                    .map(|i| clean_value(i, depth + 1, truncated))
                    .collect(),
            )
        }
        Value::Object(map) => {
            if depth >= MAX_META_DEPTH {
                *truncated = true;
                return Value::Null;
            }
            if map.len() > MAX_META_ITEMS {
                *truncated = true;
            }
            let mut out = serde_json::Map::new();
            for (k, v) in map.into_iter().take(MAX_META_ITEMS) {
                let key = one_line(&k, MAX_META_KEY_CHARS);
                if key.is_empty() {
                    *truncated = true;
                    continue;
                }
                out.insert(key, clean_value(v, depth + 1, truncated));
            }
            Value::Object(out)
        }
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Channel;

    fn msg(body: &str) -> NewMessage {
        NewMessage {
            id: "m1".into(),
            profile: "work".into(),
            channel: Channel::Email,
            thread_id: None,
            from: Party::new("Ada", "ada@example.com"),
            to: vec![],
            subject: Some("hello".into()),
            ts: crate::domain::now(),
            body: body.into(),
            html: false,
            meta: BTreeMap::new(),
            attachments: Vec::new(),
        }
    }

    #[test]
    fn to_record_sanitizes_every_field_and_marks_untrusted() {
        let mut m = msg("<p>Hi \x1b[31mthere</p>");
        m.html = true;
        m.subject = Some("Re:\n \u{202e}urgent".into());
        m.from = Party::new("Eve\x1b]0;x\x07 Evil", "eve@\u{200b}example.com");
        m.thread_id = Some("  ".into());
        m.meta
            .insert("note".into(), Value::String("a\nb\x07".into()));
        let r = to_record(m).unwrap();
        assert_eq!(r.text, "Hi there");
        assert_eq!(r.preview, "Hi there");
        assert_eq!(r.subject.as_deref(), Some("Re: urgent"));
        assert_eq!(r.from, Party::new("Eve Evil", "eve@example.com"));
        assert_eq!(r.thread_id, None);
        assert_eq!(r.meta["note"], "a b");
        assert!(r.untrusted);
        assert_eq!(r.seq, 0);
    }

    #[test]
    fn to_record_validates_identity() {
        let mut m = msg("x");
        m.id = "\u{200b}\x1b[0m ".into();
        assert_eq!(to_record(m).unwrap_err(), IngestError::EmptyId);
        let mut m = msg("x");
        m.id = "x".repeat(MAX_FIELD_CHARS + 1);
        assert_eq!(
            to_record(m).unwrap_err(),
            IngestError::IdTooLong {
                chars: MAX_FIELD_CHARS + 1
            }
        );
        for bad in ["", "Work", "wo rk", "work\u{200b}", &"a".repeat(65)] {
            let mut m = msg("x");
            m.profile = bad.into();
            assert!(
                matches!(to_record(m), Err(IngestError::BadProfile(_))),
                "{bad:?}"
            );
        }
        let mut m = msg("x");
        m.profile = "clinic_2-b".into();
        assert!(to_record(m).is_ok());
    }

    #[test]
    fn oversized_meta_is_dropped_with_a_marker() {
        let mut m = msg("x");
        m.meta.insert("a_small".into(), Value::from(1));
        m.meta.insert(
            "b_big".into(),
            Value::Array(vec![Value::String("y".repeat(500)); 30]),
        );
        let mut deep = Value::from(1);
        for _ in 0..20 {
            deep = Value::Array(vec![deep]);
        }
        m.meta.insert("c_deep".into(), deep);
        let r = to_record(m).unwrap();
        assert_eq!(r.meta["a_small"], 1);
        assert!(!r.meta.contains_key("b_big"));
        assert_eq!(r.meta["meta_truncated"], true);
        assert!(serde_json::to_string(&r.meta).unwrap().len() <= MAX_META_BYTES);
    }

    #[test]
    fn huge_recipient_lists_are_bounded() {
        let mut m = msg("x");
        m.to = vec![Party::new("n", "a@b"); 1000];
        let r = to_record(m).unwrap();
        assert_eq!(r.to.len(), MAX_RECIPIENTS);
        assert_eq!(r.meta["to_truncated"], 1000);
    }
}
