//! `opsdesk audit export`: flags, the output file and the summary. The span walk and its
//! verification live in `store::audit_export`.

use std::io::Write;
use std::path::{Path, PathBuf};

use super::{CmdResult, Context, Failure};
use crate::domain::{Actor, AuditEvent, AuditOutcome};
use crate::store::audit::Audit;
use crate::store::audit_export::{
    ExportFilter, ExportFormat, ExportSummary, export_with, parse_bound,
};

#[derive(Debug, clap::Args)]
pub struct ExportArgs {
    /// First day (YYYY-MM-DD, UTC) or RFC 3339 time, inclusive.
    #[arg(long, value_name = "DATE")]
    from: String,
    /// Last day (YYYY-MM-DD, UTC, the whole day) or RFC 3339 time, inclusive.
    #[arg(long, value_name = "DATE")]
    to: String,
    #[arg(long, value_enum, default_value = "jsonl")]
    format: FormatArg,
    /// Write here (0600, replaced atomically) with the summary beside it in FILE.manifest.json.
    /// Default: records on stdout, summary on stderr.
    #[arg(long, value_name = "FILE")]
    out: Option<std::path::PathBuf>,
    /// Only this actor (`mcp:claude-code`), or a kind of actor with a trailing colon (`mcp:`).
    #[arg(long)]
    actor: Option<String>,
    /// Only records of this profile (entity).
    #[arg(long)]
    profile: Option<String>,
    /// Only this event (`draft.approved`), or a family with a trailing dot (`draft.`).
    #[arg(long)]
    event: Option<String>,
    #[arg(long, value_enum)]
    outcome: Option<OutcomeArg>,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum FormatArg {
    Jsonl,
    Csv,
}

#[derive(Debug, Clone, Copy, clap::ValueEnum)]
enum OutcomeArg {
    Ok,
    Denied,
    Blocked,
    Error,
}

pub fn run(ctx: &Context, audit: &Audit, args: ExportArgs) -> CmdResult {
    let from =
        parse_bound(&args.from, false).map_err(|e| Failure::usage(format!("--from: {e}")))?;
    let until = parse_bound(&args.to, true).map_err(|e| Failure::usage(format!("--to: {e}")))?;
    if until <= from {
        return Err(Failure::usage(format!(
            "--to {} is before --from {}: nothing could be exported",
            args.to, args.from
        )));
    }
    let mut filter = ExportFilter::new(from, until);
    filter.actor = args.actor;
    filter.profile = args.profile;
    filter.event = args.event;
    filter.outcome = args.outcome.map(|o| match o {
        OutcomeArg::Ok => AuditOutcome::Ok,
        OutcomeArg::Denied => AuditOutcome::Denied,
        OutcomeArg::Blocked => AuditOutcome::Blocked,
        OutcomeArg::Error => AuditOutcome::Error,
    });
    let format = match args.format {
        FormatArg::Jsonl => ExportFormat::Jsonl,
        FormatArg::Csv => ExportFormat::Csv,
    };
    // Who is taking which records out is on the trail before anything is written (an export
    // the trail cannot record does not happen); how it ended is recorded after, so a failed
    // export never stands on the trail as a successful one.
    let what = describe(&filter, format, args.out.as_deref());
    let range = format!("{} .. {}", args.from, args.to);
    // The records of the export go through the engine like every other (its PHI scrub: an
    // output path may name a patient); the export itself only reads the trail.
    let engine = ctx.engine()?;
    engine.audit(
        AuditEvent::new(EVENT_START, Actor::Cli, AuditOutcome::Ok)
            .target(range.clone())
            .reason(what.clone()),
    )?;
    let result = write_export(ctx, audit, &filter, format, args.out.as_deref());
    let (outcome, how) = match &result {
        Ok(done) => {
            let mut how = format!(
                "{} of {} record(s) exported",
                done.summary.exported_records, done.summary.span_records
            );
            if !done.summary.verified() {
                how.push_str("; the span did not verify");
            }
            if done.reader_left {
                how.push_str("; the reader closed stdout before the end");
            }
            (AuditOutcome::Ok, how)
        }
        Err(f) => (AuditOutcome::Error, f.message.clone()),
    };
    engine.audit(
        AuditEvent::new(EVENT, Actor::Cli, outcome)
            .target(range)
            .reason(format!("{what}: {how}")),
    )?;
    if !result?.summary.verified() {
        return Err(Failure::integrity(
            "the exported span does not verify against the audit chain (see above)",
        ));
    }
    Ok(())
}

/// The trail's record of an export about to be written (the gate) and of how it ended.
pub const EVENT_START: &str = "audit.export.start";
pub const EVENT: &str = "audit.export";

struct Written {
    summary: ExportSummary,
    /// Stdout's reader went away early (`| head`): like any command's output, the rest is
    /// dropped and the export still finishes (the span is verified, the summary shown).
    reader_left: bool,
}

fn write_export(
    ctx: &Context,
    audit: &Audit,
    filter: &ExportFilter,
    format: ExportFormat,
    out: Option<&Path>,
) -> Result<Written, Failure> {
    match out {
        Some(path) => {
            let summary = to_file(audit, filter, format, path)?;
            let manifest = manifest_path(path);
            let mut json =
                serde_json::to_vec_pretty(&summary).map_err(|e| Failure::failed(e.to_string()))?;
            json.push(b'\n');
            crate::paths::write_atomic(&manifest, &json).map_err(|e| {
                Failure::failed(format!("cannot write {}: {e}", manifest.display()))
            })?;
            ctx.printer()
                .emit(&summary, |l| human(&summary, l, Some(path)));
            Ok(Written {
                summary,
                reader_left: false,
            })
        }
        None => {
            let mut w = UntilClosed {
                inner: std::io::stdout().lock(),
                closed: false,
            };
            let mut progress = super::output::Progress::new("audit export");
            let summary = export_with(audit, filter, format, &mut w, &mut |n| progress.tick(n));
            progress.finish();
            let summary = summary?;
            w.flush()
                .map_err(|e| Failure::failed(format!("stdout: {e}")))?;
            // Stdout carries the records; the summary goes to stderr.
            if ctx.printer().json {
                eprintln!("{}", serde_json::to_string(&summary).unwrap_or_default());
            } else {
                let mut lines = Vec::new();
                human(&summary, &mut lines, None);
                for l in lines {
                    eprintln!("{}", super::output::safe(&l));
                }
            }
            Ok(Written {
                summary,
                reader_left: w.closed,
            })
        }
    }
}

/// Stdout that treats its reader going away as the end of the output, not an error (see
/// `output::outln!`): later bytes are dropped.
struct UntilClosed<W: Write> {
    inner: W,
    closed: bool,
}

impl<W: Write> Write for UntilClosed<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        if self.closed {
            return Ok(buf.len());
        }
        match self.inner.write(buf) {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(buf.len())
            }
            other => other,
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        if self.closed {
            return Ok(());
        }
        match self.inner.flush() {
            Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
                self.closed = true;
                Ok(())
            }
            other => other,
        }
    }
}

/// `FILE.manifest.json` beside the export.
pub fn manifest_path(out: &Path) -> PathBuf {
    let mut name = out.file_name().unwrap_or_default().to_os_string();
    name.push(".manifest.json");
    out.with_file_name(name)
}

/// Write into a 0600 sibling and rename it over `path`: a reader never sees half an export,
/// and an interrupted export leaves the previous file (if any) as it was.
fn to_file(
    audit: &Audit,
    filter: &ExportFilter,
    format: ExportFormat,
    path: &Path,
) -> Result<ExportSummary, Failure> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p,
        _ => Path::new("."),
    };
    let fail = |what: &str, e: &dyn std::fmt::Display| {
        Failure::failed(format!("cannot {what} {}: {e}", path.display()))
    };
    // tempfile creates 0600.
    let mut tmp = tempfile::Builder::new()
        .prefix(".opsdesk-export")
        .tempfile_in(dir)
        .map_err(|e| fail("write", &e))?;
    let summary = {
        let mut w = std::io::BufWriter::new(tmp.as_file_mut());
        let mut progress = super::output::Progress::new("audit export");
        let s = export_with(audit, filter, format, &mut w, &mut |n| progress.tick(n));
        progress.finish();
        let s = s?;
        w.flush().map_err(|e| fail("write", &e))?;
        s
    };
    tmp.as_file().sync_all().map_err(|e| fail("write", &e))?;
    tmp.persist(path).map_err(|e| fail("write", &e.error))?;
    crate::paths::sync_dir(dir).map_err(|e| fail("write", &e))?;
    Ok(summary)
}

fn describe(f: &ExportFilter, format: ExportFormat, out: Option<&Path>) -> String {
    let mut parts = vec![match format {
        ExportFormat::Jsonl => "jsonl".to_string(),
        ExportFormat::Csv => "csv".to_string(),
    }];
    if let Some(a) = &f.actor {
        parts.push(format!("actor {a}"));
    }
    if let Some(p) = &f.profile {
        parts.push(format!("profile {p}"));
    }
    if let Some(e) = &f.event {
        parts.push(format!("event {e}"));
    }
    if let Some(o) = f.outcome {
        parts.push(format!("outcome {}", o.as_str()));
    }
    parts.push(match out {
        Some(p) => format!("to {}", p.display()),
        None => "to stdout".to_string(),
    });
    format!("export {}", parts.join(", "))
}

fn human(s: &ExportSummary, l: &mut Vec<String>, out: Option<&Path>) {
    match out {
        Some(p) => l.push(format!(
            "exported {} of {} record(s) in the range to {} (summary: {})",
            s.exported_records,
            s.span_records,
            p.display(),
            manifest_path(p).display()
        )),
        None => l.push(format!(
            "exported {} of {} record(s) in the range",
            s.exported_records, s.span_records
        )),
    }
    match (&s.first, &s.last) {
        (Some(f), Some(last)) => {
            l.push(format!(
                "first: record {} hash {} (prev {})",
                f.seq, f.hash, f.prev
            ));
            l.push(format!("last:  record {} hash {}", last.seq, last.hash));
        }
        _ => l.push("the range holds no records".to_string()),
    }
    match &s.span_break {
        None => l.push("span: chain verified".to_string()),
        Some(b) => l.push(format!("span: chain BROKEN: {b}")),
    }
    match &s.trail_break {
        None => l.push("trail: chain verified up to its anchor".to_string()),
        Some(b) => l.push(format!("trail: chain BROKEN: {b}")),
    }
}
