//! Inbound content is untrusted data (principle 4 in docs/ARCHITECTURE.md).
//!
//! Two layers, on purpose:
//! - **At ingestion** (`domain::to_record`, built on these functions): HTML becomes text, terminal escape sequences, control
//!   characters and invisible/bidi format characters are removed, and every field is bounded.
//!   What is stored in the inbox is already clean, so every reader starts from safe text.
//! - **At every output** ([`for_terminal`], [`one_line`], [`escape_markup`]): the same text is
//!   escaped again where it reaches a terminal, a toast or a log. The inbox files can be edited
//!   by anyone with access to the data directory, so readers must not rely on the first layer.
//!
//! Everything here is total: no input makes these functions panic, and the output bounds hold
//! for every input.

use std::collections::BTreeMap;
use std::iter::Peekable;
use std::str::Chars;

/// Bound of a message's stored text.
pub const MAX_TEXT_CHARS: usize = 16_000;
/// Bound of the one-line preview shown in lists and notifications.
pub const MAX_PREVIEW_CHARS: usize = 160;
/// Bound of short fields: subject, names, addresses, ids, meta strings.
pub const MAX_FIELD_CHARS: usize = 512;
/// Meta of a record, serialized, is kept under this many bytes.
pub(crate) const MAX_META_BYTES: usize = 8 * 1024;
/// Recipients kept per record (a mail to a 5,000-member list is still one line of text).
pub(crate) const MAX_RECIPIENTS: usize = 100;
/// HTML beyond this many bytes is not converted: the text is bounded at [`MAX_TEXT_CHARS`]
/// anyway, and converting megabytes of markup would only cost time.
pub(crate) const MAX_HTML_BYTES: usize = 512 * 1024;

/// Combining marks kept on one base character: enough for any real script, not enough to
/// smear "Zalgo" text over neighbouring terminal lines.
const MAX_COMBINING: usize = 4;

const ELLIPSIS: char = '…';

// ------------------------------------------------------------------------ character classes

/// Bidirectional formatting controls: they reorder how text is displayed ("Trojan Source",
/// CVE-2021-42574), so what the operator reads differs from what a model or a program reads.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// Characters that render as nothing (or nearly nothing) and so can hide text from the
/// operator while a model still reads it: zero-width characters, invisible operators, fillers,
/// deprecated format controls, Unicode tag characters (U+E0000–U+E007F, used to smuggle
/// prompt injections) and the unassigned rest of that block.
fn is_invisible(c: char) -> bool {
    matches!(
        c,
        '\u{00AD}'               // soft hyphen
        | '\u{034F}'             // combining grapheme joiner
        | '\u{115F}' | '\u{1160}' | '\u{3164}' | '\u{FFA0}' // Hangul fillers (blank "names")
        | '\u{17B4}' | '\u{17B5}' // Khmer inherent vowels
        | '\u{180B}'..='\u{180F}' // Mongolian variation selectors and vowel separator
        | '\u{200B}'..='\u{200D}' // zero-width space, non-joiner, joiner
        | '\u{2060}'..='\u{206F}' // word joiner, invisible operators, deprecated format controls
        | '\u{FEFF}'             // zero-width no-break space / BOM
        | '\u{FFF9}'..='\u{FFFB}' // interlinear annotation controls
        | '\u{1BCA0}'..='\u{1BCA3}' // shorthand format controls
        | '\u{1D173}'..='\u{1D17A}' // musical format controls
        | '\u{E0000}'..='\u{E0FFF}' // tag characters and the rest of the ignorable plane-14 block
    )
}

/// Variation selectors other than the two emoji ones. Runs of them after one visible
/// character can encode arbitrary bytes ("emoji smuggling"); real text rarely needs them.
fn is_rare_variation_selector(c: char) -> bool {
    matches!(c, '\u{FE00}'..='\u{FE0D}' | '\u{E0100}'..='\u{E01EF}')
}

fn is_emoji_variation_selector(c: char) -> bool {
    matches!(c, '\u{FE0E}' | '\u{FE0F}')
}

/// The main blocks of combining marks (a cheap approximation of general category Mn).
fn is_combining(c: char) -> bool {
    matches!(
        c,
        '\u{0300}'..='\u{036F}'
            | '\u{1AB0}'..='\u{1AFF}'
            | '\u{1DC0}'..='\u{1DFF}'
            | '\u{20D0}'..='\u{20FF}'
            | '\u{FE20}'..='\u{FE2F}'
    )
}

/// Unicode noncharacters: never valid in interchange; shown as U+FFFD.
fn is_noncharacter(c: char) -> bool {
    let u = c as u32;
    (0xFDD0..=0xFDEF).contains(&u) || (u & 0xFFFE) == 0xFFFE
}

/// Anything [`clean_text`] drops, apart from C0/C1 controls and escape sequences.
fn is_hidden_format(c: char) -> bool {
    is_bidi_control(c) || is_invisible(c) || is_rare_variation_selector(c)
}

// ------------------------------------------------------------------------ the stripper

/// How control characters that survive stripping are rendered.
#[derive(Clone, Copy, PartialEq)]
enum Layout {
    /// Keep `\n` and `\t` (CR LF and lone CR become `\n`; NEL, U+2028, U+2029 become `\n`).
    Lines,
    /// Everything is on one line: `\n`, `\t`, CR and the line separators become a space.
    Flat,
}

/// Where the stripper is inside an escape sequence.
#[derive(Clone, Copy, PartialEq)]
enum State {
    Text,
    /// Just after ESC.
    Escape,
    /// Inside an nF sequence: ESC, intermediates 0x20–0x2F, then one final 0x30–0x7E.
    EscapeIntermediate,
    /// Control Sequence: parameters 0x30–0x3F, intermediates 0x20–0x2F, final 0x40–0x7E.
    Csi,
    /// OSC / DCS / SOS / PM / APC payload, up to BEL or ST (ESC `\` or U+009C).
    ControlString,
    /// ESC seen inside a control string: it ends the string; unless `\` follows, it also
    /// starts the next sequence.
    ControlStringEscape,
}

/// Remove escape sequences, control characters and hidden format characters.
///
/// Works on `char`s: a `&str` cannot hold raw 8-bit C1 bytes, but it can hold the code points
/// U+0080–U+009F, which a terminal decoding UTF-8 may treat as C1 controls (U+009B = CSI), so
/// those are parsed as the introducers they are.
fn strip(s: &str, layout: Layout) -> String {
    let mut out = Out {
        text: String::with_capacity(s.len().min(1 << 20)),
        combining_run: 0,
        after_visible: false,
    };
    let mut state = State::Text;
    let mut chars = s.chars().peekable();
    // A character that ended a sequence without belonging to it, to be processed again.
    let mut again: Option<char> = None;

    while let Some(c) = again.take().or_else(|| chars.next()) {
        match state {
            State::Text => text_char(c, layout, &mut chars, &mut out, &mut state),
            State::Escape => match c {
                '[' => state = State::Csi,
                // OSC, DCS, SOS, PM, APC: a string follows, ended by BEL or ST.
                ']' | 'P' | 'X' | '^' | '_' => state = State::ControlString,
                // nF: ESC ( B, ESC # 8, ESC % G …: intermediates, then one final.
                '\u{20}'..='\u{2F}' => state = State::EscapeIntermediate,
                // Fp / Fe / Fs: one final character (ESC 7, ESC c, ESC M …).
                '\u{30}'..='\u{7E}' => state = State::Text,
                // A lone ESC before anything else: the ESC goes, the character stays.
                _ => {
                    state = State::Text;
                    again = Some(c);
                }
            },
            State::EscapeIntermediate => match c {
                '\u{20}'..='\u{2F}' => {}
                '\u{30}'..='\u{7E}' => state = State::Text,
                _ => {
                    state = State::Text;
                    again = Some(c);
                }
            },
            State::Csi => match c {
                '\u{20}'..='\u{3F}' => {}
                '\u{40}'..='\u{7E}' => state = State::Text,
                // Malformed sequence: abandon it; the character is read as text (or control).
                _ => {
                    state = State::Text;
                    again = Some(c);
                }
            },
            State::ControlString => match c {
                // BEL, 8-bit ST, and CAN / SUB (which cancel a sequence in every terminal).
                '\u{07}' | '\u{9C}' | '\u{18}' | '\u{1A}' => state = State::Text,
                '\u{1B}' => state = State::ControlStringEscape,
                // The payload (a clipboard write, a link target …) is never text.
                _ => {}
            },
            State::ControlStringEscape => {
                if c == '\\' {
                    state = State::Text;
                } else {
                    // ESC without `\` still ends the string, and starts a new sequence.
                    state = State::Escape;
                    again = Some(c);
                }
            }
        }
    }
    out.text
}

/// The output of [`strip`] with the bookkeeping of its last characters. Limits are counted on
/// the output, not the input, so running the stripper twice changes nothing.
struct Out {
    text: String,
    /// Combining marks since the last base character.
    combining_run: usize,
    /// Whether the last base character is visible (may take one emoji variation selector).
    after_visible: bool,
}

/// Handle one character outside any escape sequence.
fn text_char(
    c: char,
    layout: Layout,
    chars: &mut Peekable<Chars<'_>>,
    out: &mut Out,
    state: &mut State,
) {
    let line_break = match layout {
        Layout::Lines => '\n',
        Layout::Flat => ' ',
    };
    match c {
        '\u{1B}' => *state = State::Escape,
        // 8-bit (C1) introducers, as code points.
        '\u{9B}' => *state = State::Csi,
        '\u{9D}' | '\u{90}' | '\u{98}' | '\u{9E}' | '\u{9F}' => *state = State::ControlString,
        '\n' | '\u{85}' | '\u{2028}' | '\u{2029}' => out.push(line_break),
        '\r' => {
            // CR LF is one break; a lone CR (which would overwrite the line) is one too.
            if chars.peek() == Some(&'\n') {
                chars.next();
            }
            out.push(line_break);
        }
        '\t' => out.push(if layout == Layout::Lines { '\t' } else { ' ' }),
        // Every other C0 control, DEL, and the remaining C1 controls.
        '\u{00}'..='\u{1F}' | '\u{7F}'..='\u{9F}' => {}
        c if is_hidden_format(c) => {}
        c if is_noncharacter(c) => out.push('\u{FFFD}'),
        c => out.push(c),
    }
}

impl Out {
    /// Push a character allowed in text, applying the limits on combining marks and
    /// variation selectors.
    fn push(&mut self, c: char) {
        if is_combining(c) {
            if self.combining_run < MAX_COMBINING {
                self.combining_run += 1;
                self.text.push(c);
            }
            return;
        }
        if is_emoji_variation_selector(c) {
            // One selector right after a visible character; a run of them is a covert channel.
            if self.after_visible {
                self.after_visible = false;
                self.text.push(c);
            }
            return;
        }
        self.combining_run = 0;
        self.after_visible = !c.is_whitespace();
        self.text.push(c);
    }
}

/// Cut `s` to at most `max_chars` characters, the last being "…" when anything was cut.
pub fn bound(s: &str, max_chars: usize) -> String {
    if max_chars == 0 {
        return String::new();
    }
    match s.char_indices().nth(max_chars) {
        None => s.to_string(),
        Some(_) => {
            // Keep max_chars - 1 characters plus the ellipsis.
            let cut = s
                .char_indices()
                .nth(max_chars - 1)
                .map(|(i, _)| i)
                .unwrap_or(s.len());
            let mut kept = s[..cut].trim_end().to_string();
            kept.push(ELLIPSIS);
            kept
        }
    }
}

/// Whether `word` occurs in `hay` as a whole word: no letter or digit (in any script) right
/// before or after it. Case-sensitive: callers lower-case both sides when they mean to. An
/// empty or blank `word` is never found.
pub(crate) fn has_word(hay: &str, word: &str) -> bool {
    if word.trim().is_empty() {
        return false;
    }
    // Every occurrence, overlapping ones included (`match_indices` would skip those).
    let mut from = 0;
    while let Some(i) = hay[from..].find(word) {
        let start = from + i;
        let before = hay[..start].chars().next_back();
        let after = hay[start + word.len()..].chars().next();
        if !before.is_some_and(char::is_alphanumeric) && !after.is_some_and(char::is_alphanumeric) {
            return true;
        }
        from = start + word.chars().next().map_or(1, char::len_utf8);
    }
    false
}

// ------------------------------------------------------------------------ public text API

/// Clean untrusted text for storage: escape sequences (CSI, OSC incl. OSC 8 / OSC 52 with BEL
/// or ST, DCS, SOS/PM/APC, 8-bit C1 forms), C0/C1 controls except `\n` and `\t`, bidi controls,
/// zero-width and other invisible characters, Unicode tag characters and rare variation
/// selectors are removed; CR LF and lone CR become `\n`; noncharacters become U+FFFD; trailing
/// spaces on each line are dropped, runs of more than two blank lines collapse to two, the
/// whole is trimmed and cut to `max_chars` characters ("…" marks a cut).
pub fn clean_text(s: &str, max_chars: usize) -> String {
    let stripped = strip(s, Layout::Lines);
    let mut out = String::with_capacity(stripped.len());
    let mut blank_run = 0usize;
    for line in stripped.split('\n') {
        let line = line.trim_end();
        if line.is_empty() {
            blank_run += 1;
            if blank_run > 2 {
                continue;
            }
        } else {
            blank_run = 0;
        }
        out.push_str(line);
        out.push('\n');
    }
    bound(out.trim(), max_chars)
}

/// Convert untrusted HTML to clean text: markup, `<script>`, `<style>` and `<head>` content
/// are dropped, links keep only their text, then [`clean_text`] applies. Malformed HTML never
/// fails: if the converter gives up, or the markup is nested deeper than the converter handles
/// in reasonable time, tags are stripped crudely instead.
pub fn html_to_text(html: &str, max_chars: usize) -> String {
    // Escape sequences are not markup: remove them from the source first, or the converter
    // drops only the ESC and leaves their payload ("[31m", "]52;c;…") behind as text.
    let html = strip(truncate_bytes(html, MAX_HTML_BYTES), Layout::Lines);
    let text = if nesting_exceeds(&html, MAX_HTML_DEPTH) {
        crude_strip_tags(&html)
    } else {
        html2text::config::plain_no_decorate()
            .allow_width_overflow()
            .link_footnotes(false)
            .no_table_borders()
            .string_from_read(html.as_bytes(), 10_000)
            .unwrap_or_else(|_| crude_strip_tags(&html))
    };
    clean_text(&text, max_chars)
}

/// The longest prefix of `s` of at most `max_bytes` bytes that ends on a char boundary.
fn truncate_bytes(s: &str, max_bytes: usize) -> &str {
    if s.len() <= max_bytes {
        return s;
    }
    let mut end = max_bytes;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// Elements that never contain others, or that the parser closes implicitly when a sibling
/// starts (so a run of them does not nest).
const FLAT_ELEMENTS: &[&str] = &[
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "param", "source",
    "track", "wbr", "p", "li", "dt", "dd", "tr", "td", "th", "option", "optgroup", "rb", "rp",
    "rt", "rtc",
];

/// Formatting elements: the HTML parser re-opens unclosed ones after a block closes, so they
/// nest however the surrounding tags are closed.
const FORMATTING_ELEMENTS: &[&str] = &[
    "a", "b", "big", "code", "em", "font", "i", "nobr", "s", "small", "strike", "strong", "tt", "u",
];

/// The converter's cost grows with the square of the nesting depth (100,000 nested `<div>`s,
/// 600 KB, take most of a minute), so deep documents are stripped crudely instead. Real mail
/// rarely nests 50 deep.
pub(crate) const MAX_HTML_DEPTH: usize = 256;

/// Whether `html` may nest deeper than `limit` elements. Over-estimates (then the crude path
/// is taken, which is safe), never under-estimates: open elements are tracked on a stack the
/// way the parser closes them, and unclosed formatting elements are counted separately because
/// the parser reconstructs them.
pub(crate) fn nesting_exceeds(html: &str, limit: usize) -> bool {
    let b = html.as_bytes();
    let mut stack: Vec<String> = Vec::new();
    let mut formatting: BTreeMap<String, usize> = BTreeMap::new();
    let mut open_formatting = 0usize;
    let mut i = 0;
    while let Some(p) = b[i..].iter().position(|&c| c == b'<') {
        i += p + 1;
        if b[i..].starts_with(b"!--") {
            match html[i..].find("-->") {
                Some(e) => {
                    i += e + 3;
                    continue;
                }
                None => break,
            }
        }
        let closing = b.get(i) == Some(&b'/');
        let start = if closing { i + 1 } else { i };
        let len = b[start..]
            .iter()
            .take_while(|c| c.is_ascii_alphanumeric())
            .count();
        if len == 0 || !b[start].is_ascii_alphabetic() {
            continue; // not a tag: "<" in text, "<!doctype", "<?xml"
        }
        let name = html[start..start + len].to_ascii_lowercase();
        let Some(gt) = b[start + len..].iter().position(|&c| c == b'>') else {
            break;
        };
        let end = start + len + gt;
        let self_closing = b[end - 1] == b'/';
        i = end + 1;
        if FORMATTING_ELEMENTS.contains(&name.as_str()) {
            let n = formatting.entry(name).or_insert(0);
            if closing {
                if *n > 0 {
                    *n -= 1;
                    open_formatting -= 1;
                }
            } else if !self_closing {
                *n += 1;
                open_formatting += 1;
            }
        } else if FLAT_ELEMENTS.contains(&name.as_str()) || self_closing {
            continue;
        } else if closing {
            // Pop back to the matching element if it is open; a stray end tag is ignored.
            if let Some(pos) = stack.iter().rposition(|n| *n == name) {
                stack.truncate(pos);
            }
        } else {
            stack.push(name);
        }
        if stack.len() + open_formatting > limit {
            return true;
        }
    }
    false
}

/// Fallback for HTML the converter cannot take: drop tags and the content of script, style
/// and head elements, break lines at block elements, decode the entities that matter most.
fn crude_strip_tags(html: &str) -> String {
    const SKIP_CONTENT: &[(&str, &str)] = &[
        ("<script", "</script"),
        ("<style", "</style"),
        ("<head", "</head"),
    ];
    const BLOCKS: &[&str] = &[
        "br",
        "p",
        "div",
        "li",
        "tr",
        "table",
        "blockquote",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "pre",
        "hr",
        "ul",
        "ol",
        "dl",
        "dt",
        "dd",
    ];
    let mut out = String::with_capacity(html.len());
    // ASCII lowercasing keeps every byte offset, so positions found in `lower` apply to `html`.
    let lower = html.to_ascii_lowercase();
    let mut i = 0;
    while i < html.len() {
        let Some(p) = html[i..].find('<') else {
            out.push_str(&html[i..]);
            break;
        };
        out.push_str(&html[i..i + p]);
        i += p;
        let tag = &lower[i..];
        // Skip the whole element for content that is never text. `<header` is not `<head`.
        let skip = SKIP_CONTENT.iter().find(|(open, _)| {
            tag.starts_with(open)
                && !tag[open.len()..].starts_with(|c: char| c.is_ascii_alphanumeric())
        });
        let from = match skip {
            Some((_, close)) => match tag.find(close) {
                Some(e) => i + e,
                None => html.len(),
            },
            None => i,
        };
        let name: String = lower[from..]
            .trim_start_matches(['<', '/'])
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if BLOCKS.contains(&name.as_str()) {
            out.push('\n');
        }
        i = match html[from..].find('>') {
            Some(e) => from + e + 1,
            None => html.len(),
        };
    }
    out.replace("&nbsp;", " ")
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&#39;", "'")
        .replace("&amp;", "&")
}

/// One clean line: [`clean_text`], then every whitespace run (newlines included) becomes one
/// space, bounded to `max_chars`. For previews, subjects, names, addresses, ids.
///
/// Reads only as much of `s` as decides the result (a preview is a few hundred bytes of a text
/// of kilobytes, and folding runs at ingest and in every PHI view): the fold strips character
/// by character (one character of lookahead: `\r\n`), joins words with single blanks and
/// bounds, so it depends only on its first `max_chars + 1` characters. When a prefix of `s`
/// folds to more than that before its last word (which the cut may have shortened), all of
/// `s` folds to the same line.
pub fn one_line(s: &str, max_chars: usize) -> String {
    // Printable ASCII with blanks, tabs and line breaks (most mail): `strip` keeps every such
    // character and turns the breaks and tabs into blanks, so the fold is the words joined.
    if s.bytes()
        .all(|b| matches!(b, b' '..=b'~' | b'\n' | b'\r' | b'\t'))
    {
        let mut out = String::with_capacity(s.len().min(max_chars.saturating_add(16)));
        for w in s.split_ascii_whitespace() {
            if out.len() > max_chars {
                break;
            }
            if !out.is_empty() {
                out.push(' ');
            }
            out.push_str(w);
        }
        return bound(&out, max_chars);
    }
    let mut len = max_chars.saturating_mul(4).saturating_add(64);
    while len < s.len() {
        let mut cut = len;
        while !s.is_char_boundary(cut) {
            cut -= 1;
        }
        let head = fold_whole(&s[..cut], usize::MAX);
        let settled = head.rfind(' ').map_or(0, |at| head[..at].chars().count());
        if settled > max_chars.saturating_add(1) {
            return bound(&head, max_chars);
        }
        len = len.saturating_mul(4);
    }
    fold_whole(s, max_chars)
}

/// [`one_line`] read from all of `s`.
fn fold_whole(s: &str, max_chars: usize) -> String {
    let stripped = strip(s, Layout::Flat);
    let mut out = String::with_capacity(stripped.len());
    for word in stripped.split_whitespace() {
        if !out.is_empty() {
            out.push(' ');
        }
        out.push_str(word);
    }
    bound(&out, max_chars)
}

/// What may reach a terminal (or a log line): no escape sequence, no control character at
/// all (`\n` and `\t` become spaces), no bidi or invisible character. Idempotent. Not bounded
/// and not trimmed: callers choose their own layout.
pub fn for_terminal(s: &str) -> String {
    strip(s, Layout::Flat)
}

/// Escape text for a desktop notification body (the freedesktop markup subset, parsed as XML
/// by most servers). Apply [`for_terminal`] or [`one_line`] first: this only escapes markup.
pub fn escape_markup(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 16);
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '\'' => out.push_str("&#39;"),
            '"' => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

// ------------------------------------------------------------------------ outbound text

/// Why an outbound draft's text is refused: the field and what is wrong with it.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error(
    "{field} contains {what} (U+{code:04X}) at character {at}; outbound text must be exactly what the operator reviews, so remove it"
)]
pub struct OutboundTextError {
    /// The draft field, as named in the action (`subject`, `body`, `to`, …).
    pub field: &'static str,
    pub what: &'static str,
    pub code: u32,
    /// 1-based character position in the field.
    pub at: usize,
}

pub(crate) fn check_outbound_field(
    field: &'static str,
    s: &str,
    multi_line: bool,
) -> Result<(), OutboundTextError> {
    let chars: Vec<char> = s.chars().collect();
    for (i, &c) in chars.iter().enumerate() {
        let what = if c == '\0' {
            Some("a NUL character")
        } else if c == '\u{1b}' {
            Some("a terminal escape character")
        } else if c.is_control() && !(multi_line && matches!(c, '\n' | '\r' | '\t')) {
            Some(if multi_line {
                "a control character"
            } else {
                "a control character or line break"
            })
        } else if is_bidi_control(c) {
            Some("a bidirectional control character")
        } else if c == '\u{200D}' && emoji_joined(&chars, i) {
            None
        } else if is_invisible(c) || is_rare_variation_selector(c) {
            Some("an invisible (zero-width) character")
        } else if matches!(c, '\u{2028}' | '\u{2029}') && !multi_line {
            Some("a control character or line break")
        } else if is_noncharacter(c) {
            Some("a Unicode noncharacter")
        } else {
            None
        };
        if let Some(what) = what {
            return Err(OutboundTextError {
                field,
                what,
                code: c as u32,
                at: i + 1,
            });
        }
    }
    Ok(())
}

/// A zero-width joiner at `i` sits between two emoji (allowing a variation selector or skin
/// tone before it), as in family and profession emoji.
fn emoji_joined(chars: &[char], i: usize) -> bool {
    let emoji =
        |c: char| matches!(c, '\u{2600}'..='\u{27BF}' | '\u{1F000}'..='\u{1FAFF}' | '\u{FE0F}');
    let before = i.checked_sub(1).and_then(|j| chars.get(j)).copied();
    let after = chars.get(i + 1).copied();
    before.is_some_and(emoji) && after.is_some_and(emoji)
}

// ------------------------------------------------------------------------ attachments

/// Characters kept of an attachment's display name (the extension is kept within this).
pub const MAX_ATTACHMENT_NAME_CHARS: usize = 120;
/// Characters of text extracted from one attachment that a record keeps.
pub(crate) const MAX_ATTACHMENT_TEXT_CHARS: usize = 8_000;
/// Attachments kept on one record and in the attachment store: a mail with more lists and
/// stores the first ones; the rest are dropped unstored and counted in meta
/// ([`META_ATTACHMENTS_TRUNCATED`]). 64 is far beyond any real mail's files and inline
/// images, and keeps one record (and one mail's writes to the store) bounded.
pub const MAX_ATTACHMENTS: usize = 64;
/// Meta key: how many attachments the mail carried, when more than [`MAX_ATTACHMENTS`].
pub(crate) const META_ATTACHMENTS_TRUNCATED: &str = "attachments_truncated";
/// Characters of extracted attachment text one record keeps in all (later texts are cut).
pub(crate) const MAX_ATTACHMENTS_TEXT_CHARS: usize = 32_000;

/// Windows device names: a file called `CON` or `nul.txt` opens a device, not a file, on the
/// machine the operator may save it to.
const RESERVED_NAMES: [&str; 22] = [
    "CON", "PRN", "AUX", "NUL", "COM1", "COM2", "COM3", "COM4", "COM5", "COM6", "COM7", "COM8",
    "COM9", "LPT1", "LPT2", "LPT3", "LPT4", "LPT5", "LPT6", "LPT7", "LPT8", "LPT9",
];

/// Neutralize a sender-supplied attachment name for display and for a "save as" suggestion:
/// only the last path component is kept (`/` and `\` both count), control, bidi and invisible
/// characters are removed, characters Windows forbids become `_`, leading and trailing dots
/// and spaces go (no hidden file, no `..`), device names (`CON`, `nul.txt`) get a `_` prefix,
/// and the length is capped keeping the extension. Idempotent; never empty. The attachment
/// store never uses this (or any sender text) as a path: files there are named by hash.
pub fn safe_file_name(raw: &str) -> String {
    // Not bounded here: a cut before the extension is found would drop it (and with it the
    // risk flag of `aaaa…aaa.exe`); the length cap below keeps the extension.
    let flat = one_line(raw, usize::MAX);
    let last = flat.rsplit(['/', '\\']).next().unwrap_or("");
    let mapped: String = last
        .chars()
        .map(|c| match c {
            '<' | '>' | ':' | '"' | '|' | '?' | '*' => '_',
            c => c,
        })
        .collect();
    let mut name = mapped
        .trim_matches(|c: char| c == '.' || c.is_whitespace())
        .to_string();
    if name.is_empty() {
        return "attachment".into();
    }
    let stem = name.split('.').next().unwrap_or("").trim_end();
    if RESERVED_NAMES.iter().any(|r| r.eq_ignore_ascii_case(stem)) {
        name.insert(0, '_');
    }
    if name.chars().count() > MAX_ATTACHMENT_NAME_CHARS {
        let ext = name
            .rsplit_once('.')
            .map(|(_, e)| e)
            .filter(|e| !e.is_empty() && e.chars().count() <= 16)
            .map(|e| format!(".{e}"))
            .unwrap_or_default();
        let keep = MAX_ATTACHMENT_NAME_CHARS - ext.chars().count() - 1;
        let head: String = name.chars().take(keep).collect();
        name = format!("{}{ELLIPSIS}{ext}", head.trim_end_matches(['.', ' ']));
    }
    name
}

/// A declared media type as stored: `type/subtype` in lower case, parameters dropped;
/// anything that does not look like one becomes `application/octet-stream`.
pub(crate) fn clean_media_type(raw: &str) -> String {
    let t = one_line(raw, 128).to_ascii_lowercase();
    let t = t.split(';').next().unwrap_or("").trim();
    let ok = t.split_once('/').is_some_and(|(a, b)| {
        let tok = |s: &str| {
            !s.is_empty()
                && s.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "!#$&-^_.+".contains(c))
        };
        tok(a) && tok(b)
    });
    if ok {
        t.to_string()
    } else {
        "application/octet-stream".into()
    }
}

/// Executable, script and macro-bearing attachments, by extension and by media type: such a
/// file is flagged on every surface (`risk`), whatever the sender claims it is.
pub fn attachment_risk(name: &str, media_type: &str) -> Option<&'static str> {
    let ext = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .unwrap_or_default();
    // Disk images count as executable: they are mailed to carry programs past filters.
    const EXECUTABLE: [&str; 22] = [
        "exe", "dll", "com", "scr", "pif", "msi", "msp", "cpl", "sys", "bat", "cmd", "app", "dmg",
        "pkg", "deb", "rpm", "jar", "apk", "elf", "lnk", "iso", "img",
    ];
    const SCRIPT: [&str; 12] = [
        "js", "jse", "vbs", "vbe", "wsf", "wsh", "ps1", "psm1", "sh", "hta", "reg", "py",
    ];
    const MACRO: [&str; 10] = [
        "docm", "dotm", "xlsm", "xltm", "xlam", "pptm", "potm", "ppam", "sldm", "xlsb",
    ];
    let mt = media_type;
    if EXECUTABLE.contains(&ext.as_str())
        || matches!(
            mt,
            "application/x-msdownload"
                | "application/x-msdos-program"
                | "application/x-executable"
                | "application/vnd.microsoft.portable-executable"
                | "application/x-dosexec"
                | "application/java-archive"
        )
    {
        Some("executable")
    } else if MACRO.contains(&ext.as_str()) || mt.contains("macroenabled") {
        Some("macro")
    } else if SCRIPT.contains(&ext.as_str())
        || matches!(
            mt,
            "application/javascript"
                | "text/javascript"
                | "application/x-sh"
                | "text/x-shellscript"
        )
    {
        Some("script")
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `one_line` reads only the head of a text; it must give exactly what folding the whole
    /// text gives, whatever the text and the bound: long or short, runs of blanks, CRLF at the cut,
    /// escape sequences and control strings running past the cut, combining marks, words
    /// longer than the head.
    #[test]
    fn one_line_from_the_head_is_the_whole_fold() {
        let max = MAX_PREVIEW_CHARS;
        let word = "Okafor ";
        let mut texts: Vec<String> = vec![
            String::new(),
            "short text".into(),
            word.repeat(200),
            format!("{}{}", " ".repeat(5000), word.repeat(300)),
            format!("{}\r\n{}", "x".repeat(700), word.repeat(300)),
            format!("{}\x1b]8;;{}\x07 tail", word.repeat(100), "y".repeat(3000)),
            format!("{}\x1b[{}m tail", word.repeat(95), "1;".repeat(400)),
            format!("e\u{301}\u{301}\u{301}{}", "a\u{300}\u{300} ".repeat(900)),
            "z".repeat(9000),
            format!("{} {}", "w".repeat(150), "\n\t ".repeat(2000)),
            format!("{} x", "w".repeat(159)),
            format!("{} x", "w".repeat(158)),
            format!("{}\r\n", "w ".repeat(80)),
            format!("{}\u{c}{}", "w ".repeat(40), "v ".repeat(80)),
            format!("{}\u{7f}{}", "w ".repeat(40), "v ".repeat(80)),
            "\t\r\n  lead and trail \r".into(),
        ];
        // Every cut around the first head's end, for a text of short words and blanks.
        for pad in 0..12 {
            texts.push(format!(
                "{}{}",
                " ".repeat(pad),
                "ab \r\ncd\te ".repeat(120)
            ));
            texts.push(format!(
                "{}{}",
                " ".repeat(pad),
                "ab \r\ncd\té ".repeat(120)
            ));
            texts.push(format!("{}{}", "x".repeat(150 + pad), " y z".repeat(3)));
        }
        for t in &texts {
            for bound in [max, 1, 40, usize::MAX] {
                assert_eq!(
                    one_line(t, bound),
                    fold_whole(t, bound),
                    "bound {bound}: {:?}",
                    t.get(..80)
                );
            }
        }
    }

    #[test]
    fn csi_sequences_are_removed_and_their_text_kept() {
        assert_eq!(
            clean_text("\x1b[1;31mred\x1b[0m and \x1b[2J\x1b[Hplain", 100),
            "red and plain"
        );
        assert_eq!(clean_text("\u{9b}31mred\u{9b}0m", 100), "red");
    }

    #[test]
    fn osc_payloads_vanish_with_either_terminator() {
        let clip = "a\x1b]52;c;Y3VybCBldmlsfHNo\x07b";
        assert_eq!(clean_text(clip, 100), "ab");
        let link = "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\ here";
        assert_eq!(clean_text(link, 100), "click here");
        assert_eq!(clean_text("x\u{9d}0;title\u{9c}y", 100), "xy");
    }

    #[test]
    fn dcs_and_other_control_strings_vanish() {
        assert_eq!(clean_text("a\x1bP1$qm\x1b\\b", 100), "ab");
        assert_eq!(clean_text("a\x1b_apc payload\x1b\\b", 100), "ab");
        // CAN aborts a control string, as in a terminal.
        assert_eq!(clean_text("a\x1b]0;x\x18b", 100), "ab");
    }

    #[test]
    fn a_control_string_ended_by_a_new_escape_does_not_swallow_the_rest() {
        assert_eq!(clean_text("a\x1b]0;t\x1b[31mb", 100), "ab");
    }

    #[test]
    fn single_and_charset_escapes_are_removed() {
        assert_eq!(clean_text("a\x1b7b\x1b8c\x1b(0d\x1bce", 100), "abcde");
        // A lone ESC before a non-ASCII char: the ESC goes, the char stays.
        assert_eq!(clean_text("a\x1bé", 100), "aé");
    }

    #[test]
    fn controls_go_except_newline_and_tab_and_line_endings_normalize() {
        assert_eq!(clean_text("a\0b\x07c\x08d\x7fe", 100), "abcde");
        assert_eq!(
            clean_text("one\r\ntwo\rthree\u{85}four\u{2028}five", 100),
            "one\ntwo\nthree\nfour\nfive"
        );
        assert_eq!(clean_text("a\tb", 100), "a\tb");
    }

    #[test]
    fn bidi_zero_width_and_tag_characters_are_removed() {
        let s = "ig\u{200b}no\u{200d}re\u{2060} \u{202e}evil\u{202c} \u{2066}x\u{2069}\u{e0041}\u{e0042}\u{feff}\u{ad}";
        assert_eq!(clean_text(s, 100), "ignore evil x");
    }

    #[test]
    fn emoji_keep_one_variation_selector_but_runs_are_dropped() {
        assert_eq!(clean_text("\u{2764}\u{fe0f}", 10), "\u{2764}\u{fe0f}");
        assert_eq!(
            clean_text("\u{2764}\u{fe0f}\u{fe0f}\u{fe0e}\u{e0100}\u{fe01}", 10),
            "\u{2764}\u{fe0f}"
        );
    }

    #[test]
    fn combining_mark_floods_are_capped() {
        let zalgo = format!("a{}b", "\u{0301}".repeat(50));
        assert_eq!(clean_text(&zalgo, 100).chars().count(), 2 + MAX_COMBINING);
    }

    #[test]
    fn blank_line_runs_collapse_to_two_and_ends_are_trimmed() {
        assert_eq!(clean_text("  \n\na  \n\n\n\n\nb\n\n", 100), "a\n\n\nb");
    }

    #[test]
    fn bounds_are_in_chars_and_marked_with_an_ellipsis() {
        assert_eq!(clean_text("héllo wörld", 5), "héll…");
        assert_eq!(clean_text("héllo", 5), "héllo");
        assert_eq!(clean_text("abc", 0), "");
        assert_eq!(one_line("ab  cd", 4), "ab…");
    }

    #[test]
    fn whole_words_need_no_letter_or_digit_beside_them() {
        assert!(has_word("the sunrise deal", "sunrise"));
        assert!(has_word("re: sunrise-2", "sunrise"));
        assert!(has_word("überweisung erledigt", "erledigt"));
        assert!(!has_word("sunrises ahead", "sunrise"));
        assert!(!has_word("2sunrise", "sunrise"));
        assert!(
            !has_word("éclair", "clair"),
            "a non-ASCII letter is a letter"
        );
        assert!(!has_word("anything", ""));
        assert!(!has_word("a  b", " "));
        // A later occurrence counts when the first is inside a longer word.
        assert!(has_word("sunrises and sunrise", "sunrise"));
    }

    #[test]
    fn one_line_flattens_all_whitespace() {
        assert_eq!(
            one_line("  Re:\n\tthe\r\n  plan \u{2029} ", 100),
            "Re: the plan"
        );
    }

    #[test]
    fn for_terminal_leaves_no_control_at_all_and_is_idempotent() {
        let s = "a\nb\tc\x1b[31md\u{202e}e\u{200b}f";
        let once = for_terminal(s);
        assert_eq!(once, "a b cdef");
        assert_eq!(for_terminal(&once), once);
    }

    #[test]
    fn html_becomes_text_without_script_or_style() {
        let html = "<html><head><title>T</title><style>p{color:red}</style></head><body>\
                    <p>Hello <b>there</b></p><script>alert(1)</script>\
                    <a href=\"https://x.example/\">link</a><img src=x onerror=\"alert(2)\"></body></html>";
        let t = html_to_text(html, 1000);
        assert!(t.contains("Hello there"), "{t:?}");
        assert!(t.contains("link"), "{t:?}");
        assert!(!t.contains("alert"), "{t:?}");
        assert!(!t.contains("color"), "{t:?}");
        assert!(!t.contains("https://x.example"), "no link footnotes: {t:?}");
    }

    #[test]
    fn malformed_html_still_yields_text() {
        assert_eq!(
            html_to_text("<p>unclosed <b>bold <i>and <<<>>> ", 100),
            "unclosed bold and <<<>>>"
        );
        let deep = "<div>".repeat(5_000) + "deep" + &"</div>".repeat(5_000);
        assert!(html_to_text(&deep, 100).contains("deep"));
    }

    #[test]
    fn crude_fallback_strips_tags_and_scripts() {
        let t = crude_strip_tags(
            "<head><title>t</title></head><p>a &amp; <b>b</b></p><script>x()</script><style>s</style>c",
        );
        assert_eq!(clean_text(&t, 100), "a & b\nc");
        assert_eq!(crude_strip_tags("x<script>never closed"), "x");
    }

    #[test]
    fn deep_nesting_is_detected_however_it_is_written() {
        assert!(!nesting_exceeds(&"<div>x</div>".repeat(10_000), 256));
        assert!(!nesting_exceeds(
            &format!("<ul>{}</ul>", "<li>x".repeat(10_000)),
            256
        ));
        assert!(nesting_exceeds(&"<div>".repeat(300), 256));
        assert!(
            nesting_exceeds(&"<div></p>".repeat(300), 256),
            "stray end tags do not pop"
        );
        assert!(nesting_exceeds(&"<font><i><u><s>".repeat(100), 256));
        // Unclosed formatting elements survive the close of their block: the parser re-opens them.
        assert!(nesting_exceeds(&"<div><b x><i y></div>".repeat(200), 256));
        assert!(!nesting_exceeds(&"<div><b>x</b></div>".repeat(1000), 256));
    }

    #[test]
    fn markup_is_escaped_for_notifications() {
        assert_eq!(
            escape_markup(r#"<b>"Tom" & 'Jerry'</b>"#),
            "&lt;b&gt;&quot;Tom&quot; &amp; &#39;Jerry&#39;&lt;/b&gt;"
        );
    }

    #[test]
    fn every_code_point_is_handled_without_panic() {
        let all: String = (0..=0x10FFFFu32).filter_map(char::from_u32).collect();
        let out = clean_text(&all, usize::MAX);
        assert!(
            !out.chars()
                .any(|c| (c < ' ' && c != '\n' && c != '\t') || ('\u{7f}'..='\u{9f}').contains(&c))
        );
        assert!(!out.chars().any(is_hidden_format));
        assert_eq!(for_terminal(&for_terminal(&all)), for_terminal(&all));
    }
}
