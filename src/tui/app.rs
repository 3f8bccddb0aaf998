//! Console state and `update(Msg)`. Nothing here does I/O: `update` returns `Effect`s (requests
//! for the data task, or the `$EDITOR` round-trip the main loop runs), and `draw` renders the
//! state. That keeps every key path testable without a terminal.
//!
//! Each pane's state, keys and drawing live in `panes/<pane>.rs`, the messages in `msg`, the
//! overlays' keys in `overlay/keys`, the `:` commands in `command`, the health text in
//! `health`. What stays here: the `App` itself, `update`, and what is shared by every pane
//! (switching, moving the selection, engine events, action results).

use std::collections::{BTreeMap, VecDeque};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use time::{OffsetDateTime, UtcOffset};

use super::keymap::{Keymap, Section};
use super::theme::Theme;
use crate::assistant::JobKind;
use crate::domain::{Action, AuditRecord, DraftEvent, DraftStatus, Outcome};
use crate::engine::EngineEvent;
use crate::engine::jobs::{JobProgress, JobState};
use crate::engine::runner::SourceHealth;

// The names callers (tests, the CLI, `doctor`) import from `tui::app`, kept where they were.
pub use super::layout::follow;
pub use super::msg::{Anchor, ChainStatus, Effect, JobTarget, Level, Msg, Req};
pub use super::overlay::{AttachPick, InputKind, Overlay};
pub use super::panes::audit::{AUDIT_CAP, AuditView};
pub use super::panes::brief::{BriefEntry, BriefView};
pub use super::panes::deals::DealsView;
pub use super::panes::drafts::{DraftsView, draft_life};
pub use super::panes::inbox::{
    AttachmentRow, InboxRow, InboxView, PAGE, WINDOW_CAP, reply_from_template,
};
pub use super::panes::providers::ProvidersPane;
pub use super::text::{age_text, fmt_time};

/// The six panes, in the order of their number keys.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    Inbox,
    Brief,
    Drafts,
    Providers,
    Audit,
    Deals,
}

impl Pane {
    pub const ALL: [Pane; 6] = [
        Pane::Inbox,
        Pane::Brief,
        Pane::Drafts,
        Pane::Providers,
        Pane::Audit,
        Pane::Deals,
    ];
    pub fn title(self) -> &'static str {
        match self {
            Pane::Inbox => "Inbox",
            Pane::Brief => "Brief",
            Pane::Drafts => "Drafts",
            Pane::Providers => "Providers",
            Pane::Audit => "Audit",
            Pane::Deals => "Deals",
        }
    }
    pub fn section(self) -> Section {
        match self {
            Pane::Inbox => Section::Inbox,
            Pane::Brief => Section::Brief,
            Pane::Drafts => Section::Drafts,
            Pane::Providers => Section::Providers,
            Pane::Audit => Section::Audit,
            Pane::Deals => Section::Deals,
        }
    }
    pub(super) fn index(self) -> usize {
        Pane::ALL.iter().position(|p| *p == self).unwrap_or(0)
    }
}

#[derive(Debug, Clone, Default)]
pub struct StatusInfo {
    pub mcp_url: Option<String>,
    pub mcp_error: Option<String>,
    pub clients: Vec<String>,
    pub sources: BTreeMap<String, SourceHealth>,
    /// Each MCP client's scope, one line each (`mcp::scope::ScopeSummary::line`).
    pub mcp_scopes: Vec<String>,
}

pub struct App {
    pub pane: Pane,
    /// The time the console shows ages against; the run loop sets it, tests choose it.
    pub now: OffsetDateTime,
    pub theme: Theme,
    pub keymap: Keymap,
    pub profiles: Vec<String>,
    pub tz: UtcOffset,
    /// Terminal size, for page sizes and keeping the selection in view.
    pub size: (u16, u16),
    pub status: StatusInfo,
    pub inbox: InboxView,
    pub drafts: DraftsView,
    pub providers: ProvidersPane,
    pub audit: AuditView,
    pub brief: BriefView,
    pub overlay: Option<Overlay>,
    pub message: Option<(Level, String)>,
    pub quit: bool,
    pub fatal: Option<String>,
    /// The data dir (shown in the health view and help; printed on exit when kept).
    pub data_dir: Option<String>,
    /// Whether the console captures the mouse (off: the terminal selects text).
    pub mouse: bool,
    /// The folder offered when saving an attachment (`~/Downloads` or home; the run loop
    /// sets it).
    pub save_dir: Option<String>,
    /// The operator asked for a verification: say its result wherever they are.
    pub verify_asked: bool,
    /// Each draft's events (its life), fetched for the selected draft; keyed by id, with the
    /// `updated_at` they were fetched for.
    pub draft_history: BTreeMap<String, (OffsetDateTime, Vec<DraftEvent>)>,
    /// Draft ids whose history has been asked for and not answered yet.
    pub(super) history_asked: Option<(String, OffsetDateTime)>,
    /// Ticks since start (for polling the MCP client list now and then).
    ticks: u64,
    /// The assistant's jobs running now, by id (from `EngineEvent::JobProgress`): the
    /// progress line.
    pub jobs: BTreeMap<u64, JobProgress>,
    pub deals: DealsView,
    /// Reminders of drafts waiting too long (`[drafts] remind_after_hours`); `None`: off.
    pub reminders: Option<crate::engine::reminders::Reminders>,
    /// Every message said this session, newest last, in full (the message line shows one,
    /// cut to the width): `L` / `:messages` shows them.
    pub log: VecDeque<(OffsetDateTime, Level, String)>,
    /// Replies written in the editor that were not drafted (blocked, or refused), by the
    /// message id they answer: `R` on that message opens the text again instead of a fresh
    /// template, so what the operator wrote is never lost.
    pub kept_replies: BTreeMap<String, String>,
}

/// Messages kept in the log.
pub(crate) const LOG_CAP: usize = 200;

impl App {
    pub fn new(theme: Theme, keymap: Keymap, profiles: Vec<String>, size: (u16, u16)) -> App {
        App {
            now: OffsetDateTime::UNIX_EPOCH,
            pane: Pane::Inbox,
            theme,
            keymap,
            profiles,
            tz: UtcOffset::UTC,
            size,
            status: StatusInfo::default(),
            inbox: InboxView {
                at_top: true,
                ..Default::default()
            },
            drafts: DraftsView::default(),
            providers: ProvidersPane::default(),
            audit: AuditView::default(),
            brief: BriefView::default(),
            overlay: None,
            message: None,
            quit: false,
            fatal: None,
            data_dir: None,
            mouse: true,
            save_dir: None,
            verify_asked: false,
            draft_history: BTreeMap::new(),
            history_asked: None,
            ticks: 0,
            jobs: BTreeMap::new(),
            deals: DealsView::default(),
            reminders: None,
            log: VecDeque::new(),
            kept_replies: BTreeMap::new(),
        }
    }
    /// The requests to make when the console starts.
    pub fn start(&mut self) -> Vec<Effect> {
        self.inbox.loading = true;
        vec![
            Effect::Req(Req::LoadAll),
            Effect::Req(self.inbox_req(Anchor::Top)),
            Effect::Req(Req::Clients),
        ]
    }
    /// Rows of the inbox list that fit on screen (its layout is in `draw`).
    pub fn inbox_list_height(&self) -> usize {
        let body = self.size.1.saturating_sub(3);
        (super::draw::inbox_list_height(body) as usize).max(1)
    }
    /// Say something in the message line, and keep it in full in the log. An error stays
    /// on the line until the operator presses a key: a later notice (a draft arriving, a
    /// job's progress) goes to the log instead of replacing it unseen.
    pub fn say(&mut self, level: Level, text: impl Into<String>) {
        let text = text.into();
        self.log
            .push_back((self.now, level, crate::sanitize::one_line(&text, 8000)));
        while self.log.len() > LOG_CAP {
            self.log.pop_front();
        }
        if matches!(self.message, Some((Level::Error, _))) && level != Level::Error {
            return;
        }
        self.message = Some((level, crate::sanitize::one_line(&text, 400)));
    }
    /// The message log as lines, newest first, each in full.
    pub fn log_lines(&self) -> Vec<String> {
        if self.log.is_empty() {
            return vec!["nothing said yet this session".into()];
        }
        self.log
            .iter()
            .rev()
            .map(|(at, level, text)| {
                let mark = match level {
                    Level::Error => "✗",
                    Level::Warn => "!",
                    Level::Info => " ",
                };
                format!("{} {mark} {text}", fmt_time(*at, self.tz))
            })
            .collect()
    }
    pub fn update(&mut self, msg: Msg) -> Vec<Effect> {
        let mut fx = Vec::new();
        match msg {
            Msg::Key(k) => self.on_key(k, &mut fx),
            Msg::Mouse(m) => self.on_mouse(m, &mut fx),
            Msg::Resize(w, h) => {
                self.size = (w, h);
                self.inbox.offset =
                    follow(self.inbox.sel, self.inbox.offset, self.inbox_list_height());
            }
            Msg::Tick => {
                self.ticks += 1;
                if self.ticks.is_multiple_of(8) {
                    fx.push(Effect::Req(Req::Clients));
                }
                self.remind();
            }
            Msg::Engine(ev) => self.on_engine(ev, &mut fx),
            Msg::DraftsOnDisk => fx.push(Effect::Req(Req::Drafts)),
            Msg::Lagged => {
                self.say(Level::Warn, "missed live updates; reloaded from disk");
                fx.extend(self.reload());
            }
            Msg::InboxPage {
                generation,
                anchor,
                rows,
                last_seq,
            } => self.on_inbox_page(generation, anchor, rows, last_seq, &mut fx),
            Msg::Cursor { cursor, last_seq } => {
                self.inbox.cursor = cursor;
                self.inbox.last_seq = self.inbox.last_seq.max(last_seq);
            }
            Msg::Drafts(d) => {
                let prev = self.drafts.selected().map(|d| d.id.clone());
                let before = self.visible_draft_ids();
                self.drafts.all = d;
                self.drafts.loaded = true;
                self.reselect_draft(prev, &before);
            }
            Msg::Providers(r) => match r {
                Ok(v) => {
                    self.providers.sel =
                        self.providers.sel.min(v.providers.len().saturating_sub(1));
                    self.providers.view = Some(v);
                    self.providers.error = None;
                }
                Err(e) => self.providers.error = Some(e),
            },
            Msg::Vault(r) => self.providers.vault = Some(r),
            Msg::AuditTail(recs) => {
                // Newest first; keep anything newer that arrived live meanwhile.
                let newest = self.audit.records.front().map(|r| r.seq).unwrap_or(0);
                let mut v: VecDeque<AuditRecord> = recs.into_iter().rev().collect();
                let front = v.front().map(|r| r.seq).unwrap_or(0);
                if newest > front {
                    for r in self.audit.records.iter().rev().filter(|r| r.seq > front) {
                        v.push_front(r.clone());
                    }
                }
                v.truncate(AUDIT_CAP);
                self.audit.records = v;
            }
            Msg::Chain(c) => {
                if std::mem::take(&mut self.verify_asked) {
                    let level = if c.ok { Level::Info } else { Level::Error };
                    self.say(level, format!("audit chain: {}", c.text));
                }
                self.audit.chain = Some(c);
            }
            Msg::DraftHistory { id, events } => {
                if let Some((_, at)) = self.history_asked.take_if(|(i, _)| *i == id) {
                    match events {
                        Ok(ev) => {
                            self.draft_history.insert(id, (at, ev));
                        }
                        Err(e) => self.say(Level::Error, format!("draft {id}: {e}")),
                    }
                }
            }
            Msg::ToggleImpact {
                name,
                enabled,
                blocks,
            } => self.on_toggle_impact(name, enabled, blocks, &mut fx),
            Msg::Brief {
                profile,
                morning,
                eod,
            } => {
                let e = self.brief.entries.entry(profile).or_default();
                e.morning = Some(morning);
                e.eod = Some(eod);
                e.loading = false;
                e.generated = Some(self.now);
            }
            Msg::Clients(c) => self.status.clients = c,
            Msg::Deals(r) => match r {
                Ok(d) => self.deals.set(d),
                Err(e) => {
                    self.deals.error = Some(e);
                    self.deals.loaded = true;
                }
            },
            Msg::Submitted {
                label,
                action,
                result,
            } => self.on_submitted(label, action, result, &mut fx),
            Msg::JobDone { job, result } => match result {
                Ok(Some(s)) => self.say(Level::Info, format!("{job}: {s}")),
                Ok(None) => {}
                Err(e) => {
                    self.say(Level::Error, format!("{job}: {e}"));
                    // The router now knows which providers failed: show it in the status
                    // bar and let the next key refuse before trying.
                    fx.push(Effect::Req(Req::Providers));
                }
            },
            Msg::Triage(list) => {
                for (seq, t) in list {
                    if let Some(r) = self.inbox.rows.iter_mut().find(|r| r.seq == seq) {
                        r.triage = t;
                    }
                }
            }
            Msg::Assigned { seq, profile } => {
                if let Some(r) = self.inbox.rows.iter_mut().find(|r| r.seq == seq) {
                    r.profile = crate::sanitize::one_line(&profile, 64);
                }
                self.say(Level::Info, format!("#{seq} is now in profile {profile}"));
            }
            Msg::Notice { level, text } => self.say(level, text),
            Msg::Fatal(m) => {
                self.fatal = Some(m);
                self.quit = true;
            }
        }
        self.want_history(&mut fx);
        fx
    }
    pub(super) fn reload(&mut self) -> Vec<Effect> {
        self.inbox.generation += 1;
        self.inbox.loading = true;
        // The fresh page selects the same record again (when it is still among the newest).
        self.inbox.keep = self
            .inbox
            .selected()
            .map(|r| r.seq)
            .zip(self.inbox.rows.front().map(|r| r.seq));
        vec![
            Effect::Req(Req::LoadAll),
            Effect::Req(self.inbox_req(Anchor::Top)),
        ]
    }
    fn on_engine(&mut self, ev: EngineEvent, fx: &mut Vec<Effect>) {
        match ev {
            EngineEvent::InboxAppended(rec) => {
                let inbox = &mut self.inbox;
                inbox.last_seq = inbox.last_seq.max(rec.seq);
                let newer = inbox.rows.front().is_none_or(|r| rec.seq > r.seq);
                if inbox.at_top && newer && inbox.filter.matches(&rec) {
                    let had = !inbox.rows.is_empty();
                    inbox.rows.push_front(InboxRow::from(&*rec));
                    // The selection stays on the item the operator is looking at, at the top
                    // too: a key pressed next must not act on a message they never saw. The
                    // title counts what arrived above it.
                    if had {
                        inbox.sel += 1;
                        inbox.new_above += 1;
                        if inbox.offset > 0 {
                            inbox.offset += 1;
                        }
                    }
                    if inbox.rows.len() > WINDOW_CAP {
                        inbox.rows.pop_back();
                        inbox.at_bottom = false;
                        inbox.sel = inbox.sel.min(inbox.rows.len() - 1);
                        inbox.seen_up_to_sel();
                    }
                    let h = self.inbox_list_height();
                    self.inbox.offset = follow(self.inbox.sel, self.inbox.offset, h);
                }
            }
            EngineEvent::DraftChanged(d) => {
                let prev = self.drafts.selected().map(|d| d.id.clone());
                let before = self.visible_draft_ids();
                let fresh = !self.drafts.all.iter().any(|x| x.id == d.id);
                match self.drafts.all.iter_mut().find(|x| x.id == d.id) {
                    Some(x) => *x = (*d).clone(),
                    None => self.drafts.all.push((*d).clone()),
                }
                self.reselect_draft(prev, &before);
                // A draft the operator just made is announced by its own result message.
                if fresh
                    && d.status == DraftStatus::Pending
                    && self.pane != Pane::Drafts
                    && d.created_by != crate::domain::Actor::Console
                {
                    let n = self.drafts.pending();
                    self.say(
                        Level::Info,
                        format!(
                            "new draft {} by {} — {n} waiting in Drafts (3)",
                            d.id, d.created_by
                        ),
                    );
                }
            }
            EngineEvent::Audited(rec) => {
                let a = &mut self.audit;
                if a.records.front().is_none_or(|r| rec.seq > r.seq) {
                    a.records.push_front((*rec).clone());
                    if a.sel > 0 {
                        a.sel += 1;
                        a.offset += 1;
                    }
                    a.records.truncate(AUDIT_CAP);
                }
            }
            EngineEvent::SourceHealth(h) => {
                self.status.sources.insert(h.name.clone(), (*h).clone());
            }
            // A running job is the progress line; its end is said once and refreshes the
            // labels it may have changed.
            EngineEvent::JobProgress(p) => {
                if p.state == JobState::Running {
                    self.jobs.insert(p.id, (*p).clone());
                    return;
                }
                self.jobs.remove(&p.id);
                // One item's result is said by the console's own `JobDone`, in words.
                if p.total != 1 {
                    let level = if p.failed > 0 {
                        Level::Warn
                    } else {
                        Level::Info
                    };
                    self.say(level, format!("job {}", p.line()));
                }
                if p.job == JobKind::Triage && !self.inbox.rows.is_empty() {
                    let seqs = self.inbox.rows.iter().map(|r| r.seq).collect();
                    fx.push(Effect::Req(Req::TriageOf { seqs }));
                }
            }
            EngineEvent::DealChanged(d) => {
                let mut all = self.deals.deals.clone();
                match all.iter_mut().find(|x| x.id == d.id) {
                    Some(x) => *x = (*d).clone(),
                    None => all.push((*d).clone()),
                }
                self.deals.set(all);
            }
        }
    }
    fn on_submitted(
        &mut self,
        label: String,
        action: Action,
        result: Result<Outcome, String>,
        fx: &mut Vec<Effect>,
    ) {
        // A reply from the editor that did not become a draft keeps its text (said below).
        let kept = match (&action, &result) {
            (
                Action::DraftReply {
                    message_id, body, ..
                },
                Ok(Outcome::Blocked { .. }) | Err(_),
            ) => {
                self.kept_replies.insert(message_id.clone(), body.clone());
                let r = self.keymap.key_for(
                    super::keymap::Section::Inbox,
                    super::keymap::Act::DraftReply,
                );
                format!(" · your text is kept: {r} on the message opens it again")
            }
            (Action::DraftReply { message_id, .. }, Ok(_)) => {
                self.kept_replies.remove(message_id);
                String::new()
            }
            _ => String::new(),
        };
        match (&action, result) {
            (
                Action::MarkRead { .. },
                Ok(Outcome::Done {
                    detail: crate::domain::Done::Cursor { cursor, .. },
                }),
            ) => {
                self.inbox.cursor = cursor;
                self.say(Level::Info, label);
            }
            (
                _,
                Ok(Outcome::Blocked {
                    rule,
                    reason,
                    remedy,
                }),
            ) => {
                self.say(
                    Level::Error,
                    format!("blocked by {rule}: {reason} — {remedy}{kept}"),
                );
            }
            (_, Ok(Outcome::Queued { draft_id, .. })) => {
                self.say(
                    Level::Info,
                    format!("{label}: draft {draft_id} queued for approval (Drafts, 3)"),
                );
            }
            (
                Action::DecideDrafts { items, .. },
                Ok(Outcome::Done {
                    detail: crate::domain::Done::Batch { results, .. },
                }),
            ) => {
                // Each draft was decided on its own: say which did not go through, and why.
                let missed: Vec<String> = results
                    .iter()
                    .filter(|r| !r.is_done())
                    .map(|r| format!("{} ({})", r.id, r.why()))
                    .collect();
                self.drafts.marked.clear();
                if missed.is_empty() {
                    self.say(Level::Info, label);
                } else {
                    self.say(
                        Level::Error,
                        format!(
                            "{label}: {} of {} done; NOT decided: {}",
                            items.len() - missed.len(),
                            items.len(),
                            missed.join("; ")
                        ),
                    );
                }
                fx.push(Effect::Req(Req::Drafts));
            }
            (_, Ok(Outcome::Done { .. })) => self.say(Level::Info, label),
            (Action::ApproveDraft { id, .. }, Err(e)) if e.contains("changed since") => {
                self.say(
                    Level::Error,
                    format!("NOT approved: draft {id} changed since it was shown — review it again ({e})"),
                );
                fx.push(Effect::Req(Req::Drafts));
            }
            (_, Err(e)) => self.say(Level::Error, failure_text(&action, &label, &e) + &kept),
        }
        if matches!(
            action,
            Action::SetDefaultProvider { .. }
                | Action::SetProviderEnabled { .. }
                | Action::SetJobProvider { .. }
        ) {
            fx.push(Effect::Req(Req::Providers));
        }
    }
    pub(super) fn switch(&mut self, pane: Pane, fx: &mut Vec<Effect>) {
        self.pane = pane;
        match pane {
            Pane::Brief => {
                if let Some(p) = self.profiles.get(self.brief.sel).cloned()
                    && !self.brief.entries.contains_key(&p)
                {
                    fx.extend(self.brief_req(p));
                }
            }
            // Other surfaces (the CLI, another process) may have changed the providers or
            // the deals; their changes reach this process only through the files.
            Pane::Providers => fx.push(Effect::Req(Req::Providers)),
            Pane::Deals => fx.push(Effect::Req(Req::Deals)),
            _ => {}
        }
    }
    fn on_key(&mut self, k: KeyEvent, fx: &mut Vec<Effect>) {
        if k.kind == crossterm::event::KeyEventKind::Release {
            return;
        }
        // Ctrl-C always quits, whatever is open.
        if k.code == KeyCode::Char('c') && k.modifiers.contains(KeyModifiers::CONTROL) {
            self.quit = true;
            return;
        }
        if self.overlay.is_some() {
            self.on_overlay_key(k, fx);
            return;
        }
        // Any key dismisses the message line (an error waits for one).
        self.message = None;
        let Some(act) = self.keymap.lookup(self.pane.section(), &k) else {
            return;
        };
        self.act(act, fx);
    }
    pub(super) fn move_by(&mut self, delta: i64, fx: &mut Vec<Effect>) {
        let step = |sel: usize, len: usize| -> usize {
            if len == 0 {
                return 0;
            }
            (sel as i64 + delta).clamp(0, len as i64 - 1) as usize
        };
        match self.pane {
            Pane::Inbox => {
                let h = self.inbox_list_height();
                self.inbox.sel = step(self.inbox.sel, self.inbox.rows.len());
                self.inbox.seen_up_to_sel();
                self.inbox.offset = follow(self.inbox.sel, self.inbox.offset, h);
                self.maybe_page(fx);
            }
            Pane::Brief => self.brief_select(step(self.brief.sel, self.profiles.len()), fx),
            Pane::Drafts => {
                self.drafts.sel = step(self.drafts.sel, self.drafts.visible().len());
                self.drafts.new_above = self.drafts.new_above.min(self.drafts.sel);
            }
            Pane::Providers => {
                let n = self
                    .providers
                    .view
                    .as_ref()
                    .map_or(0, |v| v.providers.len());
                self.providers.sel = step(self.providers.sel, n);
            }
            Pane::Audit => {
                let h = self.audit_list_height();
                self.audit.sel = step(self.audit.sel, self.audit.visible().len());
                self.audit.offset = follow(self.audit.sel, self.audit.offset, h);
            }
            Pane::Deals => self.deals.sel = step(self.deals.sel, self.deals.deals.len()),
        }
    }
    pub(super) fn top(&mut self, fx: &mut Vec<Effect>) {
        match self.pane {
            Pane::Inbox => {
                if self.inbox.at_top {
                    self.inbox.sel = 0;
                    self.inbox.offset = 0;
                    self.inbox.new_above = 0;
                } else {
                    self.inbox.keep = None;
                    self.inbox.reload_asked = false;
                    self.inbox.generation += 1;
                    self.inbox.loading = true;
                    fx.push(Effect::Req(self.inbox_req(Anchor::Top)));
                }
            }
            _ => self.move_by(i64::MIN / 2, fx),
        }
    }
    pub(super) fn bottom(&mut self, fx: &mut Vec<Effect>) {
        match self.pane {
            Pane::Inbox => {
                if self.inbox.at_bottom {
                    self.move_by(i64::MAX / 2, fx);
                } else {
                    self.inbox.generation += 1;
                    self.inbox.loading = true;
                    fx.push(Effect::Req(self.inbox_req(Anchor::Bottom)));
                }
            }
            _ => self.move_by(i64::MAX / 2, fx),
        }
    }
}

/// What the console says when an action it submitted failed, in the words of what was
/// asked (the label says what success would have been).
fn failure_text(action: &Action, label: &str, e: &str) -> String {
    match action {
        Action::SetDefaultProvider { name } if e.contains("is disabled") => {
            format!("cannot make {name} the default: it is disabled (toggle it on first)")
        }
        Action::SetDefaultProvider { name } => format!("cannot make {name} the default: {e}"),
        Action::SetProviderEnabled { name, enabled } => format!(
            "cannot {} provider {name}: {e}",
            if *enabled { "enable" } else { "disable" }
        ),
        Action::DraftReply { .. } => format!("reply not drafted: {e}"),
        _ => format!("{label} failed: {e}"),
    }
}
