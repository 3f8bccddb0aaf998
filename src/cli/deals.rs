//! `opsdesk deals`: list, show (detail and timeline), create, link, unlink, stage, and accept a
//! client's deal proposal. Every change is an `Action` through `Engine::submit`; every read a
//! `Query` through `Engine::read` (audited like the MCP tools).

use clap::Subcommand;

use super::output::Printer;
use super::output::{local_time, safe};
use super::{CmdResult, Context, Failure};
use crate::domain::{
    Action, Actor, DealSpec, DealStage, DraftStatus, KeyDate, Outbound, Outcome, Query,
};
use crate::engine::Engine;
use crate::engine::query::Answer;

#[derive(Debug, Subcommand)]
pub enum DealsCmd {
    /// Open deals (or all, with --all).
    List {
        /// Closed deals (won, lost) too.
        #[arg(long)]
        all: bool,
        /// Only deals of this profile.
        #[arg(long)]
        profile: Option<String>,
    },
    /// One deal: its details, linked messages and timeline.
    Show {
        /// The deal id (`deal-…`).
        id: String,
        /// Most timeline entries to show (the newest).
        #[arg(long, default_value_t = 50)]
        limit: usize,
    },
    /// Create a deal.
    Create {
        /// The profile (entity) the deal belongs to.
        #[arg(long)]
        profile: String,
        /// The deal's name.
        #[arg(long)]
        name: String,
        /// A counterparty: a name, a mail address or a mail domain (repeat for several).
        #[arg(long = "counterparty")]
        counterparties: Vec<String>,
        /// Starting stage: lead, diligence, negotiation, closing, won, lost.
        #[arg(long, default_value = "lead")]
        stage: String,
        /// A key date as label=YYYY-MM-DD (repeat for several).
        #[arg(long = "date")]
        dates: Vec<String>,
        /// Free notes.
        #[arg(long, default_value = "")]
        notes: String,
        /// A keyword that links new mail mentioning it (repeat for several).
        #[arg(long = "keyword")]
        keywords: Vec<String>,
    },
    /// Link an inbox message (seq or source id) to a deal of the same profile.
    Link {
        /// The deal id.
        deal: String,
        /// The message: its seq or its source id.
        message: String,
    },
    /// Take a message off a deal.
    Unlink {
        /// The deal id.
        deal: String,
        /// The message: its seq or its source id.
        message: String,
        /// Why (kept in the deal's log and the audit trail).
        #[arg(long, default_value = "")]
        reason: String,
    },
    /// Move a deal to another stage.
    Stage {
        /// The deal id.
        deal: String,
        /// lead, diligence, negotiation, closing, won or lost.
        stage: String,
        /// A note kept with the change.
        #[arg(long)]
        note: Option<String>,
    },
    /// Accept a deal proposed by an MCP client (a `create_deal` draft): approve it and create
    /// the deal.
    Accept {
        /// The proposal's draft id (`d-…`).
        draft: String,
        /// Do not ask for confirmation (required when standard input is not a terminal).
        #[arg(long, short = 'y')]
        yes: bool,
    },
}

pub fn run(ctx: &Context, cmd: DealsCmd) -> CmdResult {
    let out = ctx.printer();
    let engine = ctx.engine()?;
    match cmd {
        DealsCmd::List { all, profile } => list(&out, &engine, all, profile),
        DealsCmd::Show { id, limit } => show(&out, &engine, id, limit),
        DealsCmd::Create {
            profile,
            name,
            counterparties,
            stage,
            dates,
            notes,
            keywords,
        } => {
            let stage: DealStage = stage.parse().map_err(Failure::usage)?;
            let key_dates = dates
                .iter()
                .map(|d| KeyDate::parse_pair(d))
                .collect::<Result<Vec<_>, _>>()
                .map_err(Failure::usage)?;
            let spec = DealSpec {
                name,
                counterparties,
                stage,
                key_dates,
                notes,
                keywords,
            };
            let outcome = engine.submit(Action::CreateDeal { profile, spec }, Actor::Cli)?;
            report(&out, outcome, |d| match d {
                crate::domain::Done::Deal(deal) => format!("created {}", deal.id),
                _ => "created".to_string(),
            })
        }
        DealsCmd::Link { deal, message } => {
            let outcome = engine.submit(
                Action::LinkDeal {
                    deal_id: deal.clone(),
                    message: message.clone(),
                },
                Actor::Cli,
            )?;
            report(&out, outcome, |_| format!("linked {message} to {deal}"))
        }
        DealsCmd::Unlink {
            deal,
            message,
            reason,
        } => {
            let outcome = engine.submit(
                Action::UnlinkDeal {
                    deal_id: deal.clone(),
                    message_id: message.clone(),
                    reason,
                },
                Actor::Cli,
            )?;
            report(&out, outcome, |_| format!("unlinked {message} from {deal}"))
        }
        DealsCmd::Stage { deal, stage, note } => {
            let stage: DealStage = stage.parse().map_err(Failure::usage)?;
            let outcome = engine.submit(
                Action::SetDealStage {
                    deal_id: deal.clone(),
                    stage,
                    note,
                },
                Actor::Cli,
            )?;
            report(&out, outcome, |_| format!("{deal} is now at stage {stage}"))
        }
        DealsCmd::Accept { draft, yes } => accept(&out, &engine, draft, yes),
    }
}

fn report(
    out: &super::Printer,
    outcome: Outcome,
    human: impl FnOnce(&crate::domain::Done) -> String,
) -> CmdResult {
    match outcome {
        Outcome::Blocked {
            rule,
            reason,
            remedy,
        } => Err(Failure::refused(format!(
            "blocked by {rule}: {reason}; {remedy}"
        ))),
        Outcome::Done { detail } => {
            out.emit(&detail, |l| l.push(human(&detail)));
            Ok(())
        }
        other => {
            out.emit(&other, |l| l.push(format!("{other:?}")));
            Ok(())
        }
    }
}

/// `deals list`: one line per deal, with its next key date.
fn list(out: &Printer, engine: &Engine, all: bool, profile: Option<String>) -> CmdResult {
    let Answer::Deals(a) = engine.read(Query::DealsList { profile, all }, Actor::Cli)? else {
        return Err(Failure::failed("the engine answered with something else"));
    };
    out.emit(&a, |l| {
        if a.deals.is_empty() {
            l.push(if all {
                "(no deals)".into()
            } else {
                "(no open deals; --all shows closed ones)".into()
            });
        }
        for d in &a.deals {
            let next = d
                .next_date
                .as_ref()
                .map(|k| format!("{} {}", k.label, k.date))
                .unwrap_or_default();
            l.push(format!(
                "{}  {:<11} {:<8} {:>3} msgs  {:<32} {}",
                d.id,
                d.stage.as_str(),
                d.profile,
                d.linked_messages,
                d.name,
                next
            ));
        }
    });
    Ok(())
}

/// `deals show`: the deal, its linked messages and its timeline.
fn show(out: &Printer, engine: &Engine, id: String, limit: usize) -> CmdResult {
    let Answer::Deal(detail) = engine.read(Query::DealDetail { id: id.clone() }, Actor::Cli)?
    else {
        return Err(Failure::failed("the engine answered with something else"));
    };
    let Answer::DealTimeline(tl) = engine.read(Query::DealTimeline { id, limit }, Actor::Cli)?
    else {
        return Err(Failure::failed("the engine answered with something else"));
    };
    let both =
        serde_json::json!({"deal": detail.deal, "messages": detail.messages, "timeline": tl});
    out.emit(&both, |l| {
        let d = &detail.deal;
        l.push(format!(
            "deal {}  [{}]  profile {}",
            d.id, d.stage, d.profile
        ));
        l.push(format!("name:           {}", d.name));
        l.push(format!("counterparties: {}", d.counterparties.join(", ")));
        for k in &d.key_dates {
            l.push(format!("date:           {} {}", k.label, k.date));
        }
        if !d.keywords.is_empty() {
            l.push(format!("keywords:       {}", d.keywords.join(", ")));
        }
        if let Some(p) = &d.proposal {
            l.push(format!("proposal:       {p}"));
        }
        if !d.notes.is_empty() {
            l.push(String::new());
            l.push(safe(&d.notes));
        }
        l.push(String::new());
        l.push(format!("linked messages ({}):", detail.messages.len()));
        for m in &detail.messages {
            l.push(format!(
                "  #{:<6} {:<8} {}: {}  [{}]",
                m.seq,
                m.channel,
                m.from,
                m.subject.as_deref().unwrap_or(&m.preview),
                m.reason
            ));
        }
        l.push(String::new());
        l.push(format!(
            "timeline{}:",
            if tl.truncated {
                " (newest entries)"
            } else {
                ""
            }
        ));
        for e in &tl.entries {
            let when = e.when.map(local_time).unwrap_or_else(|| e.at.clone());
            l.push(format!("  {when}  {:<7} {}", e.source, e.summary));
        }
    });
    Ok(())
}

/// `deals accept`: approve a deal proposal (after a confirmation) and create the deal, once.
fn accept(out: &Printer, engine: &Engine, draft: String, yes: bool) -> CmdResult {
    let d = engine.draft(&draft)?.ok_or_else(|| {
        Failure::usage(format!(
            "no draft with id `{draft}`; `opsdesk drafts list` shows the queue"
        ))
    })?;
    let Outbound::CreateDeal { spec } = &d.outbound else {
        return Err(Failure::usage(format!(
            "draft {draft} is a {}, not a deal proposal; use `opsdesk drafts approve`",
            d.outbound.kind()
        )));
    };
    if d.status == DraftStatus::Pending {
        if !yes {
            super::output::confirm(
                &format!("Create deal \"{}\" in profile {}?", spec.name, d.profile),
                &[
                    format!("counterparties: {}", spec.counterparties.join(", ")),
                    format!("stage: {}", spec.stage),
                    format!("proposed by: {}", d.created_by),
                ],
                "accepting creates the deal: pass --yes to confirm from a script",
            )?;
        }
        let outcome = engine.submit(
            Action::ApproveDraft {
                id: draft.clone(),
                digest: Some(d.digest.clone()),
            },
            Actor::Cli,
        )?;
        if let Outcome::Blocked {
            rule,
            reason,
            remedy,
        } = outcome
        {
            return Err(Failure::refused(format!(
                "blocked by {rule}: {reason}; {remedy}"
            )));
        }
    }
    let approved = engine
        .draft(&draft)?
        .ok_or_else(|| Failure::failed(format!("draft {draft} disappeared from the queue")))?;
    if approved.status == DraftStatus::Executed {
        let id = crate::domain::deal_id_for_proposal(&draft);
        let deal = engine.deal(&id)?;
        out.emit(&deal, |l| {
            l.push(format!("proposal {draft} was already accepted: {id}"))
        });
        return Ok(());
    }
    let deal = engine
        .carry_out_deal_proposal(&approved)
        .map_err(Failure::from)?;
    out.emit(&deal, |l| {
        l.push(format!(
            "accepted {draft}: created {} ({})",
            deal.id, deal.name
        ))
    });
    Ok(())
}
