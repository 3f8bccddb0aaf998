//! What each key action does: `App::act` dispatches every `Act` to one handler here. Like
//! `update`, nothing here does I/O; handlers change the state and push `Effect`s.

use crossterm::event::KeyModifiers;

use super::app::{App, Pane};
use super::keymap::Act;
use super::msg::{Anchor, ChainStatus, Effect, JobTarget, Level, Req};
use super::overlay::{InputKind, Overlay};
use super::panes::drafts::sends;
use super::panes::inbox::quote_reply;
use crate::assistant::JobKind;
use crate::domain::{Action, AuditOutcome, Channel, DraftStatus};

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
            Act::Refresh => fx.extend(self.reload()),
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
            Act::Classify => {
                let Some(r) = self.inbox.selected() else {
                    self.say(Level::Info, "select a message first");
                    return;
                };
                let seq = r.seq;
                let buf = r
                    .triage
                    .as_ref()
                    .map(|t| format!("{} {}", t.category.as_str(), t.urgency.as_str()))
                    .unwrap_or_default();
                self.overlay = Some(Overlay::Input {
                    kind: InputKind::Classify { seq },
                    title: format!(
                        "Classify #{seq}: category (needs_reply decision meeting deadline fyi bulk) [high|normal|low] [reason] · Enter sets · Esc cancels"
                    ),
                    buf,
                });
            }
            Act::AssignProfile => {
                let Some(r) = self.inbox.selected() else {
                    self.say(Level::Info, "select a message first");
                    return;
                };
                let (seq, now) = (r.seq, r.profile.clone());
                // Refuse here rather than after the operator picked a profile.
                if !r.profile_unclear {
                    self.say(
                        Level::Warn,
                        format!(
                            "#{seq} came with profile `{now}` from its source; only items whose profile was unclear (`unassigned`, or placed by a [classification] rule) can be assigned"
                        ),
                    );
                    return;
                }
                self.overlay = Some(Overlay::Input {
                    kind: InputKind::AssignProfile { seq },
                    title: format!(
                        "Assign #{seq} (now {now}) to profile: {} · Enter assigns · Esc cancels",
                        self.profiles.join(" ")
                    ),
                    buf: String::new(),
                });
            }
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

    /// Run `job` on the selected inbox message in the background.
    fn job_on_selected(&mut self, job: JobKind, fx: &mut Vec<Effect>) {
        let Some(r) = self.inbox.selected() else {
            self.say(Level::Info, "select a message first");
            return;
        };
        let seq = r.seq;
        match self.llm_precheck(job, &r.profile.clone()) {
            Err(why) => {
                self.say(Level::Error, format!("{job} of #{seq} not started: {why}"));
                return;
            }
            Ok(Some(note)) => self.say(Level::Warn, format!("{job} of #{seq} started… {note}")),
            Ok(None) => self.say(Level::Info, format!("{job} of #{seq} started…")),
        }
        fx.push(Effect::Req(Req::Job {
            job,
            target: JobTarget::Seqs(vec![seq]),
        }));
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

    /// `R`: write a reply by hand in `$EDITOR`, starting from a quoted reply template.
    fn write_reply(&mut self, fx: &mut Vec<Effect>) {
        let Some(r) = self.inbox.selected() else {
            return;
        };
        if r.channel == Channel::Calendar {
            self.say(Level::Warn, "calendar items cannot be replied to");
            return;
        }
        let template = quote_reply(r, self.tz);
        fx.push(Effect::Compose {
            message_id: r.id.clone(),
            to: r.from.clone(),
            template,
        });
    }

    /// Ask the assistant (job `draft`) for a reply to the selected message; the draft is
    /// queued pending, as actor `assistant:draft`, and shows in Drafts.
    fn ask_reply(&mut self, fx: &mut Vec<Effect>) {
        if self
            .inbox
            .selected()
            .is_some_and(|r| r.channel == Channel::Calendar)
        {
            self.say(Level::Warn, "calendar items cannot be replied to");
            return;
        }
        self.job_on_selected(JobKind::Draft, fx);
    }

    fn mark_read(&mut self, fx: &mut Vec<Effect>) {
        if let Some(r) = self.inbox.selected() {
            let seq = r.seq;
            fx.push(Effect::Req(Req::Submit {
                action: Action::MarkRead {
                    consumer: "console".into(),
                    seq,
                },
                label: format!("marked read up to #{seq}"),
            }));
        }
    }

    fn mark_all_read(&mut self, fx: &mut Vec<Effect>) {
        let seq = self.inbox.last_seq;
        fx.push(Effect::Req(Req::Submit {
            action: Action::MarkRead {
                consumer: "console".into(),
                seq,
            },
            label: "marked everything read".into(),
        }));
    }

    /// Scroll the brief and digest texts by half a pane (each pane is half the body).
    fn scroll_brief(&mut self, down: bool) {
        let step = (self.size.1.saturating_sub(3) / 4).max(1);
        self.brief.scroll = if down {
            self.brief.scroll.saturating_add(step)
        } else {
            self.brief.scroll.saturating_sub(step)
        };
    }

    fn regenerate(&mut self, fx: &mut Vec<Effect>) {
        if let Some(p) = self.profiles.get(self.brief.sel).cloned() {
            fx.extend(self.brief_req(p));
        }
    }

    fn approve(&mut self) {
        let Some(d) = self.drafts.selected() else {
            return;
        };
        if d.status != DraftStatus::Pending {
            let msg = format!(
                "draft {} is {}; only pending drafts can be approved",
                d.id,
                d.status.as_str()
            );
            self.say(Level::Warn, msg);
            return;
        }
        // The approval binds to the content shown now; if it changes before the engine
        // records the approval, the engine refuses.
        let action = Action::ApproveDraft {
            id: d.id.clone(),
            digest: Some(d.digest.clone()),
        };
        let label = format!("approved draft {}", d.id);
        // Every decidable draft gets the same dialog; what approving does is said plainly.
        let mut lines = vec![format!("{} for profile {}", d.outbound.kind(), d.profile)];
        let recipients = d.outbound.recipients();
        if !recipients.is_empty() {
            lines.push(format!("to: {}", recipients.join(", ")));
        }
        match &d.outbound {
            crate::domain::Outbound::MoveMail { message_id, folder } => {
                lines.push(format!("move message {message_id} to folder {folder}"));
            }
            crate::domain::Outbound::CreateDeal { spec } => {
                lines.push(format!("deal: {}", spec.name));
            }
            _ => {}
        }
        if let Some(s) = d.outbound.subject() {
            lines.push(format!("subject: {s}"));
        }
        if d.outbound.body_html().is_some() {
            lines.push(format!("format: {}", crate::html_mail::REVIEW_NOTE));
        }
        if !d.outbound.body().is_empty() {
            lines.push(String::new());
            lines.extend(d.outbound.body().lines().take(6).map(str::to_string));
        }
        lines.push(String::new());
        lines.push(if sends(&d.outbound) {
            "Approving releases this to be sent. y = approve · anything else cancels".into()
        } else {
            "Approving carries this out (nothing is sent). y = approve · anything else cancels"
                .into()
        });
        self.overlay = Some(Overlay::Confirm {
            title: format!("Approve draft {}?", d.id),
            lines,
            then: Req::Submit { action, label },
        });
    }

    /// Mark (or unmark) the selected draft for a batch decision; only pending drafts.
    fn mark(&mut self) {
        let Some(d) = self.drafts.selected() else {
            return;
        };
        if d.status != DraftStatus::Pending {
            let msg = format!(
                "draft {} is {}; only pending drafts can be marked",
                d.id,
                d.status.as_str()
            );
            self.say(Level::Warn, msg);
            return;
        }
        let id = d.id.clone();
        if !self.drafts.marked.remove(&id) {
            self.drafts.marked.insert(id);
        }
        let n = self.drafts.marked_pending().len();
        let (a, r) = (
            self.keymap.key_for(self.pane.section(), Act::Approve),
            self.keymap.key_for(self.pane.section(), Act::Reject),
        );
        self.say(
            Level::Info,
            format!(
                "{n} marked: {a} approves them all, {r} rejects them all (each on its own digest)"
            ),
        );
        // Marking moves on, so several are marked with repeated presses.
        let len = self.drafts.visible().len();
        self.drafts.sel = (self.drafts.sel + 1).min(len.saturating_sub(1));
    }

    /// The batch as the operator reviewed it: each marked draft with the digest shown now.
    fn marked_items(&self) -> (Vec<crate::domain::BatchItem>, Vec<String>) {
        let marked = self.drafts.marked_pending();
        let items = marked
            .iter()
            .map(|d| crate::domain::BatchItem {
                id: d.id.clone(),
                digest: d.digest.clone(),
            })
            .collect();
        let lines = marked
            .iter()
            .map(|d| {
                let mut l = format!(
                    "{}  {} for {} to {}",
                    d.id,
                    d.outbound.kind(),
                    d.profile,
                    d.outbound.recipients().join(", ")
                );
                if let Some(s) = d.outbound.subject() {
                    l.push_str(&format!(" · {s}"));
                }
                l
            })
            .collect();
        (items, lines)
    }

    /// Approve every marked draft in one step, after a confirmation listing each with its
    /// recipients and subject. The engine refuses the lot if any kind may not be batched.
    fn approve_marked(&mut self) {
        let (items, mut lines) = self.marked_items();
        let n = items.len();
        lines.push(String::new());
        lines.push(format!(
            "Approving releases all {n} to be sent, each exactly as it is now in the Drafts pane (Enter there shows a draft whole; one changed since is not approved). y = approve all · anything else cancels"
        ));
        self.overlay = Some(Overlay::Confirm {
            title: format!("Approve {n} marked drafts?"),
            lines,
            then: Req::Submit {
                action: Action::DecideDrafts {
                    decision: crate::domain::BatchDecision::Approve,
                    items,
                },
                label: format!("approved {n} drafts"),
            },
        });
    }

    fn reject_marked(&mut self) {
        let (items, _) = self.marked_items();
        let n = items.len();
        self.overlay = Some(Overlay::Input {
            kind: InputKind::RejectBatch { items },
            title: format!(
                "Reject {n} marked drafts — one reason for all (Enter to reject, Esc to cancel)"
            ),
            buf: String::new(),
        });
    }

    fn reject(&mut self) {
        let Some(d) = self.drafts.selected() else {
            return;
        };
        if d.status.is_final() {
            let msg = format!("draft {} is already {}", d.id, d.status.as_str());
            self.say(Level::Warn, msg);
            return;
        }
        self.overlay = Some(Overlay::Input {
            kind: InputKind::Reject { id: d.id.clone() },
            title: format!(
                "Reject draft {} — reason (Enter to reject, Esc to cancel)",
                d.id
            ),
            buf: String::new(),
        });
    }

    fn edit(&mut self, fx: &mut Vec<Effect>) {
        let Some(d) = self.drafts.selected() else {
            return;
        };
        if d.status.is_final() {
            let msg = format!(
                "draft {} is {}; it cannot be edited",
                d.id,
                d.status.as_str()
            );
            self.say(Level::Warn, msg);
            return;
        }
        fx.push(Effect::Edit {
            id: d.id.clone(),
            outbound: d.outbound.clone(),
        });
    }

    /// One key puts an expired draft back in the queue (nothing is sent, so nothing to
    /// confirm): the engine makes a new pending draft of the content shown, judged again.
    fn requeue(&mut self, fx: &mut Vec<Effect>) {
        let Some(d) = self.drafts.selected() else {
            return;
        };
        if d.status != DraftStatus::Expired {
            let msg = format!(
                "draft {} is {}; only expired drafts can be re-queued",
                d.id,
                d.status.as_str()
            );
            self.say(Level::Warn, msg);
            return;
        }
        if let Some(new) = &d.requeued_as {
            let msg = format!("draft {} was already re-queued as {new}", d.id);
            self.say(Level::Warn, msg);
            return;
        }
        fx.push(Effect::Req(Req::Submit {
            action: Action::RequeueDraft {
                id: d.id.clone(),
                digest: Some(d.digest.clone()),
            },
            label: format!("re-queued draft {}", d.id),
        }));
    }

    fn show_all(&mut self) {
        self.drafts.show_all = !self.drafts.show_all;
        self.drafts.sel = 0;
    }

    /// Enabling is harmless; disabling asks the data task first what it would block, and the
    /// answer (`Msg::ToggleImpact`) either submits or asks to confirm.
    fn toggle_enabled(&mut self, fx: &mut Vec<Effect>) {
        let Some(p) = self.selected_provider() else {
            return;
        };
        let (name, enabled) = (p.name.clone(), !p.enabled);
        if enabled {
            fx.push(Effect::Req(toggle_submit(name, enabled)));
        } else {
            fx.push(Effect::Req(Req::ToggleImpact { name, enabled }));
        }
    }

    fn set_default(&mut self, fx: &mut Vec<Effect>) {
        if let Some(p) = self.selected_provider() {
            let name = p.name.clone();
            fx.push(Effect::Req(Req::Submit {
                label: format!("default provider is now {name}"),
                action: Action::SetDefaultProvider { name },
            }));
        }
    }

    fn cycle_outcome(&mut self) {
        self.audit.outcome = match self.audit.outcome {
            None => Some(AuditOutcome::Ok),
            Some(AuditOutcome::Ok) => Some(AuditOutcome::Denied),
            Some(AuditOutcome::Denied) => Some(AuditOutcome::Blocked),
            Some(AuditOutcome::Blocked) => Some(AuditOutcome::Error),
            Some(AuditOutcome::Error) => None,
        };
        self.audit.sel = 0;
        self.audit.offset = 0;
    }

    /// `v` / `:verify` from any pane; the answer is said in the message line wherever the
    /// operator is, and shown in the Audit pane's chain line.
    fn verify(&mut self, fx: &mut Vec<Effect>) {
        self.verify_asked = true;
        let previous = self.audit.chain.as_ref().map_or(0, |c| c.records);
        self.audit.chain = Some(ChainStatus {
            ok: true,
            text: "verifying…".into(),
            records: previous,
            at: None,
        });
        self.say(Level::Info, "verifying the audit chain…");
        fx.push(Effect::Req(Req::Verify));
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
            }
        }
    }
}

/// The provider switch as an action for the data task.
pub fn toggle_submit(name: String, enabled: bool) -> Req {
    let label = format!(
        "provider {name} {}",
        if enabled { "enabled" } else { "disabled" }
    );
    Req::Submit {
        action: Action::SetProviderEnabled { name, enabled },
        label,
    }
}

/// Whether a key event is typing (a character without Ctrl/Alt).
pub fn is_typing(mods: KeyModifiers) -> bool {
    !mods.intersects(KeyModifiers::CONTROL | KeyModifiers::ALT)
}
