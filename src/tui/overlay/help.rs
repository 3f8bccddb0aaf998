//! `?`: generated from the keymap's own descriptions, grouped by purpose, the current pane's
//! keys first; an "About" block says where the data lives and how the mouse works.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

use crate::tui::app::{App, zone_name};
use crate::tui::panes::{block, fit};

pub fn render(app: &App, f: &mut Frame, area: Rect, scroll: u16) {
    let t = &app.theme;
    let mut lines = Vec::new();
    for (i, (title, entries)) in app
        .keymap
        .help_for(app.pane.section())
        .into_iter()
        .enumerate()
    {
        if i > 0 {
            lines.push(Line::from(""));
        }
        lines.push(Line::from(Span::styled(title, t.title)));
        for (keys, help) in entries {
            lines.push(Line::from(vec![
                Span::styled(format!("  {}", fit(&keys, 18)), t.accent),
                Span::styled(help, t.text),
            ]));
        }
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
            format!(
                " Help · {} pane first (j/k scroll, any other key closes) ",
                app.pane.title()
            ),
        )),
        area,
    );
}
