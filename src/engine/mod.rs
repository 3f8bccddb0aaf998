//! The engine owns the stores and is the one place actions are decided: every surface (console,
//! MCP, CLI) builds an `Action` and calls `Engine::submit`, which applies governance, records the
//! decision in the audit trail (fail closed: no audit, no action), changes the stores and
//! announces the change on the event bus.

pub mod arrival;
pub(crate) mod assign;
mod assistant_jobs;
pub(crate) mod assistant_query;
pub(crate) mod batch;
pub(crate) mod cross_check;
pub mod deals;
mod decisions;
pub mod executor;
mod expiry;
pub(crate) mod filing;
mod governance;
pub mod jobs;
mod llm_jobs;
mod lock;
pub mod outbound;
pub mod providers;
pub mod query;
mod reads;
pub(crate) mod recovery;
pub mod reminders;
mod retention;
pub mod runner;

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use serde_json::json;
use tokio::sync::broadcast;

pub use assistant_jobs::{DeadlinesOfItem, JobError, item_json};
pub use lock::{EngineLock, LockError};

use crate::config::Config;
use crate::domain::{
    Action, Actor, AuditEvent, AuditOutcome, AuditRecord, Channel, Draft, DraftEvent,
    DraftEventKind, InboxRecord, NewMessage, Outbound, OutboundAttachment, Outcome, Query, Verdict,
    content_digest, now,
};
use crate::paths::Paths;
use crate::sources::IngestFailure;
use crate::store::StoreError;
use crate::store::audit::Audit;
use crate::store::drafts::Drafts;
use crate::store::inbox::{Appended, Inbox};

/// What the engine announces. Every push is best effort: the files are the truth.
#[derive(Debug, Clone)]
pub enum EngineEvent {
    InboxAppended(Arc<InboxRecord>),
    DraftChanged(Arc<Draft>),
    /// A deal was created or changed (in this process).
    DealChanged(Arc<crate::domain::Deal>),
    Audited(Arc<AuditRecord>),
    SourceHealth(Arc<runner::SourceHealth>),
    /// An LLM job's progress (`jobs.rs`).
    JobProgress(Arc<jobs::JobProgress>),
}

/// Whether this engine runs the data dir (holds the lock, runs sources and servers) or is a
/// short-lived command working beside it (the CLI while a console is open).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    Primary,
    Secondary,
}

#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// The request itself is wrong; `data` says how to fix it (e.g. the valid profiles).
    #[error("{message}")]
    Invalid {
        message: String,
        data: serde_json::Value,
    },
    #[error("{0}")]
    NotFound(String),
    /// The audit trail could not record the decision, so the action was not carried out.
    #[error("blocked: the audit trail could not be written ({0}); nothing was changed")]
    AuditUnavailable(String),
    #[error(transparent)]
    Store(#[from] StoreError),
    /// Governance refused a read (already audited as blocked).
    #[error("blocked by {rule}: {reason} ({remedy})")]
    Blocked {
        rule: String,
        reason: String,
        remedy: String,
    },
}

impl EngineError {
    pub fn invalid(message: impl Into<String>, data: serde_json::Value) -> Self {
        EngineError::Invalid {
            message: message.into(),
            data,
        }
    }
}

/// Why [`Engine::open`] failed: another engine holds the data dir (a caller may relay to it,
/// as `serve --stdio` does), or the data dir or a store could not be opened.
#[derive(Debug, thiserror::Error)]
pub enum OpenError {
    #[error(transparent)]
    Locked(#[from] LockError),
    #[error(transparent)]
    Stores(#[from] anyhow::Error),
}

pub struct Engine {
    paths: Paths,
    config: Config,
    inbox: Inbox,
    drafts: Drafts,
    deals: crate::store::deals::Deals,
    audit: Audit,
    events: broadcast::Sender<EngineEvent>,
    health: std::sync::Mutex<std::collections::BTreeMap<String, runner::SourceHealth>>,
    /// The LLM router, built on first use (`llm_jobs.rs`).
    llm: std::sync::OnceLock<Arc<crate::llm::Router>>,
    /// PHI view (phiclients): which profiles need redaction for uncleared recipients, and
    /// the redactors the audit trail's quoted text passes.
    phi: crate::governance::phi_view::PhiPolicy,
    /// The assistant's triage and deadlines (`assistant_jobs.rs`).
    assistant: crate::assistant::store::AssistantStore,
    /// The job runner of LLM work (`jobs.rs`).
    jobs: jobs::JobRunner,
    /// The operator's time zone (`[operator] time_zone`, else the system's): "today", the
    /// brief's days and the dates deadlines resolve to.
    zone: crate::assistant::Zone,
    /// Inbound attachments' bytes (`store/attachments.rs`); read through `reads.rs`.
    attachments: crate::store::attachments::AttachmentStore,
    /// Records already handed to a consumer by a push that the client turns into a turn
    /// (Claude Code's channel): consumer → seqs after its cursor that its pulls skip.
    delivered: std::sync::Mutex<std::collections::HashMap<String, std::collections::BTreeSet<u64>>>,
    /// Content refusals at the entity boundary per non-operator caller (its credential), the
    /// last hour's: see [`Engine::judge_for`].
    boundary_probes: std::sync::Mutex<std::collections::HashMap<String, Vec<Instant>>>,
    /// The watch on the inbox's unassigned marker, for a host (`Engine::watch_unassigned`).
    unassigned_watch: std::sync::Mutex<Option<notify::RecommendedWatcher>>,
    _lock: Option<EngineLock>,
}

/// At most this many pushed-but-not-yet-passed seqs are remembered per consumer (the oldest
/// are forgotten first: a forgotten one is delivered again by a pull, never lost).
/// Content refusals at the entity boundary a non-operator caller may meet in an hour before
/// its drafts pause (see `Engine::judge_for`): a client working honestly meets one now and
/// then; a caller guessing at another profile's data needs dozens.
const BOUNDARY_PROBES_PER_HOUR: usize = 3;

const MAX_DELIVERED: usize = 4096;

impl Engine {
    /// Open the stores in `paths.data_dir`. `Mode::Primary` takes the engine lock and fails with
    /// the holder's PID if another engine has it.
    pub fn open(paths: Paths, config: Config, mode: Mode) -> Result<Engine, OpenError> {
        paths.ensure()?;
        let lock = match mode {
            Mode::Primary => Some(EngineLock::acquire(&paths.engine_lock())?),
            Mode::Secondary => None,
        };
        Self::open_stores(paths, config, lock).map_err(OpenError::Stores)
    }

    fn open_stores(
        paths: Paths,
        config: Config,
        lock: Option<EngineLock>,
    ) -> anyhow::Result<Engine> {
        let (events, _) = broadcast::channel(1024);
        let lock_is_none = lock.is_none();
        // Every writer keys what it writes (a bad key file refuses to open: fail closed), with
        // the key the trail was written with: a missing or other key refuses before any write.
        let audit = Audit::open(&paths.audit_dir())?;
        let key = match audit.newest_mac() {
            Ok(written) => crate::store::integrity::for_writer(&paths, written.as_ref())?,
            Err(e) => {
                tracing::warn!("cannot read the audit trail to check the integrity key ({e})");
                crate::store::integrity::for_writer_unread(&paths)?
            }
        }
        .map(Arc::new);
        let inbox = Inbox::open(&paths.inbox_dir())?.with_key(key.clone());
        // A config that sends unmatched items to `unassigned` may have stored some already
        // (also before the inbox kept its marker): say so on disk, so the PHI view keeps them
        // protected if the section is removed later. The view is live under this config anyway,
        // so a failure only costs that later protection: logged, not fatal.
        if config
            .classification
            .as_ref()
            .is_some_and(|c| c.unmatched == crate::config::Unmatched::Unassigned)
            && let Err(e) = inbox.note_unassigned()
        {
            tracing::warn!("cannot write the inbox's unassigned marker: {e}");
        }
        // Whether records of `unassigned` may exist is the inbox's to say (a host also watches
        // the marker: `Engine::watch_unassigned`).
        let phi = crate::governance::phi_view::PhiPolicy::from_config(&config)
            .watching(inbox.unassigned_probe());
        let engine = Engine {
            attachments: crate::store::attachments::AttachmentStore::new(
                &paths.data_dir,
                &config.attachments,
            ),
            phi,
            inbox,
            deals: crate::store::deals::Deals::open(&paths.deals_dir())?,
            drafts: Drafts::open(&paths.drafts_dir(), &paths.audit_dir())?.with_key(key.clone()),
            audit: audit.with_key(key),
            assistant: crate::assistant::store::AssistantStore::open(
                &paths.data_dir.join("assistant"),
            )?,
            jobs: Default::default(),
            zone: crate::assistant::Zone::of(&config.operator),
            paths,
            config,
            events,
            health: Default::default(),
            llm: Default::default(),
            delivered: Default::default(),
            boundary_probes: Default::default(),
            unassigned_watch: Default::default(),
            _lock: lock,
        };
        // A crash between an ingest's two appends is audited now, not reported for ever. A
        // failure leaves what `audit verify` reports; it does not keep the engine closed.
        // A command beside a running engine leaves recovery to that engine (it recovered at its
        // open, and records what its own writers leave): a read must not write its trail.
        let beside_running =
            lock_is_none && EngineLock::holder(&engine.paths.engine_lock()).is_some();
        if beside_running {
            tracing::debug!("another engine runs this data dir: crash recovery is left to it");
        } else if let Err(e) = engine.recover_after_crash() {
            tracing::warn!("crash recovery failed: {e}");
        }
        Ok(engine)
    }

    pub fn paths(&self) -> &Paths {
        &self.paths
    }
    /// Start scanning stored records for PHI ahead of their first view (a host serving
    /// uncleared readers): the records stored from now on.
    pub fn start_phi_priming(&self) -> std::io::Result<()> {
        self.phi.start_priming()
    }

    /// Queue the newest `recent` stored records for priming (what a client reconnecting after
    /// a restart pulls first); a no-op until priming is started. Reads the inbox: a host runs
    /// it off its start path.
    pub fn prime_recent(&self, recent: usize) -> Result<(), StoreError> {
        if !self.phi.is_active() || recent == 0 {
            return Ok(());
        }
        let batch =
            self.inbox
                .read_before(None, recent, &crate::store::inbox::Filter::default())?;
        // Oldest first: a reader's next pull starts at its cursor, the older end.
        for rec in batch.records.iter().rev() {
            self.phi.prime(rec);
        }
        Ok(())
    }

    /// Watch for the inbox's unassigned marker instead of looking for it per answer: for a
    /// host, which answers for hours (a one-shot command keeps looking; it ends first). Until
    /// it is set up, and if it cannot be, the marker is looked for as before.
    pub fn watch_unassigned(&self) -> notify::Result<()> {
        let w = self.inbox.watch_unassigned()?;
        *self
            .unassigned_watch
            .lock()
            .unwrap_or_else(|p| p.into_inner()) = w;
        Ok(())
    }

    /// Let go of the caches an idle engine rebuilds on demand (see `Inbox::shed_caches`).
    pub fn shed_caches(&self) {
        self.inbox.shed_caches();
    }

    /// Bring the inbox's full-text index up to date (a host runs this off its request path
    /// after ingests). Returns how many records it indexed.
    pub fn index_pending(&self) -> Result<u64, StoreError> {
        self.inbox.index_pending(&mut |_, _| {})
    }

    /// The PHI view every uncleared recipient's answer passes (phiclients).
    pub fn phi(&self) -> &crate::governance::phi_view::PhiPolicy {
        &self.phi
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The operator's time zone.
    pub fn zone(&self) -> &crate::assistant::Zone {
        &self.zone
    }

    /// The operator's UTC offset at `t`.
    pub fn offset_at(&self, t: time::OffsetDateTime) -> time::UtcOffset {
        self.zone.offset_at(t)
    }
    pub fn data_dir(&self) -> &Path {
        &self.paths.data_dir
    }

    pub fn subscribe(&self) -> broadcast::Receiver<EngineEvent> {
        self.events.subscribe()
    }

    fn announce(&self, ev: EngineEvent) {
        // No subscribers is normal (CLI); a lagging one catches up from the files.
        let _ = self.events.send(ev);
    }

    /// Record an audit event and announce it.
    pub fn audit(&self, ev: AuditEvent) -> Result<AuditRecord, EngineError> {
        self.record(ev, Audit::append).map(Arc::unwrap_or_clone)
    }

    /// Record the audit event of a read: linked in order now, written with the other reads of
    /// its window by the background syncer (one write and one fsync per window, issue 34). A
    /// trail whose earlier write or fsync failed refuses the read.
    fn audit_read(&self, ev: AuditEvent) -> Result<(), EngineError> {
        self.record(ev, Audit::append_read).map(|_| ())
    }

    /// Record an audit event that needs to be written before the caller goes on (an append
    /// error, or an earlier failed background fsync, still refuses), but not to wait for its
    /// own fsync: the records of LLM jobs. The shared syncer makes it durable within
    /// `store::audit::DEFERRED_SYNC_WINDOW`.
    pub(crate) fn audit_deferred(&self, ev: AuditEvent) -> Result<AuditRecord, EngineError> {
        self.record(ev, Audit::append_deferred)
            .map(Arc::unwrap_or_clone)
    }

    /// The one way an event enters the trail: PHI scrubbed, appended by `how`, announced
    /// (shared with the announcement, so a read's record is not copied).
    fn record(
        &self,
        mut ev: AuditEvent,
        how: fn(&Audit, AuditEvent) -> Result<AuditRecord, StoreError>,
    ) -> Result<Arc<AuditRecord>, EngineError> {
        // phiclients: quoted free text is redacted before it enters the trail.
        self.phi.scrub_audit(&mut ev);
        let rec = how(&self.audit, ev).map_err(|e| EngineError::AuditUnavailable(e.to_string()))?;
        let rec = Arc::new(rec);
        self.announce(EngineEvent::Audited(rec.clone()));
        Ok(rec)
    }

    /// Sanitize and durably append an inbound item, then announce it (durable first, then
    /// notify).
    pub fn ingest(&self, msg: NewMessage, source: &str) -> Result<Appended, IngestFailure> {
        Ok(self.ingest_checked(msg, source)?.0)
    }

    /// [`Engine::ingest`] that also says when the item was stored but its audit record could
    /// not be written (a full disk), so a surface that tells a person "stored" can tell the
    /// whole truth.
    pub fn ingest_checked(
        &self,
        msg: NewMessage,
        source: &str,
    ) -> Result<(Appended, Option<String>), IngestFailure> {
        self.known_profile(&msg.profile)?;
        let record = crate::domain::to_record(msg)?;
        let _ingesting = self.ingesting().map_err(anyhow::Error::from)?;
        let appended = self.inbox.append(record).map_err(anyhow::Error::from)?;
        recovery::failpoint("after_inbox_append");
        let audit_error = match &appended {
            Appended::New(rec) => self.ingested(rec, source),
            Appended::Duplicate { .. } => None,
        };
        Ok((appended, audit_error))
    }

    /// [`Engine::ingest`] for several items at once (a spool file, a page of a sync): all are
    /// checked and sanitized first (a content error stores none), then appended in one durable
    /// batch, audited with one fsync for the lot, and announced.
    pub fn ingest_batch(
        &self,
        msgs: Vec<NewMessage>,
        source: &str,
    ) -> Result<Vec<Appended>, IngestFailure> {
        let count = msgs.len();
        for (i, m) in msgs.iter().enumerate() {
            self.known_profile(&m.profile)
                .map_err(|e| IngestFailure::from(e).at(i, count))?;
        }
        let records = crate::sources::to_records(msgs)?;
        let _ingesting = self.ingesting().map_err(anyhow::Error::from)?;
        let appended = self
            .inbox
            .append_batch(records)
            .map_err(anyhow::Error::from)?;
        recovery::failpoint("after_inbox_append");
        let new: Vec<&InboxRecord> = appended
            .iter()
            .filter_map(|a| match a {
                Appended::New(r) => Some(&**r),
                Appended::Duplicate { .. } => None,
            })
            .collect();
        // Their audit records in one write, durable together; a lost batch was logged and is
        // listed by `audit verify`.
        let _ = self.ingested_batch(&new, source);
        Ok(appended)
    }

    /// An item for a profile the config does not have is a content error (the item is
    /// wrong), not an I/O one: sources reject it instead of retrying it forever.
    fn known_profile(&self, profile: &str) -> Result<(), crate::domain::IngestError> {
        if self.config.profiles.contains_key(profile) || self.takes_unassigned(profile) {
            return Ok(());
        }
        Err(crate::domain::IngestError::UnknownProfile {
            profile: crate::sanitize::one_line(profile, 64),
            known: self.profile_names(),
        })
    }

    /// The audit record of a stored item.
    fn ingest_event(&self, rec: &InboxRecord, source: &str) -> AuditEvent {
        let mut ev = AuditEvent::new(
            "inbox.append",
            Actor::Source(source.to_string()),
            AuditOutcome::Ok,
        )
        .entity(&rec.profile)
        .target(format!("{}#{}", rec.channel, rec.seq));
        self.phi.scrub_audit(&mut ev);
        ev
    }

    /// [`Engine::ingested`] for the items of one batch: their audit records in one durable
    /// write, then each announced.
    fn ingested_batch(&self, new: &[&InboxRecord], source: &str) -> Option<String> {
        let events = new.iter().map(|r| self.ingest_event(r, source)).collect();
        let audit_error = match self.audit.append_batch(events, true) {
            Ok(records) => {
                for a in records {
                    self.announce(EngineEvent::Audited(Arc::new(a)));
                }
                None
            }
            Err(e) => {
                tracing::error!(
                    "{} inbox records are stored, but their audit records could not be written ({e}); `opsdesk audit verify` will list them",
                    new.len()
                );
                Some(e.to_string())
            }
        };
        for rec in new {
            self.phi.prime(rec);
            self.announce(EngineEvent::InboxAppended(Arc::new((*rec).clone())));
        }
        self.autolink_all(new);
        audit_error
    }

    /// Audit (durably) and announce a stored inbound item. The item is stored whatever happens
    /// here: losing its audit line is reported (here, and by `opsdesk audit verify`, which
    /// lists inbox records with no audit record), never turned into a failed ingest. Returns
    /// why the audit record is missing, if it is.
    fn ingested(&self, rec: &InboxRecord, source: &str) -> Option<String> {
        let written = self.audit.append(self.ingest_event(rec, source));
        let audit_error = match written {
            Ok(a) => {
                self.announce(EngineEvent::Audited(Arc::new(a)));
                None
            }
            Err(e) => {
                tracing::error!(
                    "inbox record {}#{} is stored, but its audit record could not be written ({e}); `opsdesk audit verify` will list it",
                    rec.channel,
                    rec.seq
                );
                Some(e.to_string())
            }
        };
        self.phi.prime(rec);
        self.announce(EngineEvent::InboxAppended(Arc::new(rec.clone())));
        self.autolink(rec);
        audit_error
    }

    /// With `[classification]`, the reserved profile `unassigned` holds items no rule placed:
    /// it is accepted wherever a profile is named for reading or storing (never for acting).
    pub(crate) fn takes_unassigned(&self, profile: &str) -> bool {
        profile == crate::domain::UNASSIGNED && self.config.classification.is_some()
    }

    pub fn profile_names(&self) -> Vec<String> {
        self.config.profiles.keys().cloned().collect()
    }

    /// The single entry point for actions from every surface.
    pub fn submit(&self, action: Action, actor: Actor) -> Result<Outcome, EngineError> {
        self.submit_call(
            action,
            &Call {
                actor: &actor,
                tool: None,
                started: Instant::now(),
            },
        )
    }

    /// `submit` for an MCP tool call: the audit record names the tool.
    pub fn submit_tool(
        &self,
        tool: &str,
        action: Action,
        actor: Actor,
    ) -> Result<Outcome, EngineError> {
        self.submit_call(
            action,
            &Call {
                actor: &actor,
                tool: Some(tool),
                started: Instant::now(),
            },
        )
    }

    /// A read for an MCP tool, answered typed (the same checks and audit as `submit_tool`
    /// with `Action::Query`).
    pub fn submit_read(
        &self,
        tool: &str,
        query: Query,
        actor: Actor,
    ) -> Result<query::Answer, EngineError> {
        self.read_call(Some(tool), query, actor)
    }

    /// Write the cursors that pulls moved in memory (they are otherwise saved within 50 ms):
    /// for processes about to exit.
    pub fn save_cursors(&self) -> Result<(), EngineError> {
        Ok(self.inbox.save_cursors()?)
    }

    /// A read for a surface that shapes the answer itself (the CLI, the console), answered
    /// typed: the same checks and audit as `submit` with `Action::Query`. A governance block
    /// is `EngineError::Blocked`.
    pub fn read(&self, query: Query, actor: Actor) -> Result<query::Answer, EngineError> {
        self.read_call(None, query, actor)
    }

    /// A read a surface computes itself from the data dir and config (doctor's checks): the
    /// same ladder gate and audit record (`name`, with the target `f` returns) as every other
    /// read, so the engine decides and records it without knowing what the answer holds.
    pub fn read_outside<T>(
        &self,
        tool: Option<&str>,
        name: &'static str,
        actor: Actor,
        f: impl FnOnce(&Paths, &crate::config::Config) -> (T, String),
    ) -> Result<T, EngineError> {
        let cx = Call {
            actor: &actor,
            tool,
            started: Instant::now(),
        };
        let result = self.gate_read(name, &cx).and_then(|()| {
            let (answer, target) = f(&self.paths, &self.config);
            self.audit_read(cx.event(name, AuditOutcome::Ok).target(target))?;
            Ok(answer)
        });
        self.audit_failure(name, &cx, &result);
        result
    }

    fn read_call(
        &self,
        tool: Option<&str>,
        query: Query,
        actor: Actor,
    ) -> Result<query::Answer, EngineError> {
        let cx = Call {
            actor: &actor,
            tool,
            started: Instant::now(),
        };
        let name = query.name();
        let result = self.answer(query, &cx);
        self.audit_failure(name, &cx, &result);
        result
    }

    fn answer(&self, q: Query, cx: &Call) -> Result<query::Answer, EngineError> {
        let qname = q.name();
        self.gate_read(qname, cx)?;
        let (answer, target) = self.run_query(q, cx)?;
        self.audit_read(cx.event(qname, AuditOutcome::Ok).target(target))?;
        Ok(answer)
    }

    /// The ladder's `read` level applies to every read, from every surface.
    fn gate_read(&self, name: &str, cx: &Call) -> Result<(), EngineError> {
        let verdict =
            crate::governance::ladder::gate(&self.config, crate::config::ActionKind::Read, "any");
        if let Verdict::Block {
            rule,
            reason,
            remedy,
        } = verdict
        {
            self.audit(
                cx.event(name, AuditOutcome::Blocked)
                    .reason(format!("{rule}: {reason}")),
            )?;
            return Err(EngineError::Blocked {
                rule,
                reason,
                remedy,
            });
        }
        Ok(())
    }

    fn submit_call(&self, action: Action, cx: &Call) -> Result<Outcome, EngineError> {
        let name = action.name();
        let result = self.decide_and_apply(action, cx);
        self.audit_failure(name, cx, &result);
        result
    }

    /// Refusals of bad requests are audited too (they are how a misbehaving client shows).
    fn audit_failure<T>(&self, name: &str, cx: &Call, result: &Result<T, EngineError>) {
        if let Err(e) = result {
            // Refusals of bad requests are audited too (they are how a misbehaving client shows).
            let outcome = match e {
                EngineError::Invalid { .. } | EngineError::NotFound(_) => AuditOutcome::Denied,
                EngineError::Store(StoreError::Rejected(_)) => AuditOutcome::Denied,
                _ => AuditOutcome::Error,
            };
            if !matches!(
                e,
                EngineError::AuditUnavailable(_) | EngineError::Blocked { .. }
            ) && let Err(ae) = self.audit(
                cx.event(name, outcome)
                    .reason(crate::sanitize::bound(&e.to_string(), 300)),
            ) {
                tracing::error!("{ae}");
            }
        }
    }

    fn decide_and_apply(&self, action: Action, cx: &Call) -> Result<Outcome, EngineError> {
        let name = action.name();
        let actor = cx.actor;
        match action {
            Action::Query(q) => match self.answer(q, cx) {
                Ok(a) => Ok(Outcome::Done {
                    detail: crate::domain::Done::Answer(a.into_value()),
                }),
                Err(EngineError::Blocked {
                    rule,
                    reason,
                    remedy,
                }) => Ok(Outcome::Blocked {
                    rule,
                    reason,
                    remedy,
                }),
                Err(e) => Err(e),
            },
            Action::CreateDraft {
                profile,
                outbound,
                provider,
            } => self.create_draft(name, profile, outbound, provider, cx),
            a @ (Action::CreateDeal { .. }
            | Action::LinkDeal { .. }
            | Action::UnlinkDeal { .. }
            | Action::SetDealStage { .. }) => self.deal_action(name, a, cx),
            Action::MoveMessage { message_id, folder } => {
                self.move_message(name, message_id, folder, cx)
            }
            Action::DraftReply {
                message_id,
                body,
                attachments,
                body_html,
            } => {
                let (profile, mut outbound) = self.reply_outbound(&message_id, body)?;
                if body_html.is_some() {
                    let Some(slot) = outbound.body_html_mut() else {
                        return Err(EngineError::invalid(
                            "`body_html` is for mail; a chat reply takes `body` (plain text)",
                            json!({"field": "body_html"}),
                        ));
                    };
                    *slot = body_html;
                }
                if let Some(list) = outbound.attachments_mut() {
                    list.extend(attachments.into_iter().map(OutboundAttachment::by_hash));
                }
                self.create_draft(name, profile, outbound, None, cx)
            }
            Action::EditDraft { id, outbound } => self.edit_draft(name, id, outbound, cx),
            Action::ApproveDraft { id, digest } => self.approve_draft(name, id, digest, cx),
            Action::RejectDraft { id, reason } => self.reject_draft(name, id, reason, cx),
            Action::RequeueDraft { id, digest } => self.requeue_draft(name, &id, digest, cx),
            Action::DecideDrafts { decision, items } => {
                self.decide_drafts(name, decision, items, cx)
            }
            Action::MarkRead { consumer, seq } => self.mark_read(name, consumer, seq, cx),
            Action::SetProviderEnabled { name: provider, .. }
            | Action::SetDefaultProvider { name: provider }
                if !actor.is_operator() =>
            {
                self.blocked(
                    name,
                    cx,
                    "",
                    &provider,
                    Verdict::block(
                        "operator_only_provider_change",
                        format!(
                            "{actor} asked to change provider `{provider}`; only the operator can"
                        ),
                        "use the console's Providers pane or `opsdesk providers`",
                    ),
                )
            }
            Action::SetProviderEnabled {
                name: provider,
                enabled,
            } => self.set_provider_enabled(name, &provider, enabled, cx),
            Action::SetDefaultProvider { name: provider } => {
                self.set_default_provider(name, &provider, cx)
            }
            Action::SetJobProvider { job, .. } if !actor.is_operator() => self.blocked(
                name,
                cx,
                "",
                &job,
                Verdict::block(
                    "operator_only_provider_change",
                    format!("{actor} asked to route job `{job}`; only the operator can"),
                    "use `opsdesk providers set-job`",
                ),
            ),
            Action::SetJobProvider {
                job,
                name: provider,
            } => self.set_job_provider(name, &job, provider.as_deref(), cx),
        }
    }

    /// Re-queue an expired draft: its content, judged again by today's rules, becomes a new
    /// pending draft with a fresh time to live; the expired one stays expired (final) and
    /// names its successor.
    fn requeue_draft(
        &self,
        name: &str,
        id: &str,
        digest: Option<String>,
        cx: &Call,
    ) -> Result<Outcome, EngineError> {
        let draft = self.existing_draft(id)?;
        if !cx.actor.is_operator() {
            return self.blocked(
                name,
                cx,
                &draft.profile,
                id,
                Verdict::block(
                    "operator_only_approval",
                    format!(
                        "{} asked to re-queue draft {id}; only the operator decides on drafts",
                        cx.actor
                    ),
                    "re-queue it in the opsdesk console (Drafts pane) or with `opsdesk drafts requeue`",
                ),
            );
        }
        governance::validate_outbound(&draft.outbound)?;
        // The rules may have changed while the draft waited: judge its content again.
        let verdict = self.judge_for(&draft.profile, &draft.outbound, cx.actor);
        let new_id = new_draft_id();
        if let Verdict::Block { .. } = &verdict {
            return self.blocked(name, cx, &draft.profile, id, verdict);
        }
        let digest = digest.unwrap_or_else(|| draft.digest.clone());
        let ev = DraftEvent {
            ts: now(),
            draft_id: new_id.clone(),
            actor: cx.actor.clone(),
            kind: DraftEventKind::Requeued {
                from: id.to_string(),
                digest: digest.clone(),
                verdict: verdict.clone(),
            },
            audit: None,
        };
        self.apply_draft_event(name, ev, &draft.profile, cx)?;
        Ok(Outcome::Queued {
            draft_id: new_id,
            digest,
            verdict,
        })
    }

    fn existing_draft(&self, id: &str) -> Result<Draft, EngineError> {
        self.drafts.get(id)?.ok_or_else(|| {
            EngineError::NotFound(format!(
                "no draft with id `{id}`; `opsdesk drafts list` shows the queue"
            ))
        })
    }

    fn create_draft(
        &self,
        name: &str,
        profile: String,
        outbound: Outbound,
        provider: Option<String>,
        cx: &Call,
    ) -> Result<Outcome, EngineError> {
        // `unassigned` is not configured, yet a draft of it must meet the boundary's refusal
        // (audited, with its remedy), not "unknown profile"; before anything is taken in.
        if let Some(v) = crate::governance::boundary::unassigned(&profile, None) {
            return self.blocked(name, cx, &profile, &new_draft_id(), v);
        }
        if !self.config.profiles.contains_key(&profile) {
            return Err(EngineError::invalid(
                format!("unknown profile `{profile}`"),
                json!({"field": "profile", "valid_profiles": self.profile_names()}),
            ));
        }
        let mut outbound = outbound;
        self.complete_attachments(&profile, &mut outbound)?;
        governance::prepare_outbound(&mut outbound)?;
        governance::validate_outbound(&outbound)?;
        let verdict = self.judge_for(&profile, &outbound, cx.actor);
        let id = new_draft_id();
        if let Verdict::Block { .. } = &verdict {
            return self.blocked(name, cx, &profile, &id, verdict);
        }
        let digest = content_digest(&profile, &outbound);
        let ev = DraftEvent {
            ts: now(),
            draft_id: id.clone(),
            actor: cx.actor.clone(),
            kind: DraftEventKind::Created {
                profile: profile.clone(),
                outbound,
                digest: digest.clone(),
                verdict: verdict.clone(),
                provider,
            },
            audit: None,
        };
        self.apply_draft_event(name, ev, &profile, cx)?;
        Ok(Outcome::Queued {
            draft_id: id,
            digest,
            verdict,
        })
    }

    /// Fill in each attachment named by hash from the attachment store (name, type, size,
    /// risk), so the digest and what the operator reviews describe the file. A hash the store
    /// does not hold is refused. A reference that is an absolute path is taken in first, only
    /// from inside `[attachments] outbound_dirs`, into the store as `profile`'s file.
    fn complete_attachments(
        &self,
        profile: &str,
        outbound: &mut Outbound,
    ) -> Result<(), EngineError> {
        let Some(list) = outbound.attachments_mut() else {
            return Ok(());
        };
        for a in list.iter_mut() {
            if a.sha256.starts_with('/') {
                a.sha256 = self.attach_from_path(profile, &a.sha256)?;
            }
            let sha = a.sha256.trim().to_ascii_lowercase();
            let size = self
                .attachments
                .path_of(&sha)
                .and_then(|p| std::fs::metadata(p).ok())
                .filter(|m| m.is_file())
                .map(|m| m.len())
                .ok_or_else(|| {
                    EngineError::invalid(
                        format!(
                            "no stored attachment `{}`: attach files by the sha256 an inbox item lists",
                            crate::sanitize::one_line(&a.sha256, 80)
                        ),
                        json!({"field": "attachments"}),
                    )
                })?;
            let owners = self.attachments.owners(&sha).map_err(|e| {
                EngineError::Store(StoreError::io(self.attachments.dir(), "read", e))
            })?;
            let (name, media_type) = owners
                .map(|o| (o.name, o.media_type))
                .unwrap_or_else(|| ("attachment".into(), "application/octet-stream".into()));
            a.risk = crate::sanitize::attachment_risk(&name, &media_type).map(str::to_string);
            a.sha256 = sha;
            a.name = name;
            a.media_type = media_type;
            a.size = size;
        }
        Ok(())
    }

    /// Store the file at `path` (which must resolve, links followed, to a regular file inside
    /// one of `[attachments] outbound_dirs`) as an attachment of `profile`; its hash.
    fn attach_from_path(&self, profile: &str, path: &str) -> Result<String, EngineError> {
        let refuse = |why: String| {
            EngineError::invalid(
                format!(
                    "cannot attach `{}`: {why}",
                    crate::sanitize::one_line(path, 200)
                ),
                json!({"field": "attachments"}),
            )
        };
        let limits = self.attachments.limits();
        if limits.outbound_dirs.is_empty() {
            return Err(refuse(
                "attaching by path needs [attachments] outbound_dirs; otherwise attach stored files by sha256".into(),
            ));
        }
        let real = std::fs::canonicalize(path).map_err(|e| refuse(e.to_string()))?;
        let inside = limits
            .outbound_dirs
            .iter()
            .any(|d| std::fs::canonicalize(d).is_ok_and(|d| real.starts_with(&d) && real != d));
        if !inside {
            return Err(refuse(
                "it is not inside a folder of [attachments] outbound_dirs".into(),
            ));
        }
        let meta = std::fs::metadata(&real).map_err(|e| refuse(e.to_string()))?;
        if !meta.is_file() {
            return Err(refuse("not a regular file".into()));
        }
        if meta.len() > limits.max_file_bytes {
            return Err(refuse(format!(
                "larger than [attachments] max_file_bytes ({} bytes)",
                limits.max_file_bytes
            )));
        }
        let bytes = std::fs::read(&real).map_err(|e| refuse(e.to_string()))?;
        let name = real
            .file_name()
            .map(|n| n.to_string_lossy().into_owned())
            .unwrap_or_default();
        let media_type = crate::store::attachments::media_type_of(&name).to_string();
        // New to the store: its bytes wait for an approval before any MCP client reads them
        // (a tool that may draft must not read the outbound folder through its drafts).
        let hash = {
            use sha2::Digest as _;
            hex::encode(sha2::Sha256::digest(&bytes))
        };
        let new_file = self.attachments.path_of(&hash).is_none_or(|p| !p.exists());
        let stored = self
            .attachments
            .store_message(
                profile,
                vec![crate::store::attachments::Incoming {
                    name,
                    media_type,
                    inline: false,
                    content: crate::store::attachments::Content::Bytes(bytes),
                }],
            )
            .map_err(|e| EngineError::Store(StoreError::io(self.attachments.dir(), "write", e)))?;
        match stored.into_iter().next() {
            Some(crate::domain::Attachment {
                status: crate::domain::AttachmentStatus::Stored,
                sha256: Some(h),
                ..
            }) => {
                if new_file {
                    self.attachments.mark_by_path(&h).map_err(|e| {
                        EngineError::Store(StoreError::io(self.attachments.dir(), "write", e))
                    })?;
                }
                Ok(h)
            }
            Some(a) => Err(refuse(a.status.marker().to_string())),
            None => Err(refuse("nothing was stored".into())),
        }
    }

    /// The entity boundary for attachments: a file may go out only with a draft of the profile
    /// whose mail carried it, and only when no other profile's did (a file of an item the
    /// operator reassigned is owned by both, and may be either's data). Unknown or unreadable
    /// ownership fails closed.
    fn judge_attachments(&self, profile: &str, outbound: &Outbound) -> Option<Verdict> {
        for a in outbound.attachments() {
            let owners = match self.attachments.owners(&a.sha256) {
                Ok(o) => o,
                Err(e) => {
                    return Some(Verdict::block(
                        "entity_boundary.unverifiable",
                        format!("whose file attachment `{}` is cannot be read ({e})", a.name),
                        "retry; if it persists run `opsdesk doctor`",
                    ));
                }
            };
            if !owners
                .is_some_and(|o| !o.profiles.is_empty() && o.profiles.iter().all(|p| p == profile))
            {
                return Some(Verdict::block(
                    "entity_boundary.attachment",
                    format!(
                        "attachment `{}` did not come with mail of profile `{profile}` only: one entity's files do not go out in another's mail",
                        a.name
                    ),
                    "attach only files received by the sending profile",
                ));
            }
        }
        None
    }

    /// [`Engine::judge`] for a draft a caller makes. Whether another profile's data is in a
    /// text is itself an answer about that data: a caller that may not read it could try names
    /// or dates of birth one by one and watch which drafts are refused, though the reasons
    /// quote nothing. So a caller other than the operator is allowed
    /// [`BOUNDARY_PROBES_PER_HOUR`] such refusals an hour (per credential: an MCP client's
    /// name is its own to choose); after that its drafts are refused unread until the hour has
    /// passed, with a reason that depends on nothing but the count. Each refusal is audited.
    fn judge_for(&self, profile: &str, outbound: &Outbound, actor: &Actor) -> Verdict {
        if actor.is_operator() {
            return self.judge(profile, outbound);
        }
        let key = match actor {
            Actor::Mcp(who) => format!("mcp:{}", who.split('/').next().unwrap_or(who)),
            other => other.to_string(),
        };
        let hour = std::time::Duration::from_secs(3600);
        let now = Instant::now();
        let recent = |probes: &mut std::collections::HashMap<String, Vec<Instant>>| {
            let list = probes.entry(key.clone()).or_default();
            list.retain(|t| now.duration_since(*t) < hour);
            list.len()
        };
        {
            let mut probes = self
                .boundary_probes
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            if recent(&mut probes) >= BOUNDARY_PROBES_PER_HOUR {
                return Verdict::block(
                    "entity_boundary.paused",
                    format!(
                        "{actor}'s drafts are paused for up to an hour: it was refused at the entity boundary {BOUNDARY_PROBES_PER_HOUR} times in the last hour"
                    ),
                    "the operator can review those refusals in the audit (`opsdesk audit tail`); drafts from this client are judged again once the hour has passed",
                );
            }
        }
        let verdict = self.judge(profile, outbound);
        if matches!(&verdict, Verdict::Block { rule, .. } if rule == "entity_boundary.content" || rule == "audience.internal_thread")
        {
            let mut probes = self
                .boundary_probes
                .lock()
                .unwrap_or_else(|e| e.into_inner());
            recent(&mut probes);
            probes.entry(key).or_default().push(now);
        }
        verdict
    }

    /// Governance's verdict on an outbound action of `profile` (see `governance`).
    fn judge(&self, profile: &str, outbound: &Outbound) -> Verdict {
        if let Some(v) = self.judge_attachments(profile, outbound) {
            return v;
        }
        // A reply names the message it answers: its profile is where the data comes from.
        let source = match outbound {
            Outbound::ReplyEmail { message_id, .. } | Outbound::MoveMail { message_id, .. } => {
                match self.inbox.find_by_id(message_id) {
                    Ok(Some(r)) => Some(r.profile),
                    Ok(None) => None,
                    Err(e) => {
                        return Verdict::block(
                            "entity_boundary.unverifiable",
                            format!("the message replied to cannot be read ({e})"),
                            "retry; if it persists run `opsdesk doctor`",
                        );
                    }
                }
            }
            _ => None,
        };
        // Recent inbound text of each profile this one must not mix with, for the passage
        // check (the newest BOUNDARY_LOOKBACK records: bounded whatever the inbox size).
        // Unreadable means unverifiable: fail closed.
        let mut forbidden = crate::governance::boundary::forbidden_for(&self.config, profile);
        // Items of `unassigned` may be anyone's: every profile must not mix with them (only
        // looked for once the inbox ever held one).
        if profile != crate::domain::UNASSIGNED && self.inbox.has_unassigned() {
            forbidden.push(crate::domain::UNASSIGNED);
        }
        // The newest BOUNDARY_LOOKBACK records, read once for both checks below and only if
        // one of them needs them.
        let window = std::cell::OnceCell::new();
        let lookback = || {
            window.get_or_init(|| {
                self.inbox
                    .read_before(None, BOUNDARY_LOOKBACK, &Default::default())
                    .map_err(|e| e.to_string())
            })
        };
        let mut foreign: BTreeMap<String, Vec<String>> = BTreeMap::new();
        if !forbidden.is_empty() {
            match lookback() {
                Ok(b) => {
                    for r in &b.records {
                        if forbidden.contains(&r.profile.as_str()) {
                            foreign
                                .entry(r.profile.clone())
                                .or_default()
                                .push(r.text.clone());
                        }
                    }
                }
                Err(e) => {
                    return Verdict::block(
                        "entity_boundary.unverifiable",
                        format!(
                            "recent messages cannot be read to check the entity boundary ({e})"
                        ),
                        "retry; if it persists run `opsdesk doctor`",
                    );
                }
            }
        }
        let recent = |q: &str| foreign.get(q).cloned().unwrap_or_default();
        // Recent mail of this profile from its own domains: an internal thread (read only when
        // an outsider is among the recipients). Unreadable: unverifiable, refused.
        let internal = || -> Result<Vec<crate::governance::audience::InternalText>, String> {
            let Some(p) = self.config.profiles.get(profile) else {
                return Ok(Vec::new());
            };
            if p.email_domains.is_empty() {
                return Ok(Vec::new());
            }
            match lookback() {
                Ok(b) => Ok(b
                    .records
                    .iter()
                    .filter(|r| r.profile == profile && !p.is_external_address(&r.from.address))
                    .map(|r| crate::governance::audience::InternalText {
                        text: r.text.clone(),
                        chat: Self::reply_chat(r),
                    })
                    .collect()),
                Err(e) => Err(e.clone()),
            }
        };
        governance::judge_outbound(
            &self.config,
            profile,
            outbound,
            source.as_deref(),
            &recent,
            &internal,
        )
    }

    /// Check, audit (fail closed), append, announce.
    fn apply_draft_event(
        &self,
        name: &str,
        mut ev: DraftEvent,
        profile: &str,
        cx: &Call,
    ) -> Result<Outcome, EngineError> {
        self.drafts.check(&ev)?;
        let kind = ev.kind.name();
        // Held from the audit record to the log line: crash recovery (`recovery.rs`) never
        // takes a live writer's draft for a lost one.
        let _writing = self.ingesting()?;
        // The event names its audit record: the fold accepts it only if the record says the same.
        let rec = self.audit(
            cx.event(name, AuditOutcome::Ok)
                .entity(profile)
                .target(ev.draft_id.clone())
                .reason(format!("draft {kind}")),
        )?;
        ev.audit = Some(crate::domain::AuditRef::of(&rec));
        recovery::failpoint("after_draft_audit");
        let draft = match self.drafts.append(ev) {
            Ok(d) => d,
            Err(e) => {
                // Lost a race with another process between check and append: say so in the trail.
                let _ = self.audit(
                    AuditEvent::new(name, Actor::Engine, AuditOutcome::Error)
                        .entity(profile)
                        .reason(crate::sanitize::bound(&e.to_string(), 300)),
                );
                return Err(e.into());
            }
        };
        self.announce(EngineEvent::DraftChanged(Arc::new(draft.clone())));
        Ok(Outcome::Done {
            detail: crate::domain::Done::Draft(Box::new(draft)),
        })
    }

    fn blocked(
        &self,
        name: &str,
        cx: &Call,
        profile: &str,
        target: &str,
        verdict: Verdict,
    ) -> Result<Outcome, EngineError> {
        let Verdict::Block {
            rule,
            reason,
            remedy,
        } = verdict
        else {
            unreachable!("blocked() is only called with a Block verdict")
        };
        self.audit(
            cx.event(name, AuditOutcome::Blocked)
                .entity(profile)
                .target(target)
                .reason(format!("{rule}: {reason}")),
        )?;
        Ok(Outcome::Blocked {
            rule,
            reason,
            remedy,
        })
    }

    /// Build the reply for an inbox message: same profile, back to its sender or its chat.
    fn reply_outbound(
        &self,
        message_id: &str,
        body: String,
    ) -> Result<(String, Outbound), EngineError> {
        let rec = self.inbox.find_by_id(message_id)?.ok_or_else(|| {
            EngineError::NotFound(format!("no inbox message with id `{message_id}`; use the `id` field of an inbox_pull result"))
        })?;
        let outbound = match rec.channel {
            Channel::Teams => Outbound::PostChat {
                chat_id: Self::reply_chat(&rec).unwrap_or_default(),
                body,
            },
            Channel::Email | Channel::Spool => {
                let subject = rec.subject.clone().unwrap_or_default();
                let subject = if subject.to_ascii_lowercase().starts_with("re:") {
                    subject
                } else {
                    format!("Re: {subject}")
                };
                Outbound::ReplyEmail {
                    message_id: rec.id.clone(),
                    to: Self::reply_recipients(&rec),
                    subject,
                    body,
                    attachments: Vec::new(),
                    body_html: None,
                }
            }
            Channel::Calendar => {
                return Err(EngineError::invalid(
                    "calendar items cannot be replied to",
                    json!({"hint": "draft an email to the organizer with draft_email, or a calendar event"}),
                ));
            }
        };
        Ok((rec.profile, outbound))
    }

    /// Who a reply goes to: the `replyTo` recipients a message named (mail's own rule: a
    /// reply to a list or a ticketing system goes where it asks), else its sender.
    fn reply_recipients(rec: &InboxRecord) -> Vec<String> {
        let named: Vec<String> = rec
            .meta
            .get(crate::sources::graph::mail::META_REPLY_TO)
            .and_then(|v| v.as_array())
            .into_iter()
            .flatten()
            .filter_map(|a| a.as_str().map(str::trim))
            .filter(|a| !a.is_empty())
            .map(str::to_owned)
            .collect();
        if named.is_empty() {
            vec![rec.from.address.clone()]
        } else {
            named
        }
    }

    /// The chat a reply to `rec` posts to (its thread, else a 1:1 with its sender); `None`
    /// for what is not a chat message. The audience rule compares with the same id.
    fn reply_chat(rec: &InboxRecord) -> Option<String> {
        (rec.channel == Channel::Teams).then(|| {
            rec.thread_id
                .clone()
                .unwrap_or_else(|| rec.from.address.clone())
        })
    }
}

/// Who is calling and through what, for the audit trail.
/// How many recent messages of a foreign profile the passage check compares a draft with.
const BOUNDARY_LOOKBACK: usize = 2000;

pub(crate) struct Call<'a> {
    pub actor: &'a Actor,
    pub tool: Option<&'a str>,
    pub started: Instant,
}

impl Call<'_> {
    fn event(&self, name: &str, outcome: AuditOutcome) -> AuditEvent {
        let mut ev = AuditEvent::new(name, self.actor, outcome)
            .duration_ms(self.started.elapsed().as_millis() as u64);
        ev.tool = self.tool.map(str::to_string);
        ev
    }
}

/// The inbox consumer an actor reads as.
impl Engine {
    /// Record that the record `seq` was delivered to `consumer` by a push its client turns into
    /// a turn (Claude Code's channel): that consumer's pulls skip it, so the model is not
    /// handed the same message twice. Its cursor does not move: a record that was not pushed
    /// (a reconnect in between, a push withheld) is still pulled.
    pub fn mark_delivered(&self, consumer: &str, seq: u64) {
        let mut d = self.delivered.lock().unwrap_or_else(|e| e.into_inner());
        let set = d.entry(consumer.to_string()).or_default();
        set.insert(seq);
        while set.len() > MAX_DELIVERED {
            set.pop_first();
        }
    }

    /// Drop `seq` and anything before it from `consumer`'s pushed set; whether `seq` was in it.
    fn take_delivered(&self, consumer: &str, seq: u64) -> bool {
        let mut d = self.delivered.lock().unwrap_or_else(|e| e.into_inner());
        let Some(set) = d.get_mut(consumer) else {
            return false;
        };
        let had = set.contains(&seq);
        *set = set.split_off(&(seq + 1));
        had
    }

    fn has_delivered(&self, consumer: &str) -> bool {
        self.delivered
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .get(consumer)
            .is_some_and(|s| !s.is_empty())
    }
}

pub(crate) fn consumer_name(actor: &Actor) -> Option<String> {
    match actor {
        Actor::Console => Some("console".into()),
        Actor::Cli => Some("cli".into()),
        Actor::Mcp(c) => Some(format!("mcp:{c}")),
        _ => None,
    }
}

fn new_draft_id() -> String {
    let u = uuid::Uuid::new_v4().simple().to_string();
    format!("d-{}", &u[..10])
}
