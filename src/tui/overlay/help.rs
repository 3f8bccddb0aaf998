//! `?`: generated from the keymap's own descriptions.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph};

use crate::tui::app::App;
use crate::tui::keymap::Section;
use crate::tui::panes::{block, fit};

pub fn render(app: &App, f: &mut Frame, area: Rect, scroll: u16) {
    let t = &app.theme;
    let mut lines = Vec::new();
    let mut last: Option<Section> = None;
    for (sec, keys, help) in app.keymap.help() {
        if last != Some(sec) {
            if last.is_some() {
                lines.push(Line::from(""));
            }
            let name = match sec {
                Section::Global => "Everywhere".to_string(),
                s => format!("{} pane", capitalize(s.name())),
            };
            lines.push(Line::from(Span::styled(name, t.title)));
            last = Some(sec);
        }
        lines.push(Line::from(vec![
            Span::styled(format!("  {}", fit(&keys, 18)), t.accent),
            Span::styled(help, t.text),
        ]));
    }
    f.render_widget(Clear, area);
    f.render_widget(
        Paragraph::new(lines).scroll((scroll, 0)).block(block(
            t,
            " Help — keys (j/k scroll, any other key closes) ".into(),
        )),
        area,
    );
}

fn capitalize(s: &str) -> String {
    let mut c = s.chars();
    match c.next() {
        Some(f) => f.to_uppercase().collect::<String>() + c.as_str(),
        None => String::new(),
    }
}
