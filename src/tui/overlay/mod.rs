//! Overlays over the panes: help, details, confirm, and the one-line inputs (filter,
//! command, rejection reason, reply body). Their state is `Overlay`; their keys are in
//! `keys`; each one's drawing in its own file.

pub(crate) mod confirm;
pub(crate) mod details;
pub(crate) mod help;
pub(crate) mod input;
pub(crate) mod keys;

use ratatui::Frame;
use ratatui::layout::Rect;

use super::app::{App, Pane};
use super::msg::Req;
use super::panes::inbox::AttachmentRow;

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

/// The attachment picker of a message's details: the rows, the one picked, and the line
/// index of the first (the picked one is marked there when drawn).
#[derive(Debug, Clone, PartialEq)]
pub struct AttachPick {
    pub items: Vec<AttachmentRow>,
    pub sel: usize,
    pub first_line: usize,
}
#[derive(Debug, Clone, PartialEq)]
pub enum InputKind {
    Filter(Pane),
    Command,
    Reject {
        id: String,
    },
    /// The operator's own triage of an inbox item.
    Classify {
        seq: u64,
    },
    /// The profile the operator gives an item of unclear profile.
    AssignProfile {
        seq: u64,
    },
    /// A reason for rejecting every marked draft at once.
    RejectBatch {
        items: Vec<crate::domain::BatchItem>,
    },
    /// The folder to save a copy of this attachment into.
    SaveAttachment {
        sha256: String,
        name: String,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub enum Overlay {
    Help {
        scroll: u16,
        /// Only keys whose keys or description contain this (case-insensitive); `/` starts it.
        filter: String,
        /// Keystrokes go to the filter (after `/`, until Enter or Esc).
        typing: bool,
    },
    Details {
        title: String,
        lines: Vec<String>,
        scroll: u16,
        /// A message's attachments to pick from (`[details]` keys), when it has any.
        pick: Option<AttachPick>,
    },
    /// Asks first; only `y` sends `then` to the data task, anything else (Enter too)
    /// cancels: a stray Enter must not release mail (README, "Confirmations").
    Confirm {
        title: String,
        lines: Vec<String>,
        then: Req,
    },
    Input {
        kind: InputKind,
        title: String,
        buf: String,
    },
}
