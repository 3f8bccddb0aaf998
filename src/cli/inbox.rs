use std::io::Read;
use std::path::PathBuf;

use clap::Subcommand;
use serde_json::json;

use super::output::{Printer, attachment_lines, local_time, safe, zone_of};
use super::{CmdResult, Context, Failure};
use crate::domain::{Actor, Channel, NewMessage, Party, Query, now};
use crate::engine::query::Answer;
use crate::store::inbox::{Appended, Filter};

#[derive(Debug, Subcommand)]
pub enum InboxCmd {
    /// Add an item to the inbox (as a source would).
    Add(AddArgs),
    /// List items, newest first.
    List {
        /// At most this many items.
        #[arg(long, default_value_t = 20)]
        limit: usize,
        /// Only this channel: email, teams, calendar, spool.
        #[arg(long)]
        channel: Option<Channel>,
        /// Only this profile.
        #[arg(long)]
        profile: Option<String>,
        /// Only items with these words in sender, subject, body or attachments (any case and
        /// word form; `"a phrase"`, `pref*`, `-word`, `from:`, `subject:`).
        #[arg(long)]
        grep: Option<String>,
        /// Only items with a seq below this (for paging).
        #[arg(long, value_parser = super::seq_arg)]
        before: Option<u64>,
    },
    /// Read what a consumer has not consumed yet and move its cursor.
    Pull {
        /// The consumer whose cursor is read and moved (e.g. `cli`, `watch`).
        #[arg(long)]
        consumer: String,
        /// At most this many items.
        #[arg(long, default_value_t = 20)]
        limit: usize,
        /// Only this channel: email, teams, calendar, spool.
        #[arg(long)]
        channel: Option<Channel>,
        /// Only this profile.
        #[arg(long)]
        profile: Option<String>,
        /// Leave the cursor where it is.
        #[arg(long)]
        no_mark: bool,
    },
    /// Show one item by seq or source id.
    Show {
        /// A seq number (`12` or `#12` as lists print it) or the source's id.
        key: String,
    },
    /// Unread count, last seq and consumer cursors.
    State,
    /// Read every record back and check its checksum; exit 3 and name the damaged records.
    Verify,
    /// Rebuild the full-text search index from the inbox files. Never needed for correctness
    /// (a missing or stale index is rebuilt by itself); reclaims its disk after many deletes.
    Reindex,
}

/// `inbox add`: the item as a source would deliver it.
#[derive(Debug, clap::Args)]
pub struct AddArgs {
    /// Profile (entity) the item belongs to. Default: the only profile, if there is one.
    #[arg(long)]
    pub profile: Option<String>,
    /// Channel of the item: email, teams, calendar, spool.
    #[arg(long, default_value = "spool")]
    pub channel: Channel,
    /// Sender, as `Name <address>` or a bare address.
    #[arg(long)]
    pub from: String,
    /// A recipient (repeat for several).
    #[arg(long)]
    pub to: Vec<String>,
    /// Subject line.
    #[arg(long)]
    pub subject: Option<String>,
    /// The source's stable id; a repeated id is not stored twice. Default: a new id.
    #[arg(long)]
    pub id: Option<String>,
    /// Thread (conversation) id, to group replies.
    #[arg(long)]
    pub thread: Option<String>,
    /// The body is HTML (converted to text at ingestion).
    #[arg(long)]
    pub html: bool,
    /// Body text; `-` reads standard input.
    #[arg(long, conflicts_with = "body_file")]
    pub body: Option<String>,
    /// Read the body from this file.
    #[arg(long, value_name = "FILE")]
    pub body_file: Option<PathBuf>,
}

pub fn run(ctx: &Context, cmd: InboxCmd) -> CmdResult {
    let out = ctx.printer();
    match cmd {
        InboxCmd::Verify => verify(ctx),
        InboxCmd::Reindex => reindex(ctx),
        InboxCmd::Add(args) => add(ctx, &out, args),
        InboxCmd::List {
            limit,
            channel,
            profile,
            grep,
            before,
        } => list(ctx, &out, limit, channel, profile, grep, before),
        InboxCmd::Pull {
            consumer,
            limit,
            channel,
            profile,
            no_mark,
        } => pull(ctx, &out, consumer, limit, channel, profile, no_mark),
        InboxCmd::Show { key } => {
            let engine = ctx.engine()?;
            let rec = match crate::domain::parse_seq(&key) {
                Some(seq) => engine.inbox_record(seq)?,
                None => engine.inbox_record_by_id(&key)?,
            }
            .ok_or_else(|| {
                Failure::usage(format!(
                    "no inbox item `{key}` (give a seq number or a source id)"
                ))
            })?;
            out.emit(&rec, |l| {
                l.push(format!(
                    "#{}  {}  {}  {} {}",
                    rec.seq,
                    rec.channel,
                    rec.profile,
                    local_time(rec.ts),
                    zone_of(rec.ts)
                ));
                l.push(format!("id:      {}", rec.id));
                l.push(format!("from:    {} <{}>", rec.from.name, rec.from.address));
                if let Some(s) = &rec.subject {
                    l.push(format!("subject: {s}"));
                }
                l.push(String::new());
                l.push(safe(&rec.text));
                let mut atts = attachment_lines(&rec.attachments, |h| engine.attachment_path(h));
                let dropped =
                    crate::store::attachments::dropped_count(&rec.meta, rec.attachments.len());
                if dropped > 0 {
                    atts.push(format!(
                        "  … and {dropped} more attachment(s) dropped, not stored (a message keeps at most {})",
                        crate::sanitize::MAX_ATTACHMENTS
                    ));
                }
                if !atts.is_empty() {
                    l.push(String::new());
                    l.extend(atts);
                }
            });
            Ok(())
        }
        InboxCmd::State => {
            let engine = ctx.engine()?;
            let st = engine.inbox_state()?;
            out.emit(&st, |l| {
                l.push(format!("last seq {}, unread {}", st.last_seq, st.unread));
                for (k, v) in &st.consumers {
                    l.push(format!("  {k}: {v}"));
                }
            });
            Ok(())
        }
    }
}

fn read_body(body: Option<String>, file: Option<PathBuf>) -> Result<String, Failure> {
    let read_all = |mut r: Box<dyn Read>, what: &str| {
        let mut b = Vec::new();
        r.read_to_end(&mut b)
            .map_err(|e| Failure::failed(format!("cannot read {what}: {e}")))?;
        String::from_utf8(b).map_err(|_| Failure::usage(format!("{what} is not UTF-8 text")))
    };
    match (body, file) {
        (Some(b), _) if b == "-" => read_all(Box::new(std::io::stdin()), "standard input"),
        (Some(b), _) => Ok(b),
        (None, Some(f)) => {
            let file = std::fs::File::open(&f)
                .map_err(|e| Failure::usage(format!("cannot open {}: {e}", f.display())))?;
            read_all(Box::new(file), &f.display().to_string())
        }
        (None, None) => Err(Failure::usage(
            "give the body with --body TEXT, --body - (stdin) or --body-file FILE",
        )),
    }
}

/// `Name <addr>` or a bare address.
pub fn parse_party(s: &str) -> Party {
    let s = s.trim();
    if let Some((name, rest)) = s.rsplit_once('<')
        && let Some(addr) = rest.strip_suffix('>')
    {
        return Party::new(name.trim().trim_matches('"'), addr.trim());
    }
    Party::new("", s)
}

fn warn_skipped(n: u64) {
    if n > 0 {
        eprintln!(
            "opsdesk: {n} damaged inbox record(s) were skipped; `opsdesk inbox verify` names them"
        );
    }
}

/// `inbox reindex`: the search index dropped and built again, with a progress line.
fn reindex(ctx: &Context) -> CmdResult {
    let inbox = crate::store::inbox::Inbox::open(&ctx.paths.inbox_dir())?;
    let mut progress = super::output::Progress::new("inbox reindex");
    let started = std::time::Instant::now();
    let done = inbox.reindex(&mut |n, _| progress.tick(n));
    progress.finish();
    let indexed = done?;
    let (_, bytes) = inbox.index_stats()?;
    let secs = started.elapsed().as_secs_f64();
    ctx.printer().emit(
        &json!({"indexed": indexed, "index_bytes": bytes, "seconds": secs}),
        |l| {
            l.push(format!(
                "search index rebuilt: {indexed} record(s) in {secs:.1} s, {:.1} MiB on disk",
                bytes as f64 / (1024.0 * 1024.0)
            ))
        },
    );
    Ok(())
}

/// `inbox verify`: every record read back against its checksum; damage exits 3 (integrity).
fn verify(ctx: &Context) -> CmdResult {
    // A reader: no engine, no lock (a missing or short index is still rebuilt under the lock).
    // The key is loaded, never created (see `audit verify`).
    let key = crate::store::integrity::for_verifier(&ctx.paths)?;
    let inbox = crate::store::inbox::Inbox::open(&ctx.paths.inbox_dir())?
        .with_key(key.map(std::sync::Arc::new));
    let mut progress = super::output::Progress::new("inbox verify");
    let report = inbox.verify_with(&mut |n| progress.tick(n));
    progress.finish();
    let report = report?;
    let unchecked =
        (!report.macs_checked).then(|| crate::store::integrity::missing_reason(&ctx.paths));
    let mut json = serde_json::to_value(&report).map_err(|e| Failure::failed(e.to_string()))?;
    if let Some(o) = json.as_object_mut() {
        o.insert("macs_unchecked_reason".into(), json!(unchecked));
    }
    ctx.printer().emit(&json, |l| {
        if report.ok() {
            l.push(format!(
                "inbox intact: {} record(s), every checksum matches",
                report.records
            ));
        }
        let legacy = if report.unkeyed_legacy > 0 {
            format!(
                "; {} record(s) written before keying (not keyed)",
                report.unkeyed_legacy
            )
        } else {
            String::new()
        };
        let from = report
            .keyed_from
            .map(|s| format!(" (from #{s})"))
            .unwrap_or_default();
        l.push(match &unchecked {
            None => format!(
                "keyed: {} record(s) with a valid mac{from}{legacy}",
                report.keyed
            ),
            Some(why) => format!(
                "macs NOT checked: {why}; {} record(s) carry a mac{from}{legacy}. Only the checksums were checked, which anyone who can write the data dir can recompute",
                report.keyed
            ),
        });
        for d in &report.damaged {
            l.push(format!("record #{} DAMAGED: {}", d.seq, safe(&d.reason)));
        }
        if !report.holes.is_empty() {
            l.push(format!(
                "note: {} seq(s) lost before an index rebuild are empty: {}",
                report.holes.len(),
                report
                    .holes
                    .iter()
                    .map(|s| format!("#{s}"))
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
        }
    });
    if report.ok() {
        Ok(())
    } else {
        Err(Failure::integrity(format!(
            "{} damaged inbox record(s): {} (readers skip them; restore the inbox directory from a backup to recover them)",
            report.damaged.len(),
            report
                .damaged
                .iter()
                .map(|d| format!("#{}", d.seq))
                .collect::<Vec<_>>()
                .join(", ")
        )))
    }
}

/// `inbox add`: store one item through the engine, as a source would.
fn add(ctx: &Context, out: &Printer, a: AddArgs) -> CmdResult {
    let AddArgs {
        profile,
        channel,
        from,
        to,
        subject,
        id,
        thread,
        html,
        body,
        body_file,
    } = a;
    let engine = ctx.engine()?;
    let profile = match profile {
        Some(p) => p,
        None => {
            let names = engine.profile_names();
            match names.as_slice() {
                [only] => only.clone(),
                _ => {
                    return Err(Failure::usage(format!(
                        "--profile is required; profiles: {}",
                        names.join(", ")
                    )));
                }
            }
        }
    };
    let names = engine.profile_names();
    if !names.contains(&profile) && !engine.takes_unassigned(&profile) {
        // A fresh setup has only `default`, and the README's examples use `work`: say how
        // to get one, not only that it is missing.
        return Err(Failure::usage(format!(
            "unknown profile `{}`; configured profiles: {}. To add it, put `[profiles.{0}]` with `sources = [\"spool\"]` in {} (then `opsdesk config check`), or use --profile {}",
            crate::sanitize::one_line(&profile, 64),
            names.join(", "),
            ctx.paths.config_file.display(),
            names.first().map(String::as_str).unwrap_or("default"),
        )));
    }
    let body = read_body(body, body_file)?;
    let msg = NewMessage {
        id: id.unwrap_or_else(|| format!("cli:{}", uuid::Uuid::new_v4().simple())),
        profile,
        channel,
        thread_id: thread,
        from: parse_party(&from),
        to: to.iter().map(|t| parse_party(t)).collect(),
        subject,
        ts: now(),
        body,
        html,
        meta: Default::default(),
        attachments: Vec::new(),
    };
    match engine.ingest_checked(msg, "cli")? {
        (Appended::New(r), None) => out
            .emit(&json!({"stored": true, "seq": r.seq, "id": r.id}), |l| {
                l.push(format!("stored as #{} ({})", r.seq, r.id))
            }),
        // Stored but not audited (a full disk): say both, and fail so scripts notice.
        (Appended::New(r), Some(e)) => {
            let message = format!(
                "stored as #{} ({}), but the audit trail could not be written: {e}; `opsdesk audit verify` lists it",
                r.seq, r.id
            );
            out.emit(
                &json!({"stored": true, "seq": r.seq, "id": r.id, "audited": false, "audit_error": e}),
                |l| l.push(message.clone()),
            );
            return Err(Failure::failed(message));
        }
        (Appended::Duplicate { id, seq }, _) => out.emit(
            &json!({"stored": false, "duplicate_of": seq, "id": id}),
            |l| l.push(format!("already stored as #{seq} ({id}); not added again")),
        ),
    }
    Ok(())
}

/// `inbox list`: newest first, one page (the operator's unaudited read).
fn list(
    ctx: &Context,
    out: &Printer,
    limit: usize,
    channel: Option<Channel>,
    profile: Option<String>,
    grep: Option<String>,
    before: Option<u64>,
) -> CmdResult {
    let engine = ctx.engine()?;
    let filter = Filter {
        channel,
        profile,
        text: grep,
    };
    let batch = engine.unaudited_inbox_page_before(before, limit, &filter)?;
    let mut time_w = 16;
    let profile_w = batch
        .records
        .iter()
        .map(|r| r.profile.chars().count())
        .max()
        .unwrap_or(0)
        .max(8);
    out.emit(&batch.records, |l| {
        if batch.records.is_empty() {
            l.push("(no items)".into());
        } else {
            let zone = zone_of(batch.records[0].ts);
            let time = format!("TIME ({zone})");
            // Columns as wide as their widest cell: a long zone or profile name must not push
            // the rest of its row out of line.
            time_w = time.chars().count().max(time_w);
            l.push(format!(
                "{:<7} {:<time_w$} {:<8} {:<profile_w$} {:<24} SUBJECT",
                "SEQ", time, "CHANNEL", "PROFILE", "FROM"
            ));
        }
        for r in &batch.records {
            l.push(format!(
                "#{:<6} {:<time_w$} {:<8} {:<profile_w$} {:<24} {}",
                r.seq,
                local_time(r.ts),
                r.channel,
                r.profile,
                crate::sanitize::bound(r.from.label(), 24),
                crate::sanitize::bound(r.subject.as_deref().unwrap_or(&r.preview), 60)
            ));
        }
    });
    warn_skipped(batch.skipped_corrupt);
    Ok(())
}

/// `inbox pull`: the same read as an MCP client's `inbox_pull`, for any named consumer.
fn pull(
    ctx: &Context,
    out: &Printer,
    consumer: String,
    limit: usize,
    channel: Option<Channel>,
    profile: Option<String>,
    no_mark: bool,
) -> CmdResult {
    let engine = ctx.engine()?;
    // The same read as an MCP client's `inbox_pull` (checks, audit, cursor move); the
    // operator may name any consumer.
    let query = Query::InboxPull {
        consumer: Some(consumer),
        since: None,
        limit,
        channel,
        profile,
        mark_consumed: !no_mark,
    };
    let batch = match engine.read(query, Actor::Cli)? {
        Answer::Pull(p) => p,
        other => {
            return Err(Failure::failed(format!(
                "unexpected {} answer to a pull",
                other.kind()
            )));
        }
    };
    // A pull moves the cursor in memory; this process ends now, so save it first.
    engine.save_cursors()?;
    let consumer = batch.consumer;
    let remaining = batch.unread_remaining;
    out.emit(
        &json!({"consumer": consumer, "messages": batch.messages, "unread_remaining": remaining}),
        |l| {
            for r in &batch.messages {
                l.push(format!(
                    "#{} [{} {}] {}: {}",
                    r.seq,
                    r.channel,
                    r.profile,
                    r.from.label(),
                    r.preview
                ));
            }
            l.push(format!(
                "{} item(s); {remaining} after the cursor",
                batch.messages.len()
            ));
        },
    );
    warn_skipped(batch.skipped_corrupt);
    Ok(())
}
