//! Messages rendered once.
//!
//! A message's JSON as the tools give it (`MessageOut`) stays the same while its record does,
//! yet serialising it, and escaping that JSON again for the result's text copy, was most of an
//! `inbox_pull`'s CPU. So each message is rendered once into both forms, with the gaps where
//! this call's fence id goes (two for each value a sender wrote, `mcp::fence`) left open, and
//! kept for the newest messages tools answered with.
//!
//! - A kept rendering is used only for the very record it was made from: the same shared
//!   record of the inbox's parsed-record cache (`Arc`), never one that merely compares equal
//!   (`OffsetDateTime` equality ignores the offset, JSON numbers `0.0 == -0.0`, yet both print
//!   differently). An assigned profile, a record read again from its file: rendered again.
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

use super::fence::{Fence, fence_message};
use super::tools::{MessageOut, Reply};
use crate::domain::InboxRecord;

/// How many renderings are kept (the newest seqs): about 3 kB each for a typical message, the
/// record itself being shared with the inbox's cache.
const KEEP: usize = 512;

/// And at most this many bytes of them: a message can be far larger than a typical one (long
/// texts, quote-heavy texts grow in the escaped form, attachment texts).
const KEEP_BYTES: usize = 8 << 20;

/// A rendering larger than this is used once and not kept.
const KEEP_ONE_BYTES: usize = 256 << 10;

/// One message in both forms, each cut where the fence id goes: `piece 0, id, piece 1, id, …`,
/// two cuts for each fenced value (`mcp::fence::fence_message`).
pub(crate) struct Rendered {
    /// What it was rendered from (shared with the inbox's parsed-record cache, so the same
    /// record read again is the same pointer; held, so the pointer is never reused meanwhile).
    record: Arc<InboxRecord>,
    /// The message's JSON.
    json: String,
    json_cuts: Vec<usize>,
    /// The same JSON escaped as the content of a JSON string (the text copy's form).
    escaped: String,
    escaped_cuts: Vec<usize>,
}

impl Rendered {
    fn new(record: Arc<InboxRecord>) -> Result<Rendered, serde_json::Error> {
        loop {
            // Rendered with a stand-in fence whose id no fenced value holds, then cut where
            // the stand-in's id is (letters only: neither form escapes them).
            let stand_in = Fence::for_records(std::iter::once(&*record));
            let mut m = MessageOut::from(InboxRecord::clone(&record));
            let fenced = fence_message(&mut m, &stand_in);
            let with = serde_json::to_string(&m)?;
            let mut escaped_with = String::with_capacity(with.len() + with.len() / 8);
            escape_into(&mut escaped_with, &with);
            let (json, json_cuts) = cut(&with, stand_in.id());
            let (escaped, escaped_cuts) = cut(&escaped_with, stand_in.id());
            // An unfenced value (an id, a meta key) holding the id, or one formed where a
            // marker meets a value (`\n` then letters): another stand-in.
            if json_cuts.len() == 2 * fenced && escaped_cuts.len() == 2 * fenced {
                return Ok(Rendered {
                    record,
                    json,
                    json_cuts,
                    escaped,
                    escaped_cuts,
                });
            }
        }
    }

    /// Whether this rendering is of `r`: the same shared record (see the module text).
    fn is_of(&self, r: &Arc<InboxRecord>) -> bool {
        Arc::ptr_eq(&self.record, r)
    }

    fn bytes(&self) -> usize {
        self.json.len() + self.escaped.len() + (self.json_cuts.len() + self.escaped_cuts.len()) * 8
    }
}

/// `s` without the occurrences of `id`, and where each was.
fn cut(s: &str, id: &str) -> (String, Vec<usize>) {
    let mut out = String::with_capacity(s.len());
    let mut cuts = Vec::new();
    let mut last = 0;
    for (at, _) in s.match_indices(id) {
        out.push_str(&s[last..at]);
        cuts.push(out.len());
        last = at + id.len();
    }
    out.push_str(&s[last..]);
    (out, cuts)
}

fn pieces(out: &mut Vec<u8>, s: &str, cuts: &[usize], id: &str) {
    let (s, id) = (s.as_bytes(), id.as_bytes());
    let mut last = 0;
    for &c in cuts {
        out.extend_from_slice(&s[last..c]);
        out.extend_from_slice(id);
        last = c;
    }
    out.extend_from_slice(&s[last..]);
}

/// `s` as the content of a JSON string, escaped exactly as serde escapes it.
#[cfg(test)]
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
                Form::Json => m.json.len() + m.json_cuts.len() * id,
                Form::Escaped => m.escaped.len() + m.escaped_cuts.len() * id,
            })
            .sum();
        let n = self.messages.len();
        // A comma between messages.
        outer[0].len() + outer[1].len() + messages + n.saturating_sub(1)
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
                Form::Json => pieces(out, &m.json, &m.json_cuts, &self.fence_id),
                Form::Escaped => pieces(out, &m.escaped, &m.escaped_cuts, &self.fence_id),
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
    kept: Mutex<Kept>,
}

#[derive(Default)]
struct Kept {
    by_seq: BTreeMap<u64, Arc<Rendered>>,
    bytes: usize,
}

impl Kept {
    fn keep(&mut self, r: &Arc<Rendered>) {
        if r.bytes() > KEEP_ONE_BYTES {
            return;
        }
        self.bytes += r.bytes();
        if let Some(old) = self.by_seq.insert(r.record.seq, r.clone()) {
            self.bytes -= old.bytes();
        }
        // The newest are kept: drop from the old end.
        while self.by_seq.len() > KEEP || self.bytes > KEEP_BYTES {
            match self.by_seq.pop_first() {
                Some((_, old)) => self.bytes -= old.bytes(),
                None => break,
            }
        }
    }
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
                match kept.by_seq.get(&r.seq) {
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
                kept.keep(r);
            }
        }
        let mut fresh = fresh.into_iter();
        Ok(found
            .into_iter()
            .filter_map(|f| f.or_else(|| fresh.next()))
            .collect())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Kept> {
        // Nothing in `keep` panics between an insert and its byte count.
        self.kept.lock().unwrap_or_else(|p| p.into_inner())
    }
}

/// The typed answer `envelope` (whose message list is empty) with `records` as its messages,
/// each value a sender wrote inside `fence` (whose id none of them holds: `Fence::for_records`): what serde gives for the envelope holding the fenced messages, in
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
    use crate::domain::{Attachment, AttachmentStatus, Channel, Party};
    use crate::mcp::tools::{MessagesOut, PullOut, tool_answer};
    use time::OffsetDateTime;

    /// A record whose fields hold the characters and key-like strings splicing must survive.
    pub(crate) fn record(seq: u64, text: &str) -> InboxRecord {
        let mut meta = BTreeMap::new();
        meta.insert("text".to_string(), serde_json::json!(""));
        meta.insert(
            "note".to_string(),
            serde_json::json!({"messages": [], "q": "\"messages\":[]", "z": -0.0}),
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

    /// A chat message without subject or thread, with an attachment holding extracted text.
    fn bare_with_attachment(seq: u64) -> InboxRecord {
        let mut r = record(seq, "see \"attached\"");
        r.channel = Channel::Teams;
        r.subject = None;
        r.thread_id = None;
        r.meta.clear();
        r.attachments = vec![Attachment {
            name: "notes \"v2\".txt".into(),
            media_type: "text/plain".into(),
            size: 42,
            sha256: Some("ab".repeat(32)),
            inline: false,
            status: AttachmentStatus::Stored,
            text: Some("line\n\"quoted\" <<untrusted:x>>".into()),
            risk: None,
        }];
        r
    }

    fn shared(records: &[InboxRecord]) -> Vec<Arc<InboxRecord>> {
        records.iter().cloned().map(Arc::new).collect()
    }

    /// The messages as typed values, fenced one by one: what the renderings must equal.
    fn fenced(records: &[Arc<InboxRecord>], fence: &Fence) -> Vec<MessageOut> {
        records
            .iter()
            .map(|r| {
                let mut m = MessageOut::from(InboxRecord::clone(r));
                fence_message(&mut m, fence);
                m
            })
            .collect()
    }

    fn pull_out(messages: Vec<MessageOut>, fence: &Fence) -> PullOut {
        PullOut {
            consumer: "mcp:default/\"messages\":[]".into(),
            messages,
            cursor: 7,
            unread_remaining: 2,
            fence: fence.id().into(),
            notice: fence.notice("n"),
        }
    }

    /// Both forms of the answer, checked against each other and against `both_len`.
    fn forms(reply: Reply) -> (String, String) {
        let Reply::Rendered(a) = reply else {
            panic!("a rendered answer");
        };
        let (mut json, mut escaped) = (Vec::new(), Vec::new());
        a.write_json(&mut json);
        a.write_escaped(&mut escaped);
        assert_eq!(json.len() + escaped.len(), a.both_len());
        let json = String::from_utf8(json).unwrap();
        assert_eq!(json, a.json());
        (json, String::from_utf8(escaped).unwrap())
    }

    /// What serde gave for the same typed answer, in both forms.
    fn serde_forms(out: &impl Serialize) -> (String, String) {
        let Ok(Reply::Json(json)) = tool_answer(out) else {
            panic!("a typed answer");
        };
        let quoted = serde_json::to_string(&json).unwrap();
        let escaped = quoted[1..quoted.len() - 1].to_string();
        (json, escaped)
    }

    fn pull(renderings: &Renderings, records: &[Arc<InboxRecord>], fence: &Fence) -> Reply {
        answer_with_messages(
            renderings,
            &pull_out(Vec::new(), fence),
            records.to_vec(),
            fence,
        )
        .unwrap()
    }

    #[test]
    fn a_pull_answer_is_byte_for_byte_what_serde_gives_in_both_forms() {
        let renderings = Renderings::default();
        let records = shared(&[
            record(1, "plain"),
            record(
                2,
                "quote \" back \\ nl\n tab\t ctl \u{7} \u{1f} del \u{7f} é 😀 \u{2028} <<untrusted:x>>",
            ),
            record(3, ""),
            bare_with_attachment(4),
        ]);
        for round in 0..2 {
            // The second round is answered from the kept renderings, with another fence.
            let fence = Fence::new();
            let want = serde_forms(&pull_out(fenced(&records, &fence), &fence));
            let got = forms(pull(&renderings, &records, &fence));
            assert_eq!(got, want, "round {round}");
            // Every value a sender wrote has its two gaps (the envelope names the id 4 times:
            // `fence`, and in the notice both markers and the id itself).
            let values: usize = records
                .iter()
                .map(|r| fence_message(&mut MessageOut::from(InboxRecord::clone(r)), &fence))
                .sum();
            assert!(values >= 20, "{values}");
            assert_eq!(got.0.matches(fence.id()).count(), 2 * values + 4);
        }
        assert_eq!(renderings.lock().by_seq.len(), 4);
    }

    #[test]
    fn a_list_answer_and_an_empty_one_are_what_serde_gives() {
        let renderings = Renderings::default();
        let fence = Fence::new();
        let records = shared(&[bare_with_attachment(9), record(8, "x")]);
        let envelope = |messages| MessagesOut {
            messages,
            fence: fence.id().into(),
            notice: fence.notice("n"),
        };
        let reply =
            answer_with_messages(&renderings, &envelope(Vec::new()), records.clone(), &fence);
        assert_eq!(
            forms(reply.unwrap()),
            serde_forms(&envelope(fenced(&records, &fence)))
        );
        let empty = answer_with_messages(&renderings, &envelope(Vec::new()), Vec::new(), &fence);
        assert_eq!(forms(empty.unwrap()), serde_forms(&envelope(Vec::new())));
    }

    #[test]
    fn a_rendering_is_kept_for_the_same_shared_record_only() {
        let renderings = Renderings::default();
        let fence = Fence::new();
        let first = shared(&[record(5, "before")]);
        pull(&renderings, &first, &fence);
        let kept = |r: &Renderings| r.lock().by_seq[&5].clone();
        let made = kept(&renderings);
        pull(&renderings, &first, &fence);
        assert!(Arc::ptr_eq(&made, &kept(&renderings)), "reused");
        // An equal record that is not the same shared one (read again from its file, or a
        // copy an assignment made) is rendered again.
        let again = shared(&[record(5, "before")]);
        pull(&renderings, &again, &fence);
        assert!(!Arc::ptr_eq(&made, &kept(&renderings)), "rendered again");
        // And a changed one shows its change.
        let mut changed = record(5, "after");
        changed.profile = "clinic".into();
        changed.received_at = changed.received_at.to_offset(time::macros::offset!(+2));
        let changed = shared(&[changed]);
        let (json, _) = forms(pull(&renderings, &changed, &fence));
        assert_eq!(
            json,
            serde_forms(&pull_out(fenced(&changed, &fence), &fence)).0
        );
        assert!(
            !json.contains("before") && json.contains("+02:00"),
            "{json}"
        );
    }

    #[test]
    fn only_the_newest_renderings_are_kept_by_count_and_by_bytes() {
        let renderings = Renderings::default();
        let records = shared(
            &(1..=(KEEP as u64 + 10))
                .map(|s| record(s, "x"))
                .collect::<Vec<_>>(),
        );
        pull(&renderings, &records, &Fence::new());
        {
            let kept = renderings.lock();
            assert_eq!(kept.by_seq.len(), KEEP);
            assert_eq!(kept.by_seq.keys().next(), Some(&11));
            assert_eq!(
                kept.bytes,
                kept.by_seq.values().map(|r| r.bytes()).sum::<usize>()
            );
        }
        // A message too large to keep is answered, not kept; large ones push out the oldest.
        let huge = shared(&[record(10_000, &"\"".repeat(KEEP_ONE_BYTES))]);
        let (json, _) = forms(pull(&renderings, &huge, &Fence::new()));
        assert!(json.len() > KEEP_ONE_BYTES);
        assert!(!renderings.lock().by_seq.contains_key(&10_000));
        let large: Vec<_> = (20_000..20_060)
            .map(|s| record(s, &"y".repeat(KEEP_ONE_BYTES / 3)))
            .collect();
        pull(&renderings, &shared(&large), &Fence::new());
        let kept = renderings.lock();
        assert!(kept.bytes <= KEEP_BYTES, "{}", kept.bytes);
        assert_eq!(kept.by_seq.keys().last(), Some(&20_059));
        assert_eq!(
            kept.bytes,
            kept.by_seq.values().map(|r| r.bytes()).sum::<usize>()
        );
    }

    #[test]
    fn escaping_matches_serde_for_every_ascii_byte() {
        let all: String = (0u8..128).map(char::from).collect();
        let mut out = String::new();
        escape_into(&mut out, &all);
        assert_eq!(out, string_content(&all).unwrap());
    }
}
