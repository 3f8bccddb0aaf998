//! The data task: owns every read and write the console makes, off the UI thread. Changes and
//! briefs go through `Engine::submit` with the console as actor (the one governed path); page
//! reads of the inbox, drafts and audit tail read the stores directly, like `watch` does,
//! because they change nothing and auditing every scroll would drown the trail.

use std::sync::Arc;
use std::sync::mpsc::{Receiver, Sender};

use serde_json::Value;

use super::app::{Anchor, ChainStatus, InboxRow, Level, Msg, PAGE, Req};
use crate::domain::{Action, Actor, BriefKind, Outcome, Query};
use crate::engine::Engine;

/// Names of connected MCP clients (from the MCP hub, when it runs).
pub type ClientsFn = Arc<dyn Fn() -> Vec<String> + Send + Sync>;

/// Audit records loaded when the console starts (live appends follow).
const AUDIT_TAIL: usize = 500;

pub fn spawn(
    engine: Arc<Engine>,
    clients: Option<ClientsFn>,
    rx: Receiver<Req>,
    tx: Sender<Msg>,
) -> std::io::Result<std::thread::JoinHandle<()>> {
    std::thread::Builder::new()
        .name("console-data".into())
        .spawn(move || {
            while let Ok(req) = rx.recv() {
                // A send error means the UI is gone: stop.
                if handle(&engine, clients.as_ref(), req, &tx).is_err() {
                    break;
                }
            }
        })
}

fn handle(
    engine: &Arc<Engine>,
    clients: Option<&ClientsFn>,
    req: Req,
    tx: &Sender<Msg>,
) -> Result<(), Closed> {
    let tx = &Sender2(tx);
    match req {
        Req::LoadAll => {
            let cursor = engine.inbox_cursor("console").ok().flatten().unwrap_or(0);
            let last_seq = engine.inbox_last_seq().unwrap_or(0);
            tx.send(Msg::Cursor { cursor, last_seq })?;
            tx.send(Msg::Drafts(drafts(engine)))?;
            tx.send(Msg::Providers(
                engine.providers_view().map_err(|e| e.to_string()),
            ))?;
            tx.send(Msg::Vault(
                engine.vault_view(AUDIT_TAIL).map_err(|e| e.to_string()),
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
                            let mut row = InboxRow::from(r);
                            // A triage store that cannot be read shows no labels, not no inbox.
                            row.triage = engine.assistant().triage_of(r.seq).ok().flatten();
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
        Req::Providers => {
            tx.send(Msg::Providers(
                engine.providers_view().map_err(|e| e.to_string()),
            ))?;
            // The folder may have changed, and calls made since show in the health column.
            tx.send(Msg::Vault(
                engine.vault_view(AUDIT_TAIL).map_err(|e| e.to_string()),
            ))?;
        }
        Req::Verify => verify(engine, tx.0),
        Req::Brief { profile } => {
            let ask = |kind| match engine.submit(
                Action::Query(Query::Brief {
                    kind,
                    profile: profile.clone(),
                }),
                Actor::Console,
            ) {
                Ok(Outcome::Done { detail }) => Ok(detail),
                Ok(other) => Ok(serde_json::to_value(other).unwrap_or(Value::Null)),
                Err(e) => Err(e.to_string()),
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
