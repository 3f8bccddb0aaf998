//! What each key action does: `App::act` dispatches every `Act` to one handler. The handlers
//! of one pane's keys live with that pane (`panes/<pane>.rs`); here are the ones every pane
//! shares (switching, filters, the command line, health, the mouse). Like `update`, nothing
//! here does I/O; handlers change the state and push `Effect`s.

use crossterm::event::KeyModifiers;

use super::app::{App, Pane};
use super::keymap::Act;
use super::msg::{Anchor, Effect, JobTarget, Level, Req};
use super::overlay::{InputKind, Overlay};
use crate::assistant::JobKind;

impl App {
    /// Do what `act` names. One handler per action, so each reads on its own.
    pub fn act(&mut self, act: Act, fx: &mut Vec<Effect>) {
        match act {
            Act::Quit => self.quit = true,
            Act::NextPane => self.cycle_pane(1, fx),
            Act::PrevPane => self.cycle_pane(Pane::ALL.len() - 1, fx),
            Act::PaneInbox => self.switch(Pane::Inbox, fx),
            Act::PaneBrief => self.switch(Pane::Brief, fx),
            Act::PaneDrafts => self.switch(Pane::Drafts, fx),
            Act::PaneProviders => self.switch(Pane::Providers, fx),
            Act::PaneAudit => self.switch(Pane::Audit, fx),
            Act::PaneDeals => self.switch(Pane::Deals, fx),
            Act::Down => self.move_by(1, fx),
            Act::Up => self.move_by(-1, fx),
            // In the Brief pane j/k pick the profile; paging scrolls its text.
            Act::PageDown if self.pane == Pane::Brief => self.scroll_brief(true),
            Act::PageUp if self.pane == Pane::Brief => self.scroll_brief(false),
            Act::PageDown => self.move_by(self.inbox_list_height() as i64, fx),
            Act::PageUp => self.move_by(-(self.inbox_list_height() as i64), fx),
            Act::Top => self.top(fx),
            Act::Bottom => self.bottom(fx),
            Act::Filter => self.open_filter(),
            Act::ClearFilter => self.clear_filter(fx),
            Act::Command => self.open_command(),
            Act::Help => {
                self.overlay = Some(Overlay::Help {
                    scroll: 0,
                    filter: String::new(),
                    typing: false,
                })
            }
            Act::Health => self.open_health(),
            Act::Messages => {
                self.overlay = Some(Overlay::Details {
                    title: "Messages this session (newest first)".into(),
                    lines: self.log_lines(),
                    scroll: 0,
                    pick: None,
                })
            }
            Act::Mouse => self.toggle_mouse(fx),
            Act::Details => self.details(),
            Act::Refresh => {
                self.say(Level::Info, "reloading from disk…");
                fx.extend(self.reload());
                self.inbox.reload_asked = true;
            }
            Act::DraftReply => self.write_reply(fx),
            Act::AskReply => self.ask_reply(fx),
            Act::MarkRead => self.mark_read(fx),
            Act::MarkAllRead => self.mark_all_read(fx),
            Act::Regenerate => self.regenerate(fx),
            Act::Approve if !self.drafts.marked_pending().is_empty() => self.approve_marked(),
            Act::Reject if !self.drafts.marked_pending().is_empty() => self.reject_marked(),
            Act::Approve => self.approve(),
            Act::Reject => self.reject(),
            Act::Mark => self.mark(),
            Act::Edit => self.edit(fx),
            Act::ShowAll => self.show_all(),
            Act::Requeue => self.requeue(fx),
            Act::SortAge => {
                self.drafts.newest_first = !self.drafts.newest_first;
                self.drafts.sel = 0;
                self.drafts.new_above = 0;
            }
            Act::ToggleEnabled => self.toggle_enabled(fx),
            Act::SetDefault => self.set_default(fx),
            Act::CycleOutcome => self.cycle_outcome(),
            Act::Verify => self.verify(fx),
            Act::RunTriage => self.job_on_selected(JobKind::Triage, fx),
            Act::RunDeadlines => self.job_on_selected(JobKind::Deadlines, fx),
            Act::TriageAll => {
                self.say(Level::Info, "triage of every untriaged message started…");
                fx.push(Effect::Req(Req::Job {
                    job: JobKind::Triage,
                    target: JobTarget::Untriaged,
                }));
            }
            Act::Classify => self.classify(),
            Act::AssignProfile => self.assign_profile(),
            Act::CancelJobs => {
                if self.jobs.is_empty() {
                    self.say(Level::Info, "no assistant job is running");
                } else {
                    self.say(Level::Info, "cancelling the running jobs…");
                    fx.push(Effect::Req(Req::CancelJobs));
                }
            }
            // Bound only in `[details]`: the message details handle them (`details_key`).
            Act::NextAttachment | Act::OpenAttachment | Act::SaveAttachment => {}
        }
    }

    fn cycle_pane(&mut self, by: usize, fx: &mut Vec<Effect>) {
        let i = (self.pane.index() + by) % Pane::ALL.len();
        self.switch(Pane::ALL[i], fx);
    }

    fn open_filter(&mut self) {
        let (buf, title) = match self.pane {
            Pane::Inbox => (
                self.inbox.filter_text.clone(),
                "Filter inbox as you type (text, channel:NAME, profile:NAME) · Enter keeps · Esc clears",
            ),
            Pane::Drafts => (
                self.drafts.filter.clone(),
                "Filter drafts as you type · Enter keeps · Esc clears",
            ),
            Pane::Audit => (
                self.audit.filter.clone(),
                "Filter audit as you type (text, event:PREFIX) · Enter keeps · Esc clears",
            ),
            _ => {
                self.say(Level::Info, "this pane has no filter");
                return;
            }
        };
        self.overlay = Some(Overlay::Input {
            kind: InputKind::Filter(self.pane),
            title: title.into(),
            buf,
        });
    }

    /// `Esc` on a pane: clear its active filter (and the audit outcome filter).
    fn clear_filter(&mut self, fx: &mut Vec<Effect>) {
        let active = match self.pane {
            Pane::Inbox => !self.inbox.filter_text.is_empty(),
            Pane::Drafts => !self.drafts.filter.is_empty(),
            Pane::Audit => !self.audit.filter.is_empty() || self.audit.outcome.is_some(),
            _ => false,
        };
        if !active {
            return;
        }
        if self.pane == Pane::Audit {
            self.audit.outcome = None;
        }
        self.set_filter(self.pane, String::new(), fx);
        self.say(Level::Info, "filter cleared");
    }

    fn open_command(&mut self) {
        self.overlay = Some(Overlay::Input {
            kind: InputKind::Command,
            title: "Command (inbox, brief, drafts, providers, audit, deals, health, messages, verify, refresh, mouse, theme NAME, help, quit)".into(),
            buf: String::new(),
        });
    }

    fn open_health(&mut self) {
        let lines = self.health_lines();
        self.overlay = Some(Overlay::Details {
            title: "Health: sources, MCP, audit chain, LLM routing".into(),
            lines,
            scroll: 0,
            pick: None,
        });
    }

    fn toggle_mouse(&mut self, fx: &mut Vec<Effect>) {
        self.mouse = !self.mouse;
        fx.push(Effect::Mouse(self.mouse));
        self.say(
            Level::Info,
            if self.mouse {
                "mouse on: click selects, the wheel scrolls (hold Shift to select text)"
            } else {
                "mouse off: the terminal selects text again"
            },
        );
    }

    /// Set a pane's filter to `text` and apply it now (the live filter calls this on every
    /// key).
    pub(super) fn set_filter(&mut self, pane: Pane, text: String, fx: &mut Vec<Effect>) {
        match pane {
            Pane::Inbox => match super::panes::inbox::parse_inbox_filter(&text, &self.profiles) {
                Ok(filter) => {
                    self.inbox.filter_error = None;
                    if filter == self.inbox.filter {
                        self.inbox.filter_text = text.trim().to_string();
                        return;
                    }
                    self.inbox.filter = filter;
                    self.inbox.filter_text = text.trim().to_string();
                    self.inbox.generation += 1;
                    self.inbox.loading = true;
                    self.inbox.rows.clear();
                    self.inbox.sel = 0;
                    self.inbox.offset = 0;
                    self.inbox.new_above = 0;
                    self.inbox.keep = None;
                    self.inbox.reload_asked = false;
                    fx.push(Effect::Req(self.inbox_req(Anchor::Top)));
                }
                // While typing `channel:em` the filter is not valid yet: keep the last valid
                // one and say why.
                Err(e) => self.inbox.filter_error = Some(e),
            },
            Pane::Audit => {
                self.audit.filter = text.trim().to_string();
                self.audit.sel = 0;
                self.audit.offset = 0;
            }
            _ => {
                self.drafts.filter = text.trim().to_string();
                self.drafts.sel = 0;
                self.drafts.new_above = 0;
            }
        }
    }
}

/// Whether a key event is typing (a character without Ctrl/Alt).
pub fn is_typing(mods: KeyModifiers) -> bool {
    !mods.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
}
