//! What `opsdesk watch` prints: pure functions of a record.
//!
//! Every piece of record text passes through [`crate::sanitize`] before it is placed in a
//! line, whatever the inbox holds (the files can be edited by anyone with access to the data
//! directory). The only escape sequences in the output are the colour codes added here.


use time::OffsetDateTime;

pub use crate::clock::local_offset;
use crate::domain::{Channel, InboxRecord};
use crate::sanitize::one_line;

/// Longest sender name shown.
pub const MAX_SENDER_CHARS: usize = 48;
/// Longest summary on a printed line.
pub const MAX_LINE_SUMMARY_CHARS: usize = 120;

const RESET: &str = "\x1b[0m";
const BOLD: &str = "\x1b[1m";
const DIM: &str = "\x1b[2m";

/// The hint printed under a batch of new messages, saying what the operator can do next.
pub const HINT: &str = "  \u{2192} ask your MCP client to check the inbox (tool inbox_pull), or run: opsdesk inbox list";

/// Whether to colour the output: never when `NO_COLOR` is set to anything non-empty
/// (<https://no-color.org>), never when stdout is not a terminal.
pub fn colour_enabled(no_color: Option<&std::ffi::OsStr>, stdout_is_terminal: bool) -> bool {
    stdout_is_terminal && no_color.is_none_or(|v| v.is_empty())
}

/// SGR colour of a channel tag.
fn channel_colour(c: Channel) -> &'static str {
    match c {
        Channel::Email => "\x1b[34m",    // blue
        Channel::Teams => "\x1b[35m",    // magenta
        Channel::Calendar => "\x1b[33m", // yellow
        Channel::Spool => "\x1b[36m",    // cyan
    }
}

/// A stable colour per profile name (FNV-1a of the name), so an entity always looks the same.
fn profile_colour(profile: &str) -> &'static str {
    const PALETTE: [&str; 6] = [
        "\x1b[32m", // green
        "\x1b[36m", // cyan
        "\x1b[33m", // yellow
        "\x1b[35m", // magenta
        "\x1b[34m", // blue
        "\x1b[31m", // red
    ];
    let mut h: u32 = 0x811c_9dc5;
    for b in profile.bytes() {
        h ^= b as u32;
        h = h.wrapping_mul(0x0100_0193);
    }
    PALETTE[(h % PALETTE.len() as u32) as usize]
}

/// The sender as shown: the name, else the address, one clean bounded line.
pub fn sender(r: &InboxRecord) -> String {
    let s = one_line(r.from.label(), MAX_SENDER_CHARS);
    if s.is_empty() {
        "(unknown sender)".to_string()
    } else {
        s
    }
}

/// What the message is about, one clean line of at most `max_chars`: the subject and the
/// preview ("Subject — preview"), whichever exist; led by the attachment count when there are
/// attachments (first, so a narrow line or toast does not cut it off).
pub fn summary(r: &InboxRecord, max_chars: usize) -> String {
    let subject = one_line(r.subject.as_deref().unwrap_or(""), max_chars);
    // The stored preview is bounded at ingestion, but a hand-edited file may hold anything.
    let preview = one_line(
        if r.preview.is_empty() {
            &r.text
        } else {
            &r.preview
        },
        max_chars,
    );
    let joined = match (subject.is_empty(), preview.is_empty()) {
        (false, false) if preview != subject => format!("{subject} \u{2014} {preview}"),
        (false, _) => subject,
        (true, false) => preview,
        (true, true) => "(no text)".to_string(),
    };
    let joined = match r.attachments.len() {
        0 => joined,
        1 => format!("[1 attachment] {joined}"),
        n => format!("[{n} attachments] {joined}"),
    };
    one_line(&joined, max_chars)
}

/// `HH:MM` of `t` in the local time zone.
pub fn local_hm(t: OffsetDateTime) -> String {
    let local = t.to_offset(local_offset(t));
    format!("{:02}:{:02}", local.hour(), local.minute())
}

/// The human line for a record: `[teams 18:21 work] Name: "summary…"`, coloured by channel
/// and profile when `colour` is on. Contains no control character other than the colour
/// codes, and no newline. With `width` (a terminal's columns), the summary and then the
/// sender give way so the line never wraps: a wrapped line would break the one-line-per-
/// message layout people scan.
pub fn human_line(r: &InboxRecord, colour: bool, width: Option<usize>) -> String {
    let channel = r.channel.as_str();
    let time = local_hm(r.ts);
    // The profile name is validated at ingestion; clean it anyway (the files are editable).
    let profile = one_line(&r.profile, 64);
    let mut who = sender(r);
    let mut what = summary(r, MAX_LINE_SUMMARY_CHARS);
    if let Some(width) = width {
        // `[channel time profile] ` + who + `: "` + what + `"`
        let frame = cols(channel) + cols(&time) + cols(&profile) + 5;
        let room = width.saturating_sub(frame + 4);
        if cols(&who) + cols(&what) > room {
            // The summary keeps at least a few words; the sender gives way beyond that.
            let who_room = room.saturating_sub(MIN_SUMMARY_COLS).max(room / 3).max(1);
            who = fit_cols(&who, who_room);
            what = fit_cols(&what, room.saturating_sub(cols(&who)));
        }
    }
    if colour {
        format!(
            "[{cc}{channel}{RESET} {DIM}{time}{RESET} {pc}{profile}{RESET}] {BOLD}{who}{RESET}: \"{what}\"",
            cc = channel_colour(r.channel),
            pc = profile_colour(&profile),
        )
    } else {
        format!("[{channel} {time} {profile}] {who}: \"{what}\"")
    }
}

/// Columns kept for the summary before the sender is shortened.
const MIN_SUMMARY_COLS: usize = 16;

/// Terminal columns `s` takes (wide characters count two).
fn cols(s: &str) -> usize {
    unicode_width::UnicodeWidthStr::width(s)
}

/// `s` cut to at most `max` columns, an ellipsis marking the cut.
fn fit_cols(s: &str, max: usize) -> String {
    if cols(s) <= max {
        return s.to_string();
    }
    if max == 0 {
        return String::new();
    }
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = unicode_width::UnicodeWidthChar::width(c).unwrap_or(0);
        if used + w > max - 1 {
            break;
        }
        out.push(c);
        used += w;
    }
    let mut out = out.trim_end().to_string();
    out.push('\u{2026}');
    out
}

/// The hint line, dimmed when colour is on.
pub fn hint_line(colour: bool) -> String {
    if colour {
        format!("{DIM}{HINT}{RESET}")
    } else {
        HINT.to_string()
    }
}

/// The record as one line of JSON (`--json`), faithful to what is stored but safe to print:
/// besides what JSON itself escapes, every character a terminal could act on or that hides or
/// reorders text (C1 controls, DEL, bidi controls, invisible format characters, line and
/// paragraph separators) is written as a `\uXXXX` escape, which decodes to the same string.
pub fn json_line(r: &InboxRecord) -> String {
    match serde_json::to_string(r) {
        Ok(s) => escape_json_for_terminal(&s),
        // Serializing an in-memory record cannot fail (no maps with non-string keys); say so
        // in JSON rather than printing nothing.
        Err(e) => format!(
            "{{\"seq\":{},\"error\":{}}}",
            r.seq,
            escape_json_for_terminal(&serde_json::Value::String(e.to_string()).to_string())
        ),
    }
}

/// Characters that must not reach a terminal raw, even inside a JSON string.
fn needs_json_escape(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{034F}'
                | '\u{061C}'
                | '\u{115F}'
                | '\u{1160}'
                | '\u{17B4}'
                | '\u{17B5}'
                | '\u{180B}'..='\u{180F}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{3164}'
                | '\u{FE00}'..='\u{FE0F}'
                | '\u{FEFF}'
                | '\u{FFA0}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{1BCA0}'..='\u{1BCA3}'
                | '\u{1D173}'..='\u{1D17A}'
                | '\u{E0000}'..='\u{E0FFF}'
        )
}

/// Apply [`needs_json_escape`] to serialized JSON. Outside strings serde_json emits only ASCII
/// structure, so every character escaped here is inside a string, where `\uXXXX` is valid.
fn escape_json_for_terminal(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    for c in json.chars() {
        if needs_json_escape(c) {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                out.push_str(&format!("\\u{u:04x}"));
            }
        } else {
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::Party;

    #[test]
    fn the_attachment_count_leads_the_summary() {
        let mut r = rec("Ann", Some("Contract"), "see attached");
        let a = crate::domain::Attachment {
            name: "c.pdf".into(),
            media_type: "application/pdf".into(),
            size: 1,
            sha256: None,
            inline: false,
            status: crate::domain::AttachmentStatus::TooLarge,
            text: None,
            risk: None,
        };
        r.attachments = vec![a.clone(), a];
        assert_eq!(
            summary(&r, 200),
            "[2 attachments] Contract \u{2014} see attached"
        );
    }

    fn rec(name: &str, subject: Option<&str>, preview: &str) -> InboxRecord {
        InboxRecord {
            seq: 7,
            id: "m-7".into(),
            received_at: OffsetDateTime::UNIX_EPOCH,
            profile: "work".into(),
            channel: Channel::Teams,
            thread_id: None,
            from: Party::new(name, "x@example.com"),
            to: vec![],
            subject: subject.map(str::to_string),
            ts: time::macros::datetime!(2026-01-02 18:21 UTC),
            text: preview.into(),
            preview: preview.into(),
            meta: Default::default(),
            untrusted: true,
            attachments: Vec::new(),
        }
    }

    #[test]
    fn no_color_rules() {
        use std::ffi::OsStr;
        assert!(colour_enabled(None, true));
        assert!(colour_enabled(Some(OsStr::new("")), true));
        assert!(!colour_enabled(Some(OsStr::new("1")), true));
        assert!(!colour_enabled(None, false));
    }

    #[test]
    fn plain_line_shape() {
        let r = rec("Brandon", None, "Hi there");
        let l = human_line(&r, false, None);
        assert!(l.starts_with("[teams "), "{l}");
        assert!(l.ends_with(" work] Brandon: \"Hi there\""), "{l}");
        assert!(!l.contains('\x1b'));
    }

    #[test]
    fn coloured_line_has_only_sgr_codes() {
        let r = rec("Brandon", None, "Hi");
        let l = human_line(&r, true, None);
        assert!(l.contains("\x1b[35mteams\x1b[0m"), "{l:?}");
        // Strip our own SGR codes: what remains is the plain line.
        let mut plain = String::new();
        let mut in_sgr = false;
        for c in l.chars() {
            match (in_sgr, c) {
                (false, '\x1b') => in_sgr = true,
                (true, 'm') => in_sgr = false,
                (true, _) => {}
                (false, c) => plain.push(c),
            }
        }
        assert_eq!(plain, human_line(&r, false, None));
        assert_eq!(profile_colour("work"), profile_colour("work"));
    }

    #[test]
    fn summary_joins_subject_and_preview_and_bounds() {
        assert_eq!(
            summary(&rec("a", Some("Renewal"), "Can you"), 100),
            "Renewal \u{2014} Can you"
        );
        assert_eq!(summary(&rec("a", Some("Same"), "Same"), 100), "Same");
        assert_eq!(summary(&rec("a", None, ""), 100), "(no text)");
        let long = "x".repeat(500);
        assert_eq!(summary(&rec("a", None, &long), 20).chars().count(), 20);
    }

    #[test]
    fn hostile_fields_are_cleaned() {
        let mut r = rec(
            "Eve\x1b]52;c;aGk=\x07\u{202e}Evil",
            Some("\x1b[2J\u{9b}31mX"),
            "a\nb\rc",
        );
        r.profile = "w\x07or\u{202e}k".into();
        let l = human_line(&r, false, None);
        assert_eq!(
            l,
            format!(
                "[teams {} work] EveEvil: \"X \u{2014} a b c\"",
                local_hm(r.ts)
            )
        );
        assert_eq!(sender(&rec("", None, "")), "x@example.com");
        let mut nobody = rec("", None, "");
        nobody.from = Party::default();
        assert_eq!(sender(&nobody), "(unknown sender)");
    }

    #[test]
    fn json_line_is_faithful_and_terminal_safe() {
        let r = rec(
            "E\u{9b}31m\u{202e}ve",
            Some("\x1b]8;;https://x\x07y"),
            "\u{2028}\u{e0041}",
        );
        let l = json_line(&r);
        assert!(l.chars().all(|c| !needs_json_escape(c)), "{l:?}");
        assert!(l.contains("\\u009b") && l.contains("\\u202e") && l.contains("\\udb40\\udc41"));
        let back: InboxRecord = serde_json::from_str(&l).unwrap();
        assert_eq!(back, r);
    }

    #[test]
    fn local_time_matches_time_crate_in_utc() {
        // Whatever the zone, the offset is a whole number of minutes within ±26 h.
        let t = time::macros::datetime!(2026-06-01 12:00 UTC);
        let off = local_offset(t);
        assert!(off.whole_hours().abs() <= 26);
        assert_eq!(local_hm(t).len(), 5);
    }

    #[test]
    fn lines_fit_the_terminal_width_summary_first_then_sender() {
        let long = "quarterly numbers ".repeat(20);
        let r = rec(
            "Bartholomew Featherstonehaugh-Worthington",
            Some(&long),
            &long,
        );
        for width in [40, 60, 80, 120] {
            let l = human_line(&r, false, Some(width));
            assert!(
                cols(&l) <= width,
                "{width} columns: {l:?} is {} wide",
                cols(&l)
            );
            assert!(l.ends_with("\u{2026}\""), "the cut is marked: {l}");
        }
        let wide = human_line(&r, false, Some(120));
        assert!(
            wide.contains("Featherstonehaugh-Worthington:"),
            "room for the sender: {wide}"
        );
        // Colour codes take no columns: the visible text is the plain line.
        let plain = human_line(&r, false, Some(60));
        let coloured = human_line(&r, true, Some(60));
        assert_eq!(strip_ansi_escapes::strip_str(&coloured), plain);
        // A line that fits is left alone.
        let short = rec("Ann", Some("Hi"), "Hi");
        assert_eq!(
            human_line(&short, false, Some(80)),
            human_line(&short, false, None)
        );
    }

    #[test]
    fn wide_characters_count_two_columns() {
        let r = rec("山田太郎", Some(&"会議の資料を送ります".repeat(8)), "本文");
        let l = human_line(&r, false, Some(50));
        assert!(cols(&l) <= 50, "{l:?} is {} wide", cols(&l));
        assert!(l.contains("山田太郎"), "{l}");
    }
}
