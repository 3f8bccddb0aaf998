//! The messages of the console: `Msg` (everything that reaches the UI thread), `Req` (work
//! for the data task), `Effect` (what `App::update` asks the run loop to do) and the small
//! types they carry.

use crossterm::event::{KeyEvent, MouseEvent};
use time::OffsetDateTime;

use super::panes::inbox::InboxRow;
use crate::assistant::JobKind;
use crate::domain::{Action, AuditRecord, Draft, DraftEvent, Outbound, Outcome};
use crate::engine::EngineEvent;
use crate::engine::providers::ProvidersView;
use crate::store::inbox::Filter;

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
        morning: Result<Box<crate::brief::Brief>, String>,
        eod: Result<Box<crate::brief::Brief>, String>,
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
