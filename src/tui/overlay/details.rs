//! `Enter`: the selected item in full.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

use crate::tui::app::App;
use crate::tui::panes::block;

pub fn render(app: &App, f: &mut Frame, area: Rect, title: &str, lines: &[String], scroll: u16) {
    let t = &app.theme;
    let lines: Vec<Line> = lines
        .iter()
        .map(|l| Line::from(Span::styled(l.clone(), t.text)))
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
