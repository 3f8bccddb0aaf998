//! Where things are on screen, shared by `draw` (which puts them there) and the mouse
//! handler (which finds what was clicked), so the two cannot disagree.

use ratatui::layout::{Constraint, Layout, Rect};

use super::app::{App, Pane};

/// Below this the console shows a "terminal too small" screen instead of a broken layout.
pub const MIN_W: u16 = 60;
pub const MIN_H: u16 = 15;

pub fn too_small(size: (u16, u16)) -> bool {
    size.0 < MIN_W || size.1 < MIN_H
}

/// The panes' area: everything but the tab row, the message line and the status bar.
pub fn body(size: (u16, u16)) -> Rect {
    Rect {
        x: 0,
        y: 1,
        width: size.0,
        height: size.1.saturating_sub(3),
    }
}

/// A pane's tab: its label and its columns `[start, end)` on the top row.
pub type Tab = (Pane, String, u16, u16);

/// The brand (if it fits) and the tabs. Labels shorten as the terminal
/// narrows, so that every pane keeps a tab.
pub fn tabs(app: &App) -> (Option<String>, Vec<Tab>) {
    let width = app.size.0 as usize;
    let label = |p: Pane, i: usize, short: bool| {
        let extra = match p {
            Pane::Drafts if app.drafts.pending() > 0 => format!(" ({})", app.drafts.pending()),
            Pane::Inbox if app.inbox.unread() > 0 => format!(" ({})", app.inbox.unread()),
            _ => String::new(),
        };
        let title = if short { &p.title()[..3] } else { p.title() };
        format!("{} {title}{extra}", i + 1)
    };
    for (brand, short) in [(true, false), (false, false), (false, true)] {
        let prefix = brand.then(|| " opsdesk ".to_string());
        let mut x = prefix.as_ref().map_or(0, |p| p.chars().count());
        let mut out = Vec::new();
        for (i, p) in Pane::ALL.iter().enumerate() {
            let l = label(*p, i, short);
            let w = l.chars().count() + 2; // brackets or padding
            out.push((*p, l, x as u16, (x + w) as u16));
            x += w + 1;
        }
        if x <= width || short {
            return (prefix, out);
        }
    }
    (None, Vec::new())
}

/// (list area, detail area) of the Drafts pane.
pub fn drafts_split(body: Rect) -> (Rect, Rect) {
    let [list, detail] =
        Layout::vertical([Constraint::Percentage(45), Constraint::Min(0)]).areas(body);
    (list, detail)
}

/// A list on screen: the row of its first item, how many rows show, and the index of the
/// first item shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ListGeometry {
    pub first_y: u16,
    pub rows: usize,
    pub offset: usize,
}

/// The selectable list of the current pane, if it has one.
pub fn list(app: &App) -> Option<ListGeometry> {
    let body = body(app.size);
    let g = match app.pane {
        Pane::Inbox => {
            let (list_h, _) = super::draw::inbox_split_heights(body.height);
            let rows = list_h.saturating_sub(3) as usize;
            ListGeometry {
                first_y: body.y + 2,
                rows,
                offset: follow(app.inbox.sel, app.inbox.offset, rows),
            }
        }
        Pane::Drafts => {
            let (list, _) = drafts_split(body);
            let rows = list.height.saturating_sub(3) as usize;
            ListGeometry {
                first_y: list.y + 2,
                rows,
                offset: follow(app.drafts.sel, 0, rows),
            }
        }
        Pane::Audit => {
            let rows = body.height.saturating_sub(4) as usize;
            ListGeometry {
                first_y: body.y + 3,
                rows,
                offset: follow(app.audit.sel, app.audit.offset, rows),
            }
        }
        Pane::Providers => ListGeometry {
            first_y: body.y + 2,
            rows: app.providers.view.as_ref().map_or(0, |v| v.providers.len()),
            offset: 0,
        },
        Pane::Brief => ListGeometry {
            first_y: body.y + 1,
            rows: app.profiles.len(),
            offset: 0,
        },
        Pane::Deals => ListGeometry {
            first_y: body.y + 2,
            rows: app.deals.deals.len(),
            offset: 0,
        },
    };
    Some(g)
}

/// Keep `sel` inside `[offset, offset + height)`.
pub fn follow(sel: usize, offset: usize, height: usize) -> usize {
    let h = height.max(1);
    if sel < offset {
        sel
    } else if sel >= offset + h {
        sel + 1 - h
    } else {
        offset
    }
}
