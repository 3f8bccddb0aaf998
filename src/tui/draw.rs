//! `draw(&App, &mut Frame)`: a pure function of the state. Lists render only the rows on
//! screen, so the cost of a frame does not depend on the size of the inbox.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::app::{App, Level, Pane};
use super::{overlay, panes};

/// Height of the inbox list's inner area for a body of `body_h` rows (shared with `App` so
/// that paging and scrolling agree with what is drawn).
pub fn inbox_list_height(body_h: u16) -> u16 {
    inbox_split_heights(body_h).0.saturating_sub(2)
}

/// (list block, preview block) heights.
pub fn inbox_split_heights(body_h: u16) -> (u16, u16) {
    let list = if body_h < 12 { body_h } else { body_h * 3 / 5 };
    (list, body_h - list)
}

pub fn draw(app: &App, f: &mut Frame) {
    let [tabs, body, msg, status] = Layout::vertical([
        Constraint::Length(1),
        Constraint::Min(0),
        Constraint::Length(1),
        Constraint::Length(1),
    ])
    .areas(f.area());
    draw_tabs(app, f, tabs);
    match app.pane {
        Pane::Inbox => panes::inbox::render(app, f, body),
        Pane::Brief => panes::brief::render(app, f, body),
        Pane::Drafts => panes::drafts::render(app, f, body),
        Pane::Providers => panes::providers::render(app, f, body),
        Pane::Audit => panes::audit::render(app, f, body),
    }
    draw_message(app, f, msg);
    draw_status(app, f, status);
    overlay::render(app, f);
}

fn draw_tabs(app: &App, f: &mut Frame, area: Rect) {
    let t = &app.theme;
    let mut spans = vec![Span::styled(" opsdesk ", t.title)];
    for (i, p) in Pane::ALL.iter().enumerate() {
        let extra = match p {
            Pane::Drafts if app.drafts.pending() > 0 => format!(" ({})", app.drafts.pending()),
            Pane::Inbox if app.inbox.unread() > 0 => format!(" ({})", app.inbox.unread()),
            _ => String::new(),
        };
        let label = format!("{} {}{}", i + 1, p.title(), extra);
        // Brackets mark the active pane even without colour.
        if *p == app.pane {
            spans.push(Span::styled(format!("[{label}]"), t.selection));
        } else {
            spans.push(Span::styled(format!(" {label} "), t.muted));
        }
        spans.push(Span::raw(" "));
    }
    let help = app
        .keymap
        .key_for(app.pane.section(), super::keymap::Act::Help);
    spans.push(Span::styled(format!("  {help} help"), t.muted));
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn draw_message(app: &App, f: &mut Frame, area: Rect) {
    let t = &app.theme;
    let line = match &app.message {
        Some((Level::Error, m)) => Line::from(Span::styled(format!(" ✗ {m}"), t.error)),
        Some((Level::Warn, m)) => Line::from(Span::styled(format!(" ! {m}"), t.warn)),
        Some((Level::Info, m)) => Line::from(Span::styled(format!(" {m}"), t.text)),
        None => Line::from(Span::styled(hint(app), t.muted)),
    };
    f.render_widget(Paragraph::new(line), area);
}

fn hint(app: &App) -> String {
    use super::keymap::Act;
    let k = |a| app.keymap.key_for(app.pane.section(), a);
    match app.pane {
        Pane::Inbox => format!(
            " {} filter · {} reply draft · {} mark read · {} details",
            k(Act::Filter),
            k(Act::DraftReply),
            k(Act::MarkRead),
            k(Act::Details)
        ),
        Pane::Brief => format!(" {} regenerate", k(Act::Regenerate)),
        Pane::Drafts => format!(
            " {} approve · {} reject · {} edit · {} details · {} show decided",
            k(Act::Approve),
            k(Act::Reject),
            k(Act::Edit),
            k(Act::Details),
            k(Act::ShowAll)
        ),
        Pane::Providers => format!(
            " {} enable/disable · {} set default",
            k(Act::ToggleEnabled),
            k(Act::SetDefault)
        ),
        Pane::Audit => format!(
            " {} filter · {} outcome · {} verify chain",
            k(Act::Filter),
            k(Act::CycleOutcome),
            k(Act::Verify)
        ),
    }
}

fn draw_status(app: &App, f: &mut Frame, area: Rect) {
    let t = &app.theme;
    let s = &app.status;
    let mut spans = Vec::new();
    let mcp = match (&s.mcp_url, &s.mcp_error) {
        (Some(url), _) => format!(
            " MCP {url} · {} client{} ",
            s.clients.len(),
            if s.clients.len() == 1 { "" } else { "s" }
        ),
        (None, Some(_)) => " MCP off (error) ".to_string(),
        (None, None) => " MCP off ".to_string(),
    };
    spans.push(Span::styled(mcp, t.status));
    let sources: Vec<String> = s
        .sources
        .values()
        .map(|h| {
            if h.ok {
                format!("{} ok", h.name)
            } else {
                format!("{} FAIL", h.name)
            }
        })
        .collect();
    let sources = if sources.is_empty() {
        "no pollers".to_string()
    } else {
        sources.join(" ")
    };
    spans.push(Span::styled(format!("│ {sources} "), t.status));
    spans.push(Span::styled(
        format!("│ unread {} ", app.inbox.unread()),
        t.status,
    ));
    spans.push(Span::styled(
        format!("│ default {} ", app.default_provider().unwrap_or("none")),
        t.status,
    ));
    let failing = app.failing();
    if failing.is_empty() {
        spans.push(Span::styled("│ all ok ", t.status));
    } else {
        spans.push(Span::styled(
            format!(" !! FAILING: {} ", failing.join(", ")),
            t.error,
        ));
    }
    f.render_widget(
        Paragraph::new(Line::from(spans)).style(Style::default().patch(t.status)),
        area,
    );
}
