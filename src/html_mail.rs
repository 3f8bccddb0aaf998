//! HTML mail bodies (`draft_email` `body_html`): sanitized once at the action boundary, with a
//! text rendering the operator reviews.
//!
//! The engine calls [`prepare`] on every draft it queues or edits, before the shape checks:
//! the HTML as given is refused if it carries NUL, control, bidi or zero-width characters (the
//! same rule as `body`), then cleaned with `ammonia` (an allow-list sanitizer built on the
//! html5ever parser: no `<script>`/`<style>` content, no event-handler attributes, only
//! `http`, `https` and `mailto` links, no relative URLs, no images), and `body` becomes its
//! text rendering with every link's address listed, so the operator sees where links point.
//! The draft then carries both; the digest covers both; Graph is sent exactly `body_html`.
//!
//! An edit that changes the text rendering (the console and `opsdesk drafts edit` edit the
//! text) makes the mail plain text: the operator's words are what is sent, never HTML they did
//! not see.

use std::collections::HashSet;

use crate::domain::Outbound;
use crate::sanitize::{OutboundTextError, check_outbound_field, clean_text};

/// What the console and `opsdesk drafts show` say above an HTML mail's text.
pub const REVIEW_NOTE: &str =
    "HTML mail: shown as its text rendering (links as numbered footnotes); sent as sanitized HTML";

/// Longest text rendering kept (the engine's body limit is 100 000 bytes).
const MAX_TEXT_CHARS: usize = 50_000;
/// Wrap width of the rendering (long lines are not wrapped: overflow allowed).
const RENDER_WIDTH: usize = 100;

/// Tags removed with their content on top of ammonia's defaults. Images: a remote image is a
/// tracker the operator cannot review in the text rendering.
const REMOVED_TAGS: &[&str] = &["img"];
/// The only link schemes kept (`javascript:`, `data:`, `vbscript:`, … are dropped).
const URL_SCHEMES: &[&str] = &["http", "https", "mailto"];

/// The sanitized form of untrusted HTML. Idempotent: sanitizing the result again changes
/// nothing, so re-checking a stored draft is stable.
pub fn sanitize(html: &str) -> String {
    ammonia::Builder::default()
        .rm_tags(REMOVED_TAGS.iter().copied())
        .url_schemes(URL_SCHEMES.iter().copied().collect::<HashSet<_>>())
        .url_relative(ammonia::UrlRelative::Deny)
        .clean(html)
        .to_string()
}

/// The text the operator reads for (sanitized) `html`: markup dropped, links as numbered
/// footnotes with their addresses, then [`clean_text`].
pub fn text_rendering(html: &str) -> String {
    let text = html2text::config::plain_no_decorate()
        .allow_width_overflow()
        .link_footnotes(true)
        .no_table_borders()
        .string_from_read(html.as_bytes(), RENDER_WIDTH)
        .unwrap_or_else(|_| crate::sanitize::html_to_text(html, MAX_TEXT_CHARS));
    clean_text(&text, MAX_TEXT_CHARS)
}

/// Sanitize the HTML of an HTML mail and derive its text rendering into `body` (see the
/// module doc for the edit rule). Other outbound kinds and plain mails are left alone.
pub fn prepare(o: &mut Outbound) -> Result<(), OutboundTextError> {
    let Some(raw) = o.body_html().map(str::to_string) else {
        return Ok(());
    };
    // The input as given: hidden characters are refused, never silently dropped.
    check_outbound_field("body_html", &raw, true)?;
    let clean = sanitize(&raw);
    let rendering = text_rendering(&clean);
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
            assert_eq!(e.field, "body_html");
        }
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
