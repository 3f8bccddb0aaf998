//! Inbox: the list (virtualized: only visible rows are built) and a preview of the selection.

use ratatui::Frame;
use ratatui::layout::{Constraint, Layout, Rect};
use ratatui::text::{Line, Span};
use ratatui::widgets::{Paragraph, Wrap};

use super::{block, fit, header, row, sub_block};
use crate::tui::app::{App, fmt_time, zone_name};
use crate::tui::draw::inbox_split_heights;

pub fn render(app: &App, f: &mut Frame, area: Rect) {
    let t = &app.theme;
    let v = &app.inbox;
    let (list_h, _) = inbox_split_heights(area.height);
    let [list_area, preview_area] =
        Layout::vertical([Constraint::Length(list_h), Constraint::Min(0)]).areas(area);

    // With a filter, what is shown out of the whole inbox; "+" while more pages may match.
    let mut title = if v.filter_text.is_empty() {
        format!(" Inbox · {} items · {} unread ", v.last_seq, v.unread())
    } else {
        let more = if v.at_top && v.at_bottom { "" } else { "+" };
        format!(
            " Inbox · {}{more} of {} · filter: {} ",
            v.rows.len(),
            v.last_seq,
            v.filter_text
        )
    };
    title.push_str(&format!("· times {} ", zone_name(app.tz)));
    if let Some(e) = &v.filter_error {
        title.push_str(&format!("· typing: {e} "));
    }
    if v.loading {
        title.push_str("· loading… ");
    }
    let inner_h = list_h.saturating_sub(2) as usize;
    let width = list_area.width.saturating_sub(4) as usize;
    // The sender gets a share of what the fixed columns leave, between 14 and 30.
    let from_w = (width.saturating_sub(2 + 12 + 9 + 9) / 3).clamp(14, 30);
    let mut lines = Vec::with_capacity(inner_h);
    if inner_h > 0 {
        lines.push(header(
            t,
            fit(
                &format!(
                    "  {:<11} {:<8} {:<8} {:<from_w$} SUBJECT / PREVIEW",
                    "TIME", "CHANNEL", "PROFILE", "FROM"
                ),
                width,
            ),
        ));
    }
    let rows_h = inner_h.saturating_sub(1);
    // The header takes one line, so the window shows rows_h rows starting at offset, shifted
    // just enough to keep the selection visible.
    let offset = crate::tui::app::follow(v.sel, v.offset, rows_h);
    for (i, r) in v.rows.iter().enumerate().skip(offset).take(rows_h) {
        let unread = r.seq > v.cursor;
        let time = fmt_time(r.ts, app.tz);
        let time = time.get(5..).unwrap_or(&time);
        let text = format!(
            "{} {:<11} {} {} {} {}{}",
            if unread { "●" } else { " " },
            time,
            fit(r.channel.as_str(), 8),
            fit(&r.profile, 8),
            fit(&r.from, from_w),
            r.triage_tag(),
            r.subject
        );
        let style = if unread { t.unread } else { t.text };
        lines.push(row(t, i == v.sel, fit(&text, width), style));
    }
    if v.rows.is_empty() && inner_h > 1 {
        let msg = if v.loading || !v.loaded_once {
            "loading…"
        } else if v.filter_text.is_empty() {
            "No messages yet. Sources deliver here (the demo source, or files dropped in the spool folder)."
        } else {
            "Nothing matches. / changes the filter, Esc clears it."
        };
        lines.push(Line::from(Span::styled(format!("  {msg}"), t.muted)));
    }
    f.render_widget(Paragraph::new(lines).block(block(t, title)), list_area);

    if preview_area.height == 0 {
        return;
    }
    let Some(r) = v.selected() else {
        f.render_widget(
            Paragraph::new("").block(sub_block(t, " Preview ".into())),
            preview_area,
        );
        return;
    };
    let mut lines = vec![
        Line::from(vec![
            Span::styled("From: ", t.muted),
            Span::styled(r.from.clone(), t.text),
            Span::styled(
                format!(
                    "   {} · {} · {} {}",
                    r.channel,
                    r.profile,
                    fmt_time(r.ts, app.tz),
                    zone_name(app.tz)
                ),
                t.muted,
            ),
        ]),
        Line::from(vec![
            Span::styled("Subject: ", t.muted),
            Span::styled(r.subject.clone(), t.text),
        ]),
    ];
    if let Some(tr) = &r.triage {
        lines.push(Line::from(vec![
            Span::styled("Triage: ", t.muted),
            Span::styled(
                format!(
                    "{} · {} · by {} — {}",
                    tr.category.as_str(),
                    tr.urgency.as_str(),
                    format!("{:?}", tr.by).to_lowercase(),
                    crate::sanitize::for_terminal(&tr.reason)
                ),
                t.text,
            ),
        ]));
    }
    lines.push(Line::from(""));
    lines.extend(
        r.text
            .lines()
            .map(|l| Line::from(Span::styled(crate::sanitize::for_terminal(l), t.text))),
    );
    f.render_widget(
        Paragraph::new(lines)
            .wrap(Wrap { trim: false })
            .block(sub_block(
                t,
                format!(" Preview #{} (untrusted content) ", r.seq),
            )),
        preview_area,
    );
}
