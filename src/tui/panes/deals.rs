//! Deals: every deal (open ones first) with its stage, key dates and linked messages, and the
//! selected deal's detail below. Read-only here: the operator creates, links and moves stages
//! with `opsdesk deals` (and accepts clients' proposals in Drafts); changes made anywhere in
//! this process arrive as `DealChanged` events.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::{block, fit, header, row, sub_block};
use crate::tui::app::App;

pub fn render(app: &App, f: &mut Frame, area: Rect) {
    let t = &app.theme;
    let v = &app.deals;
    let open = v.deals.iter().filter(|d| d.is_open()).count();
    let title = format!(
        " Deals · {open} open of {} · `opsdesk deals` creates, links and moves stages ",
        v.deals.len()
    );
    if let Some(e) = &v.error {
        f.render_widget(
            Paragraph::new(Line::from(Span::styled(format!("  {e}"), t.error)))
                .wrap(Wrap { trim: false })
                .block(block(t, title)),
            area,
        );
        return;
    }
    if v.deals.is_empty() {
        let msg = if v.loaded {
            "  No deals yet. `opsdesk deals create --name NAME --profile P` starts one; an MCP client's deal_create proposal waits in Drafts."
        } else {
            "  loading…"
        };
        f.render_widget(
            Paragraph::new(Line::from(Span::styled(msg, t.muted)))
                .wrap(Wrap { trim: false })
                .block(block(t, title)),
            area,
        );
        return;
    }
    let list_h = (v.deals.len() as u16 + 3).min(area.height / 2).max(4);
    let [top, bottom] =
        Layout::vertical([Constraint::Length(list_h), Constraint::Min(0)]).areas(area);
    let width = top.width.saturating_sub(4) as usize;
    // Ids are shown whole (they are typed into `opsdesk deals …`), up to a sane width.
    let idw = v
        .deals
        .iter()
        .map(|d| d.id.chars().count())
        .max()
        .unwrap_or(2)
        .clamp(2, 32);
    let mut lines = vec![header(
        t,
        fit(
            &format!(
                "{:<idw$} {:<22} {:<10} {:<12} {:<6} {}",
                "ID", "NAME", "PROFILE", "STAGE", "MSGS", "NEXT DATE"
            ),
            width,
        ),
    )];
    let rows_h = top.height.saturating_sub(3) as usize;
    let offset = v.sel.saturating_sub(rows_h.saturating_sub(1));
    for (i, d) in v.deals.iter().enumerate().skip(offset).take(rows_h) {
        let next = d
            .key_dates
            .iter()
            .filter_map(|k| k.day().map(|day| (day, k)))
            .min_by_key(|(day, _)| *day)
            .map(|(_, k)| format!("{} {}", k.label, k.date))
            .unwrap_or_else(|| "—".into());
        let text = format!(
            "{} {} {} {} {} {}",
            fit(&d.id, idw),
            fit(&d.name, 22),
            fit(&d.profile, 10),
            fit(d.stage.as_str(), 12),
            fit(&d.links.len().to_string(), 6),
            next
        );
        let style = if d.is_open() { t.text } else { t.muted };
        lines.push(row(t, i == v.sel, fit(&text, width), style));
    }
    f.render_widget(Paragraph::new(lines).block(block(t, title)), top);

    let Some(d) = v.selected() else { return };
    let mut lines: Vec<Line> = Vec::new();
    let mut kv = |k: &str, val: String| {
        lines.push(Line::from(vec![
            Span::styled(format!("{k:<16}"), t.muted),
            Span::styled(crate::sanitize::for_terminal(&val), t.text),
        ]));
    };
    kv("stage:", d.stage.as_str().to_string());
    kv(
        "counterparties:",
        if d.counterparties.is_empty() {
            "—".into()
        } else {
            d.counterparties.join(", ")
        },
    );
    kv(
        "key dates:",
        if d.key_dates.is_empty() {
            "—".into()
        } else {
            d.key_dates
                .iter()
                .map(|k| format!("{} {}", k.label, k.date))
                .collect::<Vec<_>>()
                .join(" · ")
        },
    );
    if !d.keywords.is_empty() {
        kv("keywords:", d.keywords.join(", "));
    }
    if !d.notes.trim().is_empty() {
        kv("notes:", crate::sanitize::one_line(&d.notes, 300));
    }
    kv("created:", format!("by {}", d.created_by));
    lines.push(Line::from(""));
    lines.push(header(t, format!("LINKED MESSAGES ({})", d.links.len())));
    if d.links.is_empty() {
        lines.push(Line::from(Span::styled(
            "  none yet: new mail links itself by thread, counterparty or keyword",
            t.muted,
        )));
    }
    for l in d.links.iter().rev() {
        // Sender and subject when the inbox window holds the message (it is not read
        // from disk for this).
        let what = app
            .inbox
            .rows
            .iter()
            .find(|r| r.seq == l.seq)
            .map(|r| format!("{} · {} — ", r.from, r.subject))
            .unwrap_or_default();
        lines.push(Line::from(Span::styled(
            crate::sanitize::for_terminal(&format!("  #{:<6} {what}{}", l.seq, l.reason)),
            t.text,
        )));
    }
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(sub_block(t, format!(" {} · {} ", d.id, d.name))),
        bottom,
    );
}

/// The Deals pane: every deal, open ones first, and the selected one's detail.
#[derive(Debug, Clone, Default)]
pub struct DealsView {
    pub deals: Vec<crate::domain::Deal>,
    pub sel: usize,
    pub error: Option<String>,
    pub loaded: bool,
}

impl DealsView {
    pub fn selected(&self) -> Option<&crate::domain::Deal> {
        self.deals.get(self.sel)
    }

    pub(in crate::tui) fn set(&mut self, mut deals: Vec<crate::domain::Deal>) {
        let prev = self.selected().map(|d| d.id.clone());
        // Open deals first, then by name: what the operator works on is at the top.
        deals.sort_by(|a, b| {
            b.is_open()
                .cmp(&a.is_open())
                .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
        });
        self.deals = deals;
        self.sel = prev
            .and_then(|id| self.deals.iter().position(|d| d.id == id))
            .unwrap_or(self.sel)
            .min(self.deals.len().saturating_sub(1));
        self.loaded = true;
        self.error = None;
    }
}
