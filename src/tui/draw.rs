//! `draw(&App, &mut Frame)`: a pure function of the state. Lists render only the rows on
//! screen, so the cost of a frame does not depend on the size of the inbox.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::style::Style;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::app::{App, Pane};
use super::msg::Level;
use super::{overlay, panes};

/// Height of the inbox list's inner area for a body of `body_h` rows (shared with `App` so
/// that paging and scrolling agree with what is drawn).
pub(crate) fn inbox_list_height(body_h: u16) -> u16 {
    inbox_split_heights(body_h).0.saturating_sub(2)
}

/// (list block, preview block) heights.
pub(crate) fn inbox_split_heights(body_h: u16) -> (u16, u16) {
    let list = if body_h < 12 { body_h } else { body_h * 3 / 5 };
    (list, body_h - list)
}

pub fn draw(app: &App, f: &mut Frame) {
    if super::layout::too_small((f.area().width, f.area().height)) {
        draw_too_small(app, f);
        return;
    }
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
        Pane::Deals => panes::deals::render(app, f, body),
    }
    draw_message(app, f, msg);
    draw_status(app, f, status);
    overlay::render(app, f);
}

/// Below the minimum size: say so (and what is failing) instead of a layout with parts
/// silently missing.
fn draw_too_small(app: &App, f: &mut Frame) {
    use super::layout::{MIN_H, MIN_W};
    let t = &app.theme;
    let a = f.area();
    let mut lines = vec![
        Line::from(Span::styled("Terminal too small", t.warn)),
        Line::from(Span::styled(
            format!("{}x{}; opsdesk needs {MIN_W}x{MIN_H}.", a.width, a.height),
            t.text,
        )),
        Line::from(Span::styled("Enlarge the window, or q to quit.", t.muted)),
    ];
    let failing = app.failing();
    if !failing.is_empty() {
        lines.push(Line::from(Span::styled(
            format!("FAILING: {}", failing.join(", ")),
            t.error,
        )));
    }
    f.render_widget(
        Paragraph::new(lines).wrap(ratatui::widgets::Wrap { trim: true }),
        a,
    );
}

fn draw_tabs(app: &App, f: &mut Frame, area: Rect) {
    let t = &app.theme;
    let (prefix, tabs) = super::layout::tabs(app);
    let mut spans = Vec::new();
    let mut used = 0usize;
    if let Some(p) = prefix {
        used += p.chars().count();
        spans.push(Span::styled(p, t.title));
    }
    for (p, label, start, end) in tabs {
        // Brackets mark the active pane even without colour.
        if p == app.pane {
            spans.push(Span::styled(format!("[{label}]"), t.selection));
        } else {
            spans.push(Span::styled(format!(" {label} "), t.muted));
        }
        spans.push(Span::raw(" "));
        used = used.max(end as usize + 1).max(start as usize);
    }
    let help = app
        .keymap
        .key_for(app.pane.section(), super::keymap::Act::Help);
    let tail = format!("  {help} help");
    if used + tail.chars().count() <= area.width as usize {
        spans.push(Span::styled(tail, t.muted));
    }
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}

fn draw_message(app: &App, f: &mut Frame, area: Rect) {
    let t = &app.theme;
    // While the assistant works, its progress owns the line (an error still shows after it).
    if let Some(progress) = super::health::jobs_line(&app.jobs) {
        let cancel = app
            .keymap
            .key_for(app.pane.section(), super::keymap::Act::CancelJobs);
        let mut spans = vec![Span::styled(
            format!(" ⟳ {progress} · {cancel} cancels"),
            t.title,
        )];
        if let Some((Level::Error, m)) = &app.message {
            spans.push(Span::styled(format!("  ✗ {m}"), t.error));
        }
        f.render_widget(Paragraph::new(Line::from(spans)), area);
        return;
    }
    let line = match &app.message {
        Some((Level::Error, m)) => {
            // Cut to the width, the cut says where the rest is.
            let text = format!(" ✗ {m}");
            let width = area.width as usize;
            let text = if text.chars().count() > width {
                let log = app
                    .keymap
                    .key_for(app.pane.section(), super::keymap::Act::Messages);
                let more = format!(" ({log}: full text)");
                let keep = width.saturating_sub(more.chars().count());
                format!("{}{more}", panes::fit(&text, keep))
            } else {
                text
            };
            Line::from(Span::styled(text, t.error))
        }
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
            // Fits 80 columns; the rest is in `?`.
            " {} filter · {} reply · {} ask assistant · {} triage · {} read · {} health · {} keys",
            k(Act::Filter),
            k(Act::DraftReply),
            k(Act::AskReply),
            k(Act::RunTriage),
            k(Act::MarkRead),
            k(Act::Health),
            k(Act::Help)
        ),
        Pane::Brief => format!(
            " {}/{} profile · {}/{} scroll · {} full text · {} regenerate",
            k(Act::Down),
            k(Act::Up),
            k(Act::PageDown),
            k(Act::PageUp),
            k(Act::Details),
            k(Act::Regenerate)
        ),
        Pane::Drafts => format!(
            " {} approve · {} reject · {} mark · {} edit · {} re-queue · {} details · {} show decided · {} sort by age",
            k(Act::Approve),
            k(Act::Reject),
            k(Act::Mark),
            k(Act::Edit),
            k(Act::Requeue),
            k(Act::Details),
            k(Act::ShowAll),
            k(Act::SortAge)
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
        Pane::Deals => format!(
            " {}/{} select · `opsdesk deals link|stage` changes a deal",
            k(Act::Down),
            k(Act::Up)
        ),
    }
}

/// The status bar, most important first so that a narrow terminal cuts the least useful
/// end: health (what fails, and which entities' LLM work is blocked), then unread and waiting
/// drafts, then the MCP server and the default provider.
fn draw_status(app: &App, f: &mut Frame, area: Rect) {
    let t = &app.theme;
    let s = &app.status;
    let width = area.width as usize;
    let health_key = app
        .keymap
        .key_for(app.pane.section(), super::keymap::Act::Health);
    let mut spans = Vec::new();
    let mut used = 0usize;
    let mut push = |spans: &mut Vec<Span<'static>>, text: String, style: Style| {
        let n = text.chars().count();
        if used >= width {
            return;
        }
        let text = if used + n > width {
            panes::fit(&text, width - used)
        } else {
            text
        };
        used += text.chars().count();
        spans.push(Span::styled(text, style));
    };
    let failing = app.failing();
    let blocked = app.blocked_entities();
    if failing.is_empty() && blocked.is_empty() {
        push(&mut spans, " ✓ all ok ".into(), t.status);
    } else {
        let mut what = failing.clone();
        if !blocked.is_empty() {
            what.push(format!("LLM blocked: {}", blocked.join(", ")));
        }
        push(
            &mut spans,
            format!(" !! {} ({health_key} why) ", what.join(" · ")),
            t.error,
        );
    }
    push(
        &mut spans,
        format!("│ unread {} ", app.inbox.unread()),
        t.status,
    );
    let waiting = app.drafts.pending();
    if waiting > 0 {
        push(&mut spans, format!("│ {waiting} to approve "), t.status);
    }
    let mcp = match (&s.mcp_url, &s.mcp_error) {
        (Some(url), _) => format!(
            "│ MCP {} · {} client{} ",
            url.trim_start_matches("http://"),
            s.clients.len(),
            if s.clients.len() == 1 { "" } else { "s" }
        ),
        (None, Some(_)) => "│ MCP off (error) ".to_string(),
        (None, None) => "│ MCP off ".to_string(),
    };
    push(&mut spans, mcp, t.status);
    let sources = s.sources.values().filter(|h| h.ok).count();
    push(
        &mut spans,
        format!("│ {sources}/{} sources ok ", s.sources.len()),
        t.status,
    );
    push(
        &mut spans,
        format!("│ LLM {} ", app.default_provider().unwrap_or("none")),
        t.status,
    );
    f.render_widget(
        Paragraph::new(Line::from(spans)).style(Style::default().patch(t.status)),
        area,
    );
}
