//! Brief: the morning brief and end-of-day digest per profile, as the engine answers them
//! (`Answer::Brief`, read typed; its `text` is shown, or the engine's error). The text
//! scrolls (PgDn / PgUp) and Enter shows it whole; each title says when it was generated,
//! because a brief is a snapshot and its counts may lag the live status bar.

use std::collections::BTreeMap;

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};
use time::OffsetDateTime;

use super::{block, fit, row, sub_block};
use crate::brief::Brief;
use crate::tui::app::App;
use crate::tui::msg::{Effect, Req};
use crate::tui::theme::Theme;

pub fn render(app: &App, f: &mut Frame, area: Rect) {
    let t = &app.theme;
    let b = &app.brief;
    let [left, right] =
        Layout::horizontal([Constraint::Length(24), Constraint::Min(0)]).areas(area);
    let lines: Vec<Line> = app
        .profiles
        .iter()
        .enumerate()
        .map(|(i, p)| row(t, i == b.sel, fit(p, 20), t.text))
        .collect();
    f.render_widget(
        Paragraph::new(lines).block(block(t, " Profiles ".into())),
        left,
    );

    let [morning, eod] =
        Layout::vertical([Constraint::Percentage(50), Constraint::Min(0)]).areas(right);
    let entry = app.profiles.get(b.sel).and_then(|p| b.entries.get(p));
    let loading = entry.is_some_and(|e| e.loading);
    let slot = |v: Option<&Result<Box<Brief>, String>>| -> Vec<Line<'static>> {
        if loading {
            return vec![Line::from(Span::styled("generating…", t.muted))];
        }
        match v {
            None => vec![Line::from(Span::styled(
                "not asked yet (r to generate)",
                t.muted,
            ))],
            Some(Err(e)) => vec![Line::from(Span::styled(format!("error: {e}"), t.error))],
            Some(Ok(v)) => brief_lines(v, t),
        }
    };
    let profile = app.profiles.get(b.sel).cloned().unwrap_or_default();
    let generated = entry
        .and_then(|e| e.generated)
        .filter(|_| !loading)
        .map(|at| {
            let hm = time::macros::format_description!("[hour]:[minute]");
            format!(
                "· generated {} ",
                at.to_offset(app.tz).format(&hm).unwrap_or_default()
            )
        })
        .unwrap_or_default();
    f.render_widget(
        Paragraph::new(slot(entry.and_then(|e| e.morning.as_ref())))
            .wrap(Wrap { trim: false })
            .scroll((b.scroll, 0))
            .block(sub_block(
                t,
                format!(" Morning brief · {profile} {generated}"),
            )),
        morning,
    );
    f.render_widget(
        Paragraph::new(slot(entry.and_then(|e| e.eod.as_ref())))
            .wrap(Wrap { trim: false })
            .scroll((b.scroll, 0))
            .block(sub_block(
                t,
                format!(" End-of-day digest · {profile} {generated}"),
            )),
        eod,
    );
}

/// The text of one answer as plain lines (for the full view behind Enter).
pub fn text_of(v: Option<&Result<Box<Brief>, String>>, t: &Theme) -> Vec<String> {
    match v {
        None => vec!["not asked yet (r to generate)".into()],
        Some(Err(e)) => vec![format!("error: {e}")],
        Some(Ok(v)) => brief_lines(v, t)
            .into_iter()
            .map(|l| l.spans.iter().map(|s| s.content.as_ref()).collect())
            .collect(),
    }
}

/// The brief's own plain-text rendering (`brief::render`), one line per line, made safe for
/// the terminal: the text quotes inbound mail.
fn brief_lines(b: &Brief, t: &Theme) -> Vec<Line<'static>> {
    b.text
        .lines()
        .map(|l| Line::from(Span::styled(crate::sanitize::for_terminal(l), t.text)))
        .collect()
}

#[derive(Debug, Clone, Default)]
pub struct BriefEntry {
    pub morning: Option<Result<Box<Brief>, String>>,
    pub eod: Option<Result<Box<Brief>, String>>,
    pub loading: bool,
    /// When this console received the answer: the brief is a snapshot, not live, so its
    /// counts may lag the status bar; the time says how old it is.
    pub generated: Option<OffsetDateTime>,
}

#[derive(Debug, Clone, Default)]
pub struct BriefView {
    pub sel: usize,
    pub entries: BTreeMap<String, BriefEntry>,
    /// Lines the brief and digest texts are scrolled by (PgDn / PgUp; reset on another
    /// profile or a regeneration).
    pub scroll: u16,
}

impl App {
    pub(in crate::tui) fn brief_req(&mut self, profile: String) -> Vec<Effect> {
        self.brief.scroll = 0;
        self.brief
            .entries
            .entry(profile.clone())
            .or_default()
            .loading = true;
        vec![Effect::Req(Req::Brief { profile })]
    }
    pub(in crate::tui) fn brief_select(&mut self, i: usize, fx: &mut Vec<Effect>) {
        if i != self.brief.sel {
            self.brief.scroll = 0;
        }
        self.brief.sel = i;
        if let Some(p) = self.profiles.get(i).cloned()
            && !self.brief.entries.contains_key(&p)
        {
            fx.extend(self.brief_req(p));
        }
    }
}

impl App {
    /// Scroll the brief and digest texts by half a pane (each pane is half the body).
    pub(in crate::tui) fn scroll_brief(&mut self, down: bool) {
        let step = (self.size.1.saturating_sub(3) / 4).max(1);
        self.brief.scroll = if down {
            self.brief.scroll.saturating_add(step)
        } else {
            self.brief.scroll.saturating_sub(step)
        };
    }
    pub(in crate::tui) fn regenerate(&mut self, fx: &mut Vec<Effect>) {
        if let Some(p) = self.profiles.get(self.brief.sel).cloned() {
            fx.extend(self.brief_req(p));
        }
    }
}
