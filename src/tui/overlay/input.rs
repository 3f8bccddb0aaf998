//! One-line input: filter (`/`), command line (`:`), rejection reason, reply body.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

use crate::tui::app::App;
use crate::tui::panes::block;

pub fn render(app: &App, f: &mut Frame, area: Rect, title: &str, buf: &str) {
    let t = &app.theme;
    // Show the end of a long input, which is where the typing happens.
    let room = area.width.saturating_sub(5) as usize;
    let n = buf.chars().count();
    let shown: String = buf.chars().skip(n.saturating_sub(room)).collect();
    f.render_widget(Clear, area);
    f.render_widget(
        Paragraph::new(Line::from(vec![
            Span::styled("> ", t.accent),
            Span::styled(shown, t.text),
            Span::styled("█", t.accent),
        ]))
        .block(block(t, format!(" {title} "))),
        area,
    );
}
