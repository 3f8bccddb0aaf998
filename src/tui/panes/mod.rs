//! One module per pane, the gitui way: each holds its pane's state (`InboxView`,
//! `DraftsView`, …), the handlers of its keys and what arrives for it, and its drawing.
//! Drawing (`render`) reads `&App` and draws into its area, nothing else.

pub(crate) mod audit;
pub(crate) mod brief;
pub(crate) mod deals;
pub(crate) mod drafts;
pub(crate) mod inbox;
pub(crate) mod providers;

use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Block, Borders};

use super::theme::Theme;

/// `s` cut or padded to exactly `w` characters (cut text ends in `…`).
pub fn fit(s: &str, w: usize) -> String {
    let n = s.chars().count();
    if n <= w {
        let mut out = s.to_string();
        out.extend(std::iter::repeat_n(' ', w - n));
        out
    } else if w == 0 {
        String::new()
    } else {
        let mut out: String = s.chars().take(w - 1).collect();
        out.push('…');
        out
    }
}

pub fn block<'a>(theme: &Theme, title: String) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border_focus)
        .title(Span::styled(title, theme.title))
}

pub fn sub_block<'a>(theme: &Theme, title: String) -> Block<'a> {
    Block::default()
        .borders(Borders::ALL)
        .border_style(theme.border)
        .title(Span::styled(title, theme.title))
}

/// A list row: the `>` marker (kept without colour, for NO_COLOR) and the selection style.
pub fn row<'a>(theme: &Theme, selected: bool, text: String, style: Style) -> Line<'a> {
    if selected {
        Line::from(Span::styled(format!("> {text}"), theme.selection))
    } else {
        Line::from(Span::styled(format!("  {text}"), style))
    }
}

pub fn header<'a>(theme: &Theme, text: String) -> Line<'a> {
    Line::from(Span::styled(format!("  {text}"), theme.muted))
}
