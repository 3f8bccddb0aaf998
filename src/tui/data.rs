//! The data task: owns every read and write the console makes, off the UI thread. Changes and
//! briefs go through `Engine::submit` with the console as actor (the one governed path); page
//! reads of the inbox, drafts and audit tail read the stores directly, like `watch` does,
//! because they change nothing and auditing every scroll would drown the trail.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender};

use super::msg::{Anchor, ChainStatus, JobTarget, Level, Msg, Req};
use super::panes::inbox::{InboxRow, PAGE};
use crate::assistant::JobKind;
use crate::domain::{Action, Actor, BriefKind, Outcome, Query};
use crate::engine::Engine;
use crate::engine::query::Answer;

/// Names of connected MCP clients (from the MCP hub, when it runs).
pub(crate) type ClientsFn = Arc<dyn Fn() -> Vec<String> + Send + Sync>;

/// Audit records loaded when the console starts (live appends follow).
const AUDIT_TAIL: usize = 500;

pub fn spawn(
    engine: Arc<Engine>,
    clients: Option<ClientsFn>,
    rt: tokio::runtime::Handle,
    rx: Receiver<Req>,
    tx: Sender<Msg>,
) -> std::io::Result<std::thread::JoinHandle<()>> {
    std::thread::Builder::new()
        .name("console-data".into())
        .spawn(move || {
            while let Ok(req) = rx.recv() {
                // A send error means the UI is gone: stop.
                if handle(&engine, clients.as_ref(), &rt, req, &tx).is_err() {
                    break;
                }
            }
        })
}

fn handle(
    engine: &Arc<Engine>,
    clients: Option<&ClientsFn>,
    rt: &tokio::runtime::Handle,
    req: Req,
    tx: &Sender<Msg>,
) -> Result<(), Closed> {
    let raw_tx = tx;
    let tx = &Sender2(tx);
    match req {
        // Jobs run on the engine's runtime, so the data task stays free for reads; their
        // progress reaches the UI as engine events.
        Req::Job { job, target } => {
            let (engine, tx) = (engine.clone(), raw_tx.clone());
            rt.spawn(async move {
                let result = run_job(&engine, job, target).await;
                let _ = tx.send(Msg::JobDone { job, result });
            });
        }
        Req::SetTriage {
            seq,
            category,
            urgency,
            reason,
        } => match engine.set_triage(seq, category, urgency, reason, &Actor::Console) {
            Ok(t) => {
                tx.send(Msg::Triage(vec![(seq, Some(t))]))?;
                tx.send(Msg::JobDone {
                    job: JobKind::Triage,
                    result: Ok(Some(format!(
                        "#{seq} is now {} / {} (yours: rules and model no longer change it)",
                        category.as_str(),
                        urgency.as_str()
                    ))),
                })?;
            }
            Err(e) => tx.send(Msg::JobDone {
                job: JobKind::Triage,
                result: Err(e.to_string()),
            })?,
        },
        Req::AssignProfile { seq, profile } => {
            match engine.assign_profile(seq, &profile, &Actor::Console) {
                Ok(a) => tx.send(Msg::Assigned {
                    seq,
                    profile: a.profile,
                })?,
                Err(e) => tx.send(Msg::Notice {
                    level: Level::Error,
                    text: format!("#{seq} was not assigned: {e}"),
                })?,
            }
        }
        Req::CancelJobs => {
            for j in engine.jobs() {
                engine.cancel_job(j.id);
            }
        }
        Req::TriageOf { seqs } => {
            let list = seqs
                .into_iter()
                .map(|s| (s, engine.triage_of(s).ok().flatten()))
                .collect();
            tx.send(Msg::Triage(list))?;
        }
        Req::LoadAll => {
            let cursor = engine.inbox_cursor("console").ok().flatten().unwrap_or(0);
            let last_seq = engine.inbox_last_seq().unwrap_or(0);
            tx.send(Msg::Cursor { cursor, last_seq })?;
            tx.send(Msg::Drafts(drafts(engine)))?;
            tx.send(Msg::Deals(deals(engine)))?;
            tx.send(Msg::Providers(
                engine.providers_view().map_err(|e| e.to_string()),
            ))?;
            tx.send(Msg::Vault(
                crate::vault::VaultView::of_engine(engine, AUDIT_TAIL).map_err(|e| e.to_string()),
            ))?;
            tx.send(Msg::AuditTail(
                engine.audit_tail(AUDIT_TAIL).unwrap_or_default(),
            ))?;
            for h in engine.health() {
                tx.send(Msg::Engine(crate::engine::EngineEvent::SourceHealth(
                    Arc::new(h),
                )))?;
            }
            verify(engine, tx.0);
        }
        Req::Inbox {
            generation,
            filter,
            anchor,
        } => {
            let batch = match anchor {
                Anchor::Top => engine.unaudited_inbox_page_before(None, PAGE, &filter),
                Anchor::Before(s) => engine.unaudited_inbox_page_before(Some(s), PAGE, &filter),
                Anchor::After(s) => {
                    engine
                        .unaudited_inbox_page_after(s, PAGE, &filter)
                        .map(|mut b| {
                            b.records.reverse();
                            b
                        })
                }
                Anchor::Bottom => {
                    engine
                        .unaudited_inbox_page_after(0, PAGE, &filter)
                        .map(|mut b| {
                            b.records.reverse();
                            b
                        })
                }
            };
            match batch {
                Ok(b) => tx.send(Msg::InboxPage {
                    generation,
                    anchor,
                    rows: b
                        .records
                        .iter()
                        .map(|r| {
                            let mut row = InboxRow::from(&**r);
                            // A triage store that cannot be read shows no labels, not no inbox.
                            row.triage = engine.triage_of(r.seq).ok().flatten();
                            row
                        })
                        .collect(),
                    last_seq: b.last_seq,
                })?,
                Err(e) => tx.send(Msg::Submitted {
                    label: "reading the inbox".into(),
                    action: Action::Query(Query::Status),
                    result: Err(e.to_string()),
                })?,
            }
        }
        Req::Drafts => tx.send(Msg::Drafts(drafts(engine)))?,
        Req::Deals => tx.send(Msg::Deals(deals(engine)))?,
        Req::Providers => {
            tx.send(Msg::Providers(
                engine.providers_view().map_err(|e| e.to_string()),
            ))?;
            // The folder may have changed, and calls made since show in the health column.
            tx.send(Msg::Vault(
                crate::vault::VaultView::of_engine(engine, AUDIT_TAIL).map_err(|e| e.to_string()),
            ))?;
        }
        Req::Verify => verify(engine, tx.0),
        Req::Brief { profile } => {
            // Read typed (checked and audited like every read); the pane renders the brief.
            let ask = |kind| {
                let q = Query::Brief {
                    kind,
                    profile: profile.clone(),
                };
                match engine.read(q, Actor::Console) {
                    Ok(Answer::Brief(b)) => Ok(b),
                    Ok(other) => Err(format!(
                        "unexpected {} answer to a brief query",
                        other.kind()
                    )),
                    Err(e) => Err(e.to_string()),
                }
            };
            let morning = ask(BriefKind::Morning);
            let eod = ask(BriefKind::EndOfDay);
            tx.send(Msg::Brief {
                profile,
                morning,
                eod,
            })?;
        }
        Req::Clients => {
            if let Some(f) = clients {
                tx.send(Msg::Clients(f()))?;
            }
        }
        Req::DraftHistory { id } => {
            let events = engine.draft_history(&id).map_err(|e| e.to_string());
            tx.send(Msg::DraftHistory { id, events })?;
        }
        Req::ToggleImpact { name, enabled } => {
            let blocks = engine
                .effective_llm()
                .map(|llm| {
                    crate::engine::providers::newly_blocked(engine.config(), &llm, &name, enabled)
                })
                .map_err(|e| e.to_string());
            tx.send(Msg::ToggleImpact {
                name,
                enabled,
                blocks,
            })?;
        }
        Req::Submit { action, label } => {
            let result = engine
                .submit(action.clone(), Actor::Console)
                .map_err(|e| e.to_string());
            tx.send(Msg::Submitted {
                label,
                action,
                result,
            })?;
        }
        Req::OpenAttachment { sha256, name } => {
            let opener = super::files::opener();
            match super::files::open(engine, &sha256, &opener) {
                Ok((_, child)) => {
                    tx.send(notice(
                        Level::Info,
                        format!("opening {name} with {}", opener.to_string_lossy()),
                    ))?;
                    reap(child, name, opener, tx.0);
                }
                Err(e) => tx.send(notice(Level::Error, format!("cannot open {name}: {e:#}")))?,
            }
        }
        Req::SaveAttachment { sha256, name, dir } => {
            let saved = super::files::resolve_dir(&dir)
                .and_then(|d| super::files::save(engine, &sha256, &name, &d));
            tx.send(match saved {
                Ok(p) => notice(Level::Info, format!("saved a copy as {}", p.display())),
                Err(e) => notice(Level::Error, format!("{name} NOT saved: {e:#}")),
            })?;
        }
    }
    Ok(())
}

/// Most items one "triage everything" batch takes (the rest: press again, or the CLI's
/// `triage backfill`).
const CONSOLE_BATCH: usize = 200;

/// Run one console job to its end; the summary is said in the message line.
async fn run_job(
    engine: &Arc<Engine>,
    job: JobKind,
    target: JobTarget,
) -> Result<Option<String>, String> {
    let seqs = match target {
        JobTarget::Seqs(s) => s,
        JobTarget::Untriaged => engine
            .untriaged(None, CONSOLE_BATCH)
            .map_err(|e| e.to_string())?,
    };
    if seqs.is_empty() {
        return Ok(Some("nothing to do: every message is triaged".into()));
    }
    let quiet = |_: &crate::engine::jobs::JobProgress| {};
    // One item: its result in words. A batch: its final progress event says how it went.
    let one = |items: &[(u64, Result<String, String>)]| -> Result<Option<String>, String> {
        match items {
            [(_, r)] => r.clone().map(Some),
            _ => Ok(None),
        }
    };
    let actor = Actor::Console;
    let items: Vec<(u64, Result<String, String>)> = match job {
        JobKind::Triage => engine
            .triage_batch(seqs, actor, true, None, &quiet)
            .await
            .items
            .into_iter()
            .map(|(s, r)| {
                (
                    s,
                    r.map(|t| {
                        format!(
                            "#{s} is {} / {} (by {}): {}",
                            t.category.as_str(),
                            t.urgency.as_str(),
                            format!("{:?}", t.by).to_lowercase(),
                            t.reason
                        )
                    }),
                )
            })
            .collect(),
        JobKind::Deadlines => engine
            .deadlines_batch(seqs, actor, true, None, &quiet)
            .await
            .items
            .into_iter()
            .map(|(s, r)| {
                (
                    s,
                    r.map(|d| {
                        let mut m =
                            format!("#{s}: {} deadline(s), {} new", d.deadlines.len(), d.new);
                        if let Some(first) = d.deadlines.first() {
                            m.push_str(&format!(
                                " — {} (due {})",
                                first.found.what,
                                first.found.due.as_deref().unwrap_or("undated")
                            ));
                        }
                        if let Some(e) = d.model_error {
                            m.push_str(&format!("; model answer not used: {e}"));
                        }
                        m
                    }),
                )
            })
            .collect(),
        JobKind::Draft => engine
            .draft_batch(seqs, actor, None, &quiet)
            .await
            .items
            .into_iter()
            .map(|(s, r)| {
                (
                    s,
                    r.map(|o| match o {
                        Outcome::Queued { draft_id, .. } => {
                            format!("reply to #{s} drafted as {draft_id}; it waits in Drafts (3)")
                        }
                        Outcome::Blocked { rule, reason, .. } => {
                            format!("reply to #{s} blocked by {rule}: {reason}")
                        }
                        Outcome::Done { .. } => format!("reply to #{s} done"),
                    }),
                )
            })
            .collect(),
        JobKind::Brief => return Err("the brief is polished from the Brief pane".into()),
        JobKind::Filing => return Err("filing runs from `opsdesk filing propose`".into()),
    };
    one(&items)
}

fn notice(level: Level, text: String) -> Msg {
    Msg::Notice { level, text }
}

/// Wait for the opener on its own thread (it may run as long as the viewer it started), so
/// it is reaped and a failure reaches the message line instead of vanishing.
fn reap(
    mut child: std::process::Child,
    name: String,
    opener: std::ffi::OsString,
    tx: &Sender<Msg>,
) {
    let to_ui = tx.clone();
    let spawned = std::thread::Builder::new()
        .name("console-opener".into())
        .spawn(move || {
            let text = match child.wait() {
                Ok(s) if s.success() => return,
                Ok(s) => format!("{} could not open {name} ({s})", opener.to_string_lossy()),
                Err(e) => format!("{}: {e}", opener.to_string_lossy()),
            };
            // The UI may be gone by then; nothing is left to tell.
            let _ = to_ui.send(notice(Level::Error, text));
        });
    if let Err(e) = spawned {
        let _ = tx.send(notice(
            Level::Warn,
            format!("the opener runs, but cannot be watched: {e}"),
        ));
    }
}

/// The UI has gone away.
struct Closed;

/// A sender whose error is just "closed" (the message itself is not worth returning).
struct Sender2<'a>(&'a Sender<Msg>);

impl Sender2<'_> {
    fn send(&self, m: Msg) -> Result<(), Closed> {
        self.0.send(m).map_err(|_| Closed)
    }
}

fn deals(engine: &Engine) -> Result<Vec<crate::domain::Deal>, String> {
    engine
        .deal_book()
        .map(|b| b.deals.clone())
        .map_err(|e| e.to_string())
}

fn drafts(engine: &Engine) -> Vec<crate::domain::Draft> {
    engine.draft_queue().map(|q| q.drafts).unwrap_or_default()
}

/// Verify the chain on its own thread: a long trail must not hold up other requests.
fn verify(engine: &Arc<Engine>, tx: &Sender<Msg>) {
    let engine = engine.clone();
    let tx = tx.clone();
    let _ = std::thread::Builder::new()
        .name("console-verify".into())
        .spawn(move || {
            let status = match engine.verify_audit() {
                Ok(r) if r.ok() => ChainStatus {
                    ok: true,
                    text: format!("intact through record {}", r.records),
                    records: r.records,
                    at: Some(crate::domain::now()),
                },
                Ok(r) => ChainStatus {
                    ok: false,
                    records: r.records,
                    at: Some(crate::domain::now()),
                    text: format!(
                        "BROKEN: {}",
                        r.first_bad
                            .as_ref()
                            .map(|b| format!(
                                "{}:{} (seq {}): {}",
                                b.file.display(),
                                b.line,
                                b.seq.map(|s| s.to_string()).unwrap_or_else(|| "?".into()),
                                b.reason
                            ))
                            .unwrap_or_else(|| "see `opsdesk audit verify`".into())
                    ),
                },
                Err(e) => ChainStatus {
                    ok: false,
                    records: 0,
                    at: Some(crate::domain::now()),
                    text: format!("cannot verify: {e}"),
                },
            };
            let _ = tx.send(Msg::Chain(status));
        });
}
