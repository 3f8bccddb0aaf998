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
    /// What it was rendered from (shared with the inbox's parsed-record cache, so the same
    /// record read again is the same pointer).
    record: Arc<InboxRecord>,
    /// The message's JSON.
    json: String,
    json_cuts: [usize; 2],
    /// The same JSON escaped as the content of a JSON string (the text copy's form).
    escaped: String,
    escaped_cuts: [usize; 2],
}

impl Rendered {
    fn new(record: Arc<InboxRecord>) -> Result<Rendered, serde_json::Error> {
        let mut m = MessageOut::from(InboxRecord::clone(&record));
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
        let json = format!("{}<<untrusted:{middle}>>{}", &empty[..at], &empty[at..]);
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

    /// Whether this rendering is of `r` as it is now.
    fn is_of(&self, r: &Arc<InboxRecord>) -> bool {
        Arc::ptr_eq(&self.record, r) || *self.record == **r
    }
}

fn pieces(out: &mut Vec<u8>, s: &str, [a, b]: [usize; 2], id: &str) {
    let (s, id) = (s.as_bytes(), id.as_bytes());
    out.extend_from_slice(&s[..a]);
    out.extend_from_slice(id);
    out.extend_from_slice(&s[a..b]);
    out.extend_from_slice(id);
    out.extend_from_slice(&s[b..]);
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

/// A typed answer with messages, ready to be written in either form: the JSON (structured
/// content) or that JSON as the content of a JSON string (the text copy).
pub struct RenderedAnswer {
    /// serde's JSON of the answer with an empty message list, cut where the messages go.
    outer: [String; 2],
    /// The same, escaped.
    outer_escaped: [String; 2],
    messages: Vec<Arc<Rendered>>,
    fence_id: String,
}

impl RenderedAnswer {
    fn len(&self, form: Form) -> usize {
        let (outer, id) = match form {
            Form::Json => (&self.outer, self.fence_id.len()),
            Form::Escaped => (&self.outer_escaped, self.fence_id.len()),
        };
        let messages: usize = self
            .messages
            .iter()
            .map(|m| match form {
                Form::Json => m.json.len(),
                Form::Escaped => m.escaped.len(),
            })
            .sum();
        outer[0].len() + outer[1].len() + messages + self.messages.len() * (2 * id + 1)
    }

    /// The answer's JSON.
    pub fn json(&self) -> String {
        let mut out = Vec::with_capacity(self.len(Form::Json));
        self.write(&mut out, Form::Json);
        // Whole UTF-8 pieces joined at their ends.
        String::from_utf8(out).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into())
    }

    /// Bytes [`Self::write_json`] and [`Self::write_escaped`] add, together.
    pub fn both_len(&self) -> usize {
        self.len(Form::Json) + self.len(Form::Escaped)
    }

    pub fn write_json(&self, out: &mut Vec<u8>) {
        self.write(out, Form::Json);
    }

    /// The JSON as the content of a JSON string (without the quotes).
    pub fn write_escaped(&self, out: &mut Vec<u8>) {
        self.write(out, Form::Escaped);
    }

    fn write(&self, out: &mut Vec<u8>, form: Form) {
        let outer = match form {
            Form::Json => &self.outer,
            Form::Escaped => &self.outer_escaped,
        };
        out.extend_from_slice(outer[0].as_bytes());
        for (i, m) in self.messages.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            match form {
                Form::Json => pieces(out, &m.json, m.json_cuts, &self.fence_id),
                Form::Escaped => pieces(out, &m.escaped, m.escaped_cuts, &self.fence_id),
            }
        }
        out.extend_from_slice(outer[1].as_bytes());
    }
}

#[derive(Clone, Copy)]
enum Form {
    Json,
    Escaped,
}

/// The kept renderings, by seq.
#[derive(Default)]
pub(crate) struct Renderings {
    kept: Mutex<BTreeMap<u64, Arc<Rendered>>>,
}

impl Renderings {
    /// `records`' renderings, in order: kept ones where the record is unchanged, new ones
    /// (then kept) for the rest.
    fn get(&self, records: Vec<Arc<InboxRecord>>) -> Result<Vec<Arc<Rendered>>, McpError> {
        let mut found: Vec<Option<Arc<Rendered>>> = Vec::with_capacity(records.len());
        let mut missing = Vec::new();
        {
            let kept = self.lock();
            for r in records {
                match kept.get(&r.seq) {
                    Some(k) if k.is_of(&r) => found.push(Some(k.clone())),
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
/// each text inside `fence`: what serde gives for the envelope holding the fenced messages, in
/// both forms, each written once when the answer is sent.
pub(crate) fn answer_with_messages<T: Serialize>(
    renderings: &Renderings,
    envelope: &T,
    records: Vec<Arc<InboxRecord>>,
    fence: &Fence,
) -> Result<Reply, McpError> {
    let internal = |e: String| McpError::internal_error(e, None);
    let mut outer = serde_json::to_string(envelope).map_err(|e| internal(e.to_string()))?;
    // The list's place: a structural `"messages":[]` follows `{` or `,`, which no string value
    // can hold before an unescaped quote.
    let at = ["{\"messages\":[]", ",\"messages\":[]"]
        .iter()
        .filter_map(|k| outer.find(k).map(|i| i + k.len() - 1))
        .min()
        .ok_or_else(|| internal("an answer without its message list".into()))?;
    let tail = outer.split_off(at);
    let escaped = |s: &str| {
        let mut e = String::with_capacity(s.len() + s.len() / 4);
        escape_into(&mut e, s);
        e
    };
    Ok(Reply::Rendered(RenderedAnswer {
        outer_escaped: [escaped(&outer), escaped(&tail)],
        outer: [outer, tail],
        messages: renderings.get(records)?,
        fence_id: fence.id().to_string(),
    }))
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::domain::{Channel, Party};
    use time::OffsetDateTime;

    /// A record whose fields hold the characters and key-like strings splicing must survive.
    pub(crate) fn record(seq: u64, text: &str) -> InboxRecord {
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

    fn spliced(
        renderings: &Renderings,
        records: &[InboxRecord],
        fence: &Fence,
    ) -> (String, String) {
        let envelope = Envelope {
            consumer: "mcp:\"messages\":[]".into(),
            messages: vec![],
            cursor: 7,
            fence: fence.id().into(),
        };
        let shared = records.iter().cloned().map(Arc::new).collect();
        match answer_with_messages(renderings, &envelope, shared, fence).unwrap() {
            Reply::Rendered(a) => {
                let mut escaped = Vec::new();
                a.write_escaped(&mut escaped);
                let mut json = Vec::new();
                a.write_json(&mut json);
                assert_eq!(json.len() + escaped.len(), a.both_len());
                assert_eq!(String::from_utf8(json).unwrap(), a.json());
                (a.json(), String::from_utf8(escaped).unwrap())
            }
            _ => panic!("a rendered answer"),
        }
    }

    #[test]
    fn a_spliced_answer_is_byte_for_byte_serdes_in_both_forms() {
        let renderings = Renderings::default();
        let records = vec![
            record(1, "plain"),
            record(
                2,
                "quote \" back \\ nl\n tab\t ctl \u{7} \u{1f} é 😀 \u{2028} <<untrusted:x>>",
            ),
            record(3, ""),
        ];
        for round in 0..2 {
            // The second round is answered from the kept renderings, with another fence.
            let fence = Fence::new();
            let (json, escaped) = spliced(&renderings, &records, &fence);
            let want = serde_answer(&records, &fence);
            assert_eq!(json, want, "round {round}");
            assert_eq!(
                format!("\"{escaped}\""),
                serde_json::to_string(&want).unwrap()
            );
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
