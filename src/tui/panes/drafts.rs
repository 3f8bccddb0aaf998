//! Drafts: the approval queue and the selected draft in full.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::{block, fit, header, row, sub_block};
use crate::domain::{DraftStatus, Verdict};
use crate::tui::app::{App, age_text, draft_life, draft_lines, draft_outlook, zone_name};
use crate::tui::layout::drafts_split;

/// Column widths for a list `width` characters wide: the id always shows; recipients and
/// the author share what is left; the verdict column only where there is room.
struct Cols {
    recipients: usize,
    by: usize,
    verdict: bool,
}

fn columns(width: usize) -> Cols {
    // STATUS 9, AGE 5, ID 12, PROFILE 8, KIND 11, each with a separating space.
    let fixed = 10 + 6 + 13 + 9 + 12;
    let verdict = width >= 120;
    let rest = width.saturating_sub(fixed + if verdict { 7 } else { 0 } + 2);
    let recipients = (rest * 3 / 5).clamp(10, 60);
    let by = rest.saturating_sub(recipients).clamp(8, 30);
    Cols {
        recipients,
        by,
        verdict,
    }
}

/// Counts a person reads at a glance: what waits for them, what is on its way, what went.
fn counts(all: &[crate::domain::Draft]) -> String {
    let n = |s: DraftStatus| all.iter().filter(|d| d.status == s).count();
    let mut parts = vec![format!("{} to approve", n(DraftStatus::Pending))];
    for (s, word) in [
        (DraftStatus::Approved, "approved, not sent yet"),
        (DraftStatus::Failed, "failed to send"),
        (DraftStatus::Executed, "sent"),
        (DraftStatus::Rejected, "rejected"),
        (DraftStatus::Expired, "expired"),
    ] {
        if n(s) > 0 {
            parts.push(format!("{} {word}", n(s)));
        }
    }
    parts.join(" · ")
}

pub fn render(app: &App, f: &mut Frame, area: Rect) {
    let t = &app.theme;
    let v = &app.drafts;
    let (list_area, detail_area) = drafts_split(area);
    let vis = v.visible();
    let mut title = format!(
        " Drafts · {} · showing {} of {} ({}) ",
        counts(&v.all),
        vis.len(),
        v.all.len(),
        if v.show_all {
            "all"
        } else {
            "undecided; A shows all"
        }
    );
    if !v.filter.is_empty() {
        title.push_str(&format!("· filter: {} ", v.filter));
    }
    let marked = v.marked_pending().len();
    if marked > 0 {
        title.push_str(&format!("· {marked} marked (*) "));
    }
    let inner_h = list_area.height.saturating_sub(2) as usize;
    let width = list_area.width.saturating_sub(4) as usize;
    let c = columns(width);
    let verdict_h = if c.verdict { "VERDICT " } else { "" };
    let mut lines = vec![header(
        t,
        fit(
            &format!(
                "{:<9} {:<5} {:<12} {:<8} {:<11} {:<rw$} {verdict_h}{}",
                "STATUS",
                // The sort: by age, descending (oldest first) unless `s` turned it.
                if v.newest_first { "AGE ↑" } else { "AGE ↓" },
                "ID",
                "PROFILE",
                "KIND",
                "RECIPIENTS",
                "BY (WRITTEN BY)",
                rw = c.recipients
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
        let by = match &d.provider {
            Some(p) => format!("{} ({p})", d.created_by),
            None => d.created_by.to_string(),
        };
        let status = match d.status {
            DraftStatus::Executed => crate::tui::app::status_word(d).to_string(),
            DraftStatus::Pending if v.marked.contains(&d.id) => "*pending".to_string(),
            s => s.as_str().to_string(),
        };
        // Undecided drafts age from creation (or re-queue); decided ones show nothing.
        let age = if d.status.is_final() || d.status == DraftStatus::Approved {
            String::new()
        } else {
            age_text(d.created_at, app.now)
        };
        let text = format!(
            "{} {} {} {} {} {} {}{}",
            fit(&status, 9),
            fit(&age, 5),
            fit(&d.id, 12),
            fit(&d.profile, 8),
            fit(d.outbound.kind(), 11),
            fit(&d.outbound.recipients().join(", "), c.recipients),
            if c.verdict {
                format!("{} ", fit(verdict, 7))
            } else {
                String::new()
            },
            fit(&by, c.by),
        );
        let style = match d.status {
            DraftStatus::Pending => t.unread,
            DraftStatus::Approved | DraftStatus::Executed => t.ok,
            DraftStatus::Rejected | DraftStatus::Expired => t.muted,
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
        let msg = if !v.loaded {
            "loading…"
        } else if !v.filter.is_empty() {
            "Nothing matches. / changes the filter, Esc clears it."
        } else if !v.show_all && !v.all.is_empty() {
            "Nothing waits for approval. A shows decided and sent drafts."
        } else {
            "Nothing waits for approval. Drafts from MCP clients and the console appear here."
        };
        lines.push(Line::from(Span::styled(format!("  {msg}"), t.muted)));
    }
    f.render_widget(Paragraph::new(lines).block(block(t, title)), list_area);

    if detail_area.height == 0 {
        return;
    }
    let (title, lines) = match vis.get(v.sel) {
        Some(d) => {
            let mut out = vec![Line::from(Span::styled(
                format!("now: {}", draft_outlook(d)),
                match d.status {
                    DraftStatus::Failed => t.error,
                    DraftStatus::Pending => t.unread,
                    _ => t.ok,
                },
            ))];
            out.push(Line::from(Span::styled(
                format!("life ({}):", zone_name(app.tz)),
                t.muted,
            )));
            match app.draft_history.get(&d.id) {
                Some((at, ev)) if *at == d.updated_at => {
                    out.extend(draft_life(ev, app.tz).into_iter().map(|l| {
                        Line::from(Span::styled(crate::sanitize::for_terminal(&l), t.text))
                    }))
                }
                _ => out.push(Line::from(Span::styled("  loading…", t.muted))),
            }
            out.push(Line::from(""));
            out.extend(
                draft_lines(d, app.tz)
                    .into_iter()
                    .map(|l| Line::from(Span::styled(crate::sanitize::for_terminal(&l), t.text))),
            );
            (format!(" Draft {} ", d.id), out)
        }
        None => (" Draft ".to_string(), Vec::new()),
    };
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(sub_block(t, title)),
        detail_area,
    );
}
