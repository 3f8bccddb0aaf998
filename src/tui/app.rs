//! Console state and `update(Msg)`. Nothing here does I/O: `update` returns `Effect`s (requests
//! for the data task, or the `$EDITOR` round-trip the main loop runs), and `draw` renders the
//! state. That keeps every key path testable without a terminal.

use std::collections::{BTreeMap, VecDeque};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use serde_json::Value;
use time::{OffsetDateTime, UtcOffset};

use super::keymap::{Act, Keymap, Section};
use super::theme::Theme;
use crate::domain::{
    Action, AuditOutcome, AuditRecord, Channel, Draft, DraftStatus, InboxRecord, Outbound, Outcome,
};
use crate::engine::EngineEvent;
use crate::engine::providers::ProvidersView;
use crate::engine::runner::SourceHealth;
use crate::store::inbox::Filter;

/// Records asked for per inbox page.
pub const PAGE: usize = 200;
/// Most inbox rows held in memory at once; scrolling further pages in and drops the far end.
pub const WINDOW_CAP: usize = 3 * PAGE;
/// Audit records kept for the live tail.
pub const AUDIT_CAP: usize = 5000;
/// Characters of a message's text kept for the preview.
pub const PREVIEW_CHARS: usize = 4000;

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Pane {
    Inbox,
    Brief,
    Drafts,
    Providers,
    Audit,
}

impl Pane {
    pub const ALL: [Pane; 5] = [
        Pane::Inbox,
        Pane::Brief,
        Pane::Drafts,
        Pane::Providers,
        Pane::Audit,
    ];
    pub fn title(self) -> &'static str {
        match self {
            Pane::Inbox => "Inbox",
            Pane::Brief => "Brief",
            Pane::Drafts => "Drafts",
            Pane::Providers => "Providers",
            Pane::Audit => "Audit",
        }
    }
    pub fn section(self) -> Section {
        match self {
            Pane::Inbox => Section::Inbox,
            Pane::Brief => Section::Brief,
            Pane::Drafts => Section::Drafts,
            Pane::Providers => Section::Providers,
            Pane::Audit => Section::Audit,
        }
    }
    fn index(self) -> usize {
        Pane::ALL.iter().position(|p| *p == self).unwrap_or(0)
    }
}

/// What the inbox list keeps of a record: enough for the row and the preview, bounded.
#[derive(Debug, Clone, PartialEq)]
pub struct InboxRow {
    pub seq: u64,
    pub id: String,
    pub channel: Channel,
    pub profile: String,
    pub from: String,
    pub subject: String,
    pub received_at: OffsetDateTime,
    pub text: String,
}

impl From<&InboxRecord> for InboxRow {
    fn from(r: &InboxRecord) -> Self {
        use crate::sanitize::one_line;
        let subject = r
            .subject
            .as_deref()
            .filter(|s| !s.trim().is_empty())
            .unwrap_or(&r.preview);
        // Inbound text was sanitized at ingestion; it is escaped again here because it is about
        // to reach a terminal (DESIGN principle 4).
        let text: String = r.text.chars().take(PREVIEW_CHARS).collect();
        InboxRow {
            seq: r.seq,
            id: one_line(&r.id, 200),
            channel: r.channel,
            profile: one_line(&r.profile, 64),
            from: one_line(r.from.label(), 80),
            subject: one_line(subject, 200),
            received_at: r.received_at,
            text: crate::sanitize::clean_text(&text, PREVIEW_CHARS),
        }
    }
}

/// Where an inbox page starts.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Anchor {
    /// The newest records.
    Top,
    /// Records older than this seq (scrolling down).
    Before(u64),
    /// Records newer than this seq (scrolling back up).
    After(u64),
    /// The oldest records.
    Bottom,
}

/// Work for the data task (which owns all I/O).
#[derive(Debug, Clone, PartialEq)]
pub enum Req {
    /// Cursor, drafts, providers, audit tail and chain status.
    LoadAll,
    Inbox {
        generation: u64,
        filter: Filter,
        anchor: Anchor,
    },
    Drafts,
    Providers,
    Verify,
    Brief {
        profile: String,
    },
    Clients,
    /// Through `Engine::submit` with the console as actor.
    Submit {
        action: Action,
        label: String,
    },
}

#[derive(Debug, Clone, PartialEq)]
pub struct ChainStatus {
    pub ok: bool,
    pub text: String,
}

/// Everything that reaches the UI thread, in one channel.
// A few messages a second move through the channel; boxing variants would only add noise.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum Msg {
    Key(KeyEvent),
    Resize(u16, u16),
    Tick,
    Engine(EngineEvent),
    /// The event bus dropped events for us: reload from the files.
    Lagged,
    InboxPage {
        generation: u64,
        anchor: Anchor,
        rows: Vec<InboxRow>,
        last_seq: u64,
    },
    Cursor {
        cursor: u64,
        last_seq: u64,
    },
    Drafts(Vec<Draft>),
    Providers(Result<ProvidersView, String>),
    AuditTail(Vec<AuditRecord>),
    Chain(ChainStatus),
    Brief {
        profile: String,
        morning: Result<Value, String>,
        eod: Result<Value, String>,
    },
    Clients(Vec<String>),
    Submitted {
        label: String,
        action: Action,
        result: Result<Outcome, String>,
    },
    /// A background task died: end the app and print this after restoring the terminal.
    Fatal(String),
}

#[derive(Debug, Clone, PartialEq)]
pub enum Effect {
    Req(Req),
    /// Suspend the terminal and edit this draft's body in `$EDITOR`.
    Edit {
        id: String,
        outbound: Outbound,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    Info,
    Warn,
    Error,
}

#[derive(Debug, Clone, PartialEq)]
pub enum InputKind {
    Filter(Pane),
    Command,
    Reject { id: String },
    Reply { message_id: String },
}

#[derive(Debug, Clone, PartialEq)]
pub enum Overlay {
    Help {
        scroll: u16,
    },
    Details {
        title: String,
        lines: Vec<String>,
        scroll: u16,
    },
    Confirm {
        title: String,
        lines: Vec<String>,
        action: Action,
        label: String,
    },
    Input {
        kind: InputKind,
        title: String,
        buf: String,
    },
}

#[derive(Debug, Clone, Default)]
pub struct InboxView {
    /// The window of rows in memory, newest first.
    pub rows: VecDeque<InboxRow>,
    /// The window starts at the newest matching record.
    pub at_top: bool,
    /// The window ends at the oldest matching record.
    pub at_bottom: bool,
    pub sel: usize,
    pub offset: usize,
    /// Highest seq in the inbox.
    pub last_seq: u64,
    /// The console consumer's cursor: records above it are unread.
    pub cursor: u64,
    pub filter: Filter,
    pub filter_text: String,
    /// Bumped when the filter or the window is reset, so late pages are dropped.
    pub generation: u64,
    pub loading: bool,
    pub loaded_once: bool,
}

impl InboxView {
    pub fn selected(&self) -> Option<&InboxRow> {
        self.rows.get(self.sel)
    }
    pub fn unread(&self) -> u64 {
        self.last_seq.saturating_sub(self.cursor)
    }
}

#[derive(Debug, Clone, Default)]
pub struct DraftsView {
    pub all: Vec<Draft>,
    pub show_all: bool,
    pub filter: String,
    pub sel: usize,
    pub loaded: bool,
}

impl DraftsView {
    /// Undecided first (oldest first, the queue order), then decided ones (newest first).
    pub fn visible(&self) -> Vec<&Draft> {
        let f = self.filter.to_lowercase();
        let mut v: Vec<&Draft> = self
            .all
            .iter()
            .filter(|d| self.show_all || !d.status.is_final())
            .filter(|d| {
                f.is_empty()
                    || [
                        d.id.as_str(),
                        d.profile.as_str(),
                        d.outbound.kind(),
                        d.status.as_str(),
                        &d.outbound.recipients().join(" "),
                        d.outbound.subject().unwrap_or(""),
                    ]
                    .iter()
                    .any(|h| h.to_lowercase().contains(&f))
            })
            .collect();
        v.sort_by(|a, b| {
            let rank = |d: &Draft| match d.status {
                DraftStatus::Pending => 0,
                DraftStatus::Approved | DraftStatus::Failed => 1,
                _ => 2,
            };
            rank(a).cmp(&rank(b)).then_with(|| {
                if rank(a) == 0 {
                    a.created_at.cmp(&b.created_at)
                } else {
                    b.updated_at.cmp(&a.updated_at)
                }
            })
        });
        v
    }
    pub fn selected(&self) -> Option<&Draft> {
        self.visible().get(self.sel).copied()
    }
    pub fn pending(&self) -> usize {
        self.all
            .iter()
            .filter(|d| d.status == DraftStatus::Pending)
            .count()
    }
}

#[derive(Debug, Clone, Default)]
pub struct ProvidersPane {
    pub view: Option<ProvidersView>,
    pub error: Option<String>,
    pub sel: usize,
}

#[derive(Debug, Clone, Default)]
pub struct AuditView {
    /// Newest first.
    pub records: VecDeque<AuditRecord>,
    pub filter: String,
    pub outcome: Option<AuditOutcome>,
    pub sel: usize,
    pub offset: usize,
    pub chain: Option<ChainStatus>,
}

impl AuditView {
    pub fn visible(&self) -> Vec<&AuditRecord> {
        let f = self.filter.to_lowercase();
        let (event_f, text_f): (Vec<&str>, Vec<&str>) =
            f.split_whitespace().partition(|t| t.starts_with("event:"));
        self.records
            .iter()
            .filter(|r| self.outcome.is_none_or(|o| r.event.outcome == o))
            .filter(|r| {
                event_f
                    .iter()
                    .all(|t| r.event.event.starts_with(t.trim_start_matches("event:")))
            })
            .filter(|r| {
                text_f.iter().all(|t| {
                    [
                        r.event.event.as_str(),
                        r.event.actor.as_str(),
                        r.event.outcome.as_str(),
                        r.event.target.as_deref().unwrap_or(""),
                        r.event.entity.as_deref().unwrap_or(""),
                        r.event.reason.as_deref().unwrap_or(""),
                    ]
                    .iter()
                    .any(|h| h.to_lowercase().contains(t))
                })
            })
            .collect()
    }
}

#[derive(Debug, Clone, Default)]
pub struct BriefEntry {
    pub morning: Option<Result<Value, String>>,
    pub eod: Option<Result<Value, String>>,
    pub loading: bool,
}

#[derive(Debug, Clone, Default)]
pub struct BriefView {
    pub sel: usize,
    pub entries: BTreeMap<String, BriefEntry>,
}

#[derive(Debug, Clone, Default)]
pub struct StatusInfo {
    pub mcp_url: Option<String>,
    pub mcp_error: Option<String>,
    pub clients: Vec<String>,
    pub sources: BTreeMap<String, SourceHealth>,
}

pub struct App {
    pub pane: Pane,
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
    /// Ticks since start (for polling the MCP client list now and then).
    ticks: u64,
}

/// Whether approving this draft makes something leave the machine (mail, a chat post, an
/// invitation). Every kind today does; the match makes a new kind decide explicitly.
pub fn sends(o: &Outbound) -> bool {
    match o {
        Outbound::SendEmail { .. }
        | Outbound::ReplyEmail { .. }
        | Outbound::PostChat { .. }
        | Outbound::CreateEvent { .. } => true,
    }
}

/// `o` with its body replaced (for `$EDITOR` edits).
pub fn with_body(o: &Outbound, new_body: String) -> Outbound {
    let mut o = o.clone();
    match &mut o {
        Outbound::SendEmail { body, .. }
        | Outbound::ReplyEmail { body, .. }
        | Outbound::PostChat { body, .. }
        | Outbound::CreateEvent { body, .. } => *body = new_body,
    }
    o
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

impl App {
    pub fn new(theme: Theme, keymap: Keymap, profiles: Vec<String>, size: (u16, u16)) -> App {
        App {
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
            ticks: 0,
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
    fn audit_list_height(&self) -> usize {
        (self.size.1.saturating_sub(3 + 2 + 1) as usize).max(1)
    }

    fn inbox_req(&self, anchor: Anchor) -> Req {
        Req::Inbox {
            generation: self.inbox.generation,
            filter: self.inbox.filter.clone(),
            anchor,
        }
    }

    pub fn say(&mut self, level: Level, text: impl Into<String>) {
        self.message = Some((level, crate::sanitize::one_line(&text.into(), 400)));
    }

    pub fn default_provider(&self) -> Option<&str> {
        self.providers.view.as_ref()?.default.as_deref()
    }

    pub fn failing(&self) -> Vec<String> {
        let mut out: Vec<String> = self
            .status
            .sources
            .values()
            .filter(|h| !h.ok)
            .map(|h| match login_fix(h) {
                // A lost sign-in is fixed by the operator, not by waiting: say how.
                Some(fix) => format!("{} ({}x): {fix}", h.name, h.failures),
                None => format!("{} ({}x)", h.name, h.failures),
            })
            .collect();
        if self.status.mcp_error.is_some() {
            out.push("mcp".into());
        }
        if self.audit.chain.as_ref().is_some_and(|c| !c.ok) {
            out.push("audit chain".into());
        }
        out
    }

    pub fn update(&mut self, msg: Msg) -> Vec<Effect> {
        let mut fx = Vec::new();
        match msg {
            Msg::Key(k) => self.on_key(k, &mut fx),
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
            }
            Msg::Engine(ev) => self.on_engine(ev, &mut fx),
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
                self.drafts.all = d;
                self.drafts.loaded = true;
                self.reselect_draft(prev);
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
            Msg::Chain(c) => self.audit.chain = Some(c),
            Msg::Brief {
                profile,
                morning,
                eod,
            } => {
                let e = self.brief.entries.entry(profile).or_default();
                e.morning = Some(morning);
                e.eod = Some(eod);
                e.loading = false;
            }
            Msg::Clients(c) => self.status.clients = c,
            Msg::Submitted {
                label,
                action,
                result,
            } => self.on_submitted(label, action, result, &mut fx),
            Msg::Fatal(m) => {
                self.fatal = Some(m);
                self.quit = true;
            }
        }
        fx
    }

    fn reload(&mut self) -> Vec<Effect> {
        self.inbox.generation += 1;
        self.inbox.loading = true;
        vec![
            Effect::Req(Req::LoadAll),
            Effect::Req(self.inbox_req(Anchor::Top)),
        ]
    }

    fn reselect_draft(&mut self, prev: Option<String>) {
        let vis = self.drafts.visible();
        if let Some(id) = prev
            && let Some(i) = vis.iter().position(|d| d.id == id)
        {
            self.drafts.sel = i;
            return;
        }
        self.drafts.sel = self.drafts.sel.min(vis.len().saturating_sub(1));
    }

    fn on_engine(&mut self, ev: EngineEvent, _fx: &mut [Effect]) {
        match ev {
            EngineEvent::InboxAppended(rec) => {
                let inbox = &mut self.inbox;
                inbox.last_seq = inbox.last_seq.max(rec.seq);
                let newer = inbox.rows.front().is_none_or(|r| rec.seq > r.seq);
                if inbox.at_top && newer && inbox.filter.matches(&rec) {
                    let had = !inbox.rows.is_empty();
                    inbox.rows.push_front(InboxRow::from(&*rec));
                    // At the top the list follows the newest item; further down the selection
                    // stays on the item the operator is looking at.
                    if had && inbox.sel > 0 {
                        inbox.sel += 1;
                        if inbox.offset > 0 {
                            inbox.offset += 1;
                        }
                    }
                    if inbox.rows.len() > WINDOW_CAP {
                        inbox.rows.pop_back();
                        inbox.at_bottom = false;
                        inbox.sel = inbox.sel.min(inbox.rows.len() - 1);
                    }
                    let h = self.inbox_list_height();
                    self.inbox.offset = follow(self.inbox.sel, self.inbox.offset, h);
                }
            }
            EngineEvent::DraftChanged(d) => {
                let prev = self.drafts.selected().map(|d| d.id.clone());
                let fresh = !self.drafts.all.iter().any(|x| x.id == d.id);
                match self.drafts.all.iter_mut().find(|x| x.id == d.id) {
                    Some(x) => *x = (*d).clone(),
                    None => self.drafts.all.push((*d).clone()),
                }
                self.reselect_draft(prev);
                if fresh && d.status == DraftStatus::Pending && self.pane != Pane::Drafts {
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
        }
    }

    fn on_inbox_page(
        &mut self,
        generation: u64,
        anchor: Anchor,
        rows: Vec<InboxRow>,
        last_seq: u64,
        fx: &mut Vec<Effect>,
    ) {
        let h = self.inbox_list_height();
        let inbox = &mut self.inbox;
        if generation != inbox.generation {
            return; // a page for a filter or window that no longer applies
        }
        inbox.loading = false;
        inbox.loaded_once = true;
        inbox.last_seq = inbox.last_seq.max(last_seq);
        let full = rows.len() >= PAGE;
        match anchor {
            Anchor::Top => {
                inbox.rows = rows.into();
                inbox.at_top = true;
                inbox.at_bottom = !full;
                inbox.sel = 0;
                inbox.offset = 0;
            }
            Anchor::Bottom => {
                // Pages are asked oldest-first from the bottom; the data task returns them
                // newest first like every page.
                inbox.rows = rows.into();
                inbox.at_bottom = true;
                inbox.at_top = !full;
                inbox.sel = inbox.rows.len().saturating_sub(1);
            }
            Anchor::Before(_) => {
                inbox.at_bottom = !full;
                inbox.rows.extend(rows);
                let excess = inbox.rows.len().saturating_sub(WINDOW_CAP);
                if excess > 0 {
                    inbox.rows.drain(..excess);
                    inbox.sel = inbox.sel.saturating_sub(excess);
                    inbox.offset = inbox.offset.saturating_sub(excess);
                    inbox.at_top = false;
                }
            }
            Anchor::After(_) => {
                inbox.at_top = !full;
                let n = rows.len();
                for r in rows.into_iter().rev() {
                    inbox.rows.push_front(r);
                }
                inbox.sel += n;
                inbox.offset += n;
                if inbox.rows.len() > WINDOW_CAP {
                    inbox.rows.truncate(WINDOW_CAP);
                    inbox.at_bottom = false;
                }
            }
        }
        inbox.sel = inbox.sel.min(inbox.rows.len().saturating_sub(1));
        inbox.offset = follow(inbox.sel, inbox.offset, h);
        self.maybe_page(fx);
    }

    /// Ask for the next page when the selection nears either end of the window.
    fn maybe_page(&mut self, fx: &mut Vec<Effect>) {
        let margin = self.inbox_list_height() + 10;
        let inbox = &self.inbox;
        if inbox.loading || inbox.rows.is_empty() {
            return;
        }
        let anchor = if !inbox.at_bottom && inbox.sel + margin >= inbox.rows.len() {
            inbox.rows.back().map(|r| Anchor::Before(r.seq))
        } else if !inbox.at_top && inbox.sel < margin {
            inbox.rows.front().map(|r| Anchor::After(r.seq))
        } else {
            None
        };
        if let Some(a) = anchor {
            self.inbox.loading = true;
            fx.push(Effect::Req(self.inbox_req(a)));
        }
    }

    fn on_submitted(
        &mut self,
        label: String,
        action: Action,
        result: Result<Outcome, String>,
        fx: &mut Vec<Effect>,
    ) {
        match (&action, result) {
            (Action::MarkRead { .. }, Ok(Outcome::Done { detail })) => {
                if let Some(c) = detail.get("cursor").and_then(Value::as_u64) {
                    self.inbox.cursor = c;
                }
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
                    format!("blocked by {rule}: {reason} — {remedy}"),
                );
            }
            (_, Ok(Outcome::Queued { draft_id, .. })) => {
                self.say(
                    Level::Info,
                    format!("{label}: draft {draft_id} queued for approval (Drafts, 3)"),
                );
            }
            (_, Ok(Outcome::Done { .. })) => self.say(Level::Info, label),
            (Action::ApproveDraft { id, .. }, Err(e)) if e.contains("changed since") => {
                self.say(
                    Level::Error,
                    format!("NOT approved: draft {id} changed since it was shown — review it again ({e})"),
                );
                fx.push(Effect::Req(Req::Drafts));
            }
            (_, Err(e)) => self.say(Level::Error, format!("{label} failed: {e}")),
        }
        if matches!(
            action,
            Action::SetDefaultProvider { .. } | Action::SetProviderEnabled { .. }
        ) {
            fx.push(Effect::Req(Req::Providers));
        }
    }

    fn switch(&mut self, pane: Pane, fx: &mut Vec<Effect>) {
        self.pane = pane;
        match pane {
            Pane::Brief => {
                if let Some(p) = self.profiles.get(self.brief.sel).cloned()
                    && !self.brief.entries.contains_key(&p)
                {
                    fx.extend(self.brief_req(p));
                }
            }
            // Other surfaces (the CLI) may have changed the providers.
            Pane::Providers => fx.push(Effect::Req(Req::Providers)),
            _ => {}
        }
    }

    fn brief_req(&mut self, profile: String) -> Vec<Effect> {
        self.brief
            .entries
            .entry(profile.clone())
            .or_default()
            .loading = true;
        vec![Effect::Req(Req::Brief { profile })]
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
        let Some(act) = self.keymap.lookup(self.pane.section(), &k) else {
            return;
        };
        self.message = None;
        self.act(act, fx);
    }

    pub fn act(&mut self, act: Act, fx: &mut Vec<Effect>) {
        match act {
            Act::Quit => self.quit = true,
            Act::NextPane => {
                let i = (self.pane.index() + 1) % Pane::ALL.len();
                self.switch(Pane::ALL[i], fx);
            }
            Act::PrevPane => {
                let i = (self.pane.index() + Pane::ALL.len() - 1) % Pane::ALL.len();
                self.switch(Pane::ALL[i], fx);
            }
            Act::PaneInbox => self.switch(Pane::Inbox, fx),
            Act::PaneBrief => self.switch(Pane::Brief, fx),
            Act::PaneDrafts => self.switch(Pane::Drafts, fx),
            Act::PaneProviders => self.switch(Pane::Providers, fx),
            Act::PaneAudit => self.switch(Pane::Audit, fx),
            Act::Down => self.move_by(1, fx),
            Act::Up => self.move_by(-1, fx),
            Act::PageDown => self.move_by(self.inbox_list_height() as i64, fx),
            Act::PageUp => self.move_by(-(self.inbox_list_height() as i64), fx),
            Act::Top => self.top(fx),
            Act::Bottom => self.bottom(fx),
            Act::Filter => {
                let buf = match self.pane {
                    Pane::Inbox => self.inbox.filter_text.clone(),
                    Pane::Drafts => self.drafts.filter.clone(),
                    Pane::Audit => self.audit.filter.clone(),
                    _ => {
                        self.say(Level::Info, "this pane has no filter");
                        return;
                    }
                };
                self.overlay = Some(Overlay::Input {
                    kind: InputKind::Filter(self.pane),
                    title: match self.pane {
                        Pane::Inbox => "Filter inbox (text, channel:NAME, profile:NAME)".into(),
                        Pane::Audit => "Filter audit (text, event:PREFIX)".into(),
                        _ => "Filter drafts (text)".into(),
                    },
                    buf,
                });
            }
            Act::Command => {
                self.overlay = Some(Overlay::Input {
                    kind: InputKind::Command,
                    title: "Command (inbox, brief, drafts, providers, audit, verify, refresh, theme NAME, help, quit)".into(),
                    buf: String::new(),
                })
            }
            Act::Help => self.overlay = Some(Overlay::Help { scroll: 0 }),
            Act::Details => self.details(),
            Act::Refresh => fx.extend(self.reload()),
            Act::DraftReply => {
                if let Some(r) = self.inbox.selected() {
                    if r.channel == Channel::Calendar {
                        self.say(Level::Warn, "calendar items cannot be replied to");
                        return;
                    }
                    self.overlay = Some(Overlay::Input {
                        kind: InputKind::Reply {
                            message_id: r.id.clone(),
                        },
                        title: format!("Reply to {} — body of the draft (Enter queues it)", r.from),
                        buf: String::new(),
                    });
                }
            }
            Act::MarkRead => {
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
            Act::MarkAllRead => {
                let seq = self.inbox.last_seq;
                fx.push(Effect::Req(Req::Submit {
                    action: Action::MarkRead {
                        consumer: "console".into(),
                        seq,
                    },
                    label: "marked everything read".into(),
                }));
            }
            Act::Regenerate => {
                if let Some(p) = self.profiles.get(self.brief.sel).cloned() {
                    fx.extend(self.brief_req(p));
                }
            }
            Act::Approve => self.approve(),
            Act::Reject => {
                if let Some(d) = self.drafts.selected() {
                    if d.status.is_final() {
                        let msg = format!("draft {} is already {}", d.id, d.status.as_str());
                        self.say(Level::Warn, msg);
                        return;
                    }
                    self.overlay = Some(Overlay::Input {
                        kind: InputKind::Reject { id: d.id.clone() },
                        title: format!("Reject draft {} — reason (Enter to reject, Esc to cancel)", d.id),
                        buf: String::new(),
                    });
                }
            }
            Act::Edit => {
                if let Some(d) = self.drafts.selected() {
                    if d.status.is_final() {
                        let msg = format!("draft {} is {}; it cannot be edited", d.id, d.status.as_str());
                        self.say(Level::Warn, msg);
                        return;
                    }
                    fx.push(Effect::Edit {
                        id: d.id.clone(),
                        outbound: d.outbound.clone(),
                    });
                }
            }
            Act::ShowAll => {
                self.drafts.show_all = !self.drafts.show_all;
                self.drafts.sel = 0;
            }
            Act::ToggleEnabled => {
                if let Some(p) = self.selected_provider() {
                    let enabled = !p.enabled;
                    let label = format!(
                        "provider {} {}",
                        p.name,
                        if enabled { "enabled" } else { "disabled" }
                    );
                    let name = p.name.clone();
                    fx.push(Effect::Req(Req::Submit {
                        action: Action::SetProviderEnabled { name, enabled },
                        label,
                    }));
                }
            }
            Act::SetDefault => {
                if let Some(p) = self.selected_provider() {
                    let name = p.name.clone();
                    fx.push(Effect::Req(Req::Submit {
                        label: format!("default provider is now {name}"),
                        action: Action::SetDefaultProvider { name },
                    }));
                }
            }
            Act::CycleOutcome => {
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
            Act::Verify => {
                self.audit.chain = Some(ChainStatus {
                    ok: true,
                    text: "verifying…".into(),
                });
                fx.push(Effect::Req(Req::Verify));
            }
        }
    }

    fn selected_provider(&self) -> Option<&crate::engine::providers::ProviderRow> {
        self.providers
            .view
            .as_ref()?
            .providers
            .get(self.providers.sel)
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
        if sends(&d.outbound) {
            let mut lines = vec![
                format!("{} for profile {}", d.outbound.kind(), d.profile),
                format!("to: {}", d.outbound.recipients().join(", ")),
            ];
            if let Some(s) = d.outbound.subject() {
                lines.push(format!("subject: {s}"));
            }
            lines.push(String::new());
            lines.extend(d.outbound.body().lines().take(6).map(str::to_string));
            lines.push(String::new());
            lines.push(
                "Approving releases this to be sent. y / Enter = approve, n / Esc = cancel".into(),
            );
            self.overlay = Some(Overlay::Confirm {
                title: format!("Approve draft {}?", d.id),
                lines,
                action,
                label,
            });
        } else {
            self.overlay = None;
        }
    }

    fn details(&mut self) {
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
                    format!("received: {}", fmt_time(r.received_at, self.tz)),
                    "(inbound content: untrusted data)".into(),
                    String::new(),
                ];
                lines.extend(r.text.lines().map(str::to_string));
                (format!("Message #{}", r.seq), lines)
            }
            Pane::Drafts => {
                let Some(d) = self.drafts.selected() else {
                    return;
                };
                (format!("Draft {}", d.id), draft_lines(d, self.tz))
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
                    format!("target:   {}", e.target.as_deref().unwrap_or("—")),
                    format!("reason:   {}", e.reason.as_deref().unwrap_or("—")),
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
        });
    }

    fn move_by(&mut self, delta: i64, fx: &mut Vec<Effect>) {
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
                self.inbox.offset = follow(self.inbox.sel, self.inbox.offset, h);
                self.maybe_page(fx);
            }
            Pane::Brief => self.brief_select(step(self.brief.sel, self.profiles.len()), fx),
            Pane::Drafts => self.drafts.sel = step(self.drafts.sel, self.drafts.visible().len()),
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
        }
    }

    fn brief_select(&mut self, i: usize, fx: &mut Vec<Effect>) {
        self.brief.sel = i;
        if let Some(p) = self.profiles.get(i).cloned()
            && !self.brief.entries.contains_key(&p)
        {
            fx.extend(self.brief_req(p));
        }
    }

    fn top(&mut self, fx: &mut Vec<Effect>) {
        match self.pane {
            Pane::Inbox => {
                if self.inbox.at_top {
                    self.inbox.sel = 0;
                    self.inbox.offset = 0;
                } else {
                    self.inbox.generation += 1;
                    self.inbox.loading = true;
                    fx.push(Effect::Req(self.inbox_req(Anchor::Top)));
                }
            }
            _ => self.move_by(i64::MIN / 2, fx),
        }
    }

    fn bottom(&mut self, fx: &mut Vec<Effect>) {
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

    fn on_overlay_key(&mut self, k: KeyEvent, fx: &mut Vec<Effect>) {
        let Some(ov) = self.overlay.take() else {
            return;
        };
        match ov {
            Overlay::Help { scroll } => {
                if let Some(scroll) = scroll_key(&k, scroll) {
                    self.overlay = Some(Overlay::Help { scroll });
                }
            }
            Overlay::Details {
                title,
                lines,
                scroll,
            } => {
                if let Some(scroll) = scroll_key(&k, scroll) {
                    self.overlay = Some(Overlay::Details {
                        title,
                        lines,
                        scroll,
                    });
                }
            }
            Overlay::Confirm { action, label, .. } => match k.code {
                KeyCode::Char('y') | KeyCode::Char('Y') | KeyCode::Enter => {
                    fx.push(Effect::Req(Req::Submit { action, label }));
                }
                _ => self.say(Level::Info, "cancelled; nothing was approved"),
            },
            Overlay::Input {
                kind,
                title,
                mut buf,
            } => match k.code {
                KeyCode::Esc => {}
                KeyCode::Enter => self.on_input(kind, buf, fx),
                KeyCode::Backspace => {
                    buf.pop();
                    self.overlay = Some(Overlay::Input { kind, title, buf });
                }
                KeyCode::Char(c) if !k.modifiers.contains(KeyModifiers::CONTROL) => {
                    if buf.chars().count() < 2000 && !c.is_control() {
                        buf.push(c);
                    }
                    self.overlay = Some(Overlay::Input { kind, title, buf });
                }
                _ => self.overlay = Some(Overlay::Input { kind, title, buf }),
            },
        }
    }

    fn on_input(&mut self, kind: InputKind, buf: String, fx: &mut Vec<Effect>) {
        match kind {
            InputKind::Filter(Pane::Inbox) => match parse_inbox_filter(&buf, &self.profiles) {
                Ok(filter) => {
                    self.inbox.filter = filter;
                    self.inbox.filter_text = buf.trim().to_string();
                    self.inbox.generation += 1;
                    self.inbox.loading = true;
                    self.inbox.rows.clear();
                    self.inbox.sel = 0;
                    self.inbox.offset = 0;
                    fx.push(Effect::Req(self.inbox_req(Anchor::Top)));
                }
                Err(e) => self.say(Level::Error, e),
            },
            InputKind::Filter(Pane::Audit) => {
                self.audit.filter = buf.trim().to_string();
                self.audit.sel = 0;
                self.audit.offset = 0;
            }
            InputKind::Filter(_) => {
                self.drafts.filter = buf.trim().to_string();
                self.drafts.sel = 0;
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
            InputKind::Reply { message_id } => {
                let body = buf.trim().to_string();
                if body.is_empty() {
                    self.say(Level::Warn, "empty reply; nothing was drafted");
                    return;
                }
                fx.push(Effect::Req(Req::Submit {
                    label: "reply drafted".into(),
                    action: Action::DraftReply { message_id, body },
                }));
            }
            InputKind::Command => self.command(buf.trim(), fx),
        }
    }

    fn command(&mut self, cmd: &str, fx: &mut Vec<Effect>) {
        let mut parts = cmd.split_whitespace();
        let head = parts.next().unwrap_or("");
        let arg = parts.collect::<Vec<_>>().join(" ");
        match head {
            "" => {}
            "q" | "quit" | "exit" => self.quit = true,
            "inbox" | "1" => self.switch(Pane::Inbox, fx),
            "brief" | "2" => self.switch(Pane::Brief, fx),
            "drafts" | "3" => self.switch(Pane::Drafts, fx),
            "providers" | "4" => self.switch(Pane::Providers, fx),
            "audit" | "5" => self.switch(Pane::Audit, fx),
            "verify" => self.act(Act::Verify, fx),
            "refresh" | "reload" => self.act(Act::Refresh, fx),
            "help" => self.act(Act::Help, fx),
            "theme" => match super::theme::Theme::built_in(&arg, self.theme.no_color) {
                Some(t) => {
                    self.theme = t;
                    self.say(Level::Info, format!("theme {arg}"));
                }
                None => self.say(
                    Level::Error,
                    format!(
                        "no built-in theme `{arg}` (dark, light, high-contrast; others: --theme)"
                    ),
                ),
            },
            other => self.say(
                Level::Error,
                format!("unknown command `{other}` (try :help)"),
            ),
        }
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

pub fn fmt_time(t: OffsetDateTime, tz: UtcOffset) -> String {
    let f = time::macros::format_description!("[year]-[month]-[day] [hour]:[minute]");
    t.to_offset(tz).format(&f).unwrap_or_default()
}

pub fn draft_lines(d: &Draft, tz: UtcOffset) -> Vec<String> {
    let verdict = match &d.verdict {
        crate::domain::Verdict::Run => "run".to_string(),
        crate::domain::Verdict::Queue { reason } => format!("queue — {reason}"),
        crate::domain::Verdict::Block { rule, reason, .. } => format!("block — {rule}: {reason}"),
    };
    let mut lines = vec![
        format!("status:     {}", d.status.as_str()),
        format!("profile:    {}", d.profile),
        format!("kind:       {}", d.outbound.kind()),
        format!("recipients: {}", d.outbound.recipients().join(", ")),
        format!("subject:    {}", d.outbound.subject().unwrap_or("—")),
        format!("verdict:    {verdict}"),
        format!("provider:   {}", d.provider.as_deref().unwrap_or("—")),
        format!(
            "created:    {} by {}",
            fmt_time(d.created_at, tz),
            d.created_by
        ),
        format!("updated:    {}", fmt_time(d.updated_at, tz)),
        format!("edits:      {}", d.edits),
        format!("digest:     {}", d.digest),
    ];
    if let Some(by) = &d.decided_by {
        lines.push(format!("decided by: {by}"));
    }
    if let Some(r) = &d.reason {
        lines.push(format!("reason:     {r}"));
    }
    lines.push(String::new());
    lines.extend(d.outbound.body().lines().map(str::to_string));
    lines
}

/// `text channel:NAME profile:NAME` (also `c:` / `p:`).
pub fn parse_inbox_filter(s: &str, profiles: &[String]) -> Result<Filter, String> {
    let mut f = Filter::default();
    let mut text = Vec::new();
    for tok in s.split_whitespace() {
        if let Some(c) = tok
            .strip_prefix("channel:")
            .or_else(|| tok.strip_prefix("c:"))
        {
            f.channel = Some(c.parse::<Channel>()?);
        } else if let Some(p) = tok
            .strip_prefix("profile:")
            .or_else(|| tok.strip_prefix("p:"))
        {
            if !profiles.iter().any(|x| x == p) {
                return Err(format!(
                    "unknown profile `{p}`; profiles: {}",
                    profiles.join(", ")
                ));
            }
            f.profile = Some(p.to_string());
        } else {
            text.push(tok);
        }
    }
    if !text.is_empty() {
        f.text = Some(text.join(" "));
    }
    Ok(f)
}

/// The `opsdesk login <profile>` command named in a source's error, when its sign-in is gone.
fn login_fix(h: &SourceHealth) -> Option<&str> {
    let err = h.last_error.as_deref()?;
    let start = err.find("`opsdesk login ")? + 1;
    let len = err[start..].find('`')?;
    Some(&err[start..start + len])
}

#[cfg(test)]
mod login_fix_tests {
    use super::*;

    #[test]
    fn a_lost_sign_in_names_its_fix() {
        let mut h = SourceHealth {
            name: "graph_mail:work".into(),
            ok: false,
            failures: 2,
            last_error: Some(
                "login required for profile `work` (not signed in); run `opsdesk login work`"
                    .into(),
            ),
            last_ok: None,
            items: 0,
        };
        assert_eq!(login_fix(&h), Some("opsdesk login work"));
        h.last_error = Some("cannot reach Microsoft Graph: timed out".into());
        assert_eq!(login_fix(&h), None);
    }
}
