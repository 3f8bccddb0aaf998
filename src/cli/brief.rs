//! `opsdesk brief`: the morning brief (or, with `--eod`, the end-of-day digest) of a profile.
//! It goes through `Engine::submit` like the MCP tools, so each one is audited.

use clap::Args;

use super::{CmdResult, Context, Failure};
use crate::domain::{Action, Actor, BriefKind, Outcome, Query};

#[derive(Debug, Args)]
pub struct BriefArgs {
    /// The profile to summarize; may be left out when only one profile is configured.
    #[arg(long)]
    pub profile: Option<String>,
    /// The end-of-day digest instead of the morning brief.
    #[arg(long)]
    pub eod: bool,
}

pub fn run(ctx: &Context, a: BriefArgs) -> CmdResult {
    let out = ctx.printer();
    let engine = ctx.engine()?;
    let profile = match a.profile {
        Some(p) => p,
        None => {
            let names = engine.profile_names();
            match names.as_slice() {
                [one] => one.clone(),
                _ => {
                    return Err(Failure::usage(format!(
                        "several profiles are configured; name one with --profile ({})",
                        names.join(", ")
                    )));
                }
            }
        }
    };
    let kind = if a.eod {
        BriefKind::EndOfDay
    } else {
        BriefKind::Morning
    };
    let outcome = engine.submit(Action::Query(Query::Brief { kind, profile }), Actor::Cli)?;
    let detail = match outcome {
        Outcome::Done { detail } => detail,
        Outcome::Blocked { reason, remedy, .. } => {
            return Err(Failure {
                code: 4,
                message: format!("{reason} ({remedy})"),
            });
        }
        Outcome::Queued { .. } => {
            return Err(Failure::failed("unexpected answer to a brief query"));
        }
    };
    out.emit(&detail, |l| {
        match detail.get("text").and_then(|t| t.as_str()) {
            Some(text) => l.extend(text.lines().map(str::to_string)),
            None => l.push(detail.to_string()),
        }
    });
    Ok(())
}
