//! `opsdesk triage …`, `opsdesk deadlines …` and `opsdesk drafts generate`: the assistant's jobs
//! from the command line. Batches print their progress on stderr (`triage 3/10`); Ctrl-C
//! cancels a batch (what finished stays recorded). Lists are audited reads (`Engine::read`).

use std::sync::Arc;

use clap::{Args, Subcommand};
use serde_json::json;
use tokio_util::sync::CancellationToken;

use super::{CmdResult, Context, Failure};
use crate::assistant::triage::{Category, DecidedBy, Urgency};
use crate::domain::{Actor, Outcome, Query};
use crate::engine::jobs::{JobProgress, JobState};
use crate::engine::query::Answer;
use crate::engine::{Engine, item_json};

#[derive(Debug, Subcommand)]
pub enum TriageCmd {
    /// Triage items: the given seqs, else every item not triaged yet (backfill), oldest first.
    #[command(alias = "backfill")]
    Run(BatchArgs),
    /// Triaged items, newest first.
    List(ListArgs),
    /// Set an item's triage yourself; it wins over rules and model from then on.
    Set {
        #[arg(value_parser = super::seq_arg)]
        seq: u64,
        /// needs_reply, decision, meeting, deadline, fyi or bulk.
        category: String,
        /// high, normal or low.
        #[arg(long, default_value = "normal")]
        urgency: String,
        /// Why (one line).
        #[arg(long)]
        reason: Option<String>,
    },
    /// Give an item whose profile was unclear (the `unassigned` bucket, or a
    /// [classification] rule's guess) its profile; `triage list --profile unassigned` lists them.
    Assign {
        #[arg(value_parser = super::seq_arg)]
        seq: u64,
        /// A configured profile.
        profile: String,
    },
}

#[derive(Debug, Subcommand)]
pub enum DeadlinesCmd {
    /// Extract deadlines from the given seqs, else from the newest items (see --limit).
    Extract(BatchArgs),
    /// Stored deadlines, soonest first.
    List {
        #[arg(long)]
        profile: Option<String>,
        #[arg(long, default_value_t = 50)]
        limit: usize,
    },
}

#[derive(Debug, Args)]
pub struct BatchArgs {
    /// Inbox seqs (repeat or comma-separate).
    #[arg(long, value_delimiter = ',', value_parser = super::seq_arg)]
    pub seq: Vec<u64>,
    /// Only items of this profile.
    #[arg(long)]
    pub profile: Option<String>,
    /// At most this many items.
    #[arg(long, default_value_t = 200)]
    pub limit: usize,
    /// Rules only: no model is asked.
    #[arg(long)]
    pub no_model: bool,
}

#[derive(Debug, Args)]
pub struct ListArgs {
    #[arg(long)]
    pub profile: Option<String>,
    #[arg(long)]
    pub category: Option<String>,
    #[arg(long)]
    pub urgency: Option<String>,
    #[arg(long, default_value_t = 50)]
    pub limit: usize,
}

/// `opsdesk drafts generate`.
#[derive(Debug, Args)]
pub struct GenerateArgs {
    /// Inbox seqs to reply to (repeat or comma-separate).
    #[arg(long, value_delimiter = ',', value_parser = super::seq_arg)]
    pub seq: Vec<u64>,
    /// Reply to the triaged items of this category instead (e.g. needs_reply).
    #[arg(long)]
    pub category: Option<String>,
    #[arg(long, default_value_t = 20)]
    pub limit: usize,
}

pub(super) fn runtime() -> Result<tokio::runtime::Runtime, Failure> {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .map_err(|e| Failure::failed(format!("cannot start the runtime: {e}")))
}

/// Progress on stderr, one line per step (never on stdout: `--json` stays one document).
pub(super) fn progress_printer(p: &JobProgress) {
    if p.total > 0 && (p.state != JobState::Running || p.done > 0) {
        eprintln!("opsdesk: {}", p.line());
    }
}

/// A token that Ctrl-C cancels, for the life of the batch.
pub(super) fn ctrl_c_token(rt: &tokio::runtime::Runtime) -> CancellationToken {
    let token = CancellationToken::new();
    let t = token.clone();
    rt.spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            eprintln!("opsdesk: cancelling (finished items stay recorded)");
            t.cancel();
        }
    });
    token
}

fn engine(ctx: &Context) -> Result<Arc<Engine>, Failure> {
    Ok(Arc::new(ctx.engine()?))
}

/// Newest `limit` seqs of `profile` (all profiles when none), oldest first.
fn newest(engine: &Engine, profile: Option<&str>, limit: usize) -> Result<Vec<u64>, Failure> {
    let filter = crate::store::inbox::Filter {
        profile: profile.map(str::to_string),
        ..Default::default()
    };
    let b = engine.unaudited_inbox_page_before(None, limit.max(1), &filter)?;
    let mut seqs: Vec<u64> = b.records.iter().map(|r| r.seq).collect();
    seqs.sort_unstable();
    Ok(seqs)
}

pub(super) fn batch_exit(failed: usize, cancelled: bool) -> CmdResult {
    if cancelled {
        Err(Failure::failed("cancelled; finished items are recorded"))
    } else if failed > 0 {
        Err(Failure::failed(format!(
            "{failed} item(s) failed; see above"
        )))
    } else {
        Ok(())
    }
}

pub fn run_triage(ctx: &Context, cmd: TriageCmd) -> CmdResult {
    let out = ctx.printer();
    let engine = engine(ctx)?;
    match cmd {
        TriageCmd::Run(a) => {
            let seqs = if a.seq.is_empty() {
                engine.untriaged(a.profile.as_deref(), a.limit)?
            } else {
                a.seq.clone()
            };
            let rt = runtime()?;
            let token = ctrl_c_token(&rt);
            let report = rt.block_on(engine.triage_batch(
                seqs,
                Actor::Cli,
                !a.no_model,
                Some(token),
                &progress_printer,
            ));
            let items: Vec<_> = report.items.iter().map(|(s, r)| item_json(*s, r)).collect();
            out.emit(&json!({"progress": report.progress, "items": items}), |l| {
                for (seq, r) in &report.items {
                    l.push(match r {
                        Ok(t) => format!(
                            "{seq:>6}  {:<11} {:<6} {:<8} {}{}",
                            t.category.as_str(),
                            t.urgency.as_str(),
                            format!("{:?}", t.by).to_lowercase(),
                            t.reason,
                            t.model_error
                                .as_deref()
                                .map(|e| format!("  [model not used: {e}]"))
                                .unwrap_or_default()
                        ),
                        Err(e) => format!("{seq:>6}  failed: {e}"),
                    });
                }
                if report.items.is_empty() {
                    l.push("(nothing to triage)".into());
                }
            });
            batch_exit(
                report.progress.failed,
                report.progress.state == JobState::Cancelled,
            )
        }
        TriageCmd::List(a) => {
            let q = Query::TriageList {
                profile: a.profile,
                category: a.category,
                urgency: a.urgency,
                limit: a.limit,
            };
            match engine.read(q, Actor::Cli)? {
                Answer::Triage(t) => {
                    out.emit(&t, |l| {
                        if t.items.is_empty() && t.waiting.is_empty() {
                            l.push("(no triaged items)".into());
                        }
                        if !t.items.is_empty() {
                            l.push(format!(
                                "{:>6}  {:<11} {:<6} {:<8} {:<24} SUBJECT",
                                "SEQ", "CATEGORY", "URGENCY", "BY", "FROM"
                            ));
                        }
                        for i in &t.items {
                            l.push(format!(
                                "{:>6}  {:<11} {:<6} {:<8} {:<24} {}",
                                i.triage.seq,
                                i.triage.category.as_str(),
                                i.triage.urgency.as_str(),
                                format!("{:?}", i.triage.by).to_lowercase(),
                                i.from,
                                i.subject.as_deref().unwrap_or("")
                            ));
                        }
                        if !t.waiting.is_empty() {
                            l.push(format!(
                                "{:>6}  {:<11} {:<24} SUBJECT  (RULE)",
                                "SEQ", "PROFILE", "FROM"
                            ));
                        }
                        for w in &t.waiting {
                            l.push(format!(
                                "{:>6}  {:<11} {:<24} {}  ({})",
                                w.seq,
                                crate::domain::UNASSIGNED,
                                w.from,
                                w.subject.as_deref().unwrap_or(""),
                                w.rule.as_deref().unwrap_or("no rule")
                            ));
                        }
                        if !t.waiting.is_empty() {
                            l.push(format!(
                                "({} item(s) wait for a profile: `opsdesk triage assign SEQ PROFILE`)",
                                t.waiting.len()
                            ));
                        }
                        if t.untriaged > 0 {
                            l.push(format!(
                                "({} item(s) not triaged yet: `opsdesk triage run`)",
                                t.untriaged
                            ));
                        }
                    });
                    Ok(())
                }
                other => Err(Failure::failed(format!(
                    "unexpected {} answer to a triage list",
                    other.kind()
                ))),
            }
        }
        TriageCmd::Set {
            seq,
            category,
            urgency,
            reason,
        } => {
            let category: Category = category.parse().map_err(Failure::usage)?;
            let urgency: Urgency = urgency.parse().map_err(Failure::usage)?;
            let t = engine.set_triage(seq, category, urgency, reason, &Actor::Cli)?;
            out.emit(&t, |l| {
                l.push(format!(
                    "seq {seq}: {} {} (set by you)",
                    t.category.as_str(),
                    t.urgency.as_str()
                ))
            });
            Ok(())
        }
        TriageCmd::Assign { seq, profile } => {
            let a = engine.assign_profile(seq, &profile, &Actor::Cli)?;
            out.emit(&a, |l| {
                l.push(format!(
                    "seq {seq}: profile `{}` (was `{}`), assigned by you",
                    a.profile, a.from
                ))
            });
            Ok(())
        }
    }
}

/// What a deadline line adds after its quote: the stated time, who found it, and a
/// disagreement between rules and model (shown, never resolved here).
fn notes(f: &crate::assistant::deadlines::Found) -> String {
    let mut s = String::new();
    if let Some(t) = &f.time {
        s.push_str(&format!("  at {t}"));
    }
    match (f.by, f.model_agrees) {
        (DecidedBy::Rule, true) => s.push_str("  [rules + model]"),
        (DecidedBy::Rule, false) => s.push_str("  [rules]"),
        (DecidedBy::Model, _) => s.push_str("  [model]"),
        (DecidedBy::Operator, _) => s.push_str("  [operator]"),
    }
    if let Some(d) = &f.disagreement {
        s.push_str(&format!("  [disagreement: {}]", d.note));
    }
    s
}

pub fn run_deadlines(ctx: &Context, cmd: DeadlinesCmd) -> CmdResult {
    let out = ctx.printer();
    let engine = engine(ctx)?;
    match cmd {
        DeadlinesCmd::Extract(a) => {
            let seqs = if a.seq.is_empty() {
                newest(&engine, a.profile.as_deref(), a.limit)?
            } else {
                a.seq.clone()
            };
            let rt = runtime()?;
            let token = ctrl_c_token(&rt);
            let report = rt.block_on(engine.deadlines_batch(
                seqs,
                Actor::Cli,
                !a.no_model,
                Some(token),
                &progress_printer,
            ));
            let items: Vec<_> = report.items.iter().map(|(s, r)| item_json(*s, r)).collect();
            out.emit(&json!({"progress": report.progress, "items": items}), |l| {
                for (seq, r) in &report.items {
                    match r {
                        Ok(d) => {
                            if let Some(e) = &d.model_error {
                                l.push(format!("{seq:>6}  [model not used: {e}]"));
                            }
                            for x in &d.deadlines {
                                l.push(format!(
                                    "{seq:>6}  {:<10} {}  \"{}\"{}",
                                    x.found.due.as_deref().unwrap_or("(undated)"),
                                    x.found.what,
                                    x.found.quote,
                                    notes(&x.found)
                                ));
                            }
                        }
                        Err(e) => l.push(format!("{seq:>6}  failed: {e}")),
                    }
                }
            });
            batch_exit(
                report.progress.failed,
                report.progress.state == JobState::Cancelled,
            )
        }
        DeadlinesCmd::List { profile, limit } => {
            match engine.read(Query::DeadlinesList { profile, limit }, Actor::Cli)? {
                Answer::Deadlines(d) => {
                    out.emit(&d, |l| {
                        if d.deadlines.is_empty() {
                            l.push("(no deadlines stored: `opsdesk deadlines extract`)".into());
                        }
                        for x in &d.deadlines {
                            l.push(format!(
                                "{:<10} seq {:<6} {:<8} {}  \"{}\"{}",
                                x.found.due.as_deref().unwrap_or("(undated)"),
                                x.seq,
                                x.profile,
                                x.found.what,
                                x.found.quote,
                                notes(&x.found)
                            ));
                        }
                    });
                    Ok(())
                }
                other => Err(Failure::failed(format!(
                    "unexpected {} answer to a deadlines list",
                    other.kind()
                ))),
            }
        }
    }
}

pub fn run_generate(ctx: &Context, a: GenerateArgs) -> CmdResult {
    let out = ctx.printer();
    let engine = engine(ctx)?;
    let seqs = match (&a.seq[..], &a.category) {
        ([], None) => {
            return Err(Failure::usage(
                "name the items to reply to: --seq N (repeatable) or --category needs_reply",
            ));
        }
        ([], Some(c)) => {
            let c: Category = c.parse().map_err(Failure::usage)?;
            let mut s: Vec<u64> = engine
                .triage_all()?
                .into_values()
                .filter(|t| t.category == c)
                .map(|t| t.seq)
                .collect();
            s.sort_unstable_by(|a, b| b.cmp(a));
            s.truncate(a.limit);
            s
        }
        (s, _) => s.to_vec(),
    };
    let rt = runtime()?;
    let token = ctrl_c_token(&rt);
    let report = rt.block_on(engine.draft_batch(seqs, Actor::Cli, Some(token), &progress_printer));
    let items: Vec<_> = report.items.iter().map(|(s, r)| item_json(*s, r)).collect();
    out.emit(&json!({"progress": report.progress, "items": items}), |l| {
        for (seq, r) in &report.items {
            l.push(match r {
                Ok(Outcome::Queued { draft_id, .. }) => {
                    format!("{seq:>6}  draft {draft_id} waits for your approval (`opsdesk drafts show {draft_id}`)")
                }
                Ok(Outcome::Blocked { rule, reason, .. }) => {
                    format!("{seq:>6}  blocked by {rule}: {reason}")
                }
                Ok(Outcome::Done { .. }) => format!("{seq:>6}  done"),
                Err(e) => format!("{seq:>6}  failed: {e}"),
            });
        }
    });
    let blocked = report
        .items
        .iter()
        .filter(|(_, r)| matches!(r, Ok(Outcome::Blocked { .. })))
        .count();
    batch_exit(
        report.progress.failed + blocked,
        report.progress.state == JobState::Cancelled,
    )
}
