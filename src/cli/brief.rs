//! `opsdesk brief`: the morning brief (or, with `--eod`, the end-of-day digest) of a profile.
//! It is a read through the engine (`Engine::read`) like the MCP tools, so each one is audited.

use clap::Args;

use super::{CmdResult, Context, Failure};

/// Upper bound on the whole polish (every provider, retry and fallback).
const POLISH_LIMIT: std::time::Duration = std::time::Duration::from_secs(180);
use crate::domain::{Actor, BriefKind, Query};
use crate::engine::EngineError;
use crate::engine::query::Answer;

#[derive(Debug, Args)]
pub struct BriefArgs {
    /// The profile to summarize; may be left out when only one profile is configured. `all`:
    /// one brief across every entity, a section per profile.
    #[arg(long)]
    pub profile: Option<String>,
    /// With `--profile all`: include profiles marked `personal = true` in the config.
    #[arg(long)]
    pub include_personal: bool,
    /// The end-of-day digest instead of the morning brief.
    #[arg(long)]
    pub eod: bool,
    /// Have the LLM router rewrite the text (job `brief`; redaction and blocks apply). When it
    /// is blocked or fails, the deterministic brief is printed and the reason given.
    #[arg(long)]
    pub polish: bool,
}

pub fn run(ctx: &Context, a: BriefArgs) -> CmdResult {
    let out = ctx.printer();
    let engine = ctx.engine()?;
    let kind = if a.eod {
        BriefKind::EndOfDay
    } else {
        BriefKind::Morning
    };
    if a.profile.as_deref() == Some(crate::brief::ALL_PROFILES) {
        return run_all(ctx, &engine, kind, a.include_personal, a.polish);
    }
    if a.include_personal {
        return Err(Failure::usage(
            "--include-personal applies to --profile all only".to_string(),
        ));
    }
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
    let mut brief = match engine.read(Query::Brief { kind, profile }, Actor::Cli) {
        Ok(Answer::Brief(b)) => *b,
        Ok(other) => {
            return Err(Failure::failed(format!(
                "unexpected {} answer to a brief query",
                other.kind()
            )));
        }
        Err(EngineError::Blocked { reason, remedy, .. }) => {
            return Err(Failure::refused(format!("{reason} ({remedy})")));
        }
        Err(e) => return Err(e.into()),
    };
    if a.polish {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| Failure::failed(format!("cannot start the runtime: {e}")))?;
        brief = rt.block_on(engine.polish_brief(brief, &Actor::Cli, POLISH_LIMIT));
        if let Some(why) = &brief.polish_skipped {
            eprintln!(
                "opsdesk: polish skipped: {}",
                crate::sanitize::for_terminal(why)
            );
        }
    }
    out.emit(&brief, |l| l.extend(brief.text.lines().map(str::to_string)));
    Ok(())
}

/// `--profile all`: one section per entity, each polished on its own (routed as its own
/// profile) when asked.
fn run_all(
    ctx: &Context,
    engine: &crate::engine::Engine,
    kind: BriefKind,
    include_personal: bool,
    polish: bool,
) -> CmdResult {
    let q = Query::BriefAll {
        kind,
        include_personal,
    };
    let mut all = match engine.read(q, Actor::Cli) {
        Ok(Answer::Briefs(b)) => *b,
        Ok(other) => {
            return Err(Failure::failed(format!(
                "unexpected {} answer to a brief query",
                other.kind()
            )));
        }
        Err(EngineError::Blocked { reason, remedy, .. }) => {
            return Err(Failure::refused(format!("{reason} ({remedy})")));
        }
        Err(e) => return Err(e.into()),
    };
    if polish {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .map_err(|e| Failure::failed(format!("cannot start the runtime: {e}")))?;
        let deadline = std::time::Instant::now() + POLISH_LIMIT;
        let mut polished = Vec::with_capacity(all.sections.len());
        for s in std::mem::take(&mut all.sections) {
            let limit = deadline.saturating_duration_since(std::time::Instant::now());
            let s = rt.block_on(engine.polish_brief(s, &Actor::Cli, limit));
            if let Some(why) = &s.polish_skipped {
                eprintln!(
                    "opsdesk: polish of {} skipped: {}",
                    s.profile,
                    crate::sanitize::for_terminal(why)
                );
            }
            polished.push(s);
        }
        all.sections = polished;
    }
    ctx.printer()
        .emit(&all, |l| l.extend(all.text().lines().map(str::to_string)));
    Ok(())
}
