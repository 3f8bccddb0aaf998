//! `opsdesk audit export`: the records of a time range, for someone who does not run opsdesk.
//!
//! The export carries the proof with it. While the records are copied, the span is checked the
//! way `verify` checks the whole trail: every exported-range record's hash is recomputed and it
//! must link (`seq`, `prev`) to the record just before it in the trail, in range or not (so a
//! clock that stepped back does not read as a break). The summary names the span's first and
//! last seq and hash and the first record's `prev`, which a verifier compares with the live
//! trail; the whole trail is verified as well (anchor included) and both results are stated.
//!
//! JSONL lines are the stored lines byte for byte, so their hashes recompute. CSV is for
//! reading: text cells that a spreadsheet would run as a formula (`= + - @`, tab, CR) get a
//! leading `'`, which makes those cells differ from the stored record; verify with JSONL.
//! Free text is exported as stored: reasons were scrubbed when they were written.

use std::io::Write;

use serde::Serialize;
use time::OffsetDateTime;

use super::StoreError;
use super::audit::{Anchor, Audit, GENESIS, record_hash};
use super::jsonl::Lines;
use crate::domain::{AuditOutcome, AuditRecord};

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum ExportFormat {
    Jsonl,
    Csv,
}

/// Which records go out. The time range defines the verified span; the other filters only
/// choose which of the span's records are written.
#[derive(Debug, Clone, Serialize)]
pub struct ExportFilter {
    #[serde(with = "time::serde::rfc3339")]
    pub from: OffsetDateTime,
    /// Exclusive.
    #[serde(with = "time::serde::rfc3339")]
    pub until: OffsetDateTime,
    /// `mcp:claude-code` exactly, or every actor of a kind with a trailing colon (`mcp:`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub actor: Option<String>,
    /// The record's entity (profile) name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub profile: Option<String>,
    /// `draft.approved` exactly, or a family with a trailing dot (`draft.`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub outcome: Option<AuditOutcome>,
}

impl ExportFilter {
    pub fn new(from: OffsetDateTime, until: OffsetDateTime) -> ExportFilter {
        ExportFilter {
            from,
            until,
            actor: None,
            profile: None,
            event: None,
            outcome: None,
        }
    }

    fn in_span(&self, ts: OffsetDateTime) -> bool {
        ts >= self.from && ts < self.until
    }

    fn selects(&self, r: &AuditRecord) -> bool {
        let e = &r.event;
        let family = |want: &str, have: &str, sep: char| {
            if want.ends_with(sep) {
                have.starts_with(want)
            } else {
                have == want
            }
        };
        self.actor
            .as_deref()
            .is_none_or(|a| family(a, &e.actor, ':'))
            && self
                .profile
                .as_deref()
                .is_none_or(|p| e.entity.as_deref() == Some(p))
            && self
                .event
                .as_deref()
                .is_none_or(|v| family(v, &e.event, '.'))
            && self.outcome.is_none_or(|o| e.outcome == o)
    }
}

/// A record named by its place and hash.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct SpanEnd {
    pub seq: u64,
    pub hash: String,
    /// The hash of the record before it (64 zeros for the trail's first).
    pub prev: String,
}

/// What the export holds and whether the chain vouched for it.
#[derive(Debug, Clone, Serialize)]
pub struct ExportSummary {
    pub format: ExportFormat,
    pub filter: ExportFilter,
    /// The first and last record of the time range in the trail (`None`: the range is empty).
    pub first: Option<SpanEnd>,
    pub last: Option<SpanEnd>,
    /// Records of the time range, and how many of them the filters let out.
    pub span_records: u64,
    pub exported_records: u64,
    /// Every record of the span recomputes and links to its predecessor.
    pub span_verified: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub span_break: Option<String>,
    /// The whole trail verifies, the anchor included (`audit verify`).
    pub trail_verified: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub trail_break: Option<String>,
    pub trail_anchor: Option<Anchor>,
}

impl ExportSummary {
    pub fn verified(&self) -> bool {
        self.span_verified && self.trail_verified
    }
}

const CSV_COLUMNS: [&str; 12] = [
    "seq",
    "ts",
    "event",
    "actor",
    "entity",
    "tool",
    "outcome",
    "reason",
    "duration_ms",
    "target",
    "prev",
    "hash",
];

/// A cell a spreadsheet will not evaluate: leading `= + - @` (and tab / CR, which some
/// spreadsheets strip before looking) get a `'` in front.
pub(crate) fn csv_cell(s: &str) -> std::borrow::Cow<'_, str> {
    match s.chars().next() {
        Some('=' | '+' | '-' | '@' | '\t' | '\r') => format!("'{s}").into(),
        _ => s.into(),
    }
}

enum Sink<'w> {
    Jsonl(&'w mut dyn Write),
    Csv(Box<csv::Writer<&'w mut dyn Write>>),
}

impl Sink<'_> {
    fn write(&mut self, raw: &[u8], r: &AuditRecord) -> Result<(), String> {
        match self {
            Sink::Jsonl(w) => w
                .write_all(raw)
                .and_then(|_| w.write_all(b"\n"))
                .map_err(|e| e.to_string()),
            Sink::Csv(w) => {
                let e = &r.event;
                let ts =
                    r.ts.format(&time::format_description::well_known::Rfc3339)
                        .map_err(|e| e.to_string())?;
                fn opt(o: &Option<String>) -> std::borrow::Cow<'_, str> {
                    o.as_deref().map(csv_cell).unwrap_or_default()
                }
                let row: [std::borrow::Cow<'_, str>; 12] = [
                    r.seq.to_string().into(),
                    ts.into(),
                    csv_cell(&e.event),
                    csv_cell(&e.actor),
                    opt(&e.entity),
                    opt(&e.tool),
                    e.outcome.as_str().into(),
                    opt(&e.reason),
                    e.duration_ms
                        .map(|d| d.to_string())
                        .unwrap_or_default()
                        .into(),
                    opt(&e.target),
                    csv_cell(&r.prev),
                    csv_cell(&r.hash),
                ];
                w.write_record(row.iter().map(|c| c.as_bytes()))
                    .map_err(|e| e.to_string())
            }
        }
    }

    fn finish(self) -> Result<(), String> {
        match self {
            Sink::Jsonl(w) => w.flush().map_err(|e| e.to_string()),
            Sink::Csv(mut w) => w.flush().map_err(|e| e.to_string()),
        }
    }
}

/// A month's lines with their numbers, read from a live file or an archive.
type NumberedLines = Box<dyn Iterator<Item = Result<(u64, Vec<u8>), StoreError>>>;

/// One line of a month, live or archived.
struct LineOf {
    number: u64,
    bytes: Vec<u8>,
}

/// Write the span's selected records to `out` and say what was written and whether it verified.
/// A broken chain does not stop the export (the officer may need the records anyway); it is
/// stated in the summary, and the caller decides the exit status.
pub fn export(
    audit: &Audit,
    filter: &ExportFilter,
    format: ExportFormat,
    out: &mut dyn Write,
) -> Result<ExportSummary, StoreError> {
    export_with(audit, filter, format, out, &mut |_| {})
}

/// [`export`], telling `progress` how many records of the trail it has read so far (every
/// [`super::audit::PROGRESS_EVERY`]), so a long export can say it is alive.
pub fn export_with(
    audit: &Audit,
    filter: &ExportFilter,
    format: ExportFormat,
    out: &mut dyn Write,
    progress: &mut dyn FnMut(u64),
) -> Result<ExportSummary, StoreError> {
    let mut read = 0u64;
    let mut sink = match format {
        ExportFormat::Jsonl => Sink::Jsonl(out),
        ExportFormat::Csv => {
            let mut w = csv::WriterBuilder::new()
                .quote_style(csv::QuoteStyle::Necessary)
                .from_writer(out);
            w.write_record(CSV_COLUMNS)
                .map_err(|e| StoreError::Rejected(format!("cannot write the export: {e}")))?;
            Sink::Csv(Box::new(w))
        }
    };
    let write_err = |e: String| StoreError::Rejected(format!("cannot write the export: {e}"));

    let mut summary = ExportSummary {
        format,
        filter: filter.clone(),
        first: None,
        last: None,
        span_records: 0,
        exported_records: 0,
        span_verified: true,
        span_break: None,
        trail_verified: false,
        trail_break: None,
        trail_anchor: None,
    };
    // The trail's previous record as read (seq, hash), whatever its time.
    let mut before: (u64, String) = (0, GENESIS.to_string());
    // Archived months first (retention keeps them compressed, in chain order), then the live
    // month files; a month archived but not yet removed is read once, from its archive.
    let archives = super::audit_archive::notes(audit.dir())?;
    let mut sources: Vec<(std::path::PathBuf, bool)> = archives
        .values()
        .map(|a| (audit.dir().join(a.file()), true))
        .collect();
    for path in audit.files()? {
        let month = path.file_stem().and_then(|m| m.to_str()).unwrap_or("");
        if !archives.contains_key(month) {
            sources.push((path, false));
        }
    }
    for (path, archived) in sources {
        let lines: NumberedLines = if archived {
            let text = super::audit_archive::read_archive(&path)?;
            let lines: Vec<_> = text
                .split(|b| *b == b'\n')
                .filter(|l| !l.is_empty())
                .enumerate()
                .map(|(i, l)| Ok((i as u64 + 1, l.to_vec())))
                .collect();
            Box::new(lines.into_iter())
        } else {
            let p = path.clone();
            Box::new(
                Lines::open(&path, 0)
                    .map_err(|e| StoreError::io(&path, "open", e))?
                    .map(move |l| {
                        l.map(|l| (l.number, l.bytes))
                            .map_err(|e| StoreError::io(&p, "read", e))
                    }),
            )
        };
        for line in lines {
            let (number, bytes) = line?;
            read += 1;
            if read.is_multiple_of(super::audit::PROGRESS_EVERY) {
                progress(read);
            }
            let line = LineOf { number, bytes };
            let at = format!("{} line {}", path.display(), line.number);
            let parsed = serde_json::from_slice::<serde_json::Value>(&line.bytes)
                .ok()
                .and_then(|v| {
                    let r = serde_json::from_value::<AuditRecord>(v.clone()).ok()?;
                    Some((v, r))
                });
            let Some((value, record)) = parsed else {
                // Cannot tell whether it belongs to the span: after the span started, it breaks it.
                if summary.first.is_some() && summary.span_break.is_none() {
                    summary.span_break = Some(format!("{at}: not an audit record"));
                }
                continue;
            };
            if filter.in_span(record.ts) {
                let problem = if record.seq != before.0 + 1 {
                    Some(format!(
                        "record {} follows record {} (a record was removed or inserted)",
                        record.seq, before.0
                    ))
                } else if record.prev != before.1 {
                    Some(format!(
                        "record {}'s prev does not match record {}'s hash",
                        record.seq, before.0
                    ))
                } else if record_hash(&value).as_deref() != Some(record.hash.as_str()) {
                    Some(format!(
                        "record {}'s hash does not match its content (altered)",
                        record.seq
                    ))
                } else {
                    None
                };
                if let Some(p) = problem
                    && summary.span_break.is_none()
                {
                    summary.span_break = Some(format!("{at}: {p}"));
                }
                let end = SpanEnd {
                    seq: record.seq,
                    hash: record.hash.clone(),
                    prev: record.prev.clone(),
                };
                if summary.first.is_none() {
                    summary.first = Some(end.clone());
                }
                summary.last = Some(end);
                summary.span_records += 1;
                if filter.selects(&record) {
                    sink.write(&line.bytes, &record).map_err(write_err)?;
                    summary.exported_records += 1;
                }
            }
            before = (record.seq, record.hash);
        }
    }
    sink.finish().map_err(write_err)?;
    summary.span_verified = summary.span_break.is_none();

    let report = audit.verify()?;
    summary.trail_verified = report.ok();
    summary.trail_break = report.first_bad.as_ref().map(|b| {
        format!(
            "{}{}{}: {}",
            b.file.display(),
            if b.line > 0 {
                format!(" line {}", b.line)
            } else {
                String::new()
            },
            b.seq.map(|s| format!(" (record {s})")).unwrap_or_default(),
            b.reason
        )
    });
    summary.trail_anchor = report.anchor;
    Ok(summary)
}

/// `2026-11-01` (midnight UTC) or an RFC 3339 time. `end_of_day`: a bare date means the end of
/// that day (so `--to 2026-11-30` includes the 30th).
pub fn parse_bound(s: &str, end_of_day: bool) -> Result<OffsetDateTime, String> {
    use time::format_description::well_known::Rfc3339;
    if let Ok(t) = OffsetDateTime::parse(s, &Rfc3339) {
        return Ok(if end_of_day {
            t + time::Duration::nanoseconds(1)
        } else {
            t
        });
    }
    let fmt = time::macros::format_description!("[year]-[month]-[day]");
    let date = time::Date::parse(s, &fmt).map_err(|_| {
        format!("\"{s}\" is not a date: use YYYY-MM-DD (UTC) or an RFC 3339 time such as 2026-11-25T09:00:00Z")
    })?;
    let day = date.midnight().assume_utc();
    Ok(if end_of_day {
        day + time::Duration::days(1)
    } else {
        day
    })
}
