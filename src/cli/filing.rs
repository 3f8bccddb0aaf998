//! `opsdesk filing`: where mail belongs (`suggest`), and queueing moves (`move`, or `accept` a
//! suggestion). A move waits in the approval queue like every change to the mailbox; approve
//! it with `opsdesk drafts approve`.

use clap::Subcommand;

use super::{CmdResult, Context, Failure};
use crate::domain::{Action, Actor, Outcome, Query};
use crate::engine::query::Answer;

#[derive(Debug, Subcommand)]
pub enum FilingCmd {
    /// Which folder each message belongs in, and why.
    Suggest {
        /// Messages: seqs or source ids.
        #[arg(required = true)]
        messages: Vec<String>,
    },
    /// Queue moving a mail message to a folder (it waits for approval).
    Move {
        /// The message: its source id.
        message: String,
        /// Well-known name (archive, deleteditems, …), folder name or path, or folder id.
        folder: String,
    },
    /// Queue the move a suggestion names (it waits for approval).
    Accept {
        /// The message: its seq or source id.
        message: String,
    },
    /// The assistant's filing pass: the rules, then the model (job `filing`, through the
    /// router) for mail no rule places, choosing among the configured folders.
    Propose {
        /// Mail items by seq.
        #[arg(required = true, value_parser = super::seq_arg)]
        seqs: Vec<u64>,
        /// Queue each proposed move as a `mail_move` (it waits for approval by default).
        #[arg(long)]
        queue: bool,
    },
}

pub fn run(ctx: &Context, cmd: FilingCmd) -> CmdResult {
    let out = ctx.printer();
    if let FilingCmd::Propose { seqs, queue } = cmd {
        return propose(ctx, seqs, queue);
    }
    let engine = ctx.engine()?;
    let suggest = |keys: Vec<String>| -> Result<crate::engine::filing::FilingAnswer, Failure> {
        match engine.read(Query::FilingSuggestion { message_ids: keys }, Actor::Cli)? {
            Answer::Filing(f) => Ok(f),
            _ => Err(Failure::failed("the engine answered with something else")),
        }
    };
    let queue = |message: String, folder: String| -> CmdResult {
        let outcome = engine.submit(
            Action::MoveMessage {
                message_id: message,
                folder,
            },
            Actor::Cli,
        )?;
        match &outcome {
            Outcome::Queued { draft_id, .. } => {
                out.emit(&outcome, |l| {
                    l.push(format!(
                        "queued {draft_id}; approve with `opsdesk drafts approve {draft_id}`"
                    ))
                });
                Ok(())
            }
            Outcome::Blocked {
                rule,
                reason,
                remedy,
            } => Err(Failure::refused(format!(
                "blocked by {rule}: {reason}; {remedy}"
            ))),
            Outcome::Done { .. } => Err(Failure::failed("the move was not queued")),
        }
    };
    match cmd {
        FilingCmd::Suggest { messages } => {
            let f = suggest(messages)?;
            out.emit(&f, |l| {
                for s in &f.suggestions {
                    l.push(format!(
                        "{:<24} → {:<24} {}",
                        s.seq
                            .map(|n| format!("#{n}"))
                            .unwrap_or(s.message_id.clone()),
                        s.folder.as_deref().unwrap_or("(no folder)"),
                        s.reason
                    ));
                }
            });
            Ok(())
        }
        FilingCmd::Move { message, folder } => queue(message, folder),
        FilingCmd::Propose { .. } => unreachable!("handled above"),
        FilingCmd::Accept { message } => {
            let f = suggest(vec![message.clone()])?;
            let s = f
                .suggestions
                .into_iter()
                .next()
                .ok_or_else(|| Failure::failed("no suggestion came back"))?;
            match s.folder {
                Some(folder) if s.seq.is_some() => queue(s.message_id, folder),
                _ => Err(Failure::usage(format!(
                    "no folder to accept for {message}: {}; move it with `opsdesk filing move {message} <folder>`",
                    s.reason
                ))),
            }
        }
    }
}

fn propose(ctx: &Context, seqs: Vec<u64>, queue: bool) -> CmdResult {
    use super::assistant::{batch_exit, ctrl_c_token, progress_printer, runtime};
    let out = ctx.printer();
    let engine = std::sync::Arc::new(ctx.engine()?);
    let rt = runtime()?;
    let token = ctrl_c_token(&rt);
    let report =
        rt.block_on(engine.filing_batch(seqs, Actor::Cli, queue, Some(token), &progress_printer));
    let items: Vec<_> = report
        .items
        .iter()
        .map(|(s, r)| crate::engine::item_json(*s, r))
        .collect();
    out.emit(
        &serde_json::json!({"progress": report.progress, "items": items}),
        |l| {
            for (seq, r) in &report.items {
                l.push(match r {
                    Ok(p) => {
                        let mut line = format!(
                            "{seq:>6}  → {:<24} {}",
                            p.suggestion.folder.as_deref().unwrap_or("(no folder)"),
                            p.suggestion.reason
                        );
                        if let Some(e) = &p.model_error {
                            line.push_str(&format!(" (model answer not used: {e})"));
                        }
                        match &p.queued {
                            Some(Outcome::Queued { draft_id, .. }) => line.push_str(&format!(
                                "; move queued as {draft_id} (`opsdesk drafts approve {draft_id}`)"
                            )),
                            Some(Outcome::Blocked { rule, reason, .. }) => {
                                line.push_str(&format!("; move blocked by {rule}: {reason}"))
                            }
                            Some(Outcome::Done { .. }) => line.push_str("; moved"),
                            None => {}
                        }
                        line
                    }
                    Err(e) => format!("{seq:>6}  failed: {e}"),
                });
            }
        },
    );
    let blocked = report
        .items
        .iter()
        .filter(|(_, r)| {
            matches!(
                r,
                Ok(crate::engine::filing::FilingProposal {
                    queued: Some(Outcome::Blocked { .. }),
                    ..
                })
            )
        })
        .count();
    batch_exit(
        report.progress.failed + blocked,
        report.progress.state == crate::engine::jobs::JobState::Cancelled,
    )
}
