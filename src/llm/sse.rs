//! A small incremental parser for `text/event-stream` (the WHATWG "server-sent events" format),
//! enough for the chat-completions streams of OpenAI-compatible servers.
//!
//! Why by hand: the format is a few rules, and the parser has to be fed whatever byte chunks
//! the network hands us (a line, an event or a UTF-8 character may be split anywhere), which a
//! push-style parser does with no async plumbing. Rules followed:
//! - lines end with `\n`, `\r\n` or a lone `\r` (a `\r` at the end of a chunk waits for the next
//!   byte before it is judged);
//! - a line starting with `:` is a comment (servers send them as keep-alives);
//! - `field: value` (one optional space after the colon); `data` lines of one event are joined
//!   with `\n`; `event` names the event; other fields (`id`, `retry`) are ignored;
//! - an empty line dispatches the event; an event with no `data` line is dropped.
//!
//! At the end of the stream a pending event without its blank line is still returned by
//! [`SseParser::finish`]: several servers close right after their last `data:` line, and the
//! caller judges the payload (a truncated JSON object fails to parse there, loudly).

/// One dispatched event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SseEvent {
    /// The `event:` field, empty when the server sent none (the default type "message").
    pub event: String,
    /// The `data:` lines joined by `\n`.
    pub data: String,
}

/// Upper bound on one line, so a server that never sends a newline cannot grow memory without
/// limit. Chat chunks are a few hundred bytes.
pub const MAX_LINE: usize = 1024 * 1024;

#[derive(Debug, Default)]
pub struct SseParser {
    line: Vec<u8>,
    /// The previous chunk ended in `\r`: a `\n` at the start of the next one belongs to it.
    pending_cr: bool,
    event: String,
    data: String,
    has_data: bool,
}

/// The stream broke the format in a way that cannot be recovered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SseError {
    #[error("event-stream line longer than {MAX_LINE} bytes")]
    LineTooLong,
}

impl SseParser {
    pub fn new() -> Self {
        Self::default()
    }

    /// Feed the next bytes; returns the events completed by them, in order.
    pub fn push(&mut self, bytes: &[u8]) -> Result<Vec<SseEvent>, SseError> {
        let mut out = Vec::new();
        for &b in bytes {
            if self.pending_cr {
                self.pending_cr = false;
                if b == b'\n' {
                    continue; // the `\n` of a `\r\n` already handled at the `\r`
                }
            }
            match b {
                b'\n' => self.end_line(&mut out),
                b'\r' => {
                    self.end_line(&mut out);
                    self.pending_cr = true;
                }
                _ => {
                    if self.line.len() >= MAX_LINE {
                        return Err(SseError::LineTooLong);
                    }
                    self.line.push(b);
                }
            }
        }
        Ok(out)
    }

    /// The end of the stream: a last event whose blank line never came, if any.
    pub fn finish(&mut self) -> Option<SseEvent> {
        if !self.line.is_empty() {
            let mut out = Vec::new();
            self.end_line(&mut out);
            if let Some(ev) = out.pop() {
                return Some(ev);
            }
        }
        self.dispatch()
    }

    fn end_line(&mut self, out: &mut Vec<SseEvent>) {
        let line = std::mem::take(&mut self.line);
        if line.is_empty() {
            if let Some(ev) = self.dispatch() {
                out.push(ev);
            }
            return;
        }
        if line[0] == b':' {
            return; // comment / keep-alive
        }
        // Lossy: a stray invalid byte should cost one replacement character, not the answer.
        let line = String::from_utf8_lossy(&line);
        let (field, value) = match line.find(':') {
            Some(i) => {
                let v = &line[i + 1..];
                (&line[..i], v.strip_prefix(' ').unwrap_or(v))
            }
            None => (&line[..], ""),
        };
        match field {
            "data" => {
                if self.has_data {
                    self.data.push('\n');
                }
                self.data.push_str(value);
                self.has_data = true;
            }
            "event" => self.event = value.to_string(),
            _ => {} // id, retry and unknown fields do not matter here
        }
    }

    fn dispatch(&mut self) -> Option<SseEvent> {
        let event = std::mem::take(&mut self.event);
        if !std::mem::take(&mut self.has_data) {
            return None;
        }
        Some(SseEvent {
            event,
            data: std::mem::take(&mut self.data),
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(chunks: &[&[u8]]) -> Vec<SseEvent> {
        let mut p = SseParser::new();
        let mut out = Vec::new();
        for c in chunks {
            out.extend(p.push(c).unwrap());
        }
        out.extend(p.finish());
        out
    }

    fn data(evs: &[SseEvent]) -> Vec<&str> {
        evs.iter().map(|e| e.data.as_str()).collect()
    }

    #[test]
    fn basic_events_comments_and_done() {
        let evs = all(&[b": keep-alive\n\ndata: {\"a\":1}\n\ndata:[DONE]\n\n"]);
        assert_eq!(data(&evs), ["{\"a\":1}", "[DONE]"]);
    }

    #[test]
    fn split_anywhere_gives_the_same_events() {
        let text = "event: x\r\ndata: one\r\ndata:  two\r\n\r\n: c\rdata: é\r\rdata: last\n\n";
        let whole = all(&[text.as_bytes()]);
        assert_eq!(data(&whole), ["one\n two", "é", "last"]);
        assert_eq!(whole[0].event, "x");
        assert_eq!(whole[1].event, "");
        let bytes = text.as_bytes();
        for cut in 1..bytes.len() {
            let (a, b) = bytes.split_at(cut);
            assert_eq!(all(&[a, b]), whole, "cut at {cut}");
        }
        let singles: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(all(&singles), whole);
    }

    #[test]
    fn events_without_data_are_dropped_and_last_event_survives_eof() {
        let evs = all(&[b"event: ping\n\nid: 4\nretry: 10\n\ndata: tail"]);
        assert_eq!(data(&evs), ["tail"]);
    }

    #[test]
    fn overlong_line_is_an_error() {
        let mut p = SseParser::new();
        let big = vec![b'a'; MAX_LINE + 1];
        assert_eq!(p.push(&big), Err(SseError::LineTooLong));
    }
}
