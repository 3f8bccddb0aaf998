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
}

pub fn run(ctx: &Context, cmd: FilingCmd) -> CmdResult {
    let out = ctx.printer();
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
            } => Err(Failure {
                code: 4,
                message: format!("blocked by {rule}: {reason}; {remedy}"),
            }),
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
