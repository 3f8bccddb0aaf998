//! Audit: the live tail of the hash-chained trail, filterable, with the chain's status.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{block, fit, header, row};
use crate::domain::AuditOutcome;
use crate::tui::app::{App, fmt_time};

pub fn render(app: &App, f: &mut Frame, area: Rect) {
    let t = &app.theme;
    let a = &app.audit;
    let vis = a.visible();
    let mut title = format!(" Audit · {} shown ", vis.len());
    if let Some(o) = a.outcome {
        title.push_str(&format!("· outcome: {} ", o.as_str()));
    }
    if !a.filter.is_empty() {
        title.push_str(&format!("· filter: {} ", a.filter));
    }
    let width = area.width.saturating_sub(4) as usize;
    let chain = match &a.chain {
        None => Line::from(Span::styled("  chain: not verified yet", t.muted)),
        Some(c) if c.ok => Line::from(Span::styled(format!("  chain: {}", c.text), t.ok)),
        Some(c) => Line::from(Span::styled(format!("  chain: {}", c.text), t.error)),
    };
    let mut lines = vec![
        chain,
        header(
            t,
            fit(
                &format!(
                    "{:<11} {:<20} {:<22} {:<8} {:<8} {:<16} {}",
                    "TIME", "EVENT", "ACTOR", "OUTCOME", "ENTITY", "TARGET", "REASON"
                ),
                width,
            ),
        ),
    ];
    let rows_h = (area.height.saturating_sub(4)) as usize;
    let offset = crate::tui::app::follow(a.sel, a.offset, rows_h);
    for (i, r) in vis.iter().enumerate().skip(offset).take(rows_h) {
        let e = &r.event;
        let time = fmt_time(r.ts, app.tz);
        let text = format!(
            "{:<11} {} {} {} {} {} {}",
            time.get(5..).unwrap_or(&time),
            fit(&e.event, 20),
            fit(&e.actor, 22),
            fit(e.outcome.as_str(), 8),
            fit(e.entity.as_deref().unwrap_or("—"), 8),
            fit(e.target.as_deref().unwrap_or("—"), 16),
            e.reason.as_deref().unwrap_or("")
        );
        let style = match e.outcome {
            AuditOutcome::Ok => t.text,
            AuditOutcome::Denied | AuditOutcome::Blocked => t.warn,
            AuditOutcome::Error => t.error,
        };
        lines.push(row(
            t,
            i == a.sel,
            fit(&crate::sanitize::for_terminal(&text), width),
            style,
        ));
    }
    f.render_widget(Paragraph::new(lines).block(block(t, title)), area);
}
