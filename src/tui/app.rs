//! Console state and `update(Msg)`. Nothing here does I/O: `update` returns `Effect`s (requests
//! for the data task, or the `$EDITOR` round-trip the main loop runs), and `draw` renders the
//! state. That keeps every key path testable without a terminal.

use crate::assistant::JobKind;
use crate::engine::jobs::{JobProgress, JobState};
use std::collections::{BTreeMap, VecDeque};

use crossterm::event::{KeyCode, KeyEvent, KeyModifiers, MouseEvent};
use serde_json::Value;
use time::{OffsetDateTime, UtcOffset};

use super::keymap::{Keymap, Section};
use super::theme::Theme;
use crate::domain::{
    Action, AuditOutcome, AuditRecord, Channel, Draft, DraftEvent, DraftEventKind, DraftStatus,
    InboxRecord, Outbound, Outcome,
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

/// What the inbox list keeps of a record: enough for the row and the preview, bounded.
#[derive(Debug, Clone, PartialEq)]
pub struct InboxRow {
    pub seq: u64,
    pub id: String,
    pub channel: Channel,
    pub profile: String,
    pub from: String,
    pub subject: String,
    /// The message's own time (sent / posted / starts): what every surface shows.
    pub ts: OffsetDateTime,
    /// When opsdesk took it in.
    pub received_at: OffsetDateTime,
    pub text: String,
    /// The item's triage, when it has one (filled in by the data thread).
    pub triage: Option<crate::assistant::store::TriageRecord>,
    /// The attachments, listed in the details; opened or saved only on the operator's key.
    pub attachments: Vec<AttachmentRow>,
    /// Whether its profile was unclear (`unassigned`, placed by a `[classification]` rule,
    /// or assigned by the operator before): only such items may be assigned, so `P` refuses
    /// the others before asking. The engine checks again.
    pub profile_unclear: bool,
}

impl InboxRow {
    /// `[decision!] ` before the subject: the category, `!` for high urgency; empty untriaged.
    pub fn triage_tag(&self) -> String {
        match &self.triage {
            Some(t) => format!(
                "[{}{}] ",
                t.category.as_str(),
                if t.urgency == crate::assistant::triage::Urgency::High {
                    "!"
                } else {
                    ""
                }
            ),
            None => String::new(),
        }
    }
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
            ts: r.ts,
            received_at: r.received_at,
            text: crate::sanitize::clean_text(&text, PREVIEW_CHARS),
            triage: None,
            attachments: r.attachments.iter().map(AttachmentRow::from).collect(),
            profile_unclear: r.profile == crate::domain::UNASSIGNED
                || r.meta.contains_key(crate::domain::META_PROFILE_RULE)
                || r.meta.contains_key(crate::domain::META_PROFILE_ASSIGNED),
        }
    }
}

/// One attachment of an inbox row: its line for the details, and what opening or saving it
/// needs.
#[derive(Debug, Clone, PartialEq)]
pub struct AttachmentRow {
    /// `Attachment::summary`, escaped for the terminal.
    pub line: String,
    /// The neutralized name (`sanitize::safe_file_name`), the name a saved copy gets.
    pub name: String,
    /// The stored bytes' hash; `None` when there are no bytes to open (too large, a link…).
    pub sha256: Option<String>,
    /// `executable`, `script`, `macro`: opening it asks first.
    pub risk: Option<String>,
}

impl From<&crate::domain::Attachment> for AttachmentRow {
    fn from(a: &crate::domain::Attachment) -> Self {
        AttachmentRow {
            line: crate::sanitize::for_terminal(&a.summary()),
            name: crate::sanitize::safe_file_name(&a.name),
            sha256: a
                .sha256
                .clone()
                .filter(|_| a.status == crate::domain::AttachmentStatus::Stored),
            risk: a.risk.clone(),
        }
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
    /// Cursor, drafts, providers, deals, audit tail and chain status.
    LoadAll,
    /// Every deal (the Deals pane).
    Deals,
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
    /// The events of one draft, for its life in the Drafts pane.
    DraftHistory {
        id: String,
    },
    /// What switching a provider would block (entities left without a usable provider).
    ToggleImpact {
        name: String,
        enabled: bool,
    },
    /// Through `Engine::submit` with the console as actor.
    Submit {
        action: Action,
        label: String,
    },
    /// Run an assistant job in the background (progress arrives as engine events, the
    /// result as `Msg::JobDone`).
    Job {
        job: JobKind,
        target: JobTarget,
    },
    /// Cancel every running assistant job.
    CancelJobs,
    /// The triage of these items (after a job changed it).
    TriageOf {
        seqs: Vec<u64>,
    },
    /// The operator's triage of one item (wins over rules and model).
    SetTriage {
        seq: u64,
        category: crate::assistant::triage::Category,
        urgency: crate::assistant::triage::Urgency,
        reason: Option<String>,
    },
    /// The operator gives an item of unclear profile its profile (`Engine::assign_profile`).
    AssignProfile {
        seq: u64,
        profile: String,
    },
    /// Start the system's opener on a stored attachment (`tui::files::open`).
    OpenAttachment {
        sha256: String,
        name: String,
    },
    /// Save a copy of a stored attachment into the folder the operator typed
    /// (`tui::files::save`).
    SaveAttachment {
        sha256: String,
        name: String,
        dir: String,
    },
}

/// What a job from the console works on.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum JobTarget {
    /// These items.
    Seqs(Vec<u64>),
    /// Every item without a triage yet (triage only), oldest first.
    Untriaged,
}

#[derive(Debug, Clone, PartialEq)]
pub struct ChainStatus {
    pub ok: bool,
    pub text: String,
    /// Records the verification covered (the chain's length when it ran).
    pub records: u64,
    /// When it ran.
    pub at: Option<OffsetDateTime>,
}

/// Everything that reaches the UI thread, in one channel.
// A few messages a second move through the channel; boxing variants would only add noise.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum Msg {
    Key(KeyEvent),
    Mouse(MouseEvent),
    Resize(u16, u16),
    Tick,
    Engine(EngineEvent),
    /// The event bus dropped events for us: reload from the files.
    Lagged,
    /// The drafts file changed on disk (perhaps by another process): reload the queue.
    DraftsOnDisk,
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
    /// Every deal, open ones first.
    Deals(Result<Vec<crate::domain::Deal>, String>),
    Providers(Result<ProvidersView, String>),
    /// The tool vault's tools and their health (`vault::VaultView::of_engine`).
    Vault(Result<crate::vault::VaultView, String>),
    AuditTail(Vec<AuditRecord>),
    Chain(ChainStatus),
    Brief {
        profile: String,
        morning: Result<Value, String>,
        eod: Result<Value, String>,
    },
    Clients(Vec<String>),
    DraftHistory {
        id: String,
        events: Result<Vec<DraftEvent>, String>,
    },
    ToggleImpact {
        name: String,
        enabled: bool,
        /// The entities the switch would leave blocked, each with why.
        blocks: Result<Vec<String>, String>,
    },
    Submitted {
        label: String,
        action: Action,
        result: Result<Outcome, String>,
    },
    /// A console job ended: what it did to its one item (a batch's end is said by its
    /// final progress event), or why it could not run.
    JobDone {
        job: JobKind,
        result: Result<Option<String>, String>,
    },
    /// Fresh triage of inbox rows (`Req::TriageOf`).
    Triage(Vec<(u64, Option<crate::assistant::store::TriageRecord>)>),
    /// An item now has this profile (the operator assigned it).
    Assigned {
        seq: u64,
        profile: String,
    },
    /// A line for the message line (what opening or saving an attachment did).
    Notice {
        level: Level,
        text: String,
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
    /// Suspend the terminal and write a reply to this message in `$EDITOR`, starting from
    /// `template` (the quoted message).
    Compose {
        message_id: String,
        to: String,
        template: String,
    },
    /// Capture the mouse (true) or give it back to the terminal for text selection.
    Mouse(bool),
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
    /// Why the text being typed is not a valid filter yet (the last valid one applies).
    pub filter_error: Option<String>,
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
    /// Undecided drafts youngest first (`s`); by default the oldest, the most urgent, lead.
    pub newest_first: bool,
    /// Drafts marked for a batch decision (`space`), by id.
    pub marked: std::collections::BTreeSet<String>,
    pub filter: String,
    pub sel: usize,
    pub loaded: bool,
}

impl DraftsView {
    /// Undecided first, by age (oldest first unless `newest_first`), then decided ones (most
    /// recently decided first).
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
                    // Age counts from creation (or re-queue), the same clock the TTL uses.
                    let oldest_first = a.created_at.cmp(&b.created_at);
                    if self.newest_first {
                        oldest_first.reverse()
                    } else {
                        oldest_first
                    }
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
    /// The marked drafts that are still pending, in the order shown.
    pub fn marked_pending(&self) -> Vec<&Draft> {
        self.visible()
            .into_iter()
            .filter(|d| d.status == DraftStatus::Pending && self.marked.contains(&d.id))
            .collect()
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
    /// The tool vault's section of the pane (what the assistant and MCP clients can use);
    /// `None` until the data task has read it.
    pub vault: Option<Result<crate::vault::VaultView, String>>,
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
    /// When this console received the answer: the brief is a snapshot, not live, so its
    /// counts may lag the status bar; the time says how old it is.
    pub generated: Option<OffsetDateTime>,
}

#[derive(Debug, Clone, Default)]
pub struct BriefView {
    pub sel: usize,
    pub entries: BTreeMap<String, BriefEntry>,
    /// Lines the brief and digest texts are scrolled by (PgDn / PgUp; reset on another
    /// profile or a regeneration).
    pub scroll: u16,
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
    history_asked: Option<(String, OffsetDateTime)>,
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
}

/// Messages kept in the log.
pub const LOG_CAP: usize = 200;

/// The Deals pane: every deal, open ones first, and the selected one's detail.
#[derive(Debug, Clone, Default)]
pub struct DealsView {
    pub deals: Vec<crate::domain::Deal>,
    pub sel: usize,
    pub error: Option<String>,
    pub loaded: bool,
}

impl DealsView {
    pub fn selected(&self) -> Option<&crate::domain::Deal> {
        self.deals.get(self.sel)
    }

    fn set(&mut self, mut deals: Vec<crate::domain::Deal>) {
        let prev = self.selected().map(|d| d.id.clone());
        // Open deals first, then by name: what the operator works on is at the top.
        deals.sort_by(|a, b| {
            b.is_open()
                .cmp(&a.is_open())
                .then_with(|| a.name.to_lowercase().cmp(&b.name.to_lowercase()))
        });
        self.deals = deals;
        self.sel = prev
            .and_then(|id| self.deals.iter().position(|d| d.id == id))
            .unwrap_or(self.sel)
            .min(self.deals.len().saturating_sub(1));
        self.loaded = true;
        self.error = None;
    }
}

/// Whether approving this draft makes something leave the machine (mail, a chat post, an
/// invitation). Every kind today does; the match makes a new kind decide explicitly.
pub fn sends(o: &Outbound) -> bool {
    match o {
        Outbound::SendEmail { .. }
        | Outbound::ReplyEmail { .. }
        | Outbound::PostChat { .. }
        | Outbound::CreateEvent { .. } => true,
        // Accepting a deal proposal creates the deal locally.
        Outbound::CreateDeal { .. } => false,
        // Changes the mailbox, sends nothing.
        Outbound::MoveMail { .. } => false,
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
        Outbound::CreateDeal { spec } => spec.notes = new_body,
        Outbound::MoveMail { .. } => {}
    }
    o
}

/// A draft's age in the fewest characters that still read well: `45m`, `7h`, `3d4h`, `12d`.
pub fn age_text(created: OffsetDateTime, now: OffsetDateTime) -> String {
    let mins = (now - created).whole_minutes();
    if mins < 0 {
        return "-".into();
    }
    let (d, h, m) = (mins / 1440, mins / 60 % 24, mins % 60);
    match (d, h) {
        (0, 0) => format!("{m}m"),
        (0, h) => format!("{h}h"),
        (d, h) if d < 10 && h > 0 => format!("{d}d{h}h"),
        (d, _) => format!("{d}d"),
    }
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

/// `category [urgency] [reason…]` as typed in the classify box (urgency `normal` when left
/// out).
pub fn parse_classify(
    text: &str,
) -> Result<
    (
        crate::assistant::triage::Category,
        crate::assistant::triage::Urgency,
        Option<String>,
    ),
    String,
> {
    use crate::assistant::triage::{Category, Urgency};
    let mut words = text.split_whitespace().peekable();
    let category: Category = words
        .next()
        .ok_or("type a category: needs_reply, decision, meeting, deadline, fyi or bulk")?
        .parse()?;
    let urgency = match words.peek().map(|w| w.parse::<Urgency>()) {
        Some(Ok(u)) => {
            words.next();
            u
        }
        _ => Urgency::Normal,
    };
    let reason = words.collect::<Vec<_>>().join(" ");
    Ok((category, urgency, (!reason.is_empty()).then_some(reason)))
}

/// The progress line of the running jobs: `triage 3/10 ▕███░░░░░░░▏ · deadlines 1/1`.
pub fn jobs_line(jobs: &BTreeMap<u64, JobProgress>) -> Option<String> {
    if jobs.is_empty() {
        return None;
    }
    let parts: Vec<String> = jobs
        .values()
        .map(|p| {
            const W: usize = 10;
            let filled = (p.done * W).checked_div(p.total).unwrap_or(W).min(W);
            format!(
                "{} ▕{}{}▏",
                p.line(),
                "█".repeat(filled),
                "░".repeat(W - filled)
            )
        })
        .collect();
    Some(parts.join(" · "))
}

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

    pub(super) fn inbox_req(&self, anchor: Anchor) -> Req {
        Req::Inbox {
            generation: self.inbox.generation,
            filter: self.inbox.filter.clone(),
            anchor,
        }
    }

    /// One notice for every draft that waits too long, at most once per interval (the
    /// drafts as this console knows them, at `self.now`).
    fn remind(&mut self) {
        if !self.drafts.loaded {
            return;
        }
        let now = self.now;
        let Some(r) = self.reminders.as_mut() else {
            return;
        };
        if let Some(reminder) = r.check(&self.drafts.all, now) {
            let key = self
                .keymap
                .key_for(Pane::Drafts.section(), super::keymap::Act::PaneDrafts);
            self.say(
                Level::Warn,
                format!("{} ({key} shows them)", reminder.line()),
            );
        }
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
        // A provider whose calls fail (a missing credential, a refused key…) fails every LLM
        // job routed to it: as much a failure as a source's.
        let (no_key, llm): (Vec<_>, Vec<_>) = self
            .failing_providers()
            .into_iter()
            .partition(|p| p.missing_credential.is_some() && p.cooldown_until.is_none());
        for (what, list) in [("LLM key missing", no_key), ("LLM failing", llm)] {
            if !list.is_empty() {
                let names: Vec<&str> = list.iter().map(|p| p.name.as_str()).collect();
                out.push(format!("{what}: {}", names.join(", ")));
            }
        }
        if self.status.mcp_error.is_some() {
            out.push("mcp".into());
        }
        if self.audit.chain.as_ref().is_some_and(|c| !c.ok) {
            out.push("audit chain".into());
        }
        out
    }

    /// Enabled providers whose calls in this process failed and none answered (or that cool
    /// down): the Providers pane's HEALTH `failing` / `cool`.
    pub fn failing_providers(&self) -> Vec<&crate::engine::providers::ProviderRow> {
        self.providers.view.as_ref().map_or_else(Vec::new, |v| {
            v.providers
                .iter()
                .filter(|p| {
                    p.enabled
                        && matches!(
                            super::panes::providers::health(p),
                            "failing" | "cool" | "no key"
                        )
                })
                .collect()
        })
    }

    /// Before an assistant job: `Err` (say it, send nothing) when no enabled provider can
    /// answer and the job needs one; else a remark when the item's own provider is known to
    /// fail before sending (the job still runs: other providers, or rules, may do it).
    pub fn llm_precheck(&self, job: JobKind, profile: &str) -> Result<Option<String>, String> {
        let Some(v) = &self.providers.view else {
            return Ok(None);
        };
        let bad = self.failing_providers();
        let enabled = v.providers.iter().filter(|p| p.enabled).count();
        let why: Vec<String> = bad
            .iter()
            .map(|p| format!("{}: {}", p.name, provider_trouble(p)))
            .collect();
        let health = self
            .keymap
            .key_for(self.pane.section(), super::keymap::Act::Health);
        // Only a reply draft needs the model; triage and deadlines start with rules.
        if job == JobKind::Draft && enabled > 0 && bad.len() == enabled {
            return Err(format!(
                "no working LLM provider, so no draft was asked for (nothing was sent): {} — {health} shows how to fix it",
                why.join("; ")
            ));
        }
        let own = v
            .entities
            .iter()
            .find(|e| e.profile == profile)
            .and_then(|e| e.effective.as_deref())
            .and_then(|name| bad.iter().find(|p| p.name == name));
        Ok(own.map(|p| {
            format!(
                "{} ({profile}'s provider) will fail: {}; the other enabled providers are tried",
                p.name,
                provider_trouble(p)
            )
        }))
    }

    /// Entities whose LLM work is blocked by the provider switches (from the Providers view).
    pub fn blocked_entities(&self) -> Vec<&str> {
        self.providers.view.as_ref().map_or_else(Vec::new, |v| {
            v.entities
                .iter()
                .filter(|e| e.blocked.is_some())
                .map(|e| e.profile.as_str())
                .collect()
        })
    }

    /// The health view (`!`): every source with its last error, the MCP server, the audit
    /// chain, LLM routing blocks, and where the data lives.
    pub fn health_lines(&self) -> Vec<String> {
        let mut l = Vec::new();
        l.push(format!(
            "data dir:  {}",
            self.data_dir.as_deref().unwrap_or("(unknown)")
        ));
        l.push(String::new());
        l.push("Sources".into());
        if self.status.sources.is_empty() {
            l.push("  no pollers run (no source is configured for any profile)".into());
        }
        for h in self.status.sources.values() {
            let last_ok = h
                .last_ok
                .map(|t| fmt_time(t, self.tz))
                .unwrap_or_else(|| "never".into());
            if h.ok {
                l.push(format!(
                    "  ok    {}: {} new item(s) since the console started; last ok {last_ok}",
                    h.name, h.items
                ));
            } else {
                l.push(format!(
                    "  FAIL  {}: {} failure(s) in a row; last ok {last_ok}",
                    h.name, h.failures
                ));
                l.push(format!(
                    "        why: {}",
                    h.last_error.as_deref().unwrap_or("(no error text)")
                ));
                if let Some(fix) = login_fix(h) {
                    l.push(format!("        fix: {fix}"));
                } else {
                    l.push(
                        "        it retries by itself; `opsdesk doctor` checks folders and sign-ins"
                            .into(),
                    );
                }
            }
        }
        l.push(String::new());
        l.push("MCP server".into());
        l.push(match (&self.status.mcp_url, &self.status.mcp_error) {
            (Some(url), _) if self.status.clients.is_empty() => {
                format!("  ok    {url} · no client connected")
            }
            (Some(url), _) => format!(
                "  ok    {url} · {} client(s): {}",
                self.status.clients.len(),
                self.status.clients.join(", ")
            ),
            (None, Some(e)) => format!("  FAIL  not running: {e}"),
            (None, None) => "  off   (--no-http)".into(),
        });
        for scope in &self.status.mcp_scopes {
            l.push(format!("  scope {scope}"));
        }
        l.push(String::new());
        l.push("Audit chain".into());
        l.push(match &self.audit.chain {
            None => "  not verified yet".into(),
            Some(c) if c.ok => {
                // Like the Audit pane: what came after the verification is not covered.
                let newest = self.audit.records.front().map_or(0, |r| r.seq);
                let since = newest.saturating_sub(c.records);
                let mut s = format!("  ok    {}", c.text);
                if let Some(at) = c.at {
                    s.push_str(&format!(" (verified {})", fmt_time(at, self.tz)));
                }
                if since > 0 {
                    let v = self
                        .keymap
                        .key_for(Section::Audit, super::keymap::Act::Verify);
                    s.push_str(&format!(
                        "; {since} newer record(s) not verified yet (`{v}` in Audit, or :verify)"
                    ));
                }
                s
            }
            Some(c) => format!("  FAIL  {}", c.text),
        });
        l.push(String::new());
        l.push("LLM routing (Providers, 4)".into());
        match &self.providers.view {
            None => l.push(format!(
                "  unknown: {}",
                self.providers.error.as_deref().unwrap_or("not loaded yet")
            )),
            Some(v) => {
                let failing = self.failing_providers();
                let is_failing = |name: &str| failing.iter().any(|p| p.name == name);
                for e in &v.entities {
                    match (&e.blocked, e.effective.as_deref()) {
                        (Some(why), _) => l.push(format!("  BLOCKED {}: {why}", e.profile)),
                        (None, Some(p)) if is_failing(p) => l.push(format!(
                            "  FAIL  {} → {p}: its calls fail (below); other enabled providers are tried next",
                            e.profile
                        )),
                        (None, p) => l.push(format!(
                            "  ok    {} → {}",
                            e.profile,
                            p.unwrap_or("none")
                        )),
                    }
                }
                for p in failing {
                    l.push(format!(
                        "  FAIL  provider {}: {}",
                        p.name,
                        super::panes::providers::health(p)
                    ));
                    l.push(format!("        why: {}", provider_trouble(p)));
                    if let Some(until) = &p.cooldown_until {
                        l.push(format!("        skipped until {until}"));
                    }
                    if let Some(var) = &p.missing_credential {
                        l.push(format!(
                            "        fix: set {var} in the environment opsdesk starts in, then restart it (or disable {} in Providers, 4)",
                            p.name
                        ));
                    } else {
                        l.push(
                            "        fix: check its credential and model (`opsdesk doctor`), or disable it in Providers (4)"
                                .into(),
                        );
                    }
                }
            }
        }
        l
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

    /// Ask for the selected draft's events when the Drafts pane shows a draft whose life is
    /// not known for its current state.
    fn want_history(&mut self, fx: &mut Vec<Effect>) {
        if self.pane != Pane::Drafts {
            return;
        }
        let Some(d) = self.drafts.selected() else {
            return;
        };
        if self
            .history_asked
            .as_ref()
            .is_some_and(|(id, at)| *id == d.id && *at == d.updated_at)
        {
            return; // asked, not answered yet
        }
        let fresh = self
            .draft_history
            .get(&d.id)
            .is_some_and(|(at, _)| *at == d.updated_at);
        if !fresh {
            let id = d.id.clone();
            self.history_asked = Some((id.clone(), d.updated_at));
            fx.push(Effect::Req(Req::DraftHistory { id }));
        }
    }

    /// The answer to a provider switch: submit it, or ask first when it blocks an entity.
    fn on_toggle_impact(
        &mut self,
        name: String,
        enabled: bool,
        blocks: Result<Vec<String>, String>,
        fx: &mut Vec<Effect>,
    ) {
        match blocks {
            Err(e) => self.say(Level::Error, format!("provider {name}: {e}")),
            Ok(b) if b.is_empty() => {
                fx.push(Effect::Req(super::actions::toggle_submit(name, enabled)))
            }
            Ok(b) => {
                let mut lines = vec![format!(
                    "Disabling {name} leaves {} without a usable provider:",
                    if b.len() == 1 {
                        "this entity"
                    } else {
                        "these entities"
                    }
                )];
                lines.push(String::new());
                lines.extend(b.iter().map(|x| format!("  {x}")));
                lines.push(String::new());
                lines.push(
                    "Their LLM work (briefs polish, drafts, triage) is refused until a cleared provider is on."
                        .into(),
                );
                lines.push(String::new());
                lines.push(format!(
                    "Disable {name} anyway? y = disable · anything else cancels"
                ));
                let Req::Submit { action, label } =
                    super::actions::toggle_submit(name.clone(), enabled)
                else {
                    return;
                };
                self.overlay = Some(Overlay::Confirm {
                    title: format!("Disable provider {name}?"),
                    lines,
                    then: Req::Submit { action, label },
                });
            }
        }
    }

    pub(super) fn reload(&mut self) -> Vec<Effect> {
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

    fn on_engine(&mut self, ev: EngineEvent, fx: &mut Vec<Effect>) {
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
            (Action::DecideDrafts { items, .. }, Ok(Outcome::Done { detail })) => {
                // Each draft was decided on its own: say which did not go through, and why.
                let missed: Vec<String> = crate::engine::batch::BatchResult::all_in(&detail)
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
            (_, Err(e)) => self.say(Level::Error, format!("{label} failed: {e}")),
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

    pub(super) fn brief_req(&mut self, profile: String) -> Vec<Effect> {
        self.brief.scroll = 0;
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
        // Any key dismisses the message line (an error waits for one).
        self.message = None;
        let Some(act) = self.keymap.lookup(self.pane.section(), &k) else {
            return;
        };
        self.act(act, fx);
    }

    pub(super) fn selected_provider(&self) -> Option<&crate::engine::providers::ProviderRow> {
        self.providers
            .view
            .as_ref()?
            .providers
            .get(self.providers.sel)
    }

    pub(super) fn details(&mut self) {
        use super::keymap::Act;
        let mut pick = None;
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
                    format!(
                        "time:     {} ({})",
                        fmt_time(r.ts, self.tz),
                        zone_name(self.tz)
                    ),
                    format!(
                        "received: {} (by opsdesk)",
                        fmt_time(r.received_at, self.tz)
                    ),
                    "(inbound content: untrusted data)".into(),
                    String::new(),
                ];
                lines.extend(r.text.lines().map(str::to_string));
                if !r.attachments.is_empty() {
                    let keys = |act| self.keymap.key_for(Section::Details, act);
                    lines.push(String::new());
                    lines.push(format!(
                        "attachments ({}): {} picks · {} opens with the system's opener · {} saves a copy",
                        r.attachments.len(),
                        keys(Act::NextAttachment),
                        keys(Act::OpenAttachment),
                        keys(Act::SaveAttachment),
                    ));
                    pick = Some(AttachPick {
                        items: r.attachments.clone(),
                        sel: 0,
                        first_line: lines.len(),
                    });
                    lines.extend(r.attachments.iter().map(|a| format!("  {}", a.line)));
                }
                (format!("Message #{}", r.seq), lines)
            }
            Pane::Drafts => {
                let Some(d) = self.drafts.selected() else {
                    return;
                };
                let mut lines = vec![format!("now:        {}", draft_outlook(d))];
                if let Some((at, ev)) = self.draft_history.get(&d.id)
                    && *at == d.updated_at
                {
                    lines.push(format!("life ({}):", zone_name(self.tz)));
                    lines.extend(draft_life(ev, self.tz));
                }
                lines.push(String::new());
                lines.extend(draft_lines(d, self.tz));
                (format!("Draft {}", d.id), lines)
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
            Pane::Brief => {
                let Some(p) = self.profiles.get(self.brief.sel) else {
                    return;
                };
                let Some(e) = self.brief.entries.get(p).filter(|e| !e.loading) else {
                    self.say(
                        Level::Info,
                        "no brief yet for this profile (r generates it)",
                    );
                    return;
                };
                let mut lines = Vec::new();
                if let Some(at) = e.generated {
                    lines.push(format!(
                        "generated {} ({}); r regenerates",
                        fmt_time(at, self.tz),
                        zone_name(self.tz)
                    ));
                    lines.push(String::new());
                }
                for (head, v) in [("Morning brief", &e.morning), ("End-of-day digest", &e.eod)] {
                    lines.push(head.to_string());
                    lines.extend(super::panes::brief::text_of(v.as_ref(), &self.theme));
                    lines.push(String::new());
                }
                (format!("Brief · {p}"), lines)
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
            pick,
        });
    }

    /// A key in the message details with attachments: pick, open or save one (the
    /// `[details]` keymap section). `false` when the key is not one of those.
    fn details_key(&mut self, k: &KeyEvent, pick: &mut AttachPick, fx: &mut Vec<Effect>) -> bool {
        use super::keymap::Act;
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
            Pane::Deals => self.deals.sel = step(self.deals.sel, self.deals.deals.len()),
        }
    }

    fn brief_select(&mut self, i: usize, fx: &mut Vec<Effect>) {
        if i != self.brief.sel {
            self.brief.scroll = 0;
        }
        self.brief.sel = i;
        if let Some(p) = self.profiles.get(i).cloned()
            && !self.brief.entries.contains_key(&p)
        {
            fx.extend(self.brief_req(p));
        }
    }

    pub(super) fn top(&mut self, fx: &mut Vec<Effect>) {
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

    fn on_overlay_key(&mut self, k: KeyEvent, fx: &mut Vec<Effect>) {
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
                KeyCode::Char(c) if super::actions::is_typing(k.modifiers) => {
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

    fn on_input(&mut self, kind: InputKind, buf: String, fx: &mut Vec<Effect>) {
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

    /// `:route JOB PROVIDER` (or `:route JOB clear`): route one assistant job to a provider
    /// at run time, as `opsdesk providers set-job` does, after a confirmation that says what
    /// it means for the HIPAA entities (they still reach only cleared providers).
    fn route_job(&mut self, arg: &str) {
        let mut words = arg.split_whitespace();
        let (Some(job), Some(target), None) = (words.next(), words.next(), words.next()) else {
            self.say(
                Level::Error,
                "usage: :route JOB PROVIDER, or :route JOB clear (jobs: triage, deadlines, draft, brief, filing, intent)",
            );
            return;
        };
        let Some(view) = &self.providers.view else {
            self.say(
                Level::Error,
                "the providers are not loaded yet; try again in a moment",
            );
            return;
        };
        let job = job.to_string();
        let (name, lines) = if target == "clear" {
            (
                None,
                vec![
                    format!("Job {job} loses its run-time route:"),
                    "the config's [llm.jobs], else each entity's and the default provider, apply again."
                        .to_string(),
                ],
            )
        } else {
            let Some(p) = view.providers.iter().find(|p| p.name == target) else {
                let known: Vec<&str> = view.providers.iter().map(|p| p.name.as_str()).collect();
                self.say(
                    Level::Error,
                    format!("no provider `{target}`; providers: {}", known.join(", ")),
                );
                return;
            };
            let mut lines = vec![format!(
                "Job {job} goes to {} ({} {}) for every entity it may serve.",
                p.name, p.kind, p.model
            )];
            if !p.enabled {
                lines.push(format!(
                    "{} is disabled: enable it first (e) or the change is refused.",
                    p.name
                ));
            }
            let hipaa: Vec<&str> = view
                .entities
                .iter()
                .filter(|e| e.requires_hipaa)
                .map(|e| e.profile.as_str())
                .collect();
            if !p.hipaa_cleared && !hipaa.is_empty() {
                lines.push(String::new());
                lines.push(format!(
                    "{} is not HIPAA-cleared: job {job} of {} still goes only to a cleared provider, or is blocked.",
                    p.name,
                    hipaa.join(", ")
                ));
            }
            (Some(p.name.clone()), lines)
        };
        let mut lines = lines;
        lines.push(String::new());
        lines.push("Saved to providers.json and audited. y = route · anything else cancels".into());
        let label = match &name {
            Some(n) => format!("job {job} now goes to {n}"),
            None => format!("job {job} has no run-time route any more"),
        };
        self.overlay = Some(Overlay::Confirm {
            title: format!("Route job {job}?"),
            lines,
            then: Req::Submit {
                action: crate::domain::Action::SetJobProvider { job, name },
                label,
            },
        });
    }

    fn command(&mut self, cmd: &str, fx: &mut Vec<Effect>) {
        use super::keymap::Act;
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
            "deals" | "6" => self.switch(Pane::Deals, fx),
            "verify" => self.act(Act::Verify, fx),
            "refresh" | "reload" => self.act(Act::Refresh, fx),
            "help" => self.act(Act::Help, fx),
            "messages" | "log" => self.act(Act::Messages, fx),
            "health" | "sources" => self.act(Act::Health, fx),
            "mouse" => self.act(Act::Mouse, fx),
            "route" => self.route_job(&arg),
            "theme" => match super::theme::Theme::built_in(&arg, self.theme.no_color) {
                Some(t) => {
                    self.theme = t.fit_to(self.theme.depth);
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

/// The zone every console time is shown in, e.g. `UTC` or `UTC+01:00`.
pub fn zone_name(tz: UtcOffset) -> String {
    if tz == UtcOffset::UTC {
        return "UTC".into();
    }
    let (h, m, _) = tz.as_hms();
    let sign = if tz.is_negative() { '-' } else { '+' };
    format!("UTC{sign}{:02}:{:02}", h.unsigned_abs(), m.unsigned_abs())
}

/// One time convention for the console, `inbox list`, `inbox show` and `watch`: the item's
/// own time, in the local zone, to the minute.
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
        format!("status:     {}", status_word(d)),
        format!("profile:    {}", d.profile),
        format!("kind:       {}", d.outbound.kind()),
        format!("recipients: {}", d.outbound.recipients().join(", ")),
        format!("subject:    {}", d.outbound.subject().unwrap_or("—")),
        format!("verdict:    {verdict} (when created)"),
        format!("provider:   {}", d.provider.as_deref().unwrap_or("—")),
        format!(
            "created:    {} by {}",
            fmt_time(d.created_at, tz),
            d.created_by
        ),
        format!("updated:    {}", fmt_time(d.updated_at, tz)),
        format!("edits:      {}", d.edits),
    ];
    for a in d.outbound.attachments() {
        lines.push(format!(
            "attached:   {}",
            crate::sanitize::for_terminal(&a.summary())
        ));
    }
    lines.push(format!("digest:     {}", d.digest));
    if let Some(by) = &d.decided_by {
        lines.push(format!("decided by: {by}"));
    }
    if let Some(r) = &d.reason {
        lines.push(format!("reason:     {r}"));
    }
    if let Some(to) = &d.remote_id {
        lines.push(format!("went to:    {to}"));
    }
    if d.outbound.body_html().is_some() {
        lines.push(format!("format:     {}", crate::html_mail::REVIEW_NOTE));
    }
    lines.push(String::new());
    lines.extend(d.outbound.body().lines().map(str::to_string));
    lines
}

/// A draft's status in the word the Drafts list uses: an executed draft that leaves the
/// machine is `sent`, one that only changes things here (a deal, a mail move) is `done`.
pub fn status_word(d: &Draft) -> &'static str {
    match d.status {
        DraftStatus::Executed if sends(&d.outbound) => "sent",
        DraftStatus::Executed => "done",
        s => s.as_str(),
    }
}

/// What happens to a draft next, in words (the verdict alone says only that it waited).
pub fn draft_outlook(d: &Draft) -> &'static str {
    match d.status {
        DraftStatus::Pending => "waiting for the operator's decision (a approve · r reject)",
        DraftStatus::Approved => "approved: waiting for the executor to send it",
        DraftStatus::Executed => "sent",
        DraftStatus::Failed => "approved, but sending failed (it is retried)",
        DraftStatus::Rejected => "rejected: it will not be sent",
        DraftStatus::Expired => {
            "expired unanswered: it will not be sent (u re-queues it as a new draft)"
        }
    }
}

/// The draft's life from its events: created, edited, decided at / by, executed (where it
/// went) or failed (why), each with its time.
pub fn draft_life(events: &[DraftEvent], tz: UtcOffset) -> Vec<String> {
    events
        .iter()
        .map(|e| {
            let when = fmt_time(e.ts, tz);
            let what = match &e.kind {
                DraftEventKind::Created { provider, .. } => match provider {
                    Some(p) => format!("created by {} (written by {p})", e.actor),
                    None => format!("created by {}", e.actor),
                },
                DraftEventKind::Edited { .. } => {
                    format!("edited by {} (needs a fresh approval)", e.actor)
                }
                DraftEventKind::Approved { .. } => format!("approved by {}", e.actor),
                DraftEventKind::Rejected { reason } => {
                    format!("rejected by {}: {reason}", e.actor)
                }
                DraftEventKind::Executed { remote_id } => {
                    format!("sent by {} → {remote_id}", e.actor)
                }
                DraftEventKind::Failed { reason } => format!("FAILED ({}): {reason}", e.actor),
                DraftEventKind::Expired { ttl_hours } => {
                    format!("expired after {ttl_hours} h without a decision")
                }
                DraftEventKind::Requeued { from, .. } => format!(
                    "re-queued by {}: {from} → {} (a fresh time to live)",
                    e.actor, e.draft_id
                ),
            };
            format!("  {when}  {what}")
        })
        .collect()
}

/// The `$EDITOR` template for a hand-written reply: room to write on top, then the message
/// quoted the usual way. Lines starting with `#` are instructions and are removed.
pub fn quote_reply(r: &InboxRow, tz: UtcOffset) -> String {
    let mut t = String::from("\n\n");
    t.push_str(
        "# Write your reply above. Lines starting with # are removed; the quote below is kept\n\
         # (delete it if you do not want it). Save and quit to queue the draft for approval;\n\
         # leave the text unchanged to draft nothing.\n",
    );
    t.push_str(&format!("On {}, {} wrote:\n", fmt_time(r.ts, tz), r.from));
    for line in r.text.lines() {
        if line.is_empty() {
            t.push_str(">\n");
        } else {
            t.push_str(&format!("> {line}\n"));
        }
    }
    t
}

/// The reply body from the edited template: instruction lines removed, trimmed. `None` when
/// nothing was written above the quote.
pub fn reply_from_template(template: &str, edited: &str) -> Option<String> {
    let strip = |s: &str| -> String {
        s.lines()
            .filter(|l| !l.starts_with('#'))
            .collect::<Vec<_>>()
            .join("\n")
            .trim()
            .to_string()
    };
    let (before, after) = (strip(template), strip(edited));
    (!after.is_empty() && after != before).then_some(after)
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

/// Why a provider fails, in words: its missing credential (known without a call), else its
/// last error.
fn provider_trouble(p: &crate::engine::providers::ProviderRow) -> String {
    match (&p.missing_credential, &p.last_error) {
        (Some(var), _) => format!("its credential is missing: set the environment variable {var}"),
        (None, Some(e)) => e.clone(),
        (None, None) => "cooling down after repeated failures".into(),
    }
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
