use crate::cli::output::outln;
use std::time::Duration;

use clap::Subcommand;

use super::output::{local_time, zone_of};
use super::{CmdResult, Context, Failure};

use crate::domain::AuditRecord;
use crate::store::audit::Audit;

#[derive(Debug, Subcommand)]
pub enum AuditCmd {
    /// The most recent records.
    Tail {
        #[arg(short = 'n', long, default_value_t = 20)]
        lines: usize,
        /// Keep printing records as they are appended (Ctrl-C to stop).
        #[arg(short = 'f', long)]
        follow: bool,
    },
    /// Recompute the hash chain; exit 3 and name the first bad record if it is broken.
    Verify,
    /// Records of a time range for a compliance review, with the chain verified over the span
    /// (first/last seq and hash stated; exit 3 if it does not verify).
    Export(super::audit_export::ExportArgs),
    /// Archive old months (compressed into audit/archive/, their hashes recorded in the live
    /// chain) as `[audit] archive_after_months` says, or as --keep-months says.
    Archive {
        /// Months to keep live, the current one included (overrides the config).
        #[arg(long, value_name = "N")]
        keep_months: Option<u32>,
    },
}

pub fn run(ctx: &Context, cmd: AuditCmd) -> CmdResult {
    // Readers need no engine and no lock. The key is loaded, never created: verifying a
    // copied data dir must say the macs cannot be checked, not mint a key that fails them all.
    let key = crate::store::integrity::for_verifier(&ctx.paths)?;
    let audit = Audit::open(&ctx.paths.audit_dir())?.with_key(key.map(std::sync::Arc::new));
    let out = ctx.printer();
    match cmd {
        AuditCmd::Export(args) => super::audit_export::run(ctx, &audit, args),
        AuditCmd::Archive { keep_months } => {
            let engine = ctx.engine()?;
            let keep = keep_months.unwrap_or(engine.config().audit.archive_after_months);
            if keep == 0 {
                return Err(Failure::usage(
                    "nothing to do: set `archive_after_months` in [audit] or pass --keep-months N (N >= 1)",
                ));
            }
            let done =
                engine.archive_audit(keep, crate::domain::now(), crate::domain::Actor::Cli)?;
            out.emit(&done, |l| {
                if done.is_empty() {
                    l.push(format!("nothing to archive: no month older than the {keep} kept"));
                }
                for a in &done {
                    l.push(format!(
                        "archived {} (records {} to {}) into audit/{}; sha256 {} recorded in the chain",
                        a.month,
                        a.first,
                        a.last,
                        a.file(),
                        a.sha256
                    ));
                }
            });
            Ok(())
        }
        AuditCmd::Verify => {
            let mut progress = super::output::Progress::new("audit verify");
            let report = audit.verify_with(&mut |n| progress.tick(n));
            progress.finish();
            let report = report?;
            let crate::engine::cross_check::CrossCheck {
                unaudited,
                recovered,
                drafts_findings,
            } = if report.ok() {
                crate::engine::cross_check::cross_check(&ctx.paths, &audit)?
            } else {
                // A broken chain is the finding; its records cannot be trusted.
                crate::engine::cross_check::CrossCheck::default()
            };
            let unchecked =
                (!report.macs_checked).then(|| crate::store::integrity::missing_reason(&ctx.paths));
            let mut json =
                serde_json::to_value(&report).map_err(|e| Failure::failed(e.to_string()))?;
            if let Some(o) = json.as_object_mut() {
                o.insert("inbox_unaudited".into(), serde_json::json!(unaudited));
                o.insert("inbox_recovered".into(), serde_json::json!(recovered));
                o.insert("macs_unchecked_reason".into(), serde_json::json!(unchecked));
                o.insert("drafts_findings".into(), serde_json::json!(drafts_findings));
            }
            out.emit(&json, |l| {
                match &report.first_bad {
                    None => {
                        l.push(format!(
                            "audit chain intact: {} records in {} file(s)",
                            report.records, report.files
                        ));
                        l.push(keying_line(&report, unchecked.as_deref()));
                        for a in &report.archives {
                            l.push(format!(
                                "archive {} intact: records {} to {}, sha256 as recorded in the chain",
                                a.file(),
                                a.first,
                                a.last
                            ));
                        }
                    }
                    Some(b) if b.line == 0 => l.push(format!(
                        "audit chain BROKEN in {}: {}",
                        b.file.display(),
                        b.reason
                    )),
                    Some(b) => l.push(format!(
                        "audit chain BROKEN at {} line {}{}: {}",
                        b.file.display(),
                        b.line,
                        b.seq.map(|s| format!(" (record {s})")).unwrap_or_default(),
                        b.reason
                    )),
                }
                for f in &drafts_findings {
                    l.push(format!("drafts: {f}"));
                }
                if !recovered.is_empty() {
                    l.push(format!(
                        "note: inbox records stored before a crash, audited at recovery ({}): {}",
                        crate::engine::recovery::RECOVERED_EVENT,
                        ranges(&recovered)
                    ));
                }
                if report.anchor.is_none() && report.records > 0 {
                    l.push(
                        "note: the trail has no anchor (audit/.head); records cut from its end would not be noticed until the next append writes one"
                            .to_string(),
                    );
                }
                if let Some(t) = &report.torn_tail {
                    l.push(format!(
                        "note: {} ends with an interrupted write; the next append removes it",
                        t.display()
                    ));
                }
            });
            if !report.ok() {
                return Err(Failure::integrity("audit chain is broken"));
            }
            if !drafts_findings.is_empty() {
                return Err(Failure::integrity(format!(
                    "the drafts log and the audit trail disagree ({} finding(s) above)",
                    drafts_findings.len()
                )));
            }
            if !unaudited.is_empty() {
                return Err(Failure::integrity(format!(
                    "inbox records with no audit record: {} (stored while the audit trail could not be written, e.g. a full disk)",
                    ranges(&unaudited)
                )));
            }
            Ok(())
        }
        AuditCmd::Tail { lines, follow } => {
            let recs = audit.tail(lines)?;
            // One header, its time column as wide as the zone's name needs.
            let zone = format!(
                "TIME ({})",
                zone_of(
                    recs.first()
                        .map(|r| r.ts)
                        .unwrap_or_else(crate::domain::now)
                )
            );
            let tw = zone.chars().count().max(16);
            if !out.json {
                out.emit(&(), |l| {
                    l.push(format!(
                        "{:>6} {:<tw$} {:<18} {:<7} {:<20} DETAIL",
                        "SEQ", zone, "EVENT", "OUTCOME", "ACTOR"
                    ))
                });
            }
            for r in &recs {
                print_record(&out, r, tw);
            }
            if !follow {
                return Ok(());
            }
            let mut last = recs.last().map(|r| r.seq).unwrap_or(0);
            // Follow by polling the newest month file from where we stopped; cheap and works
            // across month rollover and across processes.
            let mut pos: Option<(std::path::PathBuf, u64)> = None;
            loop {
                let files = audit.files()?;
                if let Some(newest) = files.last() {
                    let offset = match &pos {
                        Some((p, o)) if p == newest => *o,
                        _ => 0,
                    };
                    let (recs, end) = audit.read_file(newest, offset)?;
                    let seen = last;
                    for r in recs.iter().filter(|r| r.seq > seen) {
                        print_record(&out, r, tw);
                        last = r.seq;
                    }
                    pos = Some((newest.clone(), end));
                }
                std::thread::sleep(Duration::from_millis(250));
            }
        }
    }
}

fn print_record(out: &super::Printer, r: &AuditRecord, tw: usize) {
    if out.json {
        match serde_json::to_string(r) {
            Ok(s) => outln!("{s}"),
            Err(e) => eprintln!("opsdesk: {e}"),
        }
        return;
    }
    let e = &r.event;
    out.emit(&(), |l| {
        l.push(format!(
            "{:>6} {:<tw$} {:<18} {:<7} {:<20} {}{}{}",
            r.seq,
            local_time(r.ts),
            field(&e.event),
            e.outcome.as_str(),
            field(&e.actor),
            e.entity
                .as_deref()
                .map(|x| format!("[{}] ", field(x)))
                .unwrap_or_default(),
            field(e.target.as_deref().unwrap_or("")),
            e.reason
                .as_deref()
                .map(|x| format!(" — {}", field(x)))
                .unwrap_or_default(),
        ))
    });
}

/// A record's text field on its record's one line. Targets and reasons can echo what a client
/// or sender sent (an id in an error, say); kept multi-line they could print lines that read
/// as records of their own.
fn field(s: &str) -> String {
    crate::sanitize::one_line(s, usize::MAX)
}

/// Which records are keyed, and whether their macs were checked.
fn keying_line(r: &crate::store::audit::VerifyReport, unchecked: Option<&str>) -> String {
    let legacy = if r.unkeyed_records > 0 {
        format!(
            "; {} record(s) written before keying (not keyed)",
            r.unkeyed_records
        )
    } else {
        String::new()
    };
    match unchecked {
        None => format!(
            "keyed: {} record(s) with a valid mac{legacy}",
            r.keyed_records
        ),
        Some(why) => format!(
            "macs NOT checked: {why}; {} record(s) carry a mac{legacy}. Only the hash chain was checked, which anyone who can write the data dir can recompute",
            r.keyed_records
        ),
    }
}

/// `#2, #5 to #9`.
fn ranges(seqs: &[u64]) -> String {
    let mut parts = Vec::new();
    let mut i = 0;
    while i < seqs.len() {
        let mut j = i;
        while j + 1 < seqs.len() && seqs[j + 1] == seqs[j] + 1 {
            j += 1;
        }
        parts.push(if i == j {
            format!("#{}", seqs[i])
        } else {
            format!("#{} to #{}", seqs[i], seqs[j])
        });
        i = j + 1;
    }
    parts.join(", ")
}
