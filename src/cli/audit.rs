use std::time::Duration;

use clap::Subcommand;

use super::output::time_short;
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
}

pub fn run(ctx: &Context, cmd: AuditCmd) -> CmdResult {
    // Readers need no engine and no lock.
    let audit = Audit::open(&ctx.paths.audit_dir())?;
    let out = ctx.printer();
    match cmd {
        AuditCmd::Verify => {
            let report = audit.verify()?;
            let unaudited = if report.ok() {
                unaudited_inbox_records(ctx, &audit)?
            } else {
                Vec::new() // a broken chain is the finding; its records cannot be trusted
            };
            let mut json = serde_json::to_value(&report).map_err(|e| Failure {
                code: 1,
                message: e.to_string(),
            })?;
            if let Some(o) = json.as_object_mut() {
                o.insert("inbox_unaudited".into(), serde_json::json!(unaudited));
            }
            out.emit(&json, |l| {
                match &report.first_bad {
                    None => l.push(format!(
                        "audit chain intact: {} records in {} file(s)",
                        report.records, report.files
                    )),
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
                return Err(Failure {
                    code: 3,
                    message: "audit chain is broken".into(),
                });
            }
            if !unaudited.is_empty() {
                return Err(Failure {
                    code: 3,
                    message: format!(
                        "inbox records with no audit record: {} (stored while the audit trail could not be written, e.g. a full disk)",
                        ranges(&unaudited)
                    ),
                });
            }
            Ok(())
        }
        AuditCmd::Tail { lines, follow } => {
            let recs = audit.tail(lines)?;
            for r in &recs {
                print_record(&out, r);
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
                        print_record(&out, r);
                        last = r.seq;
                    }
                    pos = Some((newest.clone(), end));
                }
                std::thread::sleep(Duration::from_millis(250));
            }
        }
    }
}

fn print_record(out: &super::Printer, r: &AuditRecord) {
    if out.json {
        match serde_json::to_string(r) {
            Ok(s) => println!("{s}"),
            Err(e) => eprintln!("opsdesk: {e}"),
        }
        return;
    }
    let e = &r.event;
    out.emit(&(), |l| {
        l.push(format!(
            "{:>6} {} {:<18} {:<7} {:<20} {}{}{}",
            r.seq,
            time_short(r.ts),
            e.event,
            e.outcome.as_str(),
            e.actor,
            e.entity
                .as_deref()
                .map(|x| format!("[{x}] "))
                .unwrap_or_default(),
            e.target.as_deref().unwrap_or(""),
            e.reason
                .as_deref()
                .map(|x| format!(" — {x}"))
                .unwrap_or_default(),
        ))
    });
}

/// Inbox seqs with no `inbox.append` audit record: every stored record is audited as it is
/// appended, so a gap means the trail could not be written at the time (a full disk) or that
/// records were removed from the trail.
fn unaudited_inbox_records(ctx: &Context, audit: &Audit) -> Result<Vec<u64>, Failure> {
    let inbox = crate::store::inbox::Inbox::open(&ctx.paths.inbox_dir())?;
    let last = inbox.last_seq()?;
    if last == 0 {
        return Ok(Vec::new());
    }
    let mut seen = vec![false; last as usize];
    for file in audit.files()? {
        for r in audit.read_file(&file, 0)?.0 {
            if r.event.event != "inbox.append" {
                continue;
            }
            if let Some(seq) = r
                .event
                .target
                .as_deref()
                .and_then(|t| t.rsplit_once('#'))
                .and_then(|(_, n)| n.parse::<u64>().ok())
                && (1..=last).contains(&seq)
            {
                seen[(seq - 1) as usize] = true;
            }
        }
    }
    Ok((1..=last).filter(|s| !seen[(*s - 1) as usize]).collect())
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
