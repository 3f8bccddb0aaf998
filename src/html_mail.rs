//! HTML mail bodies (`draft_email` `body_html`): sanitized once at the action boundary, with a
//! text rendering the operator reviews.
//!
//! The engine calls [`prepare`] on every draft it queues or edits, before the shape checks:
//! the HTML as given is refused if it carries NUL, control, bidi or zero-width characters (the
//! same rule as `body`), if it is over [`MAX_HTML_BYTES`] or if it nests deeper than the
//! inbound converter's limit (both checked before any parsing: the parsers' cost grows with
//! the square of the nesting depth). It is then cleaned with `ammonia` (an allow-list
//! sanitizer built on the html5ever parser: no `<script>`/`<style>` content, no event-handler
//! attributes, only `http`, `https` and `mailto` links, no relative URLs, no images) down to
//! markup whose every effect shows in the rendering: no attribute but a link's `href` and a
//! table cell's span (a `title`, `cite` or `summary` is sent but never shown), no direction
//! override (`<bdo dir=rtl>` shows "4321" to the operator and "1234" to the recipient), no
//! strike-through (the operator's rendering cannot show which words are struck). `body`
//! becomes its text rendering, whole, with every link's address listed, so the operator sees
//! where links point; a rendering over [`MAX_RENDERING_BYTES`] is refused, never cut, since
//! what the operator, the bans and the boundary read must be all that is sent.
//! The draft then carries both; the digest covers both; Graph is sent exactly `body_html`.
//!
//! An edit that changes the text rendering (the console and `opsdesk drafts edit` edit the
//! text) makes the mail plain text: the operator's words are what is sent, never HTML they did
//! not see.

use std::collections::{HashMap, HashSet};

use crate::domain::Outbound;
use crate::sanitize::{OutboundTextError, check_outbound_field, clean_text};

/// What the console and `opsdesk drafts show` say above an HTML mail's text.
pub const REVIEW_NOTE: &str =
    "HTML mail: shown as its text rendering (links as numbered footnotes); sent as sanitized HTML";

/// Longest HTML of one mail, in bytes, as given and after sanitizing.
pub const MAX_HTML_BYTES: usize = 400_000;
/// Longest text rendering, in bytes: the engine's limit for any body, so a mail is reviewed
/// whole or not queued at all.
pub const MAX_RENDERING_BYTES: usize = 100_000;
/// Wrap width of the rendering (long lines are not wrapped: overflow allowed).
const RENDER_WIDTH: usize = 100;

/// Tags dropped with what they mean but not their text, on top of ammonia's defaults: images
/// (a remote image is a tracker the operator cannot review in the text rendering; `<img>` has
/// no text), direction overrides and isolates (the recipient would read the text in another
/// order than the operator), strike-through (the rendering cannot show it).
const REMOVED_TAGS: &[&str] = &["img", "bdo", "bdi", "del", "s", "strike"];
/// The only attributes kept: each shows in the rendering (a link's address as a footnote) or
/// only lays out a table. Everything else (`title`, `lang`, `cite`, `hreflang`, `datetime`,
/// `abbr`, `summary`, `dir`, …) would be sent without the operator seeing it.
const KEPT_ATTRIBUTES: &[(&str, &[&str])] = &[
    ("a", &["href"]),
    ("td", &["colspan", "rowspan"]),
    ("th", &["colspan", "rowspan"]),
];
/// The only link schemes kept (`javascript:`, `data:`, `vbscript:`, … are dropped).
const URL_SCHEMES: &[&str] = &["http", "https", "mailto"];

/// Why an HTML mail is refused. Every case names the field `body_html`.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HtmlMailError {
    #[error(transparent)]
    Hidden(#[from] OutboundTextError),
    #[error("body_html is {bytes} bytes; the limit is {limit}")]
    TooLarge { bytes: usize, limit: usize },
    #[error(
        "body_html nests elements more than {limit} deep; mail is refused before it is parsed at that depth (flatten the markup)"
    )]
    TooDeep { limit: usize },
    #[error(
        "body_html renders to {bytes} bytes of text; the limit is {limit} (the operator reviews the whole text, so a longer mail is refused rather than cut)"
    )]
    RenderingTooLong { bytes: usize, limit: usize },
}

impl HtmlMailError {
    /// The draft field at fault, as named in the action.
    pub fn field(&self) -> &'static str {
        match self {
            Self::Hidden(e) => e.field,
            _ => "body_html",
        }
    }
}

/// The sanitized form of untrusted HTML. Idempotent: sanitizing the result again changes
/// nothing, so re-checking a stored draft is stable.
pub fn sanitize(html: &str) -> String {
    let attributes: HashMap<&str, HashSet<&str>> = KEPT_ATTRIBUTES
        .iter()
        .map(|(tag, attrs)| (*tag, attrs.iter().copied().collect()))
        .collect();
    ammonia::Builder::default()
        .rm_tags(REMOVED_TAGS.iter().copied())
        .generic_attributes(HashSet::new())
        .tag_attributes(attributes)
        .url_schemes(URL_SCHEMES.iter().copied().collect::<HashSet<_>>())
        .url_relative(ammonia::UrlRelative::Deny)
        .clean(html)
        .to_string()
}

/// The text the operator reads for (sanitized) `html`: markup dropped, links as numbered
/// footnotes with their addresses, then [`clean_text`], whole (never cut: callers bound the
/// HTML, [`prepare`] bounds the result).
pub fn text_rendering(html: &str) -> String {
    let text = html2text::config::plain_no_decorate()
        .allow_width_overflow()
        .link_footnotes(true)
        .no_table_borders()
        .string_from_read(html.as_bytes(), RENDER_WIDTH)
        .unwrap_or_else(|_| crate::sanitize::html_to_text(html, usize::MAX));
    clean_text(&text, usize::MAX)
}

/// Sanitize the HTML of an HTML mail and derive its text rendering into `body` (see the
/// module doc for the limits and the edit rule). Other outbound kinds and plain mails are left
/// alone.
pub fn prepare(o: &mut Outbound) -> Result<(), HtmlMailError> {
    let Some(raw) = o.body_html().map(str::to_string) else {
        return Ok(());
    };
    // The input as given: hidden characters are refused, never silently dropped.
    check_outbound_field("body_html", &raw, true)?;
    // Bounded before any parser sees it: both parsers are quadratic in the nesting depth.
    if raw.len() > MAX_HTML_BYTES {
        return Err(HtmlMailError::TooLarge {
            bytes: raw.len(),
            limit: MAX_HTML_BYTES,
        });
    }
    if crate::sanitize::nesting_exceeds(&raw, crate::sanitize::MAX_HTML_DEPTH) {
        return Err(HtmlMailError::TooDeep {
            limit: crate::sanitize::MAX_HTML_DEPTH,
        });
    }
    let clean = sanitize(&raw);
    // Sanitizing can lengthen markup (quoted attributes, `rel` on links).
    if clean.len() > MAX_HTML_BYTES {
        return Err(HtmlMailError::TooLarge {
            bytes: clean.len(),
            limit: MAX_HTML_BYTES,
        });
    }
    let rendering = text_rendering(&clean);
    if rendering.len() > MAX_RENDERING_BYTES {
        return Err(HtmlMailError::RenderingTooLong {
            bytes: rendering.len(),
            limit: MAX_RENDERING_BYTES,
        });
    }
    let body = o.body().to_string();
    if !body.is_empty() && body != rendering {
        // The text was edited: it is now a plain-text mail of exactly that text.
        if let Some(h) = o.body_html_mut() {
            *h = None;
        }
        return Ok(());
    }
    if let Some(h) = o.body_html_mut() {
        *h = Some(clean);
    }
    if let Some(b) = o.body_mut() {
        *b = rendering;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mail(html: &str) -> Outbound {
        Outbound::SendEmail {
            to: vec!["a@example.com".into()],
            cc: vec![],
            subject: "s".into(),
            body: String::new(),
            attachments: Vec::new(),
            body_html: Some(html.into()),
        }
    }

    #[test]
    fn scripts_handlers_and_javascript_links_are_removed_and_the_text_lists_links() {
        let mut o = mail(
            r#"<p onclick="steal()">Hello <b>Ann</b></p><script>alert(1)</script><a href="javascript:alert(2)">x</a> <a href="https://example.com/terms">terms</a><img src="https://t.example/p.gif">"#,
        );
        prepare(&mut o).unwrap();
        let html = o.body_html().unwrap();
        assert!(
            !html.contains("script") && !html.contains("alert"),
            "{html}"
        );
        assert!(
            !html.contains("onclick") && !html.contains("javascript:"),
            "{html}"
        );
        assert!(!html.contains("<img"), "{html}");
        assert!(html.contains("<b>Ann</b>") && html.contains("https://example.com/terms"));
        let text = o.body();
        assert!(text.contains("Hello Ann"), "{text}");
        assert!(text.contains("https://example.com/terms"), "{text}");
        assert_eq!(sanitize(html), html, "sanitizing is idempotent");
        // Prepared again (the engine re-checks edits): unchanged.
        let before = o.clone();
        prepare(&mut o).unwrap();
        assert_eq!(o, before);
    }

    #[test]
    fn hidden_characters_in_the_html_are_refused() {
        for bad in ["a\u{0}b", "a\u{202E}b", "a\u{200B}b", "a\u{1b}[31mb"] {
            let e = prepare(&mut mail(&format!("<p>{bad}</p>"))).unwrap_err();
            assert!(matches!(e, HtmlMailError::Hidden(_)), "{e:?}");
            assert_eq!(e.field(), "body_html");
        }
    }

    /// Everything sent must show in the operator's rendering: attributes that are never
    /// rendered (a tooltip, a quote's source, a table summary) would carry text unseen, and a
    /// direction override would make the recipient read digits in another order.
    #[test]
    fn only_markup_the_rendering_shows_is_kept() {
        let html = concat!(
            r#"<p lang="en" title="Patient Margaret Okafor MRN 00482913" dir="rtl">"#,
            r#"<span title="MRN 00482913">Thanks</span> <abbr title="t1">ab</abbr></p>"#,
            r#"<blockquote cite="https://t.example/?mrn=00482913">quoted</blockquote>"#,
            r#"<p>card <bdo dir="rtl">4321 0987</bdo> <bdi>iso</bdi> <del datetime="2026-01-01">not</del> ok</p>"#,
            r#"<a href="https://example.com/x" hreflang="x-00482913" title="t2">link</a>"#,
            r#"<table summary="t3"><tr><th abbr="t4" colspan="2">h</th></tr>"#,
            r#"<tr><td rowspan="2" headers="t5">c</td></tr></table>"#,
            r#"<ins cite="https://t.example/i" datetime="2026">new</ins><q cite="https://t.example/q">q</q>"#,
            r#"<time datetime="2026-02-02">today</time><ol start="7"><li>one</li></ol>"#,
        );
        let out = sanitize(html);
        for hidden in [
            "title",
            "lang",
            "dir=",
            "cite",
            "hreflang",
            "datetime",
            "summary",
            "abbr=",
            "headers",
            "start",
            "00482913",
            "t.example",
            "<bdo",
            "<bdi",
            "<del",
        ] {
            assert!(!out.contains(hidden), "`{hidden}` kept in {out}");
        }
        // Their text stays, in the order it was written.
        for text in [
            "Thanks",
            "quoted",
            "card 4321 0987 iso not ok",
            "today",
            "one",
        ] {
            assert!(out.contains(text), "`{text}` lost in {out}");
        }
        for kept in [
            r#"href="https://example.com/x""#,
            r#"colspan="2""#,
            r#"rowspan="2""#,
        ] {
            assert!(out.contains(kept), "`{kept}` dropped from {out}");
        }
        assert_eq!(sanitize(&out), out, "sanitizing is idempotent");
    }

    /// The whole rendering is what the operator, the bans and the boundary read: a tail past
    /// 50 000 characters (where link footnotes go) is kept, never cut.
    #[test]
    fn a_long_mail_is_rendered_whole_with_its_last_link() {
        let filler = "lorem ipsum ".repeat(6_000);
        let mut o = mail(&format!(
            r#"<p>{filler}</p><p>MRN 00482913 <a href="https://evil.example/x">here</a></p>"#
        ));
        prepare(&mut o).unwrap();
        let body = o.body();
        assert!(body.len() > 70_000, "{}", body.len());
        assert!(body.contains("MRN 00482913"), "tail cut");
        assert!(body.contains("https://evil.example/x"), "footnote cut");
        assert!(!body.ends_with('…'));
    }

    #[test]
    fn a_rendering_over_the_body_limit_is_refused_not_cut() {
        let filler = "lorem ipsum ".repeat(9_000); // 108 000 bytes of text
        let e = prepare(&mut mail(&format!("<p>{filler}</p>"))).unwrap_err();
        assert!(matches!(e, HtmlMailError::RenderingTooLong { .. }), "{e:?}");
        assert_eq!(e.field(), "body_html");
    }

    /// Size and depth are refused before any parser runs. The depth here is small (parsing it
    /// would be quick): the test shows the refusal, not a timing.
    #[test]
    fn oversized_or_deeply_nested_html_is_refused_before_parsing() {
        let deep = format!("{}x{}", "<div>".repeat(1_000), "</div>".repeat(1_000));
        let e = prepare(&mut mail(&deep)).unwrap_err();
        assert_eq!(e, HtmlMailError::TooDeep { limit: 256 });
        assert_eq!(e.field(), "body_html");
        // Unclosed formatting elements nest too (the parser re-opens them).
        let e = prepare(&mut mail(&"<b>x".repeat(300))).unwrap_err();
        assert!(matches!(e, HtmlMailError::TooDeep { .. }), "{e:?}");
        let big = format!("<p>{}</p>", "x".repeat(MAX_HTML_BYTES));
        let e = prepare(&mut mail(&big)).unwrap_err();
        assert!(matches!(e, HtmlMailError::TooLarge { .. }), "{e:?}");
        assert_eq!(e.field(), "body_html");
        // Ordinary nesting passes.
        let mut ok = mail(&format!("{}x{}", "<div>".repeat(50), "</div>".repeat(50)));
        prepare(&mut ok).unwrap();
        assert_eq!(ok.body(), "x");
    }

    #[test]
    fn an_edited_text_makes_a_plain_mail_of_exactly_that_text() {
        let mut o = mail("<p>Hello</p>");
        prepare(&mut o).unwrap();
        if let Some(b) = o.body_mut() {
            *b = "Hello, edited".into();
        }
        prepare(&mut o).unwrap();
        assert_eq!(o.body(), "Hello, edited");
        assert_eq!(o.body_html(), None);
    }
}
