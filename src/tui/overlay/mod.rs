//! Overlays drawn over the panes: help, details, confirm, and the one-line inputs (filter,
//! command, rejection reason, reply body).

pub mod confirm;
pub mod details;
pub mod help;
pub mod input;

use ratatui::Frame;
use ratatui::layout::Rect;

use super::app::{App, Overlay};

pub fn render(app: &App, f: &mut Frame) {
    let Some(ov) = &app.overlay else { return };
    let area = f.area();
    match ov {
        Overlay::Help {
            scroll,
            filter,
            typing,
        } => help::render(app, f, centered(area, 80, 90), *scroll, filter, *typing),
        Overlay::Details {
            title,
            lines,
            scroll,
            pick,
        } => details::render(
            app,
            f,
            centered(area, 90, 90),
            title,
            lines,
            *scroll,
            pick.as_ref(),
        ),
        Overlay::Confirm { title, lines, .. } => {
            confirm::render(app, f, centered(area, 70, 60), title, lines)
        }
        Overlay::Input { title, buf, .. } => {
            let mut r = centered(area, 80, 0);
            r.height = 3.min(area.height);
            r.y = area.y + area.height.saturating_sub(r.height) / 2;
            input::render(app, f, r, title, buf)
        }
    }
}

/// A rectangle of `pw`% × `ph`% of `area`, centered (at least 3 rows when it fits).
pub fn centered(area: Rect, pw: u16, ph: u16) -> Rect {
    let w = (area.width as u32 * pw as u32 / 100) as u16;
    let h = ((area.height as u32 * ph as u32 / 100) as u16).max(3.min(area.height));
    Rect {
        x: area.x + (area.width - w) / 2,
        y: area.y + (area.height - h) / 2,
        width: w,
        height: h,
    }
}
