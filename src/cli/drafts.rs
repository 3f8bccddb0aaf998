use clap::Subcommand;

use super::output::{local_time, safe, zone_of};
use super::{CmdResult, Context, Failure};
use crate::domain::{Action, Actor, Draft, DraftStatus, Outbound, Outcome};

#[derive(Debug, Subcommand)]
pub enum DraftsCmd {
    /// Have the LLM router write replies to inbox items; each becomes a pending draft by
    /// `assistant:draft` (never approved: you approve).
    Generate(super::assistant::GenerateArgs),
    /// Drafts awaiting a decision (or all, with --all).
    List {
        /// Decided drafts too (approved, sent, failed, rejected).
        #[arg(long)]
        all: bool,
    },
    /// One draft in full, with its life (decided, sent or failed).
    Show {
        /// The draft id (`d-…`).
        id: String,
    },
    /// Approve a draft for sending, bound to its current content; several ids approve them
    /// as a batch (only kinds `[drafts] batch_kinds` allows: not outbound mail to outsiders,
    /// by default), each bound to its own digest and audited on its own.
    Approve {
        /// The draft id (`d-…`); give several for a batch.
        #[arg(required = true, num_args = 1.., value_name = "ID")]
        ids: Vec<String>,
        /// The digest you reviewed (from `drafts show`); approval fails if the content changed.
        /// Only with a single id.
        #[arg(long)]
        digest: Option<String>,
        /// Do not ask for confirmation (required when standard input is not a terminal).
        #[arg(long, short = 'y')]
        yes: bool,
    },
    /// Reject a draft, with a reason.
    Reject {
        /// The draft id (`d-…`).
        id: String,
        /// Why (kept with the draft and in the audit trail).
        #[arg(long)]
        reason: String,
    },
    /// Put an expired draft back in the queue: a new pending draft with the same content
    /// (judged again by today's rules) and a fresh time to live.
    Requeue {
        /// The expired draft's id (`d-…`).
        id: String,
        /// The digest you reviewed (from `drafts show`); refused if it is not the draft's.
        #[arg(long)]
        digest: Option<String>,
    },
    /// Queue a new email draft (it still needs approval).
    New {
        /// The profile (entity) it is sent from.
        #[arg(long)]
        profile: String,
        /// A recipient (repeat for several).
        #[arg(long, required = true)]
        to: Vec<String>,
        /// Subject line.
        #[arg(long)]
        subject: String,
        /// Body text.
        #[arg(long)]
        body: String,
    },
}

pub fn run(ctx: &Context, cmd: DraftsCmd) -> CmdResult {
    let out = ctx.printer();
    let engine = ctx.engine()?;
    match cmd {
        DraftsCmd::Generate(a) => super::assistant::run_generate(ctx, a),
        DraftsCmd::List { all } => {
            // Drafts past their time to live are shown as what they are.
            engine.expire_drafts(crate::domain::now())?;
            let q = engine.draft_queue()?;
            let drafts: Vec<&Draft> = q
                .drafts
                .iter()
                .filter(|d| all || !d.status.is_final())
                .collect();
            let idw = drafts.iter().map(|d| d.id.len()).max().unwrap_or(0);
            out.emit(&drafts, |l| {
                if drafts.is_empty() {
                    l.push("(no drafts)".into());
                } else {
                    l.push(format!(
                        "{:<idw$}  {:<9} {:<8} {:<12} {:<32} SUBJECT",
                        "ID", "STATUS", "PROFILE", "KIND", "RECIPIENTS"
                    ));
                }
                for d in &drafts {
                    l.push(format!(
                        "{:<idw$}  {:<9} {:<8} {:<12} {:<32} {}",
                        d.id,
                        d.status.as_str(),
                        d.profile,
                        d.outbound.kind(),
                        d.outbound.recipients().join(", "),
                        d.outbound.subject().unwrap_or("")
                    ));
                }
            });
            for s in &q.skipped {
                eprintln!("opsdesk: {}", safe(s));
            }
            Ok(())
        }
        DraftsCmd::Show { id } => {
            let d = engine.draft(&id)?.ok_or_else(|| no_draft(&id))?;
            let life = engine.draft_history(&id)?;
            out.emit(&d, |l| {
                describe(&d, l);
                l.push(String::new());
                l.push(format!("life ({}):", zone_of(d.created_at)));
                let tz = crate::watch::format::local_offset(d.updated_at);
                l.extend(crate::tui::app::draft_life(&life, tz));
            });
            Ok(())
        }
        DraftsCmd::Approve { ids, digest, yes } if ids.len() > 1 => {
            if digest.is_some() {
                return Err(Failure::usage(
                    "--digest names one draft's content; approve a batch without it (each draft is bound to the digest shown in the confirmation)",
                ));
            }
            approve_batch(ctx, &engine, &out, &ids, yes)
        }
        DraftsCmd::Approve { ids, digest, yes } => {
            let id = ids.into_iter().next().unwrap_or_default();
            let d = engine.draft(&id)?.ok_or_else(|| no_draft(&id))?;
            if d.status != DraftStatus::Pending {
                return Err(Failure::refused(format!(
                    "draft {id} is {}, not pending",
                    d.status.as_str()
                )));
            }
            if !yes {
                confirm(&d)?;
            }
            let digest = digest.or(Some(d.digest.clone()));
            let outcome = engine.submit(
                Action::ApproveDraft {
                    id: id.clone(),
                    digest,
                },
                Actor::Cli,
            )?;
            let note = when_sent(ctx, &d);
            report(&out, &format!("{id}; {note}"), "approved", outcome)
        }
        DraftsCmd::Reject { id, reason } => {
            let outcome = engine.submit(
                Action::RejectDraft {
                    id: id.clone(),
                    reason,
                },
                Actor::Cli,
            )?;
            report(&out, &id, "rejected", outcome)
        }
        DraftsCmd::Requeue { id, digest } => {
            let outcome = engine.submit(
                Action::RequeueDraft {
                    id: id.clone(),
                    digest,
                },
                Actor::Cli,
            )?;
            match &outcome {
                Outcome::Queued { draft_id, .. } => {
                    out.emit(&outcome, |l| {
                        l.push(format!(
                            "re-queued {id} as {draft_id}; approve with `opsdesk drafts approve {draft_id}`"
                        ))
                    });
                    Ok(())
                }
                _ => report(&out, &id, "re-queued", outcome),
            }
        }
        DraftsCmd::New {
            profile,
            to,
            subject,
            body,
        } => {
            let outbound = Outbound::SendEmail {
                to,
                cc: vec![],
                subject,
                body,
                attachments: Vec::new(),
                body_html: None,
            };
            let outcome = engine.submit(
                Action::CreateDraft {
                    profile,
                    outbound,
                    provider: None,
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
                _ => report(&out, "", "queued", outcome),
            }
        }
    }
}

/// Approve several drafts in one step: every one is shown (recipients, subject) and confirmed
/// once; the engine refuses the whole batch if any kind may not be batched (exit 4), and
/// otherwise decides each on its own digest.
fn approve_batch(
    ctx: &Context,
    engine: &crate::engine::Engine,
    out: &super::Printer,
    ids: &[String],
    yes: bool,
) -> CmdResult {
    let mut drafts = Vec::new();
    for id in ids {
        drafts.push(engine.draft(id)?.ok_or_else(|| no_draft(id))?);
    }
    if !yes {
        let mut lines = Vec::new();
        for d in &drafts {
            lines.push(batch_line(d));
        }
        lines.push(String::new());
        super::output::confirm(
            &format!(
                "Approve these {} drafts, each for sending as shown?",
                drafts.len()
            ),
            &lines,
            "approving sends on the operator's behalf: pass --yes to confirm from a script",
        )?;
    }
    let items = drafts
        .iter()
        .map(|d| crate::domain::BatchItem {
            id: d.id.clone(),
            digest: d.digest.clone(),
        })
        .collect();
    let outcome = engine.submit(
        Action::DecideDrafts {
            decision: crate::domain::BatchDecision::Approve,
            items,
        },
        Actor::Cli,
    )?;
    let Outcome::Done {
        detail: crate::domain::Done::Batch { results, .. },
    } = &outcome
    else {
        return report(out, "", "approved", outcome);
    };
    let failed: Vec<String> = results
        .iter()
        .filter(|r| !r.is_done())
        .map(|r| format!("{}: {}", r.id, r.why()))
        .collect();
    out.emit(&outcome, |l| {
        for r in results {
            let note = match drafts.iter().find(|d| d.id == r.id) {
                Some(d) if r.is_done() => format!("; {}", when_sent(ctx, d)),
                _ => String::new(),
            };
            l.push(format!(
                "{} {}{note}",
                if r.is_done() {
                    "approved"
                } else {
                    "NOT approved"
                },
                r.id
            ));
        }
    });
    if failed.is_empty() {
        Ok(())
    } else {
        Err(Failure::failed(format!(
            "not every draft was approved: {}",
            failed.join("; ")
        )))
    }
}

/// One draft of a batch as the confirmation lists it: id, kind, recipients, subject.
pub fn batch_line(d: &Draft) -> String {
    let mut l = format!(
        "{}  {:<12} to {}",
        d.id,
        d.outbound.kind(),
        d.outbound.recipients().join(", ")
    );
    if let Some(s) = d.outbound.subject() {
        l.push_str(&format!("  · {s}"));
    }
    safe(&l)
}

fn no_draft(id: &str) -> Failure {
    Failure::usage(format!(
        "no draft with id `{id}`; `opsdesk drafts list --all` shows them"
    ))
}

fn describe(d: &Draft, l: &mut Vec<String>) {
    l.push(format!(
        "draft {}  [{}]  profile {}",
        d.id,
        d.status.as_str(),
        d.profile
    ));
    l.push(format!("kind:       {}", d.outbound.kind()));
    if d.outbound.body_html().is_some() {
        l.push(format!("format:     {}", crate::html_mail::REVIEW_NOTE));
    }
    l.push(format!(
        "recipients: {}",
        d.outbound.recipients().join(", ")
    ));
    if let Some(s) = d.outbound.subject() {
        l.push(format!("subject:    {s}"));
    }
    l.push(format!(
        "created:    {} {} by {}",
        local_time(d.created_at),
        zone_of(d.created_at),
        d.created_by
    ));
    l.push(format!(
        "verdict:    {} (when created)",
        verdict_words(&d.verdict)
    ));
    if let Some(p) = &d.provider {
        l.push(format!("written by: {p}"));
    }
    for a in d.outbound.attachments() {
        l.push(format!("attached:   {}", safe(&a.summary())));
    }
    l.push(format!("digest:     {}", d.digest));
    if let Some(r) = &d.reason {
        l.push(format!("reason:     {r}"));
    }
    if let Some(from) = &d.requeued_from {
        l.push(format!("re-queued from: {from}"));
    }
    if let Some(to) = &d.requeued_as {
        l.push(format!("re-queued as: {to}"));
    }
    l.push(String::new());
    l.push(safe(d.outbound.body()));
}

/// The governance verdict as the console words it: `queue — reason`.
fn verdict_words(v: &crate::domain::Verdict) -> String {
    use crate::domain::Verdict;
    match v {
        Verdict::Run => "run".to_string(),
        Verdict::Queue { reason } => format!("queue — {reason}"),
        Verdict::Block { rule, reason, .. } => format!("block — {rule}: {reason}"),
    }
}

/// After an approval: when it will actually go out. Only a running engine's executor sends,
/// and only for a profile with somewhere to send from (a Graph account, or the demo outbox).
fn when_sent(ctx: &Context, d: &Draft) -> String {
    use crate::config::SourceKind;
    if matches!(d.outbound, Outbound::CreateDeal { .. }) {
        return match crate::engine::EngineLock::holder(&ctx.paths.engine_lock()) {
            Some(pid) => format!("the running engine (pid {pid}) carries it out shortly"),
            None => "it is carried out when the engine runs (`opsdesk serve` or the console)"
                .to_string(),
        };
    }
    let can_send = ctx.config().ok().is_some_and(|c| {
        c.profiles
            .get(&d.profile)
            .is_some_and(|p| p.graph.is_some() || p.sources.contains(&SourceKind::Demo))
    });
    if !can_send {
        return format!(
            "nothing will send it: profile `{}` has no account to send from (a [profiles.{}.graph] Microsoft Graph account, then `opsdesk login {}`)",
            d.profile, d.profile, d.profile
        );
    }
    match crate::engine::EngineLock::holder(&ctx.paths.engine_lock()) {
        Some(pid) => format!("the running engine (pid {pid}) sends it shortly"),
        None => "no engine is running: it is sent when one starts (`opsdesk serve` or the console)"
            .to_string(),
    }
}

/// Approving something that sends asks first; a script must say --yes.
fn confirm(d: &Draft) -> Result<(), Failure> {
    let mut lines = Vec::new();
    describe(d, &mut lines);
    lines.push(String::new());
    super::output::confirm(
        &format!("Approve this {} for sending?", d.outbound.kind()),
        &lines,
        "approving sends on the operator's behalf: pass --yes to confirm from a script",
    )
}

fn report(out: &super::Printer, id: &str, verb: &str, outcome: Outcome) -> CmdResult {
    match outcome {
        Outcome::Blocked {
            rule,
            reason,
            remedy,
        } => Err(Failure::refused(format!(
            "blocked by {rule}: {reason}; {remedy}"
        ))),
        other => {
            out.emit(&other, |l| l.push(format!("{verb} {id}")));
            Ok(())
        }
    }
}
