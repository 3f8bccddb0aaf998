//! `Enter`: the selected item in full; a message's picked attachment is marked `▸`.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

use crate::tui::app::{App, AttachPick};
use crate::tui::panes::block;

pub fn render(
    app: &App,
    f: &mut Frame,
    area: Rect,
    title: &str,
    lines: &[String],
    scroll: u16,
    pick: Option<&AttachPick>,
) {
    let t = &app.theme;
    let picked = pick.map(|p| p.first_line + p.sel);
    let lines: Vec<Line> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| match (picked == Some(i), l.strip_prefix("  ")) {
            (true, Some(rest)) => Line::from(Span::styled(format!("▸ {rest}"), t.selection)),
            _ => Line::from(Span::styled(l.clone(), t.text)),
        })
        .collect();
    f.render_widget(Clear, area);
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((scroll, 0))
            .block(block(
                t,
                format!(" {title} (j/k scroll, any other key closes) "),
            )),
        area,
    );
}
