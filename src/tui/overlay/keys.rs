//! Keys while an overlay is open: help search and scrolling, the details' attachment
//! picker, confirmations, and the one-line inputs (what Enter does with each).

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};

use super::{AttachPick, InputKind, Overlay};
use crate::domain::Action;
use crate::tui::app::{App, Pane};
use crate::tui::keymap::Section;
use crate::tui::msg::{Effect, Level, Req};
use crate::tui::panes::inbox::parse_classify;

impl App {
    /// A key in the message details with attachments: pick, open or save one (the
    /// `[details]` keymap section). `false` when the key is not one of those.
    pub(in crate::tui) fn details_key(
        &mut self,
        k: &KeyEvent,
        pick: &mut AttachPick,
        fx: &mut Vec<Effect>,
    ) -> bool {
        use crate::tui::keymap::Act;
        let Some(act) = self.keymap.lookup_in(Section::Details, k) else {
            return false;
        };
        let n = pick.items.len().max(1);
        if act == Act::NextAttachment {
            pick.sel = (pick.sel + 1) % n;
            return true;
        }
        let Some(a) = pick.items.get(pick.sel).cloned() else {
            return false;
        };
        let Some(sha256) = a.sha256.clone() else {
            self.say(
                Level::Warn,
                format!(
                    "{}: its bytes are not stored; nothing to open or save",
                    a.name
                ),
            );
            return true;
        };
        match act {
            Act::OpenAttachment => {
                let then = Req::OpenAttachment {
                    sha256,
                    name: a.name.clone(),
                };
                match &a.risk {
                    // A program or macro opened by accident runs: ask, and say what it is.
                    Some(risk) => {
                        self.overlay = Some(Overlay::Confirm {
                            title: format!("Open {} ({risk} type)?", a.name),
                            lines: vec![
                                format!(
                                    "{} is flagged as a {risk} type: opening it may run it.",
                                    a.name
                                ),
                                "Open it only if you expected it from this sender.".into(),
                                String::new(),
                                "y = open it anyway · anything else cancels".into(),
                            ],
                            then,
                        });
                        return true;
                    }
                    None => fx.push(Effect::Req(then)),
                }
            }
            Act::SaveAttachment => {
                self.overlay = Some(Overlay::Input {
                    kind: InputKind::SaveAttachment {
                        sha256,
                        name: a.name.clone(),
                    },
                    title: format!(
                        "Save a copy of {} into the folder (Enter to save, Esc to cancel)",
                        a.name
                    ),
                    buf: self.save_dir.clone().unwrap_or_default(),
                });
                return true;
            }
            _ => return false,
        }
        true
    }
    pub(in crate::tui) fn on_overlay_key(&mut self, k: KeyEvent, fx: &mut Vec<Effect>) {
        let Some(ov) = self.overlay.take() else {
            return;
        };
        match ov {
            Overlay::Help {
                scroll,
                filter,
                typing,
            } => self.overlay = help_key(&k, scroll, filter, typing),
            Overlay::Details {
                title,
                lines,
                scroll,
                mut pick,
            } => {
                if let Some(p) = pick.as_mut()
                    && self.details_key(&k, p, fx)
                {
                    // Still open unless the key opened a question (confirm, folder).
                    if self.overlay.is_none() {
                        self.overlay = Some(Overlay::Details {
                            title,
                            lines,
                            scroll,
                            pick,
                        });
                    }
                } else if let Some(scroll) = scroll_key(&k, scroll) {
                    self.overlay = Some(Overlay::Details {
                        title,
                        lines,
                        scroll,
                        pick,
                    });
                }
            }
            Overlay::Confirm { then, .. } => match k.code {
                KeyCode::Char('y') | KeyCode::Char('Y') => {
                    fx.push(Effect::Req(then));
                }
                _ => self.say(Level::Info, "cancelled; nothing changed"),
            },
            Overlay::Input {
                kind,
                title,
                mut buf,
            } => match k.code {
                KeyCode::Esc => {
                    // Esc on a filter clears it (it was applied while typing).
                    if let InputKind::Filter(pane) = kind {
                        self.set_filter(pane, String::new(), fx);
                    }
                }
                KeyCode::Enter => self.on_input(kind, buf, fx),
                KeyCode::Backspace => {
                    buf.pop();
                    if let InputKind::Filter(pane) = kind {
                        self.set_filter(pane, buf.clone(), fx);
                    }
                    self.overlay = Some(Overlay::Input { kind, title, buf });
                }
                KeyCode::Char(c) if crate::tui::actions::is_typing(k.modifiers) => {
                    if buf.chars().count() < 2000 && !c.is_control() {
                        buf.push(c);
                    }
                    if let InputKind::Filter(pane) = kind {
                        self.set_filter(pane, buf.clone(), fx);
                    }
                    self.overlay = Some(Overlay::Input { kind, title, buf });
                }
                _ => self.overlay = Some(Overlay::Input { kind, title, buf }),
            },
        }
    }
    pub(in crate::tui) fn on_input(&mut self, kind: InputKind, buf: String, fx: &mut Vec<Effect>) {
        match kind {
            InputKind::Filter(pane) => {
                self.set_filter(pane, buf, fx);
                if let Some(e) = self
                    .inbox
                    .filter_error
                    .take()
                    .filter(|_| pane == Pane::Inbox)
                {
                    self.say(Level::Error, format!("filter not applied: {e}"));
                }
            }
            InputKind::Reject { id } => {
                let reason = buf.trim().to_string();
                if reason.is_empty() {
                    self.say(
                        Level::Warn,
                        "a rejection needs a reason; nothing was rejected",
                    );
                    return;
                }
                fx.push(Effect::Req(Req::Submit {
                    label: format!("rejected draft {id}"),
                    action: Action::RejectDraft { id, reason },
                }));
            }
            InputKind::RejectBatch { items } => {
                let reason = buf.trim().to_string();
                if reason.is_empty() {
                    self.say(
                        Level::Warn,
                        "a rejection needs a reason; nothing was rejected",
                    );
                    return;
                }
                fx.push(Effect::Req(Req::Submit {
                    label: format!("rejected {} drafts", items.len()),
                    action: Action::DecideDrafts {
                        decision: crate::domain::BatchDecision::Reject { reason },
                        items,
                    },
                }));
            }
            InputKind::Command => self.command(buf.trim(), fx),
            InputKind::Classify { seq } => match parse_classify(&buf) {
                Ok((category, urgency, reason)) => fx.push(Effect::Req(Req::SetTriage {
                    seq,
                    category,
                    urgency,
                    reason,
                })),
                Err(e) => self.say(Level::Warn, format!("{e}; nothing was changed")),
            },
            InputKind::AssignProfile { seq } => {
                let profile = buf.trim().to_string();
                if profile.is_empty() {
                    self.say(Level::Warn, "no profile given; nothing was assigned");
                    return;
                }
                fx.push(Effect::Req(Req::AssignProfile { seq, profile }));
            }
            InputKind::SaveAttachment { sha256, name } => {
                let dir = buf.trim().to_string();
                if dir.is_empty() {
                    self.say(Level::Warn, "no folder given; nothing was saved");
                    return;
                }
                fx.push(Effect::Req(Req::SaveAttachment { sha256, name, dir }));
            }
        }
    }
}

/// A key in the help overlay: `/` starts a search (typed characters narrow the list, Backspace
/// deletes, Enter keeps it, Esc drops it), j/k and friends scroll; any other key closes.
fn help_key(k: &KeyEvent, scroll: u16, mut filter: String, typing: bool) -> Option<Overlay> {
    let help = |scroll, filter, typing| {
        Some(Overlay::Help {
            scroll,
            filter,
            typing,
        })
    };
    if typing {
        return match k.code {
            KeyCode::Esc => help(0, String::new(), false),
            KeyCode::Enter => help(scroll, filter, false),
            KeyCode::Backspace => {
                filter.pop();
                help(0, filter, true)
            }
            KeyCode::Char(c) if !k.modifiers.contains(KeyModifiers::CONTROL) => {
                filter.push(c);
                help(0, filter, true)
            }
            _ => help(scroll, filter, true),
        };
    }
    match k.code {
        KeyCode::Char('/') => help(0, String::new(), true),
        KeyCode::Esc if !filter.is_empty() => help(0, String::new(), false),
        _ => scroll_key(k, scroll).and_then(|scroll| help(scroll, filter, false)),
    }
}

/// The new scroll position of a help or details overlay, or `None` when the key closes it.
fn scroll_key(k: &KeyEvent, scroll: u16) -> Option<u16> {
    match k.code {
        KeyCode::Char('j') | KeyCode::Down => Some(scroll.saturating_add(1)),
        KeyCode::Char('k') | KeyCode::Up => Some(scroll.saturating_sub(1)),
        KeyCode::PageDown | KeyCode::Char(' ') => Some(scroll.saturating_add(10)),
        KeyCode::PageUp => Some(scroll.saturating_sub(10)),
        _ => None,
    }
}
