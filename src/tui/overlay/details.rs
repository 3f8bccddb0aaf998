//! `Enter`: the selected item in full; a message's picked attachment is marked `▸`.

use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::{Clear, Paragraph, Wrap};

use super::{AttachPick, Overlay};
use crate::tui::app::{App, Pane};
use crate::tui::keymap::Section;
use crate::tui::msg::Level;
use crate::tui::panes::block;
use crate::tui::panes::drafts::{draft_life, draft_lines, draft_outlook};
use crate::tui::text::{fmt_time, zone_name};

pub fn render(
    app: &App,
    f: &mut Frame,
    area: Rect,
    title: &str,
    lines: &[String],
    scroll: u16,
    pick: Option<&AttachPick>,
) {
    let t = &app.theme;
    let picked = pick.map(|p| p.first_line + p.sel);
    let lines: Vec<Line> = lines
        .iter()
        .enumerate()
        .map(|(i, l)| match (picked == Some(i), l.strip_prefix("  ")) {
            (true, Some(rest)) => Line::from(Span::styled(format!("▸ {rest}"), t.selection)),
            _ => Line::from(Span::styled(l.clone(), t.text)),
        })
        .collect();
    f.render_widget(Clear, area);
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .scroll((scroll, 0))
            .block(block(
                t,
                format!(" {title} (j/k scroll, any other key closes) "),
            )),
        area,
    );
}

impl App {
    pub(in crate::tui) fn details(&mut self) {
        use crate::tui::keymap::Act;
        let mut pick = None;
        let (title, lines) = match self.pane {
            Pane::Inbox => {
                let Some(r) = self.inbox.selected() else {
                    return;
                };
                let mut lines = vec![
                    format!("seq:      #{}", r.seq),
                    format!("id:       {}", r.id),
                    format!("channel:  {}", r.channel),
                    format!("profile:  {}", r.profile),
                    format!("from:     {}", r.from),
                    format!("subject:  {}", r.subject),
                    format!(
                        "time:     {} ({})",
                        fmt_time(r.ts, self.tz),
                        zone_name(self.tz)
                    ),
                    format!(
                        "received: {} (by opsdesk)",
                        fmt_time(r.received_at, self.tz)
                    ),
                    "(inbound content: untrusted data)".into(),
                    String::new(),
                ];
                lines.extend(r.text.lines().map(str::to_string));
                if !r.attachments.is_empty() {
                    let keys = |act| self.keymap.key_for(Section::Details, act);
                    lines.push(String::new());
                    lines.push(format!(
                        "attachments ({}): {} picks · {} opens with the system's opener · {} saves a copy",
                        r.attachments.len(),
                        keys(Act::NextAttachment),
                        keys(Act::OpenAttachment),
                        keys(Act::SaveAttachment),
                    ));
                    pick = Some(AttachPick {
                        items: r.attachments.clone(),
                        sel: 0,
                        first_line: lines.len(),
                    });
                    lines.extend(r.attachments.iter().map(|a| format!("  {}", a.line)));
                }
                (format!("Message #{}", r.seq), lines)
            }
            Pane::Drafts => {
                let Some(d) = self.drafts.selected() else {
                    return;
                };
                let mut lines = vec![format!("now:        {}", draft_outlook(d))];
                if let Some((at, ev)) = self.draft_history.get(&d.id)
                    && *at == d.updated_at
                {
                    lines.push(format!("life ({}):", zone_name(self.tz)));
                    lines.extend(draft_life(ev, self.tz));
                }
                lines.push(String::new());
                lines.extend(draft_lines(d, self.tz));
                (format!("Draft {}", d.id), lines)
            }
            Pane::Audit => {
                let vis = self.audit.visible();
                let Some(r) = vis.get(self.audit.sel) else {
                    return;
                };
                let e = &r.event;
                let lines = vec![
                    format!("seq:      {}", r.seq),
                    format!("time:     {}", fmt_time(r.ts, self.tz)),
                    format!("event:    {}", e.event),
                    format!("actor:    {}", e.actor),
                    format!("outcome:  {}", e.outcome.as_str()),
                    format!("entity:   {}", e.entity.as_deref().unwrap_or("—")),
                    format!("tool:     {}", e.tool.as_deref().unwrap_or("—")),
                    format!(
                        "target:   {}",
                        crate::sanitize::one_line(e.target.as_deref().unwrap_or("—"), usize::MAX)
                    ),
                    format!(
                        "reason:   {}",
                        crate::sanitize::one_line(e.reason.as_deref().unwrap_or("—"), usize::MAX)
                    ),
                    format!(
                        "duration: {}",
                        e.duration_ms
                            .map(|d| format!("{d} ms"))
                            .unwrap_or("—".into())
                    ),
                    format!("prev:     {}", r.prev),
                    format!("hash:     {}", r.hash),
                ];
                (format!("Audit record {}", r.seq), lines)
            }
            Pane::Brief => {
                let Some(p) = self.profiles.get(self.brief.sel) else {
                    return;
                };
                let Some(e) = self.brief.entries.get(p).filter(|e| !e.loading) else {
                    self.say(
                        Level::Info,
                        "no brief yet for this profile (r generates it)",
                    );
                    return;
                };
                let mut lines = Vec::new();
                if let Some(at) = e.generated {
                    lines.push(format!(
                        "generated {} ({}); r regenerates",
                        fmt_time(at, self.tz),
                        zone_name(self.tz)
                    ));
                    lines.push(String::new());
                }
                for (head, v) in [("Morning brief", &e.morning), ("End-of-day digest", &e.eod)] {
                    lines.push(head.to_string());
                    lines.extend(crate::tui::panes::brief::text_of(v.as_ref(), &self.theme));
                    lines.push(String::new());
                }
                (format!("Brief · {p}"), lines)
            }
            _ => return,
        };
        let lines = lines
            .into_iter()
            .map(|l| crate::sanitize::for_terminal(&l))
            .collect();
        self.overlay = Some(Overlay::Details {
            title,
            lines,
            scroll: 0,
            pick,
        });
    }
}
