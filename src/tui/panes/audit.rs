//! Audit: the live tail of the hash-chained trail, filterable, with the chain's status.

use std::collections::VecDeque;

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

use super::{block, fit, header, row};
use crate::domain::{AuditOutcome, AuditRecord};
use crate::tui::app::App;
use crate::tui::layout::follow;
use crate::tui::msg::{ChainStatus, Effect, Level, Req};
use crate::tui::text::fmt_time;

pub fn render(app: &App, f: &mut Frame, area: Rect) {
    let t = &app.theme;
    let a = &app.audit;
    let vis = a.visible();
    let mut title = if a.filter.is_empty() && a.outcome.is_none() {
        format!(" Audit · {} records loaded ", a.records.len())
    } else {
        format!(" Audit · {} of {} ", vis.len(), a.records.len())
    };
    if let Some(o) = a.outcome {
        title.push_str(&format!("· outcome: {} ", o.as_str()));
    }
    if !a.filter.is_empty() {
        title.push_str(&format!("· filter: {} ", a.filter));
    }
    let width = area.width.saturating_sub(4) as usize;
    let verify = app
        .keymap
        .key_for(app.pane.section(), crate::tui::keymap::Act::Verify);
    let chain = match &a.chain {
        None => Line::from(Span::styled(
            format!("  chain: not verified yet ({verify} verifies)"),
            t.muted,
        )),
        Some(c) => {
            // Records appended since the verification are not covered by it: say so rather
            // than call a long trail "intact (0 records)".
            let newest = a.records.front().map_or(0, |r| r.seq);
            let since = newest.saturating_sub(c.records);
            let mut text = format!("  chain: {}", c.text);
            if let Some(at) = c.at {
                text.push_str(&format!(" (verified {})", fmt_time(at, app.tz)));
            }
            if since > 0 && c.ok {
                text.push_str(&format!(
                    " · {since} newer record{} not verified yet ({verify})",
                    if since == 1 { "" } else { "s" }
                ));
            }
            Line::from(Span::styled(text, if c.ok { t.ok } else { t.error }))
        }
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
    let offset = follow(a.sel, a.offset, rows_h);
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
    if vis.is_empty() {
        let msg = if a.records.is_empty() {
            "No audit records yet."
        } else {
            "Nothing matches. / changes the filter, o the outcome, Esc clears both."
        };
        lines.push(Line::from(Span::styled(format!("  {msg}"), t.muted)));
    }
    f.render_widget(Paragraph::new(lines).block(block(t, title)), area);
}

/// Audit records kept for the live tail.
pub const AUDIT_CAP: usize = 5000;
#[derive(Debug, Clone, Default)]
pub struct AuditView {
    /// Newest first.
    pub records: VecDeque<AuditRecord>,
    pub filter: String,
    pub outcome: Option<AuditOutcome>,
    pub sel: usize,
    pub offset: usize,
    pub chain: Option<ChainStatus>,
}

impl AuditView {
    pub fn visible(&self) -> Vec<&AuditRecord> {
        let f = self.filter.to_lowercase();
        let (event_f, text_f): (Vec<&str>, Vec<&str>) =
            f.split_whitespace().partition(|t| t.starts_with("event:"));
        self.records
            .iter()
            .filter(|r| self.outcome.is_none_or(|o| r.event.outcome == o))
            .filter(|r| {
                event_f
                    .iter()
                    .all(|t| r.event.event.starts_with(t.trim_start_matches("event:")))
            })
            .filter(|r| {
                text_f.iter().all(|t| {
                    [
                        r.event.event.as_str(),
                        r.event.actor.as_str(),
                        r.event.outcome.as_str(),
                        r.event.target.as_deref().unwrap_or(""),
                        r.event.entity.as_deref().unwrap_or(""),
                        r.event.reason.as_deref().unwrap_or(""),
                    ]
                    .iter()
                    .any(|h| h.to_lowercase().contains(t))
                })
            })
            .collect()
    }
}

impl App {
    pub(in crate::tui) fn audit_list_height(&self) -> usize {
        (self.size.1.saturating_sub(3 + 2 + 1) as usize).max(1)
    }
}

impl App {
    pub(in crate::tui) fn cycle_outcome(&mut self) {
        self.audit.outcome = match self.audit.outcome {
            None => Some(AuditOutcome::Ok),
            Some(AuditOutcome::Ok) => Some(AuditOutcome::Denied),
            Some(AuditOutcome::Denied) => Some(AuditOutcome::Blocked),
            Some(AuditOutcome::Blocked) => Some(AuditOutcome::Error),
            Some(AuditOutcome::Error) => None,
        };
        self.audit.sel = 0;
        self.audit.offset = 0;
    }
    /// `v` / `:verify` from any pane; the answer is said in the message line wherever the
    /// operator is, and shown in the Audit pane's chain line.
    pub(in crate::tui) fn verify(&mut self, fx: &mut Vec<Effect>) {
        self.verify_asked = true;
        let previous = self.audit.chain.as_ref().map_or(0, |c| c.records);
        self.audit.chain = Some(ChainStatus {
            ok: true,
            text: "verifying…".into(),
            records: previous,
            at: None,
        });
        self.say(Level::Info, "verifying the audit chain…");
        fx.push(Effect::Req(Req::Verify));
    }
}
