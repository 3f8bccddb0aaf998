//! The confirmation asked before approving anything that sends or posts.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

use crate::tui::app::App;
use crate::tui::panes::block;

pub fn render(app: &App, f: &mut Frame, area: Rect, title: &str, lines: &[String]) {
    let t = &app.theme;
    let mut out: Vec<Line> = lines
        .iter()
        .map(|l| Line::from(Span::styled(crate::sanitize::for_terminal(l), t.text)))
        .collect();
    if let Some(last) = out.last_mut() {
        *last = Line::from(Span::styled(
            lines.last().cloned().unwrap_or_default(),
            t.warn,
        ));
    }
    f.render_widget(Clear, area);
    f.render_widget(
        Paragraph::new(out)
            .wrap(Wrap { trim: false })
            .block(block(t, format!(" {title} "))),
        area,
    );
}
