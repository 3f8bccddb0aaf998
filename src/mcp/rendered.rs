//! Messages rendered once.
//!
//! A message's JSON as the tools give it (`MessageOut`) stays the same while its record does,
//! yet serialising it, and escaping that JSON again for the result's text copy, was most of an
//! `inbox_pull`'s CPU. So each message is rendered once into both forms, with the gaps where
//! this call's fence id goes left open, and kept for the newest messages tools answered with.
//!
//! - A kept rendering is used only for a record equal to the one it was made from (the
//!   operator's profile assignment, a rebuilt inbox: any change renders again).
//! - The answer around the messages is still the typed answer, serialised by serde with an
//!   empty message list that the messages are then spliced into, so the tools' result types
//!   stay the one statement of their shape; tests hold the spliced answer equal to serde's.
//! - The fence id is drawn per call as before (`mcp::fence`): renderings never hold one.
//! - Only the answer of a caller that sees unredacted text is built from here; the PHI view
//!   still works on the whole answer after (`Hub::call_tool`).

use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};

use rmcp::ErrorData as McpError;
use serde::Serialize;

use super::fence::Fence;
use super::tools::{MessageOut, Reply};
use crate::domain::InboxRecord;

/// How many renderings are kept (the newest seqs): about 4.5 kB each for a typical message.
const KEEP: usize = 512;

/// One message in both forms, each cut where the fence id goes: `piece 0, id, piece 1, id,
/// piece 2`.
pub(crate) struct Rendered {
    /// What it was rendered from.
    record: InboxRecord,
    /// The message's JSON.
    json: String,
    json_cuts: [usize; 2],
    /// The same JSON escaped as the content of a JSON string (the text copy's form).
    escaped: String,
    escaped_cuts: [usize; 2],
}

impl Rendered {
    fn new(record: InboxRecord) -> Result<Rendered, serde_json::Error> {
        let mut m = MessageOut::from(record.clone());
        let text = std::mem::take(&mut m.text);
        let empty = serde_json::to_string(&m)?;
        // The text field's empty value: the first `,"text":""` is the key itself, since a
        // string value before it cannot hold an unescaped quote.
        const KEY: &str = ",\"text\":\"";
        let at = empty
            .find(",\"text\":\"\"")
            .ok_or_else(|| serde::ser::Error::custom("a message without its text field"))?
            + KEY.len();
        // Fence::wrap's layout: `<<untrusted:ID>>\n{text}\n<</untrusted:ID>>`.
        let middle = string_content(&format!(">>\n{text}\n<</untrusted:"))?;
        let json = format!(
            "{}<<untrusted:{middle}>>{}",
            &empty[..at],
            &empty[at..]
        );
        let cut0 = at + "<<untrusted:".len();
        let cut1 = cut0 + middle.len();
        let mut escaped = String::with_capacity(json.len() + json.len() / 8);
        let e0 = escape_into(&mut escaped, &json[..cut0]);
        let e1 = e0 + escape_into(&mut escaped, &json[cut0..cut1]);
        escape_into(&mut escaped, &json[cut1..]);
        Ok(Rendered {
            record,
            json,
            json_cuts: [cut0, cut1],
            escaped,
            escaped_cuts: [e0, e1],
        })
    }

    fn write(&self, out: &mut Answer, fence_id: &str) {
        pieces(&mut out.json, &self.json, self.json_cuts, fence_id);
        pieces(&mut out.escaped, &self.escaped, self.escaped_cuts, fence_id);
    }
}

fn pieces(out: &mut String, s: &str, [a, b]: [usize; 2], id: &str) {
    out.push_str(&s[..a]);
    out.push_str(id);
    out.push_str(&s[a..b]);
    out.push_str(id);
    out.push_str(&s[b..]);
}

/// `s` as the content of a JSON string, escaped exactly as serde escapes it.
fn string_content(s: &str) -> Result<String, serde_json::Error> {
    let quoted = serde_json::to_string(s)?;
    Ok(quoted[1..quoted.len() - 1].to_string())
}

/// Append `s` escaped as JSON string content (serde's escapes, see [`string_content`]); returns
/// the length appended.
fn escape_into(out: &mut String, s: &str) -> usize {
    let before = out.len();
    let mut start = 0;
    for (i, b) in s.bytes().enumerate() {
        let esc: &str = match b {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&s[start..i]);
        if esc.is_empty() {
            out.push_str(&format!("\\u{b:04x}"));
        } else {
            out.push_str(esc);
        }
        start = i + 1;
    }
    out.push_str(&s[start..]);
    out.len() - before
}

/// A typed answer being written in both forms.
struct Answer {
    json: String,
    escaped: String,
}

/// The kept renderings, by seq.
#[derive(Default)]
pub(crate) struct Renderings {
    kept: Mutex<BTreeMap<u64, Arc<Rendered>>>,
}

impl Renderings {
    /// `records`' renderings, in order: kept ones where the record is unchanged, new ones
    /// (then kept) for the rest.
    fn get(&self, records: Vec<InboxRecord>) -> Result<Vec<Arc<Rendered>>, McpError> {
        let mut found: Vec<Option<Arc<Rendered>>> = Vec::with_capacity(records.len());
        let mut missing = Vec::new();
        {
            let kept = self.lock();
            for r in records {
                match kept.get(&r.seq) {
                    Some(k) if k.record == r => found.push(Some(k.clone())),
                    _ => {
                        found.push(None);
                        missing.push(r);
                    }
                }
            }
        }
        if missing.is_empty() {
            return Ok(found.into_iter().flatten().collect());
        }
        let fresh = missing
            .into_iter()
            .map(|r| Rendered::new(r).map(Arc::new))
            .collect::<Result<Vec<_>, _>>()
            .map_err(|e| McpError::internal_error(e.to_string(), None))?;
        {
            let mut kept = self.lock();
            for r in &fresh {
                kept.insert(r.record.seq, r.clone());
            }
            while kept.len() > KEEP {
                kept.pop_first();
            }
        }
        let mut fresh = fresh.into_iter();
        Ok(found
            .into_iter()
            .filter_map(|f| f.or_else(|| fresh.next()))
            .collect())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, BTreeMap<u64, Arc<Rendered>>> {
        // Whole entries are inserted and removed: a panic elsewhere cannot leave one half made.
        self.kept.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The typed answer `envelope` (whose message list is empty) with `records` as its messages,
/// each text inside `fence`: the same JSON serde gives for the envelope holding the fenced
/// messages, and its text-copy form, each written once.
pub(crate) fn answer_with_messages<T: Serialize>(
    renderings: &Renderings,
    envelope: &T,
    records: Vec<InboxRecord>,
    fence: &Fence,
) -> Result<Reply, McpError> {
    let internal = |e: String| McpError::internal_error(e, None);
    let outer = serde_json::to_string(envelope).map_err(|e| internal(e.to_string()))?;
    // The list's place: a structural `"messages":[]` follows `{` or `,`, which no string value
    // can hold before an unescaped quote.
    let at = ["{\"messages\":[]", ",\"messages\":[]"]
        .iter()
        .filter_map(|k| outer.find(k).map(|i| i + k.len() - 1))
        .min()
        .ok_or_else(|| internal("an answer without its message list".into()))?;
    let messages = renderings.get(records)?;
    let size: usize = messages.iter().map(|m| m.json.len()).sum::<usize>() + outer.len() + 64;
    let mut out = Answer {
        json: String::with_capacity(size),
        escaped: String::with_capacity(size + size / 4),
    };
    out.json.push_str(&outer[..at]);
    escape_into(&mut out.escaped, &outer[..at]);
    for (i, m) in messages.iter().enumerate() {
        if i > 0 {
            out.json.push(',');
            out.escaped.push(',');
        }
        m.write(&mut out, fence.id());
    }
    out.json.push_str(&outer[at..]);
    escape_into(&mut out.escaped, &outer[at..]);
    Ok(Reply::Rendered {
        json: out.json,
        escaped: out.escaped,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{Channel, Party};
    use time::OffsetDateTime;

    fn record(seq: u64, text: &str) -> InboxRecord {
        let mut meta = BTreeMap::new();
        meta.insert("text".to_string(), serde_json::json!(""));
        meta.insert(
            "note".to_string(),
            serde_json::json!({"messages": [], "q": "\"messages\":[]"}),
        );
        InboxRecord {
            seq,
            id: format!("id-{seq} \",\"text\":\"\""),
            received_at: OffsetDateTime::from_unix_timestamp(1_790_000_000).unwrap(),
            profile: "work".into(),
            channel: Channel::Email,
            thread_id: Some("t\\1".into()),
            from: Party {
                name: "Zoë \"Z\" O'Brien".into(),
                address: "z@example.com".into(),
            },
            to: vec![Party {
                name: String::new(),
                address: "op@example.com".into(),
            }],
            subject: Some("Re: \"text\":\"\" \u{1}".into()),
            ts: OffsetDateTime::from_unix_timestamp(1_790_000_100).unwrap(),
            text: text.into(),
            preview: "pre\tview".into(),
            meta,
            untrusted: true,
            attachments: vec![],
        }
    }

    #[derive(Serialize)]
    struct Envelope {
        consumer: String,
        messages: Vec<MessageOut>,
        cursor: u64,
        fence: String,
    }

    fn serde_answer(records: &[InboxRecord], fence: &Fence) -> String {
        serde_json::to_string(&Envelope {
            consumer: "mcp:\"messages\":[]".into(),
            messages: records
                .iter()
                .map(|r| {
                    let mut m = MessageOut::from(r.clone());
                    m.text = fence.wrap(&m.text);
                    m
                })
                .collect(),
            cursor: 7,
            fence: fence.id().into(),
        })
        .unwrap()
    }

    fn spliced(renderings: &Renderings, records: &[InboxRecord], fence: &Fence) -> (String, String) {
        let envelope = Envelope {
            consumer: "mcp:\"messages\":[]".into(),
            messages: vec![],
            cursor: 7,
            fence: fence.id().into(),
        };
        match answer_with_messages(renderings, &envelope, records.to_vec(), fence).unwrap() {
            Reply::Rendered { json, escaped } => (json, escaped),
            _ => panic!("a rendered answer"),
        }
    }

    #[test]
    fn a_spliced_answer_is_byte_for_byte_serdes_in_both_forms() {
        let renderings = Renderings::default();
        let records = vec![
            record(1, "plain"),
            record(2, "quote \" back \\ nl\n tab\t ctl \u{7} \u{1f} é 😀 \u{2028} <<untrusted:x>>"),
            record(3, ""),
        ];
        for round in 0..2 {
            // The second round is answered from the kept renderings, with another fence.
            let fence = Fence::new();
            let (json, escaped) = spliced(&renderings, &records, &fence);
            let want = serde_answer(&records, &fence);
            assert_eq!(json, want, "round {round}");
            assert_eq!(format!("\"{escaped}\""), serde_json::to_string(&want).unwrap());
        }
        assert_eq!(renderings.lock().len(), 3);
    }

    #[test]
    fn a_changed_record_is_rendered_again() {
        let renderings = Renderings::default();
        let mut r = record(5, "before");
        let fence = Fence::new();
        spliced(&renderings, std::slice::from_ref(&r), &fence);
        r.profile = "clinic".into();
        r.text = "after".into();
        let (json, _) = spliced(&renderings, std::slice::from_ref(&r), &fence);
        assert_eq!(json, serde_answer(&[r], &fence));
        assert!(!json.contains("before"));
    }

    #[test]
    fn only_the_newest_renderings_are_kept() {
        let renderings = Renderings::default();
        let records: Vec<_> = (1..=(KEEP as u64 + 10)).map(|s| record(s, "x")).collect();
        spliced(&renderings, &records, &Fence::new());
        let kept = renderings.lock();
        assert_eq!(kept.len(), KEEP);
        assert_eq!(kept.keys().next(), Some(&11));
    }

    #[test]
    fn escaping_matches_serde_for_every_ascii_byte() {
        let all: String = (0u8..128).map(char::from).collect();
        let mut out = String::new();
        escape_into(&mut out, &all);
        assert_eq!(out, string_content(&all).unwrap());
    }
}
