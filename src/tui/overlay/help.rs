//! `?`: generated from the keymap's own descriptions, grouped by purpose, the current pane's
//! keys first; an "About" block says where the data lives and how the mouse works.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

use crate::tui::app::App;
use crate::tui::panes::{block, fit};
use crate::tui::text::zone_name;

pub fn render(app: &App, f: &mut Frame, area: Rect, scroll: u16, filter: &str, typing: bool) {
    let t = &app.theme;
    let mut lines = Vec::new();
    let needle = filter.to_lowercase();
    let mut groups = 0;
    for (title, entries) in app.keymap.help_for(app.pane.section()) {
        let entries: Vec<_> = entries
            .into_iter()
            .filter(|(keys, help)| {
                needle.is_empty()
                    || keys.to_lowercase().contains(&needle)
                    || help.to_lowercase().contains(&needle)
            })
            .collect();
        if entries.is_empty() {
            continue;
        }
        if groups > 0 {
            lines.push(Line::from(""));
        }
        groups += 1;
        lines.push(Line::from(Span::styled(title, t.title)));
        for (keys, help) in entries {
            lines.push(Line::from(vec![
                Span::styled(format!("  {}", fit(&keys, 18)), t.accent),
                Span::styled(help, t.text),
            ]));
        }
    }
    if groups == 0 {
        lines.push(Line::from(Span::styled(
            format!(
                "  no key matches \"{}\"",
                crate::sanitize::for_terminal(filter)
            ),
            t.text,
        )));
    }
    lines.push(Line::from(""));
    lines.push(Line::from(Span::styled("About", t.title)));
    let about = [
        format!(
            "  data dir   {}",
            app.data_dir.as_deref().unwrap_or("(unknown)")
        ),
        format!(
            "  MCP        {}",
            app.status.mcp_url.as_deref().unwrap_or("off")
        ),
        format!("  times      {} (the item's own time)", zone_name(app.tz)),
        format!("  theme      {}", app.theme.name),
        format!(
            "  mouse      {} (click selects, wheel scrolls; Shift+drag or F2 for text selection)",
            if app.mouse { "on" } else { "off" }
        ),
    ];
    for a in about {
        lines.push(Line::from(Span::styled(
            crate::sanitize::for_terminal(&a),
            t.text,
        )));
    }
    f.render_widget(Clear, area);
    f.render_widget(
        Paragraph::new(lines).scroll((scroll, 0)).block(block(
            t,
            if typing || !filter.is_empty() {
                format!(
                    " Help · search: {}{} (Enter keeps, Esc clears) ",
                    crate::sanitize::for_terminal(filter),
                    if typing { "_" } else { "" }
                )
            } else {
                format!(
                    " Help · {} pane first (/ searches, j/k scroll, any other key closes) ",
                    app.pane.title()
                )
            },
        )),
        area,
    );
}
