//! Mouse input: a click on a tab switches panes, a click on a list row selects it (a second
//! click on the selected row opens its details), the wheel scrolls the list or an overlay.
//! Capture can be turned off (`F2`, `:mouse`) to select text with the terminal, as in lazygit;
//! most terminals also select text with Shift held while the console captures the mouse.

use crossterm::event::{MouseButton, MouseEvent, MouseEventKind};

use super::app::{App, Pane};
use super::layout;
use super::msg::Effect;
use super::overlay::Overlay;

/// Rows the wheel moves per notch.
const WHEEL: i64 = 3;

impl App {
    pub(super) fn on_mouse(&mut self, m: MouseEvent, fx: &mut Vec<Effect>) {
        if layout::too_small(self.size) {
            return;
        }
        match m.kind {
            MouseEventKind::ScrollDown => self.wheel(WHEEL, fx),
            MouseEventKind::ScrollUp => self.wheel(-WHEEL, fx),
            MouseEventKind::Down(MouseButton::Left) => self.click(m.column, m.row, fx),
            _ => {}
        }
    }

    fn wheel(&mut self, delta: i64, fx: &mut Vec<Effect>) {
        match &mut self.overlay {
            Some(Overlay::Help { scroll, .. }) | Some(Overlay::Details { scroll, .. }) => {
                *scroll = if delta > 0 {
                    scroll.saturating_add(delta as u16)
                } else {
                    scroll.saturating_sub(delta.unsigned_abs() as u16)
                };
            }
            Some(_) => {}
            None => self.move_by(delta, fx),
        }
    }

    fn click(&mut self, x: u16, y: u16, fx: &mut Vec<Effect>) {
        if self.overlay.is_some() {
            return; // overlays are answered with keys (a stray click must not confirm)
        }
        if y == 0 {
            let (_, tabs) = layout::tabs(self);
            if let Some((pane, ..)) = tabs.iter().find(|(_, _, a, b)| (*a..*b).contains(&x)) {
                self.switch(*pane, fx);
            }
            return;
        }
        let Some(g) = layout::list(self) else { return };
        if y < g.first_y || y >= g.first_y + g.rows as u16 {
            return;
        }
        let index = g.offset + (y - g.first_y) as usize;
        let (current, len) = self.selection();
        if index >= len {
            return;
        }
        if index == current {
            self.details();
        } else {
            self.move_by(index as i64 - current as i64, fx);
        }
    }

    /// (selected index, items) of the current pane's list.
    fn selection(&self) -> (usize, usize) {
        match self.pane {
            Pane::Inbox => (self.inbox.sel, self.inbox.rows.len()),
            Pane::Drafts => (self.drafts.sel, self.drafts.visible().len()),
            Pane::Audit => (self.audit.sel, self.audit.visible().len()),
            Pane::Providers => (
                self.providers.sel,
                self.providers
                    .view
                    .as_ref()
                    .map_or(0, |v| v.providers.len()),
            ),
            Pane::Brief => (self.brief.sel, self.profiles.len()),
            Pane::Deals => (self.deals.sel, self.deals.deals.len()),
        }
    }
}
