//! Drafts: the approval queue and the selected draft in full.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::{block, fit, header, row, sub_block};
use crate::domain::{DraftStatus, Verdict};
use crate::tui::app::{App, draft_lines};

pub fn render(app: &App, f: &mut Frame, area: Rect) {
    let t = &app.theme;
    let v = &app.drafts;
    let [list_area, detail_area] =
        Layout::vertical([Constraint::Percentage(45), Constraint::Min(0)]).areas(area);
    let vis = v.visible();
    let mut title = format!(
        " Drafts · {} pending · {} ",
        v.pending(),
        if v.show_all { "all" } else { "undecided" }
    );
    if !v.filter.is_empty() {
        title.push_str(&format!("· filter: {} ", v.filter));
    }
    let inner_h = list_area.height.saturating_sub(2) as usize;
    let width = list_area.width.saturating_sub(4) as usize;
    let mut lines = vec![header(
        t,
        fit(
            &format!(
                "{:<9} {:<8} {:<12} {:<26} {:<8} {:<18} {:<13}",
                "STATUS", "PROFILE", "KIND", "RECIPIENTS", "VERDICT", "PROVIDER (BY)", "ID"
            ),
            width,
        ),
    )];
    let rows_h = inner_h.saturating_sub(1);
    let offset = crate::tui::app::follow(v.sel, 0, rows_h);
    for (i, d) in vis.iter().enumerate().skip(offset).take(rows_h) {
        let verdict = match &d.verdict {
            Verdict::Run => "run",
            Verdict::Queue { .. } => "queue",
            Verdict::Block { .. } => "block",
        };
        let by = format!(
            "{} ({})",
            d.provider.as_deref().unwrap_or("—"),
            d.created_by
        );
        let text = format!(
            "{} {} {} {} {} {} {}",
            fit(d.status.as_str(), 9),
            fit(&d.profile, 8),
            fit(d.outbound.kind(), 12),
            fit(&d.outbound.recipients().join(", "), 26),
            fit(verdict, 8),
            fit(&by, 18),
            d.id
        );
        let style = match d.status {
            DraftStatus::Pending => t.unread,
            DraftStatus::Approved | DraftStatus::Executed => t.ok,
            DraftStatus::Rejected => t.muted,
            DraftStatus::Failed => t.error,
        };
        lines.push(row(
            t,
            i == v.sel,
            fit(&crate::sanitize::for_terminal(&text), width),
            style,
        ));
    }
    if vis.is_empty() {
        let msg = if v.loaded {
            "Nothing waits for approval. Drafts from MCP clients and the console appear here."
        } else {
            "loading…"
        };
        lines.push(Line::from(Span::styled(format!("  {msg}"), t.muted)));
    }
    f.render_widget(Paragraph::new(lines).block(block(t, title)), list_area);

    if detail_area.height == 0 {
        return;
    }
    let (title, lines) = match vis.get(v.sel) {
        Some(d) => (
            format!(" Draft {} ", d.id),
            draft_lines(d, app.tz)
                .into_iter()
                .map(|l| Line::from(Span::styled(crate::sanitize::for_terminal(&l), t.text)))
                .collect(),
        ),
        None => (" Draft ".to_string(), Vec::new()),
    };
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(sub_block(t, title)),
        detail_area,
    );
}
